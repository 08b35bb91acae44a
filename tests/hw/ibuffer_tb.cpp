// Self-checking testbench of hlsinstr/hw/ibuffer.h: drives IBuffer<Depth>::step() cycle by cycle
// and the free-running ibuffer<Depth>(). main returns the number of failed checks and prints each.
//
// Built by rewriter/tests/ibuffer.rs twice: against the vendor hls_stream.h (unbounded streams,
// full() is always false) and against hlsinstr's model (-I hls-lib/include/hlsinstr/sim first),
// whose hls::stream<T, N> is bounded, so a full output stream is really full there.
#include "hlsinstr/hw/ibuffer.h"

#include <cstdio>
#include <vector>

using hlsinstr::hw::Command;
using hlsinstr::hw::IBuffer;
using hlsinstr::hw::Mode;
using hlsinstr::hw::State;
using hlsinstr::hw::TraceRecord;

#if defined(HLSINSTR_SIM_HLS_STREAM_H)
#define BOUNDED_STREAMS 1
#else
#define BOUNDED_STREAMS 0
#endif

// Test-only equality, in the record's namespace so std::vector's == finds it.
namespace hlsinstr {
namespace hw {
bool operator==(const TraceRecord& a, const TraceRecord& b) {
    return a.probe == b.probe && a.time == b.time && a.value == b.value;
}
} // namespace hw
} // namespace hlsinstr

namespace {

int errors = 0;
const char* test_name = "";

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::printf("FAIL %s (line %d): %s\n", test_name, __LINE__, #cond);                    \
            ++errors;                                                                              \
        }                                                                                          \
    } while (0)

// Record number n of a run: every field differs between records, so a swap, loss or duplicate
// shows in any field.
TraceRecord rec(unsigned n) {
    TraceRecord r;
    r.probe = n % 7;
    r.time = 1000 + 3ull * n;
    r.value = (0xabcdull << 32) ^ (n * 2654435761ull);
    return r;
}

std::vector<TraceRecord> recs(unsigned first, unsigned count) {
    std::vector<TraceRecord> v;
    for (unsigned i = 0; i < count; ++i) v.push_back(rec(first + i));
    return v;
}

// One iBuffer with its three streams. OutDepth > 0 bounds the output stream where the stream
// model supports it (hlsinstr's); the vendor model is unbounded.
template <int Depth, int OutDepth = 0>
struct Rig {
#if BOUNDED_STREAMS
    typedef hls::stream<TraceRecord, OutDepth> OutStream;
#else
    typedef hls::stream<TraceRecord> OutStream;
#endif
    IBuffer<Depth> buf;
    hls::stream<Command> cmd;
    hls::stream<TraceRecord> in;
    OutStream out;
    unsigned next = 0; // number of the next record fed

    // One cycle, optionally with a command and/or a fresh record arriving before it.
    bool cycle(const Command* c = 0, bool with_record = false) {
        if (c) cmd.write(*c);
        if (with_record) in.write(rec(next++));
        return buf.step(cmd, in, out);
    }
    bool command(const Command& c, bool with_record = false) { return cycle(&c, with_record); }
    void feed(unsigned n) {
        for (unsigned i = 0; i < n; ++i) cycle(0, true);
    }
    std::vector<TraceRecord> drain() {
        std::vector<TraceRecord> v;
        TraceRecord r;
        while (out.read_nb(r)) v.push_back(r);
        return v;
    }
    // READ, then step until STOP, checking at most one record per cycle and none in the setup
    // cycle; returns what came out.
    std::vector<TraceRecord> read_all() {
        const unsigned expected = buf.count();
        command(Command::read());
        CHECK(out.size() == 0); // the setup cycle writes nothing
        CHECK(buf.state() == (expected ? State::Read : State::Stop));
        std::vector<TraceRecord> got;
        for (unsigned i = 0; i < expected + 4 && buf.state() == State::Read; ++i) {
            const unsigned before = buf.pending();
            cycle();
            CHECK(out.size() == 1);
            CHECK(buf.pending() + 1 == before || buf.state() == State::Stop);
            std::vector<TraceRecord> one = drain();
            got.insert(got.end(), one.begin(), one.end());
        }
        CHECK(buf.state() == State::Stop);
        CHECK(got.size() == expected);
        return got;
    }
};

void begin(const char* n) { test_name = n; }

