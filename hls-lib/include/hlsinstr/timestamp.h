// hlsinstr: timestamps.
//
// In C simulation a record's timestamp is a read of the CPU's time-stamp counter (x86 rdtsc,
// aarch64 cntvct_el0; steady_clock's nanoseconds where there is neither): a few ns, no system
// call, where a steady_clock read per record cost more than the probe itself. The log carries
// the counter's calibration — its value when the first thread began recording and now, and the
// steady_clock nanoseconds between the two reads (ClockMark) — and the reader converts ticks to
// nanoseconds since that start. So a timestamp only orders and spaces events; cycles come from
// the analysis, not from this clock. Under synthesis the in-FPGA build reads a free-running
// hardware counter instead.
#ifndef HLSINSTR_TIMESTAMP_H
#define HLSINSTR_TIMESTAMP_H

#include "hlsinstr/config.h"

#if !HLSINSTR_SYNTHESIS
#include <atomic>
#include <chrono>
#include <cstdint>

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <intrin.h>
#endif

namespace hlsinstr {
namespace sim {

inline std::uint64_t steady_ns() {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

// The counter a timestamp reads. Not serializing: a read may move a few instructions either
// way, which a probe between two statements does not notice.
inline std::uint64_t timestamp_ticks() {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    return __builtin_ia32_rdtsc();
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    return __rdtsc();
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
    std::uint64_t v;
    __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
    return v;
#else
    return steady_ns();
#endif
}

// The counter and steady_clock read together when the first thread began recording. A class
// template's static members: one definition across translation units, constant-initialized
// (no guard of the C++ runtime).
template <class Unused = void>
struct ClockStart {
    static std::atomic<std::uint64_t> ticks;
    static std::atomic<std::uint64_t> ns;
};
template <class Unused>
std::atomic<std::uint64_t> ClockStart<Unused>::ticks(0);
template <class Unused>
std::atomic<std::uint64_t> ClockStart<Unused>::ns(0);

// Called by every thread before its first record; the first call sets the start (a record
// with a timestamp a hair before it, from a thread that lost the race, reads as 0).
inline void start_clock() {
    if (ClockStart<>::ns.load(std::memory_order_acquire) != 0) return;
    const std::uint64_t ticks = timestamp_ticks();
    std::uint64_t ns = steady_ns();
    if (ns == 0) ns = 1; // 0 means "not started"
    std::uint64_t expected = 0;
    if (ClockStart<>::ticks.compare_exchange_strong(expected, ticks == 0 ? 1 : ticks)) {
        ClockStart<>::ns.store(ns, std::memory_order_release);
    }
}

// The calibration as the log carries it: the start's ticks, the ticks now, and the
// nanoseconds between the two.
struct ClockMark {
    std::uint64_t start_ticks;
    std::uint64_t now_ticks;
    std::uint64_t elapsed_ns;

    static ClockMark now() {
        ClockMark m;
        m.start_ticks = ClockStart<>::ticks.load(std::memory_order_acquire);
        const std::uint64_t start_ns = ClockStart<>::ns.load(std::memory_order_acquire);
        m.now_ticks = timestamp_ticks();
        const std::uint64_t ns = steady_ns();
        m.elapsed_ns = ns > start_ns ? ns - start_ns : 0;
        if (m.now_ticks < m.start_ticks) m.now_ticks = m.start_ticks;
        return m;
    }

    // A record's ticks as nanoseconds since the start (what the text log shows).
    std::uint64_t to_ns(std::uint64_t ticks) const {
        if (ticks <= start_ticks || now_ticks == start_ticks) return 0;
        const std::uint64_t d = ticks - start_ticks, span = now_ticks - start_ticks;
#if defined(__SIZEOF_INT128__)
        __extension__ typedef unsigned __int128 wide; // exact, as the binary log's reader converts
        return static_cast<std::uint64_t>(static_cast<wide>(d) * elapsed_ns / span);
#else
        return static_cast<std::uint64_t>(static_cast<long double>(d) * elapsed_ns / span);
#endif
    }
};

} // namespace sim
} // namespace hlsinstr
#endif

#endif
