// Cycle-stepping harness of the generated monitor (issue 4, test 7b).
//
// Executes the monitor's loop body, hlsinstr_mon::step, once per simulated clock cycle while a
// scripted producer posts events into the probe FIFOs at known cycles, then compares every
// result with numbers worked out by hand from the script. Built against the monitor generated
// for tests/hw/monitor_kernel (slots 0..3 = probes 0..3), with and without `timestamps`
// (hlsinstr_mon::EVENT_TIME). Writes scenario A's dump to the file given as argv[1] and prints
// its expected rows as `expect` lines for the decode round trip. Returns the number of failures.
//
// The monitor serves one event per cycle through a shared accumulator (hlsinstr/hw/monitor.h):
// scenarios E and F post on several probes in the same cycles and check what that costs (the
// times without timestamps, STATUS_LATE, the deepest any FIFO got).
#include "hlsinstr_monitor.h"

#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* scenario, const char* what, unsigned long long got, unsigned long long want) {
    if (!ok) {
        ++failures;
        std::printf("FAIL %s: %s = %llu, want %llu\n", scenario, what, got, want);
    }
}

struct Post {
    unsigned long long cycle;
    int slot;
    bool end;
    unsigned trips;
};

struct Expect {
    unsigned long long calls, busy, max, first, last, trips, unmatched;
};

const unsigned long long NONE = ~0ull;

// The most events any probe FIFO held at once in the last run (after the cycle's posts, before
// the monitor's step): what --fifo-depth must cover for the kernel never to wait.
unsigned long long deepest = 0;

// Runs the monitor from harness cycle `start` (the cycles before it are its pipeline filling:
// events queue in the FIFOs), posts `script` and the run-done token at `done_at`.
const hlsinstr_mon::State& run(const std::vector<Post>& script, unsigned long long start, unsigned long long done_at,
                        hlsinstr::hw::dump_word* dbg, const char* name) {
    hlsinstr::hw::ProbeStream p[4];
    hlsinstr::hw::DoneStream done;
    deepest = 0;
    static hlsinstr_mon::State st; // static: a RAM of states is large for a stack

    hlsinstr_mon::reset(st);
    unsigned long long last_post = done_at;
    for (const Post& e : script) last_post = e.cycle > last_post ? e.cycle : last_post;
    bool running = true;
    for (unsigned long long c = 0; running; ++c) {
        for (const Post& e : script) {
            if (e.cycle != c) continue;
            hlsinstr::hw::Event ev;
            ev.end = e.end;
            ev.trips = e.trips;
            ev.time = c; // what the free-running counter reads at the probe
            p[e.slot].write(ev);
        }
        if (c == done_at) done.write(1);
        for (int i = 0; i < 4; ++i) deepest = p[i].size() > deepest ? p[i].size() : deepest;
        if (c >= start) running = hlsinstr_mon::step(st, p[0], p[1], p[2], p[3], done);
        if (c > last_post + 1000000) {
            ++failures;
            std::printf("FAIL %s: the monitor did not terminate\n", name);
            break;
        }
    }
    for (int i = 0; i < 4; ++i) check(p[i].empty(), name, "events left in a FIFO", p[i].size(), 0);
    hlsinstr_mon::write_dump(st, dbg);
    return st;
}

void expect_slots(const hlsinstr::hw::dump_word* dbg, const Expect* want, const char* name) {
    for (int s = 0; s < 4; ++s) {
        const hlsinstr::hw::dump_word* w = dbg + hlsinstr::hw::HEADER_WORDS + hlsinstr::hw::SLOT_WORDS * s;
        const Expect& e = want[s];
        char what[64];
        std::snprintf(what, sizeof what, "slot %d probe", s);
        check(w[0] == unsigned(s), name, what, w[0], s);
        std::snprintf(what, sizeof what, "slot %d calls", s);
        check(w[1] == e.calls, name, what, w[1], e.calls);
        std::snprintf(what, sizeof what, "slot %d busy", s);
        check(w[2] == e.busy, name, what, w[2], e.busy);
        std::snprintf(what, sizeof what, "slot %d first_start", s);
        check(w[3] == e.first, name, what, w[3], e.first);
        std::snprintf(what, sizeof what, "slot %d last_end", s);
        check(w[4] == e.last, name, what, w[4], e.last);
        std::snprintf(what, sizeof what, "slot %d trips", s);
        check(w[5] == e.trips, name, what, w[5], e.trips);
        std::snprintf(what, sizeof what, "slot %d unmatched", s);
        check(w[6] == e.unmatched, name, what, w[6], e.unmatched);
        // Without --monitor-longest the longest invocation is not kept: its word stays 0.
        const unsigned long long max = hlsinstr_mon::LONGEST ? e.max : 0;
        std::snprintf(what, sizeof what, "slot %d max_busy", s);
        check(w[7] == max, name, what, w[7], max);
    }
}

