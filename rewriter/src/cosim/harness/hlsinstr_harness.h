// hlsinstr cosim harness: bus models and the call replayer, shared by every simulator.
//
// Generated into the work directory by `hlsinstr cosim` (source: rewriter/src/cosim/harness/).
// A simulator back end (Verilator main, Icarus VPI) owns the clock and copies port values
// between the design and `Pins` once per cycle:
//   1. with the clock low and everything settled, copy the design's outputs into Pins;
//   2. `Harness::step()`: every model sees the values of this cycle (its own inputs as driven,
//      the design's outputs), decides which handshakes happen at the coming rising edge and
//      writes the inputs of the next cycle into Pins;
//   3. rising edge (the design samples the inputs it had during step 2);
//   4. copy Pins' inputs into the design, clock low, settle.
// So every model behaves like synchronous logic clocked by the same edge, and both simulators
// see the same input sequence cycle for cycle.
//
// The plan (what to run) is a text file written by hlsinstr; see cosim/plan.rs.
#ifndef HLSINSTR_HARNESS_H
#define HLSINSTR_HARNESS_H

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace hlsinstr {

// One port's value, up to 1024 bits, as 32-bit words (least significant first).
struct Sig {
    std::string name;
    bool input = false;  // an input of the design (driven by the harness)
    unsigned width = 1;
    uint32_t w[32] = {0};
    unsigned words() const { return (width + 31) / 32; }
    uint64_t get() const { return width > 32 ? (uint64_t(w[1]) << 32) | w[0] : w[0]; }
    bool bit() const { return w[0] & 1; }
    void set(uint64_t v) {
        std::memset(w, 0, sizeof w);
        w[0] = uint32_t(v);
        if (width > 32) w[1] = uint32_t(v >> 32);
        mask();
    }
    void mask() {
        unsigned n = words();
        if (width % 32) w[n - 1] &= (1u << (width % 32)) - 1;
        for (unsigned k = n; k < 32; k++) w[k] = 0;
    }
    uint8_t byte(unsigned i) const { return uint8_t(w[i / 4] >> (8 * (i % 4))); }
    void set_byte(unsigned i, uint8_t b) {
        w[i / 4] = (w[i / 4] & ~(0xffu << (8 * (i % 4)))) | (uint32_t(b) << (8 * (i % 4)));
    }
};

[[noreturn]] inline void fail(const std::string& m) {
    std::fprintf(stderr, "hlsinstr harness: %s\n", m.c_str());
    std::exit(3);
}

struct Pins {
    std::vector<Sig> s;
    std::map<std::string, size_t> index;
    void add(const std::string& name, bool input, unsigned width) {
        if (width > 1024) fail("port " + name + " is wider than 1024 bits");
        index[name] = s.size();
        Sig g;
        g.name = name;
        g.input = input;
        g.width = width;
        s.push_back(g);
    }
    Sig* find(const std::string& n) {
        auto it = index.find(n);
        return it == index.end() ? nullptr : &s[it->second];
    }
    Sig* need(const std::string& n) {
        Sig* g = find(n);
        if (!g) fail("the design has no port " + n);
        return g;
    }
};

// The memory every m_axi bundle reads and writes: the call's buffers at their base addresses.
struct Memory {
    struct Region {
        uint64_t base;
        std::vector<uint8_t> bytes;
    };
    std::vector<Region> regions;
    uint64_t stray_reads = 0;
    std::vector<std::string> errors;
    Region* at(uint64_t a) {
        for (auto& r : regions)
            if (a >= r.base && a < r.base + r.bytes.size()) return &r;
        return nullptr;
    }
    uint8_t read(uint64_t a) {
        Region* r = at(a);
        if (!r) {
            stray_reads++;
            return 0;
        }
        return r->bytes[a - r->base];
    }
    void write(uint64_t a, uint8_t v, const std::string& who) {
        Region* r = at(a);
        if (!r) {
            if (errors.size() < 8) {
                char b[128];
                std::snprintf(b, sizeof b, "%s wrote outside every buffer, at address 0x%llx", who.c_str(),
                              (unsigned long long)a);
                errors.push_back(b);
            }
            return;
        }
        r->bytes[a - r->base] = v;
    }
};

struct Timing {
    unsigned read_latency = 8;    // cycles from AR accepted to the first R beat offered
    unsigned write_latency = 4;   // cycles from the last W beat to B offered
    unsigned outstanding = 16;    // bursts in flight per direction
};

// AXI4 slave memory for one m_axi bundle: INCR bursts, narrow transfers, outstanding bursts.
class AxiRam {
  public:
    AxiRam(Pins& p, const std::string& b, Memory& m, const Timing& t) : mem(m), t(t), name("m_axi " + b) {
        std::string pre = "m_axi_" + b + "_";
        auto o = [&](const char* s) { return p.find(pre + s); };
        awvalid = p.need(pre + "AWVALID"), awready = p.need(pre + "AWREADY"), awaddr = p.need(pre + "AWADDR");
        awlen = p.need(pre + "AWLEN"), awsize = o("AWSIZE"), awid = o("AWID");
        wvalid = p.need(pre + "WVALID"), wready = p.need(pre + "WREADY"), wdata = p.need(pre + "WDATA");
        wstrb = p.need(pre + "WSTRB"), wlast = o("WLAST");
        bvalid = p.need(pre + "BVALID"), bready = p.need(pre + "BREADY"), bresp = o("BRESP"), bid = o("BID");
        arvalid = p.need(pre + "ARVALID"), arready = p.need(pre + "ARREADY"), araddr = p.need(pre + "ARADDR");
        arlen = p.need(pre + "ARLEN"), arsize = o("ARSIZE"), arid = o("ARID");
        rvalid = p.need(pre + "RVALID"), rready = p.need(pre + "RREADY"), rdata = p.need(pre + "RDATA");
        rlast = o("RLAST"), rresp = o("RRESP"), rid = o("RID");
        bus = wdata->width / 8;
    }
    bool busy() const { return !reads.empty() || !writes.empty() || !bq.empty(); }
    void step(uint64_t now) {
        // Handshakes at this edge, from the values of this cycle.
        if (arvalid->bit() && arready->bit())
            reads.push_back({araddr->get(), unsigned(arlen->get()) + 1, size(arsize), arid ? arid->get() : 0,
                             now + t.read_latency, 0});
        if (rvalid->bit() && rready->bit()) {
            Burst& r = reads.front();
            if (++r.beat == r.beats) reads.pop_front();
        }
        if (awvalid->bit() && awready->bit())
            writes.push_back({awaddr->get(), unsigned(awlen->get()) + 1, size(awsize), awid ? awid->get() : 0, 0, 0});
        if (wvalid->bit() && wready->bit()) {
            Burst& w = writes.front();
            uint64_t a = beat_addr(w);
            for (unsigned i = 0; i < bus; i++) {
                uint64_t byte = a - a % bus + i;
                if ((wstrb->w[i / 32] >> (i % 32)) & 1) mem.write(byte, wdata->byte(i), name);
            }
            if (++w.beat == w.beats) {
                bq.push_back({w.id, now + t.write_latency});
                writes.pop_front();
            }
        }
        if (bvalid->bit() && bready->bit()) bq.pop_front();
        // Inputs of the next cycle.
        arready->set(reads.size() < t.outstanding);
        awready->set(writes.size() + bq.size() < t.outstanding);
        wready->set(!writes.empty());
        bool r_ok = !reads.empty() && reads.front().ready <= now + 1;
        rvalid->set(r_ok);
        if (r_ok) {
            Burst& r = reads.front();
            uint64_t a = beat_addr(r);
            for (unsigned i = 0; i < bus; i++) rdata->set_byte(i, mem.read(a - a % bus + i));
            if (rlast) rlast->set(r.beat + 1 == r.beats);
            if (rid) rid->set(r.id);
        }
        if (rresp) rresp->set(0);
        bool b_ok = !bq.empty() && bq.front().ready <= now + 1;
        bvalid->set(b_ok);
        if (bresp) bresp->set(0);
        if (bid && b_ok) bid->set(bq.front().id);
    }

  private:
    struct Burst {
        uint64_t addr;
        unsigned beats;
        unsigned bytes;
        uint64_t id;
        uint64_t ready;
        unsigned beat;
    };
    struct Resp {
        uint64_t id;
        uint64_t ready;
    };
    unsigned size(Sig* s) const { return s ? 1u << s->get() : bus; }
    uint64_t beat_addr(const Burst& b) const {
        return b.beat == 0 ? b.addr : (b.addr - b.addr % b.bytes) + uint64_t(b.beat) * b.bytes;
    }
    Memory& mem;
    Timing t;
    std::string name;
    unsigned bus;
    std::deque<Burst> reads, writes;
    std::deque<Resp> bq;
    Sig *awvalid, *awready, *awaddr, *awlen, *awsize, *awid, *wvalid, *wready, *wdata, *wstrb, *wlast;
    Sig *bvalid, *bready, *bresp, *bid, *arvalid, *arready, *araddr, *arlen, *arsize, *arid;
    Sig *rvalid, *rready, *rdata, *rlast, *rresp, *rid;
};

// AXI4-lite master: a queue of single writes and reads, one at a time, in order.
class AxiLiteMaster {
  public:
    struct Op {
        bool write;
        uint32_t addr, data;
        uint32_t* result;  // where a read's data goes
    };
    AxiLiteMaster(Pins& p, const std::string& b) {
        std::string pre = "s_axi_" + b + "_";
        awvalid = p.need(pre + "AWVALID"), awready = p.need(pre + "AWREADY"), awaddr = p.need(pre + "AWADDR");
        wvalid = p.need(pre + "WVALID"), wready = p.need(pre + "WREADY"), wdata = p.need(pre + "WDATA");
        wstrb = p.need(pre + "WSTRB"), bvalid = p.need(pre + "BVALID"), bready = p.need(pre + "BREADY");
        arvalid = p.need(pre + "ARVALID"), arready = p.need(pre + "ARREADY"), araddr = p.need(pre + "ARADDR");
        rvalid = p.need(pre + "RVALID"), rready = p.need(pre + "RREADY"), rdata = p.need(pre + "RDATA");
    }
    std::deque<Op> ops;
    bool idle() const { return ops.empty() && !active; }
    // Cycle at which the current op was first presented, and at which the last one completed.
    uint64_t started = 0, completed = 0, ops_done = 0;
    void step(uint64_t now) {
        if (active) {
            Op& o = ops.front();
            if (o.write) {
                if (awvalid->bit() && awready->bit()) aw_done = true;
                if (wvalid->bit() && wready->bit()) w_done = true;
                if (bvalid->bit() && bready->bit()) finish(now);
            } else {
                if (arvalid->bit() && arready->bit()) aw_done = true;
                if (rvalid->bit() && rready->bit()) {
                    if (o.result) *o.result = uint32_t(rdata->get());
                    finish(now);
                }
            }
        }
        if (!active && !ops.empty() && now + 1 >= next_ok) {
            active = true;
            aw_done = w_done = false;
            started = now + 1;
        }
        bool w = active && ops.front().write, r = active && !ops.front().write;
        awvalid->set(w && !aw_done);
        awaddr->set(active ? ops.front().addr : 0);
        wvalid->set(w && !w_done);
        wdata->set(w ? ops.front().data : 0);
        wstrb->set(w ? 0xf : 0);
        bready->set(w && aw_done && w_done);
        arvalid->set(r && !aw_done);
        araddr->set(r ? ops.front().addr : 0);
        rready->set(r && aw_done);
    }
    unsigned gap = 0;  // idle cycles between two operations

  private:
    void finish(uint64_t now) {
        active = false;
        ops.pop_front();
        completed = now;
        ops_done++;
        next_ok = now + 1 + gap;
    }
    bool active = false, aw_done = false, w_done = false;
    uint64_t next_ok = 0;
    Sig *awvalid, *awready, *awaddr, *wvalid, *wready, *wdata, *wstrb, *bvalid, *bready;
    Sig *arvalid, *arready, *araddr, *rvalid, *rready, *rdata;
};

}  // namespace hlsinstr

