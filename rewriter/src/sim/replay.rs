//! Replays the event log through the cycle model (`timing`): one pass over the records, one
//! stack of open invocations per thread. Each invocation's cycles are computed when it ends, from
//! its trip count, its timing and its children's cycles, and added to its *site* — the probe at
//! one place of the dynamic call tree (`load` under `batch_loop` under `qsort_top`), which is a
//! row of the report. Memory grows with the number of sites, not with the length of the run;
//! the timeline (for `--vcd`/`--trace`) keeps one node per invocation up to a cap.

use super::events::{Event, Record};
use super::fastmap::{FastMap, IdTable, Stack, ThreadStacks};
use super::parcalls::{Callee, Group, ParCalls};
use super::relations::{Channel, Relations};
use super::timing::pipeline_rtl::{interface_loops, RTL_WRAPPER_SAVING};
use super::timing::{LoopTiming, ModuleTiming, NestRole, Timing};
use crate::emit::manifest::{Manifest, ProbeEntry, ReadSite};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::collections::HashSet;

/// Memory parameters of the DRAM model `t = bytes / DBW + DLAT` (HLScope, seed 001).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dram {
    /// Bytes per second.
    pub bandwidth: f64,
    pub latency_ns: f64,
}

impl Default for Dram {
    /// HLScope's measured figures for its board (ADM-PCIE-7V3): 9.05 GB/s, 580 ns.
    fn default() -> Self {
        Dram { bandwidth: 9.05e9, latency_ns: 580.0 }
    }
}

/// One row of the report: a probe at one place of the dynamic call tree.
#[derive(Debug, Clone, Default)]
pub struct Site {
    pub probe: u32,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Invocations (modules) or executions (loops).
    pub runs: u64,
    /// Total trips over all executions (loops).
    pub trips: u64,
    /// Total cycles over all runs.
    pub cycles: u64,
    pub min_cycles: u64,
    pub max_cycles: u64,
    pub bytes_read: u64,
    pub bytes_written: u64,
    /// Runs whose time was set by DRAM, not by compute.
    pub dram_bound_runs: u64,
    /// Inside a pipelined loop: part of its pipeline, not added to anything.
    pub absorbed: bool,
    /// Inside a dataflow region: cycles this process waited, per site that set the region time.
    pub waits: Vec<(usize, u64)>,
    /// Timeline lane (a dataflow process gets its own).
    pub lane: usize,
    /// For a function called from several places: which call site (in source order over the
    /// design) this row is. Vitis gives each call site an instance, and numbered copies of a
    /// function (`f_1`) their own schedule (facts, rule 6).
    pub call_site: Option<usize>,
    /// The report's module for this row when it is a numbered copy (`f_1`).
    pub copy_name: Option<String>,
    /// Runs whose cycles are the report's latency exactly (the run agreed with the schedule),
    /// but for what the RTL of the `_Pipeline_` modules in them does not spend.
    pub schedule_runs: u64,
    /// Cycles its runs' `_Pipeline_` modules did not spend in the RTL beyond what the report
    /// counts (`RTL_WRAPPER_SAVING` a run), over all its runs.
    pub rtl_saving: u64,
    /// The numbered copy of its function this row runs in (loops of `f_1` take its schedule).
    pub copy: Option<usize>,
    /// An `hls::task` body: a free-running process of its parent's region, on its own thread.
    pub task: bool,
}

/// One invocation on the timeline.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    pub site: usize,
    pub parent: Option<usize>,
    /// Start relative to the parent's start, in cycles (absolute for roots once laid out).
    pub offset: u64,
    pub cycles: u64,
    pub hidden: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blocked {
    pub thread: u32,
    pub probe: u32,
}

#[derive(Debug, Default)]
pub struct Replay {
    pub sites: Vec<Site>,
    pub roots: Vec<usize>,
    /// Total cycles of all root invocations.
    pub total_cycles: u64,
    pub nodes: Vec<Node>,
    pub nodes_dropped: u64,
    /// Bytes per port probe (kind `port`).
    pub port_bytes: HashMap<u32, (u64, u64)>,
    pub blocked: Vec<Blocked>,
    pub warnings: Vec<String>,
    pub lanes: usize,
    /// Cycles of each top-level invocation of a function (the testbench's calls of the top), in
    /// order, up to [`MAX_CALLS`]; `calls_total` counts them all.
    pub calls: Vec<u64>,
    pub calls_total: u64,
    /// Σ of the cycles of every top-level call (the mean holds past [`MAX_CALLS`]).
    pub calls_cycles: u128,
    /// Σ over the top-level calls of the cycles their `_Pipeline_` modules did not spend in the
    /// RTL (`RTL_WRAPPER_SAVING`).
    pub calls_rtl_saving: u128,
    /// Top-level invocations begun (any thread): the `--trace-window` counts these.
    pub roots_begun: u64,
    /// Top-level invocations of functions other than the top (see [`Options::top`]), not
    /// counted, and the first few of their probes (for the warning).
    pub outside_calls: u64,
    pub outside_probes: Vec<u32>,
    /// Per pipelined loop probe, the single-beat m_axi reads its runs made and the cycles they
    /// waited ([`Options::single_reads`]), in the order first seen.
    pub single_read_waits: Vec<SingleReadWait>,
}

/// The waits of one pipelined loop's single-beat m_axi reads over the run, or of a function's
/// single reads outside its pipelines.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SingleReadWait {
    #[serde(skip)]
    pub probe: u32,
    /// The loop's (or function's) probe name and source line.
    pub name: String,
    pub line: usize,
    /// Its single-beat reads on its busiest bundle, and the cycles they waited, over the run
    /// (with what a raised II adds).
    pub reads: u64,
    pub cycles: u64,
    /// The II the loop's reads on that bundle force, where the model's II (not the report's)
    /// was lower: a bundle takes one read request a cycle.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii: Option<u64>,
}

/// A pipelined loop that ran in a function invocation (not in its callees): its runs, trips and
/// initiation interval, for the single-read waits.
#[derive(Debug, Clone, Copy)]
struct PipeRun {
    probe: u32,
    runs: u64,
    trips: u64,
    ii: u64,
    /// The II is the report's: Vitis already scheduled the loop's requests.
    report_ii: bool,
}

/// Per-call figures kept for the report (the rest are counted, not listed).
pub const MAX_CALLS: usize = 100_000;

#[derive(Default)]
struct Open<'a> {
    site: usize,
    probe: u32,
    /// The probe's timing, looked up once at the begin (the end asks it several things).
    t: Option<&'a Timing>,
    node: Option<usize>,
    child_sum: u64,
    procs: Vec<Proc<'a>>,
    /// A function: when in this invocation each of its streams carried data (from the children
    /// that name it), for a dataflow region around it.
    streams: Vec<Span<'a>>,
    bytes_read: u64,
    bytes_written: u64,
    absorbing: bool,
    /// Inside a function pipeline timed from its body (no report): the modules called in it
    /// add their latencies to the nearest module above (`ModuleTiming::body`).
    pipe_fn: bool,
    /// The last child was this dataflow region's site: a next invocation of it overlaps.
    overlap_site: Option<usize>,
    /// The head of a flattened nest: the trips of the nest's innermost loop so far in this
    /// execution (the flattened loop's trip count).
    nest_trips: u64,
    /// Σ over the children of (their cycles − what the report assumed for them): what the run
    /// changes in this invocation's scheduled latency (schedule first).
    delta: i64,
    /// Of `delta`, what the RTL of the `_Pipeline_` modules inside does not spend (a saving,
    /// `RTL_WRAPPER_SAVING` a run): the run still agreed with the schedule without it.
    rtl: u64,
    /// Σ over the children the report times of its best and worst case for them: a module whose
    /// best case is shorter than the best case of children that ran has a best case that skips
    /// them (`module_schedule`).
    children_base: u64,
    children_base_max: u64,
    /// Calls made so far in this invocation, per callee probe called from several places (to
    /// tell call sites apart): a few entries, searched.
    calls_made: Vec<(u32, usize)>,
    /// A loop whose report gives its iteration latency as a range (a branch in the body): per
    /// child probe, its runs in this execution and what the report counted for them
    /// (`conditional_children`). Empty for any other invocation.
    child_runs: Vec<(u32, u64, u64)>,
    /// The call site (index into the callee's sites) this invocation came from.
    call_site: Option<usize>,
    /// The numbered copy of the enclosing function this runs in (its call site).
    copy: Option<usize>,
    /// No report: the bulk transfers since the last child ended, per m_axi bundle. Copies on
    /// different bundles run at the same time (facts, rule 2): the run costs its busiest bundle.
    bulk_run: Vec<(String, u64)>,
    /// A dataflow loop: its iterations folded so far (see `fold_iteration`).
    df: LoopFold,
    /// Its top-level call is inside the timeline's window.
    in_window: bool,
    /// The calls of one straight line of its body placed so far, side by side where they share
    /// no data (`sim::parcalls`).
    group: Option<Group>,
    /// A loop ran directly in it (or in a function inlined into it) that is no module of its own
    /// (no `_Pipeline_` wrapper): an inlined function with one is states of its caller's FSM, and
    /// Vitis does not run loops side by side (UG1399 "Loop Parallelism").
    loose_loop: bool,
    /// A function: the pipelined loops that ran in it and the element reads of its ports (per
    /// port probe), for the single-read waits ([`Options::single_reads`]).
    pipes: Vec<PipeRun>,
    port_reads: Vec<(u32, u64)>,
    /// A function: the trips of the loops that hold its ports' element reads (by line), where a
    /// port is read in more than one loop (`Cx::read_loops`): its reads are shared out by them.
    read_loop_trips: Vec<(usize, u64)>,
}

/// A thread's open invocations, innermost last. A closed invocation's slot is kept for the next
/// one (its fields set again, its lists emptied): an `Open` is a few hundred bytes, and building
/// one and moving it onto the stack, then dropping it, cost a copy and a drop per invocation.
#[derive(Default)]
struct Frames<'a> {
    slots: Vec<Open<'a>>,
    /// Open invocations: `slots[..len]`.
    len: usize,
}

impl<'a> Frames<'a> {
    fn open(&self) -> &[Open<'a>] {
        &self.slots[..self.len]
    }

    fn last(&self) -> Option<&Open<'a>> {
        self.open().last()
    }

    fn last_mut(&mut self) -> Option<&mut Open<'a>> {
        self.slots[..self.len].last_mut()
    }

    /// The innermost invocation and the ones around it.
    fn split_last_mut(&mut self) -> Option<(&mut Open<'a>, &mut [Open<'a>])> {
        self.slots[..self.len].split_last_mut()
    }

    /// A slot for a new innermost invocation, holding what the last one there left (the caller
    /// sets every field).
    fn push_slot(&mut self) -> &mut Open<'a> {
        if self.len == self.slots.len() {
            self.slots.push(Open::default());
        }
        self.len += 1;
        &mut self.slots[self.len - 1]
    }

    fn pop(&mut self) {
        self.len -= 1;
    }
}

impl Stack for Frames<'_> {
    fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A dataflow loop's iterations as they complete: they overlap, the first costing its region's
/// latency, each further one its slowest process (at most its latency).
#[derive(Default, Clone, Copy)]
struct LoopFold {
    total: u64,
    /// When the next iteration starts: the previous ones' intervals.
    begin: u64,
    iterations: u64,
}

struct Proc<'a> {
    site: usize,
    cycles: u64,
    /// What the report assumed for this process (its latency), when it says.
    base: Option<u64>,
    /// The report's worst case for it.
    base_max: Option<u64>,
    node: Option<usize>,
    /// The loop probes this process is made of (a loop of the dataflow function, or the loops
    /// the report put into one `Loop_<label>_proc` module); empty for a call.
    loops: Vec<u32>,
    /// When in it its streams carried data, in the region function's names, from its start.
    streams: Vec<Span<'a>>,
}

/// When an invocation used one of its streams: from the start of the first child that names it
/// to the end of the last (`model::stream_use`), in cycles from the invocation's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Span<'a> {
    name: &'a str,
    first: u64,
    last: u64,
}

fn add_span<'a>(spans: &mut Vec<Span<'a>>, name: &'a str, first: u64, last: u64) {
    match spans.iter_mut().find(|s| s.name == name) {
        Some(s) => {
            s.first = s.first.min(first);
            s.last = s.last.max(last);
        }
        None => spans.push(Span { name, first, last }),
    }
}

