//! Captured calls → the harness's plan (plain text, one line per fact), and the harness's
//! results → windows and output comparisons.
//!
//! Plan lines: `clock P`, `reset P ACTIVE_LOW CYCLES`, `control none|hs|chain PORTS`,
//! `axilite BUNDLE GAP CONTROL` (one per bundle; CONTROL 1: it holds the block-control register),
//! `maxi BUNDLE`, `timing READ WRITE OUTSTANDING`, `limit CYCLES`, then per call `call`, `buffer
//! BASE HEX`, `wire PORT HEX`, `reg BUNDLE OFFSET WORD`, `read OFFSET` (the control bundle; hex
//! numbers, values little endian). Port-level interfaces: `quiet CYCLES`, `ram PREFIX PORTS
//! ELEM_BYTES ap_memory|bram`,
//! `streams DEPTH PATTERN` (the stream models' FIFO depth and stall pattern), `scalar_in PORT
//! VLD ACK` and `scalar_out PORT VLD ACK` (`-`: no such port), `stream_in|stream_out
//! PREFIX fifo|axis ELEM_BYTES`; per call `ramdata PREFIX HEX`, `feed PREFIX HEX`, `expect PREFIX N`.

use super::bind::{self, unsupported, Binding};
use super::capture::{ArgKind, TopSignature};
use super::layout::{self, Layout};
use super::solution::{Control, Interfaces};
use super::{CallWindow, CosimRequest};
use crate::error::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// One captured value: its bits and bytes (little endian).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    pub name: String,
    pub bits: u32,
    /// Per element for buffers.
    pub elem_bytes: usize,
    pub count: usize,
    pub bytes: Vec<u8>,
    pub buffer: bool,
    /// A struct element's fields, as the capture packed them (AXI4-Stream elements).
    pub fields: Layout,
    /// An array's dimensions after the first (`int a[4][8]`: `[8]`).
    pub inner_dims: Vec<usize>,
    /// A struct (or array or stream of them) packed field by field as Vitis aggregates it.
    pub aggregate: bool,
}

impl Value {
    /// Every dimension of an array, outermost first (the first from the element count).
    pub fn dims(&self) -> Vec<usize> {
        let inner: usize = self.inner_dims.iter().product::<usize>().max(1);
        let mut d = vec![self.count / inner];
        d.extend(&self.inner_dims);
        d
    }
    /// Element `i`'s bytes (empty past the end).
    pub fn element(&self, i: usize) -> &[u8] {
        let eb = self.elem_bytes.max(1);
        self.bytes.get(i * eb..(i + 1) * eb).unwrap_or(&[])
    }
}

/// A captured call: inputs before, outputs after.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    pub inputs: Vec<Value>,
    pub outputs: Vec<Value>,
}

