//! The stall report (HLScope's table, seed 001 Figs. 4–6): per site, cycles, whether it is on
//! the critical path (PCP), its stall rate and the modules it waits for, resources and DRAM
//! bandwidth. Serialised as JSON (`hlsinstr-sim-report`, versioned; schema in
//! `docs/sim-report.schema.json`).

use super::relations::Relations;
use super::replay::{Dram, Replay, Site};
use super::timing::{Defaults, NestRole, Source, Sourced, Timing};
use crate::csynth;
use crate::emit::manifest::{Manifest, ProbeEntry};
use serde::Serialize;
use std::collections::HashMap;

pub const FORMAT: &str = "hlsinstr-sim-report";
/// Bump on any incompatible change of the JSON. 2: a pipelined loop's `il` is the tail beyond
/// `(TC − 1) × II` (the report's latency minus that, else depth − 1), not the depth; `estimate`
/// and `accounting` added.
pub const VERSION: u32 = 2;

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub format: &'static str,
    pub version: u32,
    pub top: String,
    pub clock_ns: Sourced<f64>,
    pub dram: DramInfo,
    pub defaults: Defaults,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub csynth: Option<CsynthInfo>,
    /// Cycles per call of the top, the report's top latency beside them, the co-simulation's
    /// when given.
    pub estimate: super::estimate::Estimate,
    /// How every module and loop of the csynth report, and every probe without an entry in it,
    /// entered the estimate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accounting: Option<super::estimate::Accounting>,
    /// Cycles of all top-level invocations of the run.
    pub total_cycles: u64,
    pub total_us: f64,
    pub stall_threshold_pct: f64,
    /// Every module on the critical path stalls less than the threshold: the estimate cannot
    /// separate them any more.
    pub recommend_in_fpga: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recommendation: Option<String>,
    pub rows: Vec<Row>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<PortRow>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// With `watch` probes: the watch events (counts for all, the first ones listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch: Option<super::watch::WatchSummary>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DramInfo {
    pub bandwidth_bytes_per_s: f64,
    pub latency_ns: f64,
    pub source: Source,
}

#[derive(Debug, Clone, Serialize)]
pub struct CsynthInfo {
    pub path: String,
    pub tool: String,
    pub version: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Index of the row; `parent` refers to it.
    pub index: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    pub depth: usize,
    pub probe: u32,
    /// `module` or `loop`.
    pub kind: String,
    pub name: String,
    pub function: String,
    pub file: String,
    /// Line of the function or loop header.
    pub line: usize,
    /// Line of the call in the parent (modules), when the manifest lists it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_line: Option<usize>,
    /// The source text of the call or loop header, trimmed, when the sources were at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub runs: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trips: Option<u64>,
    /// Total estimated cycles over all runs.
    pub cycles: u64,
    pub cycles_min: u64,
    pub cycles_max: u64,
    /// Where the cycle figure's inputs came from: trip counts from the run, II/IL/latencies from
    /// the report, pragma or default.
    pub timing: TimingInfo,
    pub pcp: bool,
    /// Share of the enclosing scope's time this row is not busy; absent for top-level rows and
    /// rows inside a pipelined loop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stall_pct: Option<f64>,
    pub reasons: Vec<Reason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<csynth::Resources>,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// DRAM bandwidth of this row while it runs, bytes per second.
    pub dbw: f64,
    /// Aggregate DRAM bandwidth of everything running in parallel with it.
    pub adbw: f64,
    /// Runs whose time the DRAM model set (more than the compute estimate).
    pub dram_bound_runs: u64,
    /// Part of an enclosing pipelined loop: its time is inside that loop's.
    pub in_pipeline: bool,
    /// The loop is part of a perfect nest that the csynth report shows flattened into one loop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nest: Option<RowNest>,
    /// The report's module for this call site when the function has numbered copies (`f_1`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    /// Runs whose cycles are the report's latency exactly: the run agreed with the schedule
    /// (but for `rtl_saving`).
    pub schedule_runs: u64,
    /// Cycles over its runs that the RTL of the `_Pipeline_` modules in them does not spend
    /// beyond the report's schedule (`replay::RTL_WRAPPER_SAVING` a module run).
    #[serde(skip_serializing_if = "is_zero")]
    pub rtl_saving: u64,
}