/// Where a producer's and a consumer's traffic on the streams they share lies, each from its own
/// start: (producer's first, producer's last, consumer's first, consumer's last); `None` when
/// they share no stream whose spans are known.
fn shared_spans(producer: &Proc, consumer: &Proc) -> Option<(u64, u64, u64, u64)> {
    let mut out: Option<(u64, u64, u64, u64)> = None;
    for p in &producer.streams {
        for c in consumer.streams.iter().filter(|c| c.name == p.name) {
            out = Some(match out {
                None => (p.first, p.last, c.first, c.last),
                Some((pf, pl, cf, cl)) => (pf.min(p.first), pl.max(p.last), cf.min(c.first), cl.max(c.last)),
            });
        }
    }
    out
}

pub struct Options {
    pub clock_ns: f64,
    pub dram: Dram,
    /// Timeline nodes kept (0: no timeline).
    pub max_nodes: usize,
    /// No report: a bulk m_axi transfer (the bytes of a port whose only uses in the function are
    /// `memcpy`s) costs its elements + `copy_tail` cycles in its scope, as the copy Vitis
    /// generates for it does (facts, rule 1). With a report, see [`Replay::copy_cycles`].
    pub bulk_transfers: bool,
    /// The cycles a copy's schedule adds to its elements: its loop, II 1 and 3 deep, takes
    /// `(TC − 1) + 3 − 1` (rule 3: 1 more than its elements), plus the `_Pipeline_` module
    /// around it (2 in Vitis from 2021 on; none before and in Vivado HLS, where the copy is a
    /// loop of its function: the 2016.4 `aes256cbc` report's copies of 16 and 32 bytes, 17 and
    /// 33).
    pub copy_tail: u64,
    /// No report, copies in their function's own states (before 2021): the m_axi latency the
    /// project schedules for (its `m_axi_latency`, else its flow's: 64 in the Vitis kernel flow,
    /// 0 in the Vivado IP flow). A bulk copy waits that long in those states besides its loop:
    /// for the first beat of a read, for the write response after the last beat of a write (the
    /// public 2020.2 `example`'s report: two copies of 50 ints at 52 and 51, its loop 52, its top
    /// 298 = their 155 + 2 × 64 + 15).
    pub copy_latency: u64,
    /// The copies of a function are loops of its own state machine, run one after another
    /// whatever their bundles: Vivado HLS and Vitis before 2021, where a copy is no
    /// `_Pipeline_` module of its own (the 2020.2 `kernel`'s report: its copies of three
    /// bundles, 101 cycles each, one after another; UG1393 2020.2 "Sequential Loops": loops do
    /// not overlap by default). Else copies on different bundles overlap (facts, rule 2).
    pub copies_in_sequence: bool,
    /// Top-level calls whose invocations the timeline keeps, `[start, end)` (`--trace-window`);
    /// `None`: from the first call on, up to `max_nodes`.
    pub window: Option<(u64, u64)>,
    /// The design's top function: a top-level invocation of another function (the testbench
    /// calling a kernel helper, or a function the top does not call that shares a header's
    /// helpers with it) is not the design's, and nothing in it is counted. Empty (or a name no
    /// probe has): every top-level invocation counts.
    pub top: String,
    /// The m_axi adapter and the schedule's read distance for pipelined loops' single-beat reads
    /// (docs/cycle-model.md, "m_axi single reads in a pipeline"); `None`: not charged (a
    /// release whose adapter was not measured, or no interface latency known).
    pub single_reads: Option<super::maxi_wait::SingleReads>,
    /// A pipelined loop's single-beat m_axi reads bound its II where the report does not give
    /// it: a bundle takes one read request a cycle (docs/cycle-model.md).
    pub reads_bound_ii: bool,
}

/// Per function probe, the lines of the loops in its body that are pipelined (the head of a
/// flattened nest for the nest).
fn pipelined_lines(manifest: &Manifest, timing: &HashMap<u32, Timing>) -> FastMap<u32, Vec<usize>> {
    let mut by_function: HashMap<(&str, &str), Vec<usize>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        if matches!(timing.get(&p.id), Some(Timing::Loop(l)) if l.pipelined.value) {
            by_function.entry((p.file.as_str(), p.function.as_str())).or_default().push(p.line);
        }
    }
    let mut out = FastMap::default();
    for f in manifest.probes.iter().filter(|p| p.kind == "function") {
        if let Some(lines) = by_function.get(&(f.file.as_str(), f.function.as_str())) {
            out.insert(f.id, lines.clone());
        }
    }
    out
}

/// The loops whose trips share out the element reads of a port read in more than one loop of
/// its function: the innermost loop of each read (by probe, with its line). Sites name loops by
/// line, so a line holding two loops of one function is left out.
fn read_loops(manifest: &Manifest) -> Vec<(u32, usize)> {
    let mut loops: HashMap<(&str, &str, usize), Option<u32>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        loops.entry((p.file.as_str(), p.function.as_str(), p.line)).and_modify(|e| *e = None).or_insert(Some(p.id));
    }
    let mut out = Vec::new();
    for p in &manifest.probes {
        let Some(info) = p.port.as_deref().filter(|i| i.memcpys == 0) else { continue };
        let mut lines: Vec<usize> = info.reads.iter().filter_map(|s| s.loops.first().copied()).collect();
        lines.sort_unstable();
        lines.dedup();
        if lines.len() < 2 {
            continue;
        }
        for line in lines {
            if let Some(Some(id)) = loops.get(&(p.file.as_str(), p.function.as_str(), line)) {
                out.push((*id, line));
            }
        }
    }
    out
}

/// Of a port's `reads` element reads in one function invocation, those of the sites `at`
/// picks: each site reads once a trip of its innermost loop (`trips`, by line). Only when that
/// accounts for every read counted: a conditional read, or one outside any loop, makes the sum
/// differ, and then the reads cannot be placed.
fn reads_at(sites: &[ReadSite], trips: &[(usize, u64)], reads: u64, at: impl Fn(&ReadSite) -> bool) -> Option<u64> {
    let per_site: Vec<u64> = sites
        .iter()
        .map(|s| s.loops.first().and_then(|l| trips.iter().find(|t| t.0 == *l)).map(|t| t.1))
        .collect::<Option<_>>()?;
    (per_site.iter().sum::<u64>() == reads)
        .then(|| sites.iter().zip(per_site).filter(|(s, _)| at(s)).map(|(_, n)| n).sum())
}

/// Bytes of one element of a port's type, for telling a bulk transfer from an element access.
fn port_element_bytes(t: &str) -> Option<u64> {
    let t = t.trim().trim_start_matches("const ").trim_end_matches('*').trim();
    if let Some(n) = crate::plan::element_size(t) {
        return Some(u64::from(n));
    }
    let n = match t {
        "int8_t" | "uint8_t" => 1,
        "int16_t" | "uint16_t" => 2,
        "int32_t" | "uint32_t" => 4,
        "int64_t" | "uint64_t" | "long long" | "unsigned long long" => 8,
        _ => {
            // ap_int<N>, ap_uint<N>, ap_fixed<N, I>, ap_ufixed<N, I>: N bits, whole bytes.
            let inner = t.split_once('<')?.1;
            let bits: u64 = inner.split([',', '>']).next()?.trim().parse().ok()?;
            return Some(bits.div_ceil(8).max(1));
        }
    };
    Some(n)
}

struct Ctx<'a> {
    probes: IdTable<&'a ProbeEntry>,
    timing: IdTable<&'a Timing>,
    relations: &'a Relations,
    /// Which calls of a straight line may run side by side.
    parcalls: ParCalls,
    /// [`ParCalls::callee`] by (caller's probe, callee's probe): worked out once a pair.
    callees: FastMap<(u32, u32), Option<Callee>>,
    opts: &'a Options,
    site_index: FastMap<(Option<usize>, u32, Option<usize>), usize>,
    /// Per parent site, the last two child sites looked up, by (probe, call site): a loop calling
    /// the same function again, or two in turn, finds its row without a search.
    last_child: Vec<[Option<SiteMemo>; 2]>,
    /// The same for top-level invocations (the last one).
    last_root: Option<SiteMemo>,
    out: Replay,
    root_cursor: FastMap<u32, u64>,
    /// Call sites of each function probe over the design, in source order: (caller function,
    /// file, line).
    call_sites: FastMap<u32, Vec<(String, String, usize)>>,
    /// The function probes called from several places (the others need no call-site count).
    several_sites: IdTable<bool>,
    /// The loops whose `_Pipeline_` module keeps its 2 cycles in the RTL (see
    /// `RTL_WRAPPER_SAVING`): the loops of a function with m_axi ports or of a dataflow region.
    interface_loops: IdTable<bool>,
    /// The body of an `hls::task` → the function probe that declares the task: its invocations
    /// (on the task's own thread) are processes of that function's region, not testbench calls.
    task_owner: HashMap<u32, u32>,
    /// The invocation the last record closed, when one more like it would change nothing but
    /// counts and sums (see [`Leaf`]); any other record clears it.
    last_leaf: Option<Leaf>,
    /// [`maxi_wait::single_read_stall`] by (iterations, reads an iteration, II).
    stalls: FastMap<(u64, u64, u64), u64>,
    /// Per function probe, the lines of its pipelined loops (for the reads outside them).
    pipelined_lines: FastMap<u32, Vec<usize>>,
    /// Some port reads single elements (no `memcpy`): else no read waits, and the pipelines a
    /// function ran need not be noted at every loop's end.
    single_read_ports: bool,
    /// The loops (by probe, with their line) that are the innermost loop of an m_axi element
    /// read of a port read in more than one loop of its function (see `read_loops`).
    read_loops: IdTable<usize>,
}

/// A site found: (probe, call site, site index).
type SiteMemo = (u32, Option<usize>, usize);

/// A leaf invocation just closed (no record between its begin and end) whose next identical
/// invocations (same probe, same trips, same parent, nothing between) each add exactly what it
/// added: its row's counts and sums, and its parent's sums. A repeat record (`B E` again `n`
/// times, hls-lib `ThreadLog::end_leaf`) is then taken in one step: n × each figure, what `n`
/// begins and ends would have done one at a time. It is not kept where a repetition does more
/// (see `close`): a top-level call, a timeline node kept, a call of a function called from
/// several places (its call site turns), a flattened nest's loop, a dataflow region or process,
/// an invocation inside a pipeline.
#[derive(Clone, Copy)]
struct Leaf {
    thread: u32,
    probe: u32,
    value: Option<u64>,
    site: usize,
    trips: u64,
    cycles: u64,
    dram_bound: bool,
    exact: bool,
    /// Its begin dropped a timeline node (the cap was reached: every later one is dropped too).
    node_dropped: bool,
    /// What it added to its parent's `child_sum`, `delta`, `rtl`, `children_base`,
    /// `children_base_max`.
    child_sum: u64,
    delta: i64,
    rtl: u64,
    /// Its own invocation's `rtl`, for its row.
    rtl_own: u64,
    base: u64,
    base_max: u64,
}

/// The cycle model fed one record at a time (in order): memory grows with the sites and the
/// open invocations, not with the records.
pub struct Replayer<'a> {
    cx: Ctx<'a>,
    stacks: ThreadStacks<Frames<'a>>,
    /// The top's function probes (see [`Options::top`]); `None`: no filter.
    tops: Option<IdTable<bool>>,
    /// Per thread, how deep it is in an invocation outside the top's calls (consulted only
    /// with an empty stack: inside the top's calls the filter costs nothing).
    outside: FastMap<u32, u32>,
}

impl<'a> Replayer<'a> {
    pub fn new(
        manifest: &'a Manifest,
        timing: &'a HashMap<u32, Timing>,
        relations: &'a Relations,
        opts: &'a Options,
    ) -> Self {
        let cx = Ctx {
            probes: IdTable::new(manifest.probes.iter().map(|p| (p.id, p))),
            timing: IdTable::new(timing.iter().map(|(&k, v)| (k, v))),
            relations,
            parcalls: ParCalls::from_manifest(manifest),
            callees: FastMap::default(),
            opts,
            site_index: FastMap::default(),
            last_child: Vec::new(),
            last_root: None,
            out: Replay { lanes: 1, ..Replay::default() },
            root_cursor: FastMap::default(),
            several_sites: IdTable::new(
                call_sites(manifest).into_iter().filter(|(_, s)| s.len() > 1).map(|(id, _)| (id, true)),
            ),
            call_sites: call_sites(manifest).into_iter().collect(),
            interface_loops: IdTable::new(interface_loops(manifest).into_iter().map(|id| (id, true))),
            task_owner: task_owners(manifest),
            last_leaf: None,
            stalls: FastMap::default(),
            pipelined_lines: pipelined_lines(manifest, timing),
            single_read_ports: manifest
                .probes
                .iter()
                .filter_map(|p| p.port.as_deref())
                .any(|i| i.memcpys == 0 && !i.reads.is_empty()),
            read_loops: IdTable::new(read_loops(manifest)),
        };
        let tops: Vec<u32> = manifest
            .probes
            .iter()
            .filter(|p| p.kind == "function" && !opts.top.is_empty() && (p.name == opts.top || p.function == opts.top))
            .map(|p| p.id)
            .collect();
        let tops = (!tops.is_empty()).then(|| IdTable::new(tops.into_iter().map(|id| (id, true))));
        Replayer { cx, stacks: ThreadStacks::default(), tops, outside: FastMap::default() }
    }