/// Read one `call-NNNNNN.cap` file.
pub fn read_call(path: &Path) -> Result<Captured> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
    let bad = |m: &str| Error::new(ErrorKind::BadInput, format!("not a complete capture file: {m}")).at(path);
    let mut c = Captured::default();
    let mut ended = false;
    let mut pending: Option<Layout> = None;
    let mut pending_dims: Vec<usize> = Vec::new();
    let mut pending_aggregate = false;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let v = match w.as_slice() {
            ["value", phase, name, bits, hex] => (
                phase,
                Value {
                    name: name.to_string(),
                    bits: bits.parse().map_err(|_| bad(line))?,
                    elem_bytes: 0,
                    count: 1,
                    bytes: unhex(hex).ok_or_else(|| bad(line))?,
                    buffer: false,
                    fields: Layout::new(),
                    inner_dims: Vec::new(),
                    aggregate: std::mem::take(&mut pending_aggregate),
                },
            ),
            ["buffer", phase, name, bits, eb, count, hex] => (
                phase,
                Value {
                    name: name.to_string(),
                    bits: bits.parse().map_err(|_| bad(line))?,
                    elem_bytes: eb.parse().map_err(|_| bad(line))?,
                    count: count.parse().map_err(|_| bad(line))?,
                    bytes: unhex(hex).ok_or_else(|| bad(line))?,
                    buffer: true,
                    fields: pending.take().unwrap_or_default(),
                    inner_dims: std::mem::take(&mut pending_dims),
                    aggregate: std::mem::take(&mut pending_aggregate),
                },
            ),
            ["end"] => {
                ended = true;
                continue;
            }
            ["aggregate", _, _] => {
                pending_aggregate = true;
                continue;
            }
            ["dims", _, _, d @ ..] => {
                pending_dims =
                    d.iter().map(|x| x.parse()).collect::<std::result::Result<_, _>>().map_err(|_| bad(line))?;
                continue;
            }
            ["layout", _, _, l] => {
                pending = Some(layout::parse(l).ok_or_else(|| bad(line))?);
                continue;
            }
            _ => return Err(bad(line)),
        };
        if v.1.buffer && v.1.bytes.len() != v.1.elem_bytes * v.1.count {
            return Err(bad(&format!(
                "buffer {} has {} bytes, not {} x {}",
                v.1.name,
                v.1.bytes.len(),
                v.1.count,
                v.1.elem_bytes
            )));
        }
        match *v.0 {
            "in" => c.inputs.push(v.1),
            "out" => c.outputs.push(v.1),
            _ => return Err(bad(line)),
        }
    }
    if !ended {
        return Err(bad("no `end` line (the testbench stopped inside a call?)"));
    }
    Ok(c)
}

fn unhex(h: &str) -> Option<Vec<u8>> {
    if h == "-" {
        return Some(Vec::new());
    }
    if !h.len().is_multiple_of(2) {
        return None;
    }
    (0..h.len()).step_by(2).map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok()).collect()
}

fn hex(b: &[u8]) -> String {
    if b.is_empty() {
        return "-".into();
    }
    let mut s = String::with_capacity(b.len() * 2);
    for x in b {
        let _ = write!(s, "{x:02x}");
    }
    s
}

/// A call as the harness runs it.
#[derive(Debug, Clone)]
pub struct PlannedCall {
    /// Index into the captured calls.
    pub capture: usize,
    /// Buffers: (C name, base address).
    pub buffers: Vec<(String, u64)>,
    /// s_axilite writes before ap_start.
    pub axilite_writes: usize,
    /// Per argument on the control bundle (register order): its 32-bit words whose value
    /// differs from the previous call's (all of them on the first call). Vitis' testbench
    /// writes only those ([`crate::vitis_tb`]).
    pub control_words: Vec<u32>,
    /// Return value: read back through these registers, or the ap_return port.
    pub returns: bool,
    /// Outputs on ports, compared after the call.
    pub checks: Vec<Check>,
}

/// An output of a call that comes out on ports.
#[derive(Debug, Clone)]
pub enum Check {
    /// The array's contents after the call, from the ap_memory model `prefix` (a partition
    /// bank: the C elements at its addresses).
    Ram { name: String, prefix: String, elems: Option<Vec<Option<usize>>> },
    /// A scalar output port (the C value: a reference, or a pointer's one element; `elem`: that
    /// element of a completely partitioned array).
    Port { name: String, port: String, elem: Option<usize> },
    /// The elements the C model wrote to an output stream during the call; for axis elements
    /// with side channels, the RTL's layout and the fields compared.
    StreamOut { name: String, prefix: String, expected: Value, rtl: Option<(Layout, Layout)> },
    /// How many elements the C model read from an input stream.
    StreamIn { name: String, prefix: String, consumed: u64 },
}

pub struct Plan {
    pub text: String,
    pub calls: Vec<PlannedCall>,
}

/// Base address of the first buffer; buffers are 4 KiB aligned (AXI bursts do not cross 4 KiB).
const BASE: u64 = 0x1000_0000;

/// Cycles without a handshake after which an ap_ctrl_none call is taken as finished (its
/// outputs then fall short of the C model's, a mismatch).
const QUIET_CYCLES: u64 = 1000;

fn missing(name: &str) -> Error {
    Error::new(ErrorKind::BadInput, format!("the capture has no value of `{name}`"))
}

