// Smart watchpoints on a pointer-chasing kernel. Unit 0: buf[3] is watched with the bounds of
// buf[0..n) and the invariant buf[3] >= 0; the chain plants an out-of-bounds write and a
// negative value. Unit 1: the range buf[2..6) with hits, the invariant value <= 10 and no
// bound. Unit 2: the range buf[0..n) with the invariant value >= 0, no hits (violations only).
#define HLSINSTR_NUM_IBUFFERS 3
#define HLSINSTR_IBUFFER_DEPTH 32
#include "hlsinstr_watch.cl"

__attribute__((max_global_work_dim(0)))
__kernel void chase(__global int *restrict buf, __global const uint *restrict next, uint n, uint steps) {
    add_watch_checked(0, (size_t)&buf[3], (size_t)&buf[0], (size_t)&buf[n], 0, LONG_MAX);
    add_watch_range(1, (size_t)&buf[2], (size_t)&buf[6], 0, ULONG_MAX, LONG_MIN, 10, 1);
    add_watch_range(2, (size_t)&buf[0], (size_t)&buf[n], 0, ULONG_MAX, 0, LONG_MAX, 0);
    uint p = 0;
    for (uint s = 0; s < steps; s++) {
        int v = 10 * (int)s - 25;
        buf[p] = v;
        monitor_address(0, &buf[p], v);
        monitor_address(1, &buf[p], v);
        monitor_address(2, &buf[p], v);
        HLSINSTR_EMU_DELAY(2);
        p = next[p];
    }
}
