// Correct designs never trip the stream watchdog: a sequential dataflow run, producer and
// consumer threads (bounded and unbounded), slow processes that wait less than the watchdog
// timeout, a producer that ends before its consumer starts, and a consumer that touches its
// streams only after the main thread already waits on it. `stream_threads <scenario>` prints
// "ok"; the harness sets HLSINSTR_WATCHDOG_MS and checks that nothing was reported.
#include "hls_stream.h"

#include "check.h"

#include <chrono>
#include <cstring>
#include <thread>

static void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

static void produce(hls::stream<int>& out, int n, int sleep_ms) { HLSINSTR_FUNC_BEGIN(0, P, n);
    HLSINSTR_LOOP_BEGIN(1, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(1);
        if (sleep_ms) pause_ms(sleep_ms);
        out.write(i);
    } HLSINSTR_LOOP_END(1, P, 0);
HLSINSTR_FUNC_END(0, P, 0); }

static void consume(hls::stream<int>& in, int n, int sleep_ms, long long* sum) { HLSINSTR_FUNC_BEGIN(2, P, n);
    long long s = 0;
    HLSINSTR_LOOP_BEGIN(3, P, 0); for (int i = 0; i < n; i++) { HLSINSTR_LOOP_ITER(3);
        if (sleep_ms) pause_ms(sleep_ms);
        s += in.read();
    } HLSINSTR_LOOP_END(3, P, 0);
    *sum = s;
HLSINSTR_FUNC_END(2, P, 0); }

static long long triangle(int n) { return static_cast<long long>(n) * (n - 1) / 2; }

static void expect_sum(const char* what, long long got, int n) {
    expect_eq(what, std::to_string(got), std::to_string(triangle(n)));
}

// Producer and consumer as threads over `s`, with optional sleeps in either; main joins.
static void pair(hls::stream<int>& s, int n, int producer_sleep, int consumer_sleep, const char* what) {
    long long sum = 0;
    std::thread p(produce, std::ref(s), n, producer_sleep);
    std::thread c(consume, std::ref(s), n, consumer_sleep, &sum);
    p.join();
    c.join();
    expect_sum(what, sum, n);
}

int main(int argc, char** argv) {
    const std::string scenario = argc > 1 ? argv[1] : "";
    long long sum = 0;
    if (scenario == "sequential") {
        // What Vitis C simulation does with a dataflow region: one process after the other.
        hls::stream<int> wide("wide");
        hls::stream<int, 2> narrow("narrow");
        produce(wide, 1000, 0);
        consume(wide, 1000, 0, &sum);
        expect_sum("sequential unbounded", sum, 1000);
        produce(narrow, 1000, 0);
        consume(narrow, 1000, 0, &sum);
        expect_sum("sequential past the depth", sum, 1000);
    } else if (scenario == "pair") {
        hls::stream<int> wide("wide");
        pair(wide, 100000, 0, 0, "unbounded pair");
        hls::stream<int, 4> narrow("narrow");
        pair(narrow, 100000, 0, 0, "bounded pair");
        hls::stream<int, 1> single("single");
        pair(single, 20000, 0, 0, "depth 1 pair");
    } else if (scenario == "slow") {
        // Every wait is shorter than the watchdog timeout the harness sets.
        hls::stream<int> wide("wide");
        pair(wide, 6, 60, 0, "slow producer");
        hls::stream<int, 1> narrow("narrow");
        pair(narrow, 6, 0, 60, "slow consumer");
    } else if (scenario == "finished_first") {
        hls::stream<int> s("s");
        std::thread p(produce, std::ref(s), 500, 0);
        p.join();
        std::thread c(consume, std::ref(s), 400, 0, &sum);
        c.join();
        expect_sum("consumer after producer", sum, 400);
        long long rest = 0;
        while (!s.empty()) rest += s.read();
        expect_eq("main reads the rest", std::to_string(rest), std::to_string(triangle(500) - triangle(400)));
    } else if (scenario == "late_start") {
        // hls::task style: the main thread waits on the result before the process's thread has
        // touched any stream (it sleeps first).
        hls::stream<int> in("in"), out("out");
        std::thread task([&in, &out]() {
            pause_ms(150);
            for (int i = 0; i < 3; ++i) out.write(in.read() * 2);
        });
        for (int i = 1; i <= 3; ++i) in.write(i);
        const int r = out.read() + out.read() + out.read();
        task.join();
        expect_eq("task results", std::to_string(r), "12");
    } else {
        std::printf("unknown scenario '%s'\n", scenario.c_str());
        return 2;
    }
    if (failures == 0) std::printf("ok %s\n", scenario.c_str());
    return failures;
}
