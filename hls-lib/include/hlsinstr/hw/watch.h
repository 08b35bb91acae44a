// hlsinstr: watchpoints in the in-FPGA build (`--probes watch --target vitis`, docs/watch.md#in-fpga).
//
// The same wrappers as the C-simulation watch.h, with hardware meaning: a watch event is a
// record of the trace FIFO (hw/trace.h), so it goes through the trace buffer with the branch
// records, in program order.
//
// | macro (as the rewriter writes it)                | hardware                                        |
// |--------------------------------------------------|-------------------------------------------------|
// | HLSINSTR_WATCH_SITE(id, O, off);                 | first in the function: site `id` accesses the   |
// |                                                  | watched buffer + `off` elements (constants)     |
// | p[HLSINSTR_WATCH_V(id, p, i)] ...; HLSINSTR_WATCH_POST(id, p); | a site whose value is reported    |
// | *HLSINSTR_WATCH_PV(id, p, e) ...; HLSINSTR_WATCH_POST(id, p);  | the same through a pointer        |
// | p[HLSINSTR_WATCH_R(id, p, i)] (W, RW; PR, PW, PRW for `*e`, `p->x`) | any other site             |
//
// The watch is constants of the build (the generated cflags): elements [A, B) watched, bounds
// [0, N) (N == 0: none), allowed values [VMIN, VMAX], plain hits recorded (HITS), the value
// records' id (VALUE_ID). A site's element is k = off + i (i: its subscript, or `e - p`):
// - out of bounds when the site's pointer is in [&buf[0], &buf[N]] (0 <= off <= N) and k is not
//   in [0, N): an O record. The hardware then performs the access as the design without probes
//   would; the C simulation of this build sends it to a scratch element (a write is dropped, a
//   read gives zero bits), as `hlsinstr sim` does, so the testbench's memory stays intact;
// - else k in [A, B): a value site reads the element again after its statement (POST) and
//   records I when the value (as a long long: integers, ap_[u]int/ap_[u]fixed, floating point
//   truncated) is outside [VMIN, VMAX], else H when hits are recorded; another site records H.
//
// Records (docs/watch.md#in-fpga): id = the site's id, value = kind | k << 2 (kind 1 H, 2 O,
// 3 I; k two's complement in the value's other bits); an event with a value is followed by one
// record of id VALUE_ID holding it when it fits the value field as a signed number, else by two
// (low half first). With `T` every record carries the counter read at the site.
//
// Cost per site: an adder and comparators on k (constants on one side), the value's comparator
// at a value site, and a write port on the trace FIFO (docs/watch.md#in-fpga has yosys figures).
#ifndef HLSINSTR_HW_WATCH_H
#define HLSINSTR_HW_WATCH_H

#include "hlsinstr/vitis.h"

#include <ap_int.h>
#include <type_traits>

#if !HLSINSTR_SYNTHESIS
#include <cstddef>
#include <cstdint>
#include <cstring>
#endif

#ifndef HLSINSTR_WATCH_VALUE_ID
#define HLSINSTR_WATCH_VALUE_ID 0
#endif
#ifndef HLSINSTR_WATCH_A
#define HLSINSTR_WATCH_A 0
#endif
#ifndef HLSINSTR_WATCH_B
#define HLSINSTR_WATCH_B 0
#endif
#ifndef HLSINSTR_WATCH_N
#define HLSINSTR_WATCH_N 0
#endif
#ifndef HLSINSTR_WATCH_HITS
#define HLSINSTR_WATCH_HITS 0
#endif
#ifndef HLSINSTR_WATCH_VMIN
#define HLSINSTR_WATCH_VMIN (-9223372036854775807LL - 1)
#endif
#ifndef HLSINSTR_WATCH_VMAX
#define HLSINSTR_WATCH_VMAX 9223372036854775807LL
#endif

// The site's constants, its kept index and whether POST reports (declared without initializers,
// then assigned, so a goto or case may jump past them as past any scalar).
#define HLSINSTR_WATCH_SITE(id, o, off)                                                                              \
    typedef ::hlsinstr::hw::WatchSite<HLSINSTR_OPT_##o, (off)> hlsinstr_ws_##id;                                     \
    long long hlsinstr_wi_##id;                                                                                      \
    bool hlsinstr_wf_##id;                                                                                           \
    hlsinstr_wi_##id = 0;                                                                                            \
    hlsinstr_wf_##id = false;                                                                                        \
    (void)hlsinstr_wi_##id;                                                                                          \
    (void)hlsinstr_wf_##id
#define HLSINSTR_WATCH_IX_(id, p, ...) ::hlsinstr::hw::watch_index<hlsinstr_ws_##id>(hlsinstr_tr, id, p, (__VA_ARGS__))
#define HLSINSTR_WATCH_PTR_(id, p, ...)                                                                              \
    ::hlsinstr::hw::watch_pointer<hlsinstr_ws_##id>(hlsinstr_tr, id, p, (__VA_ARGS__))
