// hlsinstr: what OpenCL C needs to compile as C++ for the CPU emulation; forced in front of
// every kernel file by hlsinstr-emu-build (g++ -include). See hlsinstr_emu.h for the model.
//
// Done with macros here: address-space qualifiers (__global global __local local __private
// __constant constant; `private` is left alone, it is a C++ keyword), __kernel/kernel,
// restrict, __attribute__((...)) removed (ocl2cpp.py reads the Intel ones first), scalar type
// names (uchar ushort uint ulong), the work-item functions, get_compute_id, the *_intel
// channel built-ins, get_time (the model clock), mem_fence (nothing), barrier (unsupported,
// exit code 3), min/max/clamp, and the vector types char2..double4 of 2 and 4 elements
// (.x .y .z .w, element-wise + - *, a broadcast constructor). Done by ocl2cpp.py: channel
// declarations and vector literals `(int4)(a, b, c, d)`.
// Not supported: vectors of 3, 8 or 16, swizzles beyond .x.y.z.w, .s0 names, images, pipes,
// atomics, printf's OpenCL conversions (C printf works), `private`.
#ifndef HLSINSTR_EMU_PRELUDE_H
#define HLSINSTR_EMU_PRELUDE_H

#define HLSINSTR_EMU 1

#include "hlsinstr_emu.h"

#include <cstdio>

namespace hlsinstr_emu {
namespace ocl {

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef uint64_t ulong;

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

template <class T>
T min(T a, T b) {
    return b < a ? b : a;
}
template <class T>
T max(T a, T b) {
    return a < b ? b : a;
}
template <class T>
T clamp(T x, T lo, T hi) {
    return min(max(x, lo), hi);
}

template <class T>
struct vec2 {
    T x, y;
    vec2() : x(), y() {}
    explicit vec2(T s) : x(s), y(s) {}
    vec2(T a, T b) : x(a), y(b) {}
};
template <class T>
struct vec4 {
    T x, y, z, w;
    vec4() : x(), y(), z(), w() {}
    explicit vec4(T s) : x(s), y(s), z(s), w(s) {}
    vec4(T a, T b, T c, T d) : x(a), y(b), z(c), w(d) {}
};
#define HLSINSTR_VEC_OP(op)                                                                    \
    template <class T>                                                                         \
    vec2<T> operator op(vec2<T> a, vec2<T> b) {                                                \
        return vec2<T>(a.x op b.x, a.y op b.y);                                                \
    }                                                                                          \
    template <class T>                                                                         \
    vec4<T> operator op(vec4<T> a, vec4<T> b) {                                                \
        return vec4<T>(a.x op b.x, a.y op b.y, a.z op b.z, a.w op b.w);                        \
    }
HLSINSTR_VEC_OP(+)
HLSINSTR_VEC_OP(-)
HLSINSTR_VEC_OP(*)
#undef HLSINSTR_VEC_OP

typedef vec2<char> char2;
typedef vec4<char> char4;
typedef vec2<uchar> uchar2;
typedef vec4<uchar> uchar4;
typedef vec2<short> short2;
typedef vec4<short> short4;
typedef vec2<ushort> ushort2;
typedef vec4<ushort> ushort4;
typedef vec2<int> int2;
typedef vec4<int> int4;
typedef vec2<uint> uint2;
typedef vec4<uint> uint4;
typedef vec2<long> long2;
typedef vec4<long> long4;
typedef vec2<ulong> ulong2;
typedef vec4<ulong> ulong4;
typedef vec2<float> float2;
typedef vec4<float> float4;
typedef vec2<double> double2;
typedef vec4<double> double4;

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
