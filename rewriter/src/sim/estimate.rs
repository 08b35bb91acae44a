//! The headline of the report: cycles per call of the top, beside the csynth report's own top
//! latency and, when the user has one, the co-simulation's per-call figures with the error of
//! each. Also the accounting of the report's modules and loops against the probes: nothing the
//! report lists and nothing the run probed is dropped without a line saying so.

use super::replay::Replay;
use super::timing::{Source, Sourced, Timing};
use crate::csynth;
use crate::emit::manifest::{Manifest, ModuleInfo};
use crate::model::{Param, ParamKind};
use crate::vitis_tb::{Bank, ReadBack, Window};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// The co-simulation's per-call latencies (`hlsinstr::cosim`), for the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct CosimTruth {
    /// The files read.
    pub files: Vec<String>,
    /// One latency per call, in call order; a single figure when the report only has a summary
    /// (then it stands for every call).
    pub per_call: Vec<u64>,
    /// A summary whose calls differ (`lat.rpt`'s min ≠ max): its minimum and maximum, with its
    /// average as the single figure of `per_call`.
    pub spread: Option<(u64, u64)>,
    /// What makes the co-simulation's figures other than the design's own (its random stalls):
    /// said with the comparison.
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Estimate {
    /// Calls of the top in the run (its top-level invocations).
    pub calls: u64,
    /// Estimated cycles of each call from ap_start to ap_done (the first
    /// [`super::replay::MAX_CALLS`]).
    pub per_call: Vec<u64>,
    pub mean_cycles: f64,
    /// What co-simulation would count beyond the estimate on the first call (the testbench's
    /// window, [`crate::vitis_tb`]): 0 (rule 10), or the s_axilite argument writes and status
    /// polls of the testbench of Vitis ≤ 2022.2 and 2023.2+ (from the report's registers and version).
    pub cosim_extra: Sourced<u64>,
    /// How the co-sim figure is derived from the estimate.
    pub cosim_window: String,
    /// Per call (the first [`super::replay::MAX_CALLS`]): what the co-simulation would report.
    pub cosim_per_call: Vec<u64>,
    /// The csynth report's latency of the top (min and max), shown beside the estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_latency: Option<csynth::Range<u64>>,
    /// Calls whose figure is the report's latency exactly (the run agreed with the schedule).
    pub schedule_exact_calls: u64,
    /// Mean cycles per call that the RTL of the `_Pipeline_` modules of the report does not spend
    /// beyond its schedule (2 a module run: `replay::RTL_WRAPPER_SAVING`), in `per_call` already.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub pipeline_rtl_saving: f64,
    /// m_axi bursts the schedule does not wait for (a short interface latency), added to every
    /// call ([`super::maxi_wait`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub maxi_waits: Vec<super::maxi_wait::MaxiWait>,
    /// Bursts the report lists that were not charged, and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maxi_wait_note: Option<String>,
    /// Pipelined loops whose single-beat m_axi reads waited for the adapter (in `per_call`
    /// already), over the run: docs/cycle-model.md, "m_axi single reads in a pipeline".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub single_read_waits: Vec<super::replay::SingleReadWait>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cosim: Option<CosimComparison>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CosimComparison {
    pub files: Vec<String>,
    /// Per call: co-sim cycles, the estimate (+ `cosim_extra`) and the error in percent of the
    /// co-sim figure.
    pub calls: Vec<CallComparison>,
    /// Mean absolute error of the estimate over the compared calls, percent.
    pub mean_abs_error_pct: f64,
    /// The same for the report's top latency (its maximum, as the report's summary gives it),
    /// when the report has one: how far reading the report alone would be.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_mean_abs_error_pct: Option<f64>,
    /// A note when the counts differ (the co-sim ran another testbench or fewer calls).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CallComparison {
    pub index: usize,
    pub cosim: u64,
    pub estimate: u64,
    pub error_pct: f64,
}

