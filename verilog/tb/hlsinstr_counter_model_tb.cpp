// Test of the hlsinstr_counter C model and hlsinstr/hw/counter.h: auto mode counts reads from 0,
// set_cycle()/release() hand time to a harness and back, timestamp(dep) takes every supported
// dependence type, and concurrent reads stay distinct. Prints "ok" and returns 0, or prints
// each failure and returns the failure count.
//
// -DHLSINSTR_TEST_REFUSED: must not compile (a float dependence is refused with a message).
#include "hlsinstr/hw/counter.h"

#include <ap_fixed.h>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

namespace {

int failures = 0;

void expect(bool ok, const char* what, unsigned long long got) {
    if (!ok) {
        std::printf("FAIL %s (got %llu)\n", what, got);
        ++failures;
    }
}

unsigned long long u(const ap_uint<64>& v) { return v.to_uint64(); }

enum Color { red = 3, green };
enum class Phase : unsigned char { load = 7, store };

} // namespace

int main() {
#ifdef HLSINSTR_TEST_REFUSED
    float f = 1.0f;
    hlsinstr::hw::timestamp(f);
#endif
    // Auto mode: the first read is 0, each read adds 1, whatever the dependence type.
    expect(u(hlsinstr::hw::timestamp(42)) == 0, "first read is 0", 0);
    expect(u(hlsinstr::hw::timestamp(static_cast<unsigned char>(200))) == 1, "unsigned char", 1);
    expect(u(hlsinstr::hw::timestamp(true)) == 2, "bool", 2);
    expect(u(hlsinstr::hw::timestamp(-5LL)) == 3, "negative long long", 3);
    expect(u(hlsinstr::hw::timestamp(green)) == 4, "enum", 4);
    expect(u(hlsinstr::hw::timestamp(Phase::store)) == 5, "enum class", 5);
    expect(u(hlsinstr::hw::timestamp(ap_uint<5>(17))) == 6, "ap_uint<5>", 6);
    expect(u(hlsinstr::hw::timestamp(ap_int<12>(-100))) == 7, "ap_int<12>", 7);
    ap_uint<128> wide = 1;
    wide <<= 100;
    expect(u(hlsinstr::hw::timestamp(wide)) == 8, "ap_uint<128>", 8);
    expect(u(hlsinstr::hw::timestamp(ap_int<70>(-1))) == 9, "ap_int<70>", 9);
    ap_fixed<16, 8> fx = 1.5;
    expect(u(hlsinstr::hw::timestamp(ap_uint<16>(fx.range()))) == 10, "ap_fixed bits", 10);
    ap_uint<64> raw = 0;
    hlsinstr_counter(ap_uint<64>(12345), raw);
    expect(u(raw) == 11, "the blackbox function itself", u(raw));

    // The dependence as the blackbox sees it: sign-extended or truncated to 64 bits.
    using hlsinstr::hw::detail::to_dep;
    expect(u(to_dep<int>::get(-1)) == ~0ULL, "int -1 -> all ones", u(to_dep<int>::get(-1)));
    expect(u(to_dep<ap_int<8> >::get(ap_int<8>(-2))) == ~1ULL, "ap_int<8> -2 sign-extends", 0);
    expect(u(to_dep<ap_uint<128> >::get(wide + 9)) == 9, "ap_uint<128> keeps the low bits", 0);
    expect(u(to_dep<Phase>::get(Phase::load)) == 7, "enum class value", 0);
    expect(u(to_dep<bool>::get(true)) == 1, "bool value", 0);

    // A harness takes control: every read returns the set cycle, also going backwards.
    hlsinstr::hw::model::set_cycle(1000);
    for (int i = 0; i < 3; ++i) {
        unsigned long long t = u(hlsinstr::hw::timestamp(i));
        expect(t == 1000, "set_cycle(1000) holds", t);
    }
    hlsinstr::hw::model::set_cycle(5);
    expect(u(hlsinstr::hw::timestamp(0)) == 5, "set_cycle(5)", 0);
    hlsinstr::hw::model::release();
    expect(u(hlsinstr::hw::timestamp(0)) == 6, "release() continues from the last value", 0);
    expect(u(hlsinstr::hw::timestamp(0)) == 7, "and counts on", 0);
    // The model wraps at 2^64 as the hardware does.
    hlsinstr::hw::model::set_cycle(~0ULL);
    expect(u(hlsinstr::hw::timestamp(0)) == ~0ULL, "set_cycle(2^64 - 1)", 0);
    hlsinstr::hw::model::release();
    expect(u(hlsinstr::hw::timestamp(0)) == 0, "wraps to 0", 0);

    // Concurrent reads (dataflow processes are threads in C simulation): all distinct, no gap.
    const int threads = 4, reads = 2000;
    std::vector<std::vector<unsigned long long> > seen(threads);
    std::vector<std::thread> pool;
    for (int k = 0; k < threads; ++k) {
        pool.emplace_back([k, &seen]() {
            for (int i = 0; i < reads; ++i) seen[k].push_back(u(hlsinstr::hw::timestamp(i)));
        });
    }
    for (size_t k = 0; k < pool.size(); ++k) pool[k].join();
    std::vector<unsigned long long> all;
    for (int k = 0; k < threads; ++k) {
        expect(std::is_sorted(seen[k].begin(), seen[k].end()), "monotone per thread", 0);
        all.insert(all.end(), seen[k].begin(), seen[k].end());
    }
    std::sort(all.begin(), all.end());
    expect(all.front() == 1 && all.back() == static_cast<unsigned long long>(threads * reads) &&
               std::adjacent_find(all.begin(), all.end()) == all.end(),
           "threads read 1..N exactly once each", all.back());

    if (failures == 0) std::printf("ok\n");
    return failures;
}