/// A row's part in a perfect nest the csynth report flattened (Vitis `loop_flatten`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RowNest {
    /// The report's loop: the members' names joined by `_` (`Row_Col`).
    pub flattened_name: String,
    /// The loops of the flattened nest, outermost first.
    pub members: Vec<String>,
    /// `head`: the outermost loop, standing for the flattened loop (its `trips` are the
    /// flattened trips, its `cycles` the whole nest's, its timing the report loop's);
    /// `member`: an inner loop, whose time is inside the head's row.
    pub role: String,
    /// Row of the nest's head (this row for the head).
    pub head: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct TimingInfo {
    pub trips: Source,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipelined: Option<Sourced<bool>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii: Option<Sourced<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub il: Option<Sourced<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iteration_latency: Option<Sourced<u64>>,
    /// Without a report, under Vivado HLS: the states a loop's exit takes after its last
    /// iteration (1, 2 after a pipeline).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<Sourced<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overhead: Option<Sourced<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<Sourced<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_name: Option<String>,
    /// A loop's report entry: trip count, latency, iteration latency (schedule first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<super::timing::ReportLoop>,
    /// A loop of a dataflow function: the report's process module that holds it (with the
    /// loops grouped with it), which times them as one process.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process: Option<String>,
    /// A module's latency in the report.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_latency: Option<csynth::Range<u64>>,
    /// A report was given and does not list this loop: unrolled or a ROM, it costs 0.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub absent: bool,
    /// No report was given and the loop only fills this constant table: a ROM in Vitis, 0 cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant_table: Option<String>,
    /// No report was given and the loop only stores into these arrays, which nothing reads:
    /// code Vitis removes, 0 cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// A report was given and has no module for this function, or (without one) the function
    /// is `#pragma HLS INLINE` or one Vitis inlines by default: inlined.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inlined: bool,
    /// No report was given: the function's aggregate initialisers run as modules of their own at
    /// its start, side by side; the largest costs its elements + 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initialisers: Option<Sourced<u64>>,
    /// No report was given: each initialiser, counted or skipped (with why).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub initialiser_notes: Vec<String>,
    /// No report was given and the function is, or runs inside, a function pipeline: its own
    /// latency from its body (op chain, memory ports), its callees' added after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Sourced<u64>>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Reason {
    /// The module (or loop) waited for.
    pub on: String,
    /// Its row.
    pub row: usize,
    /// Share of the scope's time, percent.
    pub pct: f64,
    /// `dep` (they exchange data), `sync` (they share nothing) or `seq` (serial, relation not
    /// known: a loop).
    pub kind: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct PortRow {
    pub probe: u32,
    pub name: String,
    pub function: String,
    pub bytes_read: u64,
    pub bytes_written: u64,
}

pub struct Inputs<'a> {
    pub manifest: &'a Manifest,
    pub timing: &'a HashMap<u32, Timing>,
    pub relations: &'a Relations,
    pub replay: &'a Replay,
    pub top: String,
    pub clock_ns: Sourced<f64>,
    pub dram: Dram,
    pub dram_source: Source,
    pub defaults: Defaults,
    pub csynth: Option<(&'a std::path::Path, &'a csynth::Report)>,
    pub stall_threshold_pct: f64,
    /// Original source lines by manifest file path, for the annotated table.
    pub sources: &'a HashMap<String, Vec<String>>,
    pub cosim: Option<&'a super::estimate::CosimTruth>,
    /// The tool release the project names, for the co-sim window without a report.
    pub tool_version: Option<&'a str>,
}

