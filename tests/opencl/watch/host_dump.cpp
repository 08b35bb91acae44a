// Host for kernels/chase.cl rewritten with `--probes watch --watch 'data[0]' --bounds data:8` and
// built by `hlsinstr emulate`: the run of host.cpp (the chain 0 -> 3 -> 8 -> 0 plants a write to
// data[8], one past the bound; `out` is data itself), then the binary dump for `hlsinstr decode`
// (write_binary_dump: $HLSINSTR_DUMP, else hlsinstr-ocl.bin). Prints "base <address of data>"
// and PASS or FAIL; returns the error count.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

int main() {
    const unsigned n = 8, steps = 4;
    std::vector<int> data(n + 4, -1), next(n + 4, 0);
    next[0] = 3;
    next[3] = 8; // out of bounds
    next[8] = 0;
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    run("chase", {data.data(), next.data(), data.data(), steps});
    int errors = 0;
    const int want[][2] = {{0, 13}, {3, 1}, {8, 2}, {1, -1}};
    for (auto& w : want)
        if (data[w[0]] != w[1]) ++errors, std::printf("ERROR: data[%d] = %d, expected %d\n", w[0], data[w[0]], w[1]);
    std::printf("base %llu\n", static_cast<unsigned long long>(reinterpret_cast<size_t>(data.data())));
    errors += write_binary_dump();
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