pub fn make(ifs: &Interfaces, sig: &TopSignature, calls: &[Captured], req: &CosimRequest) -> Result<Plan> {
    let mut t = String::new();
    let _ = writeln!(t, "clock {}", ifs.clock);
    if let Some((r, low)) = &ifs.reset {
        let _ = writeln!(t, "reset {r} {} {}", u8::from(*low), RESET_CYCLES);
    }
    let ctrl = match ifs.control {
        Control::None => "none",
        Control::Hs => "hs",
        Control::Chain => "chain",
    };
    let _ = writeln!(t, "control {ctrl} {}", u8::from(ifs.control_bundle.is_none() && ifs.control != Control::None));
    for a in &ifs.axilite {
        let ctrl = ifs.control_bundle.as_deref() == Some(a.bundle.as_str());
        let _ = writeln!(t, "axilite {} 0 {}", a.bundle, u8::from(ctrl));
    }
    for m in &ifs.maxi {
        let _ = writeln!(t, "maxi {}", m.bundle);
    }
    let _ = writeln!(
        t,
        "timing {} {} {}",
        req.timing.read_latency,
        req.timing.write_latency,
        req.timing.outstanding.max(1)
    );
    let _ = writeln!(t, "limit {}", req.max_cycles);
    let _ = writeln!(t, "quiet {QUIET_CYCLES}");
    let _ = writeln!(t, "streams {} {}", req.flow.fifo_depth, req.flow.stall_pattern);
    let bindings = bind::bind(ifs, sig, calls.first())?;
    stream_flows(&mut t, &req.flow, sig, &bindings)?;
    if ifs.control == Control::None {
        let ends = bindings
            .iter()
            .flatten()
            .any(|b| matches!(b, Binding::Stream { input: false, .. } | Binding::WireOut { vld: Some(_), .. }));
        if !ends {
            return Err(unsupported(
                "a top without block-level handshake (ap_ctrl_none) and without an output stream or ap_vld output \
                 (nothing marks the end of a call)",
            ));
        }
    }
    if let Some(first) = calls.first() {
        declare_ports(&mut t, ifs, sig, &bindings, first)?;
    }
    let mut planned = Vec::new();
    // The control bundle's registers as the previous call left them, and this call's per argument.
    let mut last_control: BTreeMap<u32, u32> = BTreeMap::new();
    let mut control_args: Vec<Vec<(u32, u32)>> = Vec::new();
    for _ in 0..req.repeat.max(1) {
        for (ci, c) in calls.iter().enumerate() {
            let _ = writeln!(t, "call");
            let mut pc = PlannedCall {
                capture: ci,
                buffers: Vec::new(),
                axilite_writes: 0,
                control_words: Vec::new(),
                returns: false,
                checks: Vec::new(),
            };
            let mut next = BASE;
            let mut regs: Vec<(&str, u32, u32)> = Vec::new();
            for (a, binds) in sig.args.iter().zip(&bindings) {
                let v = c.inputs.iter().find(|v| v.name == a.name).ok_or_else(|| missing(&a.name))?;
                let out = || c.outputs.iter().find(|v| v.name == a.name).ok_or_else(|| missing(&a.name));
                for b in binds {
                    match b {
                        Binding::Register => {
                            if v.aggregate {
                                return Err(unsupported(&format!(
                                    "struct argument `{}` on s_axilite or m_axi (Vitis lays those out as in C \
                                     memory, with padding; cosim packs structs only for streams and ports)",
                                    a.name
                                )));
                            }
                            // The bits the RTL gets: a buffer's address, or the value itself.
                            let bits: Vec<u8> = match a.kind {
                                ArgKind::Buffer { .. } => {
                                    let base = next;
                                    next = (next + v.bytes.len().max(1) as u64).div_ceil(4096) * 4096;
                                    let _ = writeln!(t, "buffer {base:x} {}", hex(&v.bytes));
                                    pc.buffers.push((a.name.clone(), base));
                                    base.to_le_bytes().to_vec()
                                }
                                _ => v.bytes.clone(),
                            };
                            let (lite, reg) = ifs.register_of(&a.name).expect("bound to a register");
                            let mut words = Vec::new();
                            for (k, off) in reg.offsets.iter().enumerate() {
                                let mut w = [0u8; 4];
                                for (j, b) in w.iter_mut().enumerate() {
                                    *b = bits.get(4 * k + j).copied().unwrap_or(0);
                                }
                                regs.push((&lite.bundle, *off, u32::from_le_bytes(w)));
                                words.push((*off, u32::from_le_bytes(w)));
                            }
                            if ifs.control_bundle.as_deref() == Some(lite.bundle.as_str()) {
                                control_args.push(words);
                            }
                        }
                        Binding::WireIn { port, elem, .. } => {
                            let bits = elem.map_or_else(|| first_element(v), |i| v.element(i));
                            let _ = writeln!(t, "wire {port} {}", hex(bits));
                        }
                        Binding::WireOut { port, elem, .. } => {
                            if out().is_ok() {
                                pc.checks.push(Check::Port { name: a.name.clone(), port: port.clone(), elem: *elem });
                            }
                        }
                        Binding::Ram { prefix, elems, .. } => {
                            let bytes = match elems {
                                Some(e) => gather(v, e),
                                None => v.bytes.clone(),
                            };
                            let _ = writeln!(t, "ramdata {prefix} {}", hex(&bytes));
                            pc.checks.push(Check::Ram {
                                name: a.name.clone(),
                                prefix: prefix.clone(),
                                elems: elems.clone(),
                            });
                        }
                        Binding::Stream { prefix, input: true, axis } => {
                            let after = out()?;
                            let consumed = v.count.saturating_sub(after.count);
                            let eb = v.elem_bytes.max(1);
                            let mut fed = v.clone();
                            fed.bytes.truncate(consumed * eb);
                            if let (true, false) = (*axis, v.fields.is_empty()) {
                                fed = layout::repack_value(&fed, &v.fields, &layout::rtl_layout(ifs, prefix));
                            }
                            let _ = writeln!(t, "feed {prefix} {}", hex(&fed.bytes));
                            pc.checks.push(Check::StreamIn {
                                name: a.name.clone(),
                                prefix: prefix.clone(),
                                consumed: consumed as u64,
                            });
                        }
                        Binding::Stream { prefix, input: false, axis } => {
                            // What the call added after the elements the stream already held.
                            let after = out()?;
                            let eb = after.elem_bytes.max(1);
                            let skip = (v.count * eb).min(after.bytes.len());
                            let mut expected = after.clone();
                            expected.bytes = after.bytes[skip..].to_vec();
                            expected.count = after.count.saturating_sub(v.count);
                            let _ = writeln!(t, "expect {prefix} {}", expected.count);
                            // Side channels: compared on the fields both the C type and the RTL have.
                            let mut rtl = None;
                            if let (true, false) = (*axis, after.fields.is_empty()) {
                                let r = layout::rtl_layout(ifs, prefix);
                                let both = layout::common(&after.fields, &r);
                                expected = layout::repack_value(&expected, &after.fields, &both);
                                rtl = Some((r, both));
                            }
                            pc.checks.push(Check::StreamOut {
                                name: a.name.clone(),
                                prefix: prefix.clone(),
                                expected,
                                rtl,
                            });
                        }
                    }
                }
            }
            for (bundle, off, w) in &regs {
                let _ = writeln!(t, "reg {bundle} {off:x} {w:x}");
            }
            pc.axilite_writes = regs.len();
            pc.control_words = changed_words(&mut last_control, &control_args);
            control_args.clear();
            if !sig.returns_void {
                if ifs.ap_return.is_some() {
                    pc.returns = true;
                } else if let Some((_, r)) = ifs.register_of("ap_return") {
                    for off in &r.offsets {
                        let _ = writeln!(t, "read {off:x}");
                    }
                    pc.returns = true;
                }
            }
            planned.push(pc);
        }
    }
    Ok(Plan { text: t, calls: planned })
}

