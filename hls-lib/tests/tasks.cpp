// hls::task, split/merge channels and stream of blocks (hls-lib/include/hlsinstr/sim), checked
// against UG1399's documented behaviour. `tasks [scenario]`:
//   (none)   every check; prints "ok"
//   idle     the testbench computes for 300 ms between calls while the tasks wait for input:
//            with HLSINSTR_WATCHDOG_MS=100 this is not a deadlock; prints "ok"
//   deadlock the testbench reads one result more than the tasks make: the watchdog reports it
#include "hls_np_channel.h"
#include "hls_stream.h"
#include "hls_streamofblocks.h"
#include "hls_task.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static int failures = 0;
#define CHECK(c)                                                                                                 \
    do {                                                                                                         \
        if (!(c)) {                                                                                              \
            std::printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #c);                                             \
            ++failures;                                                                                          \
        }                                                                                                        \
    } while (0)

static void twice(hls::stream<int>& in, hls::stream<int>& out) { out.write(2 * in.read()); }
static void plus_one(hls::stream<int>& in, hls::stream<int>& out) { out.write(in.read() + 1); }

// A top in Vitis' task style: the tasks and their channel live across calls.
static void top(hls::stream<int>& in, hls::stream<int>& out) {
    hls_thread_local hls::stream<int, 4> mid("mid");
    hls_thread_local hls::task t1(twice, in, mid);
    hls_thread_local hls::task t2(plus_one, mid, out);
}

static void square(hls::stream<int>& in, hls::stream<int>& out) {
    const int v = in.read();
    out.write(v * v);
}

template <class Split, class Merge>
static std::vector<int> farm(const std::vector<int>& xs) {
    Split sp;
    Merge mg;
    hls::task w0(square, sp.out[0], mg.in[0]), w1(square, sp.out[1], mg.in[1]), w2(square, sp.out[2], mg.in[2]);
    for (size_t i = 0; i < xs.size(); ++i) sp.in.write(xs[i]);
    std::vector<int> ys;
    for (size_t i = 0; i < xs.size(); ++i) ys.push_back(mg.out.read());
    return ys;
}

static void produce(hls::stream_of_blocks<int[4], 2>& s, int n) {
    for (int k = 0; k < n; ++k) {
        hls::write_lock<int[4]> b(s);
        for (int i = 0; i < 4; ++i) b[i] = 10 * k + i;
    }
}

static void consume(hls::stream_of_blocks<int[4], 2>& s, hls::stream<int>& sums, int n) {
    for (int k = 0; k < n; ++k) {
        hls::read_lock<int[4]> b(s);
        sums.write(b[0] + b[1] + b[2] + b[3]);
    }
}

int main(int argc, char** argv) {
    const char* scenario = argc > 1 ? argv[1] : "";
    hls::stream<int> in, out;
    if (!std::strcmp(scenario, "deadlock")) {
        in.write(1);
        top(in, out);
        out.read();
        out.read(); // nothing will ever come
        return 0;
    }
    for (int call = 0; call < 3; ++call) {
        for (int i = 0; i < 5; ++i) in.write(i + 10 * call);
        top(in, out);
        for (int i = 0; i < 5; ++i) CHECK(out.read() == 2 * (i + 10 * call) + 1);
        if (!std::strcmp(scenario, "idle")) std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    if (!std::strcmp(scenario, "idle")) {
        std::printf(failures ? "failed\n" : "ok\n");
        return failures;
    }
    std::vector<int> xs, squares;
    for (int i = 0; i < 30; ++i) {
        xs.push_back(i);
        squares.push_back(i * i);
    }
    // Round robin on both sides keeps the order; load balance keeps the multiset.
    CHECK((farm<hls::split::round_robin<int, 3, 64, 64>, hls::merge::round_robin<int, 3, 64, 64> >(xs) == squares));
    std::vector<int> lb = farm<hls::split::load_balance<int, 3, 64, 64>, hls::merge::load_balance<int, 3, 64, 64> >(xs);
    std::sort(lb.begin(), lb.end());
    CHECK(lb == squares);
    {
        hls::split::round_robin<int, 2, 8, 8> sp;
        for (int i = 0; i < 6; ++i) sp.in.write(i);
        CHECK(sp.out[0].read() == 0 && sp.out[1].read() == 1 && sp.out[0].read() == 2 && sp.out[0].read() == 4);
        CHECK(sp.out[1].read() == 3 && sp.out[1].read() == 5);
    }
    // Tasks default-constructed in an array and started by operator() (UG1399's
    // `hls::task t[NP]; t[i](worker, ...)`), in two rounds as a top's two calls would: the second
    // start of a running task is a no-op.
    {
        hls::split::round_robin<int, 2, 8, 8> sp;
        hls::merge::round_robin<int, 2, 8, 8> mg;
        hls::task w[2];
        for (int round = 0; round < 2; ++round) {
            for (int i = 0; i < 2; ++i) w[i](square, sp.out[i], mg.in[i]);
            for (int i = 0; i < 4; ++i) sp.in.write(i + 4 * round);
            for (int i = 0; i < 4; ++i) CHECK(mg.out.read() == (i + 4 * round) * (i + 4 * round));
        }
    }
    // The testbench writes more than a task chain can hold before it reads anything (a
    // dataflow region run one process after another, its reader later in program order): every
    // task waits and so does the writer; as in Vitis C simulation the write goes past the depth.
    {
        hls::stream<int, 2> a("a"), b("b");
        hls::task relay(twice, a, b);
        a.write(100);
        CHECK(b.read() == 200); // the task has run: the testbench is not alone any more
        for (int i = 0; i < 8; ++i) a.write(i);
        for (int i = 0; i < 8; ++i) CHECK(b.read() == 2 * i);
    }
    // Stream of blocks: two blocks in flight, consumed in order, between two tasks.
    {
        hls::stream_of_blocks<int[4], 2> blocks;
        CHECK(blocks.empty() && !blocks.full());
        hls::stream<int> sums;
        std::thread p(produce, std::ref(blocks), 5);
        consume(blocks, sums, 5);
        p.join();
        for (int k = 0; k < 5; ++k) CHECK(sums.read() == 40 * k + 6);
        produce(blocks, 2);
        CHECK(blocks.full() && !blocks.empty());
        consume(blocks, sums, 2);
        CHECK(sums.read() == 6 && sums.read() == 46 && blocks.empty());
    }
    // A sequential run (no other thread uses streams): the producer fills more blocks than the
    // channel's 2 before the consumer runs, as a dataflow region's processes run one after
    // another in C simulation; it takes new blocks instead of waiting forever.
    {
        hls::stream_of_blocks<int[4], 2> blocks("seq");
        hls::stream<int> sums;
        produce(blocks, 5);
        consume(blocks, sums, 5);
        for (int k = 0; k < 5; ++k) CHECK(sums.read() == 40 * k + 6);
        CHECK(blocks.empty() && !blocks.full());
    }
    if (failures) return 1;
    std::printf("ok\n");
    return 0;
}
