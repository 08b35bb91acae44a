// Host for kernels/mxv.cl: y = A x for a 4 x 3 matrix, once with the single work-item kernel
// (clEnqueueTask) and once with the NDRange kernel (clEnqueueNDRangeKernel, one work-item per
// row), each with every iBuffer unit reset and recording. Checks y and writes one dump per run,
// mxv_single.bin and mxv_ndrange.bin (in $HLSINSTR_DUMP_DIR, else the working directory), for
// `hlsinstr decode`. Prints PASS or ERROR lines; returns the errors.
#include "../common/ocl_setup.h"
#include "hlsinstr_ocl_host.h"

#include <cstdlib>
#include <string>
#include <vector>

static const cl_uint kRows = 4, kCols = 3;

static int run_version(OclSetup& s, const char* name, bool ndrange) {
    std::vector<cl_int> a(kRows * kCols), x(kCols), y(kRows, 0);
    for (size_t k = 0; k < a.size(); ++k) a[k] = static_cast<cl_int>(k) - 5;
    for (cl_uint j = 0; j < kCols; ++j) x[j] = static_cast<cl_int>(2 * j + 1);
    hlsinstr_ocl::Profiler profiler(s.context, s.queue, s.program);
    hlsinstr_ocl::Status st = profiler.status();
    if (st.ok()) st = profiler.reset();
    if (st.ok()) st = profiler.start();
    if (!st.ok()) return std::printf("ERROR: %s\n", st.message().c_str()), 1;

    cl_mem da = ocl_buffer(s, CL_MEM_READ_ONLY, a.size() * sizeof(cl_int), a.data(), "clCreateBuffer(a)");
    cl_mem dx = ocl_buffer(s, CL_MEM_READ_ONLY, x.size() * sizeof(cl_int), x.data(), "clCreateBuffer(x)");
    cl_mem dy = ocl_buffer(s, CL_MEM_WRITE_ONLY, y.size() * sizeof(cl_int), nullptr, "clCreateBuffer(y)");
    if (!da || !dx || !dy) return 1;
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(s.program, name, &err);
    if (!cl_ok(err, "clCreateKernel")) return 1;
    cl_uint arg = 0;
    err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &da);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &dx);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof(cl_mem), &dy);
    if (err == CL_SUCCESS && !ndrange) err = clSetKernelArg(kernel, arg++, sizeof kRows, &kRows);
    if (err == CL_SUCCESS) err = clSetKernelArg(kernel, arg++, sizeof kCols, &kCols);
    if (!cl_ok(err, "clSetKernelArg")) return 1;
    const size_t global = kRows;
    err = ndrange ? clEnqueueNDRangeKernel(s.queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr)
                  : clEnqueueTask(s.queue, kernel, 0, nullptr, nullptr);
    if (!cl_ok(err, name) || !cl_ok(clFinish(s.queue), "clFinish") ||
        !cl_ok(clEnqueueReadBuffer(s.queue, dy, CL_TRUE, 0, y.size() * sizeof(cl_int), y.data(), 0, nullptr, nullptr),
               "clEnqueueReadBuffer(y)"))
        return 1;

    int errors = 0;
    for (cl_uint i = 0; i < kRows; ++i) {
        cl_int want = 0;
        for (cl_uint j = 0; j < kCols; ++j) want += a[i * kCols + j] * x[j];
        if (y[i] != want) ++errors, std::printf("ERROR: %s y[%u] = %d, expected %d\n", name, i, y[i], want);
    }
    const char* dir = std::getenv("HLSINSTR_DUMP_DIR");
    const std::string dump = (dir && *dir ? std::string(dir) + "/" : std::string()) + name + ".bin";
    st = profiler.stop();
    if (st.ok()) st = profiler.write_dump(dump.c_str());
    if (!st.ok()) ++errors, std::printf("ERROR: %s\n", st.message().c_str());
    clReleaseKernel(kernel);
    for (cl_mem m : {da, dx, dy}) clReleaseMemObject(m);
    return errors;
}

int main(int argc, char** argv) {
    OclSetup s;
    if (!ocl_setup(s, argc > 1 ? argv[1] : nullptr)) return 1;
    const int errors = run_version(s, "mxv_single", false) + run_version(s, "mxv_ndrange", true);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
