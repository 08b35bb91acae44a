// hlsinstr cosim harness: models of the port-level interfaces Vitis HLS and Vivado HLS generate
// for arguments that are not on a bus (UG1399, "Interfaces"): ap_memory RAMs, scalar ports with
// ap_vld / ap_ack / ap_hs handshakes, and ap_fifo / axis streams. Each model follows the
// harness's cycle rule (hlsinstr_harness.h): `step(now)` sees this cycle's values, decides the
// handshakes of the coming rising edge and sets the design's inputs for the next cycle.
//
// Values travel as little-endian bytes. A stream element with several ports (axis TDATA, TKEEP,
// TSTRB, TUSER, TLAST, TID, TDEST) is those ports' bits packed LSB first in that order, the
// layout the capture writes (hlsinstr_capture.h).
#ifndef HLSINSTR_PORT_MODELS_H
#define HLSINSTR_PORT_MODELS_H

namespace hlsinstr {

inline bool get_bit(const std::vector<uint8_t>& b, size_t i) {
    return i / 8 < b.size() && ((b[i / 8] >> (i % 8)) & 1);
}

// Ports that together carry one element, LSB first.
struct Packed {
    std::vector<Sig*> f;
    unsigned bits() const {
        unsigned n = 0;
        for (Sig* s : f) n += s->width;
        return n;
    }
    // Drive the ports from element bytes `e`.
    void put(const std::vector<uint8_t>& e) {
        size_t at = 0;
        for (Sig* s : f) {
            std::memset(s->w, 0, sizeof s->w);
            for (unsigned i = 0; i < s->width; i++, at++)
                if (get_bit(e, at)) s->w[i / 32] |= 1u << (i % 32);
        }
    }
    // The ports' values as an element of `eb` bytes.
    std::vector<uint8_t> get(size_t eb) const {
        std::vector<uint8_t> e(eb, 0);
        size_t at = 0;
        for (Sig* s : f)
            for (unsigned i = 0; i < s->width; i++, at++)
                if (at / 8 < eb && ((s->w[i / 32] >> (i % 32)) & 1)) e[at / 8] |= uint8_t(1u << (at % 8));
        return e;
    }
};

// ap_memory: a RAM behind `<p>_address<k> _ce<k> _we<k> _d<k> _q<k>` for each RAM port k, read
// latency 1 (q holds mem[address] from the edge after ce, and keeps it while ce is low); a read
// and a write of the same address at one edge read the old value. A `_we` wider than 1 bit is a
// byte-write enable (one bit per d/we bytes).
// The `bram` interface is the same RAM behind a BRAM controller's names, `<p>_Addr_A _EN_A
// _WEN_A _Din_A _Dout_A` (port B: `_B`; Din is the data into the RAM, Dout out of it), with a
// byte address: element i is at i times the data port's bytes rounded up to a power of two.
class ApMemory {
  public:
    std::string name;
    std::vector<uint8_t> bytes;  // the call's array
    std::vector<std::string> errors;
    ApMemory(Pins& p, const std::string& pre, unsigned ports, unsigned eb, bool bram) : name(pre), eb(eb) {
        for (unsigned k = 0; k < ports; k++) {
            std::string n = std::to_string(k), l(1, char('A' + k));
            Port x;
            x.addr = p.need(pre + (bram ? "_Addr_" + l : "_address" + n));
            x.ce = p.need(pre + (bram ? "_EN_" + l : "_ce" + n));
            x.we = p.find(pre + (bram ? "_WEN_" + l : "_we" + n));
            x.d = p.find(pre + (bram ? "_Din_" + l : "_d" + n));
            x.q = p.find(pre + (bram ? "_Dout_" + l : "_q" + n));
            if (x.we && !x.d) fail(x.we->name + " without its write data port");
            if (bram) {
                unsigned w = x.q ? x.q->width : x.d ? x.d->width : 8;
                while (x.stride < (w + 7) / 8) x.stride *= 2;
            }
            rp.push_back(x);
        }
    }
    void step(uint64_t) {
        std::vector<std::pair<Sig*, uint64_t>> reads;
        for (Port& x : rp) {
            if (!x.ce->bit()) continue;
            uint64_t i = x.addr->get() / x.stride;
            if (x.q) reads.push_back({x.q, i});
        }
        for (auto& r : reads) {
            std::memset(r.first->w, 0, sizeof r.first->w);
            if (!inside(r.second, "read")) continue;
            for (unsigned b = 0; b < eb && b < 128; b++) r.first->set_byte(b, bytes[r.second * eb + b]);
            r.first->mask();
        }
        for (Port& x : rp) {
            if (!x.ce->bit() || !x.we || x.we->get() == 0) continue;
            uint64_t i = x.addr->get() / x.stride;
            if (!inside(i, "write")) continue;
            unsigned per = x.we->width > 1 ? (eb + x.we->width - 1) / x.we->width : eb;
            for (unsigned b = 0; b < eb && b < 128; b++) {
                bool en = x.we->width > 1 ? ((x.we->get() >> (b / per)) & 1) : true;
                if (en) bytes[i * eb + b] = x.d->byte(b);
            }
        }
    }

