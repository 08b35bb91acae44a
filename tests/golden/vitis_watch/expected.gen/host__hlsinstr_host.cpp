// hlsinstr: generated file (hlsinstr rewrite --target vitis). Host program of the in-FPGA build:
// runs top_instr once with XRT's native C++ API and writes the monitor's debug buffer to a
// file for `hlsinstr decode` (and the trace buffer).
//
// Build (in host/):
//   g++ -std=c++17 -O2 hlsinstr_host.cpp -I$XILINX_XRT/include -I$XILINX_HLS/include -I.. -L$XILINX_XRT/lib -lxrt_coreutil -pthread -o hlsinstr_host
// Run:   ./hlsinstr_host top_instr.xclbin [NAME=FILE.bin] [NAME=VALUE] [NAME#COUNT] [-o dbg.bin] [-d DEVICE]
//   NAME=FILE.bin  fill buffer argument NAME from a raw binary file (zeros otherwise)
//   NAME=VALUE     scalar argument NAME (0 otherwise)
//   NAME#COUNT     elements of buffer NAME when its declaration has no extent
// Every buffer argument is written back to NAME.out.bin after the run.
#include <xrt/xrt_bo.h>
#include <xrt/xrt_device.h>
#include <xrt/xrt_kernel.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>


namespace {

const std::size_t DUMP_WORDS = 6;
const std::size_t TRACE_WORDS = 65546;

// `dbg.bin` -> `dbg-trace.bin`: the trace's file beside the monitor's.
std::string with_suffix(const std::string& path, const std::string& suffix) {
    std::size_t slash = path.rfind('/'), dot = path.rfind('.');
    if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + suffix;
    return path.substr(0, dot) + suffix + path.substr(dot);
}
std::map<std::string, std::string> values, files, counts;

std::size_t count_of(const std::string& name, std::size_t declared) {
    auto it = counts.find(name);
    if (it != counts.end()) return std::stoull(it->second);
    if (declared == 0) throw std::runtime_error("buffer argument " + name + " has no declared extent: pass " + name + "#COUNT");
    return declared;
}

void load(const std::string& name, char* dst, std::size_t bytes) {
    std::memset(dst, 0, bytes);
    auto it = files.find(name);
    if (it == files.end()) return;
    std::ifstream in(it->second, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + it->second);
    in.read(dst, static_cast<std::streamsize>(bytes));
}

void save(const std::string& path, const char* src, std::size_t bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(src, static_cast<std::streamsize>(bytes));
    if (!out) throw std::runtime_error("cannot write " + path);
}

template <class T>
T scalar(const std::string& name) {
    auto it = values.find(name);
    if (it == values.end()) return T();
    std::istringstream in(it->second);
    typename std::conditional<std::is_floating_point<T>::value, long double, long long>::type v{};
    if (!(in >> v)) throw std::runtime_error("scalar argument " + name + ": not a number: " + it->second);
    return static_cast<T>(v);
}

} // namespace

int main(int argc, char** argv) try {
    if (argc < 2) {
        std::cerr << "usage: " << argv[0] << " KERNEL.xclbin [NAME=FILE.bin|NAME=VALUE|NAME#COUNT]... [-o dbg.bin] [-d DEVICE]\n";
        return 2;
    }
    std::string xclbin = argv[1], dump = "dbg.bin";
    unsigned device_index = 0;
    for (int i = 2; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "-o" && i + 1 < argc) dump = argv[++i];
        else if (a == "-d" && i + 1 < argc) device_index = static_cast<unsigned>(std::stoul(argv[++i]));
        else if (a.find('#') != std::string::npos) counts[a.substr(0, a.find('#'))] = a.substr(a.find('#') + 1);
        else if (a.find('=') != std::string::npos) {
            std::string name = a.substr(0, a.find('=')), value = a.substr(a.find('=') + 1);
            (value.find(".bin") != std::string::npos ? files : values)[name] = value;
        } else throw std::runtime_error("unknown argument " + a);
    }
    xrt::device device(device_index);
    auto uuid = device.load_xclbin(xclbin);
    xrt::kernel kernel(device, uuid, "top_instr");
    // int data[N]
    const std::size_t count_data = count_of("data", static_cast<std::size_t>(N));
    xrt::bo bo_data(device, count_data * sizeof(int), kernel.group_id(0));
    load("data", bo_data.map<char*>(), count_data * sizeof(int));
    bo_data.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    // int other[N]
    const std::size_t count_other = count_of("other", static_cast<std::size_t>(N));
    xrt::bo bo_other(device, count_other * sizeof(int), kernel.group_id(1));
    load("other", bo_other.map<char*>(), count_other * sizeof(int));
    bo_other.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    // int k
    const int v_k = scalar<int>("k");
    // int& hlsinstr_return
    const std::size_t count_hlsinstr_return = count_of("hlsinstr_return", 1);
    xrt::bo bo_hlsinstr_return(device, count_hlsinstr_return * sizeof(int), kernel.group_id(3));
    load("hlsinstr_return", bo_hlsinstr_return.map<char*>(), count_hlsinstr_return * sizeof(int));
    bo_hlsinstr_return.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    // The trace buffer: header + the DRAM ring of TRACE_RECORDS records.
    xrt::bo trace(device, TRACE_WORDS * 8, kernel.group_id(4));
    std::memset(trace.map<char*>(), 0, TRACE_WORDS * 8);
    trace.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    auto run = kernel(bo_data, bo_other, v_k, bo_hlsinstr_return, trace);
    run.wait();
    bo_data.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("data.out.bin", bo_data.map<char*>(), count_data * sizeof(int));
    bo_other.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("other.out.bin", bo_other.map<char*>(), count_other * sizeof(int));
    bo_hlsinstr_return.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("hlsinstr_return.out.bin", bo_hlsinstr_return.map<char*>(), count_hlsinstr_return * sizeof(int));
    trace.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    const std::string trace_dump = dump;
    save(trace_dump, trace.map<char*>(), TRACE_WORDS * 8);
    std::cerr << "hlsinstr_host: trace buffer written to " << trace_dump << "; decode it with `hlsinstr decode "
              << trace_dump << " --manifest hlsinstr-manifest.json`\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "hlsinstr_host: " << e.what() << "\n";
    return 1;
}