#include "hlsinstr_port_models.h"

namespace hlsinstr {

// One call of the plan.
struct CallPlan {
    std::vector<Memory::Region> buffers;
    std::map<std::string, std::vector<uint8_t>> rams, feeds;  // ap_memory contents, input stream elements
    std::map<std::string, uint64_t> expect;                    // output stream element counts
    std::vector<std::pair<std::string, std::vector<uint32_t>>> wires;  // ap_none inputs
    struct Reg {
        size_t bundle;  // index into the harness's s_axilite masters
        uint32_t offset, word;
    };
    std::vector<Reg> regs;                                              // s_axilite argument writes
    std::vector<uint32_t> return_regs;                                  // s_axilite offsets to read after
};

struct CallResult {
    uint64_t first = 0, start = 0, done = 0, end = 0;
    std::vector<uint32_t> ret_words;
    std::vector<uint32_t> ap_return;
    std::vector<std::string> lines;  // port-model results (`ram`, `port`, `stream`, `consumed` lines)
};

// The plan file, and the replay of its calls.
class Harness {
  public:
    Pins pins;
    explicit Harness(const std::string& plan_path) { read_plan(plan_path); }

    // Called once the back end has added every port to `pins`.
    void setup() {
        clk = pins.need(clock);
        if (!reset.empty()) rst = pins.need(reset);
        for (auto& b : maxi) rams.emplace_back(new AxiRam(pins, b, mem, timing));
        for (auto& l : lites) {
            axils.emplace_back(new AxiLiteMaster(pins, l.name));
            axils.back()->gap = l.gap;
            if (l.ctrl) axil = axils.back().get();
        }
        if (control != "none") {
            start = pins.need(ports_ctrl ? "ap_start" : "hlsinstr_mon_ap_start");
            done = pins.need(ports_ctrl ? "ap_done" : "hlsinstr_mon_ap_done");
            ready = pins.find(ports_ctrl ? "ap_ready" : "hlsinstr_mon_ap_ready");
            idle = pins.find(ports_ctrl ? "ap_idle" : "hlsinstr_mon_ap_idle");
            cont = pins.find("ap_continue");
        }
        ret = pins.find("ap_return");
        for (auto& r : ram_decl) aprams.emplace_back(new ApMemory(pins, r.name, r.ports, r.eb, r.style == "bram"));
        for (auto& s : sin_decl) scalar_ins.emplace_back(new ScalarIn(pins, s.vld, s.ack));
        for (auto& s : sout_decl) scalar_outs.emplace_back(new ScalarOut(pins, s.name, s.vld, s.ack));
        for (auto& s : stin_decl) stream_ins.emplace_back(new StreamIn(pins, s.name, s.axis, s.eb, flow_of(s.name)));
        for (auto& s : stout_decl)
            stream_outs.emplace_back(new StreamOut(pins, s.name, s.axis, s.eb, flow_of(s.name)));
        if (rst) rst->set(reset_low ? 0 : 1);
    }

