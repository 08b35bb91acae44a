// hlsinstr: the control-flow trace (`--probes branches`). The rewriter puts a record only where
// the path taken is not implied by the records that follow (docs/branches.md); `hlsinstr sim`
// replays the records on the control-flow graph kept in the manifest.
//
// | macro (as the rewriter writes it)        | where                                          |
// |------------------------------------------|------------------------------------------------|
// | HLSINSTR_BR_FUNC(entry, ret, O);         | first in a traced function: records `entry`,   |
// |                                          | and `ret` on every way out (a destructor)      |
// | HLSINSTR_BR(id, O);                      | first in an arm, case, label or loop body      |
// | HLSINSTR_BR_V(id, O, operand)            | a `?:` arm or `&&`/`||` right operand with     |
// |                                          | calls or side effects: records, then evaluates |
// | HLSINSTR_BR_LOOP(id);                    | before a loop: its trip counter                |
// | HLSINSTR_BR_ITER(id);                    | first in that loop's body: counts a trip       |
// | HLSINSTR_BR_EXIT(id, O);                 | after the loop: records `id` with the trips    |
//
// Every record is one event `T` of the shared record stream (event_log.h) with the site id as
// its probe, ~2 bytes in C simulation. The trip counter is a plain local declared without an
// initializer (then assigned), so a `goto` or `case` may jump past it as past any scalar.
// Synthesis: nothing, the counter included (the in-FPGA trace buffer is not there yet).
#ifndef HLSINSTR_BRANCHES_H
#define HLSINSTR_BRANCHES_H

#include "hlsinstr/config.h"
#include "hlsinstr/options.h"

#if HLSINSTR_SYNTHESIS

#define HLSINSTR_BR_FUNC(entry, ret, o) ((void)0)
#define HLSINSTR_BR(id, o) ((void)0)
#define HLSINSTR_BR_V(id, o, ...) (__VA_ARGS__)
#define HLSINSTR_BR_LOOP(id) ((void)0)
#define HLSINSTR_BR_ITER(id) ((void)0)
#define HLSINSTR_BR_EXIT(id, o) ((void)0)

#else

#include "hlsinstr/event_log.h"

#include <cstdint>

#define HLSINSTR_BR_FUNC(entry, ret, o) ::hlsinstr::sim::TraceCall hlsinstr_trace_(entry, ret, HLSINSTR_OPT_##o)
#define HLSINSTR_BR(id, o) ::hlsinstr::sim::trace_site(id, HLSINSTR_OPT_##o)
#define HLSINSTR_BR_V(id, o, ...) (::hlsinstr::sim::trace_site(id, HLSINSTR_OPT_##o), (__VA_ARGS__))
#define HLSINSTR_BR_LOOP(id)                                                                                         \
    unsigned long long hlsinstr_trips_##id;                                                                          \
    hlsinstr_trips_##id = 0
#define HLSINSTR_BR_ITER(id) ++hlsinstr_trips_##id
#define HLSINSTR_BR_EXIT(id, o) ::hlsinstr::sim::trace_exit(id, HLSINSTR_OPT_##o, hlsinstr_trips_##id)

namespace hlsinstr {
namespace sim {

inline void trace_site(std::uint32_t id, unsigned options) {
    if (ThreadLog* t = ThreadLog::current()) t->record(id, EVENT_TRACE, options, false, 0);
}

inline void trace_exit(std::uint32_t id, unsigned options, unsigned long long trips) {
    if (ThreadLog* t = ThreadLog::current()) t->record(id, EVENT_TRACE, options, true, trips);
}

// A traced call: its entry now, its return when the function is left, however.
class TraceCall {
  public:
    TraceCall(std::uint32_t entry, std::uint32_t ret, unsigned options) : ret_(ret), options_(options) {
        trace_site(entry, options);
    }
    ~TraceCall() { trace_site(ret_, options_); }

  private:
    TraceCall(const TraceCall&);
    TraceCall& operator=(const TraceCall&);
    std::uint32_t ret_;
    unsigned options_;
};

} // namespace sim
} // namespace hlsinstr

#endif

#endif
