// hlsinstr: a C-simulation model of Vitis HLS `hls::vector<T, N>` (UG1399, "Vector Data Types").
// Used by `hlsinstr sim` only when the kernel headers lack hls_vector.h (the open set does).
//
//   hls::vector<int, 4> a = {1, 2, 3, 4}, b(2);   // b = {2, 2, 2, 2}
//   a += b; a = a * 3; int s = a.reduce_add();
//
// What is modelled (UG1399): N elements of T held by value; construction empty (elements
// default-initialised), from one value (every element), from an initializer list (at most N
// values, the rest value-initialised) or from an array; `[]` access; element-wise arithmetic,
// bitwise and shift operators between two vectors or a vector and a scalar (either side), their
// compound assignments, unary `-` `~` `+`, `++`/`--`; `==`/`!=` (all elements) and `<` `<=` `>`
// `>=` (lexicographic, as std::array compares); reductions reduce_add, reduce_mult, reduce_and,
// reduce_or, reduce_xor, reduce_min, reduce_max.
// Not modelled: the hardware layout (Vitis aligns the vector to a power of two bytes so it maps
// to one wide port; here sizeof and alignment are those of T[N]).
#ifndef HLSINSTR_VENDOR_HLS_VECTOR_H
#define HLSINSTR_VENDOR_HLS_VECTOR_H

#ifndef X_HLS_VECTOR_H
#define X_HLS_VECTOR_H

#include <array>
#include <cstddef>
#include <initializer_list>

namespace hls {

template <typename T, std::size_t N>
class vector {
    static_assert(N > 0, "hls::vector needs at least one element");

  public:
    vector() = default;
    vector(const T& v) {
        for (std::size_t i = 0; i < N; ++i) data_[i] = v;
    }
    vector(std::initializer_list<T> l) : data_() {
        std::size_t i = 0;
        for (typename std::initializer_list<T>::const_iterator it = l.begin(); it != l.end() && i < N; ++it) data_[i++] = *it;
    }
    vector(const std::array<T, N>& a) : data_(a) {}
    vector(const T (&a)[N]) {
        for (std::size_t i = 0; i < N; ++i) data_[i] = a[i];
    }

    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    static constexpr std::size_t size() { return N; }

#define HLSINSTR_VEC_COMPOUND(op)                                                                                \
    vector& operator op##=(const vector& o) {                                                                    \
        for (std::size_t i = 0; i < N; ++i) data_[i] op## = o.data_[i];                                          \
        return *this;                                                                                            \
    }                                                                                                            \
    vector& operator op##=(const T& s) {                                                                         \
        for (std::size_t i = 0; i < N; ++i) data_[i] op## = s;                                                   \
        return *this;                                                                                            \
    }                                                                                                            \
    friend vector operator op(vector a, const vector& b) { return a op## = b; }                                  \
    friend vector operator op(vector a, const T& s) { return a op## = s; }                                       \
    friend vector operator op(const T& s, const vector& b) {                                                     \
        vector r;                                                                                                \
        for (std::size_t i = 0; i < N; ++i) r.data_[i] = s op b.data_[i];                                        \
        return r;                                                                                                \
    }
    HLSINSTR_VEC_COMPOUND(+)
    HLSINSTR_VEC_COMPOUND(-)
    HLSINSTR_VEC_COMPOUND(*)
    HLSINSTR_VEC_COMPOUND(/)
    HLSINSTR_VEC_COMPOUND(%)
    HLSINSTR_VEC_COMPOUND(&)
    HLSINSTR_VEC_COMPOUND(|)
    HLSINSTR_VEC_COMPOUND(^)
    HLSINSTR_VEC_COMPOUND(<<)
    HLSINSTR_VEC_COMPOUND(>>)
#undef HLSINSTR_VEC_COMPOUND

    vector operator-() const { return map([](const T& x) { return T(-x); }); }
    vector operator~() const { return map([](const T& x) { return T(~x); }); }
    vector operator+() const { return *this; }
    vector& operator++() { return *this += T(1); }
    vector& operator--() { return *this -= T(1); }
    vector operator++(int) {
        vector old(*this);
        *this += T(1);
        return old;
    }
    vector operator--(int) {
        vector old(*this);
        *this -= T(1);
        return old;
    }

    friend bool operator==(const vector& a, const vector& b) { return a.data_ == b.data_; }
    friend bool operator!=(const vector& a, const vector& b) { return a.data_ != b.data_; }
    friend bool operator<(const vector& a, const vector& b) { return a.data_ < b.data_; }
    friend bool operator<=(const vector& a, const vector& b) { return a.data_ <= b.data_; }
    friend bool operator>(const vector& a, const vector& b) { return a.data_ > b.data_; }
    friend bool operator>=(const vector& a, const vector& b) { return a.data_ >= b.data_; }

    T reduce_add() const { return fold([](const T& a, const T& b) { return T(a + b); }); }
    T reduce_mult() const { return fold([](const T& a, const T& b) { return T(a * b); }); }
    T reduce_and() const { return fold([](const T& a, const T& b) { return T(a & b); }); }
    T reduce_or() const { return fold([](const T& a, const T& b) { return T(a | b); }); }
    T reduce_xor() const { return fold([](const T& a, const T& b) { return T(a ^ b); }); }
    T reduce_min() const { return fold([](const T& a, const T& b) { return b < a ? b : a; }); }
    T reduce_max() const { return fold([](const T& a, const T& b) { return a < b ? b : a; }); }

  private:
    template <typename F>
    vector map(F f) const {
        vector r;
        for (std::size_t i = 0; i < N; ++i) r.data_[i] = f(data_[i]);
        return r;
    }
    template <typename F>
    T fold(F f) const {
        T acc = data_[0];
        for (std::size_t i = 1; i < N; ++i) acc = f(acc, data_[i]);
        return acc;
    }

    std::array<T, N> data_;
};

} // namespace hls

#endif // X_HLS_VECTOR_H
#endif
