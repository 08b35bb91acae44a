// hlsinstr probe macros for OpenCL C kernels (.cl): what `hlsinstr rewrite` inserts into a .cl
// file calls these, with the names of hls-lib/include/hlsinstr/probe.h.
//
// Three modes, chosen when the kernels are compiled:
//
// Default: every macro compiles to nothing (a probe statement becomes an empty statement `;`,
// `return HLSINSTR_RETURN(id, O, e);` becomes `return (e);`): the instrumented kernel builds and
// behaves exactly like the original, in aoc and in emulation. Nothing is recorded.
//
// HLSINSTR_OPENCL_TRACE: each probe calls a hook the user defines in the program:
//   void hlsinstr_trace(uint id, uint event);
// with `event` one of the HLSINSTR_EV_* values below (e.g. to write it into a channel).
//
// HLSINSTR_OPENCL_IBUFFER: each probe sends a record to iBuffer unit `id`
// (hlsinstr_snapshot.cl, hlsinstr_ibuffer.cl): one unit per probe id, so compile with
//   -DHLSINSTR_OPENCL_IBUFFER -DHLSINSTR_NUM_IBUFFERS=<the manifest's probe count>
// (`probes` in hlsinstr-manifest.json; ids are 0 .. count-1) and, optionally,
// -DHLSINSTR_IBUFFER_DEPTH=<records per unit>. A function probe records its begin and its end
// (every exit), a loop probe its begin and its end with the trip count. Each record is a
// SNAPSHOT record of unit `id` whose `time` is taken in the unit when the record arrives
// (get_time), and whose `value` (a long, never negative) is
//   bits  0..31  trips: the number of iterations begun (a loop's end; 0 otherwise)
//   bit   32     0 begin, 1 end
//   bits 33..62  the sequence number (HLSINSTR_NEXT_SEQ, hlsinstr_seq.cl) modulo 2^30 when the
//                probe's option is S or TS (`--probes ...,seq`); 0 otherwise
// (HLSINSTR_PROBE_VALUE below). The trip count lives in a `uint hlsinstr_trips_<id>` that
// HLSINSTR_LOOP_BEGIN declares right before the loop. T (timestamps) needs nothing more: every
// record is stamped by its unit. The host resets and starts the units (RESET_*, SAMPLE),
// launches the kernels, then READs every unit (emulation: ibuffer_command, ibuffer_read,
// write_dump in emu/hlsinstr_emu.h).
// Limits of this mode, beyond those below: a probe id is a unit, and a channel has one
// writer kernel, so on hardware a function called from two kernels (and NDRange kernels with
// several compute units) breaks aoc's one-writer rule; so does one sequence channel read from
// probes in two kernels (one reader). The emulation accepts both. On hardware a record sent to
// a full unit channel is dropped (take_snapshot is non-blocking); the emulation waits instead.
// Sequence numbers order the probes of all kernels only because there is one counter; records
// of one unit are in arrival order anyway.
//
// Limits in every recording mode, because OpenCL C has no destructors: the end of a function is
// recorded at `return` before the returned expression is evaluated; loops left by `return`,
// `break` out of a nest or `goto` get no LOOP_END (UNWIND records nothing). In TRACE mode `O`
// (P, T, S, TS) is ignored: no timestamps or sequence numbers are taken there.
#ifndef HLSINSTR_PROBE_CL
#define HLSINSTR_PROBE_CL

#define HLSINSTR_EV_FUNC_BEGIN 0u
#define HLSINSTR_EV_FUNC_END 1u
#define HLSINSTR_EV_LOOP_BEGIN 2u
#define HLSINSTR_EV_LOOP_ITER 3u
#define HLSINSTR_EV_LOOP_END 4u

#if defined(HLSINSTR_OPENCL_TRACE) && defined(HLSINSTR_OPENCL_IBUFFER)
#error "hlsinstr_probe.cl: define HLSINSTR_OPENCL_TRACE or HLSINSTR_OPENCL_IBUFFER, not both"
#endif

