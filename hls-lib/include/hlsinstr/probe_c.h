// hlsinstr: the probes of C files (`.c` kernels compiled as C11 or later by gcc or clang).
//
// probe.h includes this when compiled as C, so the rewriter writes the same `#include
// "hlsinstr/probe.h"` and the same macros into `.c` and `.cpp` files (table in probe.h). In C the
// macros call a small C interface to the C++ runtime: the event log, its thread handling and its
// file formats are those of event_log.h, so C and C++ code of one program write one log.
//
// Building a program with probed C files takes the runtime once, compiled as C++:
//     g++ -c -I<hls-lib>/include hlsinstr_c.cpp   (a file holding `#include "hlsinstr/c_runtime.h"`)
// and a link with g++ (or with -lstdc++ -pthread). `hlsinstr sim` does both itself.
//
// C simulation: FUNC_BEGIN declares the frame with GCC's `cleanup` attribute, which does what the
// C++ frame's destructor does: the module's end is recorded on every way out, after a returned
// expression is evaluated. A `longjmp` out of a probed function records no end (the next probe
// of an enclosing function closes it late, with a warning). m_axi byte counts (`--probes maxi`)
// work as in C++ (maxi.h), an element's bytes from `sizeof` instead of decltype (below).
//
// Synthesis: everything compiles to nothing, as in C++.
#ifndef HLSINSTR_PROBE_C_H
#define HLSINSTR_PROBE_C_H

#include "hlsinstr/config.h"
#include "hlsinstr/options.h"

#if !HLSINSTR_SYNTHESIS
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// A module invocation: room for the C++ runtime's frame (c_runtime.h checks that it fits).
struct hlsinstr_c_frame {
    void* hlsinstr_storage_[8];
};

void hlsinstr_c_frame_open(struct hlsinstr_c_frame* frame, uint32_t id, unsigned options);
// Records the end once; later calls do nothing.
void hlsinstr_c_frame_end(struct hlsinstr_c_frame* frame);
// The cleanup of the frame variable: the end, if no FUNC_END or return recorded it yet.
void hlsinstr_c_frame_close(struct hlsinstr_c_frame* frame);
void hlsinstr_c_frame_unwind(struct hlsinstr_c_frame* frame, size_t depth);
// m_axi counters (--probes maxi): ports first..first+count-1, a read and a written total each,
// alive until the frame ends; recorded just before its end.
void hlsinstr_c_frame_ports(struct hlsinstr_c_frame* frame, uint32_t first, uint32_t count, const uint64_t* bytes);
// The cleanup of the counters (HLSINSTR_MAXI_PORTS): ends the frame their first member points to.
void hlsinstr_c_ports_close(void* ports);
void hlsinstr_c_loop_begin(uint32_t id, unsigned options);
void hlsinstr_c_loop_iter(uint32_t id);
void hlsinstr_c_loop_end(uint32_t id);
// Writes the event log now (see flush_events in event_log.h).
void hlsinstr_c_flush_events(void);
// The control-flow trace (`--probes branches`, branches.h): one record of site `id`, and a
// loop exit's record with its trip count.
void hlsinstr_c_trace_site(uint32_t id, unsigned options);
void hlsinstr_c_trace_exit(uint32_t id, unsigned options, unsigned long long trips);
// A traced call: its return site, recorded by the cleanup on every way out.
struct hlsinstr_c_trace_call {
    uint32_t ret;
    unsigned options;
};
void hlsinstr_c_trace_close(struct hlsinstr_c_trace_call* call);

#ifdef __cplusplus
}
#endif
#endif // !HLSINSTR_SYNTHESIS

#ifndef __cplusplus

#if HLSINSTR_SYNTHESIS

