// A kernel that reads a channel nobody writes: the watchdog must report it and exit 4.
#include "hlsinstr_seq.cl"

channel int never_written __attribute__((depth(4)));

__attribute__((max_global_work_dim(0)))
__kernel void stuck(__global int *restrict out) {
    out[0] = (int)HLSINSTR_NEXT_SEQ();
    out[1] = read_channel_intel(never_written);
}

// The same in a pipelined NDRange: work-item 0 waits on the channel while holding its turn,
// the other work-items wait for theirs.
channel int never_written_either __attribute__((depth(4)));

__kernel void stuck_ndrange(__global int *restrict out) {
    out[get_global_id(0)] = read_channel_intel(never_written_either);
}
