// iBuffer transitions and linear/cyclic read-out order (see hlsinstr_ibuffer.cl). Prints every
// read-out; main returns the number of errors.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

static int errors = 0;

// Reads unit `unit` and compares mode, dropped count and the values, oldest first.
static void expect(const char* what, unsigned unit, unsigned mode, unsigned dropped, std::vector<long> values) {
    std::vector<Record> r = ibuffer_read(unit, 4);
    std::printf("%s:", what);
    for (size_t i = 1; i < r.size(); ++i) std::printf(" %lld", static_cast<long long>(r[i].value));
    std::printf(" (mode %llu, dropped %llu)\n", static_cast<unsigned long long>(r[0].time),
                static_cast<unsigned long long>(r[0].addr));
    bool ok = r[0].kind == kRecHeader && r[0].unit == unit && r[0].time == mode && r[0].addr == dropped &&
              r.size() == values.size() + 1;
    for (size_t i = 0; ok && i < values.size(); ++i)
        ok = r[i + 1].kind == kRecSnapshot && r[i + 1].unit == unit && r[i + 1].value == values[i];
    if (!ok) {
        std::printf("  ERROR: expected mode %u, dropped %u, values", mode, dropped);
        for (long v : values) std::printf(" %ld", v);
        std::printf("\n");
        ++errors;
    }
}

int main() {
    // Linear: the first 4 stay, 2 are dropped; READ is not destructive.
    ibuffer_command(0, kCmdResetLinear);
    ibuffer_command(0, kCmdSample);
    run("produce", {0, 6});
    expect("linear", 0, 0, 2, {0, 1, 2, 3});
    expect("linear again", 0, 0, 2, {0, 1, 2, 3});
    // Probes outside SAMPLE (after RESET, before SAMPLE) are discarded.
    ibuffer_command(0, kCmdResetCyclic);
    run("produce", {10, 3});
    expect("reset, not sampling", 0, 1, 0, {});
    // Cyclic: the last 4 stay, oldest first.
    ibuffer_command(0, kCmdSample);
    run("produce", {20, 6});
    expect("cyclic", 0, 1, 0, {22, 23, 24, 25});
    // READ stopped recording; STOP keeps the records; SAMPLE from STOP appends.
    run("produce", {30, 1});
    expect("after read", 0, 1, 0, {22, 23, 24, 25});
    ibuffer_command(0, kCmdSample);
    ibuffer_command(0, kCmdStop);
    run("produce", {40, 1});
    ibuffer_command(0, kCmdSample);
    run("produce", {50, 2});
    expect("stop, sample appends", 0, 1, 0, {24, 25, 50, 51});
    // Linear, partly filled, appending across STOP.
    ibuffer_command(0, kCmdResetLinear);
    ibuffer_command(0, kCmdSample);
    run("produce", {60, 1});
    ibuffer_command(0, kCmdStop);
    ibuffer_command(0, kCmdSample);
    run("produce", {70, 2});
    expect("linear append", 0, 0, 0, {60, 70, 71});
    // Unit 1 never got a probe or a command.
    expect("unit 1", 1, 0, 0, {});
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
