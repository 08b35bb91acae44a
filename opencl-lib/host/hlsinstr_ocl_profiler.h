// hlsinstr: the host side of the iBuffer units (opencl-lib/hlsinstr_ibuffer.cl) for any design:
// resets, starts, stops and reads every unit through the host interface kernel
// hlsinstr_host(cmd, id, out), and writes the binary dump (magic "HLSIOCL1"; hlsinstr
// docs/opencl.md, "Host side", and docs/opencl-dump.md). C++11, OpenCL 1.2 C API only. Hosts use it through the
// hlsinstr_ocl_host.h that `hlsinstr rewrite` generates for their kernels (the unit table, the
// manifest key and hlsinstr_ocl::Profiler); put opencl-lib/host on the include path.
//
// Every method returns a Status: ok(), or the failed OpenCL call with its error name and code
// ("clCreateKernel(hlsinstr_host): CL_INVALID_KERNEL_NAME (-46) ..."). Nothing throws or exits.
// The context, queue and program must outlive the profiler. Each command is one single
// work-item launch of hlsinstr_host on `queue` per unit, then clFinish(queue): call them while
// the kernels under test are not running (before launching them, after they finished).
#ifndef HLSINSTR_OCL_PROFILER_H
#define HLSINSTR_OCL_PROFILER_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include "hlsinstr_ocl_records.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace hlsinstr_ocl {

// Records per unit unless the profiler is told otherwise: the kernels' HLSINSTR_IBUFFER_DEPTH
// when this file sees it, else opencl-lib's default.
#ifdef HLSINSTR_IBUFFER_DEPTH
static const size_t kDefaultDepth = HLSINSTR_IBUFFER_DEPTH;
#else
static const size_t kDefaultDepth = 1024;
#endif

// The name of an OpenCL 1.2 error code.
inline const char* error_name(cl_int code) {
    switch (code) {
#define HLSINSTR_OCL_ERROR(e) \
    case e: return #e;
        HLSINSTR_OCL_ERROR(CL_SUCCESS)
        HLSINSTR_OCL_ERROR(CL_DEVICE_NOT_FOUND)
        HLSINSTR_OCL_ERROR(CL_DEVICE_NOT_AVAILABLE)
        HLSINSTR_OCL_ERROR(CL_COMPILER_NOT_AVAILABLE)
        HLSINSTR_OCL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        HLSINSTR_OCL_ERROR(CL_OUT_OF_RESOURCES)
        HLSINSTR_OCL_ERROR(CL_OUT_OF_HOST_MEMORY)
        HLSINSTR_OCL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
        HLSINSTR_OCL_ERROR(CL_MEM_COPY_OVERLAP)
        HLSINSTR_OCL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
        HLSINSTR_OCL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        HLSINSTR_OCL_ERROR(CL_BUILD_PROGRAM_FAILURE)
        HLSINSTR_OCL_ERROR(CL_MAP_FAILURE)
        HLSINSTR_OCL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        HLSINSTR_OCL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        HLSINSTR_OCL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
        HLSINSTR_OCL_ERROR(CL_LINKER_NOT_AVAILABLE)
        HLSINSTR_OCL_ERROR(CL_LINK_PROGRAM_FAILURE)
        HLSINSTR_OCL_ERROR(CL_DEVICE_PARTITION_FAILED)
        HLSINSTR_OCL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        HLSINSTR_OCL_ERROR(CL_INVALID_VALUE)
        HLSINSTR_OCL_ERROR(CL_INVALID_DEVICE_TYPE)
        HLSINSTR_OCL_ERROR(CL_INVALID_PLATFORM)
        HLSINSTR_OCL_ERROR(CL_INVALID_DEVICE)
        HLSINSTR_OCL_ERROR(CL_INVALID_CONTEXT)
        HLSINSTR_OCL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
        HLSINSTR_OCL_ERROR(CL_INVALID_COMMAND_QUEUE)
        HLSINSTR_OCL_ERROR(CL_INVALID_HOST_PTR)
        HLSINSTR_OCL_ERROR(CL_INVALID_MEM_OBJECT)
        HLSINSTR_OCL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        HLSINSTR_OCL_ERROR(CL_INVALID_IMAGE_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_SAMPLER)
        HLSINSTR_OCL_ERROR(CL_INVALID_BINARY)
        HLSINSTR_OCL_ERROR(CL_INVALID_BUILD_OPTIONS)
        HLSINSTR_OCL_ERROR(CL_INVALID_PROGRAM)
        HLSINSTR_OCL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
        HLSINSTR_OCL_ERROR(CL_INVALID_KERNEL_NAME)
        HLSINSTR_OCL_ERROR(CL_INVALID_KERNEL_DEFINITION)
        HLSINSTR_OCL_ERROR(CL_INVALID_KERNEL)
        HLSINSTR_OCL_ERROR(CL_INVALID_ARG_INDEX)
        HLSINSTR_OCL_ERROR(CL_INVALID_ARG_VALUE)
        HLSINSTR_OCL_ERROR(CL_INVALID_ARG_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_KERNEL_ARGS)
        HLSINSTR_OCL_ERROR(CL_INVALID_WORK_DIMENSION)
        HLSINSTR_OCL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_GLOBAL_OFFSET)
        HLSINSTR_OCL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
        HLSINSTR_OCL_ERROR(CL_INVALID_EVENT)
        HLSINSTR_OCL_ERROR(CL_INVALID_OPERATION)
        HLSINSTR_OCL_ERROR(CL_INVALID_GL_OBJECT)
        HLSINSTR_OCL_ERROR(CL_INVALID_BUFFER_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_MIP_LEVEL)
        HLSINSTR_OCL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
        HLSINSTR_OCL_ERROR(CL_INVALID_PROPERTY)
        HLSINSTR_OCL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
        HLSINSTR_OCL_ERROR(CL_INVALID_COMPILER_OPTIONS)
        HLSINSTR_OCL_ERROR(CL_INVALID_LINKER_OPTIONS)
        HLSINSTR_OCL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef HLSINSTR_OCL_ERROR
    default: return "unknown OpenCL error";
    }
}

