// hlsinstr: OpenCL C 1.2 built-in functions for the CPU emulation (included by
// hlsinstr_emu_prelude.h, after hlsinstr_emu_vector.h), for scalars and for every vector type,
// element by element (OpenCL C 1.2, sections 6.12.2 to 6.12.6, 6.12.7 vload/vstore, 6.12.11
// atomics), and the explicit conversions `convert_<type>[_sat][_<rounding>]` and `as_<type>`
// (section 6.2.3 and 6.2.4: ocl2cpp.py turns those names into convert<...>() and as_type<...>()).
//
// Scalar overloads are templates: where the C library has a function of the same name
// (sqrt(double), abs(int)) the non-template one is taken for its own type, with the same
// result. Precision: the C library's, also for native_* and half_* (more precise than a board,
// never less). Atomics are real atomic read-modify-writes (GCC/Clang __atomic built-ins), so
// they hold between kernels running at the same time on different queues.
#ifndef HLSINSTR_EMU_BUILTINS_H
#define HLSINSTR_EMU_BUILTINS_H

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

#include "hlsinstr_emu_vector.h"

namespace hlsinstr_emu {
namespace ocl {
namespace impl {

template <class T>
using if_float = typename std::enable_if<std::is_floating_point<T>::value, int>::type;
template <class T>
using if_int = typename std::enable_if<std::is_integral<T>::value, int>::type;

// f applied to every element (of up to three vectors of one shape).
template <class R, class T, int N, class F>
vec<R, N> map(const vec<T, N>& a, F f) {
    vec<R, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = f(a.elem[i]);
    return r;
}

template <class T>
T fract_of(T x, T* whole) {
    T f = std::floor(x);
    *whole = f;
    return std::fmin(x - f, T(1) - std::numeric_limits<T>::epsilon() / 2);
}

} // namespace impl

// ---- math (6.12.2) --------------------------------------------------------------------------

#define HLSINSTR_MATH1(name, expr)                                                                \
    template <class T, impl::if_float<T> = 0>                                                   \
    T name(T x) {                                                                                 \
        return expr;                                                                              \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& v) {                                                          \
        return impl::map<T>(v, [](T x) { return name(x); });                                    \
    }
HLSINSTR_MATH1(acos, std::acos(x))
HLSINSTR_MATH1(acosh, std::acosh(x))
HLSINSTR_MATH1(acospi, std::acos(x) / T(M_PI))
HLSINSTR_MATH1(asin, std::asin(x))
HLSINSTR_MATH1(asinh, std::asinh(x))
HLSINSTR_MATH1(asinpi, std::asin(x) / T(M_PI))
HLSINSTR_MATH1(atan, std::atan(x))
HLSINSTR_MATH1(atanh, std::atanh(x))
HLSINSTR_MATH1(atanpi, std::atan(x) / T(M_PI))
HLSINSTR_MATH1(cbrt, std::cbrt(x))
HLSINSTR_MATH1(ceil, std::ceil(x))
HLSINSTR_MATH1(cos, std::cos(x))
HLSINSTR_MATH1(cosh, std::cosh(x))
HLSINSTR_MATH1(cospi, std::cos(T(M_PI) * x))
HLSINSTR_MATH1(erf, std::erf(x))
HLSINSTR_MATH1(erfc, std::erfc(x))
HLSINSTR_MATH1(exp, std::exp(x))
HLSINSTR_MATH1(exp2, std::exp2(x))
HLSINSTR_MATH1(exp10, std::pow(T(10), x))
HLSINSTR_MATH1(expm1, std::expm1(x))
HLSINSTR_MATH1(fabs, std::fabs(x))
HLSINSTR_MATH1(floor, std::floor(x))
HLSINSTR_MATH1(lgamma, std::lgamma(x))
HLSINSTR_MATH1(log, std::log(x))
HLSINSTR_MATH1(log2, std::log2(x))
HLSINSTR_MATH1(log10, std::log10(x))
HLSINSTR_MATH1(log1p, std::log1p(x))
HLSINSTR_MATH1(logb, std::logb(x))
HLSINSTR_MATH1(rint, std::rint(x))
HLSINSTR_MATH1(round, std::round(x))
HLSINSTR_MATH1(rsqrt, T(1) / std::sqrt(x))
HLSINSTR_MATH1(sin, std::sin(x))
HLSINSTR_MATH1(sinh, std::sinh(x))
HLSINSTR_MATH1(sinpi, std::sin(T(M_PI) * x))
HLSINSTR_MATH1(sqrt, std::sqrt(x))
HLSINSTR_MATH1(tan, std::tan(x))
HLSINSTR_MATH1(tanh, std::tanh(x))
HLSINSTR_MATH1(tanpi, std::tan(T(M_PI) * x))
HLSINSTR_MATH1(tgamma, std::tgamma(x))
HLSINSTR_MATH1(trunc, std::trunc(x))
HLSINSTR_MATH1(native_cos, std::cos(x))
HLSINSTR_MATH1(native_exp, std::exp(x))
HLSINSTR_MATH1(native_exp2, std::exp2(x))
HLSINSTR_MATH1(native_exp10, std::pow(T(10), x))
HLSINSTR_MATH1(native_log, std::log(x))
HLSINSTR_MATH1(native_log2, std::log2(x))
HLSINSTR_MATH1(native_log10, std::log10(x))
HLSINSTR_MATH1(native_recip, T(1) / x)
HLSINSTR_MATH1(native_rsqrt, T(1) / std::sqrt(x))
HLSINSTR_MATH1(native_sin, std::sin(x))
HLSINSTR_MATH1(native_sqrt, std::sqrt(x))
HLSINSTR_MATH1(native_tan, std::tan(x))
HLSINSTR_MATH1(half_cos, std::cos(x))
HLSINSTR_MATH1(half_exp, std::exp(x))
HLSINSTR_MATH1(half_exp2, std::exp2(x))
HLSINSTR_MATH1(half_exp10, std::pow(T(10), x))
HLSINSTR_MATH1(half_log, std::log(x))
HLSINSTR_MATH1(half_log2, std::log2(x))
HLSINSTR_MATH1(half_log10, std::log10(x))
HLSINSTR_MATH1(half_recip, T(1) / x)
HLSINSTR_MATH1(half_rsqrt, T(1) / std::sqrt(x))
HLSINSTR_MATH1(half_sin, std::sin(x))
HLSINSTR_MATH1(half_sqrt, std::sqrt(x))
HLSINSTR_MATH1(half_tan, std::tan(x))
#undef HLSINSTR_MATH1

// Two operands of one type; vectors also with a scalar second operand (fmin, fmax take one,
// and a scalar is widened for the others as in arithmetic).
#define HLSINSTR_MATH2(name, expr)                                                                \
    template <class T, impl::if_float<T> = 0>                                                   \
    T name(T x, T y) {                                                                            \
        return expr;                                                                              \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {                                      \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i]);                       \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_float<T> = 0, impl::if_scalar<S> = 0>         \
    vec<T, N> name(const vec<T, N>& a, S s) {                                                     \
        return name(a, vec<T, N>(s));                                                             \
    }
HLSINSTR_MATH2(atan2, std::atan2(x, y))
HLSINSTR_MATH2(atan2pi, std::atan2(x, y) / T(M_PI))
HLSINSTR_MATH2(copysign, std::copysign(x, y))
HLSINSTR_MATH2(fdim, std::fdim(x, y))
HLSINSTR_MATH2(fmax, std::fmax(x, y))
HLSINSTR_MATH2(fmin, std::fmin(x, y))
HLSINSTR_MATH2(fmod, std::fmod(x, y))
HLSINSTR_MATH2(hypot, std::hypot(x, y))
HLSINSTR_MATH2(maxmag, std::fabs(x) > std::fabs(y) ? x : std::fabs(y) > std::fabs(x) ? y : std::fmax(x, y))
HLSINSTR_MATH2(minmag, std::fabs(x) < std::fabs(y) ? x : std::fabs(y) < std::fabs(x) ? y : std::fmin(x, y))
HLSINSTR_MATH2(nextafter, std::nextafter(x, y))
HLSINSTR_MATH2(pow, std::pow(x, y))
HLSINSTR_MATH2(powr, std::pow(x, y))
HLSINSTR_MATH2(remainder, std::remainder(x, y))
HLSINSTR_MATH2(native_divide, x / y)
HLSINSTR_MATH2(native_powr, std::pow(x, y))
HLSINSTR_MATH2(half_divide, x / y)
HLSINSTR_MATH2(half_powr, std::pow(x, y))
#undef HLSINSTR_MATH2

// A floating operand and an int (or intN) one.
#define HLSINSTR_MATH_FI(name, expr)                                                              \
    template <class T, impl::if_float<T> = 0>                                                   \
    T name(T x, int n) {                                                                          \
        return expr;                                                                              \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& a, const vec<int, N>& b) {                                    \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i]);                       \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& a, int n) {                                                   \
        return name(a, vec<int, N>(n));                                                           \
    }
