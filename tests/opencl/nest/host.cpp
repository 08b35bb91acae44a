// Host for kernels/nest.cl (instrumented, built by `hlsinstr emulate`): runs scale on 4 and then
// 2 rows, cube once and first_negative once, checks the results, and writes the binary dump
// (write_binary_dump: $HLSINSTR_DUMP, else hlsinstr-ocl.bin). Returns the error count.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

static int expect(const char* what, const std::vector<int>& got, const std::vector<int>& want) {
    int errors = 0;
    for (size_t k = 0; k < want.size(); ++k)
        if (got[k] != want[k]) ++errors, std::printf("ERROR: %s[%zu] = %d, expected %d\n", what, k, got[k], want[k]);
    return errors;
}

int main() {
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    int errors = 0;
    std::vector<int> a(12), want(12);
    for (int k = 0; k < 12; ++k) a[k] = k, want[k] = k < 6 ? 4 * k : 2 * k;
    run("scale", {a.data(), 4});
    run("scale", {a.data(), 2});
    errors += expect("scale", a, want);

    std::vector<int> c(24, 1), cwant(24);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 3; ++k) cwant[(i * 4 + j) * 3 + k] = 1 + i + j + k;
    run("cube", {c.data()});
    errors += expect("cube", c, cwant);

    // Row 1 stops at its second element, row 2 at its first.
    std::vector<int> f = {1, 2, 3, 4, -1, 6, -7, 8, 9, 10, 11, 12};
    run("first_negative", {f.data()});
    errors += expect("first_negative", f, {0, 0, 0, 0, -1, 6, -7, 8, 9, 0, 0, 0});
#ifdef HLSINSTR_MANIFEST_KEY
    errors += write_binary_dump();
#endif
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
