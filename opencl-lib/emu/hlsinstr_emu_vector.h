// hlsinstr: OpenCL C vector types for the CPU emulation (included by hlsinstr_emu_prelude.h).
//
// charN ucharN shortN ushortN intN uintN longN ulongN floatN doubleN for N = 2, 3, 4, 8, 16, as
// in OpenCL C 1.2 (section 6.1.2): components .x .y .z .w (N <= 4), .s0 ... .sF / .sA ... .sF,
// .lo and .hi (N >= 4; for N = 2 they are scalars); v[i]; literals from scalars and vectors
// (`float4(f2, 0.0f, 1.0f)`, ocl2cpp.py turns `(float4)(...)` into that) and a scalar broadcast;
// element-wise arithmetic, bitwise and shift operators between vectors and between a vector
// and a scalar (the scalar is converted to the element type and widened, section 6.3), compound
// assignments, unary - + ~ !, and comparisons giving the signed mask vector (-1 true, 0 false).
// Swizzles of several components (.xy, .zyx, .s01, .s3210) read and assign through swz<...>()
// and swz_ref<...>(), which ocl2cpp.py writes for them. A 3-element vector takes the storage
// of 4, as in OpenCL. Not modelled: .even/.odd, && and || between vectors.
#ifndef HLSINSTR_EMU_VECTOR_H
#define HLSINSTR_EMU_VECTOR_H

#include <cstdint>
#include <type_traits>

