// Cycle-stepping harness of the in-FPGA trace buffer (hls-lib/include/hlsinstr/hw/trace.h).
//
// Executes TraceBuffer::step, the tracer's II=1 loop body, once per simulated clock cycle while a
// scripted producer (the kernel) posts records into the trace FIFO, modelled with its depth: a
// post into a full FIFO is a kernel stall cycle, retried the next cycle. m_axi back-pressure is
// modelled as cycles in which the tracer's pipeline does not advance (no step). Checks record
// order in DRAM, flushes during the run, the ring's wrap and linear semantics, the final partial
// flush, cycle deltas with saturation, and the no-stall guarantee. Returns the failure count.
#include "hlsinstr/hw/trace.h"

#include <cstdio>
#include <vector>

using hlsinstr::hw::dump_word;
using hlsinstr::hw::TraceEvent;

namespace {

int failures = 0;

void check(bool ok, const char* scenario, const char* what, unsigned long long got, unsigned long long want) {
    if (!ok) {
        ++failures;
        std::printf("FAIL %s: %s = %llu, want %llu\n", scenario, what, got, want);
    }
}
#define CHECK_EQ(s, what, got, want) check((got) == (want), s, what, (unsigned long long)(got), (unsigned long long)(want))

struct Result {
    std::vector<dump_word> buf; // header + region
    unsigned long long kernel_stalls = 0, max_fifo = 0, end_cycle = 0, in_dram_at_half = 0;
};

// Runs `n` records: record i is posted at cycle i * every (later when the FIFO is full); the
// tracer starts stepping at `start`; in cycles c with c % stall_period < stall_len (c >= start)
// the tracer does not advance. Record i: site i % 50 + 1, value i, time = its post cycle.
template <class Buffer>
Result run(unsigned n, unsigned every, dump_word region, unsigned fifo_depth, unsigned start, unsigned stall_period,
           unsigned stall_len, std::vector<unsigned long long>* times = 0) {
    Result r;
    r.buf.assign(hlsinstr::hw::TRACE_HEADER_WORDS + region, 0);
    static Buffer tb(region);
    tb.reset(region);
    hlsinstr::hw::TraceStream fifo;
    hlsinstr::hw::DoneStream done;
    unsigned posted = 0;
    unsigned long long due = 0;
    bool done_posted = false;
    for (unsigned long long c = 0; c < 1000000; ++c) {
        // The kernel: its next record is due at `due`; a full FIFO makes it wait (a stall).
        if (posted < n && c >= due) {
            if (fifo.size() < fifo_depth) {
                TraceEvent e;
                e.site = posted % 50 + 1;
                e.value = posted;
                e.time = times ? (*times)[posted] : c;
                fifo.write(e);
                ++posted;
                due = c + every;
            } else {
                ++r.kernel_stalls;
            }
        }
        if (posted == n && !done_posted && fifo.size() < fifo_depth) {
            done.write(1);
            done_posted = true;
        }
        if (fifo.size() > r.max_fifo) r.max_fifo = fifo.size();
        if (c == (unsigned long long)n * every / 2) r.in_dram_at_half = tb.seen() - tb.stored();
        const bool stalled = stall_period != 0 && c % stall_period < stall_len;
        if (c >= start && !stalled && !tb.step(fifo, done, r.buf.data() + hlsinstr::hw::TRACE_HEADER_WORDS)) {
            r.end_cycle = c;
            break;
        }
    }
    tb.finish(r.buf.data(), 0x1234);
    return r;
}

// Records in DRAM, oldest first, as the decoder reads them.
std::vector<dump_word> read_out(const std::vector<dump_word>& buf) {
    const dump_word region = buf[3], next = buf[4];
    const bool wrapped = buf[5] & hlsinstr::hw::TRACE_WRAPPED;
    std::vector<dump_word> out;
    if (wrapped)
        for (dump_word i = next; i < region; ++i) out.push_back(buf[hlsinstr::hw::TRACE_HEADER_WORDS + i]);
    for (dump_word i = 0; i < next; ++i) out.push_back(buf[hlsinstr::hw::TRACE_HEADER_WORDS + i]);
    return out;
}

// Record i as packed with 6 id bits and 16 value bits.
dump_word packed(unsigned i) { return (i % 50 + 1) | (dump_word(i & 0xffff) << 6); }

void check_records(const char* s, const std::vector<dump_word>& got, unsigned first, unsigned count) {
    CHECK_EQ(s, "records in DRAM", got.size(), count);
    for (unsigned k = 0; k < got.size() && k < count; ++k)
        if (got[k] != packed(first + k)) {
            check(false, s, "record", k, first + k);
            return;
        }
}

typedef hlsinstr::hw::TraceBuffer<8, 6, 16, 0, false> Linear8;
typedef hlsinstr::hw::TraceBuffer<8, 6, 16, 0, true> Wrap8;

} // namespace

