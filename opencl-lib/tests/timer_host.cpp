// Each read site's values strictly increase: the counter never waits for the reader, and a read
// never sees a value twice.
#include "hlsinstr_emu.h"

#include <cstdint>
#include <cstdio>

int main() {
    int errors = 0;
    uint64_t t0[50], t1[50];
    hlsinstr_emu::run("sample", {&t0[0], &t1[0], 50u});
    for (int i = 1; i < 50; ++i)
        if (t0[i] <= t0[i - 1] || t1[i] <= t1[i - 1]) ++errors, std::printf("ERROR: read %d not later\n", i);
    std::printf("site 0: %llu .. %llu, site 1: %llu .. %llu\n", static_cast<unsigned long long>(t0[0]),
                static_cast<unsigned long long>(t0[49]), static_cast<unsigned long long>(t1[0]),
                static_cast<unsigned long long>(t1[49]));
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
