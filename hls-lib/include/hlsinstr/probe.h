// hlsinstr: the probes the rewriter inserts. The only header instrumented code includes.
//
// | macro (as the rewriter writes it)           | where                                       |
// |---------------------------------------------|---------------------------------------------|
// | HLSINSTR_FUNC_BEGIN(id, O, dep);            | first thing in a probed function's body     |
// | HLSINSTR_FUNC_END(id, O, 0);                | where control falls off the function's end  |
// | return HLSINSTR_RETURN(id, O, expr);        | `return expr;` (RETURN_V in a void function)|
// | return HLSINSTR_RETURN_VOID(id, O);         | `return;`                                   |
// | HLSINSTR_LOOP_BEGIN(id, O, 0);              | before a probed loop (and its label)        |
// | HLSINSTR_LOOP_ITER(id);                     | first thing in the loop body                |
// | HLSINSTR_LOOP_END(id, O, 0);                | after the loop                              |
// | HLSINSTR_LEAF_BEGIN(id, P, 0); ..._LEAF_END | a leaf loop's, instead of LOOP_BEGIN/END      |
// | HLSINSTR_LEAF_PARENT_BEGIN(id, P, 0); ..._END | a loop whose only loops are leaves           |
// | HLSINSTR_LOOP_FRAME();                      | hand-written probes only: first in a function with probed loops and no FUNC_BEGIN |
// | HLSINSTR_UNWIND(fid, depth);                | after a label a goto reaches from loops     |
// | HLSINSTR_MAXI_PORTS(first, count);          | after FUNC_BEGIN: the module's m_axi ports  |
// | p[HLSINSTR_MAXI_R(id, p, i)] (W, RW, RN, WN) | accesses to m_axi ports (maxi.h)           |
// | HLSINSTR_STREAM_NAME(var);                  | after a stream declaration (C simulation)   |
//
// O is P, T, S or TS (options.h). `dep` is a value the timestamp read depends on, so an HLS
// scheduler cannot move it (the in-FPGA build uses it; C simulation ignores it).
//
// C simulation: FUNC_BEGIN declares a frame object whose destructor records the module's end on
// every way out — so `return expr;` records the end after `expr` is evaluated, and RETURN passes
// `expr` through untouched (no copy, no conversion: `return 0;` from a pointer function stays
// valid). Loops push a frame on the thread's probe stack; ITER counts a trip; END pops it and
// records the trip count (ITER adds to the innermost open loop without checking which: see
// loop_iter). A return, or a goto to an UNWIND label, closes the loops it leaves.
//
// Synthesis: everything compiles to nothing (`expr` stays), until the in-FPGA build gives the
// probes hardware meaning.
#ifndef HLSINSTR_PROBE_H
#define HLSINSTR_PROBE_H

