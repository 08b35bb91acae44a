// hlsinstr: hardware timestamps for the in-FPGA Vitis build, read from a free-running counter.
//
//   ap_uint<64> hlsinstr::hw::timestamp(const Dep& dep)
//       The cycle count at the moment `dep` is available. `dep` is the data dependence: the read
//       cannot be scheduled before `dep` has been computed, so it stays where the source put it
//       (a read with no input could be moved by the HLS scheduler). Pass the value the event is
//       about: a loop index, a result, a flag. Accepted: integer types, bool, enums, ap_int<W>
//       and ap_uint<W> (converted to 64 bits: sign-extended below 64 bits, the low 64 bits
//       above). Anything else is refused at compile time; for a float, a struct or an
//       ap_fixed pass an integer computed from it, e.g. `ap_uint<W>(x.range())` for ap_fixed
//       `x`, or `x != 0.0f` for a float (which costs a comparator). Use the result (store it
//       in a trace): an unused result lets synthesis drop the read.
//
//   void hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts)
//       The RTL blackbox itself (global namespace, as Vitis requires the C name to equal the
//       RTL module's). timestamp() is the typed front end; call this directly only with a
//       64-bit dependence.
//
// Hardware (verilog/hlsinstr_counter.v, described to Vitis by verilog/hlsinstr_counter.json):
// every call site becomes its own copy of a 64-bit counter that counts every clock cycle
// since kernel reset; all copies leave reset together, so their counts agree. A call takes
// 1 cycle (latency 1, II 1: fits in a pipeline at II 1) and returns the count of the cycle in
// which it started. Cost per call site: 129 FFs, 4 LUTs, a 64-bit carry chain (yosys figures,
// scripts/verilog-resources.sh). Add hlsinstr_counter.json as a blackbox
// (`syn.blackbox.file=`) next to the kernel sources.
//
// C simulation: the blackbox's C model (verilog/hlsinstr_counter_model.cpp, the JSON's
// c_file) supplies hlsinstr_counter(). Model time is one global clock shared by every call
// site. By default each read returns the previous read plus 1, starting at 0: timestamps order
// events but are not cycles. A cycle-stepping harness takes control with
// hlsinstr::hw::model::set_cycle(c) (every read returns exactly c until changed) and hands it
// back with hlsinstr::hw::model::release() (reads continue from the last value returned, + 1).
// The model is thread-safe (dataflow processes run as threads in C simulation). The model
// functions are declared always but defined only in the model: never call them in code that
// is synthesized.
#ifndef HLSINSTR_HW_COUNTER_H
#define HLSINSTR_HW_COUNTER_H

#include "hlsinstr/config.h"

#include <ap_int.h>

#include <cstdint>
#include <type_traits>

void hlsinstr_counter(ap_uint<64> dep, ap_uint<64>& ts);

namespace hlsinstr {
namespace hw {

namespace model {

// Every read returns exactly `cycle` until the next set_cycle() or release().
void set_cycle(std::uint64_t cycle);

// Back to counting reads: the next read returns the last value returned + 1.
void release();

} // namespace model

namespace detail {

template <class T, class Enable = void>
struct to_dep {
    static_assert(sizeof(T) == 0,
                  "hlsinstr::hw::timestamp(dep): dep must be an integer, bool, enum, ap_int<W> or "
                  "ap_uint<W>; for other types pass an integer computed from the value");
};

template <class T>
struct to_dep<T, typename std::enable_if<std::is_integral<T>::value>::type> {
    static ap_uint<64> get(const T& v) { return ap_uint<64>(static_cast<unsigned long long>(v)); }
};

template <class T>
struct to_dep<T, typename std::enable_if<std::is_enum<T>::value>::type> {
    static ap_uint<64> get(const T& v) {
        typedef typename std::underlying_type<T>::type base;
        return ap_uint<64>(static_cast<unsigned long long>(static_cast<base>(v)));
    }
};

template <int W>
struct to_dep<ap_uint<W>, void> {
    static ap_uint<64> get(const ap_uint<W>& v) { return ap_uint<64>(v); }
};

template <int W>
struct to_dep<ap_int<W>, void> {
    static ap_uint<64> get(const ap_int<W>& v) { return ap_uint<64>(v); }
};

} // namespace detail

template <class Dep>
inline ap_uint<64> timestamp(const Dep& dep) {
#if HLSINSTR_SYNTHESIS
#pragma HLS INLINE
#endif
    ap_uint<64> ts = 0;
    hlsinstr_counter(detail::to_dep<Dep>::get(dep), ts);
    return ts;
}

} // namespace hw
} // namespace hlsinstr

#endif
