// hlsinstr: the probes of the in-FPGA Vitis build (`hlsinstr rewrite --target vitis`).
//
// The same probe macros as probe.h (the rewriter writes the same calls), with hardware meaning:
// each probe posts `Event`s into its own FIFO, `hlsinstr_p<id>`, a reference parameter the
// rewriter adds along the call path from the top (no globals). The generated new top runs the
// original top and the monitor (hw/monitor.h) as a dataflow region.
//
// | macro                           | hardware                                                   |
// |---------------------------------|------------------------------------------------------------|
// | HLSINSTR_FUNC_BEGIN(id, O, dep) | a SpanProbe object: posts begin now, end when the function is left, on every exit |
// | HLSINSTR_LOOP_BEGIN(id, O, dep) | a SpanProbe object (the loop is braced, so it is the loop's scope) |
// | HLSINSTR_LOOP_ITER(id)          | one register increment: the trip count (no FIFO write in the loop body, so II is kept) |
// | HLSINSTR_LOOP_END(id, O, v)     | posts end with the trip count                              |
// | HLSINSTR_PROBE& hlsinstr_p<id>  | an added parameter: probe `id`'s FIFO                      |
// | HLSINSTR_P(id)                  | an added argument: passes the FIFO on                      |
// | HLSINSTR_TB_CALL(top)           | the testbench calls the new top through hlsinstr_top.h     |
// | HLSINSTR_BR_*(id, O, ...)       | `branches`: a record into the trace FIFO (hw/trace.h)      |
// | HLSINSTR_TRACE& hlsinstr_tr     | an added parameter: the trace FIFO                          |
// | HLSINSTR_TR()                   | an added argument: passes the trace FIFO on                |
// | HLSINSTR_WATCH_*(id, ...)       | `watch`: watch events as trace records (hw/watch.h)         |
//
// With the `T` option an event carries the free-running counter (hw/counter.h) read at the probe,
// with `dep` as its data dependence, so the scheduler keeps the read where it was written.
// FIFO writes are blocking: an event is never lost; the FIFOs are deep enough that they never
// fill (the monitor reads each one every cycle, a probe posts at most one event per cycle).
#ifndef HLSINSTR_VITIS_H
#define HLSINSTR_VITIS_H

#ifdef HLSINSTR_PROBE_H
#error "hlsinstr/vitis.h and hlsinstr/probe.h are two targets: a file includes one of them"
#endif

#include "hlsinstr/config.h"
#include "hlsinstr/hw/counter.h"
#include "hlsinstr/hw/monitor.h"
#include "hlsinstr/hw/tb.h"
#include "hlsinstr/hw/trace.h"
#include "hlsinstr/options.h"

#define HLSINSTR_PROBE ::hlsinstr::hw::ProbeStream
#define HLSINSTR_P(id) hlsinstr_p##id

#define HLSINSTR_FUNC_BEGIN(id, o, dep) ::hlsinstr::hw::SpanProbe<HLSINSTR_OPT_##o> hlsinstr_frame_(hlsinstr_p##id, dep)
#define HLSINSTR_FUNC_END(id, o, value) hlsinstr_frame_.end()
#define HLSINSTR_RETURN(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_V(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_VOID(id, o)
#define HLSINSTR_LOOP_BEGIN(id, o, dep) ::hlsinstr::hw::SpanProbe<HLSINSTR_OPT_##o> hlsinstr_l##id(hlsinstr_p##id, dep)
#define HLSINSTR_LOOP_ITER(id) hlsinstr_l##id.iter()
#define HLSINSTR_LOOP_END(id, o, value) hlsinstr_l##id.end()
#define HLSINSTR_LOOP_FRAME() ((void)0)
// The control-flow trace: every record site posts into the one trace FIFO, in program order.
#define HLSINSTR_TRACE ::hlsinstr::hw::TraceStream
#define HLSINSTR_TR() hlsinstr_tr
#define HLSINSTR_BR_FUNC(entry, ret, o) ::hlsinstr::hw::TraceCall<HLSINSTR_OPT_##o> hlsinstr_trace_(hlsinstr_tr, entry, ret)
#define HLSINSTR_BR(id, o) ::hlsinstr::hw::trace_post<HLSINSTR_OPT_##o>(hlsinstr_tr, id, 0u)
#define HLSINSTR_BR_V(id, o, ...) (::hlsinstr::hw::trace_post<HLSINSTR_OPT_##o>(hlsinstr_tr, id, 0u), (__VA_ARGS__))
// The trip counter: a register, declared without an initializer so a goto or case may jump past it.
#define HLSINSTR_BR_LOOP(id)                                                                                         \
    ap_uint<32> hlsinstr_trips_##id;                                                                                 \
    hlsinstr_trips_##id = 0