#ifdef HLSINSTR_OPENCL_IBUFFER
#ifndef HLSINSTR_NUM_IBUFFERS
#error "hlsinstr_probe.cl: -DHLSINSTR_NUM_IBUFFERS=<probe count of hlsinstr-manifest.json> (one iBuffer unit per probe id)"
#endif
#include "hlsinstr_snapshot.cl"
#include "hlsinstr_seq.cl"

// The record value: trips in bits 0..31, end in bit 32, sequence number in bits 33..62.
#define HLSINSTR_PROBE_VALUE(end, trips, seq) \
    ((long)((((ulong)(seq) & 0x3ffffffful) << 33) | ((ulong)(end) << 32) | (ulong)(uint)(trips)))
// The sequence number a probe with option O takes: one read of hlsinstr_seq_ch for S and TS.
#define HLSINSTR_PROBE_SEQ_P 0u
#define HLSINSTR_PROBE_SEQ_T 0u
#define HLSINSTR_PROBE_SEQ_S HLSINSTR_NEXT_SEQ()
#define HLSINSTR_PROBE_SEQ_TS HLSINSTR_NEXT_SEQ()
#define HLSINSTR_PROBE_SEND(id, O, end, trips) \
    hlsinstr_take_snapshot_((id), HLSINSTR_PROBE_VALUE((end), (trips), HLSINSTR_PROBE_SEQ_##O))

#define HLSINSTR_FUNC_BEGIN(id, O, dep) HLSINSTR_PROBE_SEND(id, O, 0u, 0u)
#define HLSINSTR_FUNC_END(id, O, v) HLSINSTR_PROBE_SEND(id, O, 1u, 0u)
#define HLSINSTR_RETURN(id, O, e) (HLSINSTR_PROBE_SEND(id, O, 1u, 0u), (e))
#define HLSINSTR_RETURN_V(id, O, e) (HLSINSTR_PROBE_SEND(id, O, 1u, 0u), (e))
#define HLSINSTR_RETURN_VOID(id, O) HLSINSTR_PROBE_SEND(id, O, 1u, 0u)
// The record first, then the declaration: a label before the probe stays valid C.
#define HLSINSTR_LOOP_BEGIN(id, O, v) HLSINSTR_PROBE_SEND(id, O, 0u, 0u); uint hlsinstr_trips_##id = 0
#define HLSINSTR_LOOP_ITER(id) hlsinstr_trips_##id++
#define HLSINSTR_LOOP_END(id, O, v) HLSINSTR_PROBE_SEND(id, O, 1u, hlsinstr_trips_##id)
#elif defined(HLSINSTR_OPENCL_TRACE)
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

// Watchpoints (`--probes watch` with `--watch 'buf[k]'`, `--watch-range 'buf[a:b]'`,
// `--invariant 'buf[i] OP C'`; hlsinstr_watch.cl). Each access that may touch the watched
// elements is wrapped, keeping the wrapped expression (evaluated once):
//   p[HLSINSTR_WATCH_V(id, p, i)] ... ; HLSINSTR_WATCH_POST(id);      *HLSINSTR_WATCH_PV(id, p, e)
//     the value scheme: the wrapper saves the element's address in `hlsinstr_wa_<id>` (declared
//     by HLSINSTR_WATCH_DECL(id, p); at the start of the function) and HLSINSTR_WATCH_POST,
//     right after the statement, sends monitor_address(id, address, value of the element now)
//     if the access happened, then clears the address. So a record's value is the value stored
//     (a write) or loaded (a read), read back after the statement; an access skipped by `&&`,
//     `||` or `?:` sends nothing.
//   p[HLSINSTR_WATCH_R(id, p, i)]      (_W: assigned with `=`, _RW: `+=`, `++`, ...)
//   *HLSINSTR_WATCH_PR(id, p, e)       HLSINSTR_WATCH_PR(id, p, p)->x   (_PW, _PRW)
//     the index scheme, where no statement can follow the access (a loop header, a condition,
//     a `return`, an unbraced body) or the element is no scalar: the access is reported before
//     it happens with the element's index from `p` (`i`, or `(e - p)`) as the value.
// The function that holds the sites configures each site's unit first (add_watch_range):
//   HLSINSTR_WATCH_CFG(id, buf, a, b, vmin, vmax, hits);
//       watched range [&buf[a], &buf[b]), values [vmin, vmax], hits 0/1, no bound
//   HLSINSTR_WATCH_CFG_BOUNDS(id, buf, a, b, n, vmin, vmax, hits);
//       the same with the bounds [&buf[0], &buf[n])
// Other modes: the wrappers are the expression itself; the rest is nothing.
#ifdef HLSINSTR_OPENCL_IBUFFER
#include "hlsinstr_watch.cl"
long hlsinstr_watch_index_(uint id, ulong base, ulong size, long i) {
    monitor_address(id, base + (ulong)i * size, i);
    return i;
}
ulong hlsinstr_watch_ptr_(uint id, ulong base, ulong size, ulong a) {
    monitor_address(id, a, ((long)a - (long)base) / (long)size);
    return a;
}
#define HLSINSTR_WATCH_IX_(id, p, i) hlsinstr_watch_index_((id), (ulong)(p), (ulong)sizeof(*(p)), (long)(i))
#define HLSINSTR_WATCH_PTR_(id, p, e) \
    ((__typeof__(e))hlsinstr_watch_ptr_((id), (ulong)(p), (ulong)sizeof(*(p)), (ulong)(e)))
#define HLSINSTR_WATCH_R(id, p, i) HLSINSTR_WATCH_IX_(id, p, i)
#define HLSINSTR_WATCH_W(id, p, i) HLSINSTR_WATCH_IX_(id, p, i)
#define HLSINSTR_WATCH_RW(id, p, i) HLSINSTR_WATCH_IX_(id, p, i)
#define HLSINSTR_WATCH_PR(id, p, e) HLSINSTR_WATCH_PTR_(id, p, e)
#define HLSINSTR_WATCH_PW(id, p, e) HLSINSTR_WATCH_PTR_(id, p, e)
#define HLSINSTR_WATCH_PRW(id, p, e) HLSINSTR_WATCH_PTR_(id, p, e)
// The index stays the same number: (&p[i]) - p == i.
#define HLSINSTR_WATCH_V(id, p, i) ((hlsinstr_wa_##id = (p) + (i)) - (p))
#define HLSINSTR_WATCH_PV(id, p, e) (hlsinstr_wa_##id = (e))
#define HLSINSTR_WATCH_DECL(id, p) __typeof__(&(p)[0]) hlsinstr_wa_##id = 0
#define HLSINSTR_WATCH_POST(id)                                                  \
    do {                                                                         \
        if (hlsinstr_wa_##id != 0) {                                             \
            monitor_address((id), hlsinstr_wa_##id, *hlsinstr_wa_##id);          \
            hlsinstr_wa_##id = 0;                                                \
        }                                                                        \
    } while (0)
#define HLSINSTR_WATCH_CFG(id, buf, a, b, vmin, vmax, hits) \
    add_watch_range((id), (size_t)((buf) + (a)), (size_t)((buf) + (b)), 0, ULONG_MAX, (vmin), (vmax), (hits))
#define HLSINSTR_WATCH_CFG_BOUNDS(id, buf, a, b, n, vmin, vmax, hits)                                          \
    add_watch_range((id), (size_t)((buf) + (a)), (size_t)((buf) + (b)), (size_t)(buf), (size_t)((buf) + (n)), \
                    (vmin), (vmax), (hits))
#else
#define HLSINSTR_WATCH_R(id, p, i) (i)
#define HLSINSTR_WATCH_W(id, p, i) (i)
#define HLSINSTR_WATCH_RW(id, p, i) (i)
#define HLSINSTR_WATCH_PR(id, p, e) (e)
#define HLSINSTR_WATCH_PW(id, p, e) (e)
#define HLSINSTR_WATCH_PRW(id, p, e) (e)
#define HLSINSTR_WATCH_V(id, p, i) (i)
#define HLSINSTR_WATCH_PV(id, p, e) (e)
#define HLSINSTR_WATCH_DECL(id, p)
#define HLSINSTR_WATCH_POST(id)
#define HLSINSTR_WATCH_CFG(id, buf, a, b, vmin, vmax, hits)
#define HLSINSTR_WATCH_CFG_BOUNDS(id, buf, a, b, n, vmin, vmax, hits)
#endif

// Control-flow trace (`--probes branches`, docs/branches.md): a record only where the path
// taken is not implied by the records that follow. Each traced function records into an iBuffer
// unit of its own (its `trace` probe in the manifest); its sites are numbered 0, 1, ... in that
// unit. What the rewrite inserts:
//   HLSINSTR_BR_UNIT(unit, entry, O);   first in the body: the unit, then the entry's record
//   HLSINSTR_BR(id, O);                 first in an arm, case, label or loop body
//   HLSINSTR_BR_V(id, O, operand)       a `?:` arm or `&&`/`||` right operand with effects
//   HLSINSTR_BR_LOOP(id);               before a loop: its trip counter
//   HLSINSTR_BR_ITER(id);               first in that loop's body: counts a trip
//   HLSINSTR_BR_EXIT(id, O);            after the loop: the record with the trips
//   HLSINSTR_BR_END(ret, O);            before every `return` and at the body's end
// A record is a SNAPSHOT of the function's unit with
//   addr   the work-item: get_global_id(0) + get_global_size(0) * (get_global_id(1) +
//          get_global_size(1) * get_global_id(2)) (0 in a single work-item kernel)
//   value  site << 32 | trips (trips: a loop exit's iterations modulo 2^32, else 0)
// and the unit's time. `O` is not used: every record is stamped by its unit (T), and the
// records of one work-item are in order in their unit (S adds nothing). The trip counter is a
// `uint` declared after an empty statement (a label or `case` before it stays valid C).
// Other modes: nothing is recorded (`HLSINSTR_BR_V` is its operand).
#ifdef HLSINSTR_OPENCL_IBUFFER
ulong hlsinstr_br_item_(void) {
    return (ulong)get_global_id(0) +
           (ulong)get_global_size(0) * ((ulong)get_global_id(1) + (ulong)get_global_size(1) * (ulong)get_global_id(2));
}
void hlsinstr_br_send_(uint unit, uint site, uint trips) {
    hlsinstr_send_probe_(unit, hlsinstr_br_item_(), (long)(((ulong)site << 32) | (ulong)trips));
}
#define HLSINSTR_BR_UNIT(unit, entry, O) \
    const uint hlsinstr_br_u_ = (unit);  \
    hlsinstr_br_send_(hlsinstr_br_u_, (entry), 0u)
#define HLSINSTR_BR(id, O) hlsinstr_br_send_(hlsinstr_br_u_, (id), 0u)
#define HLSINSTR_BR_V(id, O, ...) (hlsinstr_br_send_(hlsinstr_br_u_, (id), 0u), (__VA_ARGS__))
#define HLSINSTR_BR_LOOP(id) \
    (void)0;                 \
    uint hlsinstr_trips_##id = 0
#define HLSINSTR_BR_ITER(id) hlsinstr_trips_##id++
#define HLSINSTR_BR_EXIT(id, O) hlsinstr_br_send_(hlsinstr_br_u_, (id), hlsinstr_trips_##id)
#define HLSINSTR_BR_END(id, O) hlsinstr_br_send_(hlsinstr_br_u_, (id), 0u)
#else
#define HLSINSTR_BR_UNIT(unit, entry, O)
#define HLSINSTR_BR(id, O)
#define HLSINSTR_BR_V(id, O, ...) (__VA_ARGS__)
#define HLSINSTR_BR_LOOP(id)
#define HLSINSTR_BR_ITER(id)
#define HLSINSTR_BR_EXIT(id, O)
#define HLSINSTR_BR_END(id, O)
#endif

// Stall monitors (`--probes stall --at LINE`, hlsinstr_snapshot.cl): around a statement that
// loads from a __global pointer,
//   HLSINSTR_SNAP(before, 0); int v = a[i * n + k]; HLSINSTR_SNAP(after, v);
// each a take_snapshot to its own unit; `v` (the variable the statement declares or assigns,
// else 0) makes the second depend on the load. The k-th `after` record's time minus the k-th
// `before` record's time is the statement's latency. Other modes: nothing.
#ifdef HLSINSTR_OPENCL_IBUFFER
#define HLSINSTR_SNAP(id, v) take_snapshot((id), (v))
#else
#define HLSINSTR_SNAP(id, v)
#endif

#endif