// Initial state, idle input in RESET, and the four transitions of Fig. 3 one cycle at a time.
template <int D>
void transitions() {
    begin("transitions");
    Rig<D> r;
    CHECK(r.buf.state() == State::Reset && r.buf.count() == 0 && r.buf.dropped() == 0);
    CHECK(r.buf.mode() == Mode::Linear);
    r.feed(3); // outside SAMPLE: consumed (the producer never blocks), not stored
    CHECK(r.in.size() == 0 && r.buf.count() == 0 && r.buf.dropped() == 0);

    r.command(Command::reset(Mode::Linear));
    CHECK(r.buf.state() == State::Reset);
    const unsigned first = r.next;
    r.command(Command::sample(), true); // the record of the SAMPLE cycle is stored
    CHECK(r.buf.state() == State::Sample && r.buf.count() == 1);
    const unsigned n = D > 1 ? D - 1 : 1;
    r.feed(n - 1);
    CHECK(r.buf.count() == n);
    r.command(Command::stop(), true); // the record of the STOP cycle is not
    CHECK(r.buf.state() == State::Stop && r.buf.count() == n);
    r.feed(2);
    CHECK(r.buf.count() == n && r.in.size() == 0);

    std::vector<TraceRecord> got = r.read_all(); // stop -> read -> stop
    CHECK(got == recs(first, n));
    CHECK(r.read_all() == recs(first, n)); // not destructive

    r.command(Command::reset(Mode::Cyclic)); // stop (after read) -> reset
    CHECK(r.buf.state() == State::Reset && r.buf.count() == 0 && r.buf.mode() == Mode::Cyclic);
    CHECK(r.read_all().empty()); // reading an empty buffer: straight to STOP, nothing out
    r.command(Command::stop());
    CHECK(r.buf.state() == State::Stop);
}

// SAMPLE -> READ directly: recording stops in the READ cycle; STOP -> SAMPLE appends.
template <int D>
void sample_to_read_and_resume() {
    begin("sample_to_read_and_resume");
    Rig<D + 2> r; // room for the appended records
    r.command(Command::reset(Mode::Linear));
    const unsigned first = r.next;
    r.command(Command::sample());
    r.feed(D);
    r.command(Command::read(), true); // this cycle's record arrives in READ: discarded
    CHECK(r.buf.state() == State::Read && r.buf.count() == D);
    std::vector<TraceRecord> got;
    while (r.buf.state() == State::Read) {
        r.cycle(0, true); // records arriving during a read-out are discarded too
        std::vector<TraceRecord> one = r.drain();
        got.insert(got.end(), one.begin(), one.end());
    }
    CHECK(got == recs(first, D));
    CHECK(r.buf.count() == D);

    r.command(Command::sample()); // STOP -> SAMPLE: appends after the kept records
    const unsigned more = r.next;
    r.feed(2);
    r.command(Command::stop());
    std::vector<TraceRecord> want = recs(first, D);
    std::vector<TraceRecord> tail = recs(more, 2);
    want.insert(want.end(), tail.begin(), tail.end());
    CHECK(r.read_all() == want);
}

// Commands sent during a read-out wait in the command stream and take effect afterwards.
template <int D>
void commands_while_reading() {
    begin("commands_while_reading");
    Rig<D> r;
    r.command(Command::reset(Mode::Linear));
    const unsigned first = r.next;
    r.command(Command::sample());
    r.feed(D);
    r.command(Command::read());
    CHECK(r.buf.state() == State::Read);
    r.cmd.write(Command::reset(Mode::Cyclic)); // would clear the buffer if applied now
    r.cmd.write(Command::sample());
    std::vector<TraceRecord> got;
    for (unsigned i = 0; i < unsigned(D); ++i) {
        CHECK(r.buf.state() == State::Read);
        r.cycle();
        CHECK(r.cmd.size() == 2); // untouched while reading
        std::vector<TraceRecord> one = r.drain();
        got.insert(got.end(), one.begin(), one.end());
    }
    CHECK(got == recs(first, D)); // every record, the queued RESET notwithstanding
    CHECK(r.buf.state() == State::Stop);
    r.cycle(); // the queued RESET
    CHECK(r.buf.state() == State::Reset && r.buf.count() == 0 && r.buf.mode() == Mode::Cyclic);
    r.cycle(0, true); // the queued SAMPLE, with its cycle's record
    CHECK(r.buf.state() == State::Sample && r.buf.count() == 1 && r.cmd.size() == 0);
}

// RESET in the middle of sampling clears everything and stops recording.
template <int D>
void reset_mid_sample() {
    begin("reset_mid_sample");
    Rig<D> r;
    r.command(Command::reset(Mode::Linear));
    r.command(Command::sample());
    r.feed(D + 2); // full and dropping
    CHECK(r.buf.count() == D && r.buf.dropped() == 2);
    r.command(Command::reset(Mode::Cyclic), true);
    CHECK(r.buf.state() == State::Reset && r.buf.count() == 0 && r.buf.dropped() == 0);
    r.feed(3);
    CHECK(r.buf.count() == 0);
    r.command(Command::sample());
    const unsigned first = r.next;
    r.feed(1);
    r.command(Command::stop());
    CHECK(r.read_all() == recs(first, 1));
}

