// Stall monitor: snapshots around a load whose latency is scripted by HLSINSTR_EMU_DELAY.
#define HLSINSTR_NUM_IBUFFERS 2
#define HLSINSTR_IBUFFER_DEPTH 16
#include "hlsinstr_snapshot.cl"

__attribute__((max_global_work_dim(0)))
__kernel void dot(__global const int *restrict a, __global const int *restrict latency, uint n,
                  __global long *restrict out) {
    long acc = 0;
    for (uint k = 0; k < n; k++) {
        take_snapshot(0, k);            // site 0: before the load
        HLSINSTR_EMU_DELAY(latency[k]); // the load takes latency[k] cycles
        int v = a[k];
        take_snapshot(1, v);            // site 1: after the load
        acc += v;
        HLSINSTR_EMU_DELAY(2);          // the rest of the iteration
    }
    out[0] = acc;
}
