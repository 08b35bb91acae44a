// Host for kernels/dot.cl rewritten with `--probes stall --at dot.cl:11 --at dot.cl:12` and
// built in recording mode, with the load of a[k] given a latency of 10 + 30 k cycles. Prints
// every unit's read-out (write_dump: "unit kind time addr value"), then PASS or FAIL.
#include "hlsinstr_emu.h"

#include <cstdio>

using namespace hlsinstr_emu;

int main() {
    int a[3] = {1, 2, 3}, b[3] = {4, 5, 6};
    long out = 0;
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    run("dot", {&a[0], &b[0], 3u, &out});
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) write_dump(stdout, ibuffer_read(u, HLSINSTR_IBUFFER_DEPTH));
    const bool ok = out == 32;
    if (!ok) std::printf("ERROR: out = %ld, expected 32\n", out);
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
