// Smart watchpoint on a pointer-chasing kernel: buf[3] is watched with the bounds of buf[0..n)
// and the invariant buf[3] >= 0; the chain plants an out-of-bounds write and a negative value.
#define HLSINSTR_NUM_IBUFFERS 1
#define HLSINSTR_IBUFFER_DEPTH 32
#include "hlsinstr_watch.cl"

__attribute__((max_global_work_dim(0)))
__kernel void chase(__global int *restrict buf, __global const uint *restrict next, uint n, uint steps) {
    add_watch_checked(0, (size_t)&buf[3], (size_t)&buf[0], (size_t)&buf[n], 0, LONG_MAX);
    uint p = 0;
    for (uint s = 0; s < steps; s++) {
        int v = 10 * (int)s - 25;
        buf[p] = v;
        monitor_address(0, &buf[p], v);
        HLSINSTR_EMU_DELAY(2);
        p = next[p];
    }
}