  private:
    struct Port {
        Sig *addr, *ce, *we, *d, *q;
        unsigned stride = 1;  // address units per element
    };
    bool inside(uint64_t i, const char* what) {
        if ((i + 1) * eb <= bytes.size()) return true;
        if (errors.size() < 4) {
            char b[200];
            std::snprintf(b, sizeof b, "ap_memory %s: %s at address %llu, outside the array's %zu elements",
                          name.c_str(), what, (unsigned long long)i, bytes.size() / (eb ? eb : 1));
            errors.push_back(b);
        }
        return false;
    }
    unsigned eb;
    std::vector<Port> rp;
};

// A scalar input with a handshake: `_ap_vld` (driven high from the call's start until the
// design acknowledges it, or until ap_done without an `_ap_ack`), `_ap_ack` (the design says
// it read the value). ap_none inputs need no model: the value is set when the call is loaded.
class ScalarIn {
  public:
    ScalarIn(Pins& p, const std::string& vld_port, const std::string& ack_port) {
        if (vld_port != "-") vld = p.need(vld_port);
        if (ack_port != "-") ack = p.need(ack_port);
    }
    void begin() {
        acked = false;
        if (vld) vld->set(1);
    }
    void step(uint64_t) {
        if (ack && ack->bit() && (!vld || vld->bit())) acked = true;
        if (vld && acked) vld->set(0);
    }
    void end() {
        if (vld) vld->set(0);
    }
    bool acked = false;

  private:
    Sig *vld = nullptr, *ack = nullptr;
};

// A scalar output: with `_ap_vld`, the value at the (last) edge where it is high (and, for
// ap_hs, `_ap_ack`, which this model holds high); without it (ap_none, ap_ack), the value at
// ap_done.
class ScalarOut {
  public:
    std::string name;
    ScalarOut(Pins& p, const std::string& data, const std::string& vld_port, const std::string& ack_port)
        : name(data) {
        d = p.need(data);
        if (vld_port != "-") vld = p.need(vld_port);
        if (ack_port != "-") ack = p.need(ack_port);
    }
    void begin() {
        seen = false;
        value.clear();
        if (ack) ack->set(1);
    }
    void step(uint64_t) {
        if (vld && vld->bit()) take();
    }
    // At ap_done (or the end of an ap_ctrl_none call).
    void at_done() {
        if (!vld) take();
    }
    bool seen = false;
    std::vector<uint8_t> value;
    // Whether the port says when it holds the value (an ap_ctrl_none call waits for that).
    bool has_valid() const { return vld != nullptr; }

