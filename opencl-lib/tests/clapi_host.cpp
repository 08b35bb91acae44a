// The OpenCL C API layer (emu/hlsinstr_emu_cl.cpp) on clapi.cl: an ordinary OpenCL 1.2 host.
// Discovery, buffers (copied, used, plain), kernel arguments and their errors, an NDRange launch
// with a __local argument, a producer and a consumer on two queues (they deadlock unless the
// queues run concurrently), non-blocking transfers ordered by events across queues, and an
// unsupported function. Prints PASS or ERROR lines; returns the error count.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>
#include <cstring>
#include <vector>

static int errors = 0;

static void expect(cl_int got, cl_int want, const char* what) {
    if (got != want) ++errors, std::printf("ERROR: %s returned %d, expected %d\n", what, got, want);
}

int main() {
    cl_platform_id platform;
    cl_device_id device;
    cl_uint n = 0;
    expect(clGetPlatformIDs(1, &platform, &n), CL_SUCCESS, "clGetPlatformIDs");
    expect(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ACCELERATOR, 1, &device, &n), CL_SUCCESS, "clGetDeviceIDs");
    expect(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &device, &n), CL_DEVICE_NOT_FOUND, "clGetDeviceIDs(GPU)");
    char name[64] = {0};
    expect(clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name, name, nullptr), CL_SUCCESS, "clGetDeviceInfo");
    std::printf("device: %s\n", name);
    cl_int err = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    expect(err, CL_SUCCESS, "clCreateContext");
    cl_command_queue q1 = clCreateCommandQueue(context, device, 0, &err);
    expect(err, CL_SUCCESS, "clCreateCommandQueue");
    cl_command_queue q2 = clCreateCommandQueue(context, device, 0, &err);
    const unsigned char bogus[] = "not an aocx";
    const unsigned char* binaries[] = {bogus};
    const size_t lengths[] = {sizeof bogus};
    cl_program program = clCreateProgramWithBinary(context, 1, &device, lengths, binaries, nullptr, &err);
    expect(err, CL_SUCCESS, "clCreateProgramWithBinary");
    expect(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS, "clBuildProgram");

    cl_kernel none = clCreateKernel(program, "no_such_kernel", &err);
    expect(err, CL_INVALID_KERNEL_NAME, "clCreateKernel(no_such_kernel)");
    if (none) ++errors, std::printf("ERROR: a kernel object for an unknown name\n");

    // NDRange with a __local argument; argument errors.
    const unsigned count = 8;
    std::vector<int> in(count), out(count, -1);
    for (unsigned i = 0; i < count; ++i) in[i] = static_cast<int>(i) - 2;
    cl_mem in_buf = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, count * sizeof(int), in.data(), &err);
    expect(err, CL_SUCCESS, "clCreateBuffer(COPY_HOST_PTR)");
    cl_mem out_buf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, count * sizeof(int), nullptr, &err);
    expect(err, CL_SUCCESS, "clCreateBuffer");
    clCreateBuffer(context, CL_MEM_USE_HOST_PTR, 4, nullptr, &err);
    expect(err, CL_INVALID_HOST_PTR, "clCreateBuffer(USE_HOST_PTR, NULL)");
    cl_kernel scale = clCreateKernel(program, "scale", &err);
    expect(err, CL_SUCCESS, "clCreateKernel(scale)");
    const int factor = 10;
    const long wrong = 10;
    expect(clSetKernelArg(scale, 0, sizeof(cl_mem), &in_buf), CL_SUCCESS, "clSetKernelArg 0");
    expect(clSetKernelArg(scale, 1, sizeof(cl_mem), &out_buf), CL_SUCCESS, "clSetKernelArg 1");
    expect(clSetKernelArg(scale, 2, 4 * sizeof(int), nullptr), CL_SUCCESS, "clSetKernelArg 2 (__local)");
    const size_t global = count, local = 4, bad_local = 3;
    expect(clEnqueueNDRangeKernel(q1, scale, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS,
           "clEnqueueNDRangeKernel before argument 3 is set");
    expect(clSetKernelArg(scale, 3, sizeof wrong, &wrong), CL_INVALID_ARG_SIZE, "clSetKernelArg 3 (8 bytes)");
    expect(clSetKernelArg(scale, 4, sizeof factor, &factor), CL_INVALID_ARG_INDEX, "clSetKernelArg 4");
    expect(clSetKernelArg(scale, 0, 4, &in_buf), CL_INVALID_ARG_SIZE, "clSetKernelArg 0 (4 bytes)");
    expect(clSetKernelArg(scale, 3, sizeof factor, &factor), CL_SUCCESS, "clSetKernelArg 3");
    expect(clEnqueueNDRangeKernel(q1, scale, 1, nullptr, &global, &bad_local, 0, nullptr, nullptr),
           CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel(8, 3)");
    expect(clEnqueueNDRangeKernel(q1, scale, 1, nullptr, &global, &local, 0, nullptr, nullptr), CL_SUCCESS,
           "clEnqueueNDRangeKernel(8, 4)");
    expect(clEnqueueReadBuffer(q1, out_buf, CL_TRUE, 0, count * sizeof(int), out.data(), 0, nullptr, nullptr),
           CL_SUCCESS, "clEnqueueReadBuffer");
    for (unsigned i = 0; i < count; ++i)
        if (out[i] != in[i] * factor + 4000) ++errors, std::printf("ERROR: scale out[%u] = %d\n", i, out[i]);
    expect(clEnqueueReadBuffer(q1, out_buf, CL_TRUE, 4, count * sizeof(int), out.data(), 0, nullptr, nullptr),
           CL_INVALID_VALUE, "clEnqueueReadBuffer past the end");

    // Producer and consumer on two queues: 100 values through a channel of depth 2. The consumer
    // writes into host memory (CL_MEM_USE_HOST_PTR).
    const cl_uint values = 100;
    std::vector<int> stream(values, -1);
    cl_mem stream_buf = clCreateBuffer(context, CL_MEM_USE_HOST_PTR, values * sizeof(int), stream.data(), &err);
    expect(err, CL_SUCCESS, "clCreateBuffer(USE_HOST_PTR)");
    cl_kernel producer = clCreateKernel(program, "producer", &err);
    cl_kernel consumer = clCreateKernel(program, "consumer", &err);
    expect(clSetKernelArg(producer, 0, sizeof values, &values), CL_SUCCESS, "clSetKernelArg producer");
    expect(clSetKernelArg(consumer, 0, sizeof(cl_mem), &stream_buf), CL_SUCCESS, "clSetKernelArg consumer 0");
    expect(clSetKernelArg(consumer, 1, sizeof values, &values), CL_SUCCESS, "clSetKernelArg consumer 1");
    cl_event done[2];
    expect(clEnqueueTask(q2, consumer, 0, nullptr, &done[0]), CL_SUCCESS, "clEnqueueTask(consumer)");
    expect(clEnqueueTask(q1, producer, 0, nullptr, &done[1]), CL_SUCCESS, "clEnqueueTask(producer)");
    expect(clWaitForEvents(2, done), CL_SUCCESS, "clWaitForEvents");
    for (cl_uint i = 0; i < values; ++i)
        if (stream[i] != static_cast<int>(3 * i)) ++errors, std::printf("ERROR: stream[%u] = %d\n", i, stream[i]);
    clReleaseEvent(done[0]);
    clReleaseEvent(done[1]);

    // Non-blocking: write on q1, then a read on q2 that waits for the write's event.
    std::vector<int> src(count), dst(count, 0);
    for (unsigned i = 0; i < count; ++i) src[i] = 7 * static_cast<int>(i);
    cl_event written, read;
    expect(clEnqueueWriteBuffer(q1, out_buf, CL_FALSE, 0, count * sizeof(int), src.data(), 0, nullptr, &written),
           CL_SUCCESS, "clEnqueueWriteBuffer(non-blocking)");
    expect(clEnqueueReadBuffer(q2, out_buf, CL_FALSE, 0, count * sizeof(int), dst.data(), 1, &written, &read),
           CL_SUCCESS, "clEnqueueReadBuffer(non-blocking, after the write)");
    expect(clFlush(q2), CL_SUCCESS, "clFlush");
    expect(clWaitForEvents(1, &read), CL_SUCCESS, "clWaitForEvents(read)");
    if (dst != src) ++errors, std::printf("ERROR: the read did not see the write\n");
    clReleaseEvent(written);
    clReleaseEvent(read);

    // Not in the subset.
    size_t size = 0;
    expect(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, 0, nullptr, &size), CL_INVALID_OPERATION,
           "clGetContextInfo");

    expect(clFinish(q1), CL_SUCCESS, "clFinish");
    for (cl_kernel k : {scale, producer, consumer}) expect(clReleaseKernel(k), CL_SUCCESS, "clReleaseKernel");
    for (cl_mem m : {in_buf, out_buf, stream_buf}) expect(clReleaseMemObject(m), CL_SUCCESS, "clReleaseMemObject");
    expect(clReleaseMemObject(in_buf), CL_INVALID_MEM_OBJECT, "clReleaseMemObject of a released buffer");
    expect(clReleaseProgram(program), CL_SUCCESS, "clReleaseProgram");
    expect(clReleaseCommandQueue(q1), CL_SUCCESS, "clReleaseCommandQueue");
    expect(clReleaseCommandQueue(q2), CL_SUCCESS, "clReleaseCommandQueue");
    expect(clReleaseContext(context), CL_SUCCESS, "clReleaseContext");
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