#define HLSINSTR_WATCH_R(id, p, ...) HLSINSTR_WATCH_IX_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_W(id, p, ...) HLSINSTR_WATCH_IX_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_RW(id, p, ...) HLSINSTR_WATCH_IX_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_PR(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_PW(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_PRW(id, p, ...) HLSINSTR_WATCH_PTR_(id, p, __VA_ARGS__)
#define HLSINSTR_WATCH_V(id, p, ...)                                                                                 \
    ::hlsinstr::hw::watch_index_v<hlsinstr_ws_##id>(hlsinstr_tr, id, p, (__VA_ARGS__), hlsinstr_wi_##id,              \
                                                    hlsinstr_wf_##id)
#define HLSINSTR_WATCH_PV(id, p, ...)                                                                                \
    ::hlsinstr::hw::watch_pointer_v<hlsinstr_ws_##id>(hlsinstr_tr, id, p, (__VA_ARGS__), hlsinstr_wi_##id,            \
                                                      hlsinstr_wf_##id)
#define HLSINSTR_WATCH_POST(id, p)                                                                                   \
    ::hlsinstr::hw::watch_post<hlsinstr_ws_##id>(hlsinstr_tr, id, p, hlsinstr_wi_##id, hlsinstr_wf_##id)

namespace hlsinstr {
namespace hw {

enum { WATCH_HIT = 1, WATCH_OOB = 2, WATCH_INVARIANT = 3 };

/// One site: its record options and its pointer's offset in the watched buffer.
template <unsigned O, long long Off>
struct WatchSite {
    static const unsigned options = O;
    static const long long offset = Off;
    /// The pointer is in [&buf[0], &buf[N]]: its accesses are bound-checked (C simulation's rule).
    static const bool bounded = HLSINSTR_WATCH_N != 0 && Off >= 0 && Off <= (long long)HLSINSTR_WATCH_N;
};

namespace detail {

const int WATCH_VALUE_BITS = HLSINSTR_TRACE_VALUE_BITS > 0 ? HLSINSTR_TRACE_VALUE_BITS : 1;

inline bool watch_out_of_bounds(bool bounded, long long k) {
#pragma HLS INLINE
    return bounded && (k < 0 || k >= (long long)HLSINSTR_WATCH_N);
}

inline bool watch_in_range(long long k) {
#pragma HLS INLINE
    return k >= (long long)HLSINSTR_WATCH_A && k < (long long)HLSINSTR_WATCH_B;
}

template <unsigned O>
inline void watch_event(TraceStream& tr, unsigned site, unsigned kind, long long k) {
#pragma HLS INLINE
    ap_uint<WATCH_VALUE_BITS> v = ap_uint<WATCH_VALUE_BITS>(k) << 2;
    v(1, 0) = kind;
    trace_post<O>(tr, site, v);
}

// The value after its event: one record when it fits the value field as a signed number, else
// the low and the high half.
template <unsigned O>
inline void watch_value(TraceStream& tr, long long v) {
#pragma HLS INLINE
    const int W = WATCH_VALUE_BITS < 64 ? WATCH_VALUE_BITS : 63;
    const long long lo = -(1LL << (W - 1)), hi = (1LL << (W - 1)) - 1;
    trace_post<O>(tr, HLSINSTR_WATCH_VALUE_ID, ap_uint<WATCH_VALUE_BITS>(v));
    if (WATCH_VALUE_BITS < 64 && (v < lo || v > hi))
        trace_post<O>(tr, HLSINSTR_WATCH_VALUE_ID, ap_uint<WATCH_VALUE_BITS>(v >> W));
}

// The element as a number (see the table above); anything else has none.
template <class T>
inline typename std::enable_if<std::is_floating_point<T>::value, bool>::type watch_number(const T& v, long long& out,
                                                                                          int) {
    if (!(v == v)) return false; // NaN
    out = v >= 9.2e18 ? 9223372036854775807LL : v <= -9.2e18 ? (-9223372036854775807LL - 1) : (long long)v;
    return true;
}
template <class T>
inline typename std::enable_if<std::is_integral<T>::value || std::is_enum<T>::value, bool>::type
watch_number(const T& v, long long& out, int) {
    out = (long long)v;
    return true;
}
template <class T>
inline auto watch_number(const T& v, long long& out, int) -> decltype((long long)v.to_int64(), bool()) {
    out = (long long)v.to_int64();
    return true;
}
template <class T>
inline bool watch_number(const T&, long long&, long) {
    return false;
}

#if !HLSINSTR_SYNTHESIS
// C simulation only: an element of type T no data lives at, at an address = base (mod sizeof T),
// where an out-of-bounds access goes instead of the testbench's memory.
template <class T>
inline std::uintptr_t watch_scratch(std::uintptr_t base) {
    static unsigned char area[2 * sizeof(T) + 1];
    const std::uintptr_t start = reinterpret_cast<std::uintptr_t>(area);
    const std::uintptr_t at = start + (base - start) % sizeof(T);
    std::memset(reinterpret_cast<void*>(at), 0, sizeof(T));
    return at;
}

// The index from `p` that lands on the scratch element: what an out-of-bounds `p[i]` becomes.
template <class T>
inline std::ptrdiff_t watch_scratch_index(T* p) {
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(p);
    return static_cast<std::ptrdiff_t>(watch_scratch<T>(base) - base) / static_cast<std::ptrdiff_t>(sizeof(T));
}
#endif

// `e - p` for a pointer of the parameter's type; -1 with `ok` false for another type.
template <class T>
inline long long watch_offset_of(T* p, T* e, bool& ok) {
    ok = true;
    return e - p;
}
template <class T, class E>
inline long long watch_offset_of(T*, E*, bool& ok) {
    ok = false;
    return -1;
}

} // namespace detail

#if HLSINSTR_SYNTHESIS
#define HLSINSTR_WATCH_INDEX_T_(I) I
#else
#define HLSINSTR_WATCH_INDEX_T_(I) std::ptrdiff_t
#endif

/// `p[i]`: checks element off + i and records; the index to use.
template <class S, class T, class I>
inline HLSINSTR_WATCH_INDEX_T_(I) watch_index(TraceStream& tr, unsigned site, T* p, const I& i) {
#pragma HLS INLINE
    const long long k = S::offset + (long long)i;
    if (detail::watch_out_of_bounds(S::bounded, k)) {
        detail::watch_event<S::options>(tr, site, WATCH_OOB, k);
#if !HLSINSTR_SYNTHESIS
        return detail::watch_scratch_index(p);
#endif
    } else if (HLSINSTR_WATCH_HITS && detail::watch_in_range(k)) {
        detail::watch_event<S::options>(tr, site, WATCH_HIT, k);
    }
    (void)p;
    return i;
}

/// `*e`, `p->x`: the same for the element `e` points at (`e - p` from `p`); the pointer to use.
template <class S, class T, class E>
inline E* watch_pointer(TraceStream& tr, unsigned site, T* p, E* e) {
#pragma HLS INLINE
    bool ok;
    const long long k = S::offset + detail::watch_offset_of(p, e, ok);
    if (ok && detail::watch_out_of_bounds(S::bounded, k)) {
        detail::watch_event<S::options>(tr, site, WATCH_OOB, k);
#if !HLSINSTR_SYNTHESIS
        return reinterpret_cast<E*>(detail::watch_scratch<E>(reinterpret_cast<std::uintptr_t>(e)));
#endif
    } else if (ok && HLSINSTR_WATCH_HITS && detail::watch_in_range(k)) {
        detail::watch_event<S::options>(tr, site, WATCH_HIT, k);
    }
    return e;
}

/// A value site's `p[i]`: the bound check now, the element kept for POST when it is watched.
template <class S, class T, class I>
inline HLSINSTR_WATCH_INDEX_T_(I)
    watch_index_v(TraceStream& tr, unsigned site, T* p, const I& i, long long& keep, bool& watched) {
#pragma HLS INLINE
    const long long k = S::offset + (long long)i;
    keep = (long long)i;
    watched = false;
    if (detail::watch_out_of_bounds(S::bounded, k)) {
        detail::watch_event<S::options>(tr, site, WATCH_OOB, k);
#if !HLSINSTR_SYNTHESIS
        return detail::watch_scratch_index(p);
#endif
    } else {
        watched = detail::watch_in_range(k);
    }
    (void)p;
    return i;
}

template <class S, class T, class E>
inline E* watch_pointer_v(TraceStream& tr, unsigned site, T* p, E* e, long long& keep, bool& watched) {
#pragma HLS INLINE
    bool ok;
    keep = detail::watch_offset_of(p, e, ok);
    const long long k = S::offset + keep;
    watched = false;
    if (ok && detail::watch_out_of_bounds(S::bounded, k)) {
        detail::watch_event<S::options>(tr, site, WATCH_OOB, k);
#if !HLSINSTR_SYNTHESIS
        return reinterpret_cast<E*>(detail::watch_scratch<E>(reinterpret_cast<std::uintptr_t>(e)));
#endif
    } else {
        watched = ok && detail::watch_in_range(k);
    }
    return e;
}

/// After a value site's statement: the element read again, checked and recorded; once.
template <class S, class T>
inline void watch_post(TraceStream& tr, unsigned site, T* p, long long& kept, bool& watched) {
#pragma HLS INLINE
    if (!watched) return;
    watched = false;
    long long v = 0;
    const bool number = detail::watch_number(p[kept], v, 0);
    const long long k = S::offset + kept;
    if (number && (v < (long long)HLSINSTR_WATCH_VMIN || v > (long long)HLSINSTR_WATCH_VMAX)) {
        detail::watch_event<S::options>(tr, site, WATCH_INVARIANT, k);
        detail::watch_value<S::options>(tr, v);
    } else if (HLSINSTR_WATCH_HITS) {
        detail::watch_event<S::options>(tr, site, WATCH_HIT, k);
        if (number) detail::watch_value<S::options>(tr, v);
    }
}

} // namespace hw
} // namespace hlsinstr

#endif