/// A partition bank's contents: the C elements at its addresses (zero in holes).
fn gather(v: &Value, elems: &[Option<usize>]) -> Vec<u8> {
    let eb = v.elem_bytes.max(1);
    let mut out = Vec::with_capacity(elems.len() * eb);
    for e in elems {
        let x = e.map_or(&[][..], |i| v.element(i));
        out.extend((0..eb).map(|k| x.get(k).copied().unwrap_or(0)));
    }
    out
}

/// A scalar's bits, or a one-element pointer's element.
fn first_element(v: &Value) -> &[u8] {
    if v.buffer {
        &v.bytes[..v.elem_bytes.min(v.bytes.len())]
    } else {
        &v.bytes
    }
}

/// The plan's port-model declarations (`ram`, `scalar_in`, `scalar_out`, `stream_in`,
/// `stream_out`), with element sizes from the first captured call.
fn declare_ports(
    t: &mut String,
    ifs: &Interfaces,
    sig: &TopSignature,
    bindings: &[Vec<Binding>],
    c: &Captured,
) -> Result<()> {
    let opt = |p: &Option<String>| p.clone().unwrap_or_else(|| "-".into());
    for (a, binds) in sig.args.iter().zip(bindings) {
        let v = c.inputs.iter().find(|v| v.name == a.name).ok_or_else(|| missing(&a.name))?;
        for b in binds {
            match b {
                Binding::Register => {}
                Binding::WireIn { port, vld, ack, elem } => {
                    if v.buffer && v.count > 1 && elem.is_none() {
                        return Err(unsupported(&format!(
                            "pointer `{}` of {} elements on scalar ports (`{port}`)",
                            a.name, v.count
                        )));
                    }
                    if vld.is_some() || ack.is_some() {
                        let _ = writeln!(t, "scalar_in {port} {} {}", opt(vld), opt(ack));
                    }
                }
                Binding::WireOut { port, vld, ack, .. } => {
                    let _ = writeln!(t, "scalar_out {port} {} {}", opt(vld), opt(ack));
                }
                Binding::Ram { prefix, ports, bram, .. } => {
                    let style = if *bram { "bram" } else { "ap_memory" };
                    let _ = writeln!(t, "ram {prefix} {ports} {} {style}", v.elem_bytes.max(1));
                }
                Binding::Stream { prefix, axis: true, input } if !v.fields.is_empty() => {
                    let r = layout::rtl_layout(ifs, prefix);
                    let dir = if *input { "stream_in" } else { "stream_out" };
                    let _ = writeln!(t, "{dir} {prefix} axis {}", (layout::bits(&r) as usize).div_ceil(8).max(1));
                }
                Binding::Stream { prefix, axis, input } => {
                    let suffixes: &[&str] = match (axis, input) {
                        (true, _) => &["_TDATA", "_TKEEP", "_TSTRB", "_TUSER", "_TLAST", "_TID", "_TDEST"],
                        (false, true) => &["_dout"],
                        (false, false) => &["_din"],
                    };
                    let rtl_bits: u32 = suffixes
                        .iter()
                        .filter_map(|s| ifs.ports.iter().find(|p| p.name == format!("{prefix}{s}")))
                        .map(|p| p.width)
                        .sum();
                    if rtl_bits != v.bits {
                        return Err(Error::new(
                            ErrorKind::BadInput,
                            format!(
                                "stream `{}`: an element has {} bits in C but the RTL's `{prefix}` data ports carry \
                                 {rtl_bits}; is the solution synthesised from these sources?",
                                a.name, v.bits
                            ),
                        ));
                    }
                    let kind = if *axis { "axis" } else { "fifo" };
                    let dir = if *input { "stream_in" } else { "stream_out" };
                    let _ = writeln!(t, "{dir} {prefix} {kind} {}", v.elem_bytes.max(1));
                }
            }
        }
    }
    Ok(())
}