    pub fn push(&mut self, r: &Record) -> Result<()> {
        if let Event::Repeat { count } = r.event {
            let leaf = self.cx.last_leaf.take();
            return self.repeat(r, count, leaf);
        }
        // Any other record ends the leaf's run (a store of the tag, not a move of the memo).
        self.cx.last_leaf = None;
        let stack = self.stacks.get(r.thread);
        if let (true, Some(tops)) = (stack.is_empty(), &self.tops) {
            if r.event == Event::Begin {
                // A probe the manifest lacks is the log's error, outside the top or not.
                self.cx.entry(r)?;
            }
            let depth = self.outside.entry(r.thread).or_default();
            match r.event {
                Event::Begin if *depth > 0 => {
                    *depth += 1;
                    return Ok(());
                }
                Event::Begin if tops.get(r.probe).is_none() && !self.cx.task_owner.contains_key(&r.probe) => {
                    *depth = 1;
                    self.cx.outside_call(r.probe);
                    return Ok(());
                }
                Event::End if *depth > 0 => {
                    *depth -= 1;
                    return Ok(());
                }
                Event::BytesRead | Event::BytesWritten if *depth > 0 => return Ok(()),
                _ => {}
            }
        }
        match r.event {
            Event::Begin => self.cx.begin(stack, r)?,
            Event::End => self.cx.end(stack, r)?,
            Event::BytesRead | Event::BytesWritten => self.cx.bytes(stack, r)?,
            Event::Deadlock => {
                if self.cx.out.blocked.len() < MAX_BLOCKED {
                    self.cx.out.blocked.push(Blocked { thread: r.thread, probe: r.probe })
                }
            }
            Event::Trace | Event::Watch { .. } => {} // each has its own reader (cfg::replay, sim::watch)
            Event::Repeat { .. } => unreachable!("taken above"),
        }
        Ok(())
    }

    /// A repeat record: the leaf before it again `count` times. In one step when the leaf the
    /// last record closed is this one and a repetition adds only what it added ([`Leaf`]);
    /// else one begin and end at a time (a repetition may still allow the one step for the rest).
    fn repeat(&mut self, r: &Record, count: u64, mut leaf: Option<Leaf>) -> Result<()> {
        let (mut begin, mut end) = (r.clone(), r.clone());
        begin.event = Event::Begin;
        begin.value = None;
        end.event = Event::End;
        for done in 0..count {
            let parent = match leaf.filter(|l| l.thread == r.thread && l.probe == r.probe && l.value == r.value) {
                Some(l) => self.stacks.get(r.thread).last_mut().map(|p| (l, p)),
                None => None,
            };
            if let Some((l, parent)) = parent {
                let n = count - done;
                parent.child_sum += n * l.child_sum;
                parent.delta += n as i64 * l.delta;
                parent.rtl += n * l.rtl;
                parent.children_base += n * l.base;
                parent.children_base_max += n * l.base_max;
                count_child_run(parent, l.probe, n, n * l.base);
                let frames = self.stacks.get(r.thread);
                let stack = &mut frames.slots[..frames.len];
                self.cx.note_pipe(l.probe, stack, n, n * l.trips);
                self.cx.note_read_loop(l.probe, stack, n * l.trips);
                let site = &mut self.cx.out.sites[l.site];
                site.runs += n;
                site.trips += n * l.trips;
                site.cycles += n * l.cycles;
                site.dram_bound_runs += n * u64::from(l.dram_bound);
                site.schedule_runs += n * u64::from(l.exact);
                site.rtl_saving += n * l.rtl_own;
                self.cx.out.nodes_dropped += n * u64::from(l.node_dropped);
                self.cx.last_leaf = Some(l);
                return Ok(());
            }
            begin.order = r.order + 2 * done;
            end.order = begin.order + 1;
            self.push(&begin)?;
            self.push(&end)?;
            leaf = self.cx.last_leaf.take();
        }
        self.cx.last_leaf = leaf;
        Ok(())
    }

    pub fn finish(self) -> Replay {
        let mut cx = self.cx;
        // A task's last invocation waits for input that never comes; its stop drops it (hls_task.h).
        let mut threads: Vec<_> = self
            .stacks
            .into_stacks()
            .filter(|(_, s)| s.open().first().is_some_and(|o| !cx.task_owner.contains_key(&o.probe)))
            .collect();
        threads.sort_by_key(|(t, _)| *t);
        if cx.out.outside_calls > 0 {
            let names: Vec<String> = cx.out.outside_probes.iter().take(3).map(|&p| cx.name(p)).collect();
            let more = if cx.out.outside_probes.len() > 3 { ", ..." } else { "" };
            cx.out.warnings.push(format!(
                "{} invocation(s) of {}{more} ran outside the calls of the top {} (the testbench's own, or of code \
                 the top does not call): not the design's, not counted",
                cx.out.outside_calls,
                names.join(", "),
                cx.opts.top
            ));
        }
        for (thread, stack) in threads {
            let names: Vec<String> = stack.open().iter().map(|o| cx.name(o.probe)).collect();
            cx.out.warnings.push(format!(
                "thread {thread} ended inside {} (never closed: the run stopped there, its time is not counted)",
                names.join(" > ")
            ));
        }
        cx.order_task_siblings();
        cx.out
    }
}

/// Blocked threads listed, at most (the watchdog writes one record per blocked thread).
const MAX_BLOCKED: usize = 1000;

/// The replay of records in memory.
pub fn replay(
    records: &[Record],
    manifest: &Manifest,
    timing: &HashMap<u32, Timing>,
    relations: &Relations,
    opts: &Options,
) -> Result<Replay> {
    let mut r = Replayer::new(manifest, timing, relations, opts);
    for rec in records {
        r.push(rec)?;
    }
    Ok(r.finish())
}

impl<'a> Ctx<'a> {
    /// Rows of a region that runs `hls::task`s in the order their calls stand in the source,
    /// and timeline lanes numbered in row order. A task runs on its own thread, so which of the
    /// region's processes the log shows first changes from run to run; the report and the
    /// timeline must not (Vitis lists a region's processes in source order too). Elsewhere rows
    /// stay in the order the run reached them.
    fn order_task_siblings(&mut self) {
        for s in 0..self.out.sites.len() {
            let site = &self.out.sites[s];
            if !site.children.iter().any(|&c| self.out.sites[c].task) {
                continue;
            }
            let caller = self.p(site.probe).map(|p| p.function.as_str());
            let mut kids = site.children.clone();
            kids.sort_by_key(|&c| {
                let kid = &self.out.sites[c];
                let line = self
                    .call_sites
                    .get(&kid.probe)
                    .and_then(|sites| sites.iter().find(|(f, _, _)| Some(f.as_str()) == caller))
                    .map_or(usize::MAX, |&(_, _, line)| line);
                (line, kid.probe, kid.call_site)
            });
            self.out.sites[s].children = kids;
        }
        let mut lane_of: Vec<Option<usize>> = vec![None; self.out.lanes];
        let mut next = 0;
        let mut stack: Vec<usize> = self.out.roots.iter().rev().copied().collect();
        while let Some(s) = stack.pop() {
            let old = self.out.sites[s].lane;
            let lane = *lane_of[old].get_or_insert_with(|| {
                next += 1;
                next - 1
            });
            self.out.sites[s].lane = lane;
            stack.extend(self.out.sites[s].children.iter().rev());
        }
    }

    /// The timing of a probe (looked up several times per record: a fast hash).
    fn t(&self, probe: u32) -> Option<&'a Timing> {
        self.timing.get(probe)
    }

    fn p(&self, probe: u32) -> Option<&'a ProbeEntry> {
        self.probes.get(probe)
    }

    /// For a child of loop `parent` that is a function: the fewest calls of it on the loop
    /// body's best path (`LoopFacts::best_path_calls`, by the name calls use: the last
    /// component); `None` for any other child.
    fn best_path(&self, parent: u32, child: u32) -> Option<u64> {
        let c = self.p(child).filter(|c| c.kind == "function")?;
        let name = c.name.rsplit("::").next().unwrap_or(&c.name);
        let facts = self.p(parent).and_then(|p| p.loop_info.as_ref()).map(|l| &l.facts);
        let k = facts.and_then(|f| f.best_path_calls.iter().find(|(n, _)| n == name)).map_or(0, |(_, k)| *k);
        Some(u64::from(k))
    }

    fn name(&self, probe: u32) -> String {
        self.p(probe).map_or_else(|| format!("probe {probe}"), |p| p.name.clone())
    }

    fn entry(&self, r: &Record) -> Result<&ProbeEntry> {
        self.p(r.probe).ok_or_else(|| {
            Error::new(
                ErrorKind::BadInput,
                format!(
                    "the event log names probe {} (record {}) that the manifest does not have: the log and the \
                     manifest come from different rewrites",
                    r.probe, r.order
                ),
            )
        })
    }

    fn site(&mut self, parent: Option<usize>, probe: u32, call_site: Option<usize>, copy: Option<usize>) -> usize {
        // The same key always finds the same site (below): the last one found under this parent
        // is remembered.
        let memo = match parent {
            Some(p) => self.last_child.get(p).copied().unwrap_or_default(),
            None => [self.last_root, None],
        };
        let hit = memo.iter().flatten().find(|(p, c, _)| *p == probe && *c == call_site);
        if let Some(&(_, _, s)) = hit {
            return s;
        }
        let s = self.find_site(parent, probe, call_site, copy);
        let found = Some((probe, call_site, s));
        match parent {
            Some(p) => {
                if self.last_child.len() <= p {
                    self.last_child.resize(self.out.sites.len(), [None, None]);
                }
                self.last_child[p] = [found, memo[0]];
            }
            None => self.last_root = found,
        }
        s
    }

    fn find_site(&mut self, parent: Option<usize>, probe: u32, call_site: Option<usize>, copy: Option<usize>) -> usize {
        // Recursion folds onto the ancestor site of the same probe, so sites stay finite.
        let mut up = parent;
        while let Some(s) = up {
            if self.out.sites[s].probe == probe {
                return s;
            }
            up = self.out.sites[s].parent;
        }
        if let Some(&s) = self.site_index.get(&(parent, probe, call_site)) {
            return s;
        }
        let id = self.out.sites.len();
        let lane = match parent {
            None => 0,
            Some(p) if self.is_dataflow(self.out.sites[p].probe) => {
                self.out.lanes += 1;
                self.out.lanes - 1
            }
            Some(p) => self.out.sites[p].lane,
        };
        let copy_name = match (self.t(probe), call_site) {
            (Some(Timing::Module(m)), Some(c)) => m.copies.get(c).map(|c| c.name.clone()),
            _ => None,
        };
        self.out.sites.push(Site {
            probe,
            parent,
            lane,
            min_cycles: u64::MAX,
            call_site,
            copy_name,
            copy,
            ..Site::default()
        });
        match parent {
            Some(p) => self.out.sites[p].children.push(id),
            None => self.out.roots.push(id),
        }
        self.site_index.insert((parent, probe, call_site), id);
        id
    }

    /// Which call site of function probe `probe` a call from `parent` is: the parent's function's
    /// sites of that callee taken in turn (straight-line calls in source order; a call in a loop
    /// comes round to the same site). `None` when the function is called from one place only.
    fn call_site(&self, parent: Option<&mut Open>, probe: u32) -> Option<usize> {
        if self.several_sites.get(probe) != Some(true) {
            return None;
        }
        let sites = self.call_sites.get(&probe)?;
        let parent = parent?;
        let caller = &self.p(parent.probe)?.function;
        let local = || sites.iter().enumerate().filter(|(_, s)| &s.0 == caller).map(|(i, _)| i);
        let count = local().count();
        if count == 0 {
            return None;
        }
        let made = match parent.calls_made.iter().position(|c| c.0 == probe) {
            Some(i) => &mut parent.calls_made[i].1,
            None => {
                parent.calls_made.push((probe, 0));
                &mut parent.calls_made.last_mut().expect("just pushed").1
            }
        };
        let k = *made % count;
        *made += 1;
        local().nth(k)
    }

    /// A top-level invocation outside the top's calls, left out.
    #[cold]
    fn outside_call(&mut self, probe: u32) {
        self.out.outside_calls += 1;
        if self.out.outside_probes.len() < 4 && !self.out.outside_probes.contains(&probe) {
            self.out.outside_probes.push(probe);
        }
    }

    #[inline]
    fn is_dataflow(&self, probe: u32) -> bool {
        self.t(probe).is_some_and(Timing::is_dataflow_region)
    }
}

