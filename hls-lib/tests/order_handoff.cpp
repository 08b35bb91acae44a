// Orders respect happens-before across the switch from the owner's own numbering to the shared
// counter (event_log.h, Log::next_owned_order): main records alone first (owned orders), then
// hands a turn back and forth with a second thread through a release/acquire flag, each side
// recording while it holds the turn. Every record of a turn happens after every record of the
// turns before it, so the log must alternate turn by turn, in order, with dense ranks.
#include "check.h"

#include <atomic>
#include <thread>

static std::atomic<int> turn(0); // 0: main's turn, 1: the worker's, 2: done
static const int rounds = 300;

static void mark(unsigned probe, int n) {
    HLSINSTR_LOOP_FRAME(); // loop probes without a module probe
    for (int k = 0; k < n; ++k) {
        HLSINSTR_LOOP_BEGIN(probe, P, 0);
        HLSINSTR_LOOP_END(probe, P, 0);
    }
}

static void worker() {
    for (int r = 0; r < rounds; ++r) {
        while (turn.load(std::memory_order_acquire) != 1) std::this_thread::yield();
        mark(2, 1 + r % 3);
        turn.store(r + 1 == rounds ? 2 : 0, std::memory_order_release);
    }
}

int main() {
    mark(0, 5); // alone: the owner numbers these itself
    std::thread t(worker);
    for (int r = 0; r < rounds; ++r) {
        while (turn.load(std::memory_order_acquire) != 0) std::this_thread::yield();
        mark(1, 1 + (r + 1) % 3);
        turn.store(1, std::memory_order_release);
    }
    while (turn.load(std::memory_order_acquire) != 2) std::this_thread::yield();
    t.join();
    mark(3, 2); // after the join

    std::vector<LogLine> log = read_log();
    std::string got, want = "0x10";
    for (int r = 0; r < rounds; ++r) {
        want += " 1x" + std::to_string(2 * (1 + (r + 1) % 3));
        want += " 2x" + std::to_string(2 * (1 + r % 3));
    }
    want += " 3x4";
    // Runs of one probe, e.g. "0x10 1x4 2x2 ...": the turns in the order of the log.
    for (size_t i = 0; i < log.size();) {
        size_t j = i;
        while (j < log.size() && log[j].probe == log[i].probe) ++j;
        got += (got.empty() ? "" : " ") + std::to_string(log[i].probe) + "x" + std::to_string(j - i);
        i = j;
    }
    expect_eq("turns in log order", got, want);
    for (size_t i = 0; i < log.size(); ++i) {
        if (log[i].order != i) {
            std::printf("FAIL order %llu at line %zu: not the rank\n", log[i].order, i);
            ++failures;
            break;
        }
    }
    if (failures == 0) std::printf("ok %zu records in %d turns\n", log.size(), 2 * rounds + 2);
    return failures;
}
