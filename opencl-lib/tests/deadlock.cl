// A kernel that reads a channel nobody writes: the watchdog must report it and exit 4.
#include "hlsinstr_seq.cl"

channel int never_written __attribute__((depth(4)));

__attribute__((max_global_work_dim(0)))
__kernel void stuck(__global int *restrict out) {
    out[0] = (int)HLSINSTR_NEXT_SEQ();
    out[1] = read_channel_intel(never_written);
}