#define HLSINSTR_FUNC_BEGIN(id, o, dep) ((void)0)
#define HLSINSTR_FUNC_END(id, o, value) ((void)0)
#define HLSINSTR_RETURN(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_V(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_VOID(id, o)
#define HLSINSTR_LOOP_BEGIN(id, o, dep) ((void)0)
#define HLSINSTR_LOOP_ITER(id) ((void)0)
#define HLSINSTR_LOOP_END(id, o, value) ((void)0)
#define HLSINSTR_LOOP_FRAME() ((void)0)
// A leaf loop or leaf parent (probe.h) in a header a C file includes: an ordinary loop here.
#define HLSINSTR_LEAF_BEGIN(id, o, dep) HLSINSTR_LOOP_BEGIN(id, o, dep)
#define HLSINSTR_LEAF_END(id, o, value) HLSINSTR_LOOP_END(id, o, value)
#define HLSINSTR_LEAF_PARENT_BEGIN(id, o, dep) HLSINSTR_LOOP_BEGIN(id, o, dep)
#define HLSINSTR_LEAF_PARENT_END(id, o, value) HLSINSTR_LOOP_END(id, o, value)
#define HLSINSTR_UNWIND(fid, depth) ((void)0)
#define HLSINSTR_STREAM_NAME(var) ((void)0)

#else

#if !defined(__GNUC__)
#error "hlsinstr: probes in C files need gcc or clang (the cleanup attribute records a function's end on every return); compile the file as C++ or with gcc/clang"
#endif