  private:
    void take() {
        seen = true;
        value.assign((d->width + 7) / 8, 0);
        for (size_t i = 0; i < value.size(); i++) value[i] = d->byte(unsigned(i));
    }
    Sig *d, *vld = nullptr, *ack = nullptr;
};

// How the harness's side of every stream moves (`--fifo-depth`, `--stall-pattern`): an output
// stream is a FIFO of `depth` elements (0: unbounded, always ready) that its consumer drains by
// one element at each edge whose pattern bit is 1; an input stream's producer offers its next
// element only in cycles whose pattern bit is 1. The pattern repeats, counted from the cycle
// the call is loaded, so every simulator sees the same sequence.
struct Flow {
    uint64_t depth = 0;
    std::string pattern = "1";
    uint64_t begin = 0;  // the cycle the current call was loaded
    bool on(uint64_t cycle) const {
        if (pattern.empty() || cycle < begin) return true;
        return pattern[(cycle - begin) % pattern.size()] == '1';
    }
};

// The ports of a stream: ap_fifo (`_dout _empty_n _read` in, `_din _full_n _write` out) or axis
// (`_TDATA ... _TVALID _TREADY`), found under prefix `pre`.
struct StreamPorts {
    Packed data;
    Sig *valid = nullptr, *ready = nullptr;  // empty_n/full_n/TVALID from the sender, read/write/TREADY
    Sig *count = nullptr, *cap = nullptr;    // Vitis 2022+ ap_fifo inputs: `_num_data_valid`, `_fifo_cap`
    StreamPorts(Pins& p, const std::string& pre, bool axis, bool input) {
        if (axis) {
            for (const char* s : {"_TDATA", "_TKEEP", "_TSTRB", "_TUSER", "_TLAST", "_TID", "_TDEST"})
                if (Sig* x = p.find(pre + s)) data.f.push_back(x);
            if (data.f.empty()) fail("axis " + pre + " has no " + pre + "_TDATA");
            valid = p.need(pre + "_TVALID");
            ready = p.need(pre + "_TREADY");
        } else if (input) {
            data.f.push_back(p.need(pre + "_dout"));
            valid = p.need(pre + "_empty_n");
            ready = p.need(pre + "_read");
            count = p.find(pre + "_num_data_valid");
            cap = p.find(pre + "_fifo_cap");
        } else {
            data.f.push_back(p.need(pre + "_din"));
            ready = p.need(pre + "_full_n");
            valid = p.need(pre + "_write");
        }
    }
};

// An input stream: offers the call's elements in order (in the cycles the flow's pattern
// allows); one moves at each edge where the design reads (`_read`/TREADY) while one is offered.
class StreamIn {
  public:
    std::string name;
    StreamIn(Pins& p, const std::string& pre, bool axis, unsigned eb, const Flow& flow)
        : name(pre), eb(eb), sp(p, pre, axis, true), flow(flow) {}
    void load(const std::vector<uint8_t>& bytes) {
        q.clear();
        for (size_t at = 0; eb && at + eb <= bytes.size(); at += eb)
            q.push_back(std::vector<uint8_t>(bytes.begin() + at, bytes.begin() + at + eb));
        consumed = 0;
        capacity = q.size();
        offer(flow.begin + 1);
    }
    // True when an element moved at this edge.
    bool step(uint64_t now) {
        bool moved = sp.valid->bit() && sp.ready->bit() && !q.empty();
        if (moved) {
            q.pop_front();
            consumed++;
        }
        offer(now + 1);
        return moved;
    }
    bool drained() const { return q.empty(); }
    uint64_t consumed = 0;

  private:
    // The ports for cycle `next`.
    void offer(uint64_t next) {
        bool shown = !q.empty() && flow.on(next);
        sp.valid->set(shown);
        if (!q.empty()) sp.data.put(q.front());
        if (sp.count) sp.count->set(shown ? q.size() : 0);
        if (sp.cap) sp.cap->set(capacity);
    }
    unsigned eb;
    StreamPorts sp;
    const Flow& flow;
    std::deque<std::vector<uint8_t>> q;
    uint64_t capacity = 0;  // the harness's FIFO holds the whole call's elements
};

// An output stream: a FIFO of the flow's depth (unbounded: always ready) drained by the flow's
// pattern; collects what the design writes. `_full_n`/TREADY is low while the FIFO is full.
class StreamOut {
  public:
    std::string name;
    uint64_t expected = 0;  // elements the C simulation produced (an ap_ctrl_none call ends after them)
    std::vector<uint8_t> got;
    uint64_t count = 0;
    uint64_t stalls = 0;  // cycles the design saw the FIFO full
    StreamOut(Pins& p, const std::string& pre, bool axis, unsigned eb, const Flow& flow)
        : name(pre), eb(eb), sp(p, pre, axis, false), flow(flow) {
        sp.ready->set(1);
    }
    void begin() {
        got.clear();
        count = 0;
        held = 0;
        stalls = 0;
        sp.ready->set(1);
    }
    bool step(uint64_t now) {
        // The consumer takes an element that was in the FIFO during this cycle; a write at the
        // same edge comes in behind it.
        bool wrote = sp.valid->bit() && sp.ready->bit();
        if (sp.valid->bit() && !sp.ready->bit()) stalls++;
        if (held > 0 && flow.on(now)) held--;
        if (wrote) {
            std::vector<uint8_t> e = sp.data.get(eb);
            got.insert(got.end(), e.begin(), e.end());
            count++;
            held++;
        }
        sp.ready->set(flow.depth == 0 || held < flow.depth);
        return wrote;
    }
    unsigned bits() const { return sp.data.bits(); }

  private:
    unsigned eb;
    StreamPorts sp;
    const Flow& flow;
    uint64_t held = 0;  // elements in the FIFO
};

}  // namespace hlsinstr

#endif
