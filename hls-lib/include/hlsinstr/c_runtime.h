// hlsinstr: the C interface of the probes (probe_c.h), defined over the C++ runtime.
//
// Include this in exactly one C++ file of a program whose C files have probes; the functions
// have C linkage, so C objects link with it (link with g++, or add -lstdc++ -pthread). The frame,
// loop and log code is probe.h's: C and C++ probes of one program share one log and one probe
// stack per thread, so a C kernel called from a C++ testbench nests like a C++ one.
#ifndef HLSINSTR_C_RUNTIME_H
#define HLSINSTR_C_RUNTIME_H

#ifndef __cplusplus
#error "hlsinstr/c_runtime.h is the C++ side of the C probes: compile the file that includes it as C++"
#endif

#include "hlsinstr/probe.h"
#include "hlsinstr/probe_c.h"

#if !HLSINSTR_SYNTHESIS
#include <new>

namespace hlsinstr {
namespace sim {
namespace detail {

inline FunctionFrame* c_frame(hlsinstr_c_frame* f) { return reinterpret_cast<FunctionFrame*>(f->hlsinstr_storage_); }

} // namespace detail
} // namespace sim
} // namespace hlsinstr

static_assert(sizeof(::hlsinstr::sim::FunctionFrame) <= sizeof(hlsinstr_c_frame),
              "hlsinstr_c_frame is too small for the C++ frame: enlarge its storage in probe_c.h");
static_assert(alignof(::hlsinstr::sim::FunctionFrame) <= alignof(hlsinstr_c_frame),
              "hlsinstr_c_frame is aligned less than the C++ frame");

extern "C" {

void hlsinstr_c_frame_open(hlsinstr_c_frame* frame, std::uint32_t id, unsigned options) {
    new (frame->hlsinstr_storage_)::hlsinstr::sim::FunctionFrame(id, options, 0);
}

void hlsinstr_c_frame_end(hlsinstr_c_frame* frame) { ::hlsinstr::sim::detail::c_frame(frame)->end(); }

void hlsinstr_c_frame_close(hlsinstr_c_frame* frame) {
    ::hlsinstr::sim::detail::c_frame(frame)->~FunctionFrame();
}

void hlsinstr_c_frame_unwind(hlsinstr_c_frame* frame, std::size_t depth) {
    ::hlsinstr::sim::detail::c_frame(frame)->unwind(depth);
}

void hlsinstr_c_frame_ports(hlsinstr_c_frame* frame, std::uint32_t first, std::uint32_t count,
                            const std::uint64_t* bytes) {
    ::hlsinstr::sim::detail::c_frame(frame)->attach_ports(first, count, bytes);
}

void hlsinstr_c_ports_close(void* ports) {
    // The first member of the counters' struct (probe_c.h): the frame they belong to.
    hlsinstr_c_frame* frame = *static_cast<hlsinstr_c_frame**>(ports);
    ::hlsinstr::sim::detail::c_frame(frame)->end();
}

void hlsinstr_c_loop_begin(std::uint32_t id, unsigned options) {
    ::hlsinstr::sim::loop_open(id, options, ::hlsinstr::sim::top_loop_trips());
}

void hlsinstr_c_loop_iter(std::uint32_t id) { ::hlsinstr::sim::loop_iter(id); }

void hlsinstr_c_loop_end(std::uint32_t id) { ::hlsinstr::sim::loop_end(id); }

void hlsinstr_c_flush_events(void) { ::hlsinstr::sim::flush_events(); }

void hlsinstr_c_trace_site(std::uint32_t id, unsigned options) { ::hlsinstr::sim::trace_site(id, options); }

void hlsinstr_c_trace_exit(std::uint32_t id, unsigned options, unsigned long long trips) {
    ::hlsinstr::sim::trace_exit(id, options, trips);
}

void hlsinstr_c_trace_close(hlsinstr_c_trace_call* call) { ::hlsinstr::sim::trace_site(call->ret, call->options); }

} // extern "C"
#endif // !HLSINSTR_SYNTHESIS

#endif