/// A pipelined loop or function (of timing `t`): what runs inside it is part of its schedule.
fn is_pipelined(t: Option<&Timing>, call_site: Option<usize>) -> bool {
    match t {
        Some(Timing::Loop(l)) => l.pipelined.value,
        Some(Timing::Module(m)) => match call_site.and_then(|c| m.copies.get(c)) {
            Some(c) => c.pipelined,
            None => m.pipelined,
        },
        _ => false,
    }
}

impl<'a> Ctx<'a> {
    fn begin(&mut self, stack: &mut Frames<'a>, r: &Record) -> Result<()> {
        self.entry(r)?;
        let t = self.t(r.probe);
        let call_site = match t {
            Some(Timing::Module(_)) => self.call_site(stack.last_mut(), r.probe),
            _ => None,
        };
        let parent = stack.last();
        let copy = match t {
            Some(Timing::Module(_)) => call_site,
            _ => parent.and_then(|o| o.copy),
        };
        // A task body's invocation on its own thread belongs under the function declaring it.
        let owner = match parent {
            None => self.task_owner.get(&r.probe).and_then(|o| self.site_index.get(&(None, *o, None)).copied()),
            Some(_) => None,
        };
        let site = self.site(parent.map(|o| o.site).or(owner), r.probe, call_site, copy);
        if owner.is_some() {
            self.out.sites[site].task = true;
        }
        let absorbing = parent.is_some_and(|o| o.absorbing) || is_pipelined(t, call_site);
        let pipe_fn = parent.is_some_and(|o| o.pipe_fn)
            || matches!(t, Some(Timing::Module(m)) if m.pipelined && m.body.is_some());
        // The timeline: the invocations of top-level calls inside the window, up to the cap
        // (reached once, it stays reached: a kept invocation's parent is kept).
        let in_window = match parent {
            None => {
                let call = self.out.roots_begun;
                self.out.roots_begun += 1;
                self.opts.window.is_none_or(|(a, b)| a <= call && call < b)
            }
            Some(o) => o.in_window,
        };
        let node = if !in_window || self.opts.max_nodes == 0 {
            None
        } else if self.out.nodes.len() < self.opts.max_nodes {
            self.out.nodes.push(Node {
                site,
                parent: parent.and_then(|o| o.node),
                offset: 0,
                cycles: 0,
                hidden: false,
            });
            Some(self.out.nodes.len() - 1)
        } else {
            self.out.nodes_dropped += 1;
            None
        };
        let o = stack.push_slot();
        o.site = site;
        o.probe = r.probe;
        o.t = t;
        o.node = node;
        o.child_sum = 0;
        o.procs.clear();
        o.streams.clear();
        o.bytes_read = 0;
        o.bytes_written = 0;
        o.absorbing = absorbing;
        o.pipe_fn = pipe_fn;
        o.overlap_site = None;
        o.nest_trips = 0;
        o.delta = 0;
        o.rtl = 0;
        o.children_base = 0;
        o.children_base_max = 0;
        o.calls_made.clear();
        o.child_runs.clear();
        o.call_site = call_site;
        o.copy = copy;
        o.bulk_run.clear();
        o.df = LoopFold::default();
        o.in_window = in_window;
        o.group = None;
        o.loose_loop = false;
        o.pipes.clear();
        o.port_reads.clear();
        o.read_loop_trips.clear();
        Ok(())
    }

    /// Cycles of a bulk transfer of `elements` elements from (`read`) or to port parameter
    /// `port`, in an invocation timed as `t`; `None` where a scheduled latency holds it already.
    /// Without a report: elements + [`Options::copy_tail`]. With one, only in a module whose
    /// latency the report leaves to the run: a range (the copy ran on this call's path; the
    /// public 2016.4 `aes256cbc`, 1 ~ 2526, copies 32 bytes in its set-key case, 16 in its
    /// set-IV case) takes the latency of the report's copy it matches ([`ReportCopy`]: same
    /// port and direction, as many trips as elements; 33 and 17 there); an undefined latency
    /// takes the matched `memcpy.` loop of Vivado HLS (its `_Pipeline_<N>` modules are counted
    /// in full already: `ModuleTiming::initialisers`). A copy that matches none adds nothing:
    /// it may be one inside a loop, whose latency holds it (the bytes are the invocation's
    /// total). A fixed latency, a pipelined function or an inlined one holds its copies.
    fn copy_cycles(&self, t: Option<&Timing>, port: &str, read: bool, elements: u64) -> Option<u64> {
        if self.opts.bulk_transfers {
            return Some(elements + self.opts.copy_tail + self.opts.copy_latency);
        }
        let Some(Timing::Module(m)) = t else { return None };
        if m.pipelined || m.inlined || !m.copies.is_empty() {
            return None;
        }
        let matched = m.memcpys.iter().find(|c| c.matches(port, read, elements));
        match m.latency {
            Some(l) if l.min < l.max => matched.map(|c| c.latency),
            Some(_) => None,
            None => matched.filter(|c| c.sides.is_some()).map(|c| c.latency),
        }
    }

    fn bytes(&mut self, stack: &mut Frames<'a>, r: &Record) -> Result<()> {
        let n = r.value.unwrap_or(0);
        let Some(top) = stack.last_mut() else {
            return Err(corrupt(r, "bytes recorded outside any module"));
        };
        // A port whose only counted uses are memcpys moves its bytes in bulk. Element accesses
        // are timed by the loops that make them (the counters add up per invocation, so the
        // record alone cannot tell them apart).
        let port =
            self.probes.get(r.probe).filter(|p| p.port.as_ref().is_some_and(|p| p.memcpys > 0 && p.memcpys == p.sites));
        let copy = port.and_then(|p| {
            let info = p.port.as_ref()?;
            let e = port_element_bytes(&info.element_type).filter(|e| n > *e)?;
            let cycles = self.copy_cycles(top.t, &p.name, r.event == Event::BytesRead, n.div_ceil(e))?;
            Some((info, cycles))
        });
        if let Some((port, cycles)) = copy {
            let bundle = port.bound_to.first().map_or_else(
                || r.probe.to_string(),
                |o| o.bundle.clone().unwrap_or_else(|| format!("{}:{}", o.function, o.port)),
            );
            let busiest = |run: &[(String, u64)]| run.iter().map(|b| b.1).max().unwrap_or(0);
            // One state machine moves one copy at a time: all on one lane.
            let bundle = if self.opts.copies_in_sequence { String::new() } else { bundle };
            let before = busiest(&top.bulk_run);
            match top.bulk_run.iter_mut().find(|b| b.0 == bundle) {
                Some(b) => b.1 += cycles,
                None => top.bulk_run.push((bundle, cycles)),
            }
            let added = busiest(&top.bulk_run) - before;
            top.child_sum += added;
            // In a module the report times with a range, the copy is a child that ran, as a
            // loop that ran is: its latency counts beside the module's best case.
            top.children_base += added;
            top.children_base_max += added;
        }
        if r.event == Event::BytesRead && self.counts_single_reads() {
            let info = self.probes.get(r.probe).and_then(|p| p.port.as_deref());
            let e = info
                .filter(|i| i.memcpys == 0 && !i.reads.is_empty())
                .and_then(|i| port_element_bytes(&i.element_type));
            if let Some(e) = e.filter(|&e| e > 0) {
                match top.port_reads.iter_mut().find(|p| p.0 == r.probe) {
                    Some(p) => p.1 += n / e,
                    None => top.port_reads.push((r.probe, n / e)),
                }
            }
        }
        let e = self.out.port_bytes.entry(r.probe).or_default();
        if r.event == Event::BytesRead {
            top.bytes_read += n;
            e.0 += n;
        } else {
            top.bytes_written += n;
            e.1 += n;
        }
        Ok(())
    }

    fn end(&mut self, frames: &mut Frames<'a>, r: &Record) -> Result<()> {
        let Some((open, stack)) = frames.split_last_mut() else {
            return Err(corrupt(r, "an end with no open probe"));
        };
        if open.probe != r.probe {
            return Err(corrupt(r, &format!("the end of probe {} while probe {} is open", r.probe, open.probe)));
        }
        self.close(open, stack, r);
        frames.pop();
        Ok(())
    }

