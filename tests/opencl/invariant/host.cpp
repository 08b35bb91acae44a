// Host for kernels/walk.cl rewritten with watch probes (`--invariant 'data[i] >= 0' --bounds
// data:8`, optionally `--watch-range`) and built in recording mode (hlsinstr emulate). The chain
// 0 -> 2 -> 9 -> 4 -> 6 stores 5, 7, 1, -3, 2: node 9 is outside the 8 elements in bounds (the
// allocation has room for it), and -3 breaks the invariant. Prints "base <address of
// data>", every unit's read-out (write_dump: "unit kind time addr value"), then PASS or FAIL.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

int main() {
    std::vector<int> data(12, 0), vals = {5, 7, 1, -3, 2};
    std::vector<unsigned> next(12, 0);
    next[0] = 2;
    next[2] = 9; // out of bounds
    next[9] = 4;
    next[4] = 6;
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    run("walk", {data.data(), next.data(), vals.data(), 5u});
    int errors = 0;
    const int want[][2] = {{0, 5}, {2, 7}, {9, 1}, {4, -3}, {6, 2}};
    for (auto& w : want)
        if (data[w[0]] != w[1]) ++errors, std::printf("ERROR: data[%d] = %d, expected %d\n", w[0], data[w[0]], w[1]);
    std::printf("base %llu\n", static_cast<unsigned long long>(reinterpret_cast<size_t>(data.data())));
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) write_dump(stdout, ibuffer_read(u, HLSINSTR_IBUFFER_DEPTH));
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
