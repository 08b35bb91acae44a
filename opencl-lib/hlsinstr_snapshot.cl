// hlsinstr: the stall monitor (seed 004, section 5.1).
//
//   #include "hlsinstr_snapshot.cl"
//   take_snapshot(0, k);            // site 0
//   int a = data_a[i * n + k];
//   take_snapshot(1, a);            // site 1: passing `a` orders it after the load
//   // later: latency of the load = time of unit 1's record - time of unit 0's record
//
// take_snapshot(id, value) sends `value` non-blocking to iBuffer unit `id`
// (hlsinstr_ibuffer.cl), which takes the timestamp when it reads it: the call never stalls and
// adds no timer to the kernel under test. Each id is one call site (one writer per channel);
// `id` must be a compile-time constant. A snapshot sent while the unit's channel is full is
// lost (the unit reads one per cycle, so only bursts faster than one per cycle lose any).
// Emulation: the call waits for space instead (the emulated unit is slower than hardware).
#ifndef HLSINSTR_SNAPSHOT_CL
#define HLSINSTR_SNAPSHOT_CL

#include "hlsinstr_ibuffer.cl"

#define take_snapshot(id, v) hlsinstr_take_snapshot_(id, (long)(v))

void hlsinstr_take_snapshot_(uint id, long value) {
    hlsinstr_send_probe_(id, 0, value);
}

#endif