    // One cycle; false when the run is over.
    bool step() {
        now++;
        if (now > limit) {
            char b[160];
            std::snprintf(b, sizeof b, "call %zu did not finish within %llu cycles (raise --max-cycles)", call,
                          (unsigned long long)limit);
            fail(b);
        }
        for (auto& r : rams) r->step(now);
        for (auto& m : axils) m->step(now);
        for (auto& m : aprams) m->step(now);
        for (auto& m : scalar_ins) m->step(now);
        for (auto& m : scalar_outs)
            if (!m->seen) {
                m->step(now);
                if (m->seen) activity = now;
            } else
                m->step(now);
        for (auto& m : stream_ins)
            if (m->step(now)) activity = now;
        for (auto& m : stream_outs)
            if (m->step(now)) activity = now;
        if (now < reset_cycles) return true;
        if (now == reset_cycles && rst) rst->set(reset_low ? 1 : 0);
        return sequence();
    }

    void write_results(const std::string& path) const {
        std::FILE* f = std::fopen((path + ".tmp").c_str(), "w");
        if (!f) fail("cannot write " + path);
        std::fprintf(f, "cycles %llu\n", (unsigned long long)now);
        for (size_t i = 0; i < results.size(); i++) {
            const CallResult& r = results[i];
            std::fprintf(f, "call %zu first %llu start %llu done %llu end %llu\n", i, (unsigned long long)r.first,
                         (unsigned long long)r.start, (unsigned long long)r.done, (unsigned long long)r.end);
            for (auto& l : r.lines) std::fprintf(f, "%s\n", l.c_str());
            for (auto& b : r_buffers[i]) {
                std::fprintf(f, "mem %llx ", (unsigned long long)b.base);
                for (uint8_t x : b.bytes) std::fprintf(f, "%02x", x);
                if (b.bytes.empty()) std::fputc('-', f);
                std::fputc('\n', f);
            }
            if (!r.ret_words.empty() || !r.ap_return.empty()) {
                std::fprintf(f, "ret ");
                for (uint32_t w : (r.ap_return.empty() ? r.ret_words : r.ap_return))
                    for (int k = 0; k < 4; k++) std::fprintf(f, "%02x", (w >> (8 * k)) & 0xff);
                std::fputc('\n', f);
            }
        }
        for (auto& e : mem.errors) std::fprintf(f, "error %s\n", e.c_str());
        for (auto& m : aprams)
            for (auto& e : m->errors) std::fprintf(f, "error %s\n", e.c_str());
        std::fprintf(f, "stray_reads %llu\nend\n", (unsigned long long)mem.stray_reads);
        std::fclose(f);
        if (std::rename((path + ".tmp").c_str(), path.c_str()) != 0) fail("cannot write " + path);
    }
    uint64_t now = 0;
    const std::string& clock_name() const { return clock; }