/// Build the headline from the replay.
pub fn estimate(
    replay: &Replay,
    report: Option<&csynth::Report>,
    top: &str,
    cosim: Option<&CosimTruth>,
    top_info: Option<&ModuleInfo>,
    tool_version: Option<&str>,
) -> Estimate {
    let top_params = top_info.map_or(&[][..], |m| &m.params[..]);
    let (maxi_waits, maxi_wait_note) = report.map(|r| super::maxi_wait::burst_waits(r, top)).unwrap_or_default();
    let wait: u64 = maxi_waits.iter().map(|w| w.cycles).sum();
    let per_call: Vec<u64> = replay.calls.iter().map(|c| c + wait).collect();
    // Over every call: the list keeps the first MAX_CALLS.
    let mean = if replay.calls_total == 0 {
        0.0
    } else {
        replay.calls_cycles as f64 / replay.calls_total as f64 + wait as f64
    };
    let top_module = report.and_then(|r| r.module(top).or_else(|| r.top_module()));
    let report_latency = top_module.and_then(|m| m.latency);
    let exact = replay.roots.iter().map(|&s| replay.sites[s].schedule_runs).sum();
    let window = top_window(report, top_params, &per_call, tool_version, top_info);
    // Calls of one length after calls of one length count alike: a testbench's many calls cost
    // a few walks of the testbench's turns (the 2018-2019 one walks every element of its arrays).
    let mut walked: HashMap<(Option<u64>, u64), u64> = HashMap::new();
    let cosim_per_call: Vec<u64> = per_call
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let prev = i.checked_sub(1).map(|p| per_call[p]);
            *walked.entry((prev, c)).or_insert_with(|| window.cycles_after(prev, c))
        })
        .collect();
    let first_extra = cosim_per_call.first().zip(per_call.first()).map_or(window.cycles(0), |(w, c)| w - c);
    // A polled window's release is the report's, or without one the project file's.
    let cosim_extra = match window {
        Window::Handshake => Sourced::new(first_extra, Source::Default),
        _ if report.is_some() => Sourced::new(first_extra, Source::Report),
        _ => Sourced::new(first_extra, Source::Project),
    };
    // A free-running top (no ap_start) fed back to back: co-sim's latency of a call counts its
    // wait behind the calls before it.
    let control = match report {
        Some(r) => r.control.as_deref(),
        None => top_info.and_then(|m| m.control.as_deref()),
    };
    let free_running = control == Some("ap_ctrl_none");
    let cosim = cosim.map(|c| {
        let mut out = match (free_running, c.spread) {
            (true, Some((lo, _))) if cosim_per_call.len() > 1 => {
                free_running_compare(&cosim_per_call, c, lo, report_latency)
            }
            _ => compare(&cosim_per_call, c, report_latency),
        };
        if let Some(n) = &c.note {
            out.note = Some(out.note.map_or_else(|| n.clone(), |o| format!("{n}; {o}")));
        }
        out
    });
    Estimate {
        calls: replay.calls_total,
        per_call,
        mean_cycles: mean,
        cosim_extra,
        cosim_window: window.describe(),
        cosim_per_call,
        report_latency,
        schedule_exact_calls: exact,
        pipeline_rtl_saving: if replay.calls_total == 0 {
            0.0
        } else {
            replay.calls_rtl_saving as f64 / replay.calls_total as f64
        },
        maxi_waits,
        maxi_wait_note,
        single_read_waits: replay.single_read_waits.clone(),
        cosim,
    }
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

fn pct(estimate: u64, truth: u64) -> f64 {
    if truth == 0 {
        return if estimate == 0 { 0.0 } else { 100.0 };
    }
    100.0 * (estimate as f64 - truth as f64) / truth as f64
}

/// The co-sim window of the top. A combinational top (every call 0 cycles: the report's
/// latency 0, or without a report the model's) co-simulates at 0 whatever its control: Vivado
/// HLS 2018.2's `simpleALU` (public designs), block control on an s_axilite bundle, reports 0
/// for both calls (interval 0 too: the testbench times no handshake), where the polled window
/// would add 41.
fn top_window(
    report: Option<&csynth::Report>,
    top_params: &[Param],
    per_call: &[u64],
    tool_version: Option<&str>,
    top_info: Option<&ModuleInfo>,
) -> Window {
    if !per_call.is_empty() && per_call.iter().all(|&c| c == 0) {
        return Window::Handshake;
    }
    let control_on_axilite = match report {
        Some(r) => r.control_on_axilite,
        None => top_info.is_some_and(|m| m.control.as_deref() == Some("s_axilite")),
    };
    let version = report.map(|r| r.version.as_str()).or(tool_version);
    // Vivado HLS 2020.1, the last Vivado HLS, is taken to keep its 2018–2019 testbench.
    let last_vivado_hls = report.is_some_and(|r| r.tool == "Vivado HLS" && r.version.starts_with("2020"));
    if control_on_axilite && (last_vivado_hls || version.is_some_and(crate::vitis_tb::testbench_of_2019)) {
        return super::axilite_2019::window(top_params, top_info);
    }
    match report {
        Some(_) => cosim_window(report, top_params),
        None => window_without_report(tool_version, top_info),
    }
}

/// How Vitis' co-sim testbench would count the top's calls: from the report's version and its
/// control bundle's registers; without a report (version unknown), the schedule.
fn cosim_window(report: Option<&csynth::Report>, top_params: &[Param]) -> Window {
    let Some(r) = report else { return Window::Handshake };
    let words = match &r.axilite_args {
        Some(a) => a.iter().map(|a| a.words).collect(),
        None => {
            // An output scalar of the bundle (2021+ reports name the direction) is read back,
            // not written; an m_axi pointer's offset is written whatever the data's direction.
            let out = |p: &&Param| {
                p.interface.as_deref() != Some("m_axi")
                    && r.sw_args.iter().any(|a| a.name == p.name && a.direction == "out")
            };
            let written: Vec<Param> = top_params.iter().filter(|p| !out(p)).cloned().collect();
            argument_words(&written, &r.version)
        }
    };
    let (writes, reads) = axilite_memories(r, top_params);
    Window::for_top(Some(&r.version), r.control_on_axilite, words).with_memories(writes, reads)
}

