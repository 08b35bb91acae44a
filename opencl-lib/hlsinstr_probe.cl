// hlsinstr probe macros for OpenCL C kernels (.cl): what `hlsinstr rewrite` inserts into a .cl
// file calls these, with the names of hls-lib/include/hlsinstr/probe.h.
//
// By default every macro compiles to nothing (a probe statement becomes an empty statement `;`,
// `return HLSINSTR_RETURN(id, O, e);` becomes `return (e);`): the instrumented kernel builds and
// behaves exactly like the original, in aoc and in emulation. Nothing is recorded yet.
//
// With HLSINSTR_OPENCL_TRACE defined, each probe calls a hook the user defines in the program:
//   void hlsinstr_trace(uint id, uint event);
// with `event` one of the HLSINSTR_EV_* values below (e.g. to write it into a channel). Limits,
// because OpenCL C has no destructors: the end of a function is recorded at `return` before
// the returned expression is evaluated; loops left by `return`, `break` out of a nest or `goto`
// get no LOOP_END (UNWIND records nothing); `O` (P, T, S, TS) is ignored: no timestamps or
// sequence numbers are taken here.
#ifndef HLSINSTR_PROBE_CL
#define HLSINSTR_PROBE_CL

#define HLSINSTR_EV_FUNC_BEGIN 0u
#define HLSINSTR_EV_FUNC_END 1u
#define HLSINSTR_EV_LOOP_BEGIN 2u
#define HLSINSTR_EV_LOOP_ITER 3u
#define HLSINSTR_EV_LOOP_END 4u

#ifdef HLSINSTR_OPENCL_TRACE
void hlsinstr_trace(uint id, uint event);
#define HLSINSTR_FUNC_BEGIN(id, O, dep) hlsinstr_trace((id), HLSINSTR_EV_FUNC_BEGIN)
#define HLSINSTR_FUNC_END(id, O, v) hlsinstr_trace((id), HLSINSTR_EV_FUNC_END)
#define HLSINSTR_RETURN(id, O, e) (hlsinstr_trace((id), HLSINSTR_EV_FUNC_END), (e))
#define HLSINSTR_RETURN_V(id, O, e) (hlsinstr_trace((id), HLSINSTR_EV_FUNC_END), (e))
#define HLSINSTR_RETURN_VOID(id, O) hlsinstr_trace((id), HLSINSTR_EV_FUNC_END)
#define HLSINSTR_LOOP_BEGIN(id, O, v) hlsinstr_trace((id), HLSINSTR_EV_LOOP_BEGIN)
#define HLSINSTR_LOOP_ITER(id) hlsinstr_trace((id), HLSINSTR_EV_LOOP_ITER)
#define HLSINSTR_LOOP_END(id, O, v) hlsinstr_trace((id), HLSINSTR_EV_LOOP_END)
#else
#define HLSINSTR_FUNC_BEGIN(id, O, dep)
#define HLSINSTR_FUNC_END(id, O, v)
#define HLSINSTR_RETURN(id, O, e) (e)
#define HLSINSTR_RETURN_V(id, O, e) (e)
#define HLSINSTR_RETURN_VOID(id, O)
#define HLSINSTR_LOOP_BEGIN(id, O, v)
#define HLSINSTR_LOOP_ITER(id)
#define HLSINSTR_LOOP_END(id, O, v)
#endif
#define HLSINSTR_UNWIND(fid, depth)

#endif
