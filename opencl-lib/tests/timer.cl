// Autorun timers: two read sites, each with its own channel and counter.
#define HLSINSTR_NUM_TIMERS 2
#include "hlsinstr_timer.cl"

__attribute__((max_global_work_dim(0)))
__kernel void sample(__global ulong *restrict t0, __global ulong *restrict t1, uint n) {
    for (uint i = 0; i < n; i++) {
        t0[i] = HLSINSTR_READ_TIME(0);
        t1[i] = HLSINSTR_READ_TIME(1);
    }
}
