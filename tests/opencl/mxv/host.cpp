// Host for kernels/mxv.cl (instrumented, built in recording mode): runs each version once
// with every iBuffer unit reset and sampling, checks y = A x, and prints each run's records
// after a line "== <kernel>" (write_dump: "unit kind time addr value"). Returns the error count.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

static const unsigned kRows = 4, kCols = 3;

static int run_version(const char* kernel, bool ndrange) {
    std::vector<int> a(kRows * kCols), x(kCols), y(kRows, 0);
    for (unsigned k = 0; k < a.size(); ++k) a[k] = static_cast<int>(k) - 5;
    for (unsigned j = 0; j < kCols; ++j) x[j] = static_cast<int>(2 * j + 1);
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    if (ndrange)
        run(kernel, {a.data(), x.data(), y.data(), kCols}, NDRange(kRows));
    else
        run(kernel, {a.data(), x.data(), y.data(), kRows, kCols});
    int errors = 0;
    for (unsigned i = 0; i < kRows; ++i) {
        int want = 0;
        for (unsigned j = 0; j < kCols; ++j) want += a[i * kCols + j] * x[j];
        if (y[i] != want) ++errors, std::printf("ERROR: %s y[%u] = %d, expected %d\n", kernel, i, y[i], want);
    }
    std::printf("== %s\n", kernel);
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) write_dump(stdout, ibuffer_read(u, HLSINSTR_IBUFFER_DEPTH));
    return errors;
}

int main() {
    int errors = run_version("mxv_single", false) + run_version("mxv_ndrange", true);
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
