// hlsinstr: the in-FPGA trace buffer (`--probes branches|watch --target vitis`).
//
// The record sites of the control-flow trace and of the watchpoints post `TraceEvent`s into ONE
// FIFO (`TraceStream`, the added parameter `hlsinstr_tr`), in program order. A tracer process
// beside the design (a dataflow process of the generated top, like the monitor) runs one loop
// at II=1 whose body is `TraceBuffer::step()`:
//
//   FIFO --read_nb--> BRAM ring of Depth records --burst of Depth/2--> m_axi region of R records
//
// * Each cycle it reads at most one event (never blocking) and stores it packed: site id
//   (IdBits, as many as the largest site id needs), value (ValueBits: a loop's trip count or a
//   watched value; 0 bits when no site carries one) and, with `timestamps`, the cycles since the
//   previous record (DeltaBits, saturating; from the free-running counter read at the site).
// * When half the BRAM holds records (a full half), it writes that half to DRAM, one word per
//   cycle at consecutive addresses (the shape of one Depth/2-beat burst), while the other half
//   keeps filling: the BRAM is read on one port and written on the other in the same cycle.
//   At the end (run-done token seen, FIFO empty) the rest goes out as one shorter burst.
// * DRAM is a ring of R records (seed 002's semantics): Linear stops storing when the region is
//   full and counts the rest as lost (still draining the FIFO: the kernel never waits for DRAM);
//   Wrap keeps the newest R, overwriting the oldest. finish() writes the header: next index,
//   flags (wrap, full; the run number in bits 32-63), records seen, records lost, cycles. The reader takes [next, R) then [0, next)
//   after a wrap, oldest first.
//
// Never stalling the kernel: a half fills in at least Depth/2 cycles (one event per cycle at
// most) and its flush takes Depth/2 cycles when m_axi takes one word per cycle, so the free half
// is never exhausted; the kernel's FIFO write blocks only when the FIFO is full, i.e. when m_axi
// back-pressure lasts longer than the FIFO depth (`--fifo-depth`) in cycles plus the free half.
// Records are never dropped between the kernel and the BRAM.
//
// Cost: Depth x (IdBits + ValueBits + DeltaBits) bits of BRAM (one BRAM36 is 512 x 72 or
// 1024 x 36 bits: the default depth 512 with records up to 72 bits is one BRAM36), three BRAM
// indices, a 64-bit DRAM index and counters. Per record site: one FIFO write of the constant
// site id (a mux input on the FIFO's data bus), plus a 32-bit counter for a loop exit.
// Measured on an RTL model with yosys: docs/branches.md#costs-measured.
#ifndef HLSINSTR_HW_TRACE_H
#define HLSINSTR_HW_TRACE_H

#include "hlsinstr/hw/monitor.h"

#include <ap_int.h>
#include <hls_stream.h>

// Widths of the trace FIFO's fields: the generated build passes them (hls_config.cfg cflags).
#ifndef HLSINSTR_TRACE_ID_BITS
#define HLSINSTR_TRACE_ID_BITS 16
#endif
#ifndef HLSINSTR_TRACE_VALUE_BITS
#define HLSINSTR_TRACE_VALUE_BITS 32
#endif

namespace hlsinstr {
namespace hw {

/// One record as a site posts it: the site id, its value (trip count, watched value; else 0)
/// and, with `timestamps`, the counter read at the site.
struct TraceEvent {
    ap_uint<HLSINSTR_TRACE_ID_BITS> site;
    ap_uint<(HLSINSTR_TRACE_VALUE_BITS > 0 ? HLSINSTR_TRACE_VALUE_BITS : 1)> value;
    Clock time;
};

typedef hls::stream<TraceEvent> TraceStream;

const dump_word TRACE_MAGIC = 0x3143525449534c48ull; // "HLSITRC1" in file order
const dump_word TRACE_VERSION = 1;
const int TRACE_HEADER_WORDS = 10;
const dump_word TRACE_FINISHED = 1;
/// Wrap mode overwrote the oldest records.
const dump_word TRACE_WRAPPED = 2;
/// Linear mode ran out of region: `lost` records were not stored.
const dump_word TRACE_FULL = 4;

namespace detail {
template <unsigned N>
struct bits_for {
    static const int value = N <= 1 ? 1 : 1 + bits_for<(N >> 1)>::value;
};
template <>
struct bits_for<0> {
    static const int value = 1;
};
} // namespace detail

/// The trace buffer: `Depth` records of BRAM (even, >= 2), record fields of `IdBits`,
/// `ValueBits` (0: none) and `DeltaBits` (0: no timestamps), a DRAM ring in `Wrap` or linear mode.
template <unsigned Depth, int IdBits, int ValueBits, int DeltaBits, bool Wrap>
class TraceBuffer {
  public:
    static const unsigned HALF = Depth / 2;
    static const int WIDTH = IdBits + ValueBits + DeltaBits;
    static const int IDX = detail::bits_for<Depth - 1>::value;
    typedef ap_uint<WIDTH> Word;