/// Without a report: the window of the release the project file names (none: the schedule),
/// with the block control where the top's `INTERFACE ... port=return` puts it, the scalar
/// arguments' registers from the source ([`argument_words`]) and its arrays on the bundle: the
/// memories `ARRAY_PARTITION` makes of each, written when the top reads it, read back when it
/// writes it (its accesses, `model::fnbody::PortUse`). Output scalars are not read back here:
/// the source does not say which pointers only return a value. Releases before 2020 move no
/// array in the window here, as with their reports (which list no `SW I/O Information`): the
/// public 2016.4 `sha256` co-simulates a call at 696 where writing its 256-byte input and
/// reading its 32-byte digest over the bus would take over 1000 cycles more.
fn window_without_report(version: Option<&str>, top: Option<&ModuleInfo>) -> Window {
    let (Some(version), Some(m)) = (version, top) else { return Window::Handshake };
    let control_on_axilite = m.control.as_deref() == Some("s_axilite");
    let (mut writes, mut reads) = (Vec::new(), Vec::new());
    let arrays_move = release_year(version).is_none_or(|y| y >= 2020);
    let on_bundle = |p: &&Param| p.kind == ParamKind::Array && p.interface.as_deref() == Some("s_axilite");
    for p in m.params.iter().filter(on_bundle).filter(|_| arrays_move) {
        let Some(mem) = BundleMemory::of(p, Some(m)) else { continue };
        if mem.input {
            writes.extend(std::iter::repeat_n(mem.bank, mem.banks));
        }
        if mem.output {
            reads.extend(std::iter::repeat_n(ReadBack::Memory(mem.bank), mem.banks));
        }
    }
    Window::for_top(Some(version), control_on_axilite, argument_words(&m.params, version)).with_memories(writes, reads)
}

/// An array argument on the control bundle as the co-sim testbench moves it: the banks its
/// `ARRAY_PARTITION` makes, written before the start when the top reads it (or its accesses are
/// unknown), read back after done when the top writes it. None when the sources do not give its
/// size or element type, or its size is a misread.
pub(super) struct BundleMemory {
    pub bank: Bank,
    pub banks: usize,
    pub input: bool,
    pub output: bool,
}

impl BundleMemory {
    pub(super) fn of(p: &Param, top: Option<&ModuleInfo>) -> Option<BundleMemory> {
        let (elements, bits) = p.elements.zip(p.elem_bits)?;
        let uses = top.and_then(|m| m.port_uses.iter().find(|u| u.param == p.name));
        let banks = uses.map_or(1, |u| u.banks.max(1));
        let bank = Bank::of(elements.div_ceil(banks), bits);
        if bank.turns > MAX_BANK_TURNS {
            return None;
        }
        let written = uses.is_some_and(|u| u.accesses.iter().any(|a| a.write));
        let read = uses.is_none_or(|u| u.accesses.iter().any(|a| !a.write));
        Some(BundleMemory { bank, banks: banks as usize, input: read || !written, output: written })
    }
}

/// More turns than this a memory is not an s_axilite memory (the bundle's address space is a
/// few kB to MB) but a size misread; the window is walked turn by turn.
const MAX_BANK_TURNS: u32 = 1 << 20;

/// What the co-sim testbench moves through the control bundle besides the scalar arguments'
/// registers, from the report's `SW I/O Information` (2021+: direction, and one `interface`
/// row per memory an array argument has on the bundle) and the source (the array's elements
/// and their width): each memory of an input array is written before ap_start, each of an
/// output array read back after ap_done (an `inout` one both), and an output scalar on the
/// bundle (a `register` row) is read back with its valid register. An array whose size or
/// element type the sources do not give is left out.
fn axilite_memories(r: &csynth::Report, top_params: &[Param]) -> (Vec<Bank>, Vec<ReadBack>) {
    let (mut writes, mut reads) = (Vec::new(), Vec::new());
    for arg in &r.sw_args {
        let param = top_params.iter().find(|p| p.name == arg.name);
        let (input, output) = match arg.direction.as_str() {
            "in" => (true, false),
            "out" => (false, true),
            "inout" => (true, true),
            _ => continue,
        };
        let banks = arg.axilite_memories() as u64;
        if banks > 0 {
            let Some((elements, bits)) = param.and_then(|p| p.elements.zip(p.elem_bits)) else { continue };
            let bank = Bank::of(elements.div_ceil(banks), bits);
            if bank.turns > MAX_BANK_TURNS {
                continue;
            }
            if input {
                writes.extend(std::iter::repeat_n(bank, banks as usize));
            }
            if output {
                reads.extend(std::iter::repeat_n(ReadBack::Memory(bank), banks as usize));
            }
        } else if output
            && arg.hw.iter().any(|(name, ty)| name.starts_with("s_axi") && ty == "register")
            // An m_axi pointer's register on the bundle is its offset, written, not read back.
            && !arg.hw.iter().any(|(name, _)| name.starts_with("m_axi"))
            && param.is_none_or(|p| p.interface.as_deref() != Some("m_axi"))
        {
            let words = param.map_or(1, |p| scalar_words(&p.type_text));
            reads.push(ReadBack::Scalar { words });
        }
    }
    (writes, reads)
}

