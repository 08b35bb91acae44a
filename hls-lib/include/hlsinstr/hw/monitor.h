// hlsinstr: the in-FPGA monitor's building blocks (the generated hlsinstr_monitor.h uses them).
//
// Every probe of a `--target vitis` build owns one FIFO (`ProbeStream`) of `Event`s: a begin, then
// an end carrying the loop's trip count. One monitor process runs at II=1 and, per clock:
//
// 1. Front (per probe, `front`): holds at most one event (`Held`: 97 bits). A probe whose holder
//    is free, or is being emptied this cycle, reads its FIFO with `read_nb` (never blocking, so
//    the kernel never stalls on the monitor) and stamps the event with its time.
// 2. Arbiter: picks ONE holder per cycle: first one with another event waiting in its FIFO
//    (emptying it lets that FIFO be read now), else the lowest probe holding an event.
// 3. One shared accumulator (`accumulate`) folds that event into the probe's `SlotState`, which
//    lives in a RAM of one entry per probe (`SlotState acc[N]`), not in registers; the state it
//    wrote last is kept in a register and used when the same probe comes next (forwarding), so
//    the RAM's read-modify-write has no dependence between consecutive cycles.
//
// SlotState (one RAM entry per probe):
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
// Cost: per probe the holder's 97 flip-flops, its share of the 97-bit event multiplexer and the
// arbiter (yosys estimate: verilog/estimate/, docs/in-fpga.md); the 64-bit arithmetic and the
// RAM are one fixed part. The results go to the debug buffer in the layout of docs/dump-format.md
// (`write_header`, `write_slot`).
//
// Time: with `timestamps` each event carries the free-running counter read at its probe site, so
// events that wait (in a FIFO or a holder) keep their exact times; without, an event's time is the
// monitor cycle that reads it from its FIFO (HLScope's method: exact while every event is read in
// the cycle it arrives). The holder keeps that time while the event waits for the accumulator, so
// two probes posting in the same cycle both get that cycle. An event can arrive late only when
// two probes each hold an event and have the next one waiting in the same cycle: the one not
// served reads its FIFO a cycle later; the monitor then sets STATUS_LATE (never with timestamps).
// The accumulator takes one event per cycle: the FIFOs absorb bursts (each event waits at most
// until the events before it in the arbiter's order are served), and a FIFO that fills blocks
// its probe's write, so no event is ever lost.
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
/// Without timestamps: an event was read from its FIFO one or more cycles after it arrived,
/// because the accumulator served another probe (its time, and the busy sum, are that late).
const dump_word STATUS_LATE = 8;

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

/// A probe's front stage: the one event it holds for the shared accumulator, already stamped.
struct Held {
    bool valid;
    Event e;
};

inline void reset(Held& h) {
    h.valid = false;
    h.e.end = 0;
    h.e.trips = 0;
    h.e.time = 0;
}

/// True when the arbiter should prefer this probe: it holds an event and another one waits in
/// its FIFO, which can only be read this cycle if the held one leaves.
inline bool urgent(const Held& h, ProbeStream& fifo) {
#pragma HLS INLINE
    return h.valid && !fifo.empty();
}

/// One cycle of one probe's front stage. When `granted`, `out` is the held event (the arbiter
/// grants only a probe that holds one: the accumulator reads holders, never a FIFO directly,
/// which keeps the per-probe multiplexer to one 97-bit input). Reads the FIFO without blocking
/// when the holder is free or is being emptied, and stamps what it read (`EventTime`: its own
/// timestamp, else `cycle`). `late` is set when an event waits in the FIFO because another
/// probe was served. True when the probe had an event this cycle (held or read).
template <bool EventTime>
inline bool front(Held& h, ProbeStream& fifo, bool granted, Clock cycle, Event& out, bool& late) {
#pragma HLS INLINE
    const bool had = h.valid;
    if (granted) out = h.e;
    bool got = false;
    if (!had || granted) {
        Event fresh;
        got = fifo.read_nb(fresh);
        if (got) {
            if (!EventTime) fresh.time = cycle;
            h.e = fresh;
        }
        h.valid = got;
    } else if (!fifo.empty()) {
        late = true;
    }
    return had || got;
}

/// The shared accumulator: fold event `e` (stamped) into probe `slot`'s state in the RAM `acc`.
/// `fwd`/`fwd_slot` hold the state written in the previous cycle: read instead of the RAM when
/// the same probe comes again, so consecutive cycles never read what the RAM is still writing.
template <bool Longest>
inline void accumulate(SlotState* acc, SlotState& fwd, int& fwd_slot, int slot, const Event& e) {
#pragma HLS INLINE
    SlotState s = (slot == fwd_slot) ? fwd : acc[slot];
    observe<Longest>(s, e, e.time);
    acc[slot] = s;
    fwd = s;
    fwd_slot = slot;
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
