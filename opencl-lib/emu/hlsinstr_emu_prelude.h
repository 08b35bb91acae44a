// hlsinstr: what OpenCL C needs to compile as C++ for the CPU emulation; forced in front of
// every kernel file by hlsinstr-emu-build (g++ -include). See hlsinstr_emu.h for the model.
//
// Done with macros here: address-space qualifiers (__global global __local local __private
// __constant constant; `private` is left alone, it is a C++ keyword), __kernel/kernel,
// restrict, __attribute__((...)) removed (ocl2cpp.py reads the Intel ones first), the
// work-item functions, get_compute_id, the *_intel channel built-ins, get_time (the model
// clock), mem_fence (nothing), barrier (unsupported, exit code 3). The vector types of 2, 3, 4,
// 8 and 16 elements are in hlsinstr_emu_vector.h, the OpenCL C 1.2 built-in functions (math,
// common, integer, geometric, relational, vload/vstore, conversions, atomics) in
// hlsinstr_emu_builtins.h. Done by ocl2cpp.py: channel declarations, vector literals
// `(int4)(a, b, c, d)`, swizzles of several components, convert_<type>() and as_<type>().
// Not supported: .even/.odd, images, pipes, printf's vector conversions (C printf works),
// `private`.
#ifndef HLSINSTR_EMU_PRELUDE_H
#define HLSINSTR_EMU_PRELUDE_H

#define HLSINSTR_EMU 1

#include "hlsinstr_emu.h"
#include "hlsinstr_emu_builtins.h"
#include "hlsinstr_emu_vector.h"

#include <cstdio>

namespace hlsinstr_emu {
namespace ocl {

inline size_t get_global_id(uint d) { return d < 3 ? detail::wi().gid[d] : 0; }
inline size_t get_local_id(uint d) { return d < 3 ? detail::wi().lid[d] : 0; }
inline size_t get_group_id(uint d) { return d < 3 ? detail::wi().grp[d] : 0; }
inline size_t get_global_size(uint d) { return d < 3 ? detail::wi().gsize[d] : 1; }
inline size_t get_local_size(uint d) { return d < 3 ? detail::wi().lsize[d] : 1; }
inline size_t get_num_groups(uint d) { return d < 3 ? detail::wi().gsize[d] / detail::wi().lsize[d] : 1; }
inline uint get_work_dim() { return detail::wi().dims; }
inline uint get_compute_id(uint d) { return d == 0 ? detail::wi().compute_id : 0; }

inline ulong get_time(ulong) { return detail::wi().now; }

template <class T>
T read_channel_intel(Channel<T>& c) {
    return c.read();
}
template <class T>
T read_channel_nb_intel(Channel<T>& c, bool* valid) {
    return c.read_nb(valid);
}
template <class T, class U>
void write_channel_intel(Channel<T>& c, const U& v) {
    c.write(static_cast<T>(v));
}
template <class T, class U>
bool write_channel_nb_intel(Channel<T>& c, const U& v) {
    return c.write_nb(static_cast<T>(v));
}

// Emulation only: a blocking write that stands for a hardware non-blocking write to a reader
// that takes one element every cycle (a probe to its iBuffer unit): it waits for space, since
// the emulated reader is a slower thread, but the wait costs the writer no model time, since
// the hardware writer never waits there.
template <class T, class U>
void hlsinstr_emu_write_untimed(Channel<T>& c, const U& v) {
    c.write_untimed(static_cast<T>(v));
}

// Emulation only: waits until the channel's reader has taken every element (library code that
// must order two channels, e.g. a watch configuration before the first probe).
template <class T>
void hlsinstr_emu_drain(Channel<T>& c) {
    while (c.size() != 0) std::this_thread::sleep_for(std::chrono::microseconds(100));
}

enum { CLK_LOCAL_MEM_FENCE = 1, CLK_GLOBAL_MEM_FENCE = 2, CLK_CHANNEL_MEM_FENCE = 4 };
inline void mem_fence(int) {}
inline void barrier(int) {
    std::fprintf(stderr, "hlsinstr emulate: barrier() is not supported (work-items run one after another)\n");
    std::_Exit(kExitUnsupported);
}

} // namespace ocl
} // namespace hlsinstr_emu

using namespace hlsinstr_emu::ocl;

#define __kernel
#define kernel
#define __global
#define global
#define __local
#define local
#define __private
#define __constant const
#define constant const
#define restrict __restrict
#define __attribute__(x)
#define HLSINSTR_EMU_DELAY(n) hlsinstr_emu::delay(n)

#endif