pub fn build(i: &Inputs) -> Report {
    let probes: HashMap<u32, &ProbeEntry> = i.manifest.probes.iter().map(|p| (p.id, p)).collect();
    let r = i.replay;
    // Rows in depth-first order of the site tree; row index = position.
    let mut order: Vec<(usize, usize)> = Vec::new();
    let mut stack: Vec<(usize, usize)> = r.roots.iter().rev().map(|&s| (s, 0)).collect();
    while let Some((s, depth)) = stack.pop() {
        order.push((s, depth));
        stack.extend(r.sites[s].children.iter().rev().map(|&c| (c, depth + 1)));
    }
    let row_of: HashMap<usize, usize> = order.iter().enumerate().map(|(row, &(s, _))| (s, row)).collect();
    let pcp = critical_path(r, i.timing);
    let sites_of = super::replay::call_sites(i.manifest);
    let secs = |cycles: u64| cycles as f64 * i.clock_ns.value * 1e-9;
    let mut rows = Vec::with_capacity(order.len());
    for (row, &(s, depth)) in order.iter().enumerate() {
        let site = &r.sites[s];
        let p = probes[&site.probe];
        let is_loop = p.kind == "loop";
        let nest = row_nest(r, s, row, i.timing, &row_of);
        let in_nest = nest.as_ref().is_some_and(|n| n.role == "member");
        let (stall, reasons) = if in_nest { (None, Vec::new()) } else { stall_of(r, s, i, &probes, &row_of) };
        // A function called from several places: the line of the site this row stands for (the
        // replay took them in turn, in source order); else its caller's first call of it.
        let own_site = site.call_site.and_then(|c| sites_of.get(&site.probe)?.get(c)).map(|(_, f, l)| (f, *l));
        let call_line =
            own_site.or_else(|| site.parent.and_then(|ps| call_line(probes[&r.sites[ps].probe], p, &probes)));
        let shown = if is_loop { Some((&p.file, p.line)) } else { call_line };
        let source =
            shown.and_then(|(f, l)| i.sources.get(f.as_str())?.get(l.checked_sub(1)?)).map(|t| t.trim().to_string());
        let bytes = site.bytes_read + site.bytes_written;
        let dbw = if site.cycles > 0 { bytes as f64 / secs(site.cycles) } else { 0.0 };
        rows.push(Row {
            index: row,
            parent: site.parent.map(|ps| row_of[&ps]),
            depth,
            probe: site.probe,
            kind: if is_loop { "loop" } else { "module" }.into(),
            name: p.name.clone(),
            function: p.function.clone(),
            file: p.file.clone(),
            line: p.line,
            call_line: call_line.map(|(_, l)| l),
            source,
            runs: site.runs,
            trips: is_loop.then_some(site.trips),
            cycles: site.cycles,
            cycles_min: if site.runs == 0 { 0 } else { site.min_cycles },
            cycles_max: site.max_cycles,
            timing: timing_info(i.timing.get(&site.probe), site.copy),
            pcp: pcp[s],
            stall_pct: stall,
            reasons,
            resources: match i.timing.get(&site.probe) {
                Some(Timing::Module(m)) => m.resources,
                _ => None,
            },
            bytes_read: site.bytes_read,
            bytes_written: site.bytes_written,
            dbw,
            adbw: aggregate_bandwidth(r, s, i.timing, &secs).unwrap_or(dbw),
            dram_bound_runs: site.dram_bound_runs,
            in_pipeline: site.absorbed,
            nest,
            instance: site.copy_name.clone(),
            schedule_runs: site.schedule_runs,
            rtl_saving: site.rtl_saving,
        });
    }
    let pcp_modules: Vec<&Row> = rows.iter().filter(|r| r.pcp && r.kind == "module" && r.stall_pct.is_some()).collect();
    let recommend =
        !pcp_modules.is_empty() && pcp_modules.iter().all(|r| r.stall_pct.unwrap_or(0.0) < i.stall_threshold_pct);
    let recommendation = recommend.then(|| {
        format!(
            "every module on the critical path stalls less than {}%: the C-simulation estimate can no longer tell \
             them apart; measure them in the FPGA (in-FPGA build)",
            i.stall_threshold_pct
        )
    });
    let mut ports: Vec<PortRow> = r
        .port_bytes
        .iter()
        .map(|(&id, &(rd, wr))| PortRow {
            probe: id,
            name: probes.get(&id).map_or_else(|| format!("port {id}"), |p| p.name.clone()),
            function: probes.get(&id).map_or_else(String::new, |p| p.function.clone()),
            bytes_read: rd,
            bytes_written: wr,
        })
        .collect();
    ports.sort_by_key(|p| p.probe);
    let mut warnings = r.warnings.clone();
    if r.nodes_dropped > 0 {
        warnings.push(format!(
            "the timeline keeps the first {} invocations; {} more are left out",
            r.nodes.len(),
            r.nodes_dropped
        ));
    }
    Report {
        format: FORMAT,
        version: VERSION,
        top: i.top.clone(),
        clock_ns: i.clock_ns,
        dram: DramInfo {
            bandwidth_bytes_per_s: i.dram.bandwidth,
            latency_ns: i.dram.latency_ns,
            source: i.dram_source,
        },
        defaults: i.defaults,
        csynth: i.csynth.map(|(path, rep)| CsynthInfo {
            path: path.display().to_string(),
            tool: rep.tool.clone(),
            version: rep.version.clone(),
        }),
        estimate: super::estimate::estimate(
            r,
            i.csynth.map(|(_, c)| c),
            &i.top,
            i.cosim,
            top_info(i.manifest, &i.top),
            i.tool_version,
        ),
        accounting: i.csynth.map(|(_, c)| super::estimate::account(i.manifest, i.timing, c)),
        total_cycles: r.total_cycles,
        total_us: secs(r.total_cycles) * 1e6,
        stall_threshold_pct: i.stall_threshold_pct,
        recommend_in_fpga: recommend,
        recommendation,
        rows,
        ports,
        warnings,
        watch: None,
    }
}

