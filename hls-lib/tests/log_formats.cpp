// The same records whatever the log format: rewriter/tests/hls_lib.rs runs this with the text
// log, the binary log to a file and the binary log through a pipe, and compares what it reads.
// Threads run one after another, so every run records the same thing; the first records some
// 80 000 events (several thread buffers, more than a pipe holds at once), probe 300 and trip
// counts up to 299 take multi-byte varints, and main flushes halfway (a pipe then receives only
// what is new at exit).
#include "hlsinstr/probe.h"

#include <thread>

static long leaf(int n) { HLSINSTR_FUNC_BEGIN(300, TS, n);
    long s = 0;
    HLSINSTR_LOOP_BEGIN(1, S, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
        s += i;
    } HLSINSTR_LOOP_END(1, S, 0);
    return HLSINSTR_RETURN(300, TS, s);
}

static long many(int calls) { HLSINSTR_FUNC_BEGIN(2, P, calls);
    long s = 0;
    for (int c = 0; c < calls; c++) s += leaf(c % 300);
    return HLSINSTR_RETURN(2, P, s);
}

static void run(int calls) { (void)many(calls); }

int main() {
    std::thread a(run, 20000);
    a.join();
    std::thread b(run, 10);
    b.join();
    run(5);
    hlsinstr::sim::flush_events();
    run(7);
    return 0;
}