/// Reports before 2021 list no s_axilite registers: the words the testbench writes per
/// argument, from the top's parameters. An `s_axilite` scalar: its 32-bit words (2 for a 64-bit
/// type); an `m_axi` pointer: its offset register, one word for the 32-bit addresses of Vivado
/// HLS up to 2019, two for Vitis' 64-bit ones. Streams and ports of their own are not in the
/// bundle.
fn argument_words(params: &[Param], version: &str) -> Vec<u32> {
    let wide_addresses = release_year(version).is_some_and(|y| y >= 2020);
    params
        .iter()
        .filter_map(|p| match p.interface.as_deref() {
            Some("m_axi") => Some(if wide_addresses { 2 } else { 1 }),
            // An array on the bundle is a memory there, not a register.
            Some("s_axilite") if p.kind == crate::model::ParamKind::Array => None,
            Some("s_axilite") => Some(scalar_words(&p.type_text)),
            _ => None,
        })
        .collect()
}

/// The year of a release (`2016.4`, `v2023.2.1` → 2016, 2023).
fn release_year(version: &str) -> Option<u32> {
    version.trim_start_matches(['v', 'V']).split('.').next().and_then(|y| y.parse::<u32>().ok())
}

/// 32-bit words of a scalar type: 2 for the 64-bit C types and `ap_(u)int<N>` of N > 32
/// (⌈N/32⌉), else 1.
pub(super) fn scalar_words(t: &str) -> u32 {
    let t = t.replace(' ', "");
    if let Some(n) = t.split(['<', '>']).nth(1).filter(|_| t.contains("ap_")).and_then(|n| n.parse::<u32>().ok()) {
        return n.div_ceil(32).max(1);
    }
    if ["longlong", "double", "int64_t", "uint64_t", "long", "size_t"].iter().any(|w| t.contains(w)) {
        2
    } else {
        1
    }
}

fn mean_abs(errs: &mut dyn Iterator<Item = f64>) -> f64 {
    let v: Vec<f64> = errs.map(f64::abs).collect();
    if v.is_empty() {
        0.0
    } else {
        v.iter().sum::<f64>() / v.len() as f64
    }
}

/// `per_call`: the estimated co-sim figures.
fn compare(per_call: &[u64], c: &CosimTruth, report: Option<csynth::Range<u64>>) -> CosimComparison {
    if let (Some((lo, hi)), [avg], true) = (c.spread, c.per_call.as_slice(), per_call.len() > 1) {
        return compare_spread(per_call, c, (lo, *avg, hi), report);
    }
    // A summary-only co-sim report (one figure) stands for every call.
    let truth: Vec<u64> = match c.per_call.len() {
        1 => vec![c.per_call[0]; per_call.len().max(1)],
        _ => c.per_call.clone(),
    };
    let n = truth.len().min(per_call.len());
    let calls: Vec<CallComparison> = (0..n)
        .map(|i| {
            let est = per_call[i];
            CallComparison { index: i, cosim: truth[i], estimate: est, error_pct: pct(est, truth[i]) }
        })
        .collect();
    let mean_abs_error_pct = mean_abs(&mut calls.iter().map(|c| c.error_pct));
    let report_mean_abs_error_pct = report.map(|r| mean_abs(&mut truth[..n].iter().map(|&t| pct(r.max, t))));
    let note = (c.per_call.len() > 1 && c.per_call.len() != per_call.len()).then(|| {
        format!(
            "the co-simulation has {} calls and this run {}: the first {n} are compared (same testbench?)",
            c.per_call.len(),
            per_call.len()
        )
    });
    CosimComparison { files: c.files.clone(), calls, mean_abs_error_pct, report_mean_abs_error_pct, note }
}

