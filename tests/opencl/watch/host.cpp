// Host for kernels/chase.cl rewritten with `--probes watch --watch 'data[0]' --bounds data:8`
// and built in recording mode (hlsinstr emulate). The chain 0 -> 3 -> 8 -> 0 plants a write to
// data[8], one past the 8 elements in bounds (the allocation has room for it), and `out` is
// data itself. Prints "base <address of data>", then every unit's records (write_dump: "unit
// kind time addr value"), then PASS or FAIL; built by `hlsinstr emulate`, it also writes the
// binary dump (write_binary_dump: $HLSINSTR_DUMP, else hlsinstr-ocl.bin). Returns the error count.
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
    // Steps 0..3 write nodes 0, 3, 8, 0; then out (= data) gets data[0] + 10.
    const int want[][2] = {{0, 13}, {3, 1}, {8, 2}, {1, -1}};
    for (auto& w : want)
        if (data[w[0]] != w[1]) ++errors, std::printf("ERROR: data[%d] = %d, expected %d\n", w[0], data[w[0]], w[1]);
    std::printf("base %llu\n", static_cast<unsigned long long>(reinterpret_cast<size_t>(data.data())));
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) write_dump(stdout, ibuffer_read(u, HLSINSTR_IBUFFER_DEPTH));
#ifdef HLSINSTR_MANIFEST_KEY
    errors += write_binary_dump(); // built by `hlsinstr emulate`: the dump for `hlsinstr decode` too
#endif
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
