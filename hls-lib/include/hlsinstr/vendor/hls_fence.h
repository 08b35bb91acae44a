// hlsinstr: a C-simulation model of Vitis HLS `hls_fence.h` (UG1399, "hls::fence").
// Used by `hlsinstr sim` only when the kernel headers lack it.
//
//   hls::fence(in, out);              // accesses to `in` before it, to `out` after it
//
// What is modelled: nothing needs to happen. A fence stops the scheduler from moving stream and
// memory accesses across it; a C simulation runs every statement in program order already, so
// the fence is a no-op here, as in Vitis C simulation. Any arguments are accepted.
// Not modelled: the fence's effect on the schedule (it is a synthesis constraint); the form with
// braced lists of streams (`hls::fence({a, b}, {c})`) does not compile here: write the streams
// as arguments.
#ifndef HLSINSTR_VENDOR_HLS_FENCE_H
#define HLSINSTR_VENDOR_HLS_FENCE_H

#ifndef X_HLS_FENCE_H
#define X_HLS_FENCE_H

namespace hls {
template <typename... A>
inline void fence(const A&...) {}
} // namespace hls

#endif // X_HLS_FENCE_H
#endif