  private:
    // Once the bundles without block control are written: the control bundle's writes (with
    // ap_start), or ap_start on its port once every write is done.
    void release_start() {
        bool others = false;
        for (auto& m : axils)
            if (m.get() != axil) others = others || !m->idle();
        if (others) return;
        if (axil)
            while (!ctrl_ops.empty()) {
                axil->ops.push_back(ctrl_ops.front());
                ctrl_ops.pop_front();
            }
        if (start_pending && (!axil || axil->idle())) {
            start_pending = false;
            start->set(1);
        }
    }

    // The per-call sequence: load, argument writes, start, wait done, continue, collect.
    bool sequence() {
        switch (phase) {
            case Phase::Load: {
                if (call == calls.size()) return false;
                const CallPlan& c = calls[call];
                mem.regions = c.buffers;
                res = CallResult();
                for (auto& w : c.wires) {
                    Sig* s = pins.need(w.first);
                    std::memset(s->w, 0, sizeof s->w);
                    for (size_t k = 0; k < w.second.size() && k < 32; k++) s->w[k] = w.second[k];
                    s->mask();
                }
                for (auto& m : aprams) m->bytes = find_or_empty(c.rams, m->name);
                for (auto& m : scalar_ins) m->begin();
                for (auto& m : scalar_outs) m->begin();
                flow.begin = now;
                for (auto& f : flows) f.second.begin = now;
                for (auto& m : stream_ins) m->load(find_or_empty(c.feeds, m->name));
                for (auto& m : stream_outs) {
                    m->begin();
                    auto it = c.expect.find(m->name);
                    m->expected = it == c.expect.end() ? 0 : it->second;
                }
                if (control == "none") {
                    res.first = res.start = now + 1;
                    activity = now;
                }
                // Arguments of the other s_axilite bundles are written first (the bundles in
                // parallel), then the control bundle's and ap_start: Vitis' order, one bundle
                // after the other, with the start last.
                ctrl_ops.clear();
                for (auto& r : c.regs) {
                    AxiLiteMaster* m = axils[r.bundle].get();
                    (m == axil ? ctrl_ops : m->ops).push_back({true, r.offset, r.word, nullptr});
                }
                if (control != "none" && axil && !ports_ctrl) ctrl_ops.push_back({true, 0, 1, nullptr});  // ap_start
                start_pending = control != "none" && ports_ctrl;
                if (!c.regs.empty() || control != "none") res.first = now + 1;
                phase = Phase::Run;
                release_start();
                return true;
            }
            case Phase::Run: {
                release_start();
                if (control == "none") {
                    // No ap_done: the call is over once its inputs are consumed and its outputs
                    // are out, at the edge of the last handshake; or after `quiet` cycles without one.
                    bool all = true;
                    for (auto& m : stream_ins) all = all && m->drained();
                    for (auto& m : stream_outs) all = all && m->count >= m->expected;
                    for (auto& m : scalar_outs) all = all && (m->seen || !m->has_valid());
                    if (all || now - activity > quiet) {
                        res.done = activity >= res.start ? activity : res.start;
                        finish_ports();
                        phase = Phase::Drain;
                    }
                    return true;
                }
                if (!res.start && start->bit()) res.start = now;
                if (ports_ctrl && ready && ready->bit() && start->bit() && !ready_seen) {
                    ready_seen = true;
                    start->set(0);  // the start is consumed at this edge
                } else if (ports_ctrl && !ready && done->bit()) {
                    start->set(0);
                }
                if (res.start && done->bit()) {
                    res.done = now;
                    if (ret) {
                        res.ap_return.assign(ret->w, ret->w + ret->words());
                    }
                    finish_ports();
                    if (ports_ctrl) start->set(0);
                    if (cont && ports_ctrl) cont->set(1);
                    if (axil && !ports_ctrl && control == "chain") axil->ops.push_back({true, 0, 0x10, nullptr});  // ap_continue
                    if (axil) {
                        const CallPlan& c = calls[call];
                        res.ret_words.assign(c.return_regs.size(), 0);
                        for (size_t k = 0; k < c.return_regs.size(); k++)
                            axil->ops.push_back({false, c.return_regs[k], 0, &res.ret_words[k]});
                    }
                    phase = Phase::Drain;
                }
                return true;
            }
            case Phase::Drain: {
                if (cont && ports_ctrl) cont->set(0);
                bool bus_busy = false;
                for (auto& m : axils) bus_busy = bus_busy || !m->idle();
                for (auto& r : rams) bus_busy = bus_busy || r->busy();
                bool is_idle = !idle || idle->bit();
                if (bus_busy || !is_idle) return true;
                res.end = now;
                results.push_back(res);
                r_buffers.push_back(mem.regions);
                ready_seen = false;
                call++;
                phase = Phase::Load;
                return true;
            }
        }
        return false;
    }

