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

#endif