/// Cycles the reset is held at the start (Vitis' testbench holds it for a few cycles too).
pub const RESET_CYCLES: u64 = 4;

/// One call as the harness reports it.
pub struct CallResult {
    pub window: CallWindow,
    pub buffers: Vec<(u64, Vec<u8>)>,
    pub ret: Option<Vec<u8>>,
    /// ap_memory contents after the call, by RTL prefix.
    pub rams: Vec<(String, Vec<u8>)>,
    /// Scalar output ports: their value, or None when the `_ap_vld` never rose.
    pub ports: Vec<(String, Option<Vec<u8>>)>,
    /// Output streams: elements written (count, bytes).
    pub streams: Vec<(String, u64, Vec<u8>)>,
    /// Input streams: elements read.
    pub consumed: Vec<(String, u64)>,
    /// Cycles an output stream's FIFO was full while the design offered an element.
    pub stalls: u64,
}

pub struct Results {
    pub cycles: u64,
    pub calls: Vec<CallResult>,
    pub errors: Vec<String>,
    pub stray_reads: u64,
}

pub fn read_results(path: &Path) -> Result<Results> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
    let bad = |l: &str| Error::new(ErrorKind::Internal, format!("unreadable harness result line: {l}")).at(path);
    let mut r = Results { cycles: 0, calls: Vec::new(), errors: Vec::new(), stray_reads: 0 };
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let num = |s: &str| s.parse::<u64>().map_err(|_| bad(line));
        match w.as_slice() {
            ["cycles", n] => r.cycles = num(n)?,
            ["call", _, "first", f, "start", s, "done", d, "end", e] => r.calls.push(CallResult {
                window: CallWindow { first: num(f)?, start: num(s)?, done: num(d)?, end: num(e)? },
                buffers: Vec::new(),
                ret: None,
                rams: Vec::new(),
                ports: Vec::new(),
                streams: Vec::new(),
                consumed: Vec::new(),
                stalls: 0,
            }),
            ["ram", name, h] => {
                let bytes = unhex(h).ok_or_else(|| bad(line))?;
                r.calls.last_mut().ok_or_else(|| bad(line))?.rams.push((name.to_string(), bytes));
            }
            ["port", name, h] => {
                let v = if *h == "none" { None } else { Some(unhex(h).ok_or_else(|| bad(line))?) };
                r.calls.last_mut().ok_or_else(|| bad(line))?.ports.push((name.to_string(), v));
            }
            ["stream", name, n, h] => {
                let (n, bytes) = (num(n)?, unhex(h).ok_or_else(|| bad(line))?);
                r.calls.last_mut().ok_or_else(|| bad(line))?.streams.push((name.to_string(), n, bytes));
            }
            ["stalls", _, n] => r.calls.last_mut().ok_or_else(|| bad(line))?.stalls += num(n)?,
            ["consumed", name, n] => {
                let n = num(n)?;
                r.calls.last_mut().ok_or_else(|| bad(line))?.consumed.push((name.to_string(), n));
            }
            ["mem", base, h] => {
                let base = u64::from_str_radix(base, 16).map_err(|_| bad(line))?;
                let bytes = unhex(h).ok_or_else(|| bad(line))?;
                r.calls.last_mut().ok_or_else(|| bad(line))?.buffers.push((base, bytes));
            }
            ["ret", h] => r.calls.last_mut().ok_or_else(|| bad(line))?.ret = Some(unhex(h).ok_or_else(|| bad(line))?),
            ["error", ..] => r.errors.push(line["error ".len()..].to_string()),
            ["stray_reads", n] => r.stray_reads = num(n)?,
            ["end"] => {}
            _ => return Err(bad(line)),
        }
    }
    Ok(r)
}