HLSINSTR_MATH_FI(pown, std::pow(x, T(n)))
HLSINSTR_MATH_FI(rootn, std::pow(x, T(1) / T(n)))
HLSINSTR_MATH_FI(ldexp, std::ldexp(x, n))
#undef HLSINSTR_MATH_FI

template <class T, impl::if_float<T> = 0>
T fma(T a, T b, T c) {
    return std::fma(a, b, c);
}
template <class T, impl::if_float<T> = 0>
T mad(T a, T b, T c) {
    return a * b + c;
}
template <class T, int N, impl::if_float<T> = 0>
vec<T, N> fma(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {
    vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = std::fma(a.elem[i], b.elem[i], c.elem[i]);
    return r;
}
template <class T, int N, impl::if_float<T> = 0>
vec<T, N> mad(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {
    return a * b + c;
}

template <class T, impl::if_float<T> = 0>
int ilogb(T x) {
    return std::ilogb(x);
}
template <class T, int N, impl::if_float<T> = 0>
vec<int, N> ilogb(const vec<T, N>& v) {
    return impl::map<int>(v, [](T x) { return std::ilogb(x); });
}
inline float nan(uint) {
    return std::numeric_limits<float>::quiet_NaN();
}

// Functions with a pointer result (private, local or global memory alike here).
template <class T, impl::if_float<T> = 0>
T fract(T x, T* whole) {
    return impl::fract_of(x, whole);
}
template <class T, impl::if_float<T> = 0>
T modf(T x, T* whole) {
    return std::modf(x, whole);
}
template <class T, impl::if_float<T> = 0>
T frexp(T x, int* e) {
    return std::frexp(x, e);
}
template <class T, impl::if_float<T> = 0>
T sincos(T x, T* c) {
    *c = std::cos(x);
    return std::sin(x);
}
template <class T, impl::if_float<T> = 0>
T remquo(T x, T y, int* q) {
    return std::remquo(x, y, q);
}
template <class T, impl::if_float<T> = 0>
T lgamma_r(T x, int* sign) {
    T r = std::lgamma(x);
    *sign = std::tgamma(x) < 0 ? -1 : 1;
    return r;
}
#define HLSINSTR_MATH_PTR(name, P)                                                                \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& v, vec<P, N>* out) {                                          \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(v.elem[i], &out->elem[i]);                   \
        return r;                                                                                 \
    }
HLSINSTR_MATH_PTR(fract, T)
HLSINSTR_MATH_PTR(modf, T)
HLSINSTR_MATH_PTR(frexp, int)
HLSINSTR_MATH_PTR(sincos, T)
HLSINSTR_MATH_PTR(lgamma_r, int)
#undef HLSINSTR_MATH_PTR

// ---- common (6.12.4) and integer (6.12.3) -------------------------------------------------

// min, max and clamp for any arithmetic type (integers and floats alike), mixed scalar types
// taking their common type; vectors with vectors or with a scalar.
template <class A, class B, impl::if_scalar<A> = 0, impl::if_scalar<B> = 0>
typename std::common_type<A, B>::type min(A a, B b) {
    typedef typename std::common_type<A, B>::type C;
    return C(b) < C(a) ? C(b) : C(a);
}
template <class A, class B, impl::if_scalar<A> = 0, impl::if_scalar<B> = 0>
typename std::common_type<A, B>::type max(A a, B b) {
    typedef typename std::common_type<A, B>::type C;
    return C(a) < C(b) ? C(b) : C(a);
}
template <class X, class L, class H, impl::if_scalar<X> = 0, impl::if_scalar<L> = 0, impl::if_scalar<H> = 0>
X clamp(X x, L lo, H hi) {
    return x < X(lo) ? X(lo) : X(hi) < x ? X(hi) : x;
}
#define HLSINSTR_VEC_MINMAX(name)                                                                 \
    template <class T, int N>                                                                     \
    vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {                                      \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i]);                       \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_scalar<S> = 0>                                  \
    vec<T, N> name(const vec<T, N>& a, S s) {                                                     \
        return name(a, vec<T, N>(s));                                                             \
    }
