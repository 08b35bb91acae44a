// hlsinstr: iBuffers for Intel FPGA OpenCL (seed 004, section 4): autorun trace buffers that
// record what probes send them, never stalling the probes, and a host interface kernel that
// commands them and streams their contents to global memory.
//
//   #define HLSINSTR_NUM_IBUFFERS 2      // units (default 1); unit id = probe site
//   #define HLSINSTR_IBUFFER_DEPTH 256   // records per unit (default 1024)
//   #include "hlsinstr_ibuffer.cl"       // or hlsinstr_snapshot.cl / hlsinstr_watch.cl
//
// Units. The kernel hlsinstr_ibuffer is replicated HLSINSTR_NUM_IBUFFERS times
// (num_compute_units; unit = get_compute_id(0)). Unit u owns four channels, each with one
// writer and one reader:
//   hlsinstr_ib_cmd[u]   uint                 host interface kernel -> unit (commands)
//   hlsinstr_ib_cfg[u]   hlsinstr_watch_cfg   add_watch* at one site    -> unit (watch setup)
//   hlsinstr_ib_data[u]  hlsinstr_probe       take_snapshot / monitor_address at ONE site -> unit
//   hlsinstr_ib_out[u]   hlsinstr_record      unit -> host interface kernel (read-out)
//
// Commands (HLSINSTR_CMD_*), as in hls-lib's hlsinstr/hw/ibuffer.h:
//   RESET_LINEAR / RESET_CYCLIC  clear the trace and the drop counter, choose the mode; RESET
//   SAMPLE   start recording (from RESET or STOP; from STOP it appends)
//   STOP     stop recording; the records stay
//   READ     stream out a header record, then the records oldest first; READ, then STOP.
//            From SAMPLE it stops recording first. Not destructive: READ again repeats.
// Linear: once DEPTH records are stored, later ones are dropped (counted). Cyclic: a record
// overwrites the oldest once the buffer is full; the buffer keeps the last DEPTH.
//
// One loop iteration is one cycle (stall-free: no dependence carried through memory or
// channels, no inner loop), in this order:
//   1. unless the state is READ, read at most one command (non-blocking) and apply it;
//   2. read at most one watch configuration (non-blocking) and apply it;
//   3. read at most one probe (non-blocking) in every state, so a probe never blocks; the
//      timestamp get_time() is taken here, in the unit, the cycle the probe arrives. In SAMPLE
//      the probe becomes a record (below); in other states it is discarded;
//   4. if the state was READ when the iteration began, write the next record non-blocking;
//      a full channel takes nothing and the same record is tried next cycle.
//
// What a probe becomes. A unit without a watch configuration is a stall monitor: every probe
// is a SNAPSHOT record. A unit configured by add_watch* is a smart watchpoint with a watched
// address range [wlo, whi), bounds [lo, hi), a value interval [vmin, vmax] and a `hits` flag;
// a probe (an access at address `addr` carrying `value`) becomes
//   OUT_OF_BOUNDS  if addr is outside [lo, hi)                               (address-bound check)
//   INVARIANT      else if addr is in [wlo, whi) and value is outside [vmin, vmax] (value check)
//   HIT            else if addr is in [wlo, whi) and hits is 1
//   nothing        otherwise.
//
// Record format (hlsinstr_record, 32 bytes, little-endian on the host, fields in this order):
//   uint  kind    HLSINSTR_REC_SNAPSHOT 0, HIT 1, OUT_OF_BOUNDS 2, INVARIANT 3,
//                 CONFIG_BOUNDS 13, CONFIG_WATCH 14, HEADER 15
//   uint  unit    the unit (= probe site) id
//   ulong time    get_time() in the unit when the probe arrived
//   ulong addr    the probe's address (SNAPSHOT: what the probe sent: 0 from take_snapshot,
//                 the work-item from a branch record of hlsinstr_probe.cl)
//   long  value   the probe's value
// A read-out (READ) is, in this order:
//   HEADER         time = mode (0 linear, 1 cyclic), addr = records dropped since RESET,
//                  value = number of records that follow (the CONFIG records included)
//   CONFIG_WATCH   only in a configured unit: time = wlo, addr = whi (exclusive),
//                  value = hits (1: plain hits are recorded, 0: only violations)
//   CONFIG_BOUNDS  only in a configured unit: time = lo, addr = hi (exclusive; ULONG_MAX: no
//                  bound), value = 0
//   the trace records, oldest first.
// (The host's dump format built on this: docs/opencl.md, "Host side".)
//
// Cost per unit: DEPTH x 256 bits of on-chip memory (private array), write/read indices,
// counts, a 32-bit drop counter, a watch configuration (4 x 64-bit addresses, 2 x 64-bit values,
// a flag) with its comparators and a copy of it for the read-out, and the get_time counter. Not synthesized here (no aoc).
#ifndef HLSINSTR_IBUFFER_CL
#define HLSINSTR_IBUFFER_CL

#include "hlsinstr_time.h"

#ifndef HLSINSTR_NUM_IBUFFERS
#define HLSINSTR_NUM_IBUFFERS 1
#endif
#ifndef HLSINSTR_IBUFFER_DEPTH
#define HLSINSTR_IBUFFER_DEPTH 1024
#endif

