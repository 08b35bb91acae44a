// The OpenCL 1.2 boilerplate the example hosts share: the first platform's first device, a
// context, an in-order queue and the program. On a board argv[1] is the .aocx that `aoc` built;
// in `hlsinstr emulate` any bytes do (the emulated program is linked in).
#ifndef OCL_SETUP_H
#define OCL_SETUP_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

struct OclSetup {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;

    ~OclSetup() {
        if (program) clReleaseProgram(program);
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }
};

// Prints "ERROR: <call>: <code>" and returns false unless err is CL_SUCCESS.
inline bool cl_ok(cl_int err, const char* call) {
    if (err == CL_SUCCESS) return true;
    std::printf("ERROR: %s: OpenCL error %d\n", call, err);
    return false;
}

inline bool ocl_setup(OclSetup& s, const char* aocx) {
    cl_int err = clGetPlatformIDs(1, &s.platform, nullptr);
    if (!cl_ok(err, "clGetPlatformIDs")) return false;
    err = clGetDeviceIDs(s.platform, CL_DEVICE_TYPE_ALL, 1, &s.device, nullptr);
    if (!cl_ok(err, "clGetDeviceIDs")) return false;
    s.context = clCreateContext(nullptr, 1, &s.device, nullptr, nullptr, &err);
    if (!cl_ok(err, "clCreateContext")) return false;
    s.queue = clCreateCommandQueue(s.context, s.device, 0, &err);
    if (!cl_ok(err, "clCreateCommandQueue")) return false;
    std::string binary = "emulated";
    if (aocx) {
        std::ifstream f(aocx, std::ios::binary);
        if (!f) {
            std::printf("ERROR: cannot read the program binary %s\n", aocx);
            return false;
        }
        binary.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(binary.data());
    const size_t size = binary.size();
    s.program = clCreateProgramWithBinary(s.context, 1, &s.device, &size, &bytes, nullptr, &err);
    if (!cl_ok(err, "clCreateProgramWithBinary")) return false;
    return cl_ok(clBuildProgram(s.program, 1, &s.device, "", nullptr, nullptr), "clBuildProgram");
}

// A device buffer initialised from (or, with data == nullptr, left for) `bytes` of host data.
inline cl_mem ocl_buffer(OclSetup& s, cl_mem_flags flags, size_t bytes, const void* data, const char* what) {
    cl_int err = CL_SUCCESS;
    if (data) flags |= CL_MEM_COPY_HOST_PTR;
    cl_mem m = clCreateBuffer(s.context, flags, bytes, const_cast<void*>(data), &err);
    if (!cl_ok(err, what)) return nullptr;
    return m;
}

#endif
