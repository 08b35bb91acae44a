// Sequence numbers are dense, start at 0 and advance only when read. Prints the order; main
// returns the number of errors.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    using namespace hlsinstr_emu;
    int errors = 0;
    unsigned order[64];
    for (unsigned& o : order) o = 9999;
    run("single", {&order[0], 3u, 4u});
    for (unsigned s = 0; s < 12; ++s)
        if (order[s] != (s / 4) * 100 + s % 4) ++errors, std::printf("single: seq %u has %u\n", s, order[s]);
    unsigned x = 0;
    run("idle", {&x});
    // The next numbers continue at 12: the idle kernel took none, and the producer waited.
    unsigned order2[64];
    for (unsigned& o : order2) o = 9999;
    // The NDRange is pipelined (seed 004, Fig. 2b): all three work-items take their number for
    // iteration 0 before any takes one for iteration 1, so (k, i) gets 12 + i * 3 + k.
    run("ndrange", {&order2[0] - 12, 2u}, NDRange(3));
    for (unsigned s = 12; s < 18; ++s) {
        const unsigned want = ((s - 12) % 3) * 100 + (s - 12) / 3;
        if (order2[s - 12] != want) ++errors, std::printf("ndrange: seq %u has %u\n", s, order2[s - 12]);
    }
    if (order2[6] != 9999) ++errors, std::printf("ndrange wrote past seq 17\n");
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