/// At most this many differing elements are listed per buffer.
const MAX_LISTED: usize = 5;

/// The RTL's outputs against the C simulation's.
pub fn compare(pc: &PlannedCall, rc: &CallResult, cap: &Captured) -> Vec<String> {
    let mut out = Vec::new();
    for (name, base) in &pc.buffers {
        let Some(expected) = cap.outputs.iter().find(|v| v.name == *name && v.buffer) else { continue };
        let Some((_, got)) = rc.buffers.iter().find(|(b, _)| b == base) else {
            out.push(format!("buffer `{name}`: the harness returned no memory for it"));
            continue;
        };
        diff_elements(&mut out, name, expected, got, None);
    }
    for ch in &pc.checks {
        match ch {
            Check::Ram { name, prefix, elems } => {
                let Some(expected) = cap.outputs.iter().find(|v| v.name == *name) else { continue };
                let bank;
                let expected = match elems {
                    Some(e) => {
                        bank = Value { bytes: gather(expected, e), count: e.len(), ..expected.clone() };
                        &bank
                    }
                    None => expected,
                };
                match rc.rams.iter().find(|(p, _)| p == prefix) {
                    Some((_, got)) => diff_elements(&mut out, name, expected, got, elems.as_deref()),
                    None => out.push(format!("array `{name}`: the harness returned no RAM `{prefix}`")),
                }
            }
            Check::Port { name, port, elem } => {
                let Some(expected) = cap.outputs.iter().find(|v| v.name == *name) else { continue };
                let bits = expected.bits;
                let e = elem.map_or_else(|| first_element(expected), |i| expected.element(i));
                let name = &match elem {
                    Some(i) => format!("{name}[{i}]"),
                    None => name.clone(),
                };
                match rc.ports.iter().find(|(p, _)| p == port) {
                    Some((_, Some(got))) if masked(got, bits) == masked(e, bits) => {}
                    Some((_, Some(got))) => {
                        out.push(format!("`{name}` ({port}): RTL {}, C simulation {}", show(got, bits), show(e, bits)))
                    }
                    _ => out.push(format!(
                        "`{name}` ({port}): the RTL never marked it valid (`{port}_ap_vld`); C simulation {}",
                        show(e, bits)
                    )),
                }
            }
            Check::StreamOut { name, prefix, expected, rtl } => {
                let (n, got) =
                    rc.streams.iter().find(|(p, _, _)| p == prefix).map_or((0, &[][..]), |(_, n, g)| (*n, &g[..]));
                let repacked: Vec<u8>;
                let got = match rtl {
                    Some((r, both)) => {
                        let eb = (layout::bits(r) as usize).div_ceil(8).max(1);
                        repacked = got.chunks(eb).flat_map(|e| layout::repack(e, r, both)).collect();
                        &repacked[..]
                    }
                    None => got,
                };
                if n != expected.count as u64 {
                    out.push(format!(
                        "stream `{name}` ({prefix}): the RTL wrote {n} element(s), the C simulation {}",
                        expected.count
                    ));
                }
                diff_elements(&mut out, name, expected, got, None);
            }
            Check::StreamIn { name, prefix, consumed } => {
                let n = rc.consumed.iter().find(|(p, _)| p == prefix).map_or(0, |(_, n)| *n);
                if n != *consumed {
                    out.push(format!(
                        "stream `{name}` ({prefix}): the RTL read {n} element(s), the C simulation {consumed}"
                    ));
                }
            }
        }
    }
    if pc.returns {
        if let Some(expected) = cap.outputs.iter().find(|v| v.name == "return") {
            let got = rc.ret.clone().unwrap_or_default();
            if masked(&expected.bytes, expected.bits) != masked(&got, expected.bits) {
                out.push(format!(
                    "return value: RTL {}, C simulation {}",
                    show(&got, expected.bits),
                    show(&expected.bytes, expected.bits)
                ));
            }
        }
    }
    out
}