    /// The invocation `open` ends, inside the ones of `stack`.
    fn close(&mut self, open: &mut Open<'a>, stack: &mut [Open<'a>], r: &Record) {
        let t = open.t;
        let trips = self.trips(t, stack, open, r);
        self.note_pipe(r.probe, stack, 1, trips);
        self.note_read_loop(r.probe, stack, r.value.unwrap_or(0));
        let waits = self.single_read_waits(open) + self.straight_read_waits(open, stack);
        open.child_sum += waits;
        open.delta += waits as i64;
        let mut scheduled = match t {
            Some(Timing::Loop(l))
                if self.is_dataflow(r.probe) && (!open.procs.is_empty() || open.df.iterations > 0) =>
            {
                let last = std::mem::take(&mut open.procs);
                if !last.is_empty() {
                    self.fold_iteration(open.probe, &last, &mut open.df);
                }
                Scheduled::computed(open.df.total, l.report.and_then(|x| x.latency).map(|x| x.min))
            }
            Some(Timing::Loop(l)) => {
                let best = |child: u32| self.best_path(open.probe, child);
                let worst = |child: u32| match self.t(child) {
                    Some(Timing::Loop(c)) => c.report.and_then(|r| r.latency).map(|x| x.max),
                    _ => None,
                };
                let children = ChildReport { best: &best, worst: &worst };
                loop_schedule(open.copy.and_then(|c| l.copies.get(c)).unwrap_or(l), trips, open, &children)
            }
            Some(Timing::Module(m)) => self.module_schedule(m, open),
            _ => Scheduled::computed(open.child_sum, None),
        };
        // All the run changed is what the `_Pipeline_` modules inside do not spend in the RTL:
        // the run agreed with the schedule.
        if !scheduled.exact && open.rtl > 0 && scheduled.base.is_some_and(|b| scheduled.cycles + open.rtl == b) {
            scheduled.exact = true;
        }
        let compute = scheduled.cycles;
        // A dataflow region's initiation interval: its slowest process. A next invocation from
        // the same loop starts that long after this one did, not after it ended.
        let interval = match t {
            Some(Timing::Module(m)) if m.dataflow => open.procs.iter().map(|p| p.cycles).max(),
            _ => None,
        };
        // Where the report scheduled this invocation, its latency already holds the memory
        // accesses as Vitis scheduled them; the DRAM model only bounds what nothing scheduled.
        let bytes = open.bytes_read + open.bytes_written;
        let dram = if scheduled.base.is_none() { dram_cycles(bytes, self.opts.dram, self.opts.clock_ns) } else { 0 };
        let cycles = compute.max(dram);
        // Its streams (a dataflow region's were placed by `dataflow_region`): a function's own
        // accesses outside its loops span the whole call.
        if let (Some(Timing::Module(_)), Some(p)) = (t, self.p(open.probe)) {
            for name in p.module.iter().flat_map(|mi| &mi.direct_streams) {
                add_span(&mut open.streams, name, 0, cycles);
            }
        }
        // What this invocation changes in its parent's scheduled latency.
        let contribution = match scheduled.base {
            Some(b) => cycles as i64 - b as i64,
            None => open.delta,
        };
        let task_process = stack.is_empty() && self.out.sites[open.site].parent.is_some();
        if let (None, Some(Timing::Module(_)), false) = (stack.last(), t, task_process) {
            self.out.calls_total += 1;
            self.out.calls_cycles += u128::from(cycles);
            self.out.calls_rtl_saving += u128::from(open.rtl);
            if self.out.calls.len() < MAX_CALLS {
                self.out.calls.push(cycles);
            }
        }
        let is_loop = matches!(t, Some(Timing::Loop(_)));
        let site = &mut self.out.sites[open.site];
        site.runs += 1;
        site.trips += if is_loop { trips } else { 0 };
        site.cycles += cycles;
        site.min_cycles = site.min_cycles.min(cycles);
        site.max_cycles = site.max_cycles.max(cycles);
        site.bytes_read += open.bytes_read;
        site.bytes_written += open.bytes_written;
        site.dram_bound_runs += u64::from(dram > compute);
        site.schedule_runs += u64::from(scheduled.exact);
        site.rtl_saving += open.rtl;
        if let Some(n) = open.node {
            self.out.nodes[n].cycles = cycles;
        }
        match stack.last_mut() {
            // A free-running task process: its own row under its region; not a testbench call.
            None if task_process => {}
            None => {
                let cursor = self.root_cursor.entry(r.thread).or_insert(0);
                if let Some(n) = open.node {
                    self.out.nodes[n].offset = *cursor;
                }
                *cursor += cycles;
                self.out.total_cycles += cycles;
            }
            Some(parent) if parent.absorbing => {
                self.out.sites[open.site].absorbed = true;
                if let Some(n) = open.node {
                    self.out.nodes[n].hidden = true;
                }
                // A module called in a function pipeline timed from its body: its latency is
                // in sequence with the caller's (the calls pass their data along).
                if open.pipe_fn && matches!(open.t, Some(Timing::Module(_))) {
                    let owner = stack.iter_mut().rev().find(|o| matches!(o.t, Some(Timing::Module(_))));
                    if let Some(owner) = owner {
                        owner.child_sum += cycles;
                    }
                }
            }
            Some(parent) if parent.t.is_some_and(Timing::is_dataflow_region) => {
                // A loop's iteration ends where its first process comes round again: fold it now,
                // so a long dataflow loop holds one iteration, not all of them.
                let is_loop = matches!(parent.t, Some(Timing::Loop(_)));
                if is_loop && parent.procs.first().is_some_and(|p| p.site == open.site) {
                    let iteration = std::mem::take(&mut parent.procs);
                    self.fold_iteration(parent.probe, &iteration, &mut parent.df);
                }
                let loops = if matches!(t, Some(Timing::Loop(_))) { vec![open.probe] } else { Vec::new() };
                let mut streams = Vec::new();
                self.child_spans(parent.probe, open, 0, cycles, &mut streams);
                parent.procs.push(Proc {
                    site: open.site,
                    cycles,
                    base: scheduled.base,
                    base_max: scheduled.base_max,
                    node: open.node,
                    loops,
                    streams,
                });
                parent.delta += contribution;
                parent.rtl += open.rtl;
            }
            Some(parent) => {
                let in_loop = matches!(parent.t, Some(Timing::Loop(_)));
                // A call of a straight line beside the ones before it that it shares no data with.
                let placed = match t {
                    Some(Timing::Module(m)) if m.inlined && open.loose_loop => {
                        parent.loose_loop = true;
                        parent.group = None;
                        None
                    }
                    Some(Timing::Module(m)) if interval.is_none() => {
                        let (probes, parcalls) = (&self.probes, &self.parcalls);
                        let callee = *self.callees.entry((parent.probe, r.probe)).or_insert_with(|| {
                            let caller = probes.get(parent.probe).map_or("", |p| p.function.as_str());
                            let name = probes.get(r.probe).map_or("", |p| p.name.as_str());
                            parcalls.callee(caller, name.rsplit("::").next().unwrap_or(name))
                        });
                        // The module it runs on: one per call site (as the rows are).
                        let instance = (!m.inlined).then_some((r.probe, open.call_site));
                        self.parcalls.place(&mut parent.group, callee, instance, parent.child_sum, cycles)
                    }
                    _ => {
                        parent.group = None;
                        None
                    }
                };
                let add = match (interval, placed) {
                    (Some(ii), _) if in_loop && parent.overlap_site == Some(open.site) => ii.min(cycles),
                    (_, Some(p)) => p.add,
                    _ => cycles,
                };
                parent.overlap_site = if in_loop && interval.is_some() { Some(open.site) } else { None };
                // An overlapped invocation ends `add` after the previous one: it began earlier.
                let start = placed.map_or((parent.child_sum + add).saturating_sub(cycles), |p| p.start)
                    + self.entry_cycles(parent.probe);
                if let Some(n) = open.node {
                    self.out.nodes[n].offset = start;
                }
                // A function's streams, as its children used them (one that did is no leaf to
                // repeat: a repetition would move where they were used).
                let spanned = matches!(parent.t, Some(Timing::Module(_)))
                    && self.child_spans(parent.probe, open, start, cycles, &mut parent.streams);
                // A loop that is the pipeline of a `_Pipeline_` module: the report counts the
                // module's handshake around it (`wrapper`, 2 by rule 3) in its caller's latency.
                // Its RTL does not spend it: the module's `ap_done` comes with the loop's last
                // state, so co-simulation runs the module in the loop's latency and its caller
                // 2 cycles a call sooner than the report says (`RTL_WRAPPER_SAVING`). Not a loop
                // of `interface_loops`: its module waits on an interface or on other processes. Its row
                // is the loop; a caller timed from its children counts what is left of the
                // wrapper, one timed from its latency gives back the saving. Only a loop the
                // report fixes (one latency): where its trips vary (a run-time bound) the
                // co-simulations spend the 2 (a 2022.2 `axis` generator of 139 trips: co-sim 196,
                // 194 with the 2 kept, 192 without; a 2022.1 FFT's module of undefined latency).
                let (wrapper, fixed) = match t {
                    Some(Timing::Loop(l)) if !l.absent => (
                        l.report.and_then(|x| x.wrapper).unwrap_or(0),
                        l.report.and_then(|x| x.latency).is_some_and(|r| r.min == r.max),
                    ),
                    _ => (0, false),
                };
                if matches!(t, Some(Timing::Loop(l)) if !l.absent) && wrapper == 0 {
                    parent.loose_loop = true;
                }
                // (Most closes are of no `_Pipeline_` loop: the wrapper is tested first.)
                let saving = if wrapper == 0 || !fixed || self.interface_loops.get(r.probe) == Some(true) {
                    0
                } else {
                    wrapper.min(RTL_WRAPPER_SAVING)
                };
                let wrapper = wrapper - saving;
                let contribution = contribution - saving as i64;
                parent.child_sum += add + wrapper;
                parent.delta += contribution;
                parent.rtl += open.rtl + saving;
                // What the report counted for it in the parent's latency; an invocation the report
                // does not time (an inlined function, an unrolled loop) passes on its children's,
                // as it passes on what the run changed in them.
                let base = match scheduled.base {
                    Some(b) => (b, scheduled.base_max.unwrap_or(b)),
                    None => (open.children_base, open.children_base_max),
                };
                parent.children_base += base.0;
                parent.children_base_max += base.1;
                // A member of a flattened nest is the parent's own iterations, not a child that
                // ran in some of them.
                if !matches!(t, Some(Timing::Loop(LoopTiming { nest: Some(NestRole::Member { .. }), .. }))) {
                    count_child_run(parent, r.probe, 1, base.0);
                }
                parent.bulk_run.clear();
                // One more like it, next, would add the same (see `Leaf`): not where its time
                // overlaps the one before, it has a timeline node, its call site turns, or it is
                // part of a flattened nest.
                let nest = matches!(t, Some(Timing::Loop(LoopTiming { nest: Some(_), .. })));
                if interval.is_none()
                    && placed.is_none()
                    && open.node.is_none()
                    && !nest
                    && !spanned
                    && self.several_sites.get(r.probe) != Some(true)
                {
                    self.last_leaf = Some(Leaf {
                        thread: r.thread,
                        probe: r.probe,
                        value: r.value,
                        site: open.site,
                        trips: if is_loop { trips } else { 0 },
                        cycles,
                        dram_bound: dram > compute,
                        exact: scheduled.exact,
                        node_dropped: open.in_window && self.opts.max_nodes > 0,
                        child_sum: add + wrapper,
                        delta: contribution,
                        rtl: open.rtl + saving,
                        rtl_own: open.rtl,
                        base: base.0,
                        base_max: base.1,
                    });
                }
            }
        }
    }

    /// The trip count of a loop execution that ends: the record's, except for the head of a
    /// flattened nest, whose trips are its innermost loop's over this execution. The nest's
    /// innermost loop adds its trips to the head's execution that encloses it.
    fn trips(&self, t: Option<&Timing>, stack: &mut [Open], open: &Open, r: &Record) -> u64 {
        let own = r.value.unwrap_or(0);
        let Some(Timing::Loop(l)) = t else { return own };
        match &l.nest {
            Some(NestRole::Head { innermost, .. }) if *innermost != r.probe => open.nest_trips,
            Some(NestRole::Member { head, .. }) => {
                let innermost = match self.t(*head) {
                    Some(Timing::Loop(LoopTiming { nest: Some(NestRole::Head { innermost, .. }), .. })) => *innermost,
                    _ => return own,
                };
                if innermost == r.probe {
                    if let Some(h) = stack.iter_mut().rev().find(|o| o.probe == *head) {
                        h.nest_trips += own;
                    }
                }
                own
            }
            _ => own,
        }
    }

    /// A loop that holds port reads shared out by loop ([`read_loops`]) ended after `trips`
    /// trips (of `runs` like it): the nearest function around it counts them.
    fn note_read_loop(&self, probe: u32, stack: &mut [Open], trips: u64) {
        let Some(line) = self.read_loops.get(probe) else { return };
        let function = self.enclosing_function(stack);
        if let Some(f) = function {
            match f.read_loop_trips.iter_mut().find(|t| t.0 == line) {
                Some(t) => t.1 += trips,
                None => f.read_loop_trips.push((line, trips)),
            }
        }
    }

    /// The nearest function invocation of `stack` (innermost last), where a loop's runs are noted.
    fn enclosing_function<'s, 'o>(&self, stack: &'s mut [Open<'o>]) -> Option<&'s mut Open<'o>> {
        stack.iter_mut().rev().find(|o| self.probes.get(o.probe).is_some_and(|p| p.kind == "function"))
    }

    /// A loop invocation (or `runs` like it) of `trips` ended: when it is a pipelined loop (the
    /// head of a flattened nest for the nest), the nearest function around it notes its run.
    fn note_pipe(&self, probe: u32, stack: &mut [Open], runs: u64, trips: u64) {
        if !self.counts_single_reads() {
            return;
        }
        let Some(Timing::Loop(l)) = self.t(probe) else { return };
        if !l.pipelined.value || l.absent || matches!(l.nest, Some(NestRole::Member { .. })) {
            return;
        }
        let Some((ii, report_ii)) = l.ii.as_ref().map(|x| (x.value, x.source == super::timing::Source::Report)) else {
            return;
        };
        let function = self.enclosing_function(stack);
        if let Some(f) = function {
            match f.pipes.iter_mut().find(|p| p.probe == probe) {
                Some(p) => {
                    p.runs += runs;
                    p.trips += trips;
                }
                None => f.pipes.push(PipeRun { probe, runs, trips, ii, report_ii }),
            }
        }
    }

    /// A function invocation ends: the cycles its pipelined loops waited for single-beat m_axi
    /// reads (docs/cycle-model.md, "m_axi single reads in a pipeline"). A port counts for a loop
    /// when none of its element reads inside the loop may be a burst of the loop itself (its
    /// innermost loop the pipelined one, a forward run of its counter) and its reads in the loop
    /// are a whole number per iteration: all it read, when every read is inside the loop, else
    /// the share of the reads inside ([`reads_at`]); a bundle's reads share its adapter, and
    /// the loop loses what its busiest bundle makes it wait. Where the II is the model's, not
    /// the report's, and a bundle has more reads an iteration than it, the II rises to them (a
    /// bundle takes one read request a cycle): the loop loses the steps that adds too.
    fn single_read_waits(&mut self, open: &Open) -> u64 {
        if !self.counts_single_reads() || open.pipes.is_empty() || open.port_reads.is_empty() {
            return 0;
        }
        let mut total = 0;
        for pipe in &open.pipes {
            let Some(line) = self.probes.get(pipe.probe).map(|p| p.line) else { continue };
            let inner = match self.t(pipe.probe) {
                Some(Timing::Loop(LoopTiming { nest: Some(NestRole::Head { innermost, .. }), .. })) => {
                    self.probes.get(*innermost).map(|p| p.line)
                }
                _ => Some(line),
            };
            let mut bundles: Vec<(String, u64, u64)> = Vec::new();
            for &(port, all_reads) in &open.port_reads {
                let Some(info) = self.probes.get(port).and_then(|p| p.port.as_deref()) else { continue };
                if info
                    .reads
                    .iter()
                    .any(|s| s.loops.contains(&line) && s.may_burst && s.loops.first() == inner.as_ref())
                {
                    continue;
                }
                let in_loop = |s: &ReadSite| s.loops.contains(&line);
                let reads = if info.reads.iter().all(in_loop) {
                    all_reads
                } else {
                    match reads_at(&info.reads, &open.read_loop_trips, all_reads, in_loop) {
                        Some(n) => n,
                        None => continue,
                    }
                };
                if reads == 0 || pipe.trips == 0 || reads % pipe.trips != 0 {
                    continue;
                }
                let bundle = info.bundle().to_string();
                match bundles.iter_mut().find(|b| b.0 == bundle) {
                    Some(b) => {
                        b.1 += reads / pipe.trips;
                        b.2 += reads;
                    }
                    None => bundles.push((bundle, reads / pipe.trips, reads)),
                }
            }
            let runs = pipe.runs.max(1);
            let iterations = pipe.trips / runs;
            // (cycles, reads, the II the reads force)
            let mut worst: (u64, u64, Option<u64>) = (0, 0, None);
            for (_, per_iteration, reads) in bundles {
                // One read request a cycle on a bundle: k reads an iteration need k steps.
                let raised =
                    (self.opts.reads_bound_ii && !pipe.report_ii && per_iteration > pipe.ii).then_some(per_iteration);
                let ii = raised.unwrap_or(pipe.ii);
                let stall = match self.opts.single_reads {
                    Some(sr) => *self
                        .stalls
                        .entry((iterations, per_iteration, ii))
                        .or_insert_with(|| super::maxi_wait::single_read_stall(iterations, per_iteration, ii, sr)),
                    None => 0,
                };
                // A run's latency is (trips - 1) x II + depth: the loop is timed as if II `k`
                // had been asked for.
                let cycles = runs * stall + pipe.trips.saturating_sub(runs) * (ii - pipe.ii);
                if cycles >= worst.0 {
                    worst = (cycles, reads, raised);
                }
            }
            if worst.1 == 0 || worst.0 == 0 {
                continue;
            }
            total += worst.0;
            self.add_read_wait(pipe.probe, worst.1, worst.0, worst.2);
        }
        total
    }

    /// Adds `reads` that waited `cycles` (at II `ii`, where the reads raised it) to the row of
    /// `probe` (a pipelined loop, or a function for its reads outside pipelines).
    fn add_read_wait(&mut self, probe: u32, reads: u64, cycles: u64, ii: Option<u64>) {
        match self.out.single_read_waits.iter_mut().find(|w| w.probe == probe) {
            Some(w) => {
                w.reads += reads;
                w.cycles += cycles;
                w.ii = w.ii.max(ii);
            }
            None => {
                let (name, line) = self.probes.get(probe).map_or((String::new(), 0), |p| (p.name.clone(), p.line));
                self.out.single_read_waits.push(SingleReadWait { probe, name, line, reads, cycles, ii });
            }
        }
    }

    /// A function invocation ends: the cycles its single-beat m_axi reads outside pipelines
    /// waited. A state machine waits in the state that takes a read's data until the data is
    /// there, as a pipeline does (docs/cycle-model.md, "m_axi single reads in a pipeline"):
    /// each read waits what its round trip exceeds the schedule's distance by. A port counts
    /// when none of its element reads in the function is inside a pipelined loop or may be a
    /// burst of its innermost loop; nothing counts in a pipelined function, or in one called
    /// inside a pipeline (inlined into it).
    fn straight_read_waits(&mut self, open: &Open, stack: &[Open]) -> u64 {
        let Some(sr) = self.opts.single_reads else { return 0 };
        let wait = sr.round_trip.saturating_sub(sr.distance);
        if wait == 0 || open.port_reads.is_empty() {
            return 0;
        }
        if self.probes.get(open.probe).is_none_or(|p| p.kind != "function") {
            return 0;
        }
        let pipelined = |o: &Open| is_pipelined(o.t, o.call_site);
        if pipelined(open) || stack.iter().any(|o| pipelined(o) || o.pipe_fn) {
            return 0;
        }
        let lines = self.pipelined_lines.get(&open.probe);
        let in_pipeline = |loops: &[usize]| lines.is_some_and(|ls| loops.iter().any(|l| ls.contains(l)));
        let mut reads = 0;
        for &(port, n) in &open.port_reads {
            let Some(info) = self.probes.get(port).and_then(|p| p.port.as_deref()) else { continue };
            let straight = |s: &ReadSite| !s.may_burst && !in_pipeline(&s.loops);
            if info.reads.iter().all(straight) {
                reads += n;
            } else if let Some(k) = reads_at(&info.reads, &open.read_loop_trips, n, straight) {
                reads += k;
            }
        }
        if reads == 0 {
            return 0;
        }
        let cycles = reads * wait;
        self.add_read_wait(open.probe, reads, cycles, None);
        cycles
    }

    /// Whether pipelined loops' single-beat m_axi reads are counted at all.
    fn counts_single_reads(&self) -> bool {
        self.single_read_ports && (self.opts.single_reads.is_some() || self.opts.reads_bound_ii)
    }

    /// Cycles of a module invocation before its first child starts (half its handshake).
    fn entry_cycles(&self, probe: u32) -> u64 {
        match self.t(probe) {
            Some(Timing::Module(m)) => m.overhead.value.div_ceil(2),
            _ => 0,
        }
    }

    /// A module invocation, schedule first: the report's latency (for a numbered copy, the
    /// copy's) plus what the run changed in its children; a pipelined function is its latency
    /// whatever ran inside; a dataflow region the report times is its latency plus how much the
    /// processes' run times move the region's end. Without a report: handshake + children.
    fn module_schedule(&mut self, m: &ModuleTiming, open: &mut Open<'a>) -> Scheduled {
        // Without a report: the initialiser modules at the start (inlined or not, the function's
        // arrays are still filled on every call).
        let init = m.initialisers.map_or(0, |i| i.value);
        // Without a report, in a function pipeline: its body's latency, then its callees', whose
        // results come back a state later (when they take any: a callee of latency 0 is logic).
        // Without it `AES_Encrypt_axi`'s 12 stream states and its callees' 41 cycles (the report's
        // latencies of `KeyExpansion`, `AddRoundKey`, `SubBytes`) make 52, its report 53; the
        // 2019.1 `sum`'s 5 and its callee's 4 make 9, its report 11.
        if let Some(body) = m.body.filter(|_| open.pipe_fn) {
            return Scheduled::computed(body.value + open.child_sum + u64::from(open.child_sum > 0), None);
        }
        if m.inlined {
            return Scheduled::computed(init + open.child_sum, None);
        }
        let (latency, pipelined) = match open.call_site.and_then(|c| m.copies.get(c)) {
            Some(c) => (c.latency, c.pipelined),
            None => (m.latency, m.pipelined),
        };
        if m.dataflow && !open.procs.is_empty() {
            let procs = self.loop_processes(&open.procs);
            let region = self.dataflow_region(open.probe, &procs, true, Some(&mut open.streams));
            return match latency {
                Some(l) => {
                    let assumed: Vec<Proc<'a>> = procs
                        .iter()
                        .map(|p| Proc {
                            cycles: p.base.unwrap_or(p.cycles),
                            node: None,
                            loops: p.loops.clone(),
                            streams: p.streams.clone(),
                            ..*p
                        })
                        .collect();
                    let region_assumed = self.dataflow_region(open.probe, &assumed, false, None);
                    // The report's region latency below the chain of its own processes' latencies:
                    // it did not count a chain through a ping-pong buffer (Vivado HLS 2020.1 gives
                    // a dataflow region of loop processes its longest process); the region is the
                    // chain, + 1 to start it (as the report counts a chain it knows).
                    let base = if region_assumed + 1 > l.min && procs.len() > 1 {
                        self.note_region_below_chain(open.probe, l.min, region_assumed + 1);
                        region_assumed + 1
                    } else {
                        l.min
                    };
                    Scheduled::from_base(base, region as i64 - region_assumed as i64)
                }
                // Its bulk copies (no report: `child_sum`, where its processes do not go) in a
                // chain with the region: a copy fills a buffer a process reads or empties one it
                // wrote, and a process starts when the buffer it reads is full (a ping-pong
                // buffer, UG1399). A port's bytes are recorded when the invocation ends, so which
                // process a copy feeds is not seen: they count once, grouped as any function's
                // copies are. Left out, the public 2020.2 `kernel` (three copies in, a loop, a
                // copy out) took 119 cycles for its co-sim's 512.
                None => Scheduled::computed(m.overhead.value + init + open.child_sum + region, None),
            };
        }
        match latency {
            Some(l) if pipelined => {
                Scheduled { cycles: l.max, base: Some(l.min), base_max: Some(l.max), exact: l.is_exact() }
            }
            // The best case is shorter than the best case of the children that ran: it is a path
            // that skips them (`if (n >= 5) loop; else printf(...)`: best case 1, the loop's 435).
            // The worst case runs them: its own cycles beside theirs, plus what the run changed.
            // Unless the children the report times add up to more than the worst case: they sit
            // on paths that exclude each other (the cases of a `switch`), the worst case may be
            // another case's, and its slack says nothing of this call's own cycles; the best case,
            // the path that skips them all, does (the public 2016.4 `aes256cbc`: 1 ~ 2526 over
            // five cases, its reset case's loops 446, co-sim 485 where the slack gave 2526).
            Some(l) if l.min < open.children_base && l.max >= open.children_base_max => {
                let slack = l.max - open.children_base_max;
                let exclusive = m.children.is_some_and(|c| c.worst > l.max);
                let own = if exclusive { l.min.min(slack) } else { slack };
                let cycles = (own as i64 + open.children_base as i64 + open.delta).max(0) as u64;
                Scheduled { cycles, base: Some(l.min), base_max: Some(l.max), exact: false }
            }
            // Every child the report times directly ran (their worst cases add up to what the
            // report lists), and the latency's range is wider than its children's by at least
            // one child's best case: the best case is a path that skips such a child (`if (init)
            // { loop }`: 19 without the loop, 24 with it, the `if` a state of its own), so this
            // call took the worst case's path: its own cycles beside theirs.
            Some(l)
                if m.copies.is_empty()
                    && open.children_base_max > 0
                    && l.max >= open.children_base_max
                    && m.children.is_some_and(|c| {
                        let extra = (l.max - l.min).saturating_sub(c.worst - c.best.min(c.worst));
                        c.worst == open.children_base_max && c.smallest_best.is_some_and(|b| b <= extra)
                    }) =>
            {
                let own = l.max - open.children_base_max;
                let cycles = (own as i64 + open.children_base as i64 + open.delta).max(0) as u64;
                Scheduled { cycles, base: Some(l.min), base_max: Some(l.max), exact: cycles == l.max }
            }
            Some(l) => Scheduled { base_max: Some(l.max), ..Scheduled::from_base(l.min, open.delta) },
            None => Scheduled::computed(m.overhead.value + init + open.child_sum, None),
        }
    }

    /// The streams child invocation `open` used, in its parent's names (a callee's parameters
    /// through the arguments of its call), placed from `start` in the parent: a loop's over its
    /// whole run, a call's where it used them. True when it used any.
    fn child_spans(&self, parent: u32, open: &Open<'a>, start: u64, cycles: u64, into: &mut Vec<Span<'a>>) -> bool {
        let mut used = false;
        match open.t {
            Some(Timing::Loop(_)) => {
                for name in
                    self.p(open.probe).and_then(|p| p.loop_info.as_ref()).into_iter().flat_map(|i| &i.facts.streams)
                {
                    add_span(into, name, start, start + cycles);
                    used = true;
                }
            }
            Some(Timing::Module(_)) if !open.streams.is_empty() => {
                let (Some(caller), Some(callee)) = (self.p(parent), self.p(open.probe)) else { return false };
                let line = open.call_site.and_then(|c| self.call_sites.get(&open.probe)?.get(c)).map(|s| s.2);
                let relations: &'a Relations = self.relations;
                let args = relations.stream_args(&caller.function, &callee.name, line);
                for s in &open.streams {
                    if let Some((_, var)) = args.iter().find(|(param, _)| param == s.name) {
                        add_span(into, var, start + s.first.min(cycles), start + s.last.min(cycles));
                        used = true;
                    }
                }
            }
            _ => {}
        }
        used
    }

    /// Says once per region that the report's latency is below its processes' chain.
    fn note_region_below_chain(&mut self, owner: u32, report: u64, chain: u64) {
        let name = self.name(owner);
        let note = format!(
            "dataflow region {name}: the report's latency {report} is below the chain of its processes' own \
             latencies through their channels ({chain} with the region's start): the region is timed from the chain"
        );
        if !self.out.warnings.contains(&note) {
            self.out.warnings.push(note);
        }
    }

    /// The processes of one invocation of a dataflow region: the loops the report put into one
    /// process module (`Loop_<label>_proc<N>`: a loop of the dataflow function with the code and
    /// loops grouped with it) are one process, timed from that module: its latency when fixed;
    /// a range: the worst case when every loop it holds ran, else the best case (it skips the
    /// loops that did not run: `if (c) { loadA: ... }`), each moved by what the run changed in
    /// the loops that ran. Calls and other loops stay processes of their own.
    fn loop_processes(&self, procs: &[Proc<'a>]) -> Vec<Proc<'a>> {
        let process_of = |p: &Proc| -> Option<&'a super::timing::LoopProcess> {
            let probe = *p.loops.first()?;
            match self.t(probe) {
                Some(Timing::Loop(LoopTiming { process: Some(lp), .. })) if !lp.members.is_empty() => Some(lp),
                _ => None,
            }
        };
        let mut out: Vec<Proc<'a>> = Vec::new();
        let mut groups: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
        for (i, p) in procs.iter().enumerate() {
            let module = process_of(p).map(|lp| lp.module.as_str());
            match groups.iter_mut().find(|(m, _)| module.is_some() && *m == module) {
                Some((_, members)) => members.push(i),
                None => groups.push((module, vec![i])),
            }
        }
        for (module, members) in groups {
            let first = &procs[members[0]];
            let lp = module.and_then(|_| process_of(first));
            let Some(lp) = lp.filter(|lp| lp.latency.is_some()) else {
                out.push(Proc { loops: first.loops.clone(), streams: first.streams.clone(), ..*first });
                continue;
            };
            let l = lp.latency.expect("filtered");
            let loops: Vec<u32> = members.iter().flat_map(|&i| procs[i].loops.iter().copied()).collect();
            let all_ran = lp.members.iter().all(|m| loops.contains(m));
            // The worst case when every loop ran (or the latency is fixed), each loop moved from
            // its own worst case; else the best case, each moved from its best.
            let worst = all_ran || l.is_exact();
            let base = if worst { l.max } else { l.min };
            let moved: i64 = members
                .iter()
                .map(|&i| {
                    let p = &procs[i];
                    let from = if worst { p.base_max.or(p.base) } else { p.base };
                    p.cycles as i64 - from.unwrap_or(p.cycles) as i64
                })
                .sum();
            // Its loops' streams over the whole process (the module's own time between them
            // is not placed).
            let cycles = (base as i64 + moved).max(0) as u64;
            let mut streams = Vec::new();
            for s in members.iter().flat_map(|&i| &procs[i].streams) {
                add_span(&mut streams, s.name, 0, cycles);
            }
            out.push(Proc {
                site: first.site,
                cycles,
                base: Some(l.min),
                base_max: Some(l.max),
                node: first.node,
                loops,
                streams,
            });
        }
        out
    }

    /// One iteration of a loop whose body is a dataflow region (its processes are called in
    /// the same order every iteration, so an iteration ends where the first process comes round
    /// again). Iterations overlap: the first costs its region's latency, each further one its
    /// slowest process.
    fn fold_iteration(&mut self, owner: u32, iteration: &[Proc<'a>], fold: &mut LoopFold) {
        let latency = self.dataflow_region(owner, iteration, true, None);
        let interval = iteration.iter().map(|p| p.cycles).max().unwrap_or(0);
        for n in iteration.iter().filter_map(|p| p.node) {
            self.out.nodes[n].offset += fold.begin;
        }
        fold.total += if fold.iterations == 0 { latency } else { interval.min(latency) };
        fold.begin += interval;
        fold.iterations += 1;
    }

    /// One invocation of the dataflow region of probe `owner`: `procs` in call order; a process starts when the
    /// processes it shares a buffer with have finished and no earlier than those it shares a
    /// stream with start; it cannot finish before its stream producers finish. The region takes
    /// until the last process ends. Each process's wait is attributed to the processes on the
    /// critical chain (the ones whose own time set the region's end), in proportion to their time.
    /// With `record` false only the region's time is computed (nothing is written to the
    /// timeline or the waits). With `record`, `spans` (the region's invocation's) receives where
    /// its processes used their streams, for a region around it.
    fn dataflow_region(
        &mut self,
        owner: u32,
        procs: &[Proc<'a>],
        record: bool,
        spans: Option<&mut Vec<Span<'a>>>,
    ) -> u64 {
        let caller = self.p(owner).map(|p| p.function.clone()).unwrap_or_default();
        let names: Vec<String> = procs.iter().map(|p| self.name(self.out.sites[p.site].probe)).collect();
        // The line of each process's call, when its function is called from several places.
        let lines: Vec<Option<usize>> = procs
            .iter()
            .map(|p| {
                let site = &self.out.sites[p.site];
                let c = site.call_site?;
                self.call_sites.get(&site.probe)?.get(c).map(|s| s.2)
            })
            .collect();
        let n = procs.len();
        let mut start = vec![0u64; n];
        let mut end = vec![0u64; n];
        let mut via: Vec<Via> = Vec::with_capacity(n);
        let mut start_via: Vec<Option<(usize, bool)>> = vec![None; n];
        for i in 0..n {
            let mut floor = (0u64, None);
            for j in 0..i {
                let channel = self
                    .relations
                    .between_calls(&caller, (&names[i], lines[i]), (&names[j], lines[j]))
                    .or_else(|| self.loop_channel(&procs[i], &procs[j]));
                match channel {
                    // A FIFO: the consumer's first access of the streams they share is no earlier
                    // than the producer's first, and its last no earlier than the producer's last
                    // (a token is read after it is written). Where in each process that traffic
                    // lies comes from the children that name the streams; unknown, it spans the
                    // process (the consumer starts with the producer and ends after it).
                    Some(Channel::Stream) => {
                        let (s, f) = match shared_spans(&procs[j], &procs[i]) {
                            Some((pf, pl, cf, cl)) => {
                                let last_write = end[j].saturating_sub(procs[j].cycles.saturating_sub(pl));
                                ((start[j] + pf).saturating_sub(cf), last_write + procs[i].cycles.saturating_sub(cl))
                            }
                            None => (start[j], end[j]),
                        };
                        if s > start[i] {
                            start[i] = s;
                            start_via[i] = Some((j, false));
                        }
                        if f > floor.0 {
                            floor = (f, Some(j));
                        }
                    }
                    Some(Channel::Buffer) if end[j] > start[i] => {
                        start[i] = end[j];
                        start_via[i] = Some((j, true));
                    }
                    Some(Channel::Buffer) => {}
                    None => {}
                }
            }
            let own = start[i] + procs[i].cycles;
            match floor {
                (f, Some(j)) if f > own => {
                    end[i] = f;
                    via.push(Via::EndOf(j));
                }
                _ => {
                    end[i] = own;
                    via.push(Via::Own);
                }
            }
        }
        let region = end.iter().copied().max().unwrap_or(0);
        if !record {
            return region;
        }
        // The region's own stream traffic, for a region around it: each process's, where it ran.
        if let Some(out) = spans {
            let entry = self.entry_cycles(owner);
            out.clear();
            for (i, p) in procs.iter().enumerate() {
                for s in &p.streams {
                    let last = end[i].saturating_sub(p.cycles.saturating_sub(s.last));
                    add_span(out, s.name, entry + start[i] + s.first, entry + last);
                }
            }
        }
        let last = end.iter().position(|&e| e == region).unwrap_or(0);
        let chain = critical_chain(last, &via, &start_via);
        for (i, p) in procs.iter().enumerate() {
            if let Some(node) = p.node {
                self.out.nodes[node].offset = start[i] + self.entry_cycles(owner);
            }
            let wait = region.saturating_sub(p.cycles);
            let others: Vec<usize> = chain.iter().copied().filter(|&c| c != i).collect();
            let weight: u64 = others.iter().map(|&c| procs[c].cycles).sum();
            if wait == 0 || weight == 0 {
                continue;
            }
            for c in others {
                let share = (wait as u128 * procs[c].cycles as u128 / weight as u128) as u64;
                let target = procs[c].site;
                let waits = &mut self.out.sites[p.site].waits;
                match waits.iter_mut().find(|(s, _)| *s == target) {
                    Some(w) => w.1 += share,
                    None => waits.push((target, share)),
                }
            }
        }
        region
    }
}

impl<'a> Ctx<'a> {
    /// The channel between two processes made of a dataflow function's loops: a local array
    /// both name is a ping-pong buffer (chained), else a local stream both name a FIFO. A call
    /// and a loop share nothing the model can see.
    fn loop_channel(&self, a: &Proc, b: &Proc) -> Option<Channel> {
        let facts = |p: &Proc| -> Vec<&'a crate::model::pragma::LoopFacts> {
            p.loops.iter().filter_map(|&l| self.p(l)?.loop_info.as_ref().map(|i| &i.facts)).collect()
        };
        let (fa, fb) = (facts(a), facts(b));
        if fa.is_empty() || fb.is_empty() {
            return None;
        }
        let shares = |pick: fn(&crate::model::pragma::LocalChannels) -> &Vec<String>| {
            let names = |fs: &[&'a crate::model::pragma::LoopFacts]| -> Vec<&'a String> {
                fs.iter().filter_map(|f| f.local_channels.as_deref()).flat_map(pick).collect()
            };
            let theirs = names(&fb);
            names(&fa).into_iter().any(|x| theirs.contains(&x))
        };
        if shares(|c| &c.arrays) {
            Some(Channel::Buffer)
        } else if shares(|c| &c.streams) {
            Some(Channel::Stream)
        } else {
            None
        }
    }
}

#[derive(Clone, Copy)]
enum Via {
    /// The process ended when its own work was done.
    Own,
    /// It ended when a stream producer ended.
    EndOf(usize),
}

/// The processes whose own time sets the region's end, walking back from the last to end.
fn critical_chain(last: usize, via: &[Via], start_via: &[Option<(usize, bool)>]) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut at = Some(last);
    let mut guard = via.len() * 2 + 2;
    while let Some(i) = at {
        guard -= 1;
        if guard == 0 {
            break;
        }
        match via[i] {
            Via::EndOf(j) => at = Some(j),
            Via::Own => {
                chain.push(i);
                // Follow what set the start: a buffer producer's end (its chain counts) or a
                // stream partner's start (its own time does not).
                let mut s = start_via[i];
                at = None;
                while let Some((j, buffer)) = s {
                    if buffer {
                        at = Some(j);
                        break;
                    }
                    s = start_via[j];
                }
            }
        }
    }
    chain
}

/// An invocation's cycles and what the report assumed for it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Scheduled {
    cycles: u64,
    /// The report's latency for it (its minimum for a range): its parent's scheduled latency
    /// counted it at this. `None`: the report does not time it (no report, inlined, unrolled).
    base: Option<u64>,
    /// The report's worst case for it, when it gives a range.
    base_max: Option<u64>,
    /// The cycles are the report's latency exactly: the run agreed with the schedule.
    exact: bool,
}

