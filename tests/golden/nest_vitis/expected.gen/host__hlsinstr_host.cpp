// hlsinstr: generated file (hlsinstr rewrite --target vitis). Host program of the in-FPGA build:
// runs k_instr once with XRT's native C++ API and writes the monitor's debug buffer to a
// file for `hlsinstr decode`.
//
// Build (in host/):
//   g++ -std=c++17 -O2 hlsinstr_host.cpp -I$XILINX_XRT/include -I$XILINX_HLS/include -I.. -L$XILINX_XRT/lib -lxrt_coreutil -pthread -o hlsinstr_host
// Run:   ./hlsinstr_host k_instr.xclbin [NAME=FILE.bin] [NAME=VALUE] [NAME#COUNT] [-o dbg.bin] [-d DEVICE]
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

const std::size_t DUMP_WORDS = 182;
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
    xrt::kernel kernel(device, uuid, "k_instr");
    // int a[N][M]
    const std::size_t count_a = count_of("a", static_cast<std::size_t>(N));
    xrt::bo bo_a(device, count_a * sizeof(int), kernel.group_id(0));
    load("a", bo_a.map<char*>(), count_a * sizeof(int));
    bo_a.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    // int b[N][M][2]
    const std::size_t count_b = count_of("b", static_cast<std::size_t>(N));
    xrt::bo bo_b(device, count_b * sizeof(int), kernel.group_id(1));
    load("b", bo_b.map<char*>(), count_b * sizeof(int));
    bo_b.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    // int n
    const int v_n = scalar<int>("n");
    // int *out
    const std::size_t count_out = count_of("out", 0);
    xrt::bo bo_out(device, count_out * sizeof(int), kernel.group_id(3));
    load("out", bo_out.map<char*>(), count_out * sizeof(int));
    bo_out.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    xrt::bo dbg(device, DUMP_WORDS * 8, kernel.group_id(4));
    std::memset(dbg.map<char*>(), 0, DUMP_WORDS * 8);
    dbg.sync(XCL_BO_SYNC_BO_TO_DEVICE);
    auto run = kernel(bo_a, bo_b, v_n, bo_out, dbg);
    run.wait();
    bo_a.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("a.out.bin", bo_a.map<char*>(), count_a * sizeof(int));
    bo_b.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("b.out.bin", bo_b.map<char*>(), count_b * sizeof(int));
    bo_out.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save("out.out.bin", bo_out.map<char*>(), count_out * sizeof(int));
    dbg.sync(XCL_BO_SYNC_BO_FROM_DEVICE);
    save(dump, dbg.map<char*>(), DUMP_WORDS * 8);
    std::cerr << "hlsinstr_host: debug buffer written to " << dump << "; decode it with `hlsinstr decode " << dump
              << " --manifest hlsinstr-manifest.json`\n";
    return 0;
} catch (const std::exception& e) {
    std::cerr << "hlsinstr_host: " << e.what() << "\n";
    return 1;
}
