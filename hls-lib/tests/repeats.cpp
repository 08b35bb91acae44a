// Repeated leaves (event_log.h, ThreadLog::end_leaf): rewriter/tests/hls_lib.rs runs this with
// the text log (never folded), the binary log (folded) and the binary log with
// HLSINSTR_EVENTS_REPEATS=0, and compares what each thread recorded. Each case is a kind of run
// the folding must keep exact: runs of one innermost loop with the same trips, runs broken by
// other trip counts, zero trips, leaf calls, multi-byte probe ids and trip counts (the slow
// path), leaves whose begin is not the record before their end, timestamped and numbered
// leaves (never folded), more than a buffer of records, a flush in the middle of a run, and a
// second thread recording while the first repeats (shared orders).
#include "hlsinstr/probe.h"

#include <atomic>
#include <thread>

static long inner(int n) {
    HLSINSTR_LOOP_FRAME(); // loop probes without a module probe
    long s = 0;
    HLSINSTR_LOOP_BEGIN(1, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
        s += i;
    } HLSINSTR_LOOP_END(1, P, 0);
    return s;
}

// Probe 300 and 200 trips: multi-byte varints, the record's slow path.
static long wide(int n) {
    HLSINSTR_LOOP_FRAME(); // loop probes without a module probe
    long s = 0;
    HLSINSTR_LOOP_BEGIN(300, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(300);
        s += i;
    } HLSINSTR_LOOP_END(300, P, 0);
    return s;
}

static int call(int x) { HLSINSTR_FUNC_BEGIN(2, P, x); return HLSINSTR_RETURN(2, P, x + 1); }
static int stamped(int x) { HLSINSTR_FUNC_BEGIN(3, T, x); return HLSINSTR_RETURN(3, T, x + 1); }
static int numbered(int x) { HLSINSTR_FUNC_BEGIN(4, S, x); return HLSINSTR_RETURN(4, S, x + 1); }

// A module holding a leaf: its own end follows a record other than its begin.
static long holder(int n) { HLSINSTR_FUNC_BEGIN(5, P, n); return HLSINSTR_RETURN(5, P, inner(n)); }

static long cases() { HLSINSTR_FUNC_BEGIN(6, P, 0);
    long s = 0;
    for (int c = 0; c < 1000; c++) s += inner(3);            // one run of 1000
    for (int c = 0; c < 60000; c++) s += inner((c / 7) % 4);  // runs of 7 (some of 0 trips), > 1 buffer
    for (int c = 0; c < 500; c++) s += wide(200);
    for (int c = 0; c < 500; c++) s += wide(130 + c % 2);     // no run
    for (int c = 0; c < 800; c++) s += call(c);
    for (int c = 0; c < 50; c++) s += stamped(c) + numbered(c);
    for (int c = 0; c < 300; c++) s += holder(2);
    for (int c = 0; c < 40; c++) s += inner(5) + call(c);     // alternating: no two alike in a row
    return HLSINSTR_RETURN(6, P, s);
}

static std::atomic<int> other_started(0);

static void other() {
    other_started = 1;
    long s = 0;
    for (int c = 0; c < 20000; c++) s += call(c) + inner(c % 2);
    (void)s;
}

int main() {
    long s = cases();
    for (int c = 0; c < 100; c++) s += inner(4);
    hlsinstr::sim::flush_events(); // the run of inner(4) goes on after the flush
    for (int c = 0; c < 100; c++) s += inner(4);
    // A second thread records while this one repeats: both draw shared orders.
    std::thread t(other);
    while (!other_started) {
    }
    for (int c = 0; c < 20000; c++) s += inner(1);
    t.join();
    return s < 0 ? 1 : 0;
}
