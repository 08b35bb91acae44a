// Host for kernels/mm.cl: C = A x B for 8 x 8 matrices, profiled with the stall monitor that
// `hlsinstr rewrite kernels --probes stall --at mm.cl:15 --at mm.cl:16` inserts around the two
// loads of the inner loop. Checks C, then writes the iBuffer dump for `hlsinstr decode`
// ($HLSINSTR_DUMP, else hlsinstr-ocl.bin). Prints PASS or ERROR lines; returns the errors.
#include "../common/ocl_setup.h"
#include "hlsinstr_ocl_host.h"

#include <vector>

int main(int argc, char** argv) {
    const cl_uint n = 8;
    std::vector<cl_float> a(n * n), b(n * n), c(n * n, 0.0f);
    for (cl_uint k = 0; k < n * n; ++k) {
        a[k] = static_cast<cl_float>(k % 7) - 3.0f;
        b[k] = static_cast<cl_float>(k % 5) * 0.5f;
    }
    OclSetup s;
    if (!ocl_setup(s, argc > 1 ? argv[1] : nullptr)) return 1;
    hlsinstr_ocl::Profiler profiler(s.context, s.queue, s.program);
    hlsinstr_ocl::Status st = profiler.status();
    if (st.ok()) st = profiler.reset();
    if (st.ok()) st = profiler.start();
    if (!st.ok()) return std::printf("ERROR: %s\n", st.message().c_str()), 1;

    const size_t bytes = n * n * sizeof(cl_float);
    cl_mem da = ocl_buffer(s, CL_MEM_READ_ONLY, bytes, a.data(), "clCreateBuffer(a)");
    cl_mem db = ocl_buffer(s, CL_MEM_READ_ONLY, bytes, b.data(), "clCreateBuffer(b)");
    cl_mem dc = ocl_buffer(s, CL_MEM_WRITE_ONLY, bytes, nullptr, "clCreateBuffer(c)");
    if (!da || !db || !dc) return 1;
    cl_int err = CL_SUCCESS;
    cl_kernel mm = clCreateKernel(s.program, "mm", &err);
    if (!cl_ok(err, "clCreateKernel(mm)")) return 1;
    err = clSetKernelArg(mm, 0, sizeof(cl_mem), &da);
    if (err == CL_SUCCESS) err = clSetKernelArg(mm, 1, sizeof(cl_mem), &db);
    if (err == CL_SUCCESS) err = clSetKernelArg(mm, 2, sizeof(cl_mem), &dc);
    for (cl_uint i = 3; i < 6 && err == CL_SUCCESS; ++i) err = clSetKernelArg(mm, i, sizeof n, &n);
    if (!cl_ok(err, "clSetKernelArg")) return 1;
    if (!cl_ok(clEnqueueTask(s.queue, mm, 0, nullptr, nullptr), "clEnqueueTask(mm)") ||
        !cl_ok(clFinish(s.queue), "clFinish") ||
        !cl_ok(clEnqueueReadBuffer(s.queue, dc, CL_TRUE, 0, bytes, c.data(), 0, nullptr, nullptr),
               "clEnqueueReadBuffer(c)"))
        return 1;

    int errors = 0;
    for (cl_uint i = 0; i < n; ++i)
        for (cl_uint j = 0; j < n; ++j) {
            cl_float want = 0.0f;
            for (cl_uint k = 0; k < n; ++k) want += a[i * n + k] * b[k * n + j];
            if (c[i * n + j] != want) ++errors, std::printf("ERROR: c[%u][%u] = %g, expected %g\n", i, j, c[i * n + j], want);
        }
    st = profiler.stop();
    if (st.ok()) st = profiler.write_dump();
    if (!st.ok()) ++errors, std::printf("ERROR: %s\n", st.message().c_str());
    clReleaseKernel(mm);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