// Linear: exactly the first Depth records are kept, the rest counted dropped.
template <int D>
void linear_stops_when_full(unsigned extra) {
    begin("linear_stops_when_full");
    Rig<D> r;
    r.command(Command::reset(Mode::Linear));
    const unsigned first = r.next;
    r.command(Command::sample(), true);
    r.feed(D - 1 + extra);
    CHECK(r.buf.state() == State::Sample); // still sampling, only storing stopped
    CHECK(r.buf.count() == D && r.buf.dropped() == extra);
    r.command(Command::stop(), true); // not dropped: STOP came first in this cycle
    CHECK(r.buf.dropped() == extra);
    CHECK(r.read_all() == recs(first, D));
}

// Cyclic: after Depth + k records the last Depth come out, oldest first.
template <int D>
void cyclic_wraps(unsigned total) {
    begin("cyclic_wraps");
    Rig<D> r;
    r.command(Command::reset(Mode::Cyclic));
    const unsigned first = r.next;
    r.command(Command::sample());
    r.feed(total);
    r.command(Command::stop());
    const unsigned kept = total < unsigned(D) ? total : unsigned(D);
    CHECK(r.buf.count() == kept && r.buf.dropped() == 0);
    std::vector<TraceRecord> got = r.read_all();
    CHECK(got == recs(first + total - kept, kept));
    if (got != recs(first + total - kept, kept))
        std::printf("  depth %d, %u records: %u out\n", D, total, unsigned(got.size()));
    // Resume after a wrap: the order still runs from the oldest.
    r.command(Command::sample());
    r.feed(1);
    r.command(Command::stop());
    const unsigned now = total + 1 < unsigned(D) ? total + 1 : unsigned(D);
    CHECK(r.read_all() == recs(first + total + 1 - now, now));
}

// Idle input cycles in SAMPLE store nothing; a burst is taken one record per cycle.
template <int D>
void idle_and_bursts() {
    begin("idle_and_bursts");
    Rig<D> r;
    r.command(Command::reset(Mode::Linear));
    r.command(Command::sample());
    r.cycle();
    r.cycle();
    CHECK(r.buf.count() == 0);
    const unsigned first = r.next;
    const unsigned n = D < 5 ? D : 5;
    for (unsigned i = 0; i < n; ++i) r.in.write(rec(r.next++)); // a burst waiting in the FIFO
    r.cycle();
    CHECK(r.buf.count() == 1 && r.in.size() == n - 1); // at most one per cycle
    for (unsigned i = 1; i < n; ++i) { // the rest of the burst, one per cycle
        r.cycle();
        CHECK(r.buf.count() == i + 1 && r.in.size() == n - 1 - i);
    }
    r.cycle(); // empty input again: idle
    CHECK(r.buf.count() == n);
    // Records with idle cycles in between: stored as they come, nothing in the gaps.
    const unsigned m = D - n < 3 ? D - n : 3;
    for (unsigned i = 0; i < m; ++i) {
        r.cycle(0, true);
        CHECK(r.buf.count() == n + i + 1);
        for (unsigned k = 0; k < i + 1; ++k) r.cycle(); // 1, 2, 3 idle cycles
        CHECK(r.buf.count() == n + i + 1);
    }
    r.command(Command::stop());
    CHECK(r.read_all() == recs(first, n + m));
}

// The host stops draining `out`, or the iBuffer is not stepped: nothing lost or repeated.
template <int D>
void output_backpressure() {
    begin("output_backpressure");
    Rig<D> r;
    r.command(Command::reset(Mode::Cyclic));
    const unsigned first = r.next;
    r.command(Command::sample());
    r.feed(D + 1);
    r.command(Command::stop());
    r.command(Command::read());
    const unsigned half = D / 2;
    for (unsigned i = 0; i < half; ++i) {
        r.cycle();
        CHECK(r.out.size() == i + 1); // one record per cycle, none taken back
    }
    CHECK(r.buf.pending() == D - half);
    const unsigned pending = r.buf.pending(); // no step for a while: nothing changes
    CHECK(r.out.size() == half && r.buf.state() == (half < unsigned(D) ? State::Read : State::Stop));
    CHECK(r.buf.pending() == pending);
    for (unsigned i = 0; i < 3 * D && r.buf.state() == State::Read; ++i) r.cycle();
    CHECK(r.buf.state() == State::Stop);
    CHECK(r.drain() == recs(first + 1, D));
}

