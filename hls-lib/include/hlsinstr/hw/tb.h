// hlsinstr: testbench side of the in-FPGA build in C simulation.
//
// The generated hlsinstr_top.h routes the testbench's calls of the original top to the new top
// and writes each call's debug buffer to a file, as the board's host program does:
// `$HLSINSTR_DUMP` (or `hlsinstr-dbg.bin`) for the first call, `<name>-<k>.bin` for call k > 1.
// A build with both the monitor and the trace buffer writes the trace to `<name>-trace.bin`.
#ifndef HLSINSTR_HW_TB_H
#define HLSINSTR_HW_TB_H

#include "hlsinstr/config.h"
#include "hlsinstr/hw/monitor.h"

// The rewritten testbench calls `HLSINSTR_TB_CALL(top)(args)`: the shim in hlsinstr_top.h.
#define HLSINSTR_TB_CALL(top) hlsinstr_tb_##top

#if !HLSINSTR_SYNTHESIS
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hlsinstr {
namespace hw {
namespace tb {

/// The dump file of call `call` (1, 2, ...), `suffix` before the extension (`-trace`).
inline std::string dump_path(unsigned call, const char* suffix = "") {
    const char* env = std::getenv("HLSINSTR_DUMP");
    std::string base = env && *env ? env : "hlsinstr-dbg.bin";
    std::string::size_type slash = base.rfind('/');
    std::string::size_type dot = base.rfind('.');
    if (dot != std::string::npos && slash != std::string::npos && dot < slash) dot = std::string::npos;
    std::string stem = dot == std::string::npos ? base : base.substr(0, dot);
    std::string ext = dot == std::string::npos ? "" : base.substr(dot);
    return stem + suffix + (call <= 1 ? std::string() : "-" + std::to_string(call)) + ext;
}

/// Write `words` little-endian 64-bit words to `path`; a failure is reported, never fatal to the
/// testbench.
inline void write_words(const std::string& path, const dump_word* dbg, unsigned long long words) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    bool ok = f != 0;
    for (unsigned long long i = 0; ok && i < words; ++i) {
        unsigned char b[8];
        for (int k = 0; k < 8; ++k) b[k] = static_cast<unsigned char>(dbg[i] >> (8 * k));
        ok = std::fwrite(b, 1, 8, f) == 8;
    }
    if (f && std::fclose(f) != 0) ok = false;
    if (!ok) std::fprintf(stderr, "hlsinstr: cannot write the debug dump %s\n", path.c_str());
}

/// Write call k's monitor dump (k counts the calls of this function).
inline void write_dump(const dump_word* dbg, int words) {
    static unsigned calls = 0;
    write_words(dump_path(++calls), dbg, static_cast<unsigned long long>(words));
}

} // namespace tb
} // namespace hw
} // namespace hlsinstr
#endif

#endif
