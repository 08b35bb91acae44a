// hlsinstr cosim capture runtime (generated into the work directory; see cosim/capture.rs).
// Writes one text file per call of the top: `value`/`buffer` lines with the bits of every
// argument before the call (`in`) and after it (`out`), little endian, as hex.
#ifndef HLSINSTR_CAPTURE_H
#define HLSINSTR_CAPTURE_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>
#include <ap_int.h>
#include <ap_fixed.h>

namespace hlsinstr_cap {

// The element type of an array or pointer parameter (int (*)[8] -> int).
template <class P>
using elem_t = typename std::remove_cv<typename std::remove_all_extents<typename std::remove_pointer<P>::type>::type>::type;

// The inner dimensions of an array element type (int[4][8] as a parameter: `int (*)[8]` → 8).
template <class T>
struct Dims {
    static void add(std::string&) {}
};
template <class T, size_t N>
struct Dims<T[N]> {
    static void add(std::string& s) {
        s += " " + std::to_string(N);
        Dims<T>::add(s);
    }
};

// Bits of one value: `bits` significant bits in `bytes` bytes (the memory layout Vitis uses).
struct Bits {
    unsigned bits = 0;
    std::vector<unsigned char> bytes;
    std::string layout;  // a packed struct's fields, `name:bits,...` (AXI4-Stream elements)
};

inline unsigned pow2_bytes(unsigned bits) {
    unsigned b = (bits + 7) / 8, p = 1;
    while (p < b) p *= 2;
    return p;
}

template <class T>
typename std::enable_if<std::is_arithmetic<T>::value || std::is_enum<T>::value, Bits>::type bits_of(const T& v) {
    Bits b;
    b.bits = std::is_same<T, bool>::value ? 1 : 8 * sizeof(T);
    b.bytes.resize(sizeof(T));
    std::memcpy(b.bytes.data(), &v, sizeof(T));
    return b;
}

// A pointer passed by value (an address argument): its bits are not meaningful in the RTL.
template <class T>
Bits bits_of(T* const& v) {
    Bits b;
    b.bits = 64;
    b.bytes.assign(8, 0);
    (void)v;
    return b;
}

template <class V>
Bits bits_of_range(const V& v, unsigned w) {
    Bits b;
    b.bits = w;
    b.bytes.assign(pow2_bytes(w), 0);
    for (unsigned lo = 0; lo < w; lo += 64) {
        unsigned hi = lo + 63 < w ? lo + 63 : w - 1;
        unsigned long long chunk = v.range(hi, lo).to_uint64();
        for (unsigned k = 0; k < 8 && lo / 8 + k < b.bytes.size(); k++) b.bytes[lo / 8 + k] = (unsigned char)(chunk >> (8 * k));
    }
    return b;
}

template <int W, bool S>
Bits bits_of(const ap_int_base<W, S>& v) { return bits_of_range(v, W); }

template <int W, int I, bool S, ap_q_mode Q, ap_o_mode O, int N>
Bits bits_of(const ap_fixed_base<W, I, S, Q, O, N>& v) { return bits_of_range(v, W); }

// An AXI4-Stream element with side channels (`ap_axiu`/`ap_axis`/`hls::axis`): its fields packed
// LSB first in the order of the RTL's ports, TDATA TKEEP TSTRB TUSER TLAST TID TDEST, the
// fields the type has (the RTL has a port for each).
struct Packer {
    Bits b;
    void add(const char* name, const Bits& x) {
        b.layout += (b.layout.empty() ? "" : ",") + std::string(name) + ":" + std::to_string(x.bits);
        for (unsigned i = 0; i < x.bits; i++, b.bits++) {
            if (b.bits / 8 >= b.bytes.size()) b.bytes.push_back(0);
            if ((x.bytes[i / 8] >> (i % 8)) & 1) b.bytes[b.bits / 8] |= (unsigned char)(1u << (b.bits % 8));
        }
    }
};
#define HLSINSTR_SIDE_CHANNEL(F)                                                           \
    template <class T>                                                                     \
    auto add_##F(Packer& p, const T& v, int) -> decltype((void)v.F, void()) { p.add(#F, bits_of(v.F)); } \
    template <class T>                                                                     \
    void add_##F(Packer&, const T&, long) {}
HLSINSTR_SIDE_CHANNEL(keep)
HLSINSTR_SIDE_CHANNEL(strb)
HLSINSTR_SIDE_CHANNEL(user)
HLSINSTR_SIDE_CHANNEL(id)
HLSINSTR_SIDE_CHANNEL(dest)
#undef HLSINSTR_SIDE_CHANNEL

// A struct the generated capture unit knows the fields of (cosim/aggregate.rs): packed as Vitis
// aggregates it on a port, fields in declaration order from the least significant bit, each as
// wide as its type (an array field: its elements in order). Specialized per struct.
template <class T>
struct Aggregate {
    static const bool known = false;
};

template <class T>
typename std::enable_if<Aggregate<T>::known, Bits>::type bits_of(const T& v) {
    return Aggregate<T>::pack(v);
}

// Append `x`'s bits above those of `b`.
inline void append_bits(Bits& b, const Bits& x) {
    for (unsigned i = 0; i < x.bits; i++, b.bits++) {
        if (b.bits / 8 >= b.bytes.size()) b.bytes.push_back(0);
        if ((x.bytes[i / 8] >> (i % 8)) & 1) b.bytes[b.bits / 8] |= (unsigned char)(1u << (b.bits % 8));
    }
}

template <class T>
auto bits_of(const T& v) -> typename std::enable_if<!Aggregate<T>::known, decltype((void)v.data, (void)v.last, Bits())>::type {
    Packer p;
    p.add("data", bits_of(v.data));
    add_keep(p, v, 0);
    add_strb(p, v, 0);
    add_user(p, v, 0);
    p.add("last", bits_of(v.last));
    add_id(p, v, 0);
    add_dest(p, v, 0);
    return p.b;
}

// Any other type (a struct on ap_fifo or ap_memory ports, a class): no layout known. Reached
// through a user-defined conversion, so every overload above wins over it.
struct NoLayout {
    template <class T>
    NoLayout(const T&) {
        static_assert(sizeof(T) == 0,
                      "hlsinstr cosim: no bit layout for this argument or element type: a struct is captured when "
                      "it is defined (not a template, union or struct with bit-fields, pointers or references) in "
                      "the top's file or a header it includes with quotes, or is an AXI4-Stream element; see "
                      "docs/cosim.md");
    }
};
inline Bits bits_of(NoLayout) { return Bits(); }

// One field of an aggregate (after every bits_of overload, which it may use).
template <class T>
void pack_field(Bits& b, const T& v) {
    append_bits(b, bits_of(v));
}
template <class T, size_t N>
void pack_field(Bits& b, const T (&a)[N]) {
    for (size_t i = 0; i < N; i++) pack_field(b, a[i]);
}

class Call {
  public:
    explicit Call(const char* dir) {
        static unsigned counter = 0;
        char name[64];
        std::snprintf(name, sizeof name, "/call-%06u.cap", counter++);
        path_ = std::string(dir) + name;
        tmp_ = path_ + ".tmp";
        f_ = std::fopen(tmp_.c_str(), "w");
        if (!f_) {
            std::fprintf(stderr, "hlsinstr cosim: cannot write %s\n", tmp_.c_str());
            std::exit(97);
        }
    }
    template <class T>
    void value(const char* phase, const char* name, const T& v) {
        Bits b = bits_of(v);
        if (Aggregate<T>::known) std::fprintf(f_, "aggregate %s %s\n", phase, name);
        std::fprintf(f_, "value %s %s %u ", phase, name, b.bits);
        hex(b.bytes.data(), b.bytes.size());
        std::fputc('\n', f_);
    }
    template <class P>
    void buffer(const char* phase, const char* name, const P& p, unsigned long count) {
        typedef elem_t<P> E;
        const E* e = reinterpret_cast<const E*>(p);
        Bits first = bits_of(count ? e[0] : E());
        unsigned eb = (unsigned)first.bytes.size();
        std::string dims;
        Dims<typename std::remove_cv<typename std::remove_pointer<P>::type>::type>::add(dims);
        if (!dims.empty()) std::fprintf(f_, "dims %s %s%s\n", phase, name, dims.c_str());
        if (Aggregate<E>::known) std::fprintf(f_, "aggregate %s %s\n", phase, name);
        std::fprintf(f_, "buffer %s %s %u %u %lu ", phase, name, first.bits, eb, count);
        std::vector<unsigned char> all;
        all.reserve(eb * count);
        for (unsigned long i = 0; i < count; i++) {
            Bits b = bits_of(e[i]);
            all.insert(all.end(), b.bytes.begin(), b.bytes.end());
        }
        hex(all.data(), all.size());
        std::fputc('\n', f_);
    }
    // An hls::stream's elements, read out and written back in order (the stream is unchanged).
    template <class S>
    void stream(const char* phase, const char* name, S& s) {
        typedef typename std::remove_cv<typename std::remove_reference<decltype(s.read())>::type>::type E;
        std::vector<E> all;
        for (size_t n = s.size(); n > 0; n--) all.push_back(s.read());
        for (const E& e : all) s.write(e);
        Bits first = bits_of(all.empty() ? E() : all[0]);
        std::vector<unsigned char> bytes;
        for (const E& e : all) {
            Bits b = bits_of(e);
            bytes.insert(bytes.end(), b.bytes.begin(), b.bytes.end());
        }
        if (!first.layout.empty()) std::fprintf(f_, "layout %s %s %s\n", phase, name, first.layout.c_str());
        if (Aggregate<E>::known) std::fprintf(f_, "aggregate %s %s\n", phase, name);
        std::fprintf(f_, "buffer %s %s %u %zu %zu ", phase, name, first.bits, first.bytes.size(), all.size());
        hex(bytes.data(), bytes.size());
        std::fputc('\n', f_);
    }
    void finish() {
        std::fprintf(f_, "end\n");
        if (std::fclose(f_) != 0 || std::rename(tmp_.c_str(), path_.c_str()) != 0) {
            std::fprintf(stderr, "hlsinstr cosim: cannot write %s\n", path_.c_str());
            std::exit(97);
        }
    }

  private:
    void hex(const unsigned char* p, size_t n) {
        if (n == 0) std::fputc('-', f_);
        for (size_t i = 0; i < n; i++) std::fprintf(f_, "%02x", p[i]);
    }
    std::string path_, tmp_;
    std::FILE* f_;
};

}  // namespace hlsinstr_cap

#endif
