//! Emit: the new top (`<top>_rtlprobe`: the edited design and the profiling IP side by side), the
//! IP's Verilog (verilog/rtlprobe/, copied), a Vivado packaging script and an XRT host snippet.
//! The scripts are generated, not run here (no Vivado, no board).

use super::edit::{TopSignal, LOOP_ACTIVE, LOOP_HEADER};
use super::hierarchy::Solution;
use super::verilog::VModule;
use crate::error::{Error, ErrorKind, Result};
use std::collections::BTreeSet;
use std::fmt::Write;

/// The instance name of the design inside the new top (`cosim` reaches its control through it).
pub const DESIGN_INSTANCE: &str = "u_design";

/// The IP's files, written below `rtlprobe/` in the output.
pub const IP_FILES: [(&str, &str); 4] = [
    ("hlsinstr_rtlprobe.v", include_str!("../../../verilog/rtlprobe/hlsinstr_rtlprobe.v")),
    ("hlsinstr_rtlprobe_queue.v", include_str!("../../../verilog/rtlprobe/hlsinstr_rtlprobe_queue.v")),
    ("hlsinstr_rtlprobe_mux.v", include_str!("../../../verilog/rtlprobe/hlsinstr_rtlprobe_mux.v")),
    ("hlsinstr_rtlprobe_offload.v", include_str!("../../../verilog/rtlprobe/hlsinstr_rtlprobe_offload.v")),
];

/// One queue of the IP: which probe it is and which top ports feed it.
#[derive(Debug, Clone)]
pub struct Queue {
    pub node: usize,
    /// What the queue times: [`ROLE_CALL`], [`ROLE_LOOP`] or [`ROLE_HEADER`].
    pub role: &'static str,
    pub depth: u32,
    pub start: String,
    pub done: String,
    pub cont: Option<String>,
}

/// A queue of calls: starts at ap_start, ends at ap_done.
pub const ROLE_CALL: &str = "call";
/// A queue of an FSM loop's runs: starts in the first cycle the FSM is in the loop's states,
/// ends in the first cycle it is out of them.
pub const ROLE_LOOP: &str = "loop";
/// An FSM loop's header visits (its STATUS call counter counts them: the iterations).
pub const ROLE_HEADER: &str = "header";

/// Groups the top's new ports by node into queues (a node needs ap_start and ap_done; an FSM
/// loop gives a loop queue and, when its header counts iterations, a header queue).
pub fn queues(
    sol: &Solution,
    signals: &[TopSignal],
    depth_of: impl Fn(usize, &'static str) -> u32,
) -> Result<Vec<Queue>> {
    let mut out: Vec<Queue> = Vec::new();
    let nodes: BTreeSet<usize> = signals.iter().map(|s| s.node).collect();
    let mut order: Vec<usize> = nodes.into_iter().collect();
    order.sort();
    for n in order {
        if sol.nodes[n].fsm.is_some() {
            for (signal, role) in [(LOOP_ACTIVE, ROLE_LOOP), (LOOP_HEADER, ROLE_HEADER)] {
                if let Some(s) = signals.iter().find(|s| s.node == n && s.signal == signal) {
                    let port = s.port.clone();
                    out.push(Queue {
                        node: n,
                        role,
                        depth: depth_of(n, role),
                        start: port.clone(),
                        done: port,
                        cont: None,
                    });
                }
            }
            continue;
        }
        let find = |sig: &str| signals.iter().find(|s| s.node == n && s.signal == sig).map(|s| s.port.clone());
        let (Some(start), Some(done)) = (find("ap_start"), find("ap_done")) else {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "{} has no ap_start/ap_done pair (ap_ctrl_none?): it cannot be timed; leave it out of --select",
                    sol.nodes[n].path
                ),
            ));
        };
        out.push(Queue {
            node: n,
            role: ROLE_CALL,
            depth: depth_of(n, ROLE_CALL),
            start,
            done,
            cont: find("ap_continue"),
        });
    }
    Ok(out)
}

