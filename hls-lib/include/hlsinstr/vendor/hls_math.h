// hlsinstr: what the open hls_math.h (hls4ml's copy of Xilinx's C-simulation headers) lacks.
// `hlsinstr sim` puts this directory before the kernel headers only when they are that open set
// (no hls_vector.h beside ap_int.h); with a Vitis installation its own hls_math.h is used.
//
// The open file declares hls::exp, sin, cos, asin, acos, atan and atan2 as templates for
// ap_fixed-like types only (they call x.to_double(); its atan2 does not compile). This file
// adds, in namespace hls (UG1399, "HLS Math Library"):
//  - float and double overloads of those and of sqrt, fabs, abs, floor, ceil, round, trunc, log,
//    log2, log10, exp2, pow, tan, sinh, cosh, tanh, fmin, fmax, fmod, copysign, recip, rsqrt,
//    and the float forms of each (sqrtf, atan2f, tanhf, ...: every name above with an `f`);
//  - for ap_fixed<W, I, Q, O, N> and ap_ufixed<...>: sqrt, fabs, abs, floor, ceil, round,
//    trunc, log, log2, log10, exp2, pow, tan, sinh, cosh, tanh, fmin, fmax, fmod, copysign,
//    recip, rsqrt, and atan2. Each is computed in double and converted to the argument's type
//    with that type's quantisation and overflow modes (fmin, fmax, fabs, floor, ceil, trunc and
//    copysign are exact). Vitis computes fixed-point functions with its own approximations,
//    which may differ from these in the last bits of the result; the value is the documented
//    mathematical function in both.
// Not modelled: half precision, hls::sincos, the integer (ap_int) forms.
#ifndef HLSINSTR_VENDOR_HLS_MATH_H
#define HLSINSTR_VENDOR_HLS_MATH_H

// #include_next (below) is a GCC/Clang extension: -Wpedantic must not turn it into an error.
#pragma GCC system_header

#include <cmath>