#define HLSINSTR_CMD_RESET_LINEAR 0u
#define HLSINSTR_CMD_RESET_CYCLIC 1u
#define HLSINSTR_CMD_SAMPLE 2u
#define HLSINSTR_CMD_STOP 3u
#define HLSINSTR_CMD_READ 4u

#define HLSINSTR_REC_SNAPSHOT 0u
#define HLSINSTR_REC_HIT 1u
#define HLSINSTR_REC_OUT_OF_BOUNDS 2u
#define HLSINSTR_REC_INVARIANT 3u
#define HLSINSTR_REC_CONFIG_BOUNDS 13u
#define HLSINSTR_REC_CONFIG_WATCH 14u
#define HLSINSTR_REC_HEADER 15u

#define HLSINSTR_STATE_RESET 0u
#define HLSINSTR_STATE_SAMPLE 1u
#define HLSINSTR_STATE_STOP 2u
#define HLSINSTR_STATE_READ 3u

typedef struct {
    uint kind;
    uint unit;
    ulong time;
    ulong addr;
    long value;
} hlsinstr_record;

typedef struct {
    ulong addr;
    long value;
} hlsinstr_probe;

typedef struct {
    ulong wlo;  // watched range [wlo, whi)
    ulong whi;
    ulong lo;   // bounds [lo, hi)
    ulong hi;
    long vmin;  // allowed values [vmin, vmax]
    long vmax;
    uint hits;  // 1: record a HIT for an access in the watched range
} hlsinstr_watch_cfg;

channel uint hlsinstr_ib_cmd[HLSINSTR_NUM_IBUFFERS] __attribute__((depth(4)));
channel hlsinstr_watch_cfg hlsinstr_ib_cfg[HLSINSTR_NUM_IBUFFERS] __attribute__((depth(2)));
channel hlsinstr_probe hlsinstr_ib_data[HLSINSTR_NUM_IBUFFERS] __attribute__((depth(8)));
channel hlsinstr_record hlsinstr_ib_out[HLSINSTR_NUM_IBUFFERS] __attribute__((depth(8)));

__attribute__((autorun))
__attribute__((max_global_work_dim(0)))
__attribute__((num_compute_units(HLSINSTR_NUM_IBUFFERS)))
__kernel void hlsinstr_ibuffer(void) {
    const uint unit = get_compute_id(0);
    hlsinstr_record trace[HLSINSTR_IBUFFER_DEPTH];
    uint state = HLSINSTR_STATE_RESET;
    uint cyclic = 0;
    uint wr = 0;      // the slot the next stored record takes
    uint rd = 0;      // the slot the read-out sends next
    uint count = 0;   // records stored
    uint left = 0;    // records the read-out has still to send
    uint dropped = 0; // saturating
    uint prefix = 0;  // records the read-out has still to send before the trace: HEADER, CONFIG_*
    bool watching = false;
    hlsinstr_watch_cfg cfg = {0, 0, 0, 0, 0, 0, 0};
    // The configuration as it was when READ began: a configuration arriving during a read-out
    // applies to later probes, not to the read-out's CONFIG records.
    bool ro_watching = false;
    hlsinstr_watch_cfg ro_cfg = {0, 0, 0, 0, 0, 0, 0};

    while (1) {
        const bool reading = state == HLSINSTR_STATE_READ;

        // 1. At most one command, never during a read-out.
        bool cmd_valid = false;
        uint cmd = 0;
        if (!reading) {
            cmd = read_channel_nb_intel(hlsinstr_ib_cmd[unit], &cmd_valid);
        }
        if (cmd_valid) {
            if (cmd == HLSINSTR_CMD_RESET_LINEAR || cmd == HLSINSTR_CMD_RESET_CYCLIC) {
                state = HLSINSTR_STATE_RESET;
                cyclic = cmd == HLSINSTR_CMD_RESET_CYCLIC ? 1 : 0;
                wr = 0;
                count = 0;
                dropped = 0;
            } else if (cmd == HLSINSTR_CMD_SAMPLE) {
                state = HLSINSTR_STATE_SAMPLE;
            } else if (cmd == HLSINSTR_CMD_STOP) {
                state = HLSINSTR_STATE_STOP;
            } else if (cmd == HLSINSTR_CMD_READ) {
                // Oldest record: slot 0 until the buffer has been filled once, then the slot
                // the next write would take.
                rd = count == HLSINSTR_IBUFFER_DEPTH ? wr : 0;
                left = count;
                prefix = watching ? 3 : 1;
                ro_watching = watching;
                ro_cfg = cfg;
                state = HLSINSTR_STATE_READ;
            }
        }

        // 2. At most one watch configuration.
        bool cfg_valid = false;
        hlsinstr_watch_cfg c = read_channel_nb_intel(hlsinstr_ib_cfg[unit], &cfg_valid);
        if (cfg_valid) {
            cfg = c;
            watching = true;
        }

        // 3. At most one probe, consumed in every state; the timestamp is taken here.
        bool probe_valid = false;
        hlsinstr_probe p = read_channel_nb_intel(hlsinstr_ib_data[unit], &probe_valid);
        if (probe_valid && state == HLSINSTR_STATE_SAMPLE) {
            hlsinstr_record r;
            r.unit = unit;
            r.time = get_time(p.addr);
            r.addr = p.addr;
            r.value = p.value;
            bool keep = true;
            if (!watching) {
                r.kind = HLSINSTR_REC_SNAPSHOT;
            } else if (p.addr < cfg.lo || p.addr >= cfg.hi) {
                r.kind = HLSINSTR_REC_OUT_OF_BOUNDS;
            } else if (p.addr >= cfg.wlo && p.addr < cfg.whi && (p.value < cfg.vmin || p.value > cfg.vmax)) {
                r.kind = HLSINSTR_REC_INVARIANT;
            } else if (p.addr >= cfg.wlo && p.addr < cfg.whi && cfg.hits != 0) {
                r.kind = HLSINSTR_REC_HIT;
            } else {
                keep = false;
            }
            if (keep) {
                if (cyclic == 0 && count == HLSINSTR_IBUFFER_DEPTH) {
                    if (dropped != 0xffffffffu) dropped++;
                } else {
                    trace[wr] = r;
                    wr = wr == HLSINSTR_IBUFFER_DEPTH - 1 ? 0 : wr + 1;
                    if (count != HLSINSTR_IBUFFER_DEPTH) count++;
                }
            }
        }

        // 4. At most one output record, only in an iteration that began in READ: the HEADER,
        //    the two CONFIG records of a configured unit, then the trace.
        if (reading) {
            hlsinstr_record o;
            o.unit = unit;
            if (prefix == 3 || (prefix == 1 && !ro_watching)) {
                o.kind = HLSINSTR_REC_HEADER;
                o.time = cyclic;
                o.addr = dropped;
                o.value = (long)count + (ro_watching ? 2 : 0);
            } else if (prefix == 2) {
                o.kind = HLSINSTR_REC_CONFIG_WATCH;
                o.time = ro_cfg.wlo;
                o.addr = ro_cfg.whi;
                o.value = ro_cfg.hits;
            } else if (prefix == 1) {
                o.kind = HLSINSTR_REC_CONFIG_BOUNDS;
                o.time = ro_cfg.lo;
                o.addr = ro_cfg.hi;
                o.value = 0;
            } else {
                o = trace[rd];
            }
            if (write_channel_nb_intel(hlsinstr_ib_out[unit], o)) {
                if (prefix != 0) {
                    prefix--;
                } else {
                    rd = rd == HLSINSTR_IBUFFER_DEPTH - 1 ? 0 : rd + 1;
                    left--;
                }
                if (prefix == 0 && left == 0) state = HLSINSTR_STATE_STOP;
            }
        }
    }
}