    void read_plan(const std::string& path) {
        std::ifstream in(path);
        if (!in) fail("cannot read the plan " + path);
        std::string line;
        while (std::getline(in, line)) {
            std::istringstream ls(line);
            std::string k;
            ls >> k;
            if (k == "clock") ls >> clock;
            else if (k == "reset") ls >> reset >> reset_low >> reset_cycles;
            else if (k == "control") ls >> control >> ports_ctrl;
            else if (k == "axilite") {
                Lite l;
                ls >> l.name >> l.gap >> l.ctrl;
                lites.push_back(l);
            }
            else if (k == "maxi") {
                std::string b;
                ls >> b;
                maxi.push_back(b);
            } else if (k == "timing") ls >> timing.read_latency >> timing.write_latency >> timing.outstanding;
            else if (k == "limit") ls >> limit;
            else if (k == "quiet") ls >> quiet;
            else if (k == "streams") ls >> flow.depth >> flow.pattern;
            else if (k == "stream_flow") {
                std::string name;
                Flow f;
                ls >> name >> f.depth >> f.pattern;
                flows[name] = f;
            }
            else if (k == "ram") {
                RamDecl r;
                ls >> r.name >> r.ports >> r.eb >> r.style;
                ram_decl.push_back(r);
            } else if (k == "scalar_in" || k == "scalar_out") {
                PortDecl d;
                ls >> d.name >> d.vld >> d.ack;
                (k == "scalar_in" ? sin_decl : sout_decl).push_back(d);
            } else if (k == "stream_in" || k == "stream_out") {
                StreamDecl d;
                std::string kind;
                ls >> d.name >> kind >> d.eb;
                d.axis = kind == "axis";
                (k == "stream_in" ? stin_decl : stout_decl).push_back(d);
            } else if (k == "ramdata" || k == "feed") {
                std::string name, hex;
                ls >> name >> hex;
                (k == "ramdata" ? calls.back().rams : calls.back().feeds)[name] = unhex(hex);
            } else if (k == "expect") {
                std::string name;
                uint64_t n = 0;
                ls >> name >> n;
                calls.back().expect[name] = n;
            }
            else if (k == "call") calls.emplace_back();
            else if (k == "buffer") {
                Memory::Region r;
                std::string hex;
                ls >> std::hex >> r.base >> hex;
                r.bytes = unhex(hex);
                calls.back().buffers.push_back(r);
            } else if (k == "wire") {
                std::string port, hex;
                ls >> port >> hex;
                std::vector<uint8_t> b = unhex(hex);
                std::vector<uint32_t> w((b.size() + 3) / 4, 0);
                for (size_t i = 0; i < b.size(); i++) w[i / 4] |= uint32_t(b[i]) << (8 * (i % 4));
                calls.back().wires.push_back({port, w});
            } else if (k == "reg") {
                CallPlan::Reg r;
                std::string bundle;
                ls >> bundle >> std::hex >> r.offset >> r.word;
                r.bundle = lites.size();
                for (size_t i = 0; i < lites.size(); i++)
                    if (lites[i].name == bundle) r.bundle = i;
                if (r.bundle == lites.size()) fail("plan: no s_axilite bundle " + bundle);
                calls.back().regs.push_back(r);
            } else if (k == "read") {
                uint32_t off;
                ls >> std::hex >> off;
                calls.back().return_regs.push_back(off);
            } else if (k.empty() || k[0] == '#') {
            } else fail("plan: unknown line: " + line);
        }
    }
    static std::vector<uint8_t> unhex(const std::string& h) {
        std::vector<uint8_t> out;
        if (h == "-") return out;
        for (size_t i = 0; i + 1 < h.size(); i += 2) out.push_back(uint8_t(std::stoul(h.substr(i, 2), nullptr, 16)));
        return out;
    }

