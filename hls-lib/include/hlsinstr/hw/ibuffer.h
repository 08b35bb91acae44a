// hlsinstr: the iBuffer, an on-chip trace buffer written in plain Vitis HLS C++ (after seed 004,
// section 4, Fig. 3): a free-running process that records trace records from a data stream into
// local memory and streams them out on command, without ever stalling the design under test.
//
//   hls::stream<hlsinstr::hw::Command>     cmd;  // host -> iBuffer: what to do
//   hls::stream<hlsinstr::hw::TraceRecord> in;   // probes -> iBuffer: one record per write
//   hls::stream<hlsinstr::hw::TraceRecord> out;  // iBuffer -> host: the recorded trace
//   hlsinstr::hw::ibuffer<1024>(cmd, in, out);   // runs until a FINISH command
//
// Commands (one is read per cycle, never while reading out):
//   Command::reset(Mode::Linear | Mode::Cyclic)  clear the buffer and the drop counter, choose the
//                                                recording mode; state RESET
//   Command::sample()  start recording (from RESET or STOP; from STOP it appends); state SAMPLE
//   Command::stop()    stop recording; the records stay; state STOP
//   Command::read()    stream the records out, oldest first; state READ, then STOP when all are
//                      out. Allowed from any state: from SAMPLE it stops recording first. The
//                      read is not destructive: READ again gives the same records.
//   Command::finish()  end the process: step() returns false, ibuffer() returns. A simulation
//                      and test aid; a free-running hardware instance is simply never sent it.
//
// Modes. Linear: once Depth records are stored, later records in SAMPLE are not stored but
// counted (dropped()); the buffer keeps the first Depth. Cyclic: a record in SAMPLE overwrites the
// oldest once the buffer is full, so the buffer keeps the last Depth; nothing is dropped.
//
// One call of IBuffer<Depth>::step() is one clock cycle, in this order:
//  1. Unless the state is READ, read at most one command (read_nb) and apply it. A command sent
//     during a read-out waits in `cmd` until the last record is out, then takes effect. FINISH
//     ends the cycle here (its cycle reads no record).
//  2. Read at most one record from `in` (read_nb) in every state, so the producer never blocks:
//     in SAMPLE (after step 1) it is stored or, linear and full, counted dropped; in any other
//     state it is discarded uncounted (it is outside the trace window).
//  3. If the state was READ when the cycle began: write the next record with write_nb. A full
//     `out` takes nothing and the same record is tried again next cycle: no loss, no duplicate.
//     After the last record the state is STOP. The cycle that applies READ writes nothing (and
//     READ of an empty buffer goes straight to STOP).
// The storage array is written (step 2, SAMPLE) or read (step 3, READ), never both in a cycle,
// so one memory port suffices for ibuffer() at II=1.
//
// Hardware cost: the storage is Depth x 160 bits (32-bit probe, 64-bit time, 64-bit value). Vitis
// picks the memory by size (block RAM for large Depth, LUTRAM or registers for small); no
// BIND_STORAGE is given, since a pragma naming a class member has not been checked with Vitis
// here. Registers: write and read indices (ceil(log2 Depth) bits each, at least 1), the stored
// and remaining counts (ceil(log2(Depth+1)) bits each), a 32-bit saturating drop counter, and a
// few bits of state, mode and the finished flag. Index increments wrap with a compare, so Depth
// need not be a power of two. Logic: a few incrementers and compares on those registers, muxes.
// Synthesis and C simulation compile the same code: nothing here depends on HLSINSTR_SYNTHESIS.
//
// II=1 is the design intent; it has not been checked by Vitis synthesis in this repository (no
// vendor tool here). The storage is read-modified at most once per iteration (one write OR one
// read, see above). A write in one cycle and a read-out are separated by READ's setup cycle, so
// the first read of the array comes at least two cycles after the last write; that dependence
// is left for Vitis to schedule, not declared false.
#ifndef HLSINSTR_HW_IBUFFER_H
#define HLSINSTR_HW_IBUFFER_H

#include "hlsinstr/config.h"

#include <ap_int.h>
#include <hls_stream.h>

namespace hlsinstr {
namespace hw {

// One trace record: which probe, when (the producer's timestamp), and a value.
struct TraceRecord {
    ap_uint<32> probe;
    ap_uint<64> time;
    ap_uint<64> value;
};

// Recording mode, chosen by RESET.
enum class Mode : unsigned char { Linear, Cyclic };

// The iBuffer's state (seed 004, Fig. 3).
enum class State : unsigned char { Reset, Sample, Stop, Read };

// A command on the command stream. Build one with the named constructors.
struct Command {
    enum class Op : unsigned char { Reset, Sample, Stop, Read, Finish };
    Op op;
    Mode mode; // used by Reset only

