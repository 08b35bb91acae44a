// Leaf loops (probe.h, HLSINSTR_LEAF_BEGIN/END): their runs are stored inline and written as one
// leaf-runs record before the thread's next record. rewriter/tests/hls_lib.rs builds this file
// twice, with the leaf probes and (-DAS_LOOPS) with ordinary loop probes at the same places,
// runs both, and compares the records they read back: they must be the same, order for order.
// The cases: trips that change from run to run, zero trips, a leaf left by `break`, more runs
// than the store holds, a leaf in a function without a module probe, a leaf that calls a probed
// function (made an ordinary loop when the call records; also where the frame on top of the
// probe stack is its caller's), a flush in a run, a leaf in a function
// that returns from inside it, multi-byte probe ids and trip counts, and a second thread.
#include "hlsinstr/probe.h"

#include <atomic>
#include <thread>

#ifdef AS_LOOPS
#define LEAF_BEGIN(id) HLSINSTR_LOOP_BEGIN(id, P, 0)
#define LEAF_END(id) HLSINSTR_LOOP_END(id, P, 0)
#else
#define LEAF_BEGIN(id) HLSINSTR_LEAF_BEGIN(id, P, 0)
#define LEAF_END(id) HLSINSTR_LEAF_END(id, P, 0)
#endif

static int data[64];

static int probed(int x) { HLSINSTR_FUNC_BEGIN(1, P, x); return HLSINSTR_RETURN(1, P, x + 1); }

// A selection sort's inner loop: trips 24 - i, and a leaf of 0-2 trips beside it.
static long sort(int n) { HLSINSTR_FUNC_BEGIN(2, P, n);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(3, P, 0); for (int i = 0; i < 13; i++) { HLSINSTR_LOOP_ITER(3);
        LEAF_BEGIN(4); for (int j = i + 1; j < n; j++) { HLSINSTR_LOOP_ITER(4);
            if (data[j] < data[i]) { int t = data[i]; data[i] = data[j]; data[j] = t; }
        } LEAF_END(4);
        LEAF_BEGIN(5); for (int k = 0; k < i % 3; k++) { HLSINSTR_LOOP_ITER(5); s += data[k]; } LEAF_END(5);
    } HLSINSTR_LOOP_END(3, P, 0);
    return HLSINSTR_RETURN(2, P, s);
}

// 200 runs in one parent (more than the store holds), some cut short by break; probe 300 and
// trip counts up to 200: multi-byte varints.
static long many() { HLSINSTR_FUNC_BEGIN(6, P, 0);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(7, P, 0); for (int r = 0; r < 200; r++) { HLSINSTR_LOOP_ITER(7);
        LEAF_BEGIN(300); for (int k = 0; k < r; k++) { HLSINSTR_LOOP_ITER(300);
            if (k == 150) break;
            s += k;
        } LEAF_END(300);
    } HLSINSTR_LOOP_END(7, P, 0);
    return HLSINSTR_RETURN(6, P, s);
}

// Loop probes without a module probe (hand-written: HLSINSTR_LOOP_FRAME).
static long frameless(int n) {
    HLSINSTR_LOOP_FRAME();
    long s = 0;
    LEAF_BEGIN(8); for (int k = 0; k < n; k++) { HLSINSTR_LOOP_ITER(8); s += k; } LEAF_END(8);
    return s;
}

// The leaf calls a probed function on some runs: from that record on it is an ordinary loop.
static long calls() { HLSINSTR_FUNC_BEGIN(9, P, 0);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(10, P, 0); for (int r = 0; r < 6; r++) { HLSINSTR_LOOP_ITER(10);
        LEAF_BEGIN(11); for (int k = 0; k < 4; k++) { HLSINSTR_LOOP_ITER(11);
            if (r % 2 && k >= 2) s += probed(k);
            s += k;
        } LEAF_END(11);
    } HLSINSTR_LOOP_END(10, P, 0);
    return HLSINSTR_RETURN(9, P, s);
}

// The same without a module probe, called inside a loop: the frame on top is the caller's, and
// it counts elsewhere.
static long frameless_calls(int n) {
    HLSINSTR_LOOP_FRAME();
    long s = 0;
    LEAF_BEGIN(15); for (int k = 0; k < n; k++) { HLSINSTR_LOOP_ITER(15); s += probed(k); } LEAF_END(15);
    return s;
}

static long calls_around() { HLSINSTR_FUNC_BEGIN(16, P, 0);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(17, P, 0); for (int r = 0; r < 5; r++) { HLSINSTR_LOOP_ITER(17);
        s += frameless_calls(r % 3);
    } HLSINSTR_LOOP_END(17, P, 0);
    return HLSINSTR_RETURN(16, P, s);
}

// A return from inside a leaf: the module's end closes it with the trips so far.
static int find(int key) { HLSINSTR_FUNC_BEGIN(12, P, key);
    LEAF_BEGIN(13); for (int k = 0; k < 64; k++) { HLSINSTR_LOOP_ITER(13);
        if (data[k] == key) return HLSINSTR_RETURN(12, P, k);
    } LEAF_END(13);
    return HLSINSTR_RETURN(12, P, -1);
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
        s += sort(25);
    }
    for (int c = 0; c < 20; c++) s += many();
    for (int c = 0; c < 300; c++) s += frameless(c % 4);
    s += calls();
    s += calls_around();
    for (int c = 0; c < 50; c++) s += find(c);
    HLSINSTR_LOOP_FRAME();
    LEAF_BEGIN(14); for (int k = 0; k < 5; k++) { HLSINSTR_LOOP_ITER(14); s += k; } LEAF_END(14);
    hlsinstr::sim::flush_events(); // stored runs are written by the flush
    for (int c = 0; c < 100; c++) s += frameless(c % 2);
    // A second thread records: orders are shared from then on and runs are no longer stored.
    std::thread t(other);
    while (!other_started) {
    }
    for (int c = 0; c < 2000; c++) s += frameless(c % 5);
    t.join();
    return s < 0 ? 1 : 0;
}
