// Leaf parents (probe.h, HLSINSTR_LEAF_PARENT_BEGIN/END): loops whose only loops are leaves store
// their begin and end beside their leaves' runs, written as one runs record before the thread's
// next record. rewriter/tests/hls_lib.rs builds this file twice, with the leaf and leaf-parent
// probes and (-DAS_LOOPS) with ordinary loop probes at the same places, runs both, and compares
// the records they read back: they must be the same, order for order.
// The cases: a parent whose trips and leaves' trips change from run to run, zero trips (of the
// parent and of a leaf), a parent left by `break`, a parent with two different leaves, more
// entries than the store holds in one parent run and across runs, a parent in a function without
// a module probe, a parent whose leaf calls a probed function (the parent and the leaf made
// ordinary loops when the call records), a parent calling a probed function itself between its
// leaves, an exception thrown out of a parent (its function's end closes it), multi-byte probe
// ids and trip counts, a flush while a parent runs, and a second thread.
#include "hlsinstr/probe.h"

#include <atomic>
#include <thread>

#ifdef AS_LOOPS
#define LEAF_BEGIN(id) HLSINSTR_LOOP_BEGIN(id, P, 0)
#define LEAF_END(id) HLSINSTR_LOOP_END(id, P, 0)
#define PARENT_BEGIN(id) HLSINSTR_LOOP_BEGIN(id, P, 0)
#define PARENT_END(id) HLSINSTR_LOOP_END(id, P, 0)
#else
#define LEAF_BEGIN(id) HLSINSTR_LEAF_BEGIN(id, P, 0)
#define LEAF_END(id) HLSINSTR_LEAF_END(id, P, 0)
#define PARENT_BEGIN(id) HLSINSTR_LEAF_PARENT_BEGIN(id, P, 0)
#define PARENT_END(id) HLSINSTR_LEAF_PARENT_END(id, P, 0)
#endif

static int data[64];

static int probed(int x) { HLSINSTR_FUNC_BEGIN(1, P, x); return HLSINSTR_RETURN(1, P, x + 1); }

// A selection sort: the parent's leaves run 24 - i trips and 0-2 trips; the parent 0-13 trips.
static long sort(int n, int rounds) { HLSINSTR_FUNC_BEGIN(2, P, n);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(3, P, 0); for (int c = 0; c < 2; c++) { HLSINSTR_LOOP_ITER(3);
        PARENT_BEGIN(4); for (int i = 0; i < rounds; i++) { HLSINSTR_LOOP_ITER(4);
            LEAF_BEGIN(5); for (int j = i + 1; j < n; j++) { HLSINSTR_LOOP_ITER(5);
                if (data[j] < data[i]) { int t = data[i]; data[i] = data[j]; data[j] = t; }
            } LEAF_END(5);
            LEAF_BEGIN(6); for (int k = 0; k < i % 3; k++) { HLSINSTR_LOOP_ITER(6); s += data[k]; } LEAF_END(6);
        } PARENT_END(4);
    } HLSINSTR_LOOP_END(3, P, 0);
    return HLSINSTR_RETURN(2, P, s);
}

// 200 runs of a leaf in one parent run (more entries than the store holds), the parent left by
// break after some; probe 300 and trip counts up to 200: multi-byte varints.
static long many(int stop) { HLSINSTR_FUNC_BEGIN(7, P, 0);
    long s = 0;
    PARENT_BEGIN(300); for (int r = 0; r < 200; r++) { HLSINSTR_LOOP_ITER(300);
        if (r == stop) break;
        LEAF_BEGIN(301); for (int k = 0; k < r; k++) { HLSINSTR_LOOP_ITER(301);
            if (k == 150) break;
            s += k;
        } LEAF_END(301);
    } PARENT_END(300);
    return HLSINSTR_RETURN(7, P, s);
}