#define HLSINSTR_BR_ITER(id) ++hlsinstr_trips_##id
#define HLSINSTR_BR_EXIT(id, o) ::hlsinstr::hw::trace_post<HLSINSTR_OPT_##o>(hlsinstr_tr, id, hlsinstr_trips_##id)

// Leaving a braced loop by goto runs its SpanProbe's destructor: nothing to unwind by hand.
#define HLSINSTR_UNWIND(fid, depth) ((void)0)

namespace hlsinstr {
namespace hw {

namespace detail {
template <class Dep>
inline Clock time_of(const Dep& dep, char (*)[1]) {
#pragma HLS INLINE
    return Clock(timestamp(dep));
}
template <class Dep>
inline Clock time_of(const Dep&, char (*)[2]) {
    return Clock(0);
}
} // namespace detail

/// The event's timestamp under options `O`: the counter read with `dep` as its dependence when
/// `O` has T, else 0 (the monitor's cycle is the time; no counter is instantiated).
template <unsigned O, class Dep>
inline Clock event_time(const Dep& dep) {
#pragma HLS INLINE
    return detail::time_of(dep, static_cast<char (*)[(O & HLSINSTR_OPT_T) ? 1 : 2]>(0));
}

inline void post(ProbeStream& fifo, bool end, ap_uint<32> trips, Clock time) {
#pragma HLS INLINE
    Event e;
    e.end = end;
    e.trips = trips;
    e.time = time;
    fifo.write(e);
}

/// Post one trace record (program order is record order: one FIFO, blocking writes). With `T`
/// the counter is read with the record's value as its dependence.
template <unsigned O, class Dep>
inline void trace_post(TraceStream& tr, unsigned site, const Dep& value) {
#pragma HLS INLINE
    TraceEvent e;
    e.site = site;
    e.value = value;
    e.time = event_time<O>(value);
    tr.write(e);
}

/// A traced call: its entry record now, its return record when the function is left, however.
template <unsigned O>
class TraceCall {
  public:
    TraceCall(TraceStream& tr, unsigned entry, unsigned ret) : tr_(tr), ret_(ret) {
#pragma HLS INLINE
        trace_post<O>(tr_, entry, 0u);
    }
    ~TraceCall() {
#pragma HLS INLINE
        trace_post<O>(tr_, ret_, 0u);
    }

  private:
    TraceCall(const TraceCall&);
    TraceCall& operator=(const TraceCall&);
    TraceStream& tr_;
    unsigned ret_;
};

/// A module invocation or a loop execution: begin when constructed, end (with the trips counted
/// by iter(), 0 for a module) on the first of end() or leaving scope — so every return, break
/// or goto out of it ends it. The trip count is the end timestamp's dependence: the read cannot
/// move above the loop.
template <unsigned O>
class SpanProbe {
  public:
    template <class Dep>
    SpanProbe(ProbeStream& fifo, const Dep& dep) : fifo_(fifo), open_(true), trips_(0) {
#pragma HLS INLINE
        post(fifo_, false, 0, event_time<O>(dep));
    }
    ~SpanProbe() {
#pragma HLS INLINE
        end();
    }
    void iter() {
#pragma HLS INLINE
        ++trips_;
    }
    void end() {
#pragma HLS INLINE
        if (!open_) return;
        open_ = false;
        post(fifo_, true, trips_, event_time<O>(trips_));
    }

  private:
    SpanProbe(const SpanProbe&);
    SpanProbe& operator=(const SpanProbe&);
    ProbeStream& fifo_;
    bool open_;
    ap_uint<32> trips_;
};

} // namespace hw
} // namespace hlsinstr

// Watchpoints post through trace_post (above).
#include "hlsinstr/hw/watch.h"

#endif