/// Element-wise differences between the C model's `expected` values and the RTL's bytes.
/// `index`: a partition bank's C element per address (holes are not compared; messages name
/// the C index).
fn diff_elements(out: &mut Vec<String>, name: &str, expected: &Value, got: &[u8], index: Option<&[Option<usize>]>) {
    let eb = expected.elem_bytes.max(1);
    let mut listed = 0;
    let mut differing = 0;
    for i in 0..expected.count {
        let c_index = match index {
            Some(ix) => match ix.get(i).copied().flatten() {
                Some(c) => c,
                None => continue,
            },
            None => i,
        };
        let e = expected.bytes.get(i * eb..(i + 1) * eb).unwrap_or(&[]);
        let Some(g) = got.get(i * eb..(i + 1) * eb) else { break };
        if masked(e, expected.bits) != masked(g, expected.bits) {
            differing += 1;
            if listed < MAX_LISTED {
                out.push(format!(
                    "`{name}`[{c_index}]: RTL {} , C simulation {}",
                    show(g, expected.bits),
                    show(e, expected.bits)
                ));
                listed += 1;
            }
        }
    }
    if differing > listed {
        out.push(format!(
            "`{name}`: {} more element(s) differ ({differing} of {})",
            differing - listed,
            expected.count
        ));
    }
}