    static Command reset(Mode m) { return make(Op::Reset, m); }
    static Command sample() { return make(Op::Sample, Mode::Linear); }
    static Command stop() { return make(Op::Stop, Mode::Linear); }
    static Command read() { return make(Op::Read, Mode::Linear); }
    static Command finish() { return make(Op::Finish, Mode::Linear); }

  private:
    static Command make(Op o, Mode m) {
        Command c = Command();
        c.op = o;
        c.mode = m;
        return c;
    }
};

namespace detail {

// Bits needed to hold every value 0..n (at least 1).
constexpr int bits_for(unsigned long long n) { return n < 2 ? 1 : 1 + bits_for(n >> 1); }

} // namespace detail

// The trace buffer and its state machine; step() is one clock cycle (see the header comment).
// Depth > 0 records; any Depth, not only powers of two. Starts in RESET, linear, empty.
template <int Depth>
class IBuffer {
    static_assert(Depth > 0, "IBuffer<Depth> needs Depth > 0");

    typedef ap_uint<detail::bits_for(Depth - 1)> Index; // 0..Depth-1
    typedef ap_uint<detail::bits_for(Depth)> Count;     // 0..Depth

  public:
    IBuffer() : state_(State::Reset), mode_(Mode::Linear), finished_(false), wr_(0), rd_(0), count_(0), left_(0),
                dropped_(0) {}

    // One cycle. Returns false once FINISH has been applied (and does nothing from then on).
    bool step(hls::stream<Command>& cmd, hls::stream<TraceRecord>& in, hls::stream<TraceRecord>& out) {
#pragma HLS INLINE
        if (finished_) return false;
        const bool reading = state_ == State::Read;

        // 1. At most one command, never during a read-out.
        Command c = Command();
        if (!reading && cmd.read_nb(c)) {
            switch (c.op) {
            case Command::Op::Reset:
                state_ = State::Reset;
                mode_ = c.mode;
                wr_ = 0;
                count_ = 0;
                dropped_ = 0;
                break;
            case Command::Op::Sample:
                state_ = State::Sample;
                break;
            case Command::Op::Stop:
                state_ = State::Stop;
                break;
            case Command::Op::Read:
                // The oldest record: slot 0 until the buffer has been filled once, then the slot
                // the next write would take (linear full: wr_ has wrapped to 0, the same rule).
                rd_ = count_ == Count(Depth) ? wr_ : Index(0);
                left_ = count_;
                state_ = count_ == 0 ? State::Stop : State::Read;
                break;
            case Command::Op::Finish:
                finished_ = true;
                return false;
            }
        }

        // 2. At most one input record, consumed in every state.
        TraceRecord r;
        if (in.read_nb(r) && state_ == State::Sample) {
            if (mode_ == Mode::Linear && count_ == Count(Depth)) {
                if (dropped_ != ap_uint<32>(0xffffffffu)) ++dropped_;
            } else {
                storage_[wr_] = r;
                wr_ = next(wr_);
                if (count_ != Count(Depth)) ++count_;
            }
        }

        // 3. At most one output record, only in a cycle that began in READ.
        if (reading && out.write_nb(storage_[rd_])) {
            rd_ = next(rd_);
            --left_;
            if (left_ == 0) state_ = State::Stop;
        }
        return true;
    }

    State state() const { return state_; }
    Mode mode() const { return mode_; }
    // Records stored (0..Depth).
    unsigned count() const { return count_.to_uint(); }
    // Records that arrived in SAMPLE while a linear buffer was full, since the last RESET
    // (saturates at 2^32 - 1).
    unsigned dropped() const { return dropped_.to_uint(); }
    // Records still to be written out by the current read-out (0 outside READ).
    unsigned pending() const { return state_ == State::Read ? left_.to_uint() : 0u; }
    bool finished() const { return finished_; }

  private:
    static Index next(Index i) { return i == Index(Depth - 1) ? Index(0) : Index(i + 1); }

    TraceRecord storage_[Depth];
    State state_;
    Mode mode_;
    bool finished_;
    Index wr_;         // the slot the next stored record takes
    Index rd_;         // the slot the read-out writes next
    Count count_;      // records stored
    Count left_;       // records the read-out has still to write
    ap_uint<32> dropped_;
};

// The free-running process: one step() per cycle, pipelined at II=1, until FINISH.
// Use it as a process of a dataflow region (or an ap_ctrl_none top) fed by the probes' stream.
template <int Depth>
void ibuffer(hls::stream<Command>& cmd, hls::stream<TraceRecord>& in, hls::stream<TraceRecord>& out) {
    IBuffer<Depth> buf;
    bool running = true;
ibuffer_cycle:
    while (running) {
#pragma HLS PIPELINE II=1
        running = buf.step(cmd, in, out);
    }
}

} // namespace hw
} // namespace hlsinstr

#endif
