// An ordinary OpenCL 1.2 host for kernels/mxv.cl, profiled with the hlsinstr_ocl_host.h that
// `hlsinstr rewrite` generates. Runs mxv_single (clEnqueueTask) and mxv_ndrange
// (clEnqueueNDRangeKernel, one work-item per row), each with every iBuffer unit reset and
// recording, checks y = A x, and writes one dump per run: mxv_single.bin, then the default path
// ($HLSINSTR_DUMP, else hlsinstr-ocl.bin) for mxv_ndrange. The program binary is argv[1] (an
// .aocx on a board); the emulation takes any. Prints PASS, or ERROR lines; returns the errors.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include "hlsinstr_ocl_host.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static const cl_uint kRows = 4, kCols = 3;

static bool check(cl_int err, const char* call) {
    if (err == CL_SUCCESS) return true;
    std::printf("ERROR: %s: %s (%d)\n", call, hlsinstr_ocl::error_name(err), err);
    return false;
}

static bool check(const hlsinstr_ocl::Status& s) {
    if (!s.ok()) std::printf("ERROR: %s\n", s.message().c_str());
    return s.ok();
}

static int run_version(cl_context context, cl_command_queue queue, cl_program program, const char* kernel_name,
                       bool ndrange, const char* dump) {
    std::vector<cl_int> a(kRows * kCols), x(kCols), y(kRows, 0);
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<cl_int>(k) - 5;
    for (cl_uint j = 0; j < kCols; ++j) x[j] = static_cast<cl_int>(2 * j + 1);
    cl_int err = CL_SUCCESS;
    hlsinstr_ocl::Profiler profiler(context, queue, program);
    if (!check(profiler.status()) || !check(profiler.reset()) || !check(profiler.start())) return 1;

    cl_kernel kernel = clCreateKernel(program, kernel_name, &err);
    if (!check(err, "clCreateKernel")) return 1;
    const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    cl_mem a_buf = clCreateBuffer(context, in, a.size() * sizeof(cl_int), a.data(), &err);
    if (!check(err, "clCreateBuffer(a)")) return 1;
    cl_mem x_buf = clCreateBuffer(context, in, x.size() * sizeof(cl_int), x.data(), &err);
    if (!check(err, "clCreateBuffer(x)")) return 1;
    cl_mem y_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, y.size() * sizeof(cl_int), nullptr, &err);
    if (!check(err, "clCreateBuffer(y)")) return 1;
    cl_uint arg = 0;
    err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &a_buf);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &x_buf);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &y_buf);
    if (err == CL_SUCCESS && !ndrange) err = clSetKernelArg(kernel, arg++, sizeof kRows, &kRows);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof kCols, &kCols);
    if (!check(err, "clSetKernelArg")) return 1;
    const size_t global = kRows;
    err = ndrange ? clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr)
                  : clEnqueueTask(queue, kernel, 0, nullptr, nullptr);
    if (!check(err, ndrange ? "clEnqueueNDRangeKernel" : "clEnqueueTask") || !check(clFinish(queue), "clFinish"))
        return 1;
    err = clEnqueueReadBuffer(queue, y_buf, CL_TRUE, 0, y.size() * sizeof(cl_int), y.data(), 0, nullptr, nullptr);
    if (!check(err, "clEnqueueReadBuffer(y)")) return 1;

    int errors = 0;
    for (cl_uint i = 0; i < kRows; ++i) {
        cl_int want = 0;
        for (cl_uint j = 0; j < kCols; ++j) want += a[i * kCols + j] * x[j];
        if (y[i] != want) ++errors, std::printf("ERROR: %s y[%u] = %d, expected %d\n", kernel_name, i, y[i], want);
    }
    if (!check(profiler.stop()) || !check(profiler.write_dump(dump))) ++errors;
    std::printf("== %s: dump %s\n", kernel_name, dump ? dump : "(default)");
    clReleaseMemObject(a_buf);
    clReleaseMemObject(x_buf);
    clReleaseMemObject(y_buf);
    clReleaseKernel(kernel);
    return errors;
}

int main(int argc, char** argv) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int err = clGetPlatformIDs(1, &platform, nullptr);
    if (!check(err, "clGetPlatformIDs")) return 1;
    err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    if (!check(err, "clGetDeviceIDs")) return 1;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    if (!check(err, "clCreateContext")) return 1;
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &err);
    if (!check(err, "clCreateCommandQueue")) return 1;
    std::string binary = "emulated";
    if (argc > 1) {
        std::ifstream f(argv[1], std::ios::binary);
        binary.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(binary.data());
    const size_t size = binary.size();
    cl_program program = clCreateProgramWithBinary(context, 1, &device, &size, &bytes, nullptr, &err);
    if (!check(err, "clCreateProgramWithBinary") || !check(clBuildProgram(program, 1, &device, "", nullptr, nullptr),
                                                           "clBuildProgram"))
        return 1;
    const int errors = run_version(context, queue, program, "mxv_single", false, "mxv_single.bin") +
                       run_version(context, queue, program, "mxv_ndrange", true, nullptr);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