#if BOUNDED_STREAMS
// A bounded output FIFO of 2 that the host drains only now and then: the iBuffer retries the same
// record every cycle until there is room. Each record comes out exactly once, in order.
template <int D>
void bounded_output_full() {
    begin("bounded_output_full");
    Rig<D, 2> r;
    r.command(Command::reset(Mode::Linear));
    const unsigned first = r.next;
    r.command(Command::sample());
    r.feed(D);
    r.command(Command::stop());
    r.command(Command::read());
    std::vector<TraceRecord> got;
    for (unsigned c = 0; c < 10u * D + 10 && r.buf.state() == State::Read; ++c) {
        const unsigned before = r.buf.pending();
        const bool was_full = r.out.full();
        r.cycle();
        if (was_full) CHECK(r.buf.pending() == before); // full: nothing taken, retried next cycle
        else CHECK(r.buf.pending() + 1 == before || r.buf.state() == State::Stop);
        CHECK(r.out.size() <= 2);
        if (c % 5 == 4) { // drain one record every fifth cycle
            TraceRecord t;
            if (r.out.read_nb(t)) got.push_back(t);
        }
    }
    CHECK(r.buf.state() == State::Stop);
    std::vector<TraceRecord> rest = r.drain();
    got.insert(got.end(), rest.begin(), rest.end());
    CHECK(got == recs(first, D));
}
#endif

// FINISH ends step(): false from then on, nothing consumed in its cycle.
template <int D>
void finish_ends_stepping() {
    begin("finish_ends_stepping");
    Rig<D> r;
    r.command(Command::sample());
    CHECK(r.command(Command::finish(), true) == false);
    CHECK(r.buf.finished() && r.in.size() == 1);
    CHECK(r.cycle() == false);
    CHECK(r.in.size() == 1 && r.buf.count() == 0);
    r.drain();
    TraceRecord t;
    r.in.read_nb(t);
}

// The free-running process: commands queued up front are applied one per cycle, and it returns
// on FINISH. Cycle by cycle: RESET (record 0 discarded), SAMPLE (record 1 stored), ..., READ
// (its record discarded), Depth cycles writing out, then FINISH; the rest of `in` stays.
template <int D>
void free_running() {
    begin("free_running");
    hls::stream<Command> cmd;
    hls::stream<TraceRecord> in;
    hls::stream<TraceRecord> out;
    cmd.write(Command::reset(Mode::Cyclic));
    cmd.write(Command::sample());
    for (int i = 0; i < D + 1; ++i) cmd.write(Command::sample()); // D + 2 recorded cycles
    cmd.write(Command::read());
    cmd.write(Command::finish()); // waits until the read-out is done
    const unsigned fed = 2 * D + 10;
    for (unsigned i = 0; i < fed; ++i) in.write(rec(i));
    hlsinstr::hw::ibuffer<D>(cmd, in, out);
    std::vector<TraceRecord> got;
    TraceRecord t;
    while (out.read_nb(t)) got.push_back(t);
    // Records 1..D+2 were stored; cyclic keeps the last D: 3..D+2.
    CHECK(got == recs(3, D));
    // Consumed: RESET, D+2 SAMPLE cycles, READ, D read-out cycles; FINISH takes none.
    CHECK(in.size() == fed - (1 + (D + 2) + 1 + D));
    CHECK(cmd.size() == 0);
    while (in.read_nb(t)) {
    }
}

template <int D>
void all_for_depth() {
    transitions<D>();
    sample_to_read_and_resume<D>();
    commands_while_reading<D>();
    reset_mid_sample<D>();
    linear_stops_when_full<D>(0);
    linear_stops_when_full<D>(1);
    linear_stops_when_full<D>(2 * D + 3);
    cyclic_wraps<D>(0);
    cyclic_wraps<D>(1);
    cyclic_wraps<D>(D > 1 ? D - 1 : 1);
    cyclic_wraps<D>(D);
    cyclic_wraps<D>(D + 1);
    cyclic_wraps<D>(D + D / 2 + 1);
    cyclic_wraps<D>(3 * D + 2);
    idle_and_bursts<D>();
    output_backpressure<D>();
#if BOUNDED_STREAMS
    bounded_output_full<D>();
#endif
    finish_ends_stepping<D>();
    free_running<D>();
}

} // namespace

int main() {
    all_for_depth<1>();
    all_for_depth<2>();
    all_for_depth<3>();
    all_for_depth<8>();
    all_for_depth<13>();
    all_for_depth<256>();
    std::printf("bounded output stream: %s\n",
                BOUNDED_STREAMS ? "tested (hlsinstr stream model)" : "not tested (vendor stream model is unbounded)");
    std::printf("%s: %d failed checks\n", errors ? "FAILED" : "ok", errors);
    return errors;
}