int main() {
    {
        // A: one record per cycle for 400 cycles, the tracer's pipeline starting 3 cycles late.
        Result r = run<Linear8>(400, 1, 1000, 16, 3, 0, 0);
        const char* s = "A back-to-back";
        CHECK_EQ(s, "kernel stall cycles", r.kernel_stalls, 0);
        check(r.max_fifo <= 4, s, "most records in the FIFO", r.max_fifo, 4);
        CHECK_EQ(s, "header magic", r.buf[0], hlsinstr::hw::TRACE_MAGIC);
        CHECK_EQ(s, "records seen", r.buf[6], 400);
        CHECK_EQ(s, "lost", r.buf[7], 0);
        CHECK_EQ(s, "flags", r.buf[5], hlsinstr::hw::TRACE_FINISHED);
        check(r.in_dram_at_half >= 190, s, "records in DRAM half way (flushed during the run)", r.in_dram_at_half, 190);
        check(r.end_cycle <= 400 + 3 + 8 + 3, s, "last cycle", r.end_cycle, 414);
        check_records(s, read_out(r.buf), 0, 400);
    }
    {
        // B: one record every 2 cycles; m_axi stalls the tracer 20 of every 100 cycles: the
        // FIFO (16) absorbs the 10 records of a stall, so the kernel never waits.
        Result r = run<Linear8>(300, 2, 1000, 16, 0, 100, 20);
        const char* s = "B short back-pressure";
        CHECK_EQ(s, "kernel stall cycles", r.kernel_stalls, 0);
        check_records(s, read_out(r.buf), 0, 300);
        // 40-cycle stalls post 20 records into a 16-deep FIFO: the kernel waits, nothing is lost.
        Result q = run<Linear8>(300, 2, 1000, 16, 0, 100, 40);
        const char* t = "B long back-pressure";
        check(q.kernel_stalls > 0, t, "kernel stall cycles (> 0)", q.kernel_stalls, 1);
        CHECK_EQ(t, "lost", q.buf[7], 0);
        check_records(t, read_out(q.buf), 0, 300);
    }
    {
        // C: 53 records into a 20-record region: wrap keeps 33..52 oldest first; linear keeps
        // 0..19 and counts 33 lost.
        Result w = run<Wrap8>(53, 1, 20, 16, 0, 0, 0);
        const char* s = "C wrap";
        CHECK_EQ(s, "next index", w.buf[4], 53 % 20);
        CHECK_EQ(s, "flags", w.buf[5], hlsinstr::hw::TRACE_FINISHED | hlsinstr::hw::TRACE_WRAPPED);
        CHECK_EQ(s, "records seen", w.buf[6], 53);
        check_records(s, read_out(w.buf), 33, 20);
        Result l = run<Linear8>(53, 1, 20, 16, 0, 0, 0);
        const char* t = "C linear";
        CHECK_EQ(t, "next index", l.buf[4], 20);
        CHECK_EQ(t, "flags", l.buf[5], hlsinstr::hw::TRACE_FINISHED | hlsinstr::hw::TRACE_FULL);
        CHECK_EQ(t, "lost", l.buf[7], 33);
        CHECK_EQ(t, "kernel stall cycles", l.kernel_stalls, 0);
        check_records(t, read_out(l.buf), 0, 20);
    }
    {
        // D: fewer records than half the buffer: only the final flush writes them.
        Result r = run<Linear8>(3, 5, 100, 16, 0, 0, 0);
        check_records("D final partial flush", read_out(r.buf), 0, 3);
    }
    {
        // E: cycle deltas (8 bits, saturating at 255) from the records' counter times.
        std::vector<unsigned long long> times;
        times.push_back(5);
        times.push_back(6);
        times.push_back(10);
        times.push_back(400);
        times.push_back(401);
        Result r = run<hlsinstr::hw::TraceBuffer<4, 6, 0, 8, false> >(5, 1, 16, 16, 0, 0, 0, &times);
        std::vector<dump_word> got = read_out(r.buf);
        const unsigned want[] = {5, 1, 4, 255, 1};
        CHECK_EQ("E deltas", "records", got.size(), 5);
        for (unsigned k = 0; k < got.size() && k < 5; ++k) {
            CHECK_EQ("E deltas", "site", got[k] & 63, k % 50 + 1);
            CHECK_EQ("E deltas", "delta", got[k] >> 6, want[k]);
        }
    }
    std::printf("trace harness: %d failed checks\n", failures);
    return failures;
}