// The outcome of a call: ok(), or what failed. code() is the OpenCL error of a failed OpenCL
// call (CL_SUCCESS for other failures, e.g. a file that cannot be written).
class Status {
  public:
    Status() : code_(CL_SUCCESS) {}
    static Status cl_error(const std::string& call, cl_int code, const std::string& hint = "") {
        Status s;
        s.code_ = code;
        s.message_ = call + ": " + error_name(code) + " (" + std::to_string(code) + ")" + hint;
        return s;
    }
    static Status error(const std::string& message) {
        Status s;
        s.message_ = message;
        return s;
    }
    bool ok() const { return message_.empty(); }
    cl_int code() const { return code_; }
    const std::string& message() const { return message_; }

  private:
    cl_int code_;
    std::string message_;
};

// The design-specific facts a profiler needs (the generated hlsinstr_ocl_host.h has them).
struct Design {
    unsigned units;        // iBuffer units = probes of hlsinstr-manifest.json; unit u records probe u
    uint64_t manifest_key; // written into the dump: it is never decoded against another manifest
};

// The host side of the iBuffer units of one design; hlsinstr_ocl::Profiler in the generated
// header is this with the design filled in.
class BasicProfiler {
  public:
    // Creates the hlsinstr_host kernel of `program` and a device buffer of depth + 3 records
    // (a read-out: header, two watch configuration records, depth records). `depth` must be the
    // HLSINSTR_IBUFFER_DEPTH the kernels were built with (default 1024, see kDefaultDepth).
    BasicProfiler(const Design& design, cl_context context, cl_command_queue queue, cl_program program,
                  size_t depth = kDefaultDepth)
        : design_(design), queue_(queue), kernel_(nullptr), out_(nullptr), depth_(depth) {
        cl_int err = CL_SUCCESS;
        if (depth == 0) {
            status_ = Status::error("hlsinstr_ocl::Profiler: depth must be at least 1");
            return;
        }
        kernel_ = clCreateKernel(program, "hlsinstr_host", &err);
        if (err != CL_SUCCESS) {
            kernel_ = nullptr;
            status_ = Status::cl_error("clCreateKernel(hlsinstr_host)", err,
                                       err == CL_INVALID_KERNEL_NAME
                                           ? ": the program has no iBuffer host interface; build the kernels with " +
                                                 build_flags()
                                           : "");
            return;
        }
        out_ = clCreateBuffer(context, CL_MEM_READ_WRITE, (depth + 3) * sizeof(Record), nullptr, &err);
        if (err != CL_SUCCESS) {
            out_ = nullptr;
            status_ = Status::cl_error("clCreateBuffer(" + std::to_string(depth + 3) + " records)", err);
        }
    }
    ~BasicProfiler() {
        if (out_) clReleaseMemObject(out_);
        if (kernel_) clReleaseKernel(kernel_);
    }
    BasicProfiler(const BasicProfiler&) = delete;
    BasicProfiler& operator=(const BasicProfiler&) = delete;

    // The constructor's outcome; every method returns it while it is an error.
    const Status& status() const { return status_; }
    size_t depth() const { return depth_; }

    // Clears every unit; linear keeps the first `depth` records, cyclic the last.
    Status reset(bool cyclic = false) { return all(cyclic ? kCmdResetCyclic : kCmdResetLinear); }
    // Every unit records (after reset, or appending after stop).
    Status start() { return all(kCmdSample); }
    // Every unit stops recording; its records stay.
    Status stop() { return all(kCmdStop); }