namespace hls {
// Declared before the open header, so its templates' calls (atan2) find them.
#define HLSINSTR_MATH_1(f)                                                                                       \
    inline float f(float x) { return std::f(x); }                                                                \
    inline double f(double x) { return std::f(x); }
#define HLSINSTR_MATH_2(f)                                                                                       \
    inline float f(float x, float y) { return std::f(x, y); }                                                    \
    inline double f(double x, double y) { return std::f(x, y); }
HLSINSTR_MATH_1(exp)
HLSINSTR_MATH_1(sin)
HLSINSTR_MATH_1(cos)
HLSINSTR_MATH_1(asin)
HLSINSTR_MATH_1(acos)
HLSINSTR_MATH_1(atan)
HLSINSTR_MATH_1(sqrt)
HLSINSTR_MATH_1(fabs)
HLSINSTR_MATH_1(abs)
HLSINSTR_MATH_1(floor)
HLSINSTR_MATH_1(ceil)
HLSINSTR_MATH_1(round)
HLSINSTR_MATH_1(trunc)
HLSINSTR_MATH_1(log)
HLSINSTR_MATH_1(log2)
HLSINSTR_MATH_1(log10)
HLSINSTR_MATH_1(exp2)
HLSINSTR_MATH_1(tan)
HLSINSTR_MATH_1(sinh)
HLSINSTR_MATH_1(cosh)
HLSINSTR_MATH_1(tanh)
HLSINSTR_MATH_2(atan2)
HLSINSTR_MATH_2(pow)
HLSINSTR_MATH_2(fmin)
HLSINSTR_MATH_2(fmax)
HLSINSTR_MATH_2(fmod)
HLSINSTR_MATH_2(copysign)
#undef HLSINSTR_MATH_1
#undef HLSINSTR_MATH_2
inline float recip(float x) { return 1.0f / x; }
inline double recip(double x) { return 1.0 / x; }
inline float rsqrt(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
// The float forms UG1399 lists beside each function (hls::atan2f, hls::tanhf, ...).
#define HLSINSTR_MATH_F1(f, g)                                                                                   \
    inline float f(float x) { return std::g(x); }
#define HLSINSTR_MATH_F2(f, g)                                                                                   \
    inline float f(float x, float y) { return std::g(x, y); }
HLSINSTR_MATH_F1(sqrtf, sqrt)
HLSINSTR_MATH_F1(sinf, sin)
HLSINSTR_MATH_F1(cosf, cos)
HLSINSTR_MATH_F1(tanf, tan)
HLSINSTR_MATH_F1(asinf, asin)
HLSINSTR_MATH_F1(acosf, acos)
HLSINSTR_MATH_F1(atanf, atan)
HLSINSTR_MATH_F1(sinhf, sinh)
HLSINSTR_MATH_F1(coshf, cosh)
HLSINSTR_MATH_F1(tanhf, tanh)
HLSINSTR_MATH_F1(expf, exp)
HLSINSTR_MATH_F1(exp2f, exp2)
HLSINSTR_MATH_F1(logf, log)
HLSINSTR_MATH_F1(log2f, log2)
HLSINSTR_MATH_F1(log10f, log10)
HLSINSTR_MATH_F1(fabsf, fabs)
HLSINSTR_MATH_F1(floorf, floor)
HLSINSTR_MATH_F1(ceilf, ceil)
HLSINSTR_MATH_F1(roundf, round)
HLSINSTR_MATH_F1(truncf, trunc)
HLSINSTR_MATH_F2(atan2f, atan2)
HLSINSTR_MATH_F2(powf, pow)
HLSINSTR_MATH_F2(fminf, fmin)
HLSINSTR_MATH_F2(fmaxf, fmax)
HLSINSTR_MATH_F2(fmodf, fmod)
HLSINSTR_MATH_F2(copysignf, copysign)
#undef HLSINSTR_MATH_F1
#undef HLSINSTR_MATH_F2
inline float recipf(float x) { return 1.0f / x; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
} // namespace hls

#include_next <hls_math.h>

#include "ap_fixed.h"

namespace hls {
#define HLSINSTR_FIXED_1(f, expr)                                                                                \
    template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>                                                     \
    ap_fixed<W, I, Q, O, N> f(ap_fixed<W, I, Q, O, N> x) {                                                       \
        const double d = x.to_double();                                                                          \
        return ap_fixed<W, I, Q, O, N>(expr);                                                                    \
    }                                                                                                            \
    template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>                                                     \
    ap_ufixed<W, I, Q, O, N> f(ap_ufixed<W, I, Q, O, N> x) {                                                     \
        const double d = x.to_double();                                                                          \
        return ap_ufixed<W, I, Q, O, N>(expr);                                                                   \
    }
#define HLSINSTR_FIXED_2(f, expr)                                                                                \
    template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>                                                     \
    ap_fixed<W, I, Q, O, N> f(ap_fixed<W, I, Q, O, N> x, ap_fixed<W, I, Q, O, N> y) {                            \
        const double a = x.to_double(), b = y.to_double();                                                       \
        return ap_fixed<W, I, Q, O, N>(expr);                                                                    \
    }                                                                                                            \
    template <int W, int I, ap_q_mode Q, ap_o_mode O, int N>                                                     \
    ap_ufixed<W, I, Q, O, N> f(ap_ufixed<W, I, Q, O, N> x, ap_ufixed<W, I, Q, O, N> y) {                         \
        const double a = x.to_double(), b = y.to_double();                                                       \
        return ap_ufixed<W, I, Q, O, N>(expr);                                                                   \
    }
HLSINSTR_FIXED_1(sqrt, std::sqrt(d))
HLSINSTR_FIXED_1(fabs, std::fabs(d))
HLSINSTR_FIXED_1(abs, std::fabs(d))
HLSINSTR_FIXED_1(floor, std::floor(d))
HLSINSTR_FIXED_1(ceil, std::ceil(d))
HLSINSTR_FIXED_1(round, std::round(d))
HLSINSTR_FIXED_1(trunc, std::trunc(d))
HLSINSTR_FIXED_1(log, std::log(d))
HLSINSTR_FIXED_1(log2, std::log2(d))
HLSINSTR_FIXED_1(log10, std::log10(d))
HLSINSTR_FIXED_1(exp2, std::exp2(d))
HLSINSTR_FIXED_1(tan, std::tan(d))
HLSINSTR_FIXED_1(sinh, std::sinh(d))
HLSINSTR_FIXED_1(cosh, std::cosh(d))
HLSINSTR_FIXED_1(tanh, std::tanh(d))
HLSINSTR_FIXED_1(recip, 1.0 / d)
HLSINSTR_FIXED_1(rsqrt, 1.0 / std::sqrt(d))
HLSINSTR_FIXED_2(pow, std::pow(a, b))
HLSINSTR_FIXED_2(fmin, std::fmin(a, b))
HLSINSTR_FIXED_2(fmax, std::fmax(a, b))
HLSINSTR_FIXED_2(fmod, std::fmod(a, b))
HLSINSTR_FIXED_2(copysign, std::copysign(a, b))
HLSINSTR_FIXED_2(atan2, std::atan2(a, b))
#undef HLSINSTR_FIXED_1
#undef HLSINSTR_FIXED_2
} // namespace hls

#endif
