// hlsinstr: smart watchpoints (seed 004, section 5.2): address-bound and value-invariance
// checks on the memory accesses a kernel reports.
//
//   #include "hlsinstr_watch.cl"
//   add_watch_checked(0, (size_t)&buf[3], (size_t)&buf[0], (size_t)&buf[N], 0, LONG_MAX);
//   for (...) {
//       buf[j] = v;
//       monitor_address(0, (size_t)&buf[j], v);   // every access that may touch the watch
//   }
//
// add_watch(id, addr): unit `id` (an iBuffer, hlsinstr_ibuffer.cl) records a HIT for every
//   monitored access to `addr` (watched range [addr, addr + 1): accesses are reported at the
//   element's first byte); no bound or value check.
// add_watch_checked(id, addr, lo, hi, vmin, vmax): also an OUT_OF_BOUNDS record for every
//   monitored access outside [lo, hi) and an INVARIANT record (instead of HIT) when an access to
//   `addr` carries a value outside [vmin, vmax].
// add_watch_range(id, wlo, whi, lo, hi, vmin, vmax, hits): the general form: accesses in the
//   watched range [wlo, whi) are checked against [vmin, vmax] (INVARIANT) and, when `hits` is
//   1, recorded as HITs otherwise; accesses outside [lo, hi) are OUT_OF_BOUNDS (lo = 0,
//   hi = ULONG_MAX: no bound). With hits = 0 a unit records only violations.
// A configured unit's read-out starts with CONFIG_WATCH and CONFIG_BOUNDS records that repeat
//   its configuration (hlsinstr_ibuffer.cl).
// (Emulation: add_watch* returns once the unit has the configuration, and monitor_address
// waits for space instead of losing a probe, since the emulated unit is slower than hardware.)
// monitor_address(id, addr, tag): reports an access at `addr` carrying `tag` (the value stored
//   or loaded) to unit `id`, non-blocking (never stalls the kernel; lost only if the unit's
//   channel is full).
// Record kinds and layout: hlsinstr_ibuffer.cl. Each id is one call site of monitor_address
// and one of add_watch*, since a channel has one writer; watch two sites with two units
// configured alike. `id` must be a compile-time constant. The configuration is a blocking
// write (it is never lost); send it before the monitored accesses.
#ifndef HLSINSTR_WATCH_CL
#define HLSINSTR_WATCH_CL

#include "hlsinstr_ibuffer.cl"

void add_watch_range(uint id, size_t wlo, size_t whi, size_t lo, size_t hi, long vmin, long vmax, uint hits) {
    hlsinstr_watch_cfg c;
    c.wlo = wlo;
    c.whi = whi;
    c.lo = lo;
    c.hi = hi;
    c.vmin = vmin;
    c.vmax = vmax;
    c.hits = hits;
    write_channel_intel(hlsinstr_ib_cfg[id], c);
#ifdef HLSINSTR_EMU
    // In hardware the unit reads the configuration and a probe in the same cycle, the
    // configuration first, and the first probe comes at least a cycle after this write. The
    // emulated unit is a thread that could see the probe first: wait until it has the
    // configuration.
    hlsinstr_emu_drain(hlsinstr_ib_cfg[id]);
#endif
}

void add_watch_checked(uint id, size_t addr, size_t lo, size_t hi, long vmin, long vmax) {
    add_watch_range(id, addr, addr + 1, lo, hi, vmin, vmax, 1);
}

void add_watch(uint id, size_t addr) { add_watch_checked(id, addr, 0, ULONG_MAX, LONG_MIN, LONG_MAX); }

#define monitor_address(id, addr, tag) hlsinstr_monitor_address_(id, (ulong)(addr), (long)(tag))

void hlsinstr_monitor_address_(uint id, ulong addr, long tag) {
    hlsinstr_send_probe_(id, addr, tag);
}

#endif
