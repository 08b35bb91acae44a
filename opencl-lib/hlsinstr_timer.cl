// hlsinstr: timestamps from autorun kernels (seed 004, section 3.1, first scheme). Use
// hlsinstr_time.h (an HDL-library counter) where an HDL library can be built; this file needs
// nothing but OpenCL.
//
//   #define HLSINSTR_NUM_TIMERS 2          // read sites (default 1)
//   #include "hlsinstr_timer.cl"
//   ulong t0 = HLSINSTR_READ_TIME(0);       // read site 0
//   ...
//   ulong t1 = HLSINSTR_READ_TIME(1);       // read site 1: a different channel
//
// Each read site s has its own channel hlsinstr_time_ch[s] (a channel has one reader) and its
// own copy of the timer kernel (num_compute_units: one free-running counter per channel; the
// seed found a single kernel driving several channels gave stale values). The counter is
// written non-blocking into a depth-0 channel every cycle, so a read gets a recent count and
// the counter never stops. Limits, as in the seed: copies that leave reset in different cycles
// have an offset; the compiler may still buffer the channel (stale values); the read has no
// data dependence on the event, so the scheduler may move it.
//
// Cost per site: one 64-bit counter and a channel of one ulong.
//
// Emulation: the counter advances once per loop iteration of the emulated kernel, so values
// increase but are not cycles (use get_time for a model clock).
#ifndef HLSINSTR_TIMER_CL
#define HLSINSTR_TIMER_CL

#ifndef HLSINSTR_NUM_TIMERS
#define HLSINSTR_NUM_TIMERS 1
#endif

channel ulong hlsinstr_time_ch[HLSINSTR_NUM_TIMERS] __attribute__((depth(0)));

#define HLSINSTR_READ_TIME(site) read_channel_intel(hlsinstr_time_ch[site])

__attribute__((autorun))
__attribute__((max_global_work_dim(0)))
__attribute__((num_compute_units(HLSINSTR_NUM_TIMERS)))
__kernel void hlsinstr_timer(void) {
    const int site = get_compute_id(0);
    ulong count = 0;
    while (1) {
        count++;
        (void)write_channel_nb_intel(hlsinstr_time_ch[site], count);
    }
}

#endif
