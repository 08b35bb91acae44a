// hlsinstr: timestamps.
//
// In C simulation a timestamp is wall-clock nanoseconds since the first read (steady_clock), so
// it only orders and spaces events; cycles come from the analysis, not from this clock. Under
// synthesis the in-FPGA build reads a free-running hardware counter instead.
#ifndef HLSINSTR_TIMESTAMP_H
#define HLSINSTR_TIMESTAMP_H

#include "hlsinstr/config.h"

#if !HLSINSTR_SYNTHESIS
#include <atomic>
#include <chrono>
#include <cstdint>

namespace hlsinstr {
namespace sim {

// The first read's clock value, in ns; 0 until then. A class template's static member: one
// definition across translation units, constant-initialized (no guard of the C++ runtime).
template <class Unused = void>
struct TimestampEpoch {
    static std::atomic<std::int64_t> ns;
};
template <class Unused>
std::atomic<std::int64_t> TimestampEpoch<Unused>::ns(0);

inline std::uint64_t timestamp_ns() {
    const std::int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count();
    std::int64_t epoch = TimestampEpoch<>::ns.load(std::memory_order_relaxed);
    // The first reader sets the epoch; a thread that lost the race reads the winner's.
    if (epoch == 0 && !TimestampEpoch<>::ns.compare_exchange_strong(epoch, now)) {
    } else if (epoch == 0) {
        epoch = now;
    }
    return now > epoch ? static_cast<std::uint64_t>(now - epoch) : 0;
}

} // namespace sim
} // namespace hlsinstr
#endif

#endif