    // The port models' results of the call that just finished.
    void finish_ports() {
        for (auto& m : scalar_ins) m->end();
        for (auto& m : scalar_outs) {
            m->at_done();
            res.lines.push_back("port " + m->name + " " + (m->seen ? hexs(m->value) : std::string("none")));
        }
        for (auto& m : aprams) res.lines.push_back("ram " + m->name + " " + hexs(m->bytes));
        for (auto& m : stream_outs)
            res.lines.push_back("stream " + m->name + " " + std::to_string(m->count) + " " + hexs(m->got));
        for (auto& m : stream_outs) res.lines.push_back("stalls " + m->name + " " + std::to_string(m->stalls));
        for (auto& m : stream_ins) res.lines.push_back("consumed " + m->name + " " + std::to_string(m->consumed));
    }
    static std::string hexs(const std::vector<uint8_t>& b) {
        if (b.empty()) return "-";
        std::string s;
        char x[3];
        for (uint8_t v : b) {
            std::snprintf(x, sizeof x, "%02x", v);
            s += x;
        }
        return s;
    }
    static std::vector<uint8_t> find_or_empty(const std::map<std::string, std::vector<uint8_t>>& m,
                                              const std::string& k) {
        auto it = m.find(k);
        return it == m.end() ? std::vector<uint8_t>() : it->second;
    }
    struct RamDecl {
        std::string name, style;
        unsigned ports = 1, eb = 1;
    };
    struct PortDecl {
        std::string name, vld, ack;
    };
    struct StreamDecl {
        std::string name;
        bool axis = false;
        unsigned eb = 1;
    };
    std::vector<RamDecl> ram_decl;
    std::vector<PortDecl> sin_decl, sout_decl;
    std::vector<StreamDecl> stin_decl, stout_decl;
    std::vector<std::unique_ptr<ApMemory>> aprams;
    std::vector<std::unique_ptr<ScalarIn>> scalar_ins;
    std::vector<std::unique_ptr<ScalarOut>> scalar_outs;
    std::vector<std::unique_ptr<StreamIn>> stream_ins;
    std::vector<std::unique_ptr<StreamOut>> stream_outs;
    uint64_t activity = 0, quiet = 1000;
    Flow flow;                          // every stream's, unless it has its own
    std::map<std::string, Flow> flows;  // per stream prefix (`stream_flow` lines)
    const Flow& flow_of(const std::string& name) const {
        auto it = flows.find(name);
        return it == flows.end() ? flow : it->second;
    }

