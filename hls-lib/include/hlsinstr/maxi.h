// hlsinstr: m_axi traffic, the bytes each module invocation moves over each of its m_axi ports
// (`--probes modules,maxi`), for a DRAM model such as HLScope's t = bytes / DBW + DLAT per module.
//
// | macro (as the rewriter writes it)            | where                                         |
// |----------------------------------------------|-----------------------------------------------|
// | HLSINSTR_MAXI_PORTS(first, count);           | after FUNC_BEGIN: ports first..first+count-1  |
// | p[HLSINSTR_MAXI_R(id, p, i)], *HLSINSTR_MAXI_R(id, p, e), HLSINSTR_MAXI_R(id, p, p)->x | read |
// | HLSINSTR_MAXI_W(id, p, e)                    | the element is assigned with `=`              |
// | HLSINSTR_MAXI_RW(id, p, e)                   | compound assignment, ++, --: read and written |
// | memcpy(d, s, HLSINSTR_MAXI_WN(id, d, n))     | n bytes written to port d (RN: read from s)   |
//
// Every wrapper evaluates its last argument once and yields it unchanged. R, W and RW are
// `((void)count, (expr))`: value category and type are kept (an lvalue index stays an lvalue, a
// class-type index is not converted, no user `operator,` is picked). RN and WN return the size by
// value. `p` is the port parameter itself, named only in an unevaluated context: R, W and RW
// count sizeof(element of decltype(p)), array extents removed (`const short *` and
// `short m[R][C]` both count 2 bytes per access). The rewriter never wraps unevaluated operands.
//
// C simulation: PORTS declares `hlsinstr_ports_`, the invocation's counters (a read and a written
// total per port) on the stack, attached to the function's frame (probe.h). An access is one add
// at a compile-time index (an inline call at -O0): no lock, no lookup, no thread-local. When the
// frame ends (any return, falling off the end) it records, just before the module's E record, an
// R and a W record per port with the bytes of that invocation; zero totals are not recorded. A
// recursive call has its own counters, so each invocation reports only its own bytes.
//
// Synthesis: the wrappers are `(expr)` and PORTS is nothing; no hardware is added (yet).
#ifndef HLSINSTR_MAXI_H
#define HLSINSTR_MAXI_H

#include "hlsinstr/config.h"
#include "hlsinstr/probe.h"

#if HLSINSTR_SYNTHESIS

#define HLSINSTR_MAXI_PORTS(first, count) ((void)0)
#define HLSINSTR_MAXI_R(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_W(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_RW(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_RN(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_WN(id, p, ...) (__VA_ARGS__)

#else

#include <cstdint>
#include <type_traits>

#define HLSINSTR_MAXI_PORTS(first, count) \
    ::hlsinstr::sim::MaxiPorts<first, count> hlsinstr_ports_(hlsinstr_frame_)
// Counter index and element size are constants; the add is a call because two accesses in one
// expression (`in[i] + in[i + 1]`) would otherwise modify one counter unsequenced (undefined).
#define HLSINSTR_MAXI_COUNT_(id, dir, p)                                   \
    ::hlsinstr::sim::detail::maxi_add(                                     \
        hlsinstr_ports_.bytes[2 * ((id) - hlsinstr_ports_.first) + (dir)], \
        ::hlsinstr::sim::detail::MaxiElement<decltype(p)>::bytes)
#define HLSINSTR_MAXI_R(id, p, ...) ((void)HLSINSTR_MAXI_COUNT_(id, 0, p), (__VA_ARGS__))
#define HLSINSTR_MAXI_W(id, p, ...) ((void)HLSINSTR_MAXI_COUNT_(id, 1, p), (__VA_ARGS__))
#define HLSINSTR_MAXI_RW(id, p, ...) \
    ((void)HLSINSTR_MAXI_COUNT_(id, 0, p), (void)HLSINSTR_MAXI_COUNT_(id, 1, p), (__VA_ARGS__))
#define HLSINSTR_MAXI_RN(id, p, ...) hlsinstr_ports_.read_bytes(id, (__VA_ARGS__))
#define HLSINSTR_MAXI_WN(id, p, ...) hlsinstr_ports_.write_bytes(id, (__VA_ARGS__))

namespace hlsinstr {
namespace sim {

namespace detail {

// Bytes of one element reached through a parameter of type P: `int *`, `int (*)[8]` (a
// `int m[R][8]` parameter), `int (&)[8]`.
template <class P>
struct MaxiElement {
    typedef typename std::remove_pointer<typename std::remove_reference<P>::type>::type pointee;
    static const std::uint64_t bytes = sizeof(typename std::remove_all_extents<pointee>::type);
};

// Inlined even at -O0 (an access of a kernel's loop is often all its work: a call per access
// made a Jacobi sweep's -O0 run 1.8x its plain one); inlined, it is still a call in the
// language, so two adds in one expression stay sequenced.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
inline void maxi_add(std::uint64_t& counter, std::uint64_t bytes) { counter += bytes; }

} // namespace detail

// The m_axi byte counters of one module invocation: ports First..First+Count-1, a read and a
// written total each.
template <std::uint32_t First, std::uint32_t Count>
class MaxiPorts {
  public:
    enum { first = First };

    explicit MaxiPorts(FunctionFrame& frame) : frame_(frame) {
        for (std::uint32_t i = 0; i < 2 * Count; ++i) bytes[i] = 0;
        frame_.attach_ports(First, Count, bytes);
    }

    // Ends the frame while the counters are still alive (the frame is declared first, so it
    // would otherwise be destroyed after them); a no-op when a return or FUNC_END ended it.
    ~MaxiPorts() { frame_.end(); }

    // memcpy sizes: counted, then passed on.
    template <class N>
    N read_bytes(std::uint32_t id, N n) {
        bytes[2 * (id - First)] += static_cast<std::uint64_t>(n);
        return n;
    }
    template <class N>
    N write_bytes(std::uint32_t id, N n) {
        bytes[2 * (id - First) + 1] += static_cast<std::uint64_t>(n);
        return n;
    }

    // [2k]: bytes read through port First + k; [2k + 1]: bytes written.
    std::uint64_t bytes[2 * Count];

  private:
    MaxiPorts(const MaxiPorts&);
    MaxiPorts& operator=(const MaxiPorts&);

    FunctionFrame& frame_;
};

} // namespace sim
} // namespace hlsinstr

#endif

#endif
