// Sequence numbers: a single work-item kernel and an NDRange kernel take one number per event
// (seed 004, Listings 6 and 7); the numbers index the trace.
#include "hlsinstr_seq.cl"

// k-major order: the number of (k, i) is k * n_i + i.
__attribute__((max_global_work_dim(0)))
__kernel void single(__global uint *restrict order, uint n_k, uint n_i) {
    for (uint k = 0; k < n_k; k++) {
        for (uint i = 0; i < n_i; i++) {
            uint seq = HLSINSTR_NEXT_SEQ();
            order[seq] = k * 100 + i;
        }
    }
}

__kernel void ndrange(__global uint *restrict order, uint n_i) {
    uint k = get_global_id(0);
    for (uint i = 0; i < n_i; i++) {
        uint seq = HLSINSTR_NEXT_SEQ();
        order[seq] = k * 100 + i;
    }
}

// Takes no number: the counter must not move.
__kernel void idle(__global uint *restrict out) { out[0] = 7; }
