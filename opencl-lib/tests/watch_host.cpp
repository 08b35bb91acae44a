// Exact watchpoint records for a planted out-of-bounds write and invariant violation, a watched
// range and a violations-only unit (watch.cl), with each unit's CONFIG records.
#include "hlsinstr_emu.h"

#include <climits>
#include <cstdint>
#include <cstdio>
#include <vector>

using namespace hlsinstr_emu;

static int errors = 0;

struct Want {
    uint32_t kind;
    long index;  // element of buf (CONFIG_*: see `time`/`addr` below)
    long value;
};

// Element index of an address in buf, or LONG_MIN for ULONG_MAX (no bound).
static long index_of(uint64_t addr, const int* buf) {
    if (addr == UINT64_MAX) return LONG_MIN;
    return static_cast<long>((static_cast<int64_t>(addr) - static_cast<int64_t>(reinterpret_cast<uintptr_t>(buf))) /
                             static_cast<int64_t>(sizeof(int)));
}

// Byte offset of an address from buf.
static long offset_of(uint64_t addr, const int* buf) {
    return static_cast<long>(static_cast<int64_t>(addr) - static_cast<int64_t>(reinterpret_cast<uintptr_t>(buf)));
}

// Reads `unit` and compares: CONFIG_WATCH [wlo, whi) hits and, when `bounded`, CONFIG_BOUNDS
// [lo, hi) (byte offsets from buf; unbounded: [0, ULONG_MAX)), then the records.
static std::vector<Record> expect(unsigned unit, const int* buf, long wlo, long whi, long hits, bool bounded, long lo,
                                  long hi, const std::vector<Want>& want) {
    std::vector<Record> r = ibuffer_read(unit, 32);
    std::printf("unit %u: header value %lld\n", unit, static_cast<long long>(r[0].value));
    if (r[0].kind != kRecHeader || r[0].unit != unit || r[0].value != static_cast<int64_t>(want.size() + 2))
        ++errors, std::printf("  ERROR: header kind %u value %lld, expected %zu records\n", r[0].kind,
                              static_cast<long long>(r[0].value), want.size() + 2);
    if (r.size() < 3) {
        ++errors;
        return r;
    }
    const Record& cw = r[1];
    const Record& cb = r[2];
    std::printf("  config watch bytes [%ld, %ld) hits %lld\n", offset_of(cw.time, buf), offset_of(cw.addr, buf),
                static_cast<long long>(cw.value));
    if (cw.kind != kRecConfigWatch || cw.unit != unit || offset_of(cw.time, buf) != wlo ||
        offset_of(cw.addr, buf) != whi || cw.value != hits)
        ++errors, std::printf("  ERROR: expected CONFIG_WATCH [%ld, %ld) hits %ld\n", wlo, whi, hits);
    const bool bounds_ok = bounded ? offset_of(cb.time, buf) == lo && offset_of(cb.addr, buf) == hi
                                   : cb.time == 0 && cb.addr == UINT64_MAX;
    if (cb.kind != kRecConfigBounds || cb.unit != unit || cb.value != 0 || !bounds_ok)
        ++errors, std::printf("  ERROR: CONFIG_BOUNDS time %llu addr %llu\n", static_cast<unsigned long long>(cb.time),
                              static_cast<unsigned long long>(cb.addr));
    for (size_t i = 3; i < r.size(); ++i) {
        std::printf("  kind %u buf[%ld] value %lld time %llu\n", r[i].kind, index_of(r[i].addr, buf),
                    static_cast<long long>(r[i].value), static_cast<unsigned long long>(r[i].time));
        const size_t k = i - 3;
        if (k < want.size() &&
            (r[i].kind != want[k].kind || r[i].unit != unit || index_of(r[i].addr, buf) != want[k].index ||
             r[i].value != want[k].value))
            ++errors, std::printf("    ERROR: expected kind %u buf[%ld] value %ld\n", want[k].kind, want[k].index,
                                  want[k].value);
    }
    if (r.size() != want.size() + 3) ++errors, std::printf("  ERROR: %zu records, expected %zu\n", r.size() - 3, want.size());
    return r;
}

int main() {
    int buf[16] = {0};  // the kernel's bounds say 8: index 9 is out of bounds
    unsigned next[16] = {0};
    next[0] = 3;
    next[3] = 5;
    next[5] = 3;
    next[9] = 3;
    for (unsigned u = 0; u < 3; ++u) {
        ibuffer_command(u, kCmdResetLinear);
        ibuffer_command(u, kCmdSample);
    }
    // First run, steps 0..2: p = 0 (value -25), 3 (-15), 5 (-5).
    run("chase", {&buf[0], &next[0], 8u, 3u});
    next[0] = 3;
    next[3] = 9;
    // Second run: p = 0 (-25), 3 (-15), 9 (-5), 3 (5), 9 (15), 3 (25).
    run("chase", {&buf[0], &next[0], 8u, 6u});
    std::vector<Record> r = expect(0, buf, 12, 13, 1, true, 0, 32,  // add_watch_checked: [&buf[3], &buf[3] + 1 byte)
                                   {
                                       {kRecInvariant, 3, -15},  // first run, step 1
                                       {kRecInvariant, 3, -15},  // second run, step 1
                                       {kRecOutOfBounds, 9, -5},
                                       {kRecHit, 3, 5},
                                       {kRecOutOfBounds, 9, 15},
                                       {kRecHit, 3, 25},
                                   });
    // Second run: steps 1, 2, 3, 4, 5 are 2 cycles apart.
    for (size_t i = 5; i < r.size() && r.size() == 9; ++i)
        if (r[i].time - r[i - 1].time != 2) ++errors, std::printf("ERROR: record %zu is not 2 cycles after the last\n", i);
    // [2, 6): everything to 3 and 5; 25 > 10 violates.
    expect(1, buf, 8, 24, 1, false, 0, 0,
           {
               {kRecHit, 3, -15},
               {kRecHit, 5, -5},
               {kRecHit, 3, -15},
               {kRecHit, 3, 5},
               {kRecInvariant, 3, 25},
           });
    // [0, 8), violations of >= 0 only (9 is outside the range: nothing).
    expect(2, buf, 0, 32, 0, false, 0, 0,
           {
               {kRecInvariant, 0, -25},
               {kRecInvariant, 3, -15},
               {kRecInvariant, 5, -5},
               {kRecInvariant, 0, -25},
               {kRecInvariant, 3, -15},
           });
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors;
}