    enum class Phase { Load, Run, Drain };
    Phase phase = Phase::Load;
    std::string clock = "ap_clk", reset, control = "none";
    struct Lite {
        std::string name;
        unsigned gap = 0;
        bool ctrl = false;  // holds the block-control register (and ap_return)
    };
    std::vector<Lite> lites;
    std::vector<std::unique_ptr<AxiLiteMaster>> axils;
    AxiLiteMaster* axil = nullptr;           // the control bundle's master
    std::deque<AxiLiteMaster::Op> ctrl_ops;  // its writes, held until the other bundles are written
    bool start_pending = false;              // ap_start on a port, held until every argument is written
    bool reset_low = false, ports_ctrl = false, ready_seen = false;
    uint64_t reset_cycles = 0, limit = 100000000;
    std::vector<std::string> maxi;
    Timing timing;
    std::vector<CallPlan> calls;
    size_t call = 0;
    Memory mem;
    std::vector<std::unique_ptr<AxiRam>> rams;
    Sig *clk = nullptr, *rst = nullptr, *start = nullptr, *done = nullptr, *ready = nullptr, *idle = nullptr,
        *cont = nullptr, *ret = nullptr;
    CallResult res;
    std::vector<CallResult> results;
    std::vector<std::vector<Memory::Region>> r_buffers;
};

}  // namespace hlsinstr

#endif
