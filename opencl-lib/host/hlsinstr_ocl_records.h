// hlsinstr: the iBuffer's record and commands as a host sees them — one definition for the
// profiler (hlsinstr_ocl_profiler.h) and the CPU emulation (emu/hlsinstr_emu.h). It must match
// hlsinstr_record and the commands of hlsinstr_ibuffer.cl. C++11.
#ifndef HLSINSTR_OCL_RECORDS_H
#define HLSINSTR_OCL_RECORDS_H

#include <cstdint>

namespace hlsinstr_ocl {

// hlsinstr_record: 32 bytes, little-endian, same fields in the same order.
struct Record {
    uint32_t kind;
    uint32_t unit;
    uint64_t time;
    uint64_t addr;
    int64_t value;
};
static_assert(sizeof(Record) == 32, "Record must match hlsinstr_record");

// Commands of the host interface kernel hlsinstr_host(cmd, unit, out).
enum : uint32_t { kCmdResetLinear = 0, kCmdResetCyclic = 1, kCmdSample = 2, kCmdStop = 3, kCmdRead = 4 };

// Record kinds.
enum : uint32_t {
    kRecSnapshot = 0,
    kRecHit = 1,
    kRecOutOfBounds = 2,
    kRecInvariant = 3,
    kRecConfigBounds = 13,
    kRecConfigWatch = 14,
    kRecHeader = 15
};

} // namespace hlsinstr_ocl

#endif
