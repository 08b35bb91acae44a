// Designs that deadlock, one per scenario (`stream_deadlock <scenario>`). Each must end with exit
// code 86, the watchdog's lines on stderr and `D` records in the event log; the harness checks
// them and kills the program if it hangs.
#include "hls_stream.h"

#include "hlsinstr/probe.h"

#include <cstdio>
#include <string>
#include <thread>

// Reads n values from `in` inside probe 3 (module) and 4 (loop).
static int consumer(hls::stream<int>& in, int n) { HLSINSTR_FUNC_BEGIN(3, P, n);
    int sum = 0;
    HLSINSTR_LOOP_BEGIN(4, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(4);
        sum += in.read();
    } HLSINSTR_LOOP_END(4, P, 0);
    return HLSINSTR_RETURN(3, P, sum);
}

// Two processes, each waiting for the other first: probe 10 reads b_to_a, probe 11 reads a_to_b.
static void proc_a(hls::stream<int>& b_to_a, hls::stream<int>& a_to_b) { HLSINSTR_FUNC_BEGIN(10, P, 0);
    a_to_b.write(b_to_a.read() + 1);
HLSINSTR_FUNC_END(10, P, 0); }

static void proc_b(hls::stream<int>& a_to_b, hls::stream<int>& b_to_a) { HLSINSTR_FUNC_BEGIN(11, P, 0);
    b_to_a.write(a_to_b.read() + 1);
HLSINSTR_FUNC_END(11, P, 0); }

// Writes n values into a stream nobody reads, inside probe 20.
static void producer(hls::stream<int>& out, int n) { HLSINSTR_FUNC_BEGIN(20, P, n);
    for (int i = 0; i < n; i++) out.write(i);
HLSINSTR_FUNC_END(20, P, 0); }

int main(int argc, char** argv) {
    const std::string scenario = argc > 1 ? argv[1] : "";
    // Buffered on purpose: the watchdog flushes stdio before it exits.
    std::printf("started %s", scenario.c_str());
    if (scenario == "single") {
        // The consumer wants three values, the producer wrote two: a sequential run can never go on.
        hls::stream<int> mid("mid");
        mid.write(1);
        mid.write(2);
        std::printf(" %d", consumer(mid, 3));
    } else if (scenario == "bare") {
        // The testbench reads a result that was never written, outside every probe.
        hls::stream<int> result;
        std::printf(" %d", result.read());
    } else if (scenario == "cross" || scenario == "cross_main") {
        hls::stream<int> a_to_b("a_to_b"), b_to_a("b_to_a"), out("out");
        std::thread a(proc_a, std::ref(b_to_a), std::ref(a_to_b));
        std::thread b(proc_b, std::ref(a_to_b), std::ref(b_to_a));
        if (scenario == "cross_main") std::printf(" %d", out.read()); // every thread blocked
        a.join(); // cross: the main thread joins, so only the progress timeout can tell
        b.join();
    } else if (scenario == "full") {
        hls::stream<int, 2> narrow("narrow");
        std::thread p(producer, std::ref(narrow), 3);
        p.join();
    } else {
        std::printf("unknown scenario\n");
        return 2;
    }
    std::printf(" no deadlock?\n");
    return 1;
}