#define HLSINSTR_FUNC_BEGIN(id, o, dep)                                                                 \
    __attribute__((cleanup(hlsinstr_c_frame_close))) struct hlsinstr_c_frame hlsinstr_frame_;          \
    hlsinstr_c_frame_open(&hlsinstr_frame_, (id), HLSINSTR_OPT_##o);                                   \
    (void)(dep)
#define HLSINSTR_FUNC_END(id, o, value) hlsinstr_c_frame_end(&hlsinstr_frame_)
#define HLSINSTR_RETURN(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_V(id, o, ...) __VA_ARGS__
// `return;` stays `return;` (C has no `return void-expression;`): the cleanup records the end.
#define HLSINSTR_RETURN_VOID(id, o)
#define HLSINSTR_LOOP_BEGIN(id, o, dep) (hlsinstr_c_loop_begin((id), HLSINSTR_OPT_##o), (void)(dep))
#define HLSINSTR_LOOP_ITER(id) hlsinstr_c_loop_iter(id)
#define HLSINSTR_LOOP_END(id, o, value) hlsinstr_c_loop_end(id)
/* C loops count in a thread-local (c_runtime.h): nothing to declare. */
#define HLSINSTR_LOOP_FRAME() ((void)0)
// A leaf loop or leaf parent (probe.h) in a header a C file includes: an ordinary loop here.
#define HLSINSTR_LEAF_BEGIN(id, o, dep) HLSINSTR_LOOP_BEGIN(id, o, dep)
#define HLSINSTR_LEAF_END(id, o, value) HLSINSTR_LOOP_END(id, o, value)
#define HLSINSTR_LEAF_PARENT_BEGIN(id, o, dep) HLSINSTR_LOOP_BEGIN(id, o, dep)
#define HLSINSTR_LEAF_PARENT_END(id, o, value) HLSINSTR_LOOP_END(id, o, value)
#define HLSINSTR_UNWIND(fid, depth) hlsinstr_c_frame_unwind(&hlsinstr_frame_, (depth))
/* C has no streams: a struct whose type says `stream` keeps its own name. */
#define HLSINSTR_STREAM_NAME(var) ((void)0)

#endif // HLSINSTR_SYNTHESIS

#if HLSINSTR_SYNTHESIS
#define HLSINSTR_MAXI_PORTS(first, count) ((void)0)
#define HLSINSTR_MAXI_R(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_W(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_RW(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_RN(id, p, ...) (__VA_ARGS__)
#define HLSINSTR_MAXI_WN(id, p, ...) (__VA_ARGS__)
#else
// m_axi byte counts (maxi.h's macros, for C). PORTS declares the invocation's counters after the
// frame, with a cleanup that ends the frame: cleanups run in reverse order, so the end (and the
// R and W records before it) is written while the counters are alive, as the C++ destructor
// does. C has no decltype: an element's bytes are `sizeof *p`, where the rewriter writes `p`
// dereferenced down to one row for a port of more than one dimension (`*m` for `int m[R][C]`).
// An access adds through an inline call, so two in one expression stay sequenced.
#define HLSINSTR_MAXI_PORTS(first_id, count)                               \
    __attribute__((cleanup(hlsinstr_c_ports_close))) struct {              \
        struct hlsinstr_c_frame* frame;                                    \
        uint32_t first;                                                    \
        uint64_t bytes[2 * (count)];                                       \
    } hlsinstr_ports_ = {&hlsinstr_frame_, (first_id), {0}};               \
    hlsinstr_c_frame_ports(&hlsinstr_frame_, (first_id), (count), hlsinstr_ports_.bytes)
#define HLSINSTR_MAXI_COUNTER_(id, dir) (&hlsinstr_ports_.bytes[2 * ((id) - hlsinstr_ports_.first) + (dir)])
#define HLSINSTR_MAXI_R(id, p, ...) (hlsinstr_c_maxi_add(HLSINSTR_MAXI_COUNTER_(id, 0), sizeof *(p)), (__VA_ARGS__))
#define HLSINSTR_MAXI_W(id, p, ...) (hlsinstr_c_maxi_add(HLSINSTR_MAXI_COUNTER_(id, 1), sizeof *(p)), (__VA_ARGS__))
#define HLSINSTR_MAXI_RW(id, p, ...)                                       \
    (hlsinstr_c_maxi_add(HLSINSTR_MAXI_COUNTER_(id, 0), sizeof *(p)),     \
     hlsinstr_c_maxi_add(HLSINSTR_MAXI_COUNTER_(id, 1), sizeof *(p)), (__VA_ARGS__))
#define HLSINSTR_MAXI_RN(id, p, ...) hlsinstr_c_maxi_bytes(HLSINSTR_MAXI_COUNTER_(id, 0), (__VA_ARGS__))
#define HLSINSTR_MAXI_WN(id, p, ...) hlsinstr_c_maxi_bytes(HLSINSTR_MAXI_COUNTER_(id, 1), (__VA_ARGS__))

__attribute__((always_inline)) static inline void hlsinstr_c_maxi_add(uint64_t* counter, uint64_t bytes) {
    *counter += bytes;
}
// A memcpy's size: counted, then passed on (memcpy takes a size_t).
__attribute__((always_inline)) static inline size_t hlsinstr_c_maxi_bytes(uint64_t* counter, size_t n) {
    *counter += n;
    return n;
}
#endif

// The control-flow trace (branches.h's macros, for C): the return is recorded by a cleanup, as
// the C++ destructor does; the trip counter follows an empty statement, so a label or `case`
// before it stays valid C before C23 (C lets a jump pass an initialized scalar).
#if HLSINSTR_SYNTHESIS
#define HLSINSTR_BR_FUNC(entry, ret, o) ((void)0)
#define HLSINSTR_BR(id, o) ((void)0)
#define HLSINSTR_BR_V(id, o, ...) (__VA_ARGS__)
#define HLSINSTR_BR_LOOP(id) ((void)0)
#define HLSINSTR_BR_ITER(id) ((void)0)
#define HLSINSTR_BR_EXIT(id, o) ((void)0)
#else
#define HLSINSTR_BR_FUNC(entry, ret, o)                                                                \
    __attribute__((cleanup(hlsinstr_c_trace_close))) struct hlsinstr_c_trace_call hlsinstr_trace_ = { \
        (ret), HLSINSTR_OPT_##o};                                                                        \
    hlsinstr_c_trace_site((entry), HLSINSTR_OPT_##o)
#define HLSINSTR_BR(id, o) hlsinstr_c_trace_site((id), HLSINSTR_OPT_##o)
#define HLSINSTR_BR_V(id, o, ...) (hlsinstr_c_trace_site((id), HLSINSTR_OPT_##o), (__VA_ARGS__))
#define HLSINSTR_BR_LOOP(id) \
    (void)0;                 \
    unsigned long long hlsinstr_trips_##id = 0
#define HLSINSTR_BR_ITER(id) ++hlsinstr_trips_##id
#define HLSINSTR_BR_EXIT(id, o) hlsinstr_c_trace_exit((id), HLSINSTR_OPT_##o, hlsinstr_trips_##id)
#endif

#endif // !__cplusplus

#endif
