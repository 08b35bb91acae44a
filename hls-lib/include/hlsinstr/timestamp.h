// hlsinstr: timestamps.
//
// In C simulation a timestamp is wall-clock nanoseconds since the first read (steady_clock), so
// it only orders and spaces events; cycles come from the analysis, not from this clock. Under
// synthesis the in-FPGA build reads a free-running hardware counter instead.
#ifndef HLSINSTR_TIMESTAMP_H
#define HLSINSTR_TIMESTAMP_H

#include "hlsinstr/config.h"

#if !HLSINSTR_SYNTHESIS
#include <chrono>
#include <cstdint>

namespace hlsinstr {
namespace sim {

inline std::uint64_t timestamp_ns() {
    typedef std::chrono::steady_clock clock;
    static const clock::time_point epoch = clock::now();
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - epoch).count());
}

} // namespace sim
} // namespace hlsinstr
#endif

#endif