HLSINSTR_VEC_MINMAX(min)
HLSINSTR_VEC_MINMAX(max)
#undef HLSINSTR_VEC_MINMAX
template <class T, int N>
vec<T, N> clamp(const vec<T, N>& x, const vec<T, N>& lo, const vec<T, N>& hi) {
    vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = clamp(x.elem[i], lo.elem[i], hi.elem[i]);
    return r;
}
template <class T, int N, class L, class H, impl::if_scalar<L> = 0, impl::if_scalar<H> = 0>
vec<T, N> clamp(const vec<T, N>& x, L lo, H hi) {
    return clamp(x, vec<T, N>(lo), vec<T, N>(hi));
}

template <class T, impl::if_float<T> = 0>
T mix(T x, T y, T a) {
    return x + (y - x) * a;
}
template <class T, impl::if_float<T> = 0>
T step(T edge, T x) {
    return x < edge ? T(0) : T(1);
}
template <class T, impl::if_float<T> = 0>
T smoothstep(T e0, T e1, T x) {
    T t = clamp((x - e0) / (e1 - e0), T(0), T(1));
    return t * t * (T(3) - T(2) * t);
}
template <class T, impl::if_float<T> = 0>
T sign(T x) {
    return x > 0 ? T(1) : x < 0 ? T(-1) : std::isnan(x) ? T(0) : x;
}
template <class T, impl::if_float<T> = 0>
T degrees(T r) {
    return r * T(180 / M_PI);
}
template <class T, impl::if_float<T> = 0>
T radians(T d) {
    return d * T(M_PI / 180);
}
template <class T, int N, class U, impl::if_float<T> = 0>
vec<T, N> mix(const vec<T, N>& x, const vec<T, N>& y, const U& a) {
    return x + (y - x) * a;
}
template <class E, class T, int N, impl::if_float<T> = 0>
vec<T, N> step(const E& edge, const vec<T, N>& x) {
    vec<T, N> e(edge), r;
    for (int i = 0; i < N; i++) r.elem[i] = step(e.elem[i], x.elem[i]);
    return r;
}
template <class E, class T, int N, impl::if_float<T> = 0>
vec<T, N> smoothstep(const E& e0, const E& e1, const vec<T, N>& x) {
    vec<T, N> a(e0), b(e1), r;
    for (int i = 0; i < N; i++) r.elem[i] = smoothstep(a.elem[i], b.elem[i], x.elem[i]);
    return r;
}
#define HLSINSTR_COMMON1(name)                                                                    \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    vec<T, N> name(const vec<T, N>& v) {                                                          \
        return impl::map<T>(v, [](T x) { return name(x); });                                    \
    }