/// A co-sim summary of calls that differ (min, average, max) against several estimated calls:
/// which call took which is unknown, so the shortest estimated call is compared with the
/// minimum, the longest with the maximum, and the mean of all with the average; the error is
/// the mean of those three. Comparing every call with the average would count a data-dependent
/// design's spread as its error (the public 2016.4 `sha256`: 696 ~ 3732 over five messages).
fn compare_spread(
    per_call: &[u64],
    c: &CosimTruth,
    (lo, avg, hi): (u64, u64, u64),
    report: Option<csynth::Range<u64>>,
) -> CosimComparison {
    // The first shortest and the first longest call (`max_by_key` keeps the last of equals:
    // walked backwards, that is the first).
    let first = (0..per_call.len()).min_by_key(|&i| per_call[i]).unwrap_or(0);
    let last = (0..per_call.len()).rev().max_by_key(|&i| per_call[i]).unwrap_or(0);
    let calls = vec![
        CallComparison { index: first, cosim: lo, estimate: per_call[first], error_pct: pct(per_call[first], lo) },
        CallComparison { index: last, cosim: hi, estimate: per_call[last], error_pct: pct(per_call[last], hi) },
    ];
    let mean = per_call.iter().sum::<u64>() as f64 / per_call.len() as f64;
    let mean_error = if avg == 0 { 0.0 } else { (mean - avg as f64) / avg as f64 * 100.0 };
    let mean_abs_error_pct = mean_abs(&mut calls.iter().map(|c| c.error_pct).chain([mean_error]));
    let report_mean_abs_error_pct = report.map(|r| mean_abs(&mut [lo, avg, hi].into_iter().map(|t| pct(r.max, t))));
    let note = Some(format!(
        "the co-simulation gives only its minimum, average and maximum ({lo}, {avg}, {hi}): compared with the \
         shortest and the longest call estimated and their mean ({mean:.1}); the error is the mean of the three"
    ));
    CosimComparison { files: c.files.clone(), calls, mean_abs_error_pct, report_mean_abs_error_pct, note }
}

/// A free-running (`ap_ctrl_none`) top's co-sim summary of calls that differ: co-simulation
/// feeds a call's inputs ahead of time and counts its latency from them, so a call waits
/// behind the ones before it (the public 2025.2 `viterbi_decoder`: 50, 192 on average, 193,
/// with 48 between calls: three calls queued). The first call waits for none: the minimum is
/// the latency of a call, and every call is compared with it.
fn free_running_compare(
    per_call: &[u64],
    c: &CosimTruth,
    lo: u64,
    report: Option<csynth::Range<u64>>,
) -> CosimComparison {
    let alone = CosimTruth { files: c.files.clone(), per_call: vec![lo], spread: None, note: None };
    let mut out = compare(per_call, &alone, report);
    out.note = Some(format!(
        "a free-running top (ap_ctrl_none): the co-simulation counts a call's latency from inputs it fed ahead, \
         waits behind earlier calls included (average {}, maximum {}); every call is compared with its minimum, {lo}, \
         the call that waited for none",
        c.per_call.first().copied().unwrap_or(lo),
        c.spread.map_or(lo, |s| s.1)
    ));
    out
}