// The host interface kernel (seed 004, Listing 10): forwards `cmd` to unit `id` and, for READ,
// copies the unit's read-out to `out`: out[0] is the HEADER, out[1 .. 1 + out[0].value] the
// records (CONFIG records first in a configured unit). `out` must hold HLSINSTR_IBUFFER_DEPTH + 3
// records. Launch it as a single work-item
// kernel while the kernels under test are idle (its global-memory writes would otherwise
// compete with theirs). An id >= HLSINSTR_NUM_IBUFFERS does nothing.
// Sends one probe to unit `id` from a probe site (take_snapshot, monitor_address): never stalls
// the kernel on hardware, where a probe sent while the unit's channel is full is lost (the unit
// reads one per cycle, so only bursts faster than that lose any).
void hlsinstr_send_probe_(uint id, ulong addr, long value) {
    hlsinstr_probe p;
    p.addr = addr;
    p.value = value;
#ifdef HLSINSTR_EMU
    // The hardware unit reads a probe every cycle, so a site sending at most one per cycle
    // never loses one; the emulated unit is a slower thread, so the emulation waits instead,
    // without charging the wait to the kernel's model clock.
    hlsinstr_emu_write_untimed(hlsinstr_ib_data[id], p);
#else
    (void)write_channel_nb_intel(hlsinstr_ib_data[id], p);
#endif
    mem_fence(CLK_CHANNEL_MEM_FENCE);
}

__attribute__((max_global_work_dim(0)))
__kernel void hlsinstr_host(uint cmd, uint id, __global hlsinstr_record *restrict out) {
    #pragma unroll
    for (uint u = 0; u < HLSINSTR_NUM_IBUFFERS; u++) {
        if (u == id) write_channel_intel(hlsinstr_ib_cmd[u], cmd);
    }
    if (cmd == HLSINSTR_CMD_READ && id < HLSINSTR_NUM_IBUFFERS) {
        long n = 0;
        for (long k = 0; k <= n; k++) {
            hlsinstr_record r;
            #pragma unroll
            for (uint u = 0; u < HLSINSTR_NUM_IBUFFERS; u++) {
                if (u == id) r = read_channel_intel(hlsinstr_ib_out[u]);
            }
            if (k == 0) n = r.value;
            out[k] = r;
        }
    }
}

#endif