namespace hlsinstr_emu {
namespace ocl {

typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef uint64_t ulong;

template <class T, int N>
struct vec;

namespace impl {

template <class T, int N>
struct vec_storage;
template <class T>
struct vec_storage<T, 2> {
    union {
        T elem[2];
        struct {
            T x, y;
        };
        struct {
            T s0, s1;
        };
        struct {
            T lo, hi;
        };
    };
};
template <class T>
struct vec_storage<T, 3> {
    union {
        T elem[4];
        struct {
            T x, y, z;
        };
        struct {
            T s0, s1, s2;
        };
    };
};
template <class T>
struct vec_storage<T, 4> {
    union {
        T elem[4];
        struct {
            T x, y, z, w;
        };
        struct {
            T s0, s1, s2, s3;
        };
        struct {
            vec<T, 2> lo, hi;
        };
    };
};
template <class T>
struct vec_storage<T, 8> {
    union {
        T elem[8];
        struct {
            T s0, s1, s2, s3, s4, s5, s6, s7;
        };
        struct {
            vec<T, 4> lo, hi;
        };
    };
};
template <class T>
struct vec_storage<T, 16> {
    union {
        T elem[16];
        struct {
            T s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, sa, sb, sc, sd, se, sf;
        };
        struct {
            T hlsinstr_pad_[10];
            T sA, sB, sC, sD, sE, sF;
        };
        struct {
            vec<T, 8> lo, hi;
        };
    };
};

template <class A>
struct is_vec : std::false_type {};
template <class T, int N>
struct is_vec<vec<T, N>> : std::true_type {};

// Elements an argument of a vector literal contributes.
template <class A>
constexpr int count_of() {
    if constexpr (is_vec<A>::value)
        return A::size;
    else
        return 1;
}

template <class T>
void put(T*, int&) {}
template <class T, class A, class... R>
void put(T* e, int& k, const A& a, const R&... r) {
    if constexpr (is_vec<A>::value) {
        for (int i = 0; i < A::size; i++) e[k++] = static_cast<T>(a.elem[i]);
    } else {
        e[k++] = static_cast<T>(a);
    }
    put(e, k, r...);
}

// The signed integer of the same size: the element type of a comparison's result.
template <size_t S>
struct mask_of;
template <>
struct mask_of<1> {
    typedef char type;
};
template <>
struct mask_of<2> {
    typedef short type;
};
template <>
struct mask_of<4> {
    typedef int type;
};
template <>
struct mask_of<8> {
    typedef long type;
};

template <class S>
using if_scalar = typename std::enable_if<std::is_arithmetic<S>::value, int>::type;

} // namespace impl

template <class T, int N>
struct vec : impl::vec_storage<T, N> {
    typedef T value_type;
    static constexpr int size = N;
    vec() = default;
    // A scalar widened to every element (OpenCL C 6.3: also in assignments and operators).
    template <class S, impl::if_scalar<S> = 0>
    vec(S s) {
        for (int i = 0; i < N; i++) this->elem[i] = static_cast<T>(s);
    }
    // A vector literal: scalars and vectors of N elements in all.
    template <class A, class B, class... R>
    vec(const A& a, const B& b, const R&... r) {
        static_assert(impl::count_of<A>() + impl::count_of<B>() + (impl::count_of<R>() + ... + 0) == N,
                      "a vector literal needs exactly as many elements as the vector has");
        int k = 0;
        impl::put(this->elem, k, a, b, r...);
    }
    T& operator[](int i) { return this->elem[i]; }
    const T& operator[](int i) const { return this->elem[i]; }
    // Swizzles of several components (ocl2cpp.py turns `v.xy` into `v.swz<0, 1>()`, and `v.xy`
    // on the left of an assignment into `v.swz_ref<0, 1>()`).
    template <int... I>
    vec<T, sizeof...(I)> swz() const {
        return vec<T, sizeof...(I)>(this->elem[I]...);
    }
    template <int... I>
    struct SwzRef {
        vec& v;
        static constexpr int M = sizeof...(I);
        SwzRef& operator=(const vec<T, M>& x) {
            const int idx[] = {I...};
            for (int k = 0; k < M; k++) v.elem[idx[k]] = x.elem[k];
            return *this;
        }
        template <class S, impl::if_scalar<S> = 0>
        SwzRef& operator=(S s) {
            return *this = vec<T, M>(s);
        }
        operator vec<T, M>() const { return v.template swz<I...>(); }
#define HLSINSTR_SWZ_COMPOUND(op)                                                                 \
    template <class U>                                                                            \
    SwzRef& operator op##=(const U& x) {                                                          \
        return *this = vec<T, M>(v.template swz<I...>() op x);                                    \
    }
        HLSINSTR_SWZ_COMPOUND(+)
        HLSINSTR_SWZ_COMPOUND(-)
        HLSINSTR_SWZ_COMPOUND(*)
        HLSINSTR_SWZ_COMPOUND(/)
#undef HLSINSTR_SWZ_COMPOUND
    };
    template <int... I>
    SwzRef<I...> swz_ref() {
        return SwzRef<I...>{*this};
    }
};

template <class T, int N>
using mask_vec = vec<typename impl::mask_of<sizeof(T)>::type, N>;

#define HLSINSTR_VEC_BINARY(op)                                                                   \
    template <class T, int N>                                                                     \
    vec<T, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {                               \
        vec<T, N> r;                                                                              \
        for (int i = 0; i < N; i++) r.elem[i] = static_cast<T>(a.elem[i] op b.elem[i]);           \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_scalar<S> = 0>                                  \
    vec<T, N> operator op(const vec<T, N>& a, S s) {                                              \
        return a op vec<T, N>(s);                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_scalar<S> = 0>                                  \
    vec<T, N> operator op(S s, const vec<T, N>& b) {                                              \
        return vec<T, N>(s) op b;                                                                 \
    }                                                                                             \
    template <class T, int N, class U>                                                            \
    vec<T, N>& operator op##=(vec<T, N>& a, const U& b) {                                         \
        a = a op b;                                                                               \
        return a;                                                                                 \
    }
HLSINSTR_VEC_BINARY(+)
HLSINSTR_VEC_BINARY(-)
HLSINSTR_VEC_BINARY(*)
HLSINSTR_VEC_BINARY(/)
HLSINSTR_VEC_BINARY(%)
HLSINSTR_VEC_BINARY(&)
HLSINSTR_VEC_BINARY(|)
HLSINSTR_VEC_BINARY(^)
HLSINSTR_VEC_BINARY(<<)
HLSINSTR_VEC_BINARY(>>)
#undef HLSINSTR_VEC_BINARY

#define HLSINSTR_VEC_COMPARE(op)                                                                  \
    template <class T, int N>                                                                     \
    mask_vec<T, N> operator op(const vec<T, N>& a, const vec<T, N>& b) {                          \
        mask_vec<T, N> r;                                                                         \
        for (int i = 0; i < N; i++) r.elem[i] = a.elem[i] op b.elem[i] ? -1 : 0;                  \
        return r;                                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_scalar<S> = 0>                                  \
    mask_vec<T, N> operator op(const vec<T, N>& a, S s) {                                         \
        return a op vec<T, N>(s);                                                                 \
    }                                                                                             \
    template <class T, int N, class S, impl::if_scalar<S> = 0>                                  \
    mask_vec<T, N> operator op(S s, const vec<T, N>& b) {                                         \
        return vec<T, N>(s) op b;                                                                 \
    }
HLSINSTR_VEC_COMPARE(==)
HLSINSTR_VEC_COMPARE(!=)
HLSINSTR_VEC_COMPARE(<)
HLSINSTR_VEC_COMPARE(>)
HLSINSTR_VEC_COMPARE(<=)
HLSINSTR_VEC_COMPARE(>=)
#undef HLSINSTR_VEC_COMPARE

template <class T, int N>
vec<T, N> operator-(const vec<T, N>& a) {
    vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = static_cast<T>(-a.elem[i]);
    return r;
}
template <class T, int N>
vec<T, N> operator+(const vec<T, N>& a) {
    return a;
}
template <class T, int N>
vec<T, N> operator~(const vec<T, N>& a) {
    vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = static_cast<T>(~a.elem[i]);
    return r;
}
template <class T, int N>
mask_vec<T, N> operator!(const vec<T, N>& a) {
    mask_vec<T, N> r;
    for (int i = 0; i < N; i++) r.elem[i] = a.elem[i] ? 0 : -1;
    return r;
}
template <class T, int N>
vec<T, N>& operator++(vec<T, N>& a) {
    return a += 1;
}
template <class T, int N>
vec<T, N>& operator--(vec<T, N>& a) {
    return a -= 1;
}

#define HLSINSTR_VEC_TYPES(t)                                                                     \
    typedef vec<t, 2> t##2;                                                                       \
    typedef vec<t, 3> t##3;                                                                       \
    typedef vec<t, 4> t##4;                                                                       \
    typedef vec<t, 8> t##8;                                                                       \
    typedef vec<t, 16> t##16;
HLSINSTR_VEC_TYPES(char)
HLSINSTR_VEC_TYPES(uchar)
HLSINSTR_VEC_TYPES(short)
HLSINSTR_VEC_TYPES(ushort)
HLSINSTR_VEC_TYPES(int)
HLSINSTR_VEC_TYPES(uint)
HLSINSTR_VEC_TYPES(long)
HLSINSTR_VEC_TYPES(ulong)
HLSINSTR_VEC_TYPES(float)
HLSINSTR_VEC_TYPES(double)
#undef HLSINSTR_VEC_TYPES

} // namespace ocl
} // namespace hlsinstr_emu

#endif