/// Name of the new top.
pub fn wrapper_name(top: &str) -> String {
    format!("{top}_rtlprobe")
}

/// The params of `top` its port declarations need (transitively), in declaration order.
fn needed_params(top: &VModule) -> Vec<&(String, String)> {
    let mut need: BTreeSet<String> = BTreeSet::new();
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).map(str::to_string).collect()
    };
    for d in &top.port_decls {
        need.extend(words(d));
    }
    loop {
        let before = need.len();
        for (name, text) in &top.params {
            if need.contains(name) {
                let rhs = text.split_once('=').map_or("", |(_, r)| r);
                need.extend(words(rhs));
            }
        }
        if need.len() == before {
            break;
        }
    }
    let mut seen = BTreeSet::new();
    top.params.iter().filter(|(n, t)| need.contains(n) && seen.insert(t.clone())).collect()
}

/// The new top: every port of the original top, plus `s_axi_rtlprobe_*` (the IP's AXI4-Lite).
pub fn wrapper(
    sol: &Solution,
    signals: &[TopSignal],
    queues: &[Queue],
    key: u64,
    calls_width: u32,
    ts_width: u32,
    offload: bool,
) -> Result<String> {
    let top = sol.module(&sol.top).ok_or_else(|| Error::new(ErrorKind::Internal, "top module not parsed"))?;
    let name = wrapper_name(&sol.top);
    let clk = ["ap_clk", "clk", "aclk", "ACLK"].into_iter().find(|c| top.port_names.iter().any(|p| p == c));
    let Some(clk) = clk else {
        return Err(Error::new(ErrorKind::BadInput, format!("the top {} has no ap_clk port", sol.top)));
    };
    let (rst, active_low) = if top.port_names.iter().any(|p| p == "ap_rst_n") {
        ("ap_rst_n", true)
    } else if top.port_names.iter().any(|p| p == "ap_rst") {
        ("ap_rst", false)
    } else {
        return Err(Error::new(ErrorKind::BadInput, format!("the top {} has no ap_rst or ap_rst_n port", sol.top)));
    };
    let n = queues.len();
    let mut v = String::new();
    let _ =
        writeln!(v, "// Generated by hlsinstr rtl-probe: the design `{}` (its RTL edited only to bring the", sol.top);
    let _ = writeln!(v, "// probed instances' handshake out as `hlsinstr_*` ports) beside the profiling IP.");
    let _ = writeln!(v, "// Queue i of the IP is rtl.queues[i] of the manifest.");
    let _ = writeln!(v, "`timescale 1ns / 1ps");
    let axi_ports = [
        ("input", "[5:0]", "awaddr"),
        ("input", "", "awvalid"),
        ("output", "", "awready"),
        ("input", "[31:0]", "wdata"),
        ("input", "[3:0]", "wstrb"),
        ("input", "", "wvalid"),
        ("output", "", "wready"),
        ("output", "[1:0]", "bresp"),
        ("output", "", "bvalid"),
        ("input", "", "bready"),
        ("input", "[5:0]", "araddr"),
        ("input", "", "arvalid"),
        ("output", "", "arready"),
        ("output", "[31:0]", "rdata"),
        ("output", "[1:0]", "rresp"),
        ("output", "", "rvalid"),
        ("input", "", "rready"),
    ];
    // The offload's AXI4 write master (64-bit beats), a port of the new top with --offload.
    let m_axi_ports = [
        ("output", "[63:0]", "awaddr"),
        ("output", "[7:0]", "awlen"),
        ("output", "[2:0]", "awsize"),
        ("output", "[1:0]", "awburst"),
        ("output", "", "awvalid"),
        ("input", "", "awready"),
        ("output", "[63:0]", "wdata"),
        ("output", "[7:0]", "wstrb"),
        ("output", "", "wlast"),
        ("output", "", "wvalid"),
        ("input", "", "wready"),
        ("input", "[1:0]", "bresp"),
        ("input", "", "bvalid"),
        ("output", "", "bready"),
    ];
    let mut axi_ports: Vec<(&str, &str, String)> =
        axi_ports.iter().map(|(d, w, p)| (*d, *w, format!("s_axi_rtlprobe_{p}"))).collect();
    if offload {
        axi_ports.extend(m_axi_ports.iter().map(|(d, w, p)| (*d, *w, format!("m_axi_rtlprobe_{p}"))));
    }
    let params = needed_params(top);
    if top.ansi {
        let _ = write!(v, "module {name}");
        if !params.is_empty() {
            let list: Vec<&str> = params.iter().map(|(_, t)| t.as_str()).collect();
            let _ = write!(v, " #(\n    {}\n)", list.join(",\n    "));
        }
        let _ = writeln!(v, " (");
        for d in &top.port_decls {
            let _ = writeln!(v, "    {d},");
        }
        let axi: Vec<String> = axi_ports.iter().map(|(dir, w, p)| format!("    {dir} wire {w} {p}")).collect();
        let _ = writeln!(v, "{}\n);", axi.join(",\n"));
    } else {
        let _ = writeln!(v, "module {name} (");
        for p in &top.port_names {
            let _ = writeln!(v, "    {p},");
        }
        let axi: Vec<String> = axi_ports.iter().map(|(_, _, p)| format!("    {p}")).collect();
        let _ = writeln!(v, "{}\n);", axi.join(",\n"));
        for (_, t) in &params {
            let _ = writeln!(v, "{t}");
        }
        for d in &top.port_decls {
            let _ = writeln!(v, "{d};");
        }
        for (dir, w, p) in &axi_ports {
            let _ = writeln!(v, "{dir} {w} {p};");
        }
    }
    // The edited top.
    let _ = writeln!(v);
    // Every threaded port is a wire here; ap_idle is for the reader of a waveform (the IP times
    // calls by ap_start and ap_done, and holds starts back while ap_continue has not released a
    // done).
    let probe_ports: Vec<&str> = signals.iter().map(|s| s.port.as_str()).collect();
    for p in &probe_ports {
        let _ = writeln!(v, "wire {p};");
    }
    let _ = write!(v, "{}", sol.top);
    if !params.is_empty() {
        let list: Vec<String> = params.iter().map(|(n, _)| format!(".{n}({n})")).collect();
        let _ = write!(v, " #({})", list.join(", "));
    }
    let _ = writeln!(v, " {DESIGN_INSTANCE} (");
    let mut conns: Vec<String> = top.port_names.iter().map(|p| format!("    .{p}({p})")).collect();
    conns.extend(probe_ports.iter().map(|p| format!("    .{p}({p})")));
    let _ = writeln!(v, "{}\n);", conns.join(",\n"));
    // The IP.
    let depths: String = queues.iter().rev().map(|q| format!("{:02x}", q.depth)).collect();
    let list = |f: &dyn Fn(&Queue) -> String| -> String { queues.iter().rev().map(f).collect::<Vec<_>>().join(", ") };
    let _ = writeln!(v);
    if !offload {
        for (_, w, p) in m_axi_ports.iter().filter(|(d, _, _)| *d == "output") {
            let _ = writeln!(v, "wire {w} unused_m_axi_{p};");
        }
    }
    let _ = writeln!(v, "hlsinstr_rtlprobe #(");
    let _ = writeln!(v, "    .N({n}),");
    let _ = writeln!(v, "    .DEPTHS({}'h{depths}),", 8 * n);
    let _ = writeln!(v, "    .KEY(64'h{key:016x}),");
    let _ = writeln!(v, "    .CALLS_WIDTH({calls_width}),");
    let _ = writeln!(v, "    .TS_WIDTH({ts_width}),");
    let _ = writeln!(v, "    .OFFLOAD({})", u8::from(offload));
    let _ = writeln!(v, ") u_rtlprobe (");
    let _ = writeln!(v, "    .clk({clk}),");
    let _ = writeln!(v, "    .rst_n({}),", if active_low { rst.to_string() } else { format!("!{rst}") });
    let _ = writeln!(v, "    .probe_start({{{}}}),", list(&|q| q.start.clone()));
    // An FSM loop's run (and a header visit) ends in the first cycle out of its states.
    let done = |q: &Queue| if q.role == ROLE_CALL { q.done.clone() } else { format!("~{}", q.done) };
    let _ = writeln!(v, "    .probe_done({{{}}}),", list(&done));
    // A held done (ap_ctrl_chain) blocks the next start until ap_continue; none: never held.
    let _ = writeln!(v, "    .probe_continue({{{}}}),", list(&|q| q.cont.clone().unwrap_or_else(|| "1'b1".into())));
    let mut axi: Vec<String> =
        axi_ports.iter().map(|(_, _, p)| format!("    .{}({p})", p.replacen("_rtlprobe", "", 1))).collect();
    if !offload {
        // The write master stays idle (OFFLOAD 0): inputs tied off, outputs to wires read by
        // no one (`unused_*`: Verilator's lint knows the name).
        for (dir, _, p) in m_axi_ports {
            axi.push(match dir {
                "input" => format!("    .m_axi_{p}({})", if p == "bresp" { "2'b00" } else { "1'b0" }),
                _ => format!("    .m_axi_{p}(unused_m_axi_{p})"),
            });
        }
    }
    let _ = writeln!(v, "{}\n);", axi.join(",\n"));
    let _ = writeln!(v, "\nendmodule");
    Ok(v)
}

