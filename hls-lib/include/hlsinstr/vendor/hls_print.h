// hlsinstr: a C-simulation model of Vitis HLS `hls_print.h` (UG1399, "hls::print").
// Used by `hlsinstr sim` only when the kernel headers lack it.
//
//   hls::print("start\n");
//   hls::print("sum = %d\n", sum);    // at most one value: int, unsigned int, float or double
//
// What is modelled: the C simulation's behaviour, which is printf's: the format string is
// printed to stdout with its one value converted by the format's conversion (`%d`, `%u`, `%x`,
// `%f`, `%e`, `%g`, ...), `%%` prints `%`. An integral value narrower than int is passed as int
// (unsigned ones as unsigned), a wider one as its own type, so `%ld` fits a long as in C; a float
// is passed as double, as C's default promotion does.
// Not modelled: the print in RTL co-simulation (there is no RTL here) and synthesis' own checks.
// A value that is not an arithmetic type (an ap_int, a struct) is a compile error that says to
// convert it (`x.to_int()`, `x.to_double()`): UG1399 lists only int, unsigned, float and double.
#ifndef HLSINSTR_VENDOR_HLS_PRINT_H
#define HLSINSTR_VENDOR_HLS_PRINT_H

#ifndef X_HLS_PRINT_H
#define X_HLS_PRINT_H

#include <cstdio>
#include <type_traits>

namespace hls {
namespace hlsinstr_print {

// The argument as printf's variadic call must receive it for the conversions above.
template <typename T, bool Floating = std::is_floating_point<T>::value, bool Narrow = (sizeof(T) <= sizeof(int))>
struct promoted {
    typedef T type; // a wider integer: as it is (`%ld`, `%lld`)
};
template <typename T, bool Narrow>
struct promoted<T, true, Narrow> {
    typedef double type;
};
template <typename T>
struct promoted<T, false, true> {
    typedef typename std::conditional<std::is_unsigned<T>::value && sizeof(T) == sizeof(int), unsigned int,
                                      int>::type type;
};

} // namespace hlsinstr_print

// No value: the text, with `%%` printed as `%` as printf would.
inline void print(const char* format) {
    for (const char* c = format; *c != '\0'; ++c) {
        if (c[0] == '%' && c[1] == '%') {
            ++c;
        }
        std::fputc(*c, stdout);
    }
}

template <typename T>
inline void print(const char* format, T value) {
    static_assert(std::is_arithmetic<T>::value,
                  "hls::print takes one value of type int, unsigned int, float or double (UG1399): convert it, "
                  "e.g. x.to_int() or x.to_double()");
    std::printf(format, static_cast<typename hlsinstr_print::promoted<T>::type>(value));
}

} // namespace hls

#endif // X_HLS_PRINT_H
#endif