void expect_header(const hlsinstr::hw::dump_word* dbg, unsigned long long cycles, unsigned long long status,
                   const char* name) {
    check(dbg[0] == hlsinstr::hw::DUMP_MAGIC, name, "magic", dbg[0], hlsinstr::hw::DUMP_MAGIC);
    check(dbg[1] == 1, name, "version", dbg[1], 1);
    check(dbg[2] == hlsinstr_mon::KEY, name, "key", dbg[2], hlsinstr_mon::KEY);
    check(dbg[3] == 4, name, "slots", dbg[3], 4);
    check(dbg[4] == cycles, name, "cycles", dbg[4], cycles);
    if (!hlsinstr_mon::LONGEST) status |= hlsinstr::hw::STATUS_NO_LONGEST;
    check(dbg[5] == status, name, "status", dbg[5], status);
}

} // namespace

int main(int argc, char** argv) {
    static_assert(hlsinstr_mon::SLOTS == 4, "built for tests/hw/monitor_kernel");
    hlsinstr::hw::dump_word dbg[hlsinstr_mon::DUMP_WORDS];

    // A: every probe begins in the same cycle; back-to-back begin/end; a long idle stretch.
    std::vector<Post> a = {
        {10, 0, false, 0}, {10, 1, false, 0}, {10, 2, false, 0}, {10, 3, false, 0},
        {11, 1, true, 7},  {12, 1, false, 0}, {13, 1, true, 5},  {50, 0, true, 0},
        {100000, 2, true, 0}, {100005, 3, true, 0},
    };
    run(a, 0, 100006, dbg, "A");
    // Done is read in cycle 100006; cycle 100007 reads nothing and ends: 100008 iterations.
    expect_header(dbg, 100008, hlsinstr::hw::STATUS_FINISHED, "A");
    const Expect ea[4] = {
        {1, 40, 40, 10, 50, 0, 0},
        {2, 2, 1, 10, 13, 12, 0},
        {1, 99990, 99990, 10, 100000, 0, 0},
        {1, 99995, 99995, 10, 100005, 0, 0},
    };
    expect_slots(dbg, ea, "A");
    if (argc > 1) {
        std::FILE* f = std::fopen(argv[1], "wb");
        for (int i = 0; f && i < hlsinstr_mon::DUMP_WORDS; ++i) {
            unsigned char b[8];
            for (int k = 0; k < 8; ++k) b[k] = static_cast<unsigned char>(dbg[i] >> (8 * k));
            std::fwrite(b, 1, 8, f);
        }
        if (!f || std::fclose(f) != 0) ++failures;
        for (int s = 0; s < 4; ++s) {
            std::printf("expect %d calls=%llu busy=%llu first=%llu last=%llu trips=%llu", s, ea[s].calls, ea[s].busy,
                        ea[s].first, ea[s].last, ea[s].trips);
            if (hlsinstr_mon::LONGEST) std::printf(" max=%llu", ea[s].max);
            std::printf("\n");
        }
    }

    // B: the monitor starts 4 cycles late, so events queue in the FIFOs (a burst of four on
    // slot 1). With timestamps the times are the probes' own; without, the monitor's cycle
    // (counted from its start) at which it reads each event, one per FIFO per cycle.
    std::vector<Post> b = {
        {0, 0, false, 0}, {0, 1, false, 0}, {1, 1, true, 3}, {2, 1, false, 0}, {3, 1, true, 3}, {20, 0, true, 0},
    };
    run(b, 4, 21, dbg, "B");
    // Done read at cycle 21 (monitor cycle 17); cycle 22 reads nothing: 19 iterations.
    expect_header(dbg, 19, hlsinstr::hw::STATUS_FINISHED, "B");
    const Expect eb_time[4] = {
        {1, 20, 20, 0, 20, 0, 0}, {2, 2, 1, 0, 3, 6, 0}, {0, 0, 0, NONE, 0, 0, 0}, {0, 0, 0, NONE, 0, 0, 0}};
    // Slot 0's begin is read in monitor cycle 0, its end (posted at 20) in 16.
    const Expect eb_cycle[4] = {
        {1, 16, 16, 0, 16, 0, 0}, {2, 2, 1, 0, 3, 6, 0}, {0, 0, 0, NONE, 0, 0, 0}, {0, 0, 0, NONE, 0, 0, 0}};
    expect_slots(dbg, hlsinstr_mon::EVENT_TIME ? eb_time : eb_cycle, "B");

    // C: an end without a begin, and a begin while open.
    std::vector<Post> c = {{5, 2, true, 0}, {6, 3, false, 0}, {7, 3, false, 0}, {8, 3, true, 0}};
    run(c, 0, 9, dbg, "C");
    expect_header(dbg, 11, hlsinstr::hw::STATUS_FINISHED | hlsinstr::hw::STATUS_UNMATCHED, "C");
    const Expect ec[4] = {
        {0, 0, 0, NONE, 0, 0, 0}, {0, 0, 0, NONE, 0, 0, 0}, {0, 0, 0, NONE, 5, 0, 1}, {2, 1, 1, 6, 8, 0, 1}};
    expect_slots(dbg, ec, "C");

    // D: nothing at all: done in cycle 0, nothing read in cycle 1.
    run(std::vector<Post>(), 0, 0, dbg, "D");
    expect_header(dbg, 2, hlsinstr::hw::STATUS_FINISHED, "D");

    // E: two probes post every cycle at once (begin, end, begin, end from cycle 30). Slot 0 wins
    // the arbiter while both have an event waiting behind the held one (cycles 31-33), so slot
    // 1's FIFO is read from cycle 34 on: without timestamps its events after the first are
    // stamped 34, 35, 36 instead of 31, 32, 33 (busy 5, STATUS_LATE); with them every time is
    // exact. Its FIFO held three events at most.
    std::vector<Post> e = {{30, 0, false, 0}, {30, 1, false, 0}, {31, 0, true, 1}, {31, 1, true, 1},
                           {32, 0, false, 0}, {32, 1, false, 0}, {33, 0, true, 1}, {33, 1, true, 1}};
    run(e, 0, 40, dbg, "E");
    expect_header(dbg, 42, hlsinstr::hw::STATUS_FINISHED | (hlsinstr_mon::EVENT_TIME ? 0 : hlsinstr::hw::STATUS_LATE),
                  "E");
    const Expect ee[4] = {{2, 2, 1, 30, 33, 2, 0},
                          hlsinstr_mon::EVENT_TIME ? Expect{2, 2, 1, 30, 33, 2, 0} : Expect{2, 5, 4, 30, 36, 2, 0},
                          {0, 0, 0, NONE, 0, 0, 0},
                          {0, 0, 0, NONE, 0, 0, 0}};
    expect_slots(dbg, ee, "E");
    check(deepest == 3, "E", "deepest FIFO", deepest, 3);

    // F: the worst burst: all four probes post every cycle for 8 cycles (32 events; the
    // accumulator takes 8 of them meanwhile). Counts are exact in both modes and times with
    // timestamps; the deepest FIFO is what the default depth (16) must hold.
    std::vector<Post> f;
    for (unsigned long long c = 50; c < 58; ++c)
        for (int s = 0; s < 4; ++s) f.push_back({c, s, (c - 50) % 2 == 1, (c - 50) % 2 == 1 ? 1u : 0u});
    run(f, 0, 60, dbg, "F");
    for (int s = 0; s < 4; ++s) {
        const hlsinstr::hw::dump_word* w = dbg + hlsinstr::hw::HEADER_WORDS + hlsinstr::hw::SLOT_WORDS * s;
        check(w[1] == 4, "F", "calls", w[1], 4);
        check(w[5] == 4, "F", "trips", w[5], 4);
        check(w[6] == 0, "F", "unmatched", w[6], 0);
        if (hlsinstr_mon::EVENT_TIME) {
            check(w[2] == 4, "F", "busy", w[2], 4);
            check(w[3] == 50, "F", "first_start", w[3], 50);
            check(w[4] == 57, "F", "last_end", w[4], 57);
        }
    }
    check(dbg[5] == (hlsinstr::hw::STATUS_FINISHED | (hlsinstr_mon::EVENT_TIME ? 0 : hlsinstr::hw::STATUS_LATE) |
                     (hlsinstr_mon::LONGEST ? 0 : hlsinstr::hw::STATUS_NO_LONGEST)),
          "F", "status", dbg[5], 0);
    std::printf("F: deepest FIFO %llu\n", deepest);

    std::printf("monitor harness (%s%s): %d failures\n", hlsinstr_mon::EVENT_TIME ? "timestamps" : "monitor cycles",
                hlsinstr_mon::LONGEST ? ", longest" : "", failures);
    return failures;
}
