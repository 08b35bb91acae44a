// Host for kernels/mxv.cl built by `hlsinstr emulate` (rewritten with modules,loops,seq): runs
// the kernel named by argv[1] (mxv_single, the default, or mxv_ndrange) once with every iBuffer
// unit reset and sampling, checks y = A x, and writes the binary dump for `hlsinstr decode`
// (write_binary_dump: $HLSINSTR_DUMP, else hlsinstr-ocl.bin). Returns the error count.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <cstring>
#include <vector>

using namespace hlsinstr_emu;

int main(int argc, char** argv) {
    const unsigned rows = 4, cols = 3;
    const char* kernel = argc > 1 ? argv[1] : "mxv_single";
    const bool ndrange = std::strcmp(kernel, "mxv_ndrange") == 0;
    std::vector<int> a(rows * cols), x(cols), y(rows, 0);
    for (unsigned k = 0; k < a.size(); ++k) a[k] = static_cast<int>(k) - 5;
    for (unsigned j = 0; j < cols; ++j) x[j] = static_cast<int>(2 * j + 1);
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    if (ndrange)
        run(kernel, {a.data(), x.data(), y.data(), cols}, NDRange(rows));
    else
        run(kernel, {a.data(), x.data(), y.data(), rows, cols});
    int errors = 0;
    for (unsigned i = 0; i < rows; ++i) {
        int want = 0;
        for (unsigned j = 0; j < cols; ++j) want += a[i * cols + j] * x[j];
        if (y[i] != want) ++errors, std::printf("ERROR: %s y[%u] = %d, expected %d\n", kernel, i, y[i], want);
    }
    errors += write_binary_dump();
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