impl Scheduled {
    fn computed(cycles: u64, base: Option<u64>) -> Self {
        Scheduled { cycles, base, base_max: None, exact: false }
    }

    /// The report's latency `base` changed by what the run changed inside.
    fn from_base(base: u64, delta: i64) -> Self {
        let cycles = (base as i64 + delta).max(0) as u64;
        Scheduled { cycles, base: Some(base), base_max: None, exact: delta == 0 }
    }
}

/// What a loop's schedule asks of its children: `best`, a function's calls on the body's best
/// path (`model::best_path`); `worst`, a child loop's worst-case latency in the report.
struct ChildReport<'f> {
    best: &'f dyn Fn(u32) -> Option<u64>,
    worst: &'f dyn Fn(u32) -> Option<u64>,
}

/// A loop execution, schedule first (facts, rules 3, 4, 7):
/// - a loop the report does not have (unrolled, a ROM) costs nothing of its own;
/// - the run's trip count equals the report's and nothing inside changed: the report's latency;
/// - pipelined: `(TC − 1) × II + tail`, the tail taken from the report;
/// - otherwise: TC × the report's iteration latency (which holds the children as scheduled,
///   inner pipelines moved into modules included) + what the run changed in the children;
/// - without a report entry: HLScope's `TC × own + children`, and the exit test's states under
///   Vivado HLS (`timing::exit_states`).
fn loop_schedule(l: &LoopTiming, trips: u64, open: &Open, children: &ChildReport) -> Scheduled {
    if l.absent {
        return Scheduled::computed(open.child_sum, None);
    }
    let Some(rep) = l.report else {
        // Under Vivado HLS the exit test takes its own states after the last iteration.
        let exit = l.exit.map_or(0, |e| e.value);
        return Scheduled::computed(loop_cycles(l, trips, open.child_sum) + exit, None);
    };
    let base = rep.latency.map(|x| x.min);
    let with_max = |s: Scheduled| Scheduled { base_max: rep.latency.map(|x| x.max), ..s };
    let tc = effective_trips(l, trips);
    let same_trips = rep.trips.and_then(|t| t.exact()) == Some(tc);
    if let (true, true, Some(lat)) =
        (same_trips, open.delta == 0 || l.pipelined.value, rep.latency.and_then(|x| x.exact()))
    {
        return Scheduled { cycles: lat, base, base_max: Some(lat), exact: true };
    }
    if l.pipelined.value {
        return with_max(Scheduled::computed(loop_cycles(l, trips, 0), base));
    }
    match rep.iteration_latency {
        // A range: the best iteration skips what the body runs only sometimes (`if (i & 1)
        // f(); else { g(); h(); }`); each run of a child beyond what the best iterations hold
        // adds what the report counts for it, up to every iteration's worst case.
        Some(il) if il.min < il.max => {
            let cycles = (tc * il.min + conditional_children(open, tc, il, children)).min(tc * il.max);
            with_max(Scheduled::computed((cycles as i64 + open.delta).max(0) as u64, base))
        }
        Some(il) => {
            let cycles = ((tc * il.min) as i64 + open.delta).max(0) as u64;
            with_max(Scheduled::computed(cycles, base))
        }
        None => with_max(Scheduled::computed(loop_cycles(l, trips, open.child_sum), base)),
    }
}