#ifndef __cplusplus
// A C file (`.c` kernel): the same macros over a C interface to this runtime (probe_c.h).
#include "hlsinstr/probe_c.h"
#else
// C++ linkage even when an instrumented header is first included inside `extern "C" { }` (a
// C++ testbench including a C kernel's header).
extern "C++" {

#include "hlsinstr/config.h"
#include "hlsinstr/options.h"

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
#define HLSINSTR_LEAF_BEGIN(id, o, dep) ((void)0)
#define HLSINSTR_LEAF_END(id, o, value) ((void)0)
#define HLSINSTR_LEAF_PARENT_BEGIN(id, o, dep) ((void)0)
#define HLSINSTR_LEAF_PARENT_END(id, o, value) ((void)0)
#define HLSINSTR_UNWIND(fid, depth) ((void)0)
#define HLSINSTR_STREAM_NAME(var) ((void)0)

#else

// Vitis' csim, and `hlsinstr sim` unless the project asks for -O, build the testbench -O0. Then
// every helper the probes' inlined path calls (the thread's log, its stack, the order counter,
// the encoder, std::atomic's members) is a call of unoptimised code, and a probe costs ~30 ns
// instead of ~1.5 (a 12 M-record run: 0.59 s of probes -> 0.16 s). So g++ compiles this
// runtime, and the standard headers it is the first to include, optimised whatever the build
// says; the kernel's and testbench's own functions stay as built (-O0 -g). Clang has no such
// pragma (it keeps the build's level); an optimised build needs none.
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("O2")
#define HLSINSTR_RUNTIME_OPTIMIZED 1
#endif

#include "hlsinstr/event_log.h"

// A probe's entry (a module's begin and end, a loop's begin and end): in an optimised build
// inlined where the probe is (its options fold there, see HLSINSTR_INLINE). In the -O0 build
// above it is one call of a function compiled optimised, its helpers inlined into it: inlined
// into the -O0 caller instead, its body was compiled at the caller's level (every value
// through the stack) and a record cost ~11 ns; called, ~5 (the median filter's 12 M records:
// 0.168 s of probes -> 0.099 s, log byte-identical). The loop trip stays inlined: a call per
// trip would cost more than it saves.
#if defined(HLSINSTR_RUNTIME_OPTIMIZED)
#define HLSINSTR_ENTRY __attribute__((noinline)) inline
#else
#define HLSINSTR_ENTRY HLSINSTR_INLINE
#endif

#include <cstddef>
#include <cstdint>
#include <cstdio>

#define HLSINSTR_FUNC_BEGIN(id, o, dep) ::hlsinstr::sim::FunctionFrame hlsinstr_frame_(id, HLSINSTR_OPT_##o, dep)
#define HLSINSTR_FUNC_END(id, o, value) hlsinstr_frame_.end()
#define HLSINSTR_RETURN(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_V(id, o, ...) __VA_ARGS__
#define HLSINSTR_RETURN_VOID(id, o) hlsinstr_frame_.end()
// A loop's trips are counted in its function's frame object, a local (see top_loop_trips in
// event_log.h): the rewriter gives every function with a probed loop a module probe, and
// hand-written loop probes without one declare where they count with HLSINSTR_LOOP_FRAME. `dep`
// is not evaluated (C simulation has no use for it).
#define HLSINSTR_LOOP_BEGIN(id, o, dep)                                                                 \
    (::hlsinstr::sim::loop_begin<HLSINSTR_OPT_##o>(id, hlsinstr_frame_.loop_trips), (void)sizeof(dep))
#define HLSINSTR_LOOP_ITER(id) (void)++hlsinstr_frame_.loop_trips
#define HLSINSTR_LOOP_END(id, o, value) ::hlsinstr::sim::loop_end<HLSINSTR_OPT_##o>(id)
#define HLSINSTR_LOOP_FRAME() ::hlsinstr::sim::LoopFrame hlsinstr_frame_ = {0, 0, 0}
// A leaf loop (the rewriter's: no loop, call, return, goto or throw in its body, so no record
// between its begin and end): nothing on the probe stack; its trips count in the same local,
// whose value for the enclosing loop is set aside meanwhile, and its end stores them for one
// leaf-runs record (LeafRuns in event_log.h), inlined: no call unless the store is full or off.
#define HLSINSTR_LEAF_BEGIN(id, o, dep) (::hlsinstr::sim::leaf_begin(id, hlsinstr_frame_), (void)sizeof(dep))
#define HLSINSTR_LEAF_END(id, o, value) ::hlsinstr::sim::leaf_end<HLSINSTR_OPT_##o>(id, hlsinstr_frame_)
// A leaf parent (the rewriter's: a loop whose only loops are leaves, and no call, return, goto or
// throw in its text): its begin and end are stored inline beside its leaves' runs (one entry
// each, LeafRuns), so a run of it and of all its leaves costs no call either.
#define HLSINSTR_LEAF_PARENT_BEGIN(id, o, dep)                                                          \
    (::hlsinstr::sim::parent_begin<HLSINSTR_OPT_##o>(id, hlsinstr_frame_), (void)sizeof(dep))
#define HLSINSTR_LEAF_PARENT_END(id, o, value) ::hlsinstr::sim::parent_end<HLSINSTR_OPT_##o>(id, hlsinstr_frame_)
#define HLSINSTR_UNWIND(fid, depth) hlsinstr_frame_.unwind(depth)
#define HLSINSTR_STREAM_NAME(var) ::hlsinstr::sim::name_stream(var, #var, 0)

namespace hlsinstr {
namespace sim {

// A module invocation. Lives from the function's first statement to its last destructor.
class FunctionFrame {
  public:
    template <class Dep>
    HLSINSTR_ENTRY FunctionFrame(std::uint32_t id, unsigned options, const Dep& dep)
        : loop_trips(0), leaf_saved(0), parent_saved(0), log_(ThreadLog::current()), index_(0), open_(log_ != 0), pushed_(false), options_(options),
          ports_first_(0), ports_count_(0), port_bytes_(0) {
        (void)dep;
        if (!log_) return;
        log_->settle(); // a leaf loop of the caller running now goes on the stack first
        index_ = log_->stack().size();
        // Out of memory: no module frame, but the function's loops may still push theirs, which
        // count here; its end closes them (they must not outlive this object).
        if (!log_->push(id, options, false, loop_trips)) return;
        pushed_ = true;
        log_->record(id, EVENT_BEGIN, options, false, 0);
    }

    // The trips of this function's innermost open loop while it is the top of the probe stack
    // (HLSINSTR_LOOP_ITER adds to it: a local of the function, see top_loop_trips).
    std::uint64_t loop_trips;
    // The enclosing loop's count while a leaf loop counts in loop_trips (HLSINSTR_LEAF_BEGIN).
    std::uint64_t leaf_saved;
    // The enclosing loop's count while a leaf parent counts there (HLSINSTR_LEAF_PARENT_BEGIN).
    std::uint64_t parent_saved;

    HLSINSTR_INLINE ~FunctionFrame() { end(); }

    // Records the end once, closing the loops a return left open; the m_axi traffic of the
    // invocation goes just before the end record.
    HLSINSTR_ENTRY void end() {
        if (!open_) return;
        open_ = false;
        if (!ThreadLog::current()) return;
        log_->settle(); // a leaf loop left by a jump (an exception) is closed with the others
        ProbeStack& stack = log_->stack();
        if (stack.size() == index_ + 1 && !stack.back().loop && ports_count_ == 0) {
            log_->close_top_as(false, options_); // the usual end: nothing above the module's frame, no ports
        } else {
            end_with_more();
        }
    }

    // Byte counters (read, written) of ports first..first+count-1, owned by the caller (maxi.h)
    // and alive until end().
    void attach_ports(std::uint32_t first, std::uint32_t count, const std::uint64_t* bytes) {
        ports_first_ = first;
        ports_count_ = count;
        port_bytes_ = bytes;
    }

    // A goto landed at a label inside `depth` probed loops: close the loops it jumped out of.
    void unwind(std::size_t depth) {
        if (!open_ || !ThreadLog::current()) return;
        log_->settle();
        ProbeStack& stack = log_->stack();
        while (stack.size() > index_ + (pushed_ ? 1 : 0) + depth) log_->close_top();
    }

  private:
    // An end that closes loops a return left open or records m_axi traffic first: out of line,
    // so the usual end stays short where it is inlined.
    HLSINSTR_COLD void end_with_more() {
        ProbeStack& stack = log_->stack();
        if (!pushed_) { // no module frame (out of memory): close the loops that count here
            while (stack.size() > index_) log_->close_top();
            return;
        }
        if (stack.size() <= index_) return; // a mismatched loop end popped us; already reported
        while (stack.size() > index_ + 1) log_->close_top();
        for (std::uint32_t k = 0; k < ports_count_; ++k) {
            const std::uint64_t read = port_bytes_[2 * k], written = port_bytes_[2 * k + 1];
            if (read) log_->record(ports_first_ + k, EVENT_READ, 0, true, read);
            if (written) log_->record(ports_first_ + k, EVENT_WRITE, 0, true, written);
        }
        log_->close_top();
    }

    FunctionFrame(const FunctionFrame&);
    FunctionFrame& operator=(const FunctionFrame&);

    ThreadLog* log_;
    std::size_t index_;
    bool open_;
    bool pushed_; // the module's frame is on the stack (false only when memory was out)
    unsigned options_; // the begin's, a constant where the frame is: the end's record folds them
    std::uint32_t ports_first_;
    std::uint32_t ports_count_;
    const std::uint64_t* port_bytes_;
};

// Where the loops of a function without a module probe count (HLSINSTR_LOOP_FRAME).
struct LoopFrame {
    std::uint64_t loop_trips;
    std::uint64_t leaf_saved;
    std::uint64_t parent_saved;
};

// The thread's store of leaf runs, for the probes inlined into the kernel's code. In an -O0
// build its address is computed once and the stores go through it: with the thread-local's
// fields addressed through the %fs segment one by one (as a static executable, which `sim`
// links, does), the leaf parents' probes made the median filter's -O0 probed run slower (0.152
// -> 0.164 s) although it ran fewer instructions (3.26 -> 3.15 G); through the pointer, 0.154 s
// (AMD EPYC; docs/benchmarks.md, "Leaf parents").
HLSINSTR_INLINE LeafRuns& leaf_store() {
    LeafRuns* p = &ThreadLog::slot().leaves;
#if defined(__GNUC__) && !defined(__OPTIMIZE__)
    __asm__("" : "+r"(p)); // the address, not the thread-local's name, from here on
#endif
    return *p;
}

// A leaf loop begins: inlined even at -O0 (four stores).
template <class Frame>
HLSINSTR_INLINE void leaf_begin(std::uint32_t id, Frame& frame) {
    frame.leaf_saved = frame.loop_trips;
    frame.loop_trips = 0;
    LeafRuns& l = leaf_store();
    l.open = id + 1;
    l.count = &frame.loop_trips;
}

// A leaf loop's run is over (see HLSINSTR_LEAF_BEGIN): out of line where the inlined end could
// not store it.
template <unsigned Options>
HLSINSTR_ENTRY void leaf_run(std::uint32_t id, std::uint64_t trips) {
    if (ThreadLog* t = ThreadLog::current()) t->leaf_run(id, Options, trips);
}

// Inlined into the kernel even at -O0: a few loads and stores on the thread's log, then the
// enclosing loop's count back.
template <unsigned Options, class Frame>
HLSINSTR_INLINE void leaf_end(std::uint32_t id, Frame& frame) {
    LeafRuns& l = leaf_store();
    l.open = 0;
    // Stored only while no other thread has recorded: a run stored later could happen after
    // another thread's record (through a stream, say) and still take an order below it.
    if (l.n < l.limit && !Log::instance().shared()) {
        l.tags[l.n] = id << 1;
        l.values[l.n++] = frame.loop_trips;
    } else {
        leaf_run<Options>(id, frame.loop_trips);
    }
    frame.loop_trips = frame.leaf_saved;
}

// An unnamed stream (hls_stream.h's model names it `hls::stream<T>.N`) takes its variable's
// name; a named one, or a stream of another model (the vendor's), is left alone. Arrays of
// streams name each element `var[i]`.
template <class S>
inline auto name_stream(S& s, const char* name, int) -> decltype(s.hlsinstr_name_default(name), void()) {
    s.hlsinstr_name_default(name);
}
template <class S>
inline void name_stream(S&, const char*, long) {}
template <class S, std::size_t N>
inline void name_stream(S (&a)[N], const char* name, int) {
    for (std::size_t i = 0; i < N; ++i) {
        char element[256];
        std::snprintf(element, sizeof element, "%s[%lu]", name, static_cast<unsigned long>(i));
        name_stream(a[i], element, 0);
    }
}

// A loop's begin: its frame counts at `count` (its function's FunctionFrame::loop_trips; the C
// probes' thread-local).
HLSINSTR_INLINE void loop_open(std::uint32_t id, unsigned options, std::uint64_t& count) {
    ThreadLog* t = ThreadLog::current();
    if (!t) return;
    if (t->push(id, options, true, count)) t->record(id, EVENT_BEGIN, options, false, 0);
}

// The probe's entry, one per option set: its options are a constant in it (the branches on them
// fold), and the call passes two arguments, not four.
template <unsigned Options>
HLSINSTR_ENTRY void loop_begin(std::uint32_t id, std::uint64_t& count) {
    loop_open(id, Options, count);
}

// Finds loop `id` among the loops on top of the stack, closing (and reporting) loops above it
// that lost their end; false when the loop is not open in the current function.
inline bool reach_loop(ThreadLog& t, std::uint32_t id) {
    ProbeStack& stack = t.stack();
    std::size_t i = stack.size();
    while (i > 0 && stack[i - 1].loop && stack[i - 1].probe != id) --i;
    if (i == 0 || !stack[i - 1].loop) {
        t.warn_once(id, "loop probe reached while the loop is not open (a jump into the loop?); trips not counted");
        return false;
    }
    if (i != stack.size()) {
        t.warn_once(stack.back().probe, "loop left without its end probe; closed late by an enclosing loop");
        while (stack.size() > i) t.close_top();
    }
    return true;
}

// The C probes' trip (C++ probes add to their function's frame, see HLSINSTR_LOOP_ITER): one add
// to the thread's count, nothing else. The rewriter guarantees the loop is the top here (its begin pushed it; every way out of a loop body it opened — break,
// return, goto, a callee's exits — closes what it left), so the probe does not check, and the
// compiler can keep the count in a register across a loop body without calls (a checked
// version, a compare and a call on mismatch, made quicksort's kernel 1.4x the instructions of
// the plain one instead of 1.02x). Misuse that breaks the guarantee (hand-written probes that
// jump into a loop, an exception caught inside the function that threw it out of a loop) counts
// trips to the wrong loop; the loop's end still finds and reports the frames left open. Inlined
// even at -O0, as top_loop is: two calls a trip cost more than a small kernel's loop body.
HLSINSTR_INLINE void loop_iter(std::uint32_t id) {
    (void)id;
    ++top_loop_trips();
}

// A loop's end that does not find the loop on top (see reach_loop): out of line, so the usual
// end needs no registers saved for the search and its warnings.
HLSINSTR_COLD inline void loop_end_elsewhere(ThreadLog& t, std::uint32_t id) {
    if (reach_loop(t, id)) t.close_top();
}

// `Options` are the loop's begin's (the rewriter writes the same at both).
template <unsigned Options>
HLSINSTR_ENTRY void loop_end(std::uint32_t id) {
    ThreadLog* t = ThreadLog::current();
    if (!t) return;
    ProbeStack& stack = t->stack();
    if (!stack.empty() && stack.back().loop && stack.back().probe == id) {
        t->close_top_as(true, Options);
    } else {
        loop_end_elsewhere(*t, id);
    }
}

// The same with the options read from the loop's frame (the C probes' runtime).
inline void loop_end(std::uint32_t id) {
    ThreadLog* t = ThreadLog::current();
    if (!t) return;
    ProbeStack& stack = t->stack();
    if (!stack.empty() && stack.back().loop && stack.back().probe == id) {
        t->close_top_as(true);
    } else {
        loop_end_elsewhere(*t, id);
    }
}

// A leaf parent's begin or end the inlined path could not store (see HLSINSTR_LEAF_PARENT_BEGIN):
// out of line.
template <unsigned Options>
HLSINSTR_ENTRY void parent_open(std::uint32_t id, std::uint64_t& count) {
    if (ThreadLog* t = ThreadLog::current()) t->parent_open(id, Options, count);
}
// Its end: stored when only the store was full, else closed as any loop (it is on the probe
// stack: opened there, or promoted by a record in it).
template <unsigned Options>
HLSINSTR_ENTRY void parent_close(std::uint32_t id, std::uint64_t trips) {
    ThreadLog* t = ThreadLog::current();
    if (!t || t->store_parent_end(id, Options, trips)) return;
    ProbeStack& stack = t->stack();
    if (!stack.empty() && stack.back().loop && stack.back().probe == id) {
        t->close_top_as(true, Options);
    } else {
        loop_end_elsewhere(*t, id);
    }
}

// A leaf parent begins: inlined even at -O0, a few loads and stores on the thread's log (its
// begin stored as an entry), or one call when it cannot be stored.
template <unsigned Options, class Frame>
HLSINSTR_INLINE void parent_begin(std::uint32_t id, Frame& frame) {
    frame.parent_saved = frame.loop_trips;
    frame.loop_trips = 0;
    LeafRuns& l = leaf_store();
    if (l.n < l.limit && !Log::instance().shared()) {
        l.tags[l.n] = id << 1 | 1;
        l.values[l.n++] = 0;
        l.parent = id + 1;
        l.parent_count = &frame.loop_trips;
    } else {
        parent_open<Options>(id, frame.loop_trips);
    }
}

// A leaf parent's end: its trips stored as an entry while its begin is still stored (not made an
// ordinary loop by a record in it: ThreadLog::promote_parent), then the enclosing loop's count back.
template <unsigned Options, class Frame>
HLSINSTR_INLINE void parent_end(std::uint32_t id, Frame& frame) {
    LeafRuns& l = leaf_store();
    if (l.parent == id + 1 && l.n < l.limit && !Log::instance().shared()) {
        l.parent = 0;
        l.tags[l.n] = id << 1 | 1;
        l.values[l.n++] = frame.loop_trips + 1;
    } else {
        parent_close<Options>(id, frame.loop_trips);
    }
    frame.loop_trips = frame.parent_saved;
}

} // namespace sim
} // namespace hlsinstr

#endif

// m_axi traffic probes use the frame above; included last so that either header may come first.
#include "hlsinstr/maxi.h"
// The control-flow trace (`branches`).
#include "hlsinstr/branches.h"
// Watchpoints (`watch`, C simulation).
#include "hlsinstr/watch.h"

#ifdef HLSINSTR_RUNTIME_OPTIMIZED
#pragma GCC pop_options
#endif

} // extern "C++"
#endif // __cplusplus

#endif
