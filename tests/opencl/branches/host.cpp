// Host for kernels/paths.cl rewritten with `--probes branches` and built by `hlsinstr emulate`:
// runs the single work-item kernel for n = 0, 4, 8, 12 and the NDRange kernel over 6
// work-items, each logging the lines it runs (the reference path), then writes every log to
// ref.txt ("work-item line" per line; the single work-item kernel is work-item 0 of its own
// log, written as `top`) and the iBuffer read-outs to the binary dump for `hlsinstr decode`.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

static const int kLogWords = 2048;

int main() {
    std::vector<int> a = {-5, 0, 7, 60, 12, 95, 3, -1, 22, 45, 8, 2};
    for (unsigned u = 0; u < HLSINSTR_NUM_IBUFFERS; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    std::vector<int> top_log(kLogWords, 0), out(1, 0);
    int total = 0;
    for (int n = 0; n <= 12; n += 4) {
        run("paths_top", {a.data(), n, top_log.data(), out.data()});
        total += out[0];
    }
    const unsigned items = 6;
    std::vector<int> logs(items * kLogWords, 0);
    run("paths_nd", {a.data(), logs.data()}, {items});
    std::FILE* ref = std::fopen("ref.txt", "w");
    for (int k = 0; k < top_log[0]; ++k) std::fprintf(ref, "top %d\n", top_log[1 + k]);
    for (unsigned w = 0; w < items; ++w)
        for (int k = 0; k < logs[w * kLogWords]; ++k) std::fprintf(ref, "%u %d\n", w, logs[w * kLogWords + 1 + k]);
    std::fclose(ref);
    int errors = 0;
#ifdef HLSINSTR_MANIFEST_KEY
    errors += write_binary_dump();
#endif
    std::printf("total %d\n%s\n", total, errors ? "FAIL" : "PASS");
    return errors;
}