/// One more run (`n`) of child `probe` in a loop that counts its children's runs (its report
/// gives the iteration latency as a range), with what the report counted for them.
fn count_child_run(parent: &mut Open, probe: u32, n: u64, base: u64) {
    let range = match parent.t {
        Some(Timing::Loop(l)) => l.report.and_then(|r| r.iteration_latency),
        _ => None,
    };
    if range.is_none_or(|il| il.min >= il.max) {
        return;
    }
    match parent.child_runs.iter_mut().find(|c| c.0 == probe) {
        Some(c) => {
            c.1 += n;
            c.2 += base;
        }
        None => parent.child_runs.push((probe, n, base)),
    }
}

/// What the report counted for the runs of a loop's children outside its best-case iterations
/// (`tc` of them, `best_iteration` cycles each). A child the report counts at more than the best
/// iteration takes cannot be inside it: every run of it is outside (the public 2016.4
/// `sha256`'s `while (n)`, 4 ~ 28228 an iteration, copies 64 bytes in a loop of 128 only when a
/// full block is left: that loop ran in every iteration of a 256-byte call and was taken for
/// part of the 4). Else a function: its runs beyond the calls of it on the body's best path, `k`
/// an iteration (`best`, `model::best_path`): `if (a) f(x); else f(y);` holds one `f` in every
/// iteration, `if (a) f(x); if (b) f(y);` none, however often the two run together. Any other
/// child (a loop): its runs when it ran in fewer iterations than there were, else none.
///
/// A lone child loop that ran in some iterations only brings the states of its path too: the
/// iteration's worst case less the best and less the loop's own worst case (its call, the
/// `_Pipeline_` module's wrapper). The public 2024.1 `SpMV`: its row loop, 2 ~ 521 an
/// iteration, runs a `_Pipeline_` module's loop of 0 ~ 515 for a row that has elements: 4 more a
/// row than the loop alone (co-simulation: 3), 20.9 → 7 % of co-simulation.
fn conditional_children(open: &Open, tc: u64, il: crate::csynth::Range<u64>, children: &ChildReport) -> u64 {
    let best_iteration = il.min;
    let lone = open.child_runs.len() == 1;
    let path = |probe: u32| (children.worst)(probe).filter(|_| lone).map_or(0, |w| (il.max - il.min).saturating_sub(w));
    let outside = |&(probe, runs, base): &(u32, u64, u64)| match (children.best)(probe) {
        _ if runs > 0 && base > best_iteration.saturating_mul(runs) => base,
        Some(k) => match runs.checked_sub(k * tc) {
            Some(extra) if runs > 0 => base * extra / runs,
            _ => 0,
        },
        None if runs < tc => base + runs * path(probe),
        None => 0,
    };
    open.child_runs.iter().map(outside).sum()
}

