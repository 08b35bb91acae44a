// hlsinstr: the in-FPGA monitor's building blocks (the generated hlsinstr_monitor.h uses them).
//
// Every probe of a `--target vitis` build owns one FIFO (`ProbeStream`) of `Event`s: a begin, then
// an end carrying the loop's trip count. One monitor process reads every FIFO once per clock with
// `read_nb` (it never blocks, so it never stalls the kernel) and keeps per probe a `SlotState`:
//
// | field       | bits | meaning                                                    |
// |-------------|------|------------------------------------------------------------|
// | calls       | 64   | begin events                                               |
// | busy        | 64   | sum of end - begin                                         |
// | max_busy    | 64   | longest single invocation (only with --monitor-longest)    |
// | first_start | 64   | time of the first begin (all ones until then)              |
// | last_end    | 64   | latest end                                                 |
// | trips       | 64   | sum of trip counts (loops)                                 |
// | unmatched   | 64   | begin while open, end while closed                         |
// | open_start  | 64   | begin time of the open invocation                          |
// | open, seen  | 2    | an invocation is open; a begin was seen                    |
//
// 450 bits of registers per probe (514 with the longest invocation), no BRAM; per probe and
// cycle one FIFO read, a 64-bit subtract and four 64-bit adds/increments (plus a compare for the
// longest invocation). The results go to the debug buffer in the layout of docs/dump-format.md
// (`write_header`, `write_slot`).
//
// Time: with `timestamps` each event carries the free-running counter read at its probe site, so
// bursts queued in a FIFO keep their exact times; without, an event's time is the monitor cycle
// that reads it (HLScope's method: exact while a probe posts at most one event per cycle and the
// FIFO is read every cycle, which the II=1 loop guarantees).
#ifndef HLSINSTR_HW_MONITOR_H
#define HLSINSTR_HW_MONITOR_H

#include <ap_int.h>
#include <hls_stream.h>

namespace hlsinstr {
namespace hw {

typedef ap_uint<64> Clock;
typedef unsigned long long dump_word;

/// One probe event: begin, or end with the trip count of the loop execution it closes.
struct Event {
    ap_uint<1> end;
    ap_uint<32> trips;
    Clock time;
};

typedef hls::stream<Event> ProbeStream;
/// The run-done token: written once, after the original top returned.
typedef hls::stream<ap_uint<1> > DoneStream;

const dump_word DUMP_MAGIC = 0x3147424449534c48ull; // "HLSIDBG1" in file order
const dump_word DUMP_VERSION = 1;
const int HEADER_WORDS = 6;
const int SLOT_WORDS = 8;
const dump_word STATUS_FINISHED = 1;
const dump_word STATUS_UNMATCHED = 2;
/// The longest invocation was not tracked (`--monitor-longest` off): max_busy words are 0.
const dump_word STATUS_NO_LONGEST = 4;

struct SlotState {
    Clock calls, busy, max_busy, first_start, last_end, trips, unmatched, open_start;
    ap_uint<1> open, seen;
};

inline void reset(SlotState& s) {
    s.calls = 0;
    s.busy = 0;
    s.max_busy = 0;
    s.first_start = ~Clock(0);
    s.last_end = 0;
    s.trips = 0;
    s.unmatched = 0;
    s.open_start = 0;
    s.open = 0;
    s.seen = 0;
}

/// Account one event at time `now`. `Longest`: also keep the longest invocation (a 64-bit
/// compare and register per probe, about 45 LUT: off unless asked for).
template <bool Longest>
inline void observe(SlotState& s, const Event& e, Clock now) {
#pragma HLS INLINE
    if (!e.end) {
        if (s.open) ++s.unmatched;
        s.open = 1;
        s.open_start = now;
        // The first begin's time: a FIFO delivers its events in time order, so a flag, no compare.
        if (!s.seen) s.first_start = now;
        s.seen = 1;
        ++s.calls;
    } else {
        if (s.open) {
            Clock d = now - s.open_start;
            s.busy += d;
            if (Longest && d > s.max_busy) s.max_busy = d;
        } else {
            ++s.unmatched;
        }
        s.open = 0;
        s.last_end = now;
        s.trips += e.trips;
    }
}

/// One cycle for one probe: read at most one event without blocking; true when one was read.
/// `EventTime`: use the event's own timestamp instead of the monitor cycle `cycle`.
template <bool EventTime, bool Longest>
inline bool watch(SlotState& s, ProbeStream& fifo, Clock cycle) {
#pragma HLS INLINE
    Event e;
    if (!fifo.read_nb(e)) return false;
    observe<Longest>(s, e, EventTime ? e.time : cycle);
    return true;
}

inline void write_header(dump_word* dbg, dump_word key, int slots, Clock cycles, dump_word status) {
#pragma HLS INLINE
    dbg[0] = DUMP_MAGIC;
    dbg[1] = DUMP_VERSION;
    dbg[2] = key;
    dbg[3] = static_cast<dump_word>(slots);
    dbg[4] = cycles.to_uint64();
    dbg[5] = status;
}

inline void write_slot(dump_word* dbg, int slot, unsigned probe, const SlotState& s) {
#pragma HLS INLINE
    dump_word* w = dbg + HEADER_WORDS + SLOT_WORDS * slot;
    w[0] = probe;
    w[1] = s.calls.to_uint64();
    w[2] = s.busy.to_uint64();
    w[3] = s.first_start.to_uint64();
    w[4] = s.last_end.to_uint64();
    w[5] = s.trips.to_uint64();
    w[6] = s.unmatched.to_uint64();
    w[7] = s.max_busy.to_uint64();
}

} // namespace hw
} // namespace hlsinstr

#endif
