// Exact watchpoint records for a planted out-of-bounds write and invariant violation.
#include "hlsinstr_emu.h"

#include <cstdint>
#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

int main() {
    int errors = 0;
    int buf[16] = {0};                 // the kernel's bounds say 8: index 9 is out of bounds
    unsigned next[16] = {0};
    next[0] = 3;
    next[3] = 5;
    next[5] = 3;
    next[9] = 3;
    // Step:     0      1       2      3      4      5
    // index:    0      3       5      3      9      3      (next[3] changes below)
    // value:  -25    -15      -5      5     15     25
    ibuffer_command(0, kCmdResetLinear);
    ibuffer_command(0, kCmdSample);
    // next[3] is 5 the first time and 9 the second: two runs of the chain make that happen.
    run("chase", {&buf[0], &next[0], 8u, 3u});       // steps 0..2: p = 0, 3, 5
    next[0] = 3;
    next[3] = 9;
    // Continue from a fresh start: p = 0 (value -25), 3 (-15), 9 (-5), 3 (5), 9 (15), 3 (25).
    run("chase", {&buf[0], &next[0], 8u, 6u});
    std::vector<Record> r = ibuffer_read(0, 32);
    struct Want {
        uint32_t kind;
        int index;
        long value;
    };
    const Want want[] = {
        {kRecInvariant, 3, -15}, // first run, step 1
        {kRecInvariant, 3, -15}, // second run, step 1
        {kRecOutOfBounds, 9, -5},
        {kRecHit, 3, 5},
        {kRecOutOfBounds, 9, 15},
        {kRecHit, 3, 25},
    };
    const size_t n = sizeof(want) / sizeof(want[0]);
    if (r.size() != n + 1) ++errors, std::printf("ERROR: %zu records, expected %zu\n", r.size() - 1, n);
    for (size_t i = 1; i < r.size(); ++i) {
        const long index = static_cast<long>((r[i].addr - reinterpret_cast<uintptr_t>(&buf[0])) / sizeof(int));
        std::printf("kind %u buf[%ld] value %lld time %llu\n", r[i].kind, index, static_cast<long long>(r[i].value),
                    static_cast<unsigned long long>(r[i].time));
        if (i - 1 < n && (r[i].kind != want[i - 1].kind || index != want[i - 1].index || r[i].value != want[i - 1].value))
            ++errors, std::printf("  ERROR: expected kind %u buf[%d] value %ld\n", want[i - 1].kind, want[i - 1].index,
                                  want[i - 1].value);
    }
    // Second run: steps 1, 2, 3, 4, 5 are 2 cycles apart.
    for (size_t i = 3; i < r.size() && r.size() == n + 1; ++i)
        if (r[i].time - r[i - 1].time != 2) ++errors, std::printf("ERROR: record %zu is not 2 cycles after the last\n", i);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