/// Call sites of every function probe, in source order over the design: (caller function, file,
/// line). Only probed callers are known. A site's `call_site` indexes its probe's list.
pub(crate) fn call_sites(manifest: &Manifest) -> HashMap<u32, Vec<(String, String, usize)>> {
    let by_name: HashMap<&str, u32> =
        manifest.probes.iter().filter(|p| p.kind == "function").map(|p| (p.name.as_str(), p.id)).collect();
    let mut out: HashMap<u32, Vec<(String, String, usize)>> = HashMap::new();
    let mut seen: HashSet<(String, usize, u32)> = HashSet::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "function") {
        for c in p.module.iter().flat_map(|m| &m.calls) {
            if let Some(&callee) = by_name.get(c.name.as_str()) {
                if seen.insert((p.file.clone(), c.line, callee)) {
                    out.entry(callee).or_default().push((p.function.clone(), p.file.clone(), c.line));
                }
            }
        }
    }
    for v in out.values_mut() {
        v.sort_by(|a, b| (&a.1, a.2).cmp(&(&b.1, b.2)));
    }
    out
}

/// `hls::task` bodies and the function probe declaring each (the first, when several do).
fn task_owners(manifest: &Manifest) -> HashMap<u32, u32> {
    let by_name: HashMap<&str, u32> =
        manifest.probes.iter().filter(|p| p.kind == "function").map(|p| (p.name.as_str(), p.id)).collect();
    let mut out = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "function") {
        for c in p.module.iter().flat_map(|m| &m.calls).filter(|c| c.task) {
            if let Some(&body) = by_name.get(c.name.as_str()) {
                out.entry(body).or_insert(p.id);
            }
        }
    }
    out
}

/// The trips the report counts: the run's divided by an unroll factor (a full unroll leaves one).
fn effective_trips(l: &LoopTiming, trips: u64) -> u64 {
    match l.unroll {
        Some(0) => trips.min(1),
        Some(f) if f > 1 => trips.div_ceil(u64::from(f)),
        _ => trips,
    }
}

/// `(TC − 1) × II + IL` for a pipelined loop, `TC × own + children` otherwise; an unroll factor
/// divides the trips (a full unroll leaves one).
pub fn loop_cycles(l: &LoopTiming, trips: u64, children: u64) -> u64 {
    let tc = effective_trips(l, trips);
    if l.pipelined.value {
        let ii = l.ii.map_or(1, |s| s.value);
        let il = l.il.map_or(1, |s| s.value);
        if tc == 0 {
            0
        } else {
            (tc - 1) * ii + il
        }
    } else {
        tc * l.own.map_or(1, |s| s.value) + children
    }
}

/// Cycles to move `bytes` to or from DRAM: `bytes / DBW + DLAT`, rounded up to whole cycles.
pub fn dram_cycles(bytes: u64, dram: Dram, clock_ns: f64) -> u64 {
    if bytes == 0 || clock_ns <= 0.0 {
        return 0;
    }
    let ns = bytes as f64 / dram.bandwidth * 1e9 + dram.latency_ns;
    (ns / clock_ns).ceil() as u64
}

fn corrupt(r: &Record, what: &str) -> Error {
    Error::new(ErrorKind::BadInput, format!("corrupt event log at record {} (thread {}): {what}", r.order, r.thread))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::timing::{Source, Sourced};

    fn pipelined(ii: u64, il: u64) -> LoopTiming {
        LoopTiming {
            pipelined: Sourced::new(true, Source::Report),
            ii: Some(Sourced::new(ii, Source::Report)),
            il: Some(Sourced::new(il, Source::Report)),
            own: None,
            exit: None,
            unroll: None,
            report_loop: None,
            dataflow: false,
            nest: None,
            report: None,
            absent: false,
            constant_table: None,
            removed: None,
            copies: Vec::new(),
            process: None,
        }
    }

    #[test]
    fn loop_formulas() {
        assert_eq!(loop_cycles(&pipelined(2, 5), 100, 999), 99 * 2 + 5);
        assert_eq!(loop_cycles(&pipelined(1, 3), 0, 0), 0);
        let mut l = pipelined(1, 1);
        l.pipelined = Sourced::new(false, Source::Default);
        l.own = Some(Sourced::new(3, Source::Default));
        assert_eq!(loop_cycles(&l, 10, 40), 70);
        l.unroll = Some(4);
        assert_eq!(loop_cycles(&l, 10, 0), 9);
        l.unroll = Some(0);
        assert_eq!(loop_cycles(&l, 10, 0), 3);
    }

    #[test]
    fn dram_time() {
        let d = Dram { bandwidth: 1e9, latency_ns: 100.0 };
        assert_eq!(dram_cycles(0, d, 10.0), 0);
        // 4000 B at 1 GB/s = 4000 ns, + 100 ns = 410 cycles of 10 ns.
        assert_eq!(dram_cycles(4000, d, 10.0), 410);
    }

    #[test]
    fn critical_chain_of_a_stream_pipeline_is_the_slowest_stage() {
        // a → b → c over streams, b slowest: c's end comes from b's end, b's from its own time.
        let via = [Via::Own, Via::Own, Via::EndOf(1)];
        let start_via = [None, Some((0, false)), Some((1, false))];
        assert_eq!(critical_chain(2, &via, &start_via), vec![1]);
        // Over buffers every stage is on the chain.
        let via = [Via::Own, Via::Own, Via::Own];
        let start_via = [None, Some((0, true)), Some((1, true))];
        assert_eq!(critical_chain(2, &via, &start_via), vec![2, 1, 0]);
    }

    #[test]
    fn a_flattened_nest_runs_the_sum_of_its_innermost_trips_per_execution() {
        let m: Manifest = serde_json::from_str(
            r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["loops"],"files":[],"skipped":[],"probes":[
              {"id":1,"kind":"loop","file":"k.cpp","line":3,"column":1,"function":"k","name":"a"},
              {"id":2,"kind":"loop","file":"k.cpp","line":4,"column":1,"function":"k","name":"b","parent":1},
              {"id":3,"kind":"loop","file":"k.cpp","line":5,"column":1,"function":"k","name":"c","parent":2}]}"#,
        )
        .unwrap();
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let mut head = pipelined(3, 7);
        head.nest = Some(NestRole::Head { flattened_name: "a_b_c".into(), members: names.clone(), innermost: 3 });
        let member = |l: &mut LoopTiming| {
            l.pipelined = Sourced::new(false, Source::Report);
            l.own = Some(Sourced::new(0, Source::Report));
            l.nest = Some(NestRole::Member { head: 1, flattened_name: "a_b_c".into(), members: names.clone() });
        };
        let (mut b, mut c) = (pipelined(1, 1), pipelined(1, 1));
        member(&mut b);
        member(&mut c);
        let timing: HashMap<u32, Timing> = [(1, Timing::Loop(head)), (2, Timing::Loop(b)), (3, Timing::Loop(c))].into();
        // Two executions of a: the first runs c 2 + 5 + 1 times over its b iterations, the second 4.
        let script: [(u32, Event, u64); 18] = [
            (1, Event::Begin, 0),
            (2, Event::Begin, 0),
            (3, Event::Begin, 0),
            (3, Event::End, 2),
            (3, Event::Begin, 0),
            (3, Event::End, 5),
            (2, Event::End, 2),
            (2, Event::Begin, 0),
            (3, Event::Begin, 0),
            (3, Event::End, 1),
            (2, Event::End, 1),
            (1, Event::End, 2),
            (1, Event::Begin, 0),
            (2, Event::Begin, 0),
            (3, Event::Begin, 0),
            (3, Event::End, 4),
            (2, Event::End, 1),
            (1, Event::End, 1),
        ];
        let records: Vec<Record> = script
            .iter()
            .enumerate()
            .map(|(k, &(probe, event, v))| Record {
                order: k as u64,
                probe,
                event,
                thread: 0,
                seq: None,
                timestamp_ns: None,
                value: (event == Event::End).then_some(v),
            })
            .collect();
        let rel = Relations::from_manifest(&m);
        let opts = Options {
            clock_ns: 10.0,
            dram: Dram::default(),
            max_nodes: 0,
            bulk_transfers: false,
            copy_tail: 3,
            copy_latency: 0,
            copies_in_sequence: false,
            window: None,
            top: String::new(),
            single_reads: None,
            reads_bound_ii: false,
        };
        let r = replay(&records, &m, &timing, &rel, &opts).unwrap();
        let site = |probe| r.sites.iter().find(|s| s.probe == probe).unwrap();
        assert_eq!((site(1).runs, site(1).trips), (2, 8 + 4));
        assert_eq!(site(1).cycles, (7 * 3 + 7) + (3 * 3 + 7));
        assert_eq!((site(1).min_cycles, site(1).max_cycles), (3 * 3 + 7, 7 * 3 + 7));
        assert_eq!(
            (site(3).runs, site(3).trips, site(3).cycles),
            (4, 12, 0),
            "the inner loops cost nothing of their own"
        );
        assert_eq!(r.total_cycles, site(1).cycles);
    }
}