    /// `region`: records the DRAM region holds (R >= 1).
    explicit TraceBuffer(dump_word region) : run_(0) { reset(region); }

    /// The next run of the kernel begins (the tracer calls it once per run, after reset): its
    /// number, from 1 since the bitstream was loaded, goes into the header's flags word.
    void next_run() { ++run_; }

    void reset(dump_word region) {
        region_ = region;
        fill_ = 0;
        flush_ = 0;
        stored_ = 0;
        burst_ = 0;
        next_ = 0;
        seen_ = 0;
        lost_ = 0;
        cycle_ = 0;
        last_time_ = 0;
        wrapped_ = false;
        done_ = false;
    }

    /// One clock cycle: at most one record from `in`, at most one word to `dram` (the region's
    /// first record). False once the run-done token came in an earlier cycle and everything
    /// received is in DRAM.
    bool step(TraceStream& in, DoneStream& done, dump_word* dram) {
#pragma HLS INLINE
        // Start a burst: a full half, or at the end what is left.
        if (burst_ == 0 && (stored_ >= HALF || (done_ && stored_ != 0))) {
            if (stored_ >= HALF)
                burst_ = HALF;
            else
                burst_ = stored_;
        }
        bool flushed = false;
        if (burst_ != 0) {
            write_dram(dram, mem_[flush_]);
            flush_ = next_index(flush_);
            --burst_;
            flushed = true;
        }
        bool got = false;
        TraceEvent e;
        if (stored_ != Depth && in.read_nb(e)) {
            mem_[fill_] = pack(e);
            fill_ = next_index(fill_);
            ++seen_;
            got = true;
        }
        if (got && !flushed) ++stored_;
        if (!got && flushed) --stored_;
        const bool finished = done_ && !got && stored_ == 0 && burst_ == 0;
        ap_uint<1> token;
        if (!done_ && done.read_nb(token)) done_ = true;
        ++cycle_;
        return !finished;
    }

    /// The header, in the trace buffer's first TRACE_HEADER_WORDS words (after the loop).
    void finish(dump_word* buf, dump_word key) const {
#pragma HLS INLINE
        dump_word flags = TRACE_FINISHED;
        if (wrapped_) flags |= TRACE_WRAPPED;
        if (lost_ != 0) flags |= TRACE_FULL;
        buf[0] = TRACE_MAGIC;
        buf[1] = TRACE_VERSION;
        buf[2] = key;
        buf[3] = region_.to_uint64();
        buf[4] = next_.to_uint64();
        buf[5] = flags | (dump_word(run_) << 32);
        buf[6] = seen_.to_uint64();
        buf[7] = lost_.to_uint64();
        buf[8] = cycle_.to_uint64();
        buf[9] = (dump_word(Depth) << 32) | (dump_word(IdBits) << 16) | (dump_word(ValueBits) << 8) | DeltaBits;
    }

    // Test access (the cycle-stepping harness).
    unsigned stored() const { return stored_; }
    dump_word seen() const { return seen_.to_uint64(); }
    dump_word lost() const { return lost_.to_uint64(); }
    bool wrapped() const { return wrapped_; }

  private:
    static ap_uint<IDX> next_index(const ap_uint<IDX>& i) {
#pragma HLS INLINE
        ap_uint<IDX> n = i + 1;
        if (i == Depth - 1) n = 0;
        return n;
    }

    Word pack(const TraceEvent& e) {
#pragma HLS INLINE
        Word w = 0;
        w.range(IdBits - 1, 0) = e.site;
        if (ValueBits > 0) w.range(IdBits + (ValueBits > 0 ? ValueBits : 1) - 1, IdBits) = e.value;
        if (DeltaBits > 0) {
            const int lo = IdBits + ValueBits;
            const int hi = lo + (DeltaBits > 0 ? DeltaBits : 1) - 1;
            Clock d = e.time - last_time_;
            const Clock top = (Clock(1) << (DeltaBits > 0 ? DeltaBits : 1)) - 1;
            if (d > top) d = top;
            w.range(hi, lo) = d;
            last_time_ = e.time;
        }
        return w;
    }

    void write_dram(dump_word* dram, const Word& w) {
#pragma HLS INLINE
        if (next_ == region_) {
            if (Wrap) {
                next_ = 0;
                wrapped_ = true;
            } else {
                ++lost_;
                return;
            }
        }
        dram[next_] = ap_uint<64>(w).to_uint64();
        ++next_;
    }

    Word mem_[Depth];
    ap_uint<64> region_, next_, seen_, lost_, cycle_;
    ap_uint<32> run_;
    Clock last_time_;
    ap_uint<IDX> fill_, flush_;
    ap_uint<IDX + 1> stored_, burst_;
    bool wrapped_, done_;
};

} // namespace hw
} // namespace hlsinstr

#endif