/// The nest a loop row belongs to, when the report flattened it.
fn row_nest(
    r: &Replay,
    s: usize,
    row: usize,
    timing: &HashMap<u32, Timing>,
    row_of: &HashMap<usize, usize>,
) -> Option<RowNest> {
    let Some(Timing::Loop(l)) = timing.get(&r.sites[s].probe) else { return None };
    match l.nest.as_ref()? {
        NestRole::Head { flattened_name, members, .. } => Some(RowNest {
            flattened_name: flattened_name.clone(),
            members: members.clone(),
            role: "head".into(),
            head: row,
        }),
        NestRole::Member { head, flattened_name, members } => {
            let mut up = r.sites[s].parent;
            while let Some(p) = up.filter(|&p| r.sites[p].probe != *head) {
                up = r.sites[p].parent;
            }
            Some(RowNest {
                flattened_name: flattened_name.clone(),
                members: members.clone(),
                role: "member".into(),
                head: row_of[&up?],
            })
        }
    }
}

/// Where `parent` (a module or a loop) calls module `p`: file and line of the first call to
/// it in the function the parent belongs to.
fn call_line<'a>(
    parent: &'a ProbeEntry,
    p: &ProbeEntry,
    probes: &HashMap<u32, &'a ProbeEntry>,
) -> Option<(&'a String, usize)> {
    if p.kind != "function" {
        return None;
    }
    let owner = probes.values().find(|q| q.kind == "function" && q.function == parent.function)?;
    let line = owner.module.as_ref()?.calls.iter().find(|c| c.name == p.name)?.line;
    Some((&owner.file, line))
}

/// A probe's name in reasons: the flattened loop's for the head of a nest the report flattened.
fn shown_name(timing: &HashMap<u32, Timing>, p: &ProbeEntry) -> String {
    match timing.get(&p.id) {
        Some(Timing::Loop(l)) if matches!(l.nest, Some(NestRole::Head { .. })) => {
            l.nest_name().unwrap_or(&p.name).to_string()
        }
        _ => p.name.clone(),
    }
}

