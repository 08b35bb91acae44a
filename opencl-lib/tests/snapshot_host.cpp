// The latency between the two snapshot sites equals the scripted load latency, exactly.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

int main() {
    int errors = 0;
    const int a[6] = {5, -1, 7, 2, 9, 4};
    const int latency[6] = {3, 40, 3, 17, 0, 3};
    long out = 0;
    for (unsigned u = 0; u < 2; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    run("dot", {&a[0], &latency[0], 6u, &out});
    std::vector<Record> s0 = ibuffer_read(0, 16), s1 = ibuffer_read(1, 16);
    if (out != 26 || s0.size() != 7 || s1.size() != 7) {
        std::printf("ERROR: out %ld, %zu and %zu records\n", out, s0.size() - 1, s1.size() - 1);
        return 1;
    }
    for (unsigned k = 0; k < 6; ++k) {
        const Record &b = s0[k + 1], &e = s1[k + 1];
        const long measured = static_cast<long>(e.time - b.time);
        std::printf("k=%u load value %lld latency %ld\n", k, static_cast<long long>(e.value), measured);
        if (b.value != k || e.value != a[k] || measured != latency[k]) ++errors, std::printf("  ERROR: expected %d\n", latency[k]);
        // Site 0 to site 0 of the next iteration: the load plus the rest of the iteration.
        if (k > 0 && static_cast<long>(b.time - s0[k].time) != latency[k - 1] + 2)
            ++errors, std::printf("  ERROR: iteration took %llu\n", static_cast<unsigned long long>(b.time - s0[k].time));
    }
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