    // One unit's read-out: the HEADER record (time: mode, addr: records dropped, value: records
    // that follow), then value records (a watch unit's two configuration records first), oldest
    // first. The unit stops recording.
    Status read(unsigned unit, std::vector<Record>& records) {
        records.clear();
        if (!status_.ok()) return status_;
        if (unit >= design_.units)
            return Status::error("hlsinstr_ocl::Profiler::read: unit " + std::to_string(unit) + " of " +
                                 std::to_string(design_.units));
        Status s = command(kCmdRead, unit);
        if (!s.ok()) return s;
        Record header;
        cl_int err = clEnqueueReadBuffer(queue_, out_, CL_TRUE, 0, sizeof header, &header, 0, nullptr, nullptr);
        if (err != CL_SUCCESS) return Status::cl_error("clEnqueueReadBuffer(unit " + std::to_string(unit) + ")", err);
        if (header.kind != kRecHeader || header.unit != unit)
            return Status::error("unit " + std::to_string(unit) + ": no read-out header (kind " +
                                 std::to_string(header.kind) + ", unit " + std::to_string(header.unit) +
                                 "): build the kernels with " + build_flags());
        if (header.value < 0 || static_cast<cl_ulong>(header.value) > depth_ + 2)
            return Status::error("unit " + std::to_string(unit) + ": the header announces " +
                                 std::to_string(header.value) + " records, more than depth " +
                                 std::to_string(depth_) +
                                 " allows: pass the Profiler the kernels' HLSINSTR_IBUFFER_DEPTH");
        records.resize(1 + static_cast<size_t>(header.value));
        records[0] = header;
        if (header.value > 0) {
            err = clEnqueueReadBuffer(queue_, out_, CL_TRUE, sizeof(Record), (records.size() - 1) * sizeof(Record),
                                      &records[1], 0, nullptr, nullptr);
            if (err != CL_SUCCESS)
                return Status::cl_error("clEnqueueReadBuffer(unit " + std::to_string(unit) + ")", err);
        }
        return Status();
    }

    // Reads every unit and writes the binary dump: "HLSIOCL1", u32 version 1, u32 units, u64
    // manifest key, u64 0, then each unit's read-out; little-endian. path: nullptr means
    // $HLSINSTR_DUMP, else "hlsinstr-ocl.bin". Written to path.tmp, then renamed.
    Status write_dump(const char* path = nullptr) {
        if (!status_.ok()) return status_;
        std::string file = path ? path : (std::getenv("HLSINSTR_DUMP") ? std::getenv("HLSINSTR_DUMP") : "");
        if (file.empty()) file = "hlsinstr-ocl.bin";
        std::string bytes("HLSIOCL1", 8);
        put(bytes, 1, 4);
        put(bytes, design_.units, 4);
        put(bytes, design_.manifest_key, 8);
        put(bytes, 0, 8);
        std::vector<Record> records;
        for (unsigned u = 0; u < design_.units; ++u) {
            Status s = read(u, records);
            if (!s.ok()) return s;
            for (const Record& r : records) {
                put(bytes, r.kind, 4);
                put(bytes, r.unit, 4);
                put(bytes, r.time, 8);
                put(bytes, r.addr, 8);
                put(bytes, static_cast<uint64_t>(r.value), 8);
            }
        }
        const std::string tmp = file + ".tmp";
        std::FILE* f = std::fopen(tmp.c_str(), "wb");
        if (!f) return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
        const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
        if (std::fclose(f) != 0 || !written) {
            std::remove(tmp.c_str());
            return Status::error("cannot write " + tmp + ": " + std::strerror(errno));
        }
        if (std::rename(tmp.c_str(), file.c_str()) != 0)
            return Status::error("cannot rename " + tmp + " to " + file + ": " + std::strerror(errno));
        return Status();
    }

  private:
    std::string build_flags() const {
        return "-DHLSINSTR_OPENCL_IBUFFER -DHLSINSTR_NUM_IBUFFERS=" + std::to_string(design_.units);
    }

    static void put(std::string& out, uint64_t v, unsigned bytes) {
        for (unsigned i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }

    // hlsinstr_host(cmd, unit, out) as one single work-item launch.
    Status command(cl_uint cmd, cl_uint unit) {
        cl_int err = clSetKernelArg(kernel_, 0, sizeof cmd, &cmd);
        if (err == CL_SUCCESS) err = clSetKernelArg(kernel_, 1, sizeof unit, &unit);
        if (err == CL_SUCCESS) err = clSetKernelArg(kernel_, 2, sizeof out_, &out_);
        if (err != CL_SUCCESS) return Status::cl_error("clSetKernelArg(hlsinstr_host)", err);
        err = clEnqueueTask(queue_, kernel_, 0, nullptr, nullptr);
        if (err != CL_SUCCESS) return Status::cl_error("clEnqueueTask(hlsinstr_host)", err);
        return Status();
    }

    Status all(cl_uint cmd) {
        if (!status_.ok()) return status_;
        for (cl_uint u = 0; u < design_.units; ++u) {
            Status s = command(cmd, u);
            if (!s.ok()) return s;
        }
        const cl_int err = clFinish(queue_);
        return err == CL_SUCCESS ? Status() : Status::cl_error("clFinish", err);
    }

    Design design_;
    cl_command_queue queue_;
    cl_kernel kernel_;
    cl_mem out_;
    size_t depth_;
    Status status_;
};

} // namespace hlsinstr_ocl

#endif