HLSINSTR_COMMON1(sign)
HLSINSTR_COMMON1(degrees)
HLSINSTR_COMMON1(radians)
#undef HLSINSTR_COMMON1

// Integer functions. Scalars first, then one vector form for each, element by element.
template <class T, impl::if_int<T> = 0>
typename std::make_unsigned<T>::type abs(T x) {
    typedef typename std::make_unsigned<T>::type U;
    return x < 0 ? U(0) - U(x) : U(x);
}
template <class T, impl::if_int<T> = 0>
typename std::make_unsigned<T>::type abs_diff(T x, T y) {
    typedef typename std::make_unsigned<T>::type U;
    return x > y ? U(U(x) - U(y)) : U(U(y) - U(x));
}
template <class T, impl::if_int<T> = 0>
T add_sat(T x, T y) {
    T r;
    if (__builtin_add_overflow(x, y, &r)) return y > 0 || std::is_unsigned<T>::value ? std::numeric_limits<T>::max() : std::numeric_limits<T>::min();
    return r;
}
template <class T, impl::if_int<T> = 0>
T sub_sat(T x, T y) {
    T r;
    if (__builtin_sub_overflow(x, y, &r)) return std::is_unsigned<T>::value || y > 0 ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    return r;
}
template <class T, impl::if_int<T> = 0>
T hadd(T x, T y) {
    return (x >> 1) + (y >> 1) + (x & y & 1);
}
template <class T, impl::if_int<T> = 0>
T rhadd(T x, T y) {
    return (x >> 1) + (y >> 1) + ((x | y) & 1);
}
template <class T, impl::if_int<T> = 0>
T clz(T x) {
    typedef typename std::make_unsigned<T>::type U;
    U u = U(x);
    T n = 0;
    for (int b = int(sizeof(T) * 8) - 1; b >= 0 && !((u >> b) & 1); b--) n++;
    return n;
}
template <class T, impl::if_int<T> = 0>
T popcount(T x) {
    typedef typename std::make_unsigned<T>::type U;
    U u = U(x);
    T n = 0;
    for (; u; u &= U(u - 1)) n++;
    return n;
}
template <class T, impl::if_int<T> = 0>
T rotate(T v, T by) {
    typedef typename std::make_unsigned<T>::type U;
    const unsigned bits = sizeof(T) * 8;
    unsigned s = unsigned(U(by) % bits);
    U u = U(v);
    return T(s == 0 ? u : U(u << s) | U(u >> (bits - s)));
}
template <class T, impl::if_int<T> = 0>
T mul_hi(T x, T y) {
    if constexpr (sizeof(T) < 8) {
        typedef typename std::conditional<std::is_signed<T>::value, int64_t, uint64_t>::type W;
        return T((W(x) * W(y)) >> (sizeof(T) * 8));
    } else {
        typedef typename std::conditional<std::is_signed<T>::value, __int128, unsigned __int128>::type W;
        return T((W(x) * W(y)) >> 64);
    }
}
template <class T, impl::if_int<T> = 0>
T mad_hi(T a, T b, T c) {
    return mul_hi(a, b) + c;
}
template <class T, impl::if_int<T> = 0>
T mad_sat(T a, T b, T c) {
    T p;
    if (__builtin_mul_overflow(a, b, &p))
        return (a < 0) != (b < 0) ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max();
    return add_sat(p, c);
}
template <class T, impl::if_int<T> = 0>
T mul24(T x, T y) {
    return x * y;
}
template <class T, impl::if_int<T> = 0>
T mad24(T x, T y, T z) {
    return x * y + z;
}
inline short upsample(char hi, uchar lo) {
    return short((uint(uchar(hi)) << 8) | lo);
}
inline ushort upsample(uchar hi, uchar lo) {
    return ushort((uint(hi) << 8) | lo);
}
inline int upsample(short hi, ushort lo) {
    return int((uint(ushort(hi)) << 16) | lo);
}
inline uint upsample(ushort hi, ushort lo) {
    return (uint(hi) << 16) | lo;
}
inline long upsample(int hi, uint lo) {
    return long((ulong(uint(hi)) << 32) | lo);
}
inline ulong upsample(uint hi, uint lo) {
    return (ulong(hi) << 32) | lo;
}
template <class T, int N, impl::if_int<T> = 0>
vec<typename std::make_unsigned<T>::type, N> abs(const vec<T, N>& v) {
    return impl::map<typename std::make_unsigned<T>::type>(v, [](T x) { return abs(x); });
}
template <class T, int N, impl::if_int<T> = 0>
vec<typename std::make_unsigned<T>::type, N> abs_diff(const vec<T, N>& a, const vec<T, N>& b) {
    vec<typename std::make_unsigned<T>::type, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = abs_diff(a.elem[i], b.elem[i]);
    return r;
}
#define HLSINSTR_INT1(name)                                                                       \
    template <class T, int N, impl::if_int<T> = 0>                                              \
    vec<T, N> name(const vec<T, N>& v) {                                                          \
        return impl::map<T>(v, [](T x) { return name(x); });                                    \
    }