/// Vivado: package the new top as an IP (not run here).
pub fn package_tcl(sol: &Solution, rtl_files: &[String], offload: bool) -> String {
    let name = wrapper_name(&sol.top);
    let mut t = String::new();
    let _ =
        writeln!(t, "# Generated by hlsinstr rtl-probe: packages {name} (the design and its probes) as a Vivado IP.");
    let _ = writeln!(t, "# vivado -mode batch -source package.tcl   (run in this directory)");
    let part = sol.report.part.clone().unwrap_or_else(|| "xcu250-figd2104-2L-e".into());
    let _ = writeln!(t, "create_project -in_memory -part {part}");
    for f in rtl_files {
        let _ = writeln!(t, "read_verilog {f}");
    }
    let _ = writeln!(t, "set_property top {name} [current_fileset]");
    let _ = writeln!(
        t,
        "ipx::package_project -root_dir ip -vendor hlsinstr -library rtlprobe -taxonomy /UserIP -import_files"
    );
    let _ = writeln!(t, "set core [ipx::current_core]");
    let _ = writeln!(t, "ipx::infer_bus_interfaces xilinx.com:interface:aximm_rtl:1.0 $core");
    let _ = writeln!(t, "ipx::associate_bus_interfaces -busif s_axi_rtlprobe -clock ap_clk $core");
    if offload {
        // The DRAM offload's master: connect it to the memory the host allocates the region in.
        let _ = writeln!(t, "ipx::associate_bus_interfaces -busif m_axi_rtlprobe -clock ap_clk $core");
    }
    let _ = writeln!(t, "ipx::save_core $core");
    t
}