fn is_dataflow(timing: &HashMap<u32, Timing>, probe: u32) -> bool {
    timing.get(&probe).is_some_and(Timing::is_dataflow_region)
}

/// PCP: top-level sites are on it; under a serial scope every child that takes time is (they
/// add up); under a dataflow region only the slowest process is.
fn critical_path(r: &Replay, timing: &HashMap<u32, Timing>) -> Vec<bool> {
    let mut pcp = vec![false; r.sites.len()];
    let mut stack: Vec<usize> = r.roots.clone();
    for &s in &r.roots {
        pcp[s] = true;
    }
    while let Some(s) = stack.pop() {
        let site = &r.sites[s];
        let kids = &site.children;
        if pcp[s] {
            if is_dataflow(timing, site.probe) {
                if let Some(&slowest) = kids.iter().max_by_key(|&&c| (r.sites[c].cycles, std::cmp::Reverse(c))) {
                    pcp[slowest] = true;
                }
            } else {
                for &c in kids {
                    pcp[c] = r.sites[c].cycles > 0 && !r.sites[c].absorbed;
                }
            }
        }
        stack.extend(kids.iter().copied());
    }
    pcp
}

/// Stall rate of a site within its scope (the parent's time) and the sites it waits for.
fn stall_of(
    r: &Replay,
    s: usize,
    i: &Inputs,
    probes: &HashMap<u32, &ProbeEntry>,
    row_of: &HashMap<usize, usize>,
) -> (Option<f64>, Vec<Reason>) {
    let site = &r.sites[s];
    let Some(ps) = site.parent else { return (None, Vec::new()) };
    let parent = &r.sites[ps];
    if site.task {
        return task_stall(r, s, probes, row_of, i);
    }
    if site.absorbed || parent.cycles == 0 {
        return (None, Vec::new());
    }
    let scope = parent.cycles as f64;
    let pct = |c: u64| 100.0 * c as f64 / scope;
    let stall = (100.0 - pct(site.cycles)).max(0.0);
    let caller = &probes[&parent.probe].function;
    let me = probes[&site.probe];
    let kind_to = |other: &ProbeEntry, transitive: bool| -> String {
        if me.kind != "function" || other.kind != "function" {
            return "seq".into();
        }
        let related = if transitive {
            let names: Vec<&str> = parent.children.iter().map(|&c| probes[&r.sites[c].probe].name.as_str()).collect();
            i.relations.connected(caller, &names, &me.name, &other.name)
        } else {
            i.relations.between(caller, &me.name, &other.name).is_some()
        };
        if related { "dep" } else { "sync" }.into()
    };
    let mut reasons: Vec<Reason> = if is_dataflow(i.timing, parent.probe) {
        site.waits
            .iter()
            .filter(|(_, w)| *w > 0)
            .map(|&(on, w)| {
                let other = probes[&r.sites[on].probe];
                Reason { on: shown_name(i.timing, other), row: row_of[&on], pct: pct(w), kind: kind_to(other, true) }
            })
            .collect()
    } else {
        parent
            .children
            .iter()
            .filter(|&&c| c != s && r.sites[c].cycles > 0 && !r.sites[c].absorbed)
            .map(|&c| {
                let other = probes[&r.sites[c].probe];
                Reason {
                    on: shown_name(i.timing, other),
                    row: row_of[&c],
                    pct: pct(r.sites[c].cycles),
                    kind: kind_to(other, false),
                }
            })
            .collect()
    };
    reasons.sort_by(|a, b| b.pct.total_cmp(&a.pct).then(a.row.cmp(&b.row)));
    (Some(stall), reasons)
}

