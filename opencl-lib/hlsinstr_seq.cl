// hlsinstr: sequence numbers (seed 004, section 3.2): 0, 1, 2, ... in the order the reads
// happen, with no gap and no repeat.
//
//   #include "hlsinstr_seq.cl"
//   uint seq = HLSINSTR_NEXT_SEQ();      // e.g. as the index of a trace slot
//
// An autorun kernel writes the next number with a blocking write into a depth-0 channel: it
// increments only after a reader has taken the current one. The channel has one reader, so the
// numbers order the events of one read site (a loop body, every work-item of an NDRange
// kernel); for several sites, instantiate the pattern once per site.
//
// Cost: one 32-bit counter and a channel of one uint.
#ifndef HLSINSTR_SEQ_CL
#define HLSINSTR_SEQ_CL

channel uint hlsinstr_seq_ch __attribute__((depth(0)));

#define HLSINSTR_NEXT_SEQ() read_channel_intel(hlsinstr_seq_ch)

__attribute__((autorun))
__attribute__((max_global_work_dim(0)))
__kernel void hlsinstr_seq(void) {
    uint next = 0;
    while (1) {
        write_channel_intel(hlsinstr_seq_ch, next);
        next++;
    }
}

#endif