/// How each module and loop of the report, and each probe, entered the estimate.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Accounting {
    /// Every module of the report.
    pub modules: Vec<ReportEntry>,
    /// Every loop of the report.
    pub loops: Vec<ReportEntry>,
    /// Probes the report has no entry for.
    pub probes_without_entry: Vec<ProbeNote>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReportEntry {
    /// `module` or `module/loop`.
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<csynth::Range<u64>>,
    /// `probed` (a probe's row shows it), `numbered copy` (a call site's row), or how its time
    /// is counted when no probe stands for it: inside its caller's or its loop's latency.
    pub counted: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProbeNote {
    pub probe: u32,
    pub kind: String,
    pub name: String,
    pub function: String,
    pub line: usize,
    pub reason: String,
}

/// Account for the report against the timing built from it.
/// The probe's parent is a function: a loop directly in a function's body.
fn manifest_parent_is_function(manifest: &Manifest, p: &crate::emit::manifest::ProbeEntry) -> bool {
    p.parent.is_some_and(|q| manifest.probes.iter().any(|x| x.id == q && x.kind == "function"))
}

pub fn account(manifest: &Manifest, timing: &HashMap<u32, Timing>, report: &csynth::Report) -> Accounting {
    let mut probed_modules: HashSet<String> = HashSet::new();
    let mut copies: HashSet<String> = HashSet::new();
    let mut probed_loops: HashSet<String> = HashSet::new();
    // Dataflow processes made of loops: module -> the loops (probes) it holds.
    let mut processes: HashMap<String, Vec<String>> = HashMap::new();
    let mut notes = Vec::new();
    for p in &manifest.probes {
        let note = |reason: &str| ProbeNote {
            probe: p.id,
            kind: p.kind.clone(),
            name: p.name.clone(),
            function: p.function.clone(),
            line: p.line,
            reason: reason.to_string(),
        };
        match timing.get(&p.id) {
            Some(Timing::Module(m)) => {
                if let Some(name) = &m.report_module {
                    probed_modules.insert(name.clone());
                }
                copies.extend(m.copies.iter().skip(1).map(|c| c.name.clone()));
                if m.inlined {
                    notes.push(note("no module in the report: inlined into its caller, its loops count there"));
                }
            }
            Some(Timing::Loop(l)) => {
                if let Some(name) = &l.report_loop {
                    probed_loops.insert(name.clone());
                }
                if let Some(lp) = l.process.as_ref().filter(|lp| lp.members.contains(&p.id)) {
                    processes.entry(lp.module.clone()).or_default().push(p.name.clone());
                }
                let in_processes = p.parent.is_some() && !report.loop_processes(&p.function).is_empty();
                if let Some(table) = &l.constant_table {
                    notes.push(note(&format!(
                        "fills the constant table `{table}` and nothing else: Vitis folds it into a ROM (rule 7); costs 0"
                    )));
                } else if l.absent && in_processes && manifest_parent_is_function(manifest, p) {
                    notes.push(note(
                        "a loop of a dataflow function in none of the report's loop processes (`Loop_<label>_proc`): \
                         not mapped, costs 0 of its own; the region is the report's latency moved by the processes \
                         that were mapped",
                    ));
                } else if l.absent {
                    notes.push(note(
                        "not in the report: unrolled into its parent's schedule or folded into a ROM; costs 0 of its own",
                    ));
                }
            }
            _ => {}
        }
    }
    // Which module (and loop) instantiates each module, for the line that says where its time is.
    let mut callers: HashMap<&str, String> = HashMap::new();
    for m in &report.modules {
        for i in m.instances.iter().filter_map(|i| i.module.as_deref()) {
            callers.entry(i).or_insert_with(|| m.name.clone());
        }
        for l in m.all_loops() {
            for i in l.node.instances.iter().filter_map(|i| i.module.as_deref()) {
                callers.insert(i, format!("{}/{}", m.name, l.node.name));
            }
        }
    }
    let modules = report
        .modules
        .iter()
        .map(|m| {
            let counted = if probed_modules.contains(&m.name) {
                "probed".to_string()
            } else if let Some(loops) = processes.get(&m.name) {
                format!("dataflow process of the loops {}: one process, timed from this module", loops.join(", "))
            } else if m.pipeline_of.is_some()
                && m.all_loops().iter().any(|l| probed_loops.contains(&format!("{}/{}", m.name, l.node.name)))
            {
                "the pipeline of a probed loop: the loop's row".to_string()
            } else if copies.contains(&m.name) {
                "numbered copy: the row of its call site".to_string()
            } else if let Some(c) = callers.get(m.name.as_str()) {
                let what = if m.pipeline_of.is_some() || m.name.contains("_Pipeline_") {
                    "generated by Vitis (a copy, an initialiser or a pipelined loop)"
                } else {
                    "not probed"
                };
                format!("{what}: inside the latency of {c}")
            } else if m.name == report.top {
                "the top: not called in this run".to_string()
            } else {
                "not probed, caller unknown: inside the top's latency".to_string()
            };
            ReportEntry { name: m.name.clone(), latency: m.latency, counted }
        })
        .collect();
    let loops = report
        .all_loops()
        .into_iter()
        .map(|l| {
            let name = format!("{}/{}", l.module.name, l.node.name);
            let counted = if probed_loops.contains(&name) {
                "probed".to_string()
            } else {
                format!("no probe: inside the latency of {}", l.module.name)
            };
            ReportEntry { name, latency: l.node.latency, counted }
        })
        .collect();
    Accounting { modules, loops, probes_without_entry: notes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ParamKind;

    /// A Vivado HLS 2018-layout module report (written for this test): block control in the
    /// `CTRL` s_axilite bundle (s_axi ports, no ap_start port), no register table.
    fn old_report(ports: &str) -> csynth::Report {
        old_report_of_latency(ports, 40)
    }

    fn old_report_of_latency(ports: &str, latency: u64) -> csynth::Report {
        let interval = latency + 1;
        let text = format!(
            "\n\n================================================================\n== Vivado HLS Report for 'k'\n\
             ================================================================\n* Date:           Mon Jan  1 00:00:00 2018\n\n\
             * Version:        2018.3 (Build 1 on Thu Dec 06 23:56:15 MST 2018)\n* Project:        p\n* Solution:       solution1\n\
             * Product family: zynq\n* Target device:  xc7z020clg400-1\n\n\n\
             ================================================================\n== Performance Estimates\n\
             ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
             \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n    | min | max | min | max |   Type  |\n\
             \x20   +-----+-----+-----+-----+---------+\n    |{latency:>5}|{latency:>5}|{interval:>5}|{interval:>5}|   none  |\n    +-----+-----+-----+-----+---------+\n\n\n\
             ================================================================\n== Interface\n\
             ================================================================\n* Summary: \n\
             +--------------------+-----+-----+------------+--------------------+--------------+\n\
             |      RTL Ports     | Dir | Bits|  Protocol  |    Source Object   |    C Type    |\n\
             +--------------------+-----+-----+------------+--------------------+--------------+\n{ports}\
             +--------------------+-----+-----+------------+--------------------+--------------+\n\n"
        );
        csynth::parse_str(&text, "k_csynth.rpt").unwrap()
    }

    fn param(name: &str, type_text: &str, interface: Option<&str>) -> Param {
        Param {
            name: name.into(),
            type_text: type_text.into(),
            kind: ParamKind::Scalar,
            interface: interface.map(Into::into),
            dims: Vec::new(),
            elements: None,
            elem_bits: None,
        }
    }

    fn array(name: &str, elements: Option<u64>, bits: Option<u32>) -> Param {
        Param { kind: ParamKind::Array, elements, elem_bits: bits, ..param(name, "T", Some("s_axilite")) }
    }

    /// What the report's SW I/O gives (directions, memories on the bundle) and the source's
    /// sizes become the testbench's memories and read-back; an m_axi pointer's offset register
    /// and an array of unknown size are left out.
    #[test]
    fn arrays_and_output_scalars_of_the_bundle_from_the_reports_sw_io() {
        let mut r = old_report(
            "|s_axi_CTRL_AWVALID  |  in |    1|    s_axi   |        CTRL        |    scalar    |\n\
             |ap_clk              |  in |    1| ap_ctrl_hs |          k         | return value |\n",
        );
        r.sw_args = csynth::sw_args(
            &[["a", "in"], ["out", "out"], ["res", "out"], ["p", "out"], ["q", "in"]],
            &[
                ["a", "s_axi_control", "interface"],
                ["a", "s_axi_control", "interface"],
                ["out", "s_axi_control", "interface"],
                ["res", "s_axi_control res", "register"],
                ["p", "m_axi_gmem", "interface"],
                ["p", "s_axi_control p_1", "register"],
                ["q", "s_axi_control", "interface"],
            ],
        );
        let params = [
            array("a", Some(16), Some(8)),
            array("out", Some(4), Some(64)),
            param("res", "int *", Some("s_axilite")),
            param("p", "int *", Some("m_axi")),
            array("q", None, Some(32)),
        ];
        let (writes, reads) = axilite_memories(&r, &params);
        assert_eq!(writes, [Bank { words: 1, turns: 2 }; 2], "8 bytes a memory, four to a word");
        assert_eq!(reads, [ReadBack::Memory(Bank { words: 2, turns: 4 }), ReadBack::Scalar { words: 1 }]);
        // The register words: `res` is read back, not written; `p`'s offset is written.
        assert_eq!(
            cosim_window(Some(&r), &params),
            Window::AxiLitePolled { words: vec![1], writes, reads },
            "p's offset (one 32-bit word in 2018.3) only"
        );
    }

    #[test]
    fn an_old_report_without_registers_takes_the_argument_words_from_the_source() {
        let axilite = old_report(
            "|s_axi_CTRL_AWVALID  |  in |    1|    s_axi   |        CTRL        |    scalar    |\n\
             |ap_clk              |  in |    1| ap_ctrl_hs |          k         | return value |\n\
             |interrupt           | out |    1| ap_ctrl_hs |          k         | return value |\n",
        );
        assert!(axilite.control_on_axilite && axilite.axilite_args.is_none());
        let params = [
            param("gain", "int", Some("s_axilite")),
            param("wide", "long long", Some("s_axilite")),
            param("x", "int *", Some("m_axi")),
            param("s", "hls::stream<int> &", Some("axis")),
            param("n", "int", None),
        ];
        assert_eq!(argument_words(&params, "2018.3"), [1, 2, 1]);
        assert_eq!(argument_words(&params, "2020.2"), [1, 2, 2], "Vitis' m_axi offsets are 64-bit");
        assert_eq!(scalar_words("ap_uint<96>"), 3);
        assert_eq!(
            cosim_window(Some(&axilite), &params),
            Window::AxiLitePolled { words: vec![1, 2, 1], writes: vec![], reads: vec![] }
        );
        // The same top with ap_start on a port: the handshake window.
        let ports = old_report(
            "|s_axi_CTRL_AWVALID  |  in |    1|    s_axi   |        CTRL        |    scalar    |\n\
             |ap_start            |  in |    1| ap_ctrl_hs |          k         | return value |\n",
        );
        assert!(!ports.control_on_axilite);
        assert_eq!(cosim_window(Some(&ports), &params), Window::Handshake);
    }

    #[test]
    fn a_combinational_top_on_an_axilite_bundle_co_simulates_at_its_schedule() {
        let ports = "|s_axi_CTRL_AWVALID  |  in |    1|    s_axi   |        CTRL        |    scalar    |\n\
                     |ap_clk              |  in |    1| ap_ctrl_hs |          k         | return value |\n\
                     |interrupt           | out |    1| ap_ctrl_hs |          k         | return value |\n";
        let params = [param("a", "int", Some("s_axilite"))];
        let comb = old_report_of_latency(ports, 0);
        assert_eq!(comb.top_module().and_then(|m| m.latency).map(|l| l.max), Some(0));
        // The schedule's 0 is every call's estimate.
        assert_eq!(top_window(Some(&comb), &params, &[0, 0], None, None), Window::Handshake);
        // A report of 2018.3: that release's testbench, the argument its one input.
        let seq = old_report(ports);
        let polled = Window::AxiLite2019 { inputs: vec![Bank { words: 1, turns: 1 }], outputs: vec![] };
        assert_eq!(top_window(Some(&seq), &params, &[40, 40], None, None), polled);
        // Without a report the model's 0 decides, whatever window the release would give.
        let top = ModuleInfo { control: Some("s_axilite".into()), ..ModuleInfo::default() };
        assert_eq!(top_window(None, &params, &[0], Some("2022.2"), Some(&top)), Window::Handshake);
        assert_ne!(top_window(None, &params, &[3], Some("2022.2"), Some(&top)), Window::Handshake);
    }

    /// A co-sim summary (`lat.rpt`: min 696, average 1760, max 3732) of calls that differ: the
    /// shortest estimated call against the minimum, the longest against the maximum, the mean
    /// against the average. Against the average alone every call of a data-dependent design
    /// would look off by its distance from the mean (here 56.8 %).
    #[test]
    fn a_summary_of_calls_that_differ_compares_the_shortest_the_longest_and_the_mean() {
        let truth =
            CosimTruth { files: vec!["lat.rpt".into()], per_call: vec![1760], spread: Some((696, 3732)), note: None };
        let c = compare(&[545, 552, 1301, 2057, 3583], &truth, None);
        let picked: Vec<(usize, u64, u64)> = c.calls.iter().map(|c| (c.index, c.cosim, c.estimate)).collect();
        assert_eq!(picked, [(0, 696, 545), (4, 3732, 3583)]);
        // (151 / 696 + 149 / 3732 + 152.4 / 1760) / 3
        assert!((c.mean_abs_error_pct - 11.4).abs() < 0.05, "{}", c.mean_abs_error_pct);
        assert!(c.note.is_some());
        // One call, or a summary of equal calls: the average stands for each.
        assert_eq!(compare(&[1700], &truth, None).calls.len(), 1);
        let equal = CosimTruth { spread: None, ..truth };
        assert_eq!(compare(&[545, 3583], &equal, None).calls.len(), 2);
        assert_eq!(compare(&[545, 3583], &equal, None).calls[1].cosim, 1760);
    }

    /// A free-running top (the report's control `ap_ctrl_none`) whose co-sim summary spreads
    /// (50, 192, 193: calls queued behind each other) is compared with its minimum, every call;
    /// a top with a handshake keeps the shortest, longest and mean comparison.
    #[test]
    fn a_free_running_tops_calls_are_compared_with_the_call_that_waited_for_none() {
        let ports = "|ap_clk              |  in |    1| ap_ctrl_none |          k         | return value |\n";
        let report = old_report_of_latency(ports, 47);
        assert_eq!(report.control.as_deref(), Some("ap_ctrl_none"));
        let replay = Replay { calls: vec![47, 47, 47], calls_total: 3, calls_cycles: 141, ..Replay::default() };
        let truth =
            CosimTruth { files: vec!["k_cosim.rpt".into()], per_call: vec![192], spread: Some((50, 193)), note: None };
        let e = estimate(&replay, Some(&report), "k", Some(&truth), None, None);
        let c = e.cosim.expect("compared");
        assert_eq!(c.calls.iter().map(|c| c.cosim).collect::<Vec<_>>(), [50, 50, 50]);
        assert!((c.mean_abs_error_pct - 6.0).abs() < 0.05, "{}", c.mean_abs_error_pct);
        assert!(c.note.as_deref().is_some_and(|n| n.contains("free-running")), "{:?}", c.note);
        let hs = old_report_of_latency(
            "|ap_start            |  in |    1| ap_ctrl_hs   |          k         | return value |\n",
            47,
        );
        let c = estimate(&replay, Some(&hs), "k", Some(&truth), None, None).cosim.expect("compared");
        assert_eq!(c.calls.iter().map(|c| c.cosim).collect::<Vec<_>>(), [50, 193]);
        // Without a report, the top's `INTERFACE ap_ctrl_none port=return` says it.
        let top = ModuleInfo { control: Some("ap_ctrl_none".into()), ..ModuleInfo::default() };
        let c = estimate(&replay, None, "k", Some(&truth), Some(&top), None).cosim.expect("compared");
        assert_eq!(c.calls.iter().map(|c| c.cosim).collect::<Vec<_>>(), [50, 50, 50]);
    }

    /// Without a report, the arrays on the bundle are moved inside the window from 2020 on, as
    /// the reports of those releases list them; before, as with such a report, they are not
    /// (the public 2016.4 `sha256`: its 256-byte input alone would be 64 words over the bus in
    /// a call co-simulated at 696).
    #[test]
    fn without_a_report_arrays_move_in_the_window_from_2020_on() {
        let top = ModuleInfo {
            control: Some("s_axilite".into()),
            params: vec![array("data", Some(256), Some(8)), param("bytes", "unsigned int", Some("s_axilite"))],
            ..ModuleInfo::default()
        };
        let memories = |w: Window| match w {
            Window::AxiLitePolled { writes, reads, .. } => writes.len() + reads.len(),
            _ => 0,
        };
        assert_eq!(memories(window_without_report(Some("2022.2"), Some(&top))), 1);
        assert_eq!(memories(window_without_report(Some("2016.4"), Some(&top))), 0);
        assert_ne!(window_without_report(Some("2016.4"), Some(&top)), Window::Handshake, "the polls and the argument");
    }
}