HLSINSTR_INT1(clz)
HLSINSTR_INT1(popcount)
#undef HLSINSTR_INT1
#define HLSINSTR_INT2(name)                                                                       \
    template <class T, int N, impl::if_int<T> = 0>                                              \
    vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {                                      \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i]);                       \
        return r;                                                                                 \
    }
HLSINSTR_INT2(add_sat)
HLSINSTR_INT2(sub_sat)
HLSINSTR_INT2(hadd)
HLSINSTR_INT2(rhadd)
HLSINSTR_INT2(rotate)
HLSINSTR_INT2(mul_hi)
HLSINSTR_INT2(mul24)
#undef HLSINSTR_INT2
#define HLSINSTR_INT3(name)                                                                       \
    template <class T, int N, impl::if_int<T> = 0>                                              \
    vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b, const vec<T, N>& c) {                  \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i], c.elem[i]);            \
        return r;                                                                                 \
    }
HLSINSTR_INT3(mad_hi)
HLSINSTR_INT3(mad_sat)
HLSINSTR_INT3(mad24)
#undef HLSINSTR_INT3

// ---- geometric (6.12.5): float and double scalars and 2-, 3- and 4-vectors ------------------

template <class T, impl::if_float<T> = 0>
T dot(T a, T b) {
    return a * b;
}
template <class T, int N, impl::if_float<T> = 0>
T dot(const vec<T, N>& a, const vec<T, N>& b) {
    static_assert(N <= 4, "geometric functions take vectors of up to 4 elements");
    T s = 0;
    for (int i = 0; i < N; i++) s += a.elem[i] * b.elem[i];
    return s;
}
template <class T, int N, impl::if_float<T> = 0>
vec<T, N> cross(const vec<T, N>& a, const vec<T, N>& b) {
    static_assert(N == 3 || N == 4, "cross takes 3- or 4-element vectors");
    vec<T, N> r(T(0));
    r.elem[0] = a.elem[1] * b.elem[2] - a.elem[2] * b.elem[1];
    r.elem[1] = a.elem[2] * b.elem[0] - a.elem[0] * b.elem[2];
    r.elem[2] = a.elem[0] * b.elem[1] - a.elem[1] * b.elem[0];
    return r;
}
template <class V>
auto length(const V& v) -> decltype(dot(v, v)) {
    return std::sqrt(dot(v, v));
}
template <class V>
auto distance(const V& a, const V& b) -> decltype(dot(a, b)) {
    return length(a - b);
}
template <class V>
auto normalize(const V& v) -> decltype(v / length(v)) {
    auto l = length(v);
    return l == 0 ? v : v / l;
}
template <class V>
auto fast_length(const V& v) -> decltype(length(v)) {
    return length(v);
}
template <class V>
auto fast_distance(const V& a, const V& b) -> decltype(distance(a, b)) {
    return distance(a, b);
}
template <class V>
auto fast_normalize(const V& v) -> decltype(normalize(v)) {
    return normalize(v);
}