/// The low `bits` bits of a little-endian value.
fn masked(b: &[u8], bits: u32) -> Vec<u8> {
    let n = (bits as usize).div_ceil(8);
    let mut v: Vec<u8> = (0..n).map(|i| b.get(i).copied().unwrap_or(0)).collect();
    if !bits.is_multiple_of(8) {
        if let Some(last) = v.last_mut() {
            *last &= (1u8 << (bits % 8)) - 1;
        }
    }
    v
}

/// A value for a message: decimal when it fits 64 bits, else hex.
fn show(b: &[u8], bits: u32) -> String {
    let m = masked(b, bits);
    if m.len() <= 8 {
        let mut w = [0u8; 8];
        w[..m.len()].copy_from_slice(&m);
        let v = u64::from_le_bytes(w);
        let signed =
            if bits > 0 && bits < 64 && v >> (bits - 1) & 1 == 1 { v as i64 - (1i64 << bits) } else { v as i64 };
        if bits == 64 || signed >= 0 {
            format!("{v} (0x{v:x})")
        } else {
            format!("{signed} (0x{v:x})")
        }
    } else {
        format!("0x{}", m.iter().rev().map(|x| format!("{x:02x}")).collect::<String>())
    }
}

/// Per argument (in register order), how many of its words differ from what the registers
/// hold (`last`, updated): the words Vitis' testbench writes for this call.
fn changed_words(last: &mut BTreeMap<u32, u32>, args: &[Vec<(u32, u32)>]) -> Vec<u32> {
    let mut args: Vec<&Vec<(u32, u32)>> = args.iter().collect();
    args.sort_by_key(|a| a.first().map(|w| w.0));
    args.iter().map(|words| words.iter().filter(|&&(off, w)| last.insert(off, w) != Some(w)).count() as u32).collect()
}

/// `stream_flow` lines: the streams with a setting of their own, by their ports' prefix; a name
/// that is no stream argument of the top is an error naming those that are.
fn stream_flows(t: &mut String, flow: &super::StreamFlow, sig: &TopSignature, bindings: &[Vec<Binding>]) -> Result<()> {
    let mut streams = Vec::new();
    for (a, binds) in sig.args.iter().zip(bindings) {
        for b in binds {
            if let Binding::Stream { prefix, .. } = b {
                streams.push(a.name.as_str());
                if let Some(f) = flow.streams.get(&a.name) {
                    let _ = writeln!(t, "stream_flow {prefix} {} {}", f.fifo_depth, f.stall_pattern);
                }
            }
        }
    }
    for name in flow.streams.keys() {
        if !streams.contains(&name.as_str()) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--stream-flow {name}=...: the top has no stream argument `{name}` (its streams: {})",
                    if streams.is_empty() { "none".to_string() } else { streams.join(", ") }
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod window_tests {
    use super::*;

    #[test]
    fn only_changed_words_are_written_again() {
        let mut last = BTreeMap::new();
        let call = |a: u32, n: u32| vec![vec![(0x1c, 7), (0x20, 0)], vec![(0x10, a), (0x14, 0)], vec![(0x34, n)]];
        assert_eq!(changed_words(&mut last, &call(5, 3)), [2, 2, 1], "register order, every word");
        assert_eq!(changed_words(&mut last, &call(5, 3)), [0, 0, 0]);
        assert_eq!(changed_words(&mut last, &call(6, 3)), [1, 0, 0]);
    }
}
