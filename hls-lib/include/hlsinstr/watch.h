// hlsinstr: watchpoints for Vitis C++ in C simulation (`--probes watch`, docs/watch.md).
//
// | macro (as the rewriter writes it)                | where                                        |
// |--------------------------------------------------|----------------------------------------------|
// | HLSINSTR_WATCH_TOP(buf, a, b, n, vmin, vmax, h); | first in the top: one call of the top begins |
// | HLSINSTR_WATCH_DECL(id, p);                      | first in a function with value site `id`     |
// | p[HLSINSTR_WATCH_V(id, p, i)] ...; HLSINSTR_WATCH_POST(id); | a site whose value is reported    |
// | *HLSINSTR_WATCH_PV(id, p, e) ...; HLSINSTR_WATCH_POST(id);  | the same through a pointer        |
// | p[HLSINSTR_WATCH_R(id, p, i)] (W, RW; PR, PW, PRW for `*e`, `p->x`) | any other site            |
//
// The watch is by address, process-wide: TOP sets the watched bytes [&buf[a], &buf[b]), the
// bounds [&buf[0], &buf[n]) (n == 0: none), the values [vmin, vmax] and whether plain hits are
// recorded (h), and counts the call. Every site checks the element it is about to touch:
// - out of bounds: the site's pointer `p` points into [&buf[0], &buf[n]] (it is `buf` or was
//   derived from it, also in a callee) and the element does not: an O record and a line on
//   stderr BEFORE the access, which then goes to a scratch element instead (a write is dropped,
//   a read gives all-zero bits), so the testbench goes on instead of corrupting memory;
// - else, an element in the watched bytes: a value site (V, PV) reads the element after its
//   statement (POST) and records I (and a line on stderr) when the value breaks the invariant,
//   else H when hits are recorded; any other site records H with no value (no invariant check).
// Records are watch events of the shared record stream (event_log.h: code 6, letters C H O I,
// with the element's index from &buf[0]). The stderr lines name the instrumented file and line
// (`hlsinstr sim` maps the site to the original source through the manifest); after 100 of
// them the rest are in the log only.
//
// Synthesis: every wrapper is its expression, the rest nothing. The in-FPGA build
// (`--target vitis`) uses hw/watch.h instead: the same events as records of the trace buffer.
#ifndef HLSINSTR_WATCH_H
#define HLSINSTR_WATCH_H

#include "hlsinstr/config.h"

#if HLSINSTR_SYNTHESIS

#define HLSINSTR_WATCH_TOP(buf, a, b, n, vmin, vmax, hits) ((void)0)
#define HLSINSTR_WATCH_DECL(id, p) ((void)0)
#define HLSINSTR_WATCH_POST(id) ((void)0)
#define HLSINSTR_WATCH_V(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_PV(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_R(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_W(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_RW(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_PR(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_PW(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_WATCH_PRW(id, p, ...) (__VA_ARGS__)

#else

#include "hlsinstr/event_log.h"

#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#define HLSINSTR_WATCH_TOP(buf, a, b, n, vmin, vmax, hits) ::hlsinstr::sim::watch_top(buf, a, b, n, vmin, vmax, hits)
#define HLSINSTR_WATCH_DECL(id, p)                                                                                   \
    decltype(&(p)[0]) hlsinstr_wa_##id;                                                                               \
    hlsinstr_wa_##id = 0