// ---- relational (6.12.6): scalars give 1 or 0, vectors -1 or 0 per element ------------------

#define HLSINSTR_REL(name, expr)                                                                  \
    template <class T, impl::if_float<T> = 0>                                                   \
    int name(T x, T y) {                                                                          \
        return (expr) ? 1 : 0;                                                                    \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    mask_vec<T, N> name(const vec<T, N>& a, const vec<T, N>& b) {                                 \
        mask_vec<T, N> r;                                                                         \
        for (int i = 0; i < N; i++) r.elem[i] = name(a.elem[i], b.elem[i]) ? -1 : 0;              \
        return r;                                                                                 \
    }
HLSINSTR_REL(isequal, x == y)
HLSINSTR_REL(isnotequal, x != y)
HLSINSTR_REL(isgreater, x > y)
HLSINSTR_REL(isgreaterequal, x >= y)
HLSINSTR_REL(isless, x < y)
HLSINSTR_REL(islessequal, x <= y)
HLSINSTR_REL(islessgreater, x < y || x > y)
HLSINSTR_REL(isordered, !std::isnan(x) && !std::isnan(y))
HLSINSTR_REL(isunordered, std::isnan(x) || std::isnan(y))
#undef HLSINSTR_REL
#define HLSINSTR_CLASS(name, expr)                                                                \
    template <class T, impl::if_float<T> = 0>                                                   \
    int name(T x) {                                                                               \
        return (expr) ? 1 : 0;                                                                    \
    }                                                                                             \
    template <class T, int N, impl::if_float<T> = 0>                                            \
    mask_vec<T, N> name(const vec<T, N>& v) {                                                     \
        mask_vec<T, N> r;                                                                         \
        for (int i = 0; i < N; i++) r.elem[i] = name(v.elem[i]) ? -1 : 0;                         \
        return r;                                                                                 \
    }
HLSINSTR_CLASS(isfinite, std::isfinite(x))
HLSINSTR_CLASS(isinf, std::isinf(x))
HLSINSTR_CLASS(isnan, std::isnan(x))
HLSINSTR_CLASS(isnormal, std::isnormal(x))
HLSINSTR_CLASS(signbit, std::signbit(x))
#undef HLSINSTR_CLASS

// any / all look at the most significant bit of each element.
template <class T, impl::if_int<T> = 0>
int any(T x) {
    return x < 0;
}
template <class T, impl::if_int<T> = 0>
int all(T x) {
    return x < 0;
}
template <class T, int N, impl::if_int<T> = 0>
int any(const vec<T, N>& v) {
    for (int i = 0; i < N; i++)
        if (v.elem[i] < 0) return 1;
    return 0;
}
template <class T, int N, impl::if_int<T> = 0>
int all(const vec<T, N>& v) {
    for (int i = 0; i < N; i++)
        if (!(v.elem[i] < 0)) return 0;
    return 1;
}
// select(a, b, c): scalars take b when c is not 0; vectors per element when c's MSB is set.
template <class T, class C, impl::if_scalar<T> = 0, impl::if_int<C> = 0>
T select(T a, T b, C c) {
    return c ? b : a;
}
template <class T, int N, class C>
vec<T, N> select(const vec<T, N>& a, const vec<T, N>& b, const vec<C, N>& c) {
    vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = c.elem[i] < 0 ? b.elem[i] : a.elem[i];
    return r;
}
template <class T>
T bitselect(T a, T b, T c) {
    static_assert(std::is_trivially_copyable<T>::value, "bitselect takes plain values");
    unsigned char x[sizeof(T)], y[sizeof(T)], m[sizeof(T)];
    std::memcpy(x, &a, sizeof(T));
    std::memcpy(y, &b, sizeof(T));
    std::memcpy(m, &c, sizeof(T));
    for (size_t i = 0; i < sizeof(T); i++) x[i] = (unsigned char)((x[i] & ~m[i]) | (y[i] & m[i]));
    T r;
    std::memcpy(static_cast<void*>(&r), x, sizeof(T));
    return r;
}

// ---- vload / vstore (6.12.7) --------------------------------------------------------------

#define HLSINSTR_VLOAD(n)                                                                         \
    template <class T>                                                                            \
    vec<typename std::remove_cv<T>::type, n> vload##n(size_t offset, T* p) {                      \
        vec<typename std::remove_cv<T>::type, n> r;                                               \
        for (int i = 0; i < n; i++) r.elem[i] = p[offset * n + i];                                \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, class U>                                                                   \
    void vstore##n(const vec<T, n>& v, size_t offset, U* p) {                                     \
        for (int i = 0; i < n; i++) p[offset * n + i] = v.elem[i];                                \
    }