/// Free-running `hls::task` processes of one region each handle the whole run's data: the one
/// with the most cycles sets the pace, and every other waits for it for the difference. The
/// scope is the slowest task's cycles.
fn task_stall(
    r: &Replay,
    s: usize,
    probes: &HashMap<u32, &ProbeEntry>,
    row_of: &HashMap<usize, usize>,
    i: &Inputs,
) -> (Option<f64>, Vec<Reason>) {
    let site = &r.sites[s];
    let Some(parent) = site.parent else { return (None, Vec::new()) };
    let tasks = r.sites[parent].children.iter().copied().filter(|&c| r.sites[c].task);
    let Some(slowest) = tasks.max_by_key(|&c| (r.sites[c].cycles, std::cmp::Reverse(c))) else {
        return (None, Vec::new());
    };
    let scope = r.sites[slowest].cycles;
    if scope == 0 {
        return (None, Vec::new());
    }
    let waited = scope - site.cycles.min(scope);
    let pct = 100.0 * waited as f64 / scope as f64;
    let reasons = if waited > 0 && slowest != s {
        let other = probes[&r.sites[slowest].probe];
        let caller = &probes[&r.sites[parent].probe].function;
        let names: Vec<&str> =
            r.sites[parent].children.iter().map(|&c| probes[&r.sites[c].probe].name.as_str()).collect();
        let me = &probes[&site.probe].name;
        let kind = if i.relations.connected(caller, &names, me, &other.name) { "dep" } else { "sync" };
        vec![Reason { on: shown_name(i.timing, other), row: row_of[&slowest], pct, kind: kind.into() }]
    } else {
        Vec::new()
    };
    (Some(pct), reasons)
}

/// Bytes per second of everything that runs in parallel with `s` (its dataflow siblings and
/// itself) over the region's time; `None` when `s` is not in a dataflow region.
fn aggregate_bandwidth(r: &Replay, s: usize, timing: &HashMap<u32, Timing>, secs: &dyn Fn(u64) -> f64) -> Option<f64> {
    let ps = r.sites[s].parent?;
    let parent: &Site = &r.sites[ps];
    if !is_dataflow(timing, parent.probe) || parent.cycles == 0 {
        return None;
    }
    let bytes: u64 = parent.children.iter().map(|&c| r.sites[c].bytes_read + r.sites[c].bytes_written).sum();
    Some(bytes as f64 / secs(parent.cycles))
}

/// A row's timing inputs; a loop that runs in a numbered copy of its function shows the copy's.
fn timing_info(t: Option<&Timing>, copy: Option<usize>) -> TimingInfo {
    let mut info = TimingInfo {
        trips: Source::Run,
        pipelined: None,
        ii: None,
        il: None,
        iteration_latency: None,
        exit: None,
        overhead: None,
        latency: None,
        report_name: None,
        report: None,
        process: None,
        report_latency: None,
        absent: false,
        constant_table: None,
        removed: None,
        inlined: false,
        initialisers: None,
        initialiser_notes: Vec::new(),
        body: None,
    };
    match t {
        Some(Timing::Loop(l)) => {
            let l = copy.and_then(|c| l.copies.get(c)).unwrap_or(l);
            info.pipelined = Some(l.pipelined);
            info.ii = l.ii;
            info.il = l.il;
            info.iteration_latency = l.own;
            info.exit = l.exit;
            info.report_name = l.report_loop.clone();
            info.report = l.report;
            info.process = l.process.as_ref().filter(|lp| !lp.members.is_empty()).map(|lp| lp.module.clone());
            info.absent = l.absent;
            info.constant_table = l.constant_table.clone();
            info.removed = l.removed.clone();
        }
        Some(Timing::Module(m)) => {
            info.overhead = Some(m.overhead);
            info.latency = m.fixed;
            info.report_name = m.report_module.clone();
            info.report_latency = m.latency;
            info.inlined = m.inlined;
            info.initialisers = m.initialisers;
            info.initialiser_notes = m.initialiser_notes.clone();
            info.body = m.body;
        }
        _ => {}
    }
    info
}

/// The top function's facts: its parameters as the source declares them (with their INTERFACE
/// pragmas), their accesses, its block control.
fn top_info<'a>(
    manifest: &'a crate::emit::manifest::Manifest,
    top: &str,
) -> Option<&'a crate::emit::manifest::ModuleInfo> {
    manifest.probes.iter().find(|p| p.kind == "function" && p.name == top).and_then(|p| p.module.as_deref())
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