/// XRT: read the probes through the IP's AXI4-Lite (and, with the offload, the DRAM region)
/// into `rtlprobe.bin` (docs/rtl-probe.md#dump-format).
pub fn host_snippet(sol: &Solution, n: usize, key: u64, offload: bool) -> String {
    let mut s = format!(
        r#"// Generated by hlsinstr rtl-probe for {top}: after the kernel finished, read every probe queue
// through the s_axi_rtlprobe registers and write rtlprobe.bin (docs/rtl-probe.md#dump-format).
// `probe` is the xrt::ip of s_axi_rtlprobe in your platform; then
//   hlsinstr decode rtlprobe.bin --manifest hlsinstr-manifest.json
#include <cstdint>
#include <cstdio>
#include <vector>
#include <xrt/experimental/xrt_ip.h>
"#,
        top = sol.top
    );
    if offload {
        s.push_str(
            r#"
// Built with --offload: before the run, point the IP at a DRAM region of `records` 64-bit words
// (an xrt::bo in the memory bank m_axi_rtlprobe is connected to; `device_addr` = bo.address()).
// After the run, call hlsinstr_rtlprobe_offload_wait, then sync the bo from the device (so it
// holds the last drain's records) and pass its contents to hlsinstr_rtlprobe_dump.
static void hlsinstr_rtlprobe_offload_to(xrt::ip& probe, uint64_t device_addr, uint32_t records) {
    probe.write_register(0x28, 1);  // CTRL: clear the counter, the queues and the write pointer
    probe.write_register(0x2C, uint32_t(device_addr));
    probe.write_register(0x30, uint32_t(device_addr >> 32));
    probe.write_register(0x34, records);
}

// A drain may still run (or be due) for a few cycles after the kernel's ap_done: wait for
// OFF_STATUS bit 0 to clear. False when it did not (the memory never answered).
static bool hlsinstr_rtlprobe_offload_wait(xrt::ip& probe) {
    for (int k = 0; k < 100000; ++k) {
        if (!(probe.read_register(0x3C) & 1u)) return true;
    }
    return false;
}
"#,
        );
    }
    let dram_param = if offload { ", const uint64_t* dram" } else { "" };
    let version = if offload { 2 } else { 1 };
    // Called after hlsinstr_rtlprobe_offload_wait, this finds no drain pending; the queues'
    // registers would wait for one to end.
    let wait = if offload {
        "\n    if (!hlsinstr_rtlprobe_offload_wait(probe)) return -2;  // a drain never ended"
    } else {
        ""
    };
    s.push_str(&format!(
        r#"
static int hlsinstr_rtlprobe_dump(xrt::ip& probe, const char* path{dram_param}) {{
    auto rd = [&](uint32_t off) {{ return probe.read_register(off); }};
    const uint32_t info = rd(0x04);  // N, timestamp width, wrapped
    const uint32_t n = info & 0xffff;
    if (rd(0x00) != 0x484C5250u || n != {n}u) return -1;  // not this build's IP{wait}
    std::vector<uint32_t> out = {{0x484C5250u, {version}u, n, info, rd(0x08), rd(0x0C)}};  // key {key:016x}
    for (uint32_t i = 0; i < n; ++i) {{
        probe.write_register(0x18, i);  // SEL
        const uint32_t status = rd(0x1C);
        const uint32_t depth = (status >> 8) & 0xff;
        std::vector<uint32_t> ts;
        for (uint32_t k = 0; k < depth; ++k) {{
            const uint32_t s = rd(0x1C);
            const uint32_t lo = rd(0x20), hi = rd(0x24);  // reading HEAD_HI pops
            if (s & 1u) {{ ts.push_back(lo); ts.push_back(hi); }}
        }}
        out.push_back(status);
        out.push_back(uint32_t(ts.size() / 2));
        out.insert(out.end(), ts.begin(), ts.end());
    }}
"#
    ));
    if offload {
        s.push_str(
            r#"    // The records the offload wrote (OFF_WPTR of them, at most OFF_SIZE), in address order.
    const uint32_t size = rd(0x34), wptr = rd(0x38);
    const uint32_t records = wptr < size ? wptr : size;
    out.push_back(records);
    for (uint32_t k = 0; k < records; ++k) {
        out.push_back(uint32_t(dram[k]));
        out.push_back(uint32_t(dram[k] >> 32));
    }
"#,
        );
    }
    s.push_str(
        r#"    FILE* f = std::fopen(path, "wb");
    if (!f) return -1;
    const bool ok = std::fwrite(out.data(), 4, out.size(), f) == out.size();
    return (std::fclose(f) == 0 && ok) ? 0 : -1;
}
"#,
    );
    s
}