#define HLSINSTR_WATCH_POST(id) ::hlsinstr::sim::watch_post(id, hlsinstr_wa_##id, __FILE__, __LINE__)
#define HLSINSTR_WATCH_IX_(id, p, dir, ...) ::hlsinstr::sim::watch_index(id, p, (__VA_ARGS__), dir, __FILE__, __LINE__)
#define HLSINSTR_WATCH_PTR_(id, p, dir, ...) ::hlsinstr::sim::watch_pointer(id, p, (__VA_ARGS__), dir, __FILE__, __LINE__)
#define HLSINSTR_WATCH_R(id, p, ...) HLSINSTR_WATCH_IX_(id, p, "read", __VA_ARGS__)
#define HLSINSTR_WATCH_W(id, p, ...) HLSINSTR_WATCH_IX_(id, p, "write", __VA_ARGS__)
#define HLSINSTR_WATCH_RW(id, p, ...) HLSINSTR_WATCH_IX_(id, p, "read-write", __VA_ARGS__)
#define HLSINSTR_WATCH_PR(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, "read", __VA_ARGS__)
#define HLSINSTR_WATCH_PW(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, "write", __VA_ARGS__)
#define HLSINSTR_WATCH_PRW(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, "read-write", __VA_ARGS__)
// A value site: the element's address is kept for POST (0 when the access was out of bounds).
#define HLSINSTR_WATCH_V(id, p, ...)                                                                                 \
    ::hlsinstr::sim::watch_index_v(id, p, (__VA_ARGS__), hlsinstr_wa_##id, __FILE__, __LINE__)
#define HLSINSTR_WATCH_PV(id, p, ...)                                                                                \
    ::hlsinstr::sim::watch_pointer_v(id, p, (__VA_ARGS__), hlsinstr_wa_##id, __FILE__, __LINE__)

namespace hlsinstr {
namespace sim {

// The watch of the current call of the top (set before any process of it runs; read-only after).
struct WatchConfig {
    std::uintptr_t wlo, whi, lo, hi;
    long long vmin, vmax;
    std::uint64_t call;
    std::uint64_t elem;
    bool on, bounded, hits;
    unsigned printed;
};

inline WatchConfig& watch_config() {
    static WatchConfig c = {0, 0, 0, 0, 0, 0, 0, 0, false, false, false, 0};
    return c;
}

namespace detail {

enum { watch_call = 0, watch_hit = 1, watch_oob = 2, watch_invariant = 3, watch_print_limit = 100 };

// The element's index from &buf[0] (may be negative or past the end).
inline long long watch_index_of(const WatchConfig& c, std::uintptr_t addr) {
    return static_cast<long long>(static_cast<std::intptr_t>(addr - c.lo)) / static_cast<long long>(c.elem);
}

inline void watch_record(std::uint32_t site, unsigned kind, long long index, bool has_value, long long value) {
    if (ThreadLog* t = ThreadLog::current())
        t->record_watch(site, kind, index, has_value, static_cast<std::uint64_t>(value));
}

HLSINSTR_COLD inline void watch_say(WatchConfig& c, const char* file, int line, const char* what) {
    if (c.printed >= watch_print_limit) return;
    if (++c.printed == watch_print_limit) {
        std::fprintf(stderr, "hlsinstr: watch: %s:%d: %s (further watch reports: event log only)\n", file, line, what);
    } else {
        std::fprintf(stderr, "hlsinstr: watch: %s:%d: %s\n", file, line, what);
    }
}

// An element of type T (zero bits) that no real data lives at, at an address ≡ base (mod
// sizeof(T)), so that `p[k]` reaches it exactly: an out-of-bounds access goes there instead.
template <class T>
inline std::uintptr_t watch_scratch(std::uintptr_t base) {
    static thread_local unsigned char area[2 * sizeof(T) + 1];
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(area);
    const std::uintptr_t at = start + (base - start) % sizeof(T);
    std::memset(reinterpret_cast<void*>(at), 0, sizeof(T));
    return at;
}

// True (and reported) when the access at `addr` through a pointer `base` into the bounded
// buffer leaves it.
inline bool watch_out_of_bounds(std::uint32_t site, std::uintptr_t base, std::uintptr_t addr, const char* dir,
                                const char* file, int line) {
    WatchConfig& c = watch_config();
    if (!c.on || !c.bounded || base < c.lo || base > c.hi || (addr >= c.lo && addr < c.hi)) return false;
    const long long index = watch_index_of(c, addr);
    watch_record(site, watch_oob, index, false, 0);
    char what[200];
    std::snprintf(what, sizeof what,
                  "out-of-bounds %s of element %lld (bounds [0, %llu)), call %llu of the top; the %s is skipped", dir,
                  index, static_cast<unsigned long long>((c.hi - c.lo) / c.elem),
                  static_cast<unsigned long long>(c.call), dir);
    watch_say(c, file, line, what);
    return true;
}

inline void watch_touch(std::uint32_t site, std::uintptr_t addr) {
    const WatchConfig& c = watch_config();
    if (c.on && c.hits && addr >= c.wlo && addr < c.whi) watch_record(site, watch_hit, watch_index_of(c, addr), false, 0);
}

// The element as a number: arithmetic types, and Vitis' ap_[u]int / ap_[u]fixed (to_int64);
// floating point truncated (clamped to the long long range); anything else has none.
template <class T>
inline auto watch_number(const T& v, long long& out, int) ->
    typename std::enable_if<std::is_floating_point<T>::value, bool>::type {
    const long double d = v;
    if (!(d == d)) return false; // NaN
    out = d >= 9.2e18L ? LLONG_MAX : d <= -9.2e18L ? LLONG_MIN : static_cast<long long>(d);
    return true;
}
template <class T>
inline auto watch_number(const T& v, long long& out, int) ->
    typename std::enable_if<std::is_integral<T>::value || std::is_enum<T>::value, bool>::type {
    out = static_cast<long long>(v);
    return true;
}
template <class T>
inline auto watch_number(const T& v, long long& out, int) -> decltype(static_cast<long long>(v.to_int64()), bool()) {
    out = static_cast<long long>(v.to_int64());
    return true;
}
template <class T>
inline bool watch_number(const T&, long long&, long) {
    return false;
}

} // namespace detail

// One call of the top begins: the watch of `buf` (see the table above).
template <class P, class A, class B, class N>
inline void watch_top(P* buf, A a, B b, N n, long long vmin, long long vmax, int hits) {
    WatchConfig& c = watch_config();
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(buf);
    c.elem = sizeof(P);
    c.wlo = base + static_cast<std::uintptr_t>(a) * c.elem;
    c.whi = base + static_cast<std::uintptr_t>(b) * c.elem;
    c.lo = base;
    c.hi = base + static_cast<std::uintptr_t>(n) * c.elem;
    c.bounded = n != 0;
    c.vmin = vmin;
    c.vmax = vmax;
    c.hits = hits != 0;
    c.on = true;
    ++c.call;
    detail::watch_record(0, detail::watch_call, 0, true, static_cast<long long>(c.call));
}

// `p[i]`: the index to use (i, or the scratch element's when i is out of bounds).
template <class T, class I>
inline std::ptrdiff_t watch_index(std::uint32_t site, T* p, const I& i, const char* dir, const char* file, int line) {
    const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(i);
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t addr = base + static_cast<std::uintptr_t>(k) * sizeof(T);
    if (detail::watch_out_of_bounds(site, base, addr, dir, file, line)) {
        return static_cast<std::ptrdiff_t>(detail::watch_scratch<T>(base) - base) / static_cast<std::ptrdiff_t>(sizeof(T));
    }
    detail::watch_touch(site, addr);
    return k;
}

// `*e`, `p->x`: the pointer to use.
template <class T, class E>
inline E* watch_pointer(std::uint32_t site, T* p, E* e, const char* dir, const char* file, int line) {
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(e);
    if (detail::watch_out_of_bounds(site, reinterpret_cast<std::uintptr_t>(p), addr, dir, file, line)) {
        return reinterpret_cast<E*>(detail::watch_scratch<E>(addr));
    }
    detail::watch_touch(site, addr);
    return e;
}

template <class T, class I, class W>
inline std::ptrdiff_t watch_index_v(std::uint32_t site, T* p, const I& i, W*& keep, const char* file, int line) {
    const std::ptrdiff_t k = static_cast<std::ptrdiff_t>(i);
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(p);
    const std::uintptr_t addr = base + static_cast<std::uintptr_t>(k) * sizeof(T);
    if (detail::watch_out_of_bounds(site, base, addr, "access", file, line)) {
        keep = 0;
        return static_cast<std::ptrdiff_t>(detail::watch_scratch<T>(base) - base) / static_cast<std::ptrdiff_t>(sizeof(T));
    }
    keep = reinterpret_cast<W*>(addr);
    return k;
}

template <class T, class E, class W>
inline E* watch_pointer_v(std::uint32_t site, T* p, E* e, W*& keep, const char* file, int line) {
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(e);
    if (detail::watch_out_of_bounds(site, reinterpret_cast<std::uintptr_t>(p), addr, "access", file, line)) {
        keep = 0;
        return reinterpret_cast<E*>(detail::watch_scratch<E>(addr));
    }
    keep = reinterpret_cast<W*>(addr);
    return e;
}

// After a value site's statement: the element's value, checked and recorded; once.
template <class W>
inline void watch_post(std::uint32_t site, W*& kept, const char* file, int line) {
    W* e = kept;
    kept = 0;
    WatchConfig& c = watch_config();
    const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(e);
    if (!e || !c.on || addr < c.wlo || addr >= c.whi) return;
    long long v = 0;
    const bool number = detail::watch_number(*e, v, 0);
    const long long index = detail::watch_index_of(c, addr);
    if (number && (v < c.vmin || v > c.vmax)) {
        detail::watch_record(site, detail::watch_invariant, index, true, v);
        char what[200];
        std::snprintf(what, sizeof what, "invariant broken: element %lld is %lld (allowed [%lld, %lld]), call %llu of the top",
                      index, v, c.vmin, c.vmax, static_cast<unsigned long long>(c.call));
        detail::watch_say(c, file, line, what);
    } else if (c.hits) {
        detail::watch_record(site, detail::watch_hit, index, number, v);
    }
}

} // namespace sim
} // namespace hlsinstr

#endif

#endif