// Without a module probe (hand-written: HLSINSTR_LOOP_FRAME), called in a loop.
static long frameless(int n) {
    HLSINSTR_LOOP_FRAME();
    long s = 0;
    PARENT_BEGIN(8); for (int r = 0; r < n; r++) { HLSINSTR_LOOP_ITER(8);
        LEAF_BEGIN(9); for (int k = 0; k < r; k++) { HLSINSTR_LOOP_ITER(9); s += k; } LEAF_END(9);
    } PARENT_END(8);
    return s;
}

// A leaf calls a probed function on some runs (a call the rewriter did not see): the parent and
// the leaf are ordinary loops from that record on.
static long calls() { HLSINSTR_FUNC_BEGIN(10, P, 0);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(11, P, 0); for (int c = 0; c < 4; c++) { HLSINSTR_LOOP_ITER(11);
        PARENT_BEGIN(12); for (int r = 0; r < 6; r++) { HLSINSTR_LOOP_ITER(12);
            LEAF_BEGIN(13); for (int k = 0; k < 4; k++) { HLSINSTR_LOOP_ITER(13);
                if (c % 2 && r == 3 && k >= 2) s += probed(k);
                s += k;
            } LEAF_END(13);
            if (c == 2 && r == 4) s += probed(r); // the parent itself, between its leaves
            LEAF_BEGIN(14); for (int k = 0; k < r; k++) { HLSINSTR_LOOP_ITER(14); s += k; } LEAF_END(14);
        } PARENT_END(12);
    } HLSINSTR_LOOP_END(11, P, 0);
    return HLSINSTR_RETURN(10, P, s);
}

static int thrower(int x) { HLSINSTR_FUNC_BEGIN(15, P, x);
    if (x == 3) throw x;
    return HLSINSTR_RETURN(15, P, x);
}

// An exception thrown out of a parent and its leaf (from a probed call): its function's end
// closes both with their trips so far.
static long throws() { HLSINSTR_FUNC_BEGIN(16, P, 0);
    long s = 0;
    PARENT_BEGIN(17); for (int r = 0; r < 5; r++) { HLSINSTR_LOOP_ITER(17);
        LEAF_BEGIN(18); for (int k = 0; k < 5; k++) { HLSINSTR_LOOP_ITER(18); s += r == 2 ? thrower(k) : k; } LEAF_END(18);
    } PARENT_END(17);
    return HLSINSTR_RETURN(16, P, s);
}

static std::atomic<int> other_started(0);

static void other() {
    other_started = 1;
    long s = 0;
    for (int c = 0; c < 2000; c++) s += frameless(c % 3) + probed(c);
    (void)s;
}

int main() {
    long s = 0;
    for (int c = 0; c < 2000; c++) {
        for (int i = 0; i < 64; i++) data[i] = (i * 37 + c * 11) % 53;
        s += sort(25, c % 14);
    }
    for (int c = 0; c < 20; c++) s += many(c * 11);
    for (int c = 0; c < 300; c++) s += frameless(c % 6);
    s += calls();
    try {
        s += throws();
    } catch (int) {
        s += 1;
    }
    HLSINSTR_LOOP_FRAME();
    PARENT_BEGIN(19); for (int r = 0; r < 5; r++) { HLSINSTR_LOOP_ITER(19);
        LEAF_BEGIN(20); for (int k = 0; k < 5; k++) { HLSINSTR_LOOP_ITER(20); s += k; } LEAF_END(20);
        if (r == 2) hlsinstr::sim::flush_events(); // the parent's begin and runs so far are written
    } PARENT_END(19);
    for (int c = 0; c < 100; c++) s += frameless(c % 4);
    // A second thread records: orders are shared from then on and nothing is stored any more; a
    // parent running when it starts is made an ordinary loop.
    std::thread t(other);
    PARENT_BEGIN(21); for (int r = 0; r < 50; r++) { HLSINSTR_LOOP_ITER(21);
        while (r == 1 && !other_started) {
        }
        LEAF_BEGIN(22); for (int k = 0; k < r % 4; k++) { HLSINSTR_LOOP_ITER(22); s += k; } LEAF_END(22);
    } PARENT_END(21);
    for (int c = 0; c < 2000; c++) s += frameless(c % 5);
    t.join();
    return s < 0 ? 1 : 0;
}
