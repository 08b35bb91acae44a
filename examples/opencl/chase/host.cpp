// Host for kernels/chase.cl: a 10-node list with two planted bugs, profiled with the smart
// watchpoints that `hlsinstr rewrite kernels --probes watch --watch 'rank[0]' --bounds rank:10
// --invariant 'rank[i] < 10'` inserts. The walk from node 0 is
//   0 -> 4 -> 2 -> 12 -> 3 -> 7 -> 5 -> 3 -> 7 -> 5 -> ...
// node 2's link points past the 10 nodes (the write rank[12] is out of bounds; the buffers have
// room for it, so the run itself goes on as it would on a board), and 5 -> 3 closes a cycle, so
// from step 10 on every rank written is >= 10 until max_steps (20) stops the walk. Checks what
// the kernel computed, then writes the iBuffer dump for `hlsinstr decode` ($HLSINSTR_DUMP, else
// hlsinstr-ocl.bin). Prints PASS or ERROR lines; returns the errors.
#include "../common/ocl_setup.h"
#include "hlsinstr_ocl_host.h"

#include <vector>

int main(int argc, char** argv) {
    const cl_uint room = 16, max_steps = 20; // 10 nodes; room for the stray link
    std::vector<cl_int> next(room, -1), rank(room, -1);
    std::vector<cl_float> weight(room, 0.0f);
    const int walk[] = {0, 4, 2, 12, 3, 7, 5};
    for (size_t k = 0; k + 1 < sizeof walk / sizeof walk[0]; ++k) next[walk[k]] = walk[k + 1];
    next[5] = 3; // the cycle 3 -> 7 -> 5 -> 3
    for (cl_uint k = 0; k < room; ++k) weight[k] = 0.25f * static_cast<cl_float>(k);

    OclSetup s;
    if (!ocl_setup(s, argc > 1 ? argv[1] : nullptr)) return 1;
    hlsinstr_ocl::Profiler profiler(s.context, s.queue, s.program);
    hlsinstr_ocl::Status st = profiler.status();
    if (st.ok()) st = profiler.reset();
    if (st.ok()) st = profiler.start();
    if (!st.ok()) return std::printf("ERROR: %s\n", st.message().c_str()), 1;

    cl_mem dnext = ocl_buffer(s, CL_MEM_READ_ONLY, room * sizeof(cl_int), next.data(), "clCreateBuffer(next)");
    cl_mem dweight = ocl_buffer(s, CL_MEM_READ_ONLY, room * sizeof(cl_float), weight.data(), "clCreateBuffer(weight)");
    cl_mem drank = ocl_buffer(s, CL_MEM_READ_WRITE, room * sizeof(cl_int), rank.data(), "clCreateBuffer(rank)");
    cl_mem dtotal = ocl_buffer(s, CL_MEM_WRITE_ONLY, sizeof(cl_float), nullptr, "clCreateBuffer(total)");
    if (!dnext || !dweight || !drank || !dtotal) return 1;
    cl_int err = CL_SUCCESS;
    cl_kernel chase = clCreateKernel(s.program, "chase", &err);
    if (!cl_ok(err, "clCreateKernel(chase)")) return 1;
    const cl_int head = 0;
    err = clSetKernelArg(chase, 0, sizeof(cl_mem), &dnext);
    if (err == CL_SUCCESS) err = clSetKernelArg(chase, 1, sizeof(cl_mem), &dweight);
    if (err == CL_SUCCESS) err = clSetKernelArg(chase, 2, sizeof(cl_mem), &drank);
    if (err == CL_SUCCESS) err = clSetKernelArg(chase, 3, sizeof(cl_mem), &dtotal);
    if (err == CL_SUCCESS) err = clSetKernelArg(chase, 4, sizeof head, &head);
    if (err == CL_SUCCESS) err = clSetKernelArg(chase, 5, sizeof max_steps, &max_steps);
    if (!cl_ok(err, "clSetKernelArg")) return 1;
    cl_float total = 0.0f;
    if (!cl_ok(clEnqueueTask(s.queue, chase, 0, nullptr, nullptr), "clEnqueueTask(chase)") ||
        !cl_ok(clFinish(s.queue), "clFinish") ||
        !cl_ok(clEnqueueReadBuffer(s.queue, drank, CL_TRUE, 0, room * sizeof(cl_int), rank.data(), 0, nullptr, nullptr),
               "clEnqueueReadBuffer(rank)") ||
        !cl_ok(clEnqueueReadBuffer(s.queue, dtotal, CL_TRUE, 0, sizeof total, &total, 0, nullptr, nullptr),
               "clEnqueueReadBuffer(total)"))
        return 1;

    // What the walk computes: rank = the last step that visited the node, total = sum of the
    // weights visited, step by step in the kernel's order.
    std::vector<cl_int> want(room, -1);
    cl_float want_total = 0.0f;
    int p = 0;
    for (cl_uint step = 0; p >= 0 && step < max_steps; ++step) {
        want[p] = static_cast<cl_int>(step);
        want_total += weight[p];
        p = next[p];
    }
    int errors = 0;
    for (cl_uint k = 0; k < room; ++k)
        if (rank[k] != want[k]) ++errors, std::printf("ERROR: rank[%u] = %d, expected %d\n", k, rank[k], want[k]);
    if (total != want_total) ++errors, std::printf("ERROR: total = %g, expected %g\n", total, want_total);
    st = profiler.stop();
    if (st.ok()) st = profiler.write_dump();
    if (!st.ok()) ++errors, std::printf("ERROR: %s\n", st.message().c_str());
    clReleaseKernel(chase);
    for (cl_mem m : {dnext, dweight, drank, dtotal}) clReleaseMemObject(m);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