HLSINSTR_VLOAD(2)
HLSINSTR_VLOAD(3)
HLSINSTR_VLOAD(4)
HLSINSTR_VLOAD(8)
HLSINSTR_VLOAD(16)
#undef HLSINSTR_VLOAD

// ---- conversions (6.2.3, 6.2.4) -------------------------------------------------------------

enum class Round { Default, Rte, Rtz, Rtp, Rtn };

namespace impl {
template <class D, bool Sat, Round R, class S>
D convert_scalar(S s) {
    if constexpr (std::is_floating_point<S>::value && std::is_integral<D>::value) {
        S r = R == Round::Rte ? std::nearbyint(s) : R == Round::Rtp ? std::ceil(s) : R == Round::Rtn ? std::floor(s) : std::trunc(s);
        if (Sat) {
            if (std::isnan(r)) return D(0);
            if (r <= S(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
            if (r >= S(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
        }
        return D(r);
    } else if constexpr (std::is_integral<S>::value && std::is_integral<D>::value) {
        if (Sat) {
            typedef typename std::conditional<std::is_signed<S>::value, long long, unsigned long long>::type W;
            if (std::is_signed<S>::value && W(s) < 0 && (std::is_unsigned<D>::value || (long long)s < (long long)std::numeric_limits<D>::min()))
                return std::numeric_limits<D>::min();
            if (!(std::is_signed<S>::value && W(s) < 0) && (unsigned long long)s > (unsigned long long)std::numeric_limits<D>::max())
                return std::numeric_limits<D>::max();
        }
        return D(s);
    } else {
        return D(s);
    }
}
} // namespace impl

template <class D, bool Sat = false, Round R = Round::Default, class S, impl::if_scalar<S> = 0>
D convert(S s) {
    if constexpr (impl::is_vec<D>::value) {
        return D(impl::convert_scalar<typename D::value_type, Sat, R>(s));
    } else {
        return impl::convert_scalar<D, Sat, R>(s);
    }
}
template <class D, bool Sat = false, Round R = Round::Default, class T, int N>
D convert(const vec<T, N>& v) {
    static_assert(impl::is_vec<D>::value && D::size == N, "convert_<type>N takes a vector of N elements");
    D r;
    for (int i = 0; i < N; i++) r.elem[i] = impl::convert_scalar<typename D::value_type, Sat, R>(v.elem[i]);
    return r;
}

// as_<type>: the same bytes read as another type of the same size.
template <class D, class S>
D as_type(const S& s) {
    static_assert(sizeof(D) == sizeof(S) || (impl::is_vec<D>::value && impl::is_vec<S>::value),
                  "as_<type> needs a type of the same size");
    D d;
    std::memcpy(static_cast<void*>(&d), &s, sizeof(D) < sizeof(S) ? sizeof(D) : sizeof(S));
    return d;
}

// ---- atomics (6.12.11, and the cl_khr_*_atomics atom_* names) -------------------------------

#define HLSINSTR_ATOMIC(name, alias, builtin)                                                     \
    template <class T, class U>                                                                   \
    T name(volatile T* p, U v) {                                                                  \
        return builtin(const_cast<T*>(p), T(v), __ATOMIC_SEQ_CST);                                \
    }                                                                                             \
    template <class T, class U>                                                                   \
    T alias(volatile T* p, U v) {                                                                 \
        return builtin(const_cast<T*>(p), T(v), __ATOMIC_SEQ_CST);                                \
    }
HLSINSTR_ATOMIC(atomic_add, atom_add, __atomic_fetch_add)
HLSINSTR_ATOMIC(atomic_sub, atom_sub, __atomic_fetch_sub)
HLSINSTR_ATOMIC(atomic_and, atom_and, __atomic_fetch_and)
HLSINSTR_ATOMIC(atomic_or, atom_or, __atomic_fetch_or)
HLSINSTR_ATOMIC(atomic_xor, atom_xor, __atomic_fetch_xor)
#undef HLSINSTR_ATOMIC

template <class T, class U>
T atomic_xchg(volatile T* p, U v) {
    return __atomic_exchange_n(const_cast<T*>(p), T(v), __ATOMIC_SEQ_CST);
}
// float has no __atomic_exchange_n: exchange its bits.
inline float atomic_xchg(volatile float* p, float v) {
    uint bits, old;
    std::memcpy(&bits, &v, 4);
    old = __atomic_exchange_n(reinterpret_cast<uint*>(const_cast<float*>(p)), bits, __ATOMIC_SEQ_CST);
    float r;
    std::memcpy(&r, &old, 4);
    return r;
}
template <class T>
T atomic_inc(volatile T* p) {
    return __atomic_fetch_add(const_cast<T*>(p), T(1), __ATOMIC_SEQ_CST);
}
template <class T>
T atomic_dec(volatile T* p) {
    return __atomic_fetch_sub(const_cast<T*>(p), T(1), __ATOMIC_SEQ_CST);
}
template <class T, class U, class V>
T atomic_cmpxchg(volatile T* p, U cmp, V val) {
    T expected = T(cmp);
    __atomic_compare_exchange_n(const_cast<T*>(p), &expected, T(val), false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
template <class T, class U>
T atomic_min(volatile T* p, U v) {
    T old = __atomic_load_n(const_cast<T*>(p), __ATOMIC_SEQ_CST);
    while (T(v) < old &&
           !__atomic_compare_exchange_n(const_cast<T*>(p), &old, T(v), true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
template <class T, class U>
T atomic_max(volatile T* p, U v) {
    T old = __atomic_load_n(const_cast<T*>(p), __ATOMIC_SEQ_CST);
    while (old < T(v) &&
           !__atomic_compare_exchange_n(const_cast<T*>(p), &old, T(v), true, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
    return old;
}
template <class T, class U>
T atom_xchg(volatile T* p, U v) {
    return atomic_xchg(p, v);
}
template <class T>
T atom_inc(volatile T* p) {
    return atomic_inc(p);
}
template <class T>
T atom_dec(volatile T* p) {
    return atomic_dec(p);
}
template <class T, class U, class V>
T atom_cmpxchg(volatile T* p, U cmp, V val) {
    return atomic_cmpxchg(p, cmp, val);
}
template <class T, class U>
T atom_min(volatile T* p, U v) {
    return atomic_min(p, v);
}
template <class T, class U>
T atom_max(volatile T* p, U v) {
    return atomic_max(p, v);
}

} // namespace ocl
} // namespace hlsinstr_emu

#endif
