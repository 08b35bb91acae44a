// Checks hls-lib's hw/watch.h (the in-FPGA watch sites, docs/watch.md#in-fpga) record by record,
// in C simulation: a value site through a pointer that is the watched buffer + 1 and a pointer
// site through the buffer itself; hits with their value record, a value outside the 32-bit
// field in two records, out-of-bounds accesses past either end (the write skipped, so the
// memory behind the buffer stays untouched), elements outside the watched range (no record).
// Prints "watch harness: N failed checks".
#define HLSINSTR_TRACE_ID_BITS 8
#define HLSINSTR_TRACE_VALUE_BITS 32
#define HLSINSTR_WATCH_VALUE_ID 9
#define HLSINSTR_WATCH_A 2
#define HLSINSTR_WATCH_B 6
#define HLSINSTR_WATCH_N 8
#define HLSINSTR_WATCH_HITS 1
#define HLSINSTR_WATCH_VMIN 0LL
#include "hlsinstr/vitis.h"

#include <cstdio>
#include <vector>

static int failed = 0;

struct Rec {
    unsigned site;
    unsigned long long value;
    bool operator==(const Rec& o) const { return site == o.site && value == o.value; }
};

static std::vector<Rec> drain(hlsinstr::hw::TraceStream& tr) {
    std::vector<Rec> out;
    hlsinstr::hw::TraceEvent e;
    while (tr.read_nb(e)) {
        Rec r = {static_cast<unsigned>(e.site.to_uint()), e.value.to_uint64()};
        out.push_back(r);
    }
    return out;
}

static Rec ev(unsigned site, unsigned kind, long long k) {
    Rec r = {site, ((static_cast<unsigned long long>(k) << 2) | kind) & 0xffffffffull};
    return r;
}

static Rec val(unsigned long long v) {
    Rec r = {9, v & 0xffffffffull};
    return r;
}

static void expect(int line, const std::vector<Rec>& got, const std::vector<Rec>& want) {
    if (got == want) return;
    ++failed;
    std::printf("FAIL line %d: got", line);
    for (size_t i = 0; i < got.size(); ++i) std::printf(" %u:%llx", got[i].site, got[i].value);
    std::printf(", want");
    for (size_t i = 0; i < want.size(); ++i) std::printf(" %u:%llx", want[i].site, want[i].value);
    std::printf("\n");
}

// Site 3: `win[i] = v` (a value site; win is the buffer + 1); site 4: a read of `*(whole + i)`.
static void kernel(long long* win, long long* whole, int i, long long v, HLSINSTR_TRACE& hlsinstr_tr) {
    HLSINSTR_WATCH_SITE(3, P, 1);
    HLSINSTR_WATCH_SITE(4, P, 0);
    win[HLSINSTR_WATCH_V(3, win, i)] = v;
    HLSINSTR_WATCH_POST(3, win);
    const long long r = *HLSINSTR_WATCH_PR(4, whole, (whole + i));
    (void)r;
}

int main() {
    long long mem[10] = {0};
    long long* buf = mem + 1; // buf[-1] and buf[8] are the memory around the 8-element buffer
    hlsinstr::hw::TraceStream tr;
    kernel(buf + 1, buf, 2, 5, tr); // element 3 = 5: a hit with its value; element 2 read: a hit
    std::vector<Rec> want;
    want.push_back(ev(3, 1, 3));
    want.push_back(val(5));
    want.push_back(ev(4, 1, 2));
    expect(__LINE__, drain(tr), want);
    const long long big = -(1LL << 40);
    kernel(buf + 1, buf, 3, big, tr); // element 4 < 0: the invariant, its value in two records
    want.clear();
    want.push_back(ev(3, 3, 4));
    want.push_back(val(static_cast<unsigned long long>(big)));
    want.push_back(val(static_cast<unsigned long long>(big) >> 32));
    want.push_back(ev(4, 1, 3));
    expect(__LINE__, drain(tr), want);
    if (buf[4] != big) {
        ++failed;
        std::printf("FAIL line %d: the write in bounds happened\n", __LINE__);
    }
    kernel(buf + 1, buf, 7, 42, tr); // element 8: out of bounds, skipped; element 7: not watched
    want.clear();
    want.push_back(ev(3, 2, 8));
    expect(__LINE__, drain(tr), want);
    kernel(buf + 1, buf, -2, 1, tr); // element -1 written, element -2 read: both out of bounds
    want.clear();
    want.push_back(ev(3, 2, -1));
    want.push_back(ev(4, 2, -2));
    expect(__LINE__, drain(tr), want);
    kernel(buf + 1, buf, 6, 9, tr); // element 7 = 9: in bounds, not watched; element 6 read: not watched
    expect(__LINE__, drain(tr), std::vector<Rec>());
    if (mem[0] != 0 || mem[9] != 0) {
        ++failed;
        std::printf("FAIL line %d: an out-of-bounds write reached memory (%lld, %lld)\n", __LINE__, mem[0], mem[9]);
    }
    std::printf("watch harness: %d failed checks\n", failed);
    return failed != 0;
}
