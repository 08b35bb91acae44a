//! Static timing of every probe: what one loop iteration or one module invocation costs, taken
//! from the csynth report when it has the number, else from the source pragmas, else from a
//! documented default. Every number carries where it came from.
//!
//! The cycle model these feed (see `replay`), after HLScope (seed 001, section II-B):
//! - a pipelined loop of TC trips takes `(TC − 1) × II + IL` cycles (0 when TC = 0); whatever
//!   runs inside it is part of its pipeline;
//! - any other loop takes `TC × own + Σ children`, `own` being the iteration's own latency
//!   (loop control and the body outside nested loops and calls);
//! - a perfect nest the report shows flattened into one loop (`Row_Col`) is that loop: its
//!   outermost loop takes the flattened loop's timing, with TC the innermost trips of each
//!   execution ([`NestRole`]), and its inner loops cost nothing of their own;
//! - a module takes `overhead + Σ children`, or, for a `#pragma HLS dataflow` region, the time of
//!   its processes run concurrently (`replay::dataflow_region`), then at least the DRAM time of
//!   the bytes it moved: `bytes / DBW + DLAT`.

use crate::csynth;
use crate::emit::manifest::{Manifest, NestInfo, ProbeEntry};
use serde::Serialize;
use std::collections::HashMap;

mod bare_loop;
mod exit_states;
pub mod pipeline_rtl;
mod single_call;

/// Where a number comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// Measured in the C-simulation run (trip counts, calls, bytes).
    Run,
    /// The csynth report.
    Report,
    /// A `#pragma HLS` in the source.
    Pragma,
    /// A directive of the project file (`syn.directive.*`, `set_directive_*`).
    Directive,
    /// A documented default of hlsinstr (docs/cycle-model.md).
    Default,
    /// The project file (its clock) or a command-line flag.
    Project,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Source::Run => "run",
            Source::Report => "report",
            Source::Pragma => "pragma",
            Source::Directive => "directive",
            Source::Default => "default",
            Source::Project => "project",
        })
    }
}

/// A number and its source.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Sourced<T> {
    pub value: T,
    pub source: Source,
}

impl<T> Sourced<T> {
    pub fn new(value: T, source: Source) -> Self {
        Sourced { value, source }
    }
}

/// The defaults used when neither the report nor a pragma says.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Defaults {
    /// Cycles a module invocation costs beyond its loops and callees (start/done handshake).
    pub module_overhead: u64,
    /// Own latency of one iteration of a loop that is not pipelined (exit test + body).
    pub iteration_latency: u64,
    /// Iteration latency (pipeline depth) of a pipelined loop the report does not describe,
    /// before its body's chain (`chain_of`): one stage of logic. The pipelined loops of four
    /// public designs' reports (Vitis 2021.2 to 2023.2) on local memories and registers are
    /// 1 + their chain deep (docs/cycle-model.md, "Without a report").
    pub pipeline_depth: u64,
    /// Cycles the `<func>_Pipeline_<loop>` module Vitis wraps around a pipelined loop adds to
    /// the loop's latency (facts, rule 3: a 513-cycle loop in a 515-cycle module).
    pub pipeline_wrapper: u64,
    /// Cycles the top adds beyond its children when it has AXI interfaces (s_axilite control,
    /// m_axi ports) and no report says: about 13 on such tops (facts, rule 11).
    pub axi_top_overhead: u64,
    /// `syn.compile.pipeline_loops`: without a report, an innermost loop with more trips than this
    /// is pipelined at II=1 as Vitis does by default; one with fewer makes its parent loop the
    /// pipeline and is unrolled into it (UG1399 "Automatic Loop Pipelining"; 0 turns it off).
    pub pipeline_loops: u64,
    /// Cycles of an integer multiply of 32 bits or more on a chain (`model::opchain`, `mulw`):
    /// 1 at Vitis' 10 ns, more at a faster clock ([`wide_multiply_cycles`]).
    pub wide_multiply: u64,
    /// Without a report: a function with loops that the design calls from one place is
    /// inlined (Vitis; [`single_call`]). Off for Vivado HLS, which keeps some of them.
    pub inline_single_call: bool,
    /// Without a report: a loop's exit test is a state of its own after its last iteration, as
    /// in Vivado HLS' state machines (its reports: a function of loops is the sum of each loop's
    /// latency + 1, + 2 after a pipeline; [`exit_states`]). Off for Vitis.
    pub loop_exit_states: bool,
    /// Without a report: a small innermost loop (trips within `pipeline_loops`) that is the
    /// innermost loop of a perfect nest is pipelined itself and the nest flattened, as Vitis did
    /// before 2023 (UG1399 2021.2 and 2022.2, "Automatic Loop Pipelining": with the threshold
    /// above its trips "the innermost for loop ... will be automatically pipelined"; the 2022.1
    /// `harris` report: 128 × 16 nests as one flattened pipeline of 2048 trips). Off: it is
    /// unrolled into its parent, which becomes the pipeline (UG1399 2023.2: "the tool unrolls
    /// loop1 into loop2, and marks loop2 to be pipelined"; the 2025.1 `sha256Accel` report).
    pub flatten_small_perfect_nests: bool,
}

impl Default for Defaults {
    fn default() -> Self {
        Defaults {
            module_overhead: 2,
            iteration_latency: 2,
            pipeline_depth: 1,
            pipeline_wrapper: 2,
            axi_top_overhead: 13,
            pipeline_loops: 64,
            wide_multiply: 1,
            inline_single_call: true,
            loop_exit_states: false,
            flatten_small_perfect_nests: false,
        }
    }
}

/// What the report says of a loop: the schedule-first rule answers with its latency when the
/// run's trip count is the report's, and corrects by the difference otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ReportLoop {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trips: Option<csynth::Range<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<csynth::Range<u64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iteration_latency: Option<csynth::Range<u64>>,
    /// The loop is the pipeline of a `<func>_Pipeline_<loop>` module: the module's cycles beyond
    /// the loop's (its handshake, 2 by rule 3), on every execution. A caller the report times
    /// holds them in its latency already; one timed from its children needs them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrapper: Option<u64>,
}

/// How a loop's cycles are computed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoopTiming {
    pub pipelined: Sourced<bool>,
    /// Initiation interval (pipelined loops).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ii: Option<Sourced<u64>>,
    /// Iteration latency = pipeline depth (pipelined loops).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub il: Option<Sourced<u64>>,
    /// Own latency of one iteration (other loops).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own: Option<Sourced<u64>>,
    /// Without a report, under Vivado HLS: the states its exit takes after the last iteration
    /// (1, 2 after a pipeline), counted in the parent ([`exit_states`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<Sourced<u64>>,
    /// Unroll factor (0 = full) from the pragma; trips are divided by it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unroll: Option<u32>,
    /// Name of the loop in the csynth report when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_loop: Option<String>,
    /// `#pragma HLS dataflow` in the body: each iteration's calls are a dataflow region and
    /// iterations overlap (`replay::dataflow_loop`).
    #[serde(skip)]
    pub dataflow: bool,
    /// The loop belongs to a perfect nest the report shows flattened into one loop.
    #[serde(skip)]
    pub nest: Option<NestRole>,
    /// The report's entry for the loop (schedule first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<ReportLoop>,
    /// A report was given and has no entry for this loop: Vitis unrolled it into its parent's
    /// schedule or turned it into a ROM (facts, rule 7). It costs nothing of its own.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub absent: bool,
    /// Without a report: the loop only fills this constant table, which Vitis folds into a ROM
    /// (rule 7, `model::table`); it is `absent` too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constant_table: Option<String>,
    /// Without a report: the loop only stores into these local arrays, which nothing reads
    /// (`model::unread`): code Vitis removes; it is `absent` too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub removed: Option<String>,
    /// The loop's timing in each numbered copy of its function (`f`, `f_1`, ...; rule 6), by
    /// copy index, when the function has copies: a call site's copy has its own schedule.
    #[serde(skip)]
    pub copies: Vec<LoopTiming>,
    /// The dataflow process the report made of this loop of a dataflow function, with the
    /// code and other loops grouped with it (`Loop_<label>_proc<N>`; facts, rule 5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub process: Option<LoopProcess>,
}

/// A report module that is a dataflow process made of a dataflow function's loops.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoopProcess {
    pub module: String,
    pub latency: Option<csynth::Range<u64>>,
    /// The loops of the dataflow function (directly in its body) the process holds, by probe.
    #[serde(skip)]
    pub members: Vec<u32>,
}

/// A loop's part in a perfect nest that the csynth report shows as one flattened loop
/// (`Row_Col`: Vitis joins the loops' names with `_`; UG1399 "pragma HLS loop_flatten").
#[derive(Debug, Clone, PartialEq)]
pub enum NestRole {
    /// The outermost loop of the flattened nest: it stands for the flattened loop. Its trip
    /// count per execution is the sum of `innermost`'s trips in that execution, and its timing
    /// (II, IL or iteration latency) is the flattened loop's.
    Head { flattened_name: String, members: Vec<String>, innermost: u32 },
    /// An inner loop of the nest: no cost of its own (its time is inside the head's); a call in
    /// its body still adds to it, so a loop that is not pipelined passes its calls' time up.
    Member { head: u32, flattened_name: String, members: Vec<String> },
}

impl LoopTiming {
    /// The flattened loop's name when this loop is the head or a member of a flattened nest.
    pub fn nest_name(&self) -> Option<&str> {
        match &self.nest {
            Some(NestRole::Head { flattened_name, .. } | NestRole::Member { flattened_name, .. }) => {
                Some(flattened_name)
            }
            None => None,
        }
    }
}

/// How a module's cycles are computed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModuleTiming {
    pub overhead: Sourced<u64>,
    /// A module the report gives one exact latency for and that has no probed children: its
    /// invocation costs exactly that.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed: Option<Sourced<u64>>,
    pub dataflow: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<csynth::Resources>,
    /// Name of the module in the csynth report when matched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report_module: Option<String>,
    /// The report's latency of the module (schedule first: the answer when the run agrees with
    /// the report's trip counts, the base the run's differences are added to otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<csynth::Range<u64>>,
    /// A pipelined function: loops and calls inside are part of its schedule and its latency does
    /// not depend on the run's trip counts (facts, rule 8).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pipelined: bool,
    /// Numbered copies of the function (facts, rule 6), in number order; call sites take them in
    /// source order. Empty when there is one module.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub copies: Vec<Copy>,
    /// A report was given and has no module for the function: it was inlined into its caller.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inlined: bool,
    /// Without a report: the modules Vitis makes of the function's aggregate initialisers
    /// (facts, rule 1), which run side by side at its start: the largest, elements + 2. With a
    /// report that leaves the module's latency undefined: its generated `_Pipeline_<N>` modules.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initialisers: Option<Sourced<u64>>,
    /// What was made of each initialiser or generated module (counted, or skipped and why).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub initialiser_notes: Vec<String>,
    /// Without a report: the function's latency as (part of) a pipeline, from its body (its op
    /// chain, its loops unrolled, and the states its array parameters' ports take;
    /// `model::fnbody`), the modules it calls not included. Used when it is pipelined or called
    /// inside a pipelined function.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Sourced<u64>>,
    /// With a report: what the report times directly in the module (its outermost loops and its
    /// instances' modules), their best and worst cases added up; `None` when one is not known.
    /// An invocation whose children's worst cases add up to this ran all of them
    /// (`module_schedule`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub children: Option<ChildrenRange>,
    /// With a report: the copies it schedules in the module for `memcpy`s (see [`ReportCopy`]),
    /// in report order. A run's bulk m_axi transfer takes the latency of the one it matches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub memcpys: Vec<ReportCopy>,
}

/// A copy the report schedules for a `memcpy` with an exact trip count and latency: a loop of
/// the module named `memcpy.<dst>.<src>` (Vivado HLS, and Vitis before 2021: the copy is a
/// pipelined loop among the module's states; `memcpy..memptr` reads port `memptr` into a
/// local, `memcpy.memptr.` writes it), or a `<module>_Pipeline_<N>` instance of one loop (Vitis
/// from 2021 on, which names neither side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReportCopy {
    pub name: String,
    /// `<dst>.<src>` of a Vivado HLS loop name (a side is empty for a local); `None` for a
    /// `_Pipeline_<N>` module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sides: Option<String>,
    /// Elements copied (the loop's trip count).
    pub trips: u64,
    pub latency: u64,
}

impl ReportCopy {
    /// Whether this copy can be the one that moved `elements` elements from (`read`) or to
    /// port parameter `port`.
    pub fn matches(&self, port: &str, read: bool, elements: u64) -> bool {
        self.trips == elements
            && match &self.sides {
                Some(s) if read => s.strip_suffix(port).is_some_and(|d| d.ends_with('.')),
                Some(s) => s.strip_prefix(port).is_some_and(|r| r.starts_with('.')),
                None => true,
            }
    }
}

/// The copies the report schedules at module `m`'s own level for `memcpy`s ([`ReportCopy`]):
/// its outermost `memcpy.` loops and its `_Pipeline_<N>` instances that no loop calls (a copy
/// inside a loop is in that loop's latency).
fn report_memcpys(report: Option<&csynth::Report>, m: &csynth::Module) -> Vec<ReportCopy> {
    let exact = |r: Option<csynth::Range<u64>>| r.and_then(|r| r.exact());
    let mut out: Vec<ReportCopy> = m
        .loops
        .iter()
        .filter_map(|l| {
            let sides = l.name.strip_prefix("memcpy.")?;
            Some(ReportCopy {
                name: l.name.clone(),
                sides: Some(sides.to_string()),
                trips: exact(l.trip_count)?,
                latency: exact(l.latency)?,
            })
        })
        .collect();
    let prefix = format!("{}_Pipeline_", m.name);
    let loops = m.all_loops();
    let in_loop = |name: &str| loops.iter().any(|l| l.node.instances.iter().any(|i| i.module.as_deref() == Some(name)));
    for name in m.instances.iter().filter_map(|i| i.module.as_deref()) {
        let numbered =
            name.strip_prefix(&prefix).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        let Some(g) =
            report.filter(|_| numbered && !in_loop(name)).and_then(|r| r.modules.iter().find(|g| g.name == name))
        else {
            continue;
        };
        if let ([l], Some(latency)) = (g.loops.as_slice(), exact(g.latency)) {
            if let Some(trips) = exact(l.trip_count).filter(|_| !out.iter().any(|c| c.name == name)) {
                out.push(ReportCopy { name: name.to_string(), sides: None, trips, latency });
            }
        }
    }
    out
}

/// The best and worst cases of a module's directly timed children, added up, and the smallest
/// best case of one of them that is not 0 (a child the module's best case can skip and be
/// shorter for it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct ChildrenRange {
    pub best: u64,
    pub worst: u64,
    pub smallest_best: Option<u64>,
}

/// The best and worst cases of a module's outermost loops and of its instances' modules;
/// `None` when one of them has none (or an instance names no module the report has).
fn children_range(report: Option<&csynth::Report>, m: &csynth::Module) -> Option<ChildrenRange> {
    let loops = m.loops.iter().map(|l| l.latency);
    let instances = m.instances.iter().map(|i| {
        let name = i.module.as_deref()?;
        report?.modules.iter().find(|x| x.name == name)?.latency
    });
    let mut range = ChildrenRange { best: 0, worst: 0, smallest_best: None };
    for r in loops.chain(instances) {
        let r = r?;
        range.best += r.min;
        range.worst += r.max;
        if r.min > 0 {
            range.smallest_best = Some(range.smallest_best.map_or(r.min, |b| b.min(r.min)));
        }
    }
    Some(range)
}

/// Without a report: the cost of the initialiser modules of a function (the largest: they are
/// independent and start together, as the five of the systolic fixture do) and a note on each.
fn initialiser_cost(
    info: Option<&crate::emit::manifest::ModuleInfo>,
    d: &Defaults,
) -> (Option<Sourced<u64>>, Vec<String>) {
    let Some(m) = info else { return (None, Vec::new()) };
    let mut cost: Option<u64> = None;
    let mut notes = Vec::new();
    for i in &m.initialisers {
        let shape = format!("{}[{}]", i.array, i.dims.join("]["));
        match (i.elements, &i.unknown) {
            (Some(n), _) => {
                let c = n + d.pipeline_wrapper;
                cost = Some(cost.map_or(c, |x| x.max(c)));
                notes.push(format!("initialiser of {shape} (line {}): {n} elements, {c} cycles", i.line));
            }
            (None, why) => notes.push(format!(
                "initialiser of {shape} (line {}) not counted: {}",
                i.line,
                why.as_deref().unwrap_or("its size was not worked out")
            )),
        }
    }
    (cost.map(|c| Sourced::new(c, Source::Default)), notes)
}

/// One numbered copy of a function in the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Copy {
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latency: Option<csynth::Range<u64>>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pipelined: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Timing {
    Loop(LoopTiming),
    Module(ModuleTiming),
    /// A probe the cycle model does not know (a kind added later): costs nothing itself.
    Other,
}

impl Timing {
    /// A dataflow region: a module with `#pragma HLS dataflow`, or a loop with it in its body
    /// (not pipelined: a pipelined loop absorbs what it calls). Its calls run as processes.
    pub fn is_dataflow_region(&self) -> bool {
        match self {
            Timing::Module(m) => m.dataflow,
            Timing::Loop(l) => l.dataflow && !l.pipelined.value,
            Timing::Other => false,
        }
    }
}

/// What the run shows of the loops before cycles are counted: without a report it decides
/// Vitis' default pipelining ([`apply_auto_pipeline`]).
#[derive(Debug, Clone, Default)]
pub struct RunShape {
    /// The largest trip count of each loop probe.
    pub max_trips: HashMap<u32, u64>,
    /// The smallest: a loop whose trips differ between executions has a bound Vitis cannot
    /// unroll.
    pub min_trips: HashMap<u32, u64>,
    /// The probes that ran directly inside each probe (nested loops, calls of probed functions).
    pub inner: HashMap<u32, std::collections::HashSet<u32>>,
}

impl RunShape {
    /// Every probe that ran inside probe `id`, at any depth, once each.
    fn ran_inside(&self, id: u32) -> Vec<u32> {
        let mut todo: Vec<u32> = self.inner.get(&id).map(|s| s.iter().copied().collect()).unwrap_or_default();
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        while let Some(id) = todo.pop() {
            if seen.insert(id) {
                out.push(id);
                todo.extend(self.inner.get(&id).into_iter().flatten().copied());
            }
        }
        out
    }
}

/// Timing of every probe, by id. `top` is the top function: without a report its handshake
/// depends on its interfaces.
pub fn build(
    manifest: &Manifest,
    report: Option<&csynth::Report>,
    d: &Defaults,
    shape: &RunShape,
    top: &str,
) -> HashMap<u32, Timing> {
    let has_children: std::collections::HashSet<u32> =
        manifest.probes.iter().filter(|p| p.kind != "port").filter_map(|p| p.parent).collect();
    // Vivado HLS' `Loop <k>` names for loops without a label, where they pair unambiguously.
    let positional = report.map(|r| super::vivado_loops::positional_names(manifest, r, shape)).unwrap_or_default();
    let mut timing: HashMap<u32, Timing> = manifest
        .probes
        .iter()
        .map(|p| {
            let t = match p.kind.as_str() {
                "loop" => Timing::Loop(loop_timing(p, report, d, positional.get(&p.id))),
                "function" => Timing::Module(module_timing(p, report, d, has_children.contains(&p.id), top)),
                _ => Timing::Other,
            };
            (p.id, t)
        })
        .collect();
    match report {
        Some(r) => {
            for p in &manifest.probes {
                apply_flattened_nest(manifest, p, r, d, shape, positional.get(&p.id), &mut timing);
            }
            apply_flattened_imperfect_nests(manifest, &mut timing);
            apply_flattened_chains(manifest, r, d, &mut timing);
            apply_loop_process_members(manifest, &mut timing);
        }
        None => {
            let run_time = run_time_bounds(manifest, top);
            apply_run_time_bounds(&run_time, &mut timing);
            apply_unpipelinable_functions(manifest, d, &mut timing);
            apply_inlined_tables(manifest, &mut timing);
            apply_unroll_covering_trips(manifest, shape, &mut timing);
            let has_children = without_unrolled_leaves(manifest, &has_children, &timing);
            let kept = processes(manifest);
            apply_straight_functions(manifest, d, top, &has_children, &kept, &mut timing);
            if d.inline_single_call {
                single_call::apply(manifest, d, top, &has_children, &kept, &mut timing);
            }
            apply_unrollable_inside_pipelines(manifest, d, shape, &run_time, &mut timing);
            apply_auto_pipeline(manifest, d, shape, &mut timing);
            let callers = CallerMemories::of(manifest);
            apply_port_limits(manifest, d, top, &callers, &mut timing);
            apply_iteration_port_limits(manifest, &callers, &mut timing);
            apply_recurrences(manifest, d, &mut timing);
            apply_default_flatten(manifest, &mut timing);
            apply_unrolled_recurrences(manifest, d, shape, &mut timing);
            bare_loop::apply(manifest, d, top, &kept, &mut timing);
            apply_function_bodies(manifest, d, shape, top, &mut timing);
            apply_straight_line_bodies(manifest, d, &has_children, &mut timing);
            exit_states::apply(manifest, d, &mut timing);
        }
    }
    if let Some(r) = report {
        apply_copies(manifest, r, d, &mut timing);
    }
    timing
}

/// The loops directly in a dataflow function's body that the report put into one process
/// module: each learns them all, so a run that skips one of them takes the process's best case.
fn apply_loop_process_members(manifest: &Manifest, timing: &mut HashMap<u32, Timing>) {
    let functions: std::collections::HashSet<u32> =
        manifest.probes.iter().filter(|p| p.kind == "function").map(|p| p.id).collect();
    let mut groups: HashMap<(u32, String), Vec<u32>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(parent) = p.parent.filter(|q| functions.contains(q)) else { continue };
        if let Some(Timing::Loop(LoopTiming { process: Some(lp), .. })) = timing.get(&p.id) {
            groups.entry((parent, lp.module.clone())).or_default().push(p.id);
        }
    }
    for members in groups.into_values() {
        for id in &members {
            if let Some(Timing::Loop(LoopTiming { process: Some(lp), .. })) = timing.get_mut(id) {
                lp.members = members.clone();
            }
        }
    }
}

/// Without a report: an unroll factor at least the loop's trip count, the same on every
/// execution of the run, unrolls it fully (UG1399 `unroll factor=N`: N copies of the body, the
/// loop's exit test kept only for the trips past them; with none, no loop is left, as the 2020.2
/// report of the public `HLS_CISR_spmv_accel` shows for its 2-trip loops under `factor=4`).
fn apply_unroll_covering_trips(manifest: &Manifest, shape: &RunShape, timing: &mut HashMap<u32, Timing>) {
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(Timing::Loop(l)) = timing.get_mut(&p.id) else { continue };
        let Some(f) = l.unroll.filter(|&f| f > 1) else { continue };
        let (lo, hi) = (shape.min_trips.get(&p.id), shape.max_trips.get(&p.id));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if lo == hi && *hi <= u64::from(f) {
                l.unroll = Some(0);
            }
        }
    }
}

/// The probes with children, leaving out those whose children are all loops unrolled fully
/// with nothing probed inside: such a function has no loop of its own left
/// ([`apply_straight_functions`]).
fn without_unrolled_leaves(
    manifest: &Manifest,
    has_children: &std::collections::HashSet<u32>,
    timing: &HashMap<u32, Timing>,
) -> std::collections::HashSet<u32> {
    let unrolled_leaf = |p: &ProbeEntry| {
        p.kind == "loop"
            && !has_children.contains(&p.id)
            && matches!(timing.get(&p.id), Some(Timing::Loop(l)) if l.unroll == Some(0))
    };
    // A parent keeps its children when one of them is anything but such a leaf: one pass over
    // the probes, not a scan of them per parent.
    manifest.probes.iter().filter(|c| c.kind != "port" && !unrolled_leaf(c)).filter_map(|c| c.parent).collect()
}

/// The functions that run as processes, which keep their modules: the callees of a dataflow
/// function or loop, and `hls::task` bodies.
pub(super) fn processes(manifest: &Manifest) -> std::collections::HashSet<&str> {
    let regions: std::collections::HashSet<&str> = manifest
        .probes
        .iter()
        .filter(|p| match p.kind.as_str() {
            "function" => p.module.as_ref().is_some_and(|m| m.dataflow),
            "loop" => p.loop_info.as_ref().is_some_and(|l| l.facts.dataflow),
            _ => false,
        })
        .map(|p| p.function.as_str())
        .collect();
    manifest
        .probes
        .iter()
        .filter(|p| p.kind == "function")
        .flat_map(|p| p.module.iter().flat_map(|m| &m.calls).map(move |c| (p, c)))
        .filter(|(p, c)| c.task || regions.contains(p.function.as_str()))
        .map(|(_, c)| c.name.as_str())
        .collect()
}

/// Without a report: a function with no loop of its own (a helper computing a value, or calling
/// others in a row) is one Vitis inlines into its caller, or keeps as a module of latency 0 (a
/// combinational one): either way it adds no handshake, and what it calls counts in its
/// caller. Not the top, a pipelined function, a dataflow region, a process of one (a callee of
/// a dataflow function or loop), an `hls::task` body, nor one an INLINE pragma or directive
/// decides about (already timed by it).
fn apply_straight_functions(
    manifest: &Manifest,
    d: &Defaults,
    top: &str,
    has_children: &std::collections::HashSet<u32>,
    kept: &std::collections::HashSet<&str>,
    timing: &mut HashMap<u32, Timing>,
) {
    for p in manifest.probes.iter().filter(|p| p.kind == "function") {
        let info = p.module.as_deref();
        let decided = info.is_some_and(|m| m.dataflow || m.pipeline_ii.is_some() || m.inline.is_some());
        if p.name == top || decided || has_children.contains(&p.id) || kept.contains(p.name.as_str()) {
            continue;
        }
        let (initialisers, initialiser_notes) = initialiser_cost(info, d);
        let t = ModuleTiming { initialisers, initialiser_notes, ..ModuleTiming::inlined(false, Source::Default) };
        timing.insert(p.id, Timing::Module(t));
    }
}

/// Without a report: every function's latency as a pipeline, from its body
/// ([`ModuleTiming::body`]): the longest of its op chain (loops unrolled, each body once) and
/// the states its memory ports take, then a state for each stream access after the first. A memory port is an array parameter bound, through the
/// calls, to a parameter of the top (an `ap_memory` interface, or a caller's memory the callee
/// cannot repartition); an array a caller declares is partitioned as the pipeline needs
/// (`model::fnbody`). Each bank serves two accesses a state; the accesses of a call are the
/// body's, times the trips of the loops around them (the run's largest). A pipelined top takes
/// at least 1 (`ma`, a pipelined top of free logic: latency 1); its latency replaces the
/// default depth.
fn apply_function_bodies(
    manifest: &Manifest,
    d: &Defaults,
    shape: &RunShape,
    top: &str,
    timing: &mut HashMap<u32, Timing>,
) {
    let bound = interface_bound(manifest, top);
    let in_pipelines = pipelined_and_callees(manifest, timing);
    // The run's largest trips of the loop at `(line, col)` of `p`'s function: 0 for a probed loop
    // that never ran, 1 for no probed loop there.
    let trips_at = |p: &ProbeEntry, (line, col): (usize, usize)| -> u64 {
        let l = manifest.probes.iter().find(|q| {
            q.kind == "loop" && q.file == p.file && q.function == p.function && q.line == line && q.column == col
        });
        l.map_or(1, |l| shape.max_trips.get(&l.id).copied().unwrap_or(0))
    };
    for p in manifest.probes.iter().filter(|p| p.kind == "function" && in_pipelines.contains(p.name.as_str())) {
        let Some(info) = p.module.as_ref() else { continue };
        let chain = crate::model::opchain::chain_cycles_at(&info.chain, d.wide_multiply);
        let mut ports = 0;
        let mut streams = 0;
        for u in info.port_uses.iter() {
            // Each access runs once per trip of every loop around it.
            let count = |write: bool| -> u64 {
                let each = u.accesses.iter().filter(|a| a.write == write);
                each.map(|a| a.loops.iter().map(|&l| trips_at(p, l)).product::<u64>()).sum()
            };
            let (reads, writes) = (count(false), count(true));
            if u.banks == 0 {
                // A stream: one word a state each way; what is read is computed on, then written.
                streams += reads + writes;
                continue;
            }
            // The memory's partition is the top's (or an outer caller's), whoever says it.
            let Some(&inherited) = bound.get(&(p.function.as_str(), u.param.as_str())) else { continue };
            let banks = u.banks.max(inherited).max(1);
            ports = ports.max(crate::model::fnbody::port_cycles(reads.div_ceil(banks), writes.div_ceil(banks)));
        }
        // The stream accesses are states of the pipeline, one each; a pipeline's latency counts
        // the states after its first (`frameSIPO`: a read, then the write that depends on it in
        // the next state, latency 1). A pipeline that calls others hands their results back in a
        // state of their own ([`crate::sim::replay`]).
        let mut body = chain.max(ports) + streams.saturating_sub(1);
        if let Some(Timing::Module(m)) = timing.get_mut(&p.id) {
            if p.name == top && m.pipelined {
                body = body.max(1);
            }
            m.body = Some(Sourced::new(body, Source::Default));
            // The body times it (`replay`): no default depth.
            m.latency = None;
        }
    }
}

/// Without a report: a function that keeps its module, is not pipelined and has nothing probed
/// inside (no loop, no call) runs its body's op chain between its handshake's states, one
/// operation after the other as the chain needs them (the public Vivado HLS 2019.1 `top` of
/// acordobav/histogram_equalization: a double multiply, a conversion to int and back and a
/// second multiply, 15 cycles in its report and co-simulation, where the handshake alone gave 2).
fn apply_straight_line_bodies(
    manifest: &Manifest,
    d: &Defaults,
    has_children: &std::collections::HashSet<u32>,
    timing: &mut HashMap<u32, Timing>,
) {
    for p in manifest.probes.iter().filter(|p| p.kind == "function" && !has_children.contains(&p.id)) {
        let Some(info) = p.module.as_ref() else { continue };
        let chain = crate::model::opchain::chain_cycles_at(&info.chain, d.wide_multiply);
        let Some(Timing::Module(m)) = timing.get_mut(&p.id) else { continue };
        if chain == 0 || m.inlined || m.pipelined || m.dataflow || m.body.is_some() || m.overhead.value == 0 {
            continue;
        }
        m.overhead = Sourced::new(m.overhead.value + chain, Source::Default);
    }
}

/// Without a report: a function pipeline needs every loop of its hierarchy unrolled, and a loop
/// whose bound is not a constant cannot be (UG1399 "Function Pipelining": "If a loop has
/// variable bounds and it cannot be unrolled then this will prevent the function from being
/// pipelined"). Such a function is timed as the module it then stays: its loops and calls run
/// one after the other. The public Vivado HLS 2019.1 `LR_top` of mzrghorbani/lr_hls_dev
/// pipelines a top whose hierarchy iterates with range-`for` over containers and a
/// `while (true)`: its report says `Pipeline none` and latency `?`, co-simulation 130 cycles,
/// where the pipeline's depth gave 1. A loop's bound is taken as not a constant when the loop is
/// a `while`, a `do`-`while` or a range-`for` (over a container: its `begin()`/`end()`). A
/// `for` with a variable bound (`i < n`) is not detected: the manifest does not say which bounds
/// are constants, and the run's trip counts cannot (a constant bound with an early `break`
/// varies too).
fn apply_unpipelinable_functions(manifest: &Manifest, d: &Defaults, timing: &mut HashMap<u32, Timing>) {
    use crate::model::LoopKind;
    let functions: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    // Not the run's trip counts: a loop of constant bound that breaks early (`if (v[i] > limit)
    // break;`) runs different trips in C and still unrolls (`tests/cycle/08_function_pipeline`).
    let variable = |p: &ProbeEntry| {
        let kind = p.loop_info.as_ref().map(|l| l.kind);
        matches!(kind, Some(LoopKind::While | LoopKind::DoWhile | LoopKind::RangeFor))
    };
    let mut demote = Vec::new();
    for f in &functions {
        if !matches!(timing.get(&f.id), Some(Timing::Module(m)) if m.pipelined) {
            continue;
        }
        // The function and everything it calls, at any depth: calls name a function by its last
        // component, a loop its function by the qualified name (`TMTT::LRHLS::produce`).
        let mut todo = vec![f.name.as_str()];
        let mut seen = std::collections::HashSet::new();
        let mut qualified = std::collections::HashSet::new();
        while let Some(name) = todo.pop() {
            if !seen.insert(name) {
                continue;
            }
            for g in functions.iter().filter(|g| g.name == name) {
                qualified.insert(g.function.as_str());
                todo.extend(g.module.iter().flat_map(|m| &m.calls).map(|c| c.name.as_str()));
            }
        }
        let blocked =
            manifest.probes.iter().any(|p| p.kind == "loop" && qualified.contains(p.function.as_str()) && variable(p));
        if blocked {
            demote.push(f.id);
        }
    }
    for id in demote {
        let info = manifest.probes.iter().find(|p| p.id == id).and_then(|p| p.module.as_deref());
        if let Some(Timing::Module(m)) = timing.get_mut(&id) {
            m.pipelined = false;
            m.latency = None;
            let (initialisers, notes) = initialiser_cost(info, d);
            m.initialisers = initialisers;
            m.initialiser_notes = notes;
        }
    }
}

/// The functions with a pipeline of their own and those they call, at any depth (by name).
fn pipelined_and_callees<'a>(
    manifest: &'a Manifest,
    timing: &HashMap<u32, Timing>,
) -> std::collections::HashSet<&'a str> {
    let functions: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    let mut todo: Vec<&str> = functions
        .iter()
        .filter(|p| matches!(timing.get(&p.id), Some(Timing::Module(m)) if m.pipelined))
        .map(|p| p.name.as_str())
        .collect();
    let mut seen = std::collections::HashSet::new();
    while let Some(name) = todo.pop() {
        if !seen.insert(name) {
            continue;
        }
        for p in functions.iter().filter(|p| p.name == name) {
            todo.extend(p.module.iter().flat_map(|m| &m.calls).map(|c| c.name.as_str()));
        }
    }
    seen
}

/// `(function, parameter)` of the array parameters bound to a parameter of the top: the top's
/// own, and a callee's whose argument names one (`f(mat)`, `f(&mat[0])`), through any depth;
/// each with the banks its caller's `ARRAY_PARTITION` made of it (1 when none did).
fn interface_bound<'a>(manifest: &'a Manifest, top: &str) -> HashMap<(&'a str, &'a str), u64> {
    let functions: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    let mut bound: HashMap<(&str, &str), u64> = HashMap::new();
    let own_banks = |m: &crate::emit::manifest::ModuleInfo, param: &str| {
        m.port_uses.iter().find(|u| u.param == param).map_or(1, |u| u.banks.max(1))
    };
    for p in functions.iter().filter(|p| p.name == top) {
        for m in p.module.iter() {
            for q in &m.params {
                bound.insert((p.function.as_str(), q.name.as_str()), own_banks(m, &q.name));
            }
        }
    }
    bind_through_calls(&functions, &mut bound, |banks, callee, param| banks.max(own_banks(callee, param)));
    bound
}

/// Extends `bound` (`(function, parameter)` → a value) to the callees' parameters whose argument
/// names a bound one (`f(mat)`, `f(&mat[0])`), through any depth; a parameter bound already
/// keeps its value. `value` gives the callee's from its caller's, the callee's module and the
/// parameter's name.
fn bind_through_calls<'a>(
    functions: &[&'a ProbeEntry],
    bound: &mut HashMap<(&'a str, &'a str), u64>,
    value: impl Fn(u64, &crate::emit::manifest::ModuleInfo, &str) -> u64,
) {
    // Each round binds one more level of calls; a chain is at most as long as there are functions.
    for _ in 0..functions.len() {
        let mut more = Vec::new();
        for p in functions {
            let Some(m) = p.module.as_ref() else { continue };
            for c in &m.calls {
                let Some(callee) =
                    functions.iter().find(|q| q.name == c.name).and_then(|q| q.module.as_ref().map(|m| (q, m)))
                else {
                    continue;
                };
                for (arg, param) in c.args.iter().zip(&callee.1.params) {
                    let name: String = arg
                        .trim_start_matches('&')
                        .chars()
                        .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                        .collect();
                    let key = (callee.0.function.as_str(), param.name.as_str());
                    if let (Some(&v), false) =
                        (bound.get(&(p.function.as_str(), name.as_str())), bound.contains_key(&key))
                    {
                        more.push((key, value(v, callee.1, &param.name)));
                    }
                }
            }
        }
        if more.is_empty() {
            break;
        }
        bound.extend(more);
    }
}

/// `(function, parameter)` of the array parameters whose memory a caller's `ARRAY_RESHAPE`
/// made of wider words, with the elements a word holds: a function's own reshape of a
/// parameter (the top's `imgSrc` of a public 2022.1 `harris`, `cyclic factor=8`), passed on to
/// the callees whose argument names it (`read_input(imgSrc, ...)`), through any depth. A
/// callee's parameter takes its caller's words (the callee cannot change its caller's memory).
fn reshaped_params(manifest: &Manifest) -> HashMap<(&str, &str), u64> {
    let functions: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    let mut words: HashMap<(&str, &str), u64> = HashMap::new();
    for p in &functions {
        for m in p.module.iter() {
            for u in m.port_uses.iter().filter(|u| u.reshape_words > 1) {
                words.insert((p.function.as_str(), u.param.as_str()), u.reshape_words);
            }
        }
    }
    bind_through_calls(&functions, &mut words, |w, _, _| w);
    words
}

/// `memory` as if no `ARRAY_RESHAPE` applied to its arrays.
fn without_reshapes(memory: &crate::model::ports::LoopMemory) -> crate::model::ports::LoopMemory {
    let mut m = memory.clone();
    for a in &mut m.arrays {
        a.reshapes.clear();
        a.caller_words = None;
    }
    m
}

/// What a function's array parameters are in its callers, per (function, parameter), worked out
/// once for both port-limit passes: the words of a caller's reshape (`reshaped_params`) and the
/// memories on an s_axilite bundle (`axilite_params`).
struct CallerMemories<'a> {
    reshaped: HashMap<(&'a str, &'a str), u64>,
    single_port: HashMap<(&'a str, &'a str), u64>,
}

impl<'a> CallerMemories<'a> {
    fn of(manifest: &'a Manifest) -> Self {
        CallerMemories { reshaped: reshaped_params(manifest), single_port: axilite_params(manifest) }
    }

    /// `memory` with its parameters' caller facts filled in for `function`: a reshape's words,
    /// one port for a memory on an s_axilite bundle (unless a storage pragma says otherwise).
    fn apply(&self, memory: &crate::model::ports::LoopMemory, function: &str) -> crate::model::ports::LoopMemory {
        let mut m = memory.clone();
        for a in m.arrays.iter_mut().filter(|a| a.param) {
            if let Some(&w) = self.reshaped.get(&(function, a.name.as_str())) {
                a.caller_words = Some(w);
            }
            if a.ports.is_none() && self.single_port.contains_key(&(function, a.name.as_str())) {
                a.ports = Some(1);
            }
        }
        m
    }
}

/// The array and pointer parameters on an s_axilite bundle, per (function, parameter), through
/// the calls that pass them on: the bundle's memory serves the kernel one access a cycle (its
/// other port is the bus's). The public 2019.2 `fir_n11_maxi` and 2022.1 `fir_n11_strm` read 11
/// coefficients on the bundle in an iteration of their pipelined loop: II 11 in their reports,
/// where a dual-port memory gave the model 6.
fn axilite_params(manifest: &Manifest) -> HashMap<(&str, &str), u64> {
    let functions: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    let mut single: HashMap<(&str, &str), u64> = HashMap::new();
    for p in &functions {
        for q in p.module.iter().flat_map(|m| &m.params) {
            let memory = matches!(q.kind, crate::model::ParamKind::Array | crate::model::ParamKind::Pointer);
            if memory && q.interface.as_deref().is_some_and(|i| i.eq_ignore_ascii_case("s_axilite")) {
                single.insert((p.function.as_str(), q.name.as_str()), 1);
            }
        }
    }
    bind_through_calls(&functions, &mut single, |w, _, _| w);
    single
}

/// Without a report: a loop that fills a table through a parameter of a function with no INLINE
/// pragma is a ROM when a project directive inlines that function (the table is the caller's).
fn apply_inlined_tables(manifest: &Manifest, timing: &mut HashMap<u32, Timing>) {
    let inlined: std::collections::HashSet<&str> = manifest
        .probes
        .iter()
        .filter(|p| p.kind == "function" && p.module.as_ref().is_some_and(|m| m.inline == Some(true)))
        .map(|p| p.function.as_str())
        .collect();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop" && inlined.contains(p.function.as_str())) {
        let table = p.loop_info.as_ref().and_then(|l| l.facts.constant_table.as_ref()).filter(|c| c.if_inlined);
        if let (Some(table), Some(Timing::Loop(t))) = (table, timing.get_mut(&p.id)) {
            t.constant_table = Some(table.names());
            t.absent = true;
        }
    }
}

/// Loops of a function with numbered copies take each copy's own schedule (rule 6): the loop
/// of the same name in `f_1` (or its `f_1_Pipeline_*` module) times the calls that run `f_1`.
fn apply_copies(manifest: &Manifest, r: &csynth::Report, d: &Defaults, timing: &mut HashMap<u32, Timing>) {
    let copies_of: HashMap<&str, Vec<String>> = manifest
        .probes
        .iter()
        .filter_map(|p| match timing.get(&p.id) {
            Some(Timing::Module(m)) if !m.copies.is_empty() => {
                Some((p.function.as_str(), m.copies.iter().map(|c| c.name.clone()).collect()))
            }
            _ => None,
        })
        .collect();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(copies) = copies_of.get(p.function.as_str()) else { continue };
        let facts = facts_of(p);
        // The head of a nest the report flattened is found by the flattened loop's name
        // (`CO_LOOP_H_LOOP_W_LOOP` in `pool_1_Pipeline_...`), and stays the nest's head.
        let head = match timing.get(&p.id) {
            Some(Timing::Loop(LoopTiming { nest: nest @ Some(NestRole::Head { flattened_name, .. }), .. })) => {
                Some((flattened_name.clone(), nest.clone()))
            }
            _ => None,
        };
        let names = [Some(p.name.as_str()), p.label.as_deref(), p.vitis_name.as_deref()];
        let per_copy: Vec<LoopTiming> = copies
            .iter()
            .map(|c| {
                if let Some((flat, nest)) = &head {
                    if let Some(f) = r.find_loop(c, flat) {
                        let mut t = timing_from_report(f, &facts, d);
                        t.unroll = None;
                        t.dataflow = false;
                        t.nest = nest.clone();
                        return t;
                    }
                }
                let found = names.into_iter().flatten().find_map(|n| r.find_loop(c, n));
                match found {
                    Some(f) => timing_from_report(f, &facts, d),
                    None => match timing.get(&p.id) {
                        Some(Timing::Loop(l)) => l.clone(),
                        _ => loop_timing(p, Some(r), d, None),
                    },
                }
            })
            .collect();
        if let Some(Timing::Loop(l)) = timing.get_mut(&p.id) {
            l.copies = per_copy;
        }
    }
}

/// A pipeline pragma on a loop unrolls the loops inside it, which needs a constant trip count:
/// a loop inside whose trips differ between executions (`for (j = 1; j < i; j++)`) cannot be
/// unrolled, and Vitis keeps both as plain loops (a 2023.2 report: the outer loop's
/// `pipeline II=1` not applied, the inner loop not pipelined, 894 and 9 cycles per iteration).
/// Used only without a report.
fn apply_unrollable_inside_pipelines(
    manifest: &Manifest,
    d: &Defaults,
    shape: &RunShape,
    run_time: &std::collections::HashSet<u32>,
    timing: &mut HashMap<u32, Timing>,
) {
    // A loop whose bound is a run-time argument ([`run_time_bounds`]) cannot be unrolled either,
    // whatever its trips.
    let variable = |id: u32| {
        run_time.contains(&id)
            || matches!((shape.min_trips.get(&id), shape.max_trips.get(&id)), (Some(lo), Some(hi)) if lo != hi)
    };
    let is_loop = |id: u32| manifest.probes.iter().any(|p| p.id == id && p.kind == "loop");
    let mut demote = Vec::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(Timing::Loop(l)) = timing.get(&p.id) else { continue };
        if !l.pipelined.value || l.pipelined.source == Source::Report {
            continue;
        }
        // Every probed loop that ran inside it, at any depth.
        let blocked: Vec<u32> = shape.ran_inside(p.id).into_iter().filter(|&id| is_loop(id) && variable(id)).collect();
        if !blocked.is_empty() {
            demote.push((p.id, blocked));
        }
    }
    for (outer, inner) in demote {
        // The pragma (or directive) decided for the loops inside too: no default pipelining.
        let source = match timing.get(&outer) {
            Some(Timing::Loop(l)) => l.pipelined.source,
            _ => continue,
        };
        for id in std::iter::once(outer).chain(inner) {
            if let Some(Timing::Loop(l)) = timing.get_mut(&id) {
                l.pipelined = Sourced::new(false, source);
                l.ii = None;
                l.il = None;
                if let Some(p) = manifest.probes.iter().find(|p| p.id == id) {
                    l.own.get_or_insert(default_own(d, p));
                }
            }
        }
    }
}

/// The loops of the top whose bound names one of its scalar parameters (`k < K`): a run-time
/// argument, so however the testbench calls it, Vitis cannot unroll the loop.
fn run_time_bounds(manifest: &Manifest, top: &str) -> std::collections::HashSet<u32> {
    manifest
        .probes
        .iter()
        .filter(|p| p.kind == "loop" && p.function == top)
        .filter(|p| p.loop_info.as_ref().is_some_and(|i| !i.facts.param_bound.is_empty()))
        .map(|p| p.id)
        .collect()
}

/// Without a report: an `UNROLL` of a loop whose bound is a run-time argument of the top
/// ([`run_time_bounds`]) is not done: Vitis cannot unroll it ("variable trip count") and keeps
/// it a loop, and a pipeline around it is not made ([`apply_unrollable_inside_pipelines`]).
/// The public 2022.1 `matrix_mul` (`mmult_k: for (k < K)` with `UNROLL` under the `PIPELINE` of
/// `mmult_j`, `K` a kernel argument): its report keeps `mmult_k` a loop of iteration 12 in an
/// unpipelined `mmult_j`; the model unrolled it and pipelined `mmult_j` (99.4 % without the
/// report).
fn apply_run_time_bounds(run_time: &std::collections::HashSet<u32>, timing: &mut HashMap<u32, Timing>) {
    for id in run_time {
        if let Some(Timing::Loop(l)) = timing.get_mut(id) {
            if l.unroll == Some(0) {
                l.unroll = None;
            }
        }
    }
}

/// Whether probe `id` dissolves into the body around it once the user's directives are
/// applied: a loop unrolled fully (`unroll` 0) or a function inlined (no module of its own),
/// with everything that ran inside it dissolving too. Calls nest no deeper than the probes.
fn dissolves(shape: &RunShape, timing: &HashMap<u32, Timing>, id: u32, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    let own = match timing.get(&id) {
        Some(Timing::Loop(l)) => l.unroll == Some(0) && !l.dataflow,
        _ => inlined_module(timing, id),
    };
    own && shape.inner.get(&id).is_none_or(|s| s.iter().all(|&c| dissolves(shape, timing, c, depth + 1)))
}

/// A function inlined into its caller: no module, no pipeline or dataflow of its own. Its loops
/// are loops of the caller's body.
fn inlined_module(timing: &HashMap<u32, Timing>, id: u32) -> bool {
    matches!(timing.get(&id), Some(Timing::Module(m)) if m.inlined && !m.dataflow && !m.pipelined)
}

/// Innermost once the user's directives are applied: nothing probed ran inside it but what
/// dissolves into its body ([`dissolves`]).
fn innermost_after_directives(shape: &RunShape, timing: &HashMap<u32, Timing>, id: u32) -> bool {
    shape.inner.get(&id).is_none_or(|s| s.iter().all(|&c| dissolves(shape, timing, c, 0)))
}

/// A loop the user unrolled by a factor: it stays a loop of its own.
fn partially_unrolled(timing: &HashMap<u32, Timing>, id: u32) -> bool {
    matches!(timing.get(&id), Some(Timing::Loop(l)) if l.unroll.is_some_and(|f| f > 1))
}

/// The loop ran the same trips every time it ran (a bound that varies cannot be unrolled).
fn same_trips_every_run(shape: &RunShape, id: u32) -> bool {
    shape.min_trips.get(&id).is_none_or(|lo| Some(lo) == shape.max_trips.get(&id))
}

/// Vitis pipelines loops nobody told it about (facts, rule 9; UG1399 "Automatic Loop
/// Pipelining", `syn.compile.pipeline_loops`, default 64): an innermost loop with more trips
/// than the threshold becomes a pipeline at II=1; when the innermost loops of a loop all have
/// fewer, they are unrolled into it and it becomes the pipeline. A loop with `pipeline off`, a
/// full unroll, a dataflow body, or a pipeline of its own is left as it is. Used only without a
/// report: a report says what Vitis did.
fn apply_auto_pipeline(manifest: &Manifest, d: &Defaults, shape: &RunShape, timing: &mut HashMap<u32, Timing>) {
    if d.pipeline_loops == 0 {
        return;
    }
    let max_trips = &shape.max_trips;
    let loops: Vec<&ProbeEntry> = manifest.probes.iter().filter(|p| p.kind == "loop").collect();
    // Innermost: nothing probed ran inside it but what dissolves into its body (a loop unrolled
    // fully, a function inlined, with everything inside them dissolving too): UG1399 applies
    // the automatic pipelining after the user's directives, so a loop whose body holds only
    // `UNROLL` loops and calls of `INLINE` functions is an innermost loop by then. A nested
    // loop kept, or a call of a function kept as a module, makes it no innermost loop (Vitis
    // does not pipeline a loop around a call it keeps as a module).
    let innermost = |t: &HashMap<u32, Timing>, id: u32| innermost_after_directives(shape, t, id);
    // The innermost loops of perfect nests (pre-2023 Vitis pipelines a small one itself and
    // flattens the nest: `Defaults::flatten_small_perfect_nests`), with their nests' probes.
    let nests: HashMap<u32, Vec<&ProbeEntry>> = if d.flatten_small_perfect_nests {
        manifest
            .probes
            .iter()
            .filter_map(|p| nest_probes(manifest, p))
            .filter_map(|(_, ps)| ps.last().map(|q| (q.id, ps.clone())))
            .collect()
    } else {
        Default::default()
    };
    let free = |t: &HashMap<u32, Timing>, id: u32| match t.get(&id) {
        Some(Timing::Loop(l)) => {
            !l.pipelined.value
                && l.pipelined.source == Source::Default
                && l.unroll != Some(0)
                && !l.dataflow
                && l.nest.is_none()
        }
        _ => false,
    };
    let pipeline = |t: &mut HashMap<u32, Timing>, id: u32| {
        if let Some(Timing::Loop(l)) = t.get_mut(&id) {
            l.pipelined = Sourced::new(true, Source::Default);
            l.ii = Some(Sourced::new(1, Source::Default));
            let chain = manifest.probes.iter().find(|p| p.id == id).map_or(0, |p| chain_of(d, p));
            l.il = Some(Sourced::new(default_tail(d) + chain, Source::Default));
            l.own = None;
        }
    };
    // A partial unroll the user asked for comes first (UG1399: pipeline_loops applies after the
    // user's directives): the loop stays a loop of its own, pipelined whatever its trips, and is
    // not unrolled into its parent (a public 2022.1 design: a 64-trip loop with `unroll
    // factor=2` became its own `_Pipeline_` module of 32 trips, its parent not pipelined).
    let partial = partially_unrolled;
    let fixed = |id: u32| same_trips_every_run(shape, id);
    let parent_loop = |id: u32| {
        loops.iter().find(|q| q.id == id).and_then(|l| l.parent).filter(|pid| loops.iter().any(|q| q.id == *pid))
    };
    // The probes that `id` ran directly inside.
    let outer_of = |id: u32| -> Vec<u32> {
        let mut v: Vec<u32> = shape.inner.iter().filter(|(_, s)| s.contains(&id)).map(|(&k, _)| k).collect();
        v.sort_unstable();
        v
    };
    // The loop a loop would be unrolled into: its parent loop, or, for a loop at the top of a
    // function inlined into a loop, that loop (through inlined functions at any depth). The
    // public 2022.1 `fft`'s `reverse(i, 10)`, inlined into its `Reverse` loop, has its 10-trip
    // loop unrolled into `Reverse`, which is the pipeline (`fft_Pipeline_Reverse`).
    let enclosing_loop = |t: &HashMap<u32, Timing>, id: u32| -> Option<u32> {
        if let Some(pid) = parent_loop(id) {
            return Some(pid);
        }
        let mut f = loops.iter().find(|q| q.id == id).and_then(|l| l.parent)?;
        for _ in 0..64 {
            if !inlined_module(t, f) {
                return None;
            }
            // Called from one place only: each call site would be its own inlined copy.
            let [caller] = outer_of(f)[..] else { return None };
            if loops.iter().any(|q| q.id == caller) {
                return Some(caller);
            }
            f = caller;
        }
        None
    };
    // Before 2023, a perfect nest ending in loop `id` (which becomes the pipeline, `inside`
    // trips an iteration unrolled into it) whose iterations a run are no more than the
    // threshold is unrolled whole into the loop around it, which is left innermost, when
    // nothing else ran in that loop: the public 2020.2 `lenet5` unrolls its 5 × 5 (× 1)
    // windows and 2 × 2 poolings into the pixel loops and pipelines those (flattened with the
    // loops above them), where its 5 × 5 × 16 window (400) is the pipeline.
    let unrolls_into = |t: &HashMap<u32, Timing>, id: u32, inside: u64| -> Option<(u32, Vec<u32>)> {
        let members = nests.get(&id).cloned().unwrap_or_else(|| loops.iter().filter(|q| q.id == id).copied().collect());
        if !d.flatten_small_perfect_nests || members.iter().any(|m| !free(t, m.id) || !fixed(m.id)) {
            return None;
        }
        let total =
            members.iter().try_fold(inside.max(1), |n, m| max_trips.get(&m.id).map(|&k| n.saturating_mul(k)))?;
        let head = members.first()?.id;
        let pid = parent_loop(head)?;
        let alone = shape.inner.get(&pid).is_some_and(|s| s.iter().all(|&c| c == head || dissolves(shape, t, c, 0)));
        (total <= d.pipeline_loops && free(t, pid) && alone).then(|| (pid, members.iter().map(|m| m.id).collect()))
    };
    let unroll = |t: &mut HashMap<u32, Timing>, ids: &[u32]| {
        for id in ids {
            if let Some(Timing::Loop(l)) = t.get_mut(id) {
                l.unroll = Some(0);
            }
        }
    };
    // Whether `s`, run inside a loop, leaves that loop a pipeline with small loops unrolled
    // into it: it dissolves, or is an innermost loop of few trips, the same every run, or is a
    // function inlined whose body holds only such things. Those loops are added to `below`.
    fn small_inside(
        shape: &RunShape,
        d: &Defaults,
        is_loop: &dyn Fn(u32) -> bool,
        t: &HashMap<u32, Timing>,
        s: u32,
        below: &mut Vec<u32>,
        depth: usize,
    ) -> bool {
        if dissolves(shape, t, s, 0) {
            return true;
        }
        if is_loop(s) {
            let ok = innermost_after_directives(shape, t, s)
                && !partially_unrolled(t, s)
                && shape.max_trips.get(&s).is_none_or(|&n| n <= d.pipeline_loops)
                && same_trips_every_run(shape, s);
            if ok {
                below.push(s);
            }
            return ok;
        }
        inlined_module(t, s)
            && depth < 64
            && shape
                .inner
                .get(&s)
                .is_some_and(|c| c.iter().all(|&c| small_inside(shape, d, is_loop, t, c, below, depth + 1)))
    }
    let is_loop = |id: u32| loops.iter().any(|q| q.id == id);
    let mut parents_done: std::collections::HashSet<u32> = std::collections::HashSet::new();
    // Loops in source order; a loop a nest was unrolled into is looked at again after them.
    let mut work: std::collections::VecDeque<u32> = loops.iter().map(|l| l.id).collect();
    while let Some(id) = work.pop_front() {
        if !innermost(timing, id) || !free(timing, id) {
            continue;
        }
        if partial(timing, id) {
            pipeline(timing, id);
            continue;
        }
        let Some(&trips) = max_trips.get(&id) else { continue };
        let small = trips <= d.pipeline_loops;
        if small && nests.contains_key(&id) {
            if let Some((pid, members)) = unrolls_into(timing, id, 1) {
                unroll(timing, &members);
                work.push_back(pid);
                continue;
            }
            // Before 2023: pipelined itself; `apply_default_flatten` then flattens the nest.
            pipeline(timing, id);
            continue;
        }
        match enclosing_loop(timing, id) {
            Some(pid) if small && free(timing, pid) => {
                // The parent becomes the pipeline only when everything that ran inside it is an
                // innermost loop with few trips, the same number every time (a bound that varies
                // cannot be unrolled: that loop is pipelined on its own), directly or in the
                // body of a function inlined into it.
                let inside: Vec<u32> = shape.inner.get(&pid).map(|s| s.iter().copied().collect()).unwrap_or_default();
                let mut below = Vec::new();
                let all_small = !inside.is_empty()
                    && inside.iter().all(|&s| small_inside(shape, d, &is_loop, timing, s, &mut below, 0));
                if !all_small {
                    pipeline(timing, id);
                } else if parents_done.insert(pid) {
                    // `below`: the small loops that would be unrolled into the parent pipeline.
                    below.sort_unstable();
                    below.dedup();
                    let unrolled: u64 = below.iter().map(|s| max_trips.get(s).copied().unwrap_or(1)).sum();
                    match unrolls_into(timing, pid, unrolled) {
                        Some((up, members)) => {
                            unroll(timing, &below);
                            unroll(timing, &members);
                            work.push_back(up);
                        }
                        None => pipeline(timing, pid),
                    }
                }
            }
            Some(pid) if small && parents_done.contains(&pid) => {}
            _ => pipeline(timing, id),
        }
    }
}

/// When `p` heads a perfect nest (C simulation: one probe per loop) and the report has the
/// nest, or the nest of its inner loops, as one flattened loop, that loop times the nest: the
/// outermost loop of the flattened part takes its timing ([`NestRole::Head`]) and the loops
/// inside it cost nothing of their own ([`NestRole::Member`]). The longest flattened part wins
/// (Vitis may flatten only the inner loops of a nest).
///
/// Vivado HLS names a flattened nest of loops without labels `Loop <k>` like any other loop:
/// the loop paired with the nest's head by position (`positional`) is the whole nest
/// flattened when it lists no loop inside and its trip count is the nest's, the product of
/// its loops' trips in the run (the public 2019.1 `matrixmult`: `Loop 1` of 16 trips for a
/// 4 × 4 nest, which the model took for the outer loop of 4 trips and scaled: 30 for 42).
fn apply_flattened_nest(
    manifest: &Manifest,
    p: &ProbeEntry,
    r: &csynth::Report,
    d: &Defaults,
    shape: &RunShape,
    positional: Option<&super::vivado_loops::Paired>,
    timing: &mut HashMap<u32, Timing>,
) {
    let Some((nest, probes)) = nest_probes(manifest, p) else { return };
    let nest_trips: Option<u64> = probes.iter().map(|q| shape.max_trips.get(&q.id).copied()).product();
    let by_position = positional.and_then(|paired| paired.find(r)).filter(|l| {
        l.node.children.is_empty()
            && probes.len() > 1
            && l.node.trip_count.is_some_and(|t| t.min == t.max && Some(t.max) == nest_trips)
            && nest_trips != shape.max_trips.get(&p.id).copied()
    });
    for start in 0..nest.members.len().saturating_sub(1) {
        let part = &nest.members[start..];
        let found = find_flattened(r, &p.function, &p.file, part).or(by_position.filter(|_| start == 0));
        let Some(found) = found else { continue };
        let innermost = probes[probes.len() - 1];
        // The pipeline pragma of a flattened nest sits in the innermost body.
        let mut t = timing_from_report(found, &facts_of(innermost), d);
        // The flattened loop's trips are the innermost loop's, summed per execution of the head.
        // Its iteration latency times them only where it holds module instances (rule 4: an
        // inner pipeline moved into a `_Pipeline_` module is part of the iteration, and adding
        // the module's loop again counts it twice; a public 2022.1 design: iteration 42 ~ 45
        // around a 37-cycle instance, the estimate 87 % over co-sim); else `TC × own + children`.
        let holds_instances = !found.node.instances.is_empty();
        t.report =
            t.report.map(|r| ReportLoop { iteration_latency: r.iteration_latency.filter(|_| holds_instances), ..r });
        set_nest_roles(&probes[start..], t, Source::Report, timing);
        return;
    }
}

/// A perfect nest probed loop by loop (C simulation) and the probes of its members, outermost
/// first (every member is probed in such a nest).
fn nest_probes<'a>(manifest: &'a Manifest, p: &'a ProbeEntry) -> Option<(&'a NestInfo, Vec<&'a ProbeEntry>)> {
    let nest = p.nest.as_ref().filter(|n| n.probed == "per_loop")?;
    let probes: Option<Vec<&ProbeEntry>> = nest
        .members
        .iter()
        .map(|m| {
            manifest.probes.iter().find(|q| {
                q.kind == "loop"
                    && q.file == p.file
                    && q.function == p.function
                    && q.line == m.line
                    && q.column == m.column
            })
        })
        .collect();
    Some((nest, probes?))
}

/// Make `probes` (outermost first) one flattened loop timed by `t`: the outermost stands for it,
/// the others cost nothing of their own.
fn set_nest_roles(probes: &[&ProbeEntry], mut t: LoopTiming, source: Source, timing: &mut HashMap<u32, Timing>) {
    let names: Vec<String> = probes.iter().map(|q| q.name.clone()).collect();
    let flattened_name = names.join("_");
    let head = probes[0];
    let innermost = probes[probes.len() - 1];
    t.unroll = None;
    t.dataflow = false;
    t.nest = Some(NestRole::Head {
        flattened_name: flattened_name.clone(),
        members: names.clone(),
        innermost: innermost.id,
    });
    timing.insert(head.id, Timing::Loop(t));
    for q in &probes[1..] {
        let member = LoopTiming {
            pipelined: Sourced::new(false, source),
            ii: None,
            il: None,
            own: Some(Sourced::new(0, source)),
            exit: None,
            unroll: None,
            report_loop: None,
            dataflow: false,
            nest: Some(NestRole::Member {
                head: head.id,
                flattened_name: flattened_name.clone(),
                members: names.clone(),
            }),
            report: None,
            absent: false,
            constant_table: None,
            removed: None,
            copies: Vec::new(),
            process: None,
        };
        timing.insert(q.id, Timing::Loop(member));
    }
}

/// Without a report: Vitis flattens a perfect nest whose innermost loop is a pipeline and whose
/// outer loops are plain (UG1399 "pragma HLS loop_flatten": on by default for perfect and
/// semi-perfect nests; `loop_flatten off` keeps the loops, and the manifest then has no nest).
fn apply_default_flatten(manifest: &Manifest, timing: &mut HashMap<u32, Timing>) {
    for p in &manifest.probes {
        let Some((_, probes)) = nest_probes(manifest, p) else { continue };
        let loop_of = |t: &HashMap<u32, Timing>, id: u32| match t.get(&id) {
            Some(Timing::Loop(l)) => Some(l.clone()),
            _ => None,
        };
        let Some(inner) = loop_of(timing, probes[probes.len() - 1].id) else { continue };
        let outer_plain = probes[..probes.len() - 1].iter().all(|q| {
            loop_of(timing, q.id)
                .is_some_and(|l| !l.pipelined.value && l.unroll.is_none() && !l.dataflow && l.nest.is_none())
        });
        if inner.pipelined.value && inner.nest.is_none() && outer_plain && probes.len() > 1 {
            set_nest_roles(&probes, inner, Source::Default, timing);
        }
    }
}

/// Cycles of the longest chain of multi-cycle operations in a loop's body (`model::opchain`),
/// added to the default iteration latency and pipeline depth.
fn chain_of(d: &Defaults, p: &ProbeEntry) -> u64 {
    p.loop_info.as_ref().map_or(0, |l| crate::model::opchain::chain_cycles_at(&l.facts.chain, d.wide_multiply))
}

/// [`chain_of`] for an iteration of a loop that is not pipelined
/// (`opchain::iteration_chain_cycles_at`).
fn iteration_chain_of(d: &Defaults, p: &ProbeEntry) -> u64 {
    p.loop_info
        .as_ref()
        .map_or(0, |l| crate::model::opchain::iteration_chain_cycles_at(&l.facts.chain, d.wide_multiply))
}

/// Own cycles of one iteration of a loop that is not pipelined, without a report: its exit test
/// and body, 2 states (an address and its data), or 1 for a body of register logic only
/// (`model::registers`), plus its chain of multi-cycle operations (where a read that opens it
/// and whose data feeds only logic is one of the 2: `opchain::iteration_chain_cycles_at`).
fn default_own(d: &Defaults, p: &ProbeEntry) -> Sourced<u64> {
    let registers = p.loop_info.as_ref().is_some_and(|l| l.facts.registers_only);
    Sourced::new(if registers { 1 } else { d.iteration_latency } + iteration_chain_of(d, p), Source::Default)
}

fn facts_of(p: &ProbeEntry) -> crate::model::pragma::LoopFacts {
    p.loop_info.as_ref().map(|l| l.facts.clone()).unwrap_or_default()
}

/// A loop and the loop inside it (and so on down) that the report gives as one flattened loop
/// named after them (`VITIS_LOOP_68_9_VITIS_LOOP_70_10`) though the source nest is not perfect
/// (code around the inner loop: Vitis moves it into the flattened body, a public 2022.1 design's
/// `for (c) { s = 0; for (i) s += ...; if (s > m) ... }`): both found that loop by name, and it
/// times them as one nest, as [`apply_flattened_nest`] does for a perfect one. Without this the
/// outer loop took the flattened pipeline with its own 5 trips for the 1900 of the nest.
fn apply_flattened_imperfect_nests(manifest: &Manifest, timing: &mut HashMap<u32, Timing>) {
    let report_loop = |t: &HashMap<u32, Timing>, id: u32| match t.get(&id) {
        Some(Timing::Loop(l)) if l.nest.is_none() => l.report_loop.clone(),
        _ => None,
    };
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(found) = report_loop(timing, p.id) else { continue };
        let flattened = found.rsplit('/').next().unwrap_or(&found).to_string();
        let mut chain = vec![p];
        let mut joined = p.name.clone();
        while joined.len() < flattened.len() {
            let last = chain[chain.len() - 1];
            let mut inner = manifest.probes.iter().filter(|q| q.kind == "loop" && q.parent == Some(last.id));
            let (Some(q), None) = (inner.next(), inner.next()) else { break };
            if report_loop(timing, q.id).as_deref() != Some(found.as_str()) {
                break;
            }
            joined = format!("{joined}_{}", q.name);
            chain.push(q);
        }
        if chain.len() < 2 || joined != flattened {
            continue;
        }
        let Some(Timing::Loop(t)) = timing.get(&p.id).cloned() else { continue };
        let t = LoopTiming { report: t.report.map(|r| ReportLoop { iteration_latency: None, ..r }), ..t };
        set_nest_roles(&chain, t, Source::Report, timing);
    }
}

/// A loop the report does not list whose chain of inner loops (each the only loop in the one
/// around it) the report has as one flattened loop named by their lines
/// (`VITIS_LOOP_<line>_<n>_VITIS_LOOP_...`): Vitis flattened a nest the source does not make
/// perfect (a declaration between two loops, `ap_uint<16> h = hout + kh;`), inside a loop
/// that is itself a flattened nest (public `lenet5`'s `conv_layer1`: its pipelined 400-trip
/// nest under the 2048-trip one). The longest chain the report has wins.
fn apply_flattened_chains(manifest: &Manifest, r: &csynth::Report, d: &Defaults, timing: &mut HashMap<u32, Timing>) {
    let absent =
        |t: &HashMap<u32, Timing>, id: u32| matches!(t.get(&id), Some(Timing::Loop(l)) if l.absent && l.nest.is_none());
    let loops = r.all_loops();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        if !absent(timing, p.id) {
            continue;
        }
        let mut chain = vec![p];
        loop {
            let last = chain[chain.len() - 1];
            let mut inner = manifest.probes.iter().filter(|q| q.kind == "loop" && q.parent == Some(last.id));
            match (inner.next(), inner.next()) {
                (Some(q), None) if absent(timing, q.id) => chain.push(q),
                _ => break,
            }
        }
        while chain.len() >= 2 {
            let lines: Vec<u32> = chain.iter().map(|q| q.line as u32).collect();
            if let Some(found) = loops.iter().find(|l| l.node.vitis_lines() == lines) {
                let innermost = chain[chain.len() - 1];
                let t = timing_from_report(*found, &facts_of(innermost), d);
                let t = LoopTiming { report: t.report.map(|r| ReportLoop { iteration_latency: None, ..r }), ..t };
                set_nest_roles(&chain, t, Source::Report, timing);
                break;
            }
            chain.pop();
        }
    }
}

/// The report's loop for the flattened nest of `members` (outermost first) in `function`:
/// 1. named as Vitis names it, the members' names joined by `_` (also with a `.N` copy suffix);
/// 2. a `VITIS_LOOP_<line>_<n>_VITIS_LOOP_...` name whose lines are the members' lines (the
///    ordinals may differ when the tool counted loops differently);
/// 3. a loop the report places (`<SourceLocation>`, 2023+) at the outermost member's line of the
///    same file, with a name that is none of the members' own and no nested loops: the nest,
///    flattened under another name.
///
/// Searched in the function's module and its `<function>_Pipeline_<loop>` modules, or in every
/// module when the function has none (it was inlined).
fn find_flattened<'a>(
    r: &'a csynth::Report,
    function: &str,
    file: &str,
    members: &[crate::emit::manifest::NestMember],
) -> Option<csynth::LoopRef<'a>> {
    let joined = members.iter().map(|m| m.name.as_str()).collect::<Vec<_>>().join("_");
    let by_name = r.find_loops(function, &joined).into_iter().find(|l| l.node.base_name() == joined);
    if by_name.is_some() {
        return by_name;
    }
    let own: Vec<csynth::LoopRef<'a>> = if r.module(function).is_some() {
        r.modules
            .iter()
            .filter(|m| m.name == function || m.pipeline_of.as_ref().is_some_and(|o| o.function == function))
            .flat_map(|m| m.all_loops())
            .collect()
    } else {
        r.all_loops()
    };
    let lines: Vec<u32> = members.iter().map(|m| m.line as u32).collect();
    if let Some(l) = own.iter().find(|l| l.node.vitis_lines() == lines) {
        return Some(*l);
    }
    let head = &members[0];
    own.into_iter().find(|l| {
        l.node.children.is_empty()
            && l.node.source.as_ref().is_some_and(|s| s.line as usize == head.line && s.same_file(file))
            && !members.iter().any(|m| l.node.base_name() == m.name || l.node.base_name() == m.vitis_name)
    })
}

/// `positional`: the Vivado HLS `Loop <k>` paired with this probe (`sim::vivado_loops`), tried
/// after the probe's own names.
fn loop_timing(
    p: &ProbeEntry,
    report: Option<&csynth::Report>,
    d: &Defaults,
    positional: Option<&super::vivado_loops::Paired>,
) -> LoopTiming {
    let facts = p.loop_info.as_ref().map(|l| l.facts.clone()).unwrap_or_default();
    let found = report.and_then(|r| {
        let names = [Some(p.name.as_str()), p.label.as_deref(), p.vitis_name.as_deref()];
        names.into_iter().flatten().find_map(|n| r.find_loop(&p.function, n)).or_else(|| positional?.find(r))
    });
    let unroll = facts.unroll;
    if let Some(found) = found {
        let mut t = timing_from_report(found, &facts, d);
        let processes = report.map(|r| r.loop_processes(&p.function)).unwrap_or_default();
        if processes.iter().any(|m| m.name == found.module.name) {
            t.process = Some(LoopProcess {
                module: found.module.name.clone(),
                latency: found.module.latency,
                members: Vec::new(),
            });
        }
        return t;
    }
    let fact_source = |name: &str| if facts.from_directive_has(name) { Source::Directive } else { Source::Pragma };
    let chain = crate::model::opchain::chain_cycles_at(&facts.chain, d.wide_multiply);
    let pipelined = facts.pipeline_ii.is_some() && !facts.pipeline_off;
    let mut t = if pipelined {
        LoopTiming {
            pipelined: Sourced::new(true, fact_source("pipeline")),
            ii: Some(pragma_ii(&facts)),
            il: Some(Sourced::new(default_tail(d) + chain, Source::Default)),
            own: None,
            exit: None,
            unroll,
            report_loop: None,
            dataflow: facts.dataflow,
            nest: None,
            report: None,
            absent: false,
            constant_table: None,
            removed: None,
            copies: Vec::new(),
            process: None,
        }
    } else {
        let source = if facts.pipeline_off { fact_source("pipeline") } else { Source::Default };
        LoopTiming {
            pipelined: Sourced::new(false, source),
            ii: None,
            il: None,
            own: Some(default_own(d, p)),
            exit: None,
            unroll,
            report_loop: None,
            dataflow: facts.dataflow,
            nest: None,
            report: None,
            absent: false,
            constant_table: None,
            removed: None,
            copies: Vec::new(),
            process: None,
        }
    };
    // With a report, a loop it does not list was unrolled or folded away (a ROM, rule 7).
    // Without one, the source says which loops only fill a constant table.
    t.constant_table = facts.constant_table.filter(|c| report.is_none() && !c.if_inlined).map(|c| c.names());
    t.removed = facts.unread_store.filter(|_| report.is_none());
    t.absent = report.is_some() || t.constant_table.is_some() || t.removed.is_some();
    t
}

/// The cycles a pipelined loop adds beyond `(TC − 1) × II` when no report says: depth − 1 for
/// the loop, plus the `_Pipeline_` module around it (facts, rule 3).
fn default_tail(d: &Defaults) -> u64 {
    d.pipeline_depth.saturating_sub(1) + d.pipeline_wrapper
}

/// A loop's timing from its report entry; a pipelined loop without an II in the report takes the
/// pragma's. For a pipelined loop `il` is the tail: latency − (TC − 1) × II, taken from the
/// report's own latency and trip count where both are known (so an exception to the usual
/// `depth − 1` is kept), else depth − 1.
fn timing_from_report(found: csynth::LoopRef<'_>, facts: &crate::model::pragma::LoopFacts, d: &Defaults) -> LoopTiming {
    let l = found.node;
    let pipelined = Sourced::new(l.pipelined, Source::Report);
    let ii = l.ii.map(|v| Sourced::new(v.max(1), Source::Report));
    let own_from_report = l.iteration_latency.as_ref().filter(|_| l.children.is_empty()).map(|r| r.max);
    let mut t = LoopTiming {
        pipelined,
        ii: None,
        il: None,
        own: None,
        exit: None,
        // The report's trip count is after unrolling: the run's trips are divided by the factor.
        unroll: facts.unroll.filter(|&f| f > 1),
        report_loop: Some(format!("{}/{}", found.module.name, l.name)),
        dataflow: facts.dataflow,
        nest: None,
        report: Some(ReportLoop {
            trips: l.trip_count,
            latency: l.latency,
            iteration_latency: l.iteration_latency,
            wrapper: pipeline_wrapper(found, d),
        }),
        absent: false,
        constant_table: None,
        removed: None,
        copies: Vec::new(),
        process: None,
    };
    if l.pipelined {
        let ii = ii.unwrap_or_else(|| pragma_ii(facts));
        t.ii = Some(ii);
        let from_latency = match (l.trip_count, l.latency) {
            (Some(tc), Some(lat)) if tc.max >= 1 && lat.max >= (tc.max - 1) * ii.value => {
                Some(lat.max - (tc.max - 1) * ii.value)
            }
            _ => None,
        };
        let depth = l.pipeline_depth.as_ref().or(l.iteration_latency.as_ref()).map(|r| r.max.max(1));
        t.il = Some(match (from_latency, depth) {
            (Some(v), _) => Sourced::new(v, Source::Report),
            (None, Some(dp)) => Sourced::new(dp - 1, Source::Report),
            (None, None) => Sourced::new(default_tail(d), Source::Default),
        });
    } else {
        t.own = Some(match own_from_report {
            Some(v) => Sourced::new(v.max(1), Source::Report),
            None => Sourced::new(d.iteration_latency, Source::Default),
        });
    }
    t
}

/// The cycles a `_Pipeline_` module adds around its one loop: its latency minus the loop's, or
/// rule 3's 2 where the report gives neither (a data-dependent trip count).
fn pipeline_wrapper(found: csynth::LoopRef<'_>, d: &Defaults) -> Option<u64> {
    let m = found.module;
    if m.pipeline_of.is_none() || m.loops.len() != 1 || found.depth != 0 {
        return None;
    }
    match (m.latency, found.node.latency) {
        (Some(ml), Some(ll)) => Some(ml.min.saturating_sub(ll.min)),
        _ => Some(d.pipeline_wrapper),
    }
}

/// Without a report: a pipelined loop's II is at least what its memory ports allow
/// (`model::ports`: per bank, the accesses of an iteration it can receive over its ports), and
/// its depth holds those states (the last access is issued that many states after the first,
/// as the function pipelines' port term). The memories counted: the parameters bound to the
/// top's interface (an `ap_memory`/`bram` port, or a caller's array passed down from one). A
/// local array is partitioned further as the pipeline needs, and so is one passed to a callee
/// (the public 2023.2 `mem_streaming` stores 10 elements an iteration into such an array at
/// II 1; the 2022.2 systolic fixture 8 into one bank of a `complete dim=1` local).
fn apply_port_limits(
    manifest: &Manifest,
    d: &Defaults,
    top: &str,
    callers: &CallerMemories,
    timing: &mut HashMap<u32, Timing>,
) {
    let bound = interface_bound(manifest, top);
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(Timing::Loop(l)) = timing.get_mut(&p.id) else { continue };
        if !l.pipelined.value || l.pipelined.source == Source::Report {
            continue;
        }
        let Some(memory) = p.loop_info.as_ref().and_then(|i| i.facts.memory.as_ref()) else { continue };
        let keep = |a: &crate::model::ports::ArrayDecl| {
            !a.param || bound.contains_key(&(p.function.as_str(), a.name.as_str()))
        };
        let reshaped_memory = callers.apply(memory, &p.function);
        let states = match crate::model::ports::port_ii(&reshaped_memory, keep) {
            Some((states, _)) => states,
            // The reshape joined the accesses into one a state: the read's data still takes
            // its stage after the address (depth 2, as for the accesses of a memory without
            // the reshape), where dropping the port term would leave the depth of logic alone.
            None if crate::model::ports::port_ii(&without_reshapes(memory), keep).is_some() => {
                if let Some(il) = l.il.as_mut() {
                    *il = Sourced::new(il.value + 1u64.saturating_sub(chain_of(d, p)), Source::Default);
                }
                continue;
            }
            None => continue,
        };
        if l.ii.is_some_and(|ii| ii.value >= states) {
            continue;
        }
        l.ii = Some(Sourced::new(states, Source::Default));
        if let Some(il) = l.il.as_mut() {
            *il = Sourced::new(il.value + states.saturating_sub(chain_of(d, p)), Source::Default);
        }
    }
}

/// Without a report: a loop unrolled inside a pipeline (every loop that runs inside one, its
/// trips the same every run) lays its iterations out in the pipeline's iteration, so a
/// recurrence it carries (`model::recurrence`: `sum += a[i][k] * b[k][j]` over `k`) becomes a
/// chain there: its body's chain once, then its carried cycle's states (`recurrence_ii`) for
/// each further trip, in the pipeline's depth. The public Vivado HLS 2019.1 `matrixmult` (4 × 4
/// float, the `j` loop pipelined, `k` unrolled): depth 26 in its report, a read, the multiply
/// and four chained adds (2 + 4 + 4 × 5); 1 here before (the chain of the `j` loop's own body).
fn apply_unrolled_recurrences(manifest: &Manifest, d: &Defaults, shape: &RunShape, timing: &mut HashMap<u32, Timing>) {
    let by_id: HashMap<u32, &ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        match timing.get(&p.id) {
            Some(Timing::Loop(l)) if l.pipelined.value && l.pipelined.source != Source::Report && l.il.is_some() => {}
            _ => continue,
        }
        // The deepest such chain among the loops that ran inside it, at any depth.
        let mut deepest = 0;
        for id in shape.ran_inside(p.id) {
            let Some(u) = by_id.get(&id).filter(|u| u.kind == "loop") else { continue };
            let Some(info) = u.loop_info.as_ref() else { continue };
            let trips = shape.max_trips.get(&id).copied().unwrap_or(0);
            if trips < 2 || !same_trips_every_run(shape, id) {
                continue;
            }
            let step = crate::model::recurrence::recurrence_ii(&info.facts.recurrence, d.wide_multiply);
            if step == 0 {
                continue;
            }
            deepest = deepest.max(chain_of(d, u) + (trips - 1) * step);
        }
        if let (Some(Timing::Loop(l)), true) = (timing.get_mut(&p.id), deepest > 0) {
            if let Some(il) = l.il.as_mut() {
                *il = Sourced::new(il.value + deepest, Source::Default);
            }
        }
    }
}

/// Without a report: a pipelined loop's II is at least what its loop-carried recurrences allow
/// (`model::recurrence`): `sum += a[i] * b[i]` on floats starts an iteration once the previous
/// one's add is done, 5 states for a 4-cycle fadd (6 with a reset of the sum in front of it),
/// where the pragma or the default asks for 1. A partial unroll puts that many copies of the
/// cycle in one iteration. The held-out 2022.1 `spmv_accel`: II 6 in its report, 1 here before.
fn apply_recurrences(manifest: &Manifest, d: &Defaults, timing: &mut HashMap<u32, Timing>) {
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(Timing::Loop(l)) = timing.get_mut(&p.id) else { continue };
        if !l.pipelined.value || l.pipelined.source == Source::Report {
            continue;
        }
        let Some(info) = p.loop_info.as_ref() else { continue };
        let states = crate::model::recurrence::recurrence_ii(&info.facts.recurrence, d.wide_multiply);
        let copies = l.unroll.filter(|&f| f > 1).map_or(1, u64::from);
        let ii = states * copies;
        if ii > 0 && l.ii.is_none_or(|cur| cur.value < ii) {
            l.ii = Some(Sourced::new(ii, Source::Default));
        }
    }
}

/// Without a report: an iteration of a loop that is not pipelined takes at least the states
/// its memory accesses need on the busiest bank (`model::ports`: a bank serves its ports'
/// accesses a state, 2 unless its storage says) and one more for the last read's data: an
/// array it reads several times an iteration (a local one too: nothing partitions it for a
/// loop that is not pipelined) holds it longer than the default 2. The public Vivado HLS
/// 2016.4 `sha256`'s message schedule `m[i] = f(m[i-2]) + m[i-7] + g(m[i-15]) + m[i-16]`, four
/// reads and a write of one local array, takes 4 an iteration in its report (3 states of
/// ports, then the data); the default gave 2. Only a body without loops inside: theirs make
/// their accesses in their own iterations.
fn apply_iteration_port_limits(manifest: &Manifest, callers: &CallerMemories, timing: &mut HashMap<u32, Timing>) {
    for p in manifest.probes.iter().filter(|p| p.kind == "loop") {
        let Some(Timing::Loop(l)) = timing.get_mut(&p.id) else { continue };
        if l.pipelined.value || l.report.is_some() || l.absent {
            continue;
        }
        let Some(own) = l.own.filter(|o| o.source == Source::Default) else { continue };
        // A loop inside the body makes its accesses in its own iterations, not in this one's.
        let memory =
            p.loop_info.as_ref().and_then(|i| i.facts.memory.as_ref()).filter(|m| m.vars.iter().all(|v| !v.inner));
        let Some(memory) = memory.map(|m| callers.apply(m, &p.function)) else { continue };
        let Some((states, _)) = crate::model::ports::port_states(&memory, |_| true) else { continue };
        if states + 1 > own.value {
            l.own = Some(Sourced::new(states + 1, Source::Default));
        }
    }
}

/// Cycles of an integer multiply of 32 bits or more on a chain at a clock of `clock_ns` on
/// `part`: one register stage at 10 ns (Vitis 2022.1 on a Zynq-7000: `mul_32s_32s_32_2_1`);
/// at 5 ns on a 7-series part, four stages and the add after it in a state of its own (the public
/// Vivado HLS 2019.2 `matrixmul` on a Zynq-7020: `MulnS` of latency 4, its product loop's
/// iteration 8 = two states, the read, five of the multiply and one of the add). Clocks under
/// 8 ns take the 5 ns figure on 7-series parts (and where the part is not known); other
/// families keep the 10 ns one (their DSPs are faster: not measured here).
pub fn wide_multiply_cycles(clock_ns: Option<f64>, part: Option<&str>) -> u64 {
    let seven_series = part.is_none_or(|p| p.to_ascii_lowercase().starts_with("xc7"));
    match clock_ns {
        Some(c) if c < 8.0 && seven_series => 5,
        _ => 1,
    }
}

fn pragma_ii(facts: &crate::model::pragma::LoopFacts) -> Sourced<u64> {
    match facts.pipeline_ii {
        Some(ii) if facts.from_directive_has("pipeline") => Sourced::new(u64::from(ii.max(1)), Source::Directive),
        Some(ii) => Sourced::new(u64::from(ii.max(1)), Source::Pragma),
        None => Sourced::new(1, Source::Default),
    }
}

/// The report module of a function and its numbered copies (`f`, `f_1`, `f_2`, ... or `f.1`;
/// facts, rule 6), in number order.
fn report_modules<'a>(r: &'a csynth::Report, p: &ProbeEntry) -> Vec<&'a csynth::Module> {
    let base = r.module(&p.name).or_else(|| r.module(&p.function)).map(|m| m.name.as_str());
    // Only numbered copies (`f_1`, no `f`): the copies of the function's own name.
    let base = base.or_else(|| r.module_of_function(&p.function).map(|_| p.function.as_str()));
    let Some(base) = base else { return Vec::new() };
    let mut copies: Vec<(u32, &csynth::Module)> = r
        .modules
        .iter()
        .filter_map(|m| {
            if m.name == base {
                return Some((0, m));
            }
            let rest = m.name.strip_prefix(base)?;
            let n = rest.strip_prefix('_').or_else(|| rest.strip_prefix('.'))?;
            let n: u32 = n.parse().ok()?;
            Some((n, m))
        })
        .collect();
    copies.sort_by_key(|(n, _)| *n);
    copies.into_iter().map(|(_, m)| m).collect()
}

impl ModuleTiming {
    /// A function without a module of its own: no handshake, its children count in the caller.
    /// `source` says how that is known (the report has no module for it, or INLINE).
    fn inlined(dataflow: bool, source: Source) -> Self {
        ModuleTiming {
            overhead: Sourced::new(0, source),
            fixed: None,
            dataflow,
            resources: None,
            report_module: None,
            latency: None,
            pipelined: false,
            copies: Vec::new(),
            inlined: true,
            initialisers: None,
            initialiser_notes: Vec::new(),
            body: None,
            children: None,
            memcpys: Vec::new(),
        }
    }
}

fn module_timing(
    p: &ProbeEntry,
    report: Option<&csynth::Report>,
    d: &Defaults,
    has_children: bool,
    top: &str,
) -> ModuleTiming {
    let info = p.module.as_deref();
    let dataflow = info.is_some_and(|m| m.dataflow);
    let mods = report.map(|r| report_modules(r, p)).unwrap_or_default();
    let default = Sourced::new(d.module_overhead, Source::Default);
    let Some(m) = mods.first().copied() else {
        if report.is_some() {
            // With a report, a function that has no module of its own was inlined into its
            // caller: it adds no handshake.
            return ModuleTiming::inlined(dataflow, Source::Report);
        }
        // No report: a function `#pragma HLS INLINE` (or an `inline` directive) dissolves into
        // its callers and adds no handshake.
        if p.name != top && info.is_some_and(|m| m.inline == Some(true)) {
            let source = if info.is_some_and(|m| m.from_directive.iter().any(|d| d.starts_with("inline"))) {
                Source::Directive
            } else {
                Source::Pragma
            };
            let (initialisers, initialiser_notes) = initialiser_cost(info, d);
            return ModuleTiming { initialisers, initialiser_notes, ..ModuleTiming::inlined(dataflow, source) };
        }
        // No report: a top with AXI interfaces (s_axilite control or arguments, m_axi ports) has
        // a longer handshake (rule 11); AXI4-Stream ports alone, under the block-level
        // handshake, do not (a public 2022.2 top of two pipelines writing an `axis` port:
        // 2 cycles beyond them in co-sim). A pipelined function is its pipeline's depth, whatever
        // ran inside (rule 8).
        let axi = info.is_some_and(|m| {
            m.control.as_deref() == Some("s_axilite")
                || m.params.iter().any(|q| matches!(q.interface.as_deref(), Some("m_axi" | "s_axilite")))
        });
        let pipelined = info.is_some_and(|m| m.pipeline_ii.is_some());
        // A top of combinational logic on scalars (`model::registers`) has no state to step
        // through: latency 0, whatever its interfaces (a public Vivado HLS 2018.2 add/subtract
        // top on s_axilite: 0 in its report and co-simulation).
        let combinational = p.name == top && !has_children && !pipelined && info.is_some_and(|m| m.combinational);
        let overhead = if combinational {
            Sourced::new(0, Source::Default)
        } else if p.name == top && axi {
            Sourced::new(d.axi_top_overhead, Source::Default)
        } else {
            default
        };
        // A pipelined function's arrays are registers of its pipeline: no module of their own.
        let (initialisers, initialiser_notes) = if pipelined { (None, Vec::new()) } else { initialiser_cost(info, d) };
        return ModuleTiming {
            overhead,
            fixed: None,
            dataflow,
            resources: None,
            report_module: None,
            latency: pipelined.then(|| csynth::Range::single(d.pipeline_depth)),
            pipelined,
            copies: Vec::new(),
            inlined: false,
            initialisers,
            initialiser_notes,
            body: None,
            children: None,
            memcpys: Vec::new(),
        };
    };
    let fixed = m
        .latency
        .as_ref()
        .and_then(|r| r.exact())
        .filter(|_| !has_children && m.loops.is_empty())
        .map(|v| Sourced::new(v, Source::Report));
    let resources = (!m.resources.is_empty()).then_some(m.resources);
    let (initialisers, initialiser_notes) =
        if m.latency.is_none() { generated_modules_cost(report, m) } else { (None, Vec::new()) };
    let copies: Vec<Copy> = if mods.len() > 1 {
        mods.iter().map(|c| Copy { name: c.name.clone(), latency: c.latency, pipelined: c.is_pipelined() }).collect()
    } else {
        Vec::new()
    };
    ModuleTiming {
        overhead: default,
        fixed,
        dataflow: dataflow || m.is_dataflow(),
        resources,
        report_module: Some(m.name.clone()),
        latency: m.latency,
        pipelined: m.is_pipelined(),
        copies,
        inlined: false,
        initialisers,
        initialiser_notes,
        body: None,
        children: children_range(report, m),
        memcpys: report_memcpys(report, m),
    }
}

/// A module whose latency the report leaves undefined is timed from its children, and the
/// modules Vitis generated at its own level (`<module>_Pipeline_<N>`, N a number: a `memcpy`
/// or an aggregate initialiser, rule 1) have no probe to stand for them: their latencies,
/// one after the other (the report does not say which of them overlap). A module with a
/// latency holds them already.
fn generated_modules_cost(report: Option<&csynth::Report>, m: &csynth::Module) -> (Option<Sourced<u64>>, Vec<String>) {
    let Some(r) = report else { return (None, Vec::new()) };
    let prefix = format!("{}_Pipeline_", m.name);
    let mut cost: Option<u64> = None;
    let mut notes = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for name in m.instances.iter().filter_map(|i| i.module.as_deref()) {
        let numbered =
            name.strip_prefix(&prefix).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !numbered || !seen.insert(name) {
            continue;
        }
        match r.modules.iter().find(|g| g.name == name).and_then(|g| g.latency) {
            Some(l) => {
                cost = Some(cost.unwrap_or(0) + l.min);
                notes.push(format!("{name} (generated by Vitis): {} cycles, from the report", l.min));
            }
            None => notes.push(format!("{name} (generated by Vitis) not counted: the report gives no latency")),
        }
    }
    // Vivado HLS writes an aggregate initialiser (`uint8 t[200] = {0}`) as a loop of the
    // module, `memset_<array>` (199 cycles for those 200 bytes in the public SHA_native_datatype
    // design, Vivado HLS 2018.3), which no probe stands for either.
    for l in m.loops.iter().filter(|l| l.name.starts_with("memset_")) {
        match l.latency.and_then(|r| r.exact()) {
            Some(c) => {
                cost = Some(cost.unwrap_or(0) + c);
                notes.push(format!("{} (the initialiser loop of Vivado HLS): {c} cycles, from the report", l.name));
            }
            None => notes.push(format!("{} (the initialiser loop of Vivado HLS) not counted: no latency", l.name)),
        }
    }
    (cost.map(|c| Sourced::new(c, Source::Report)), notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Vivado HLS 2018.3 module report (the public SHA_native_datatype design's
    /// `keccak_absorb`, cut): an undefined latency, an initialiser loop `memset_t` and the
    /// 20-character module of `KeccakF1600_StatePermute`.
    const VIVADO_ABSORB: &str = "\n\n================================================================\n\
        == Vivado HLS Report for 'keccak_absorb'\n================================================================\n\
        * Date:           Sun Apr 18 23:59:04 2021\n\n\
        * Version:        2018.3 (Build 2405991 on Thu Dec 06 23:56:15 MST 2018)\n* Project:        SHA\n\
        * Solution:       NDT_a\n* Product family: artix7l\n* Target device:  xc7a75tlftg256-2l\n\n\n\
        ================================================================\n== Performance Estimates\n\
        ================================================================\n+ Latency (clock cycles): \n    * Summary: \n\
        \x20   +-----+-----+-----+-----+---------+\n    |  Latency  |  Interval | Pipeline|\n\
        \x20   | min | max | min | max |   Type  |\n    +-----+-----+-----+-----+---------+\n\
        \x20   |    ?|    ?|    ?|    ?|   none  |\n    +-----+-----+-----+-----+---------+\n\n\
        \x20   + Detail: \n        * Instance: \n\
        \x20       +---------------------------------+----------------------+-----+-----+-----+-----+---------+\n\
        \x20       |                                 |                      |  Latency  |  Interval | Pipeline|\n\
        \x20       |             Instance            |        Module        | min | max | min | max |   Type  |\n\
        \x20       +---------------------------------+----------------------+-----+-----+-----+-----+---------+\n\
        \x20       |grp_KeccakF1600_StatePer_fu_404  |KeccakF1600_StatePer  |   62|   62|   62|   62|   none  |\n\
        \x20       +---------------------------------+----------------------+-----+-----+-----+-----+---------+\n\n\
        \x20       * Loop: \n\
        \x20       +-------------------------+-----+-----+----------+-----------+-----------+------+----------+\n\
        \x20       |                         |  Latency  | Iteration|  Initiation Interval  | Trip |          |\n\
        \x20       |        Loop Name        | min | max |  Latency |  achieved |   target  | Count| Pipelined|\n\
        \x20       +-------------------------+-----+-----+----------+-----------+-----------+------+----------+\n\
        \x20       |- memset_t               |  199|  199|         1|          -|          -|   200|    no    |\n\
        \x20       |- keccak_absorb_label6   |   25|   25|         1|          -|          -|    25|    no    |\n\
        \x20       +-------------------------+-----+-----+----------+-----------+-----------+------+----------+\n\n\n";

    /// Vivado HLS' copy loops name their sides (`memcpy..memptr` reads port `memptr` into a
    /// local, `memcpy.memptr.` writes it); a copy matches its port, direction and trip count.
    #[test]
    fn vivado_copy_loops_match_their_port_direction_and_trips() {
        let text = VIVADO_ABSORB
            .replace("memset_t               |  199|  199|         1", "memcpy..memptr         |   33|   33|         3")
            .replace("-|          -|   200|    no    |", "1|          1|    32|    yes   |")
            .replace("keccak_absorb_label6   |   25|   25|         1", "memcpy.memptr.a.V      |   17|   17|         3")
            .replace("-|          -|    25|    no    |", "1|          1|    16|    yes   |");
        let r = crate::csynth::parse_str(&text, "keccak_absorb_csynth.rpt").unwrap();
        let copies = report_memcpys(Some(&r), r.module("keccak_absorb").unwrap());
        let got: Vec<(&str, Option<&str>, u64, u64)> =
            copies.iter().map(|c| (c.name.as_str(), c.sides.as_deref(), c.trips, c.latency)).collect();
        assert_eq!(
            got,
            [("memcpy..memptr", Some(".memptr"), 32, 33), ("memcpy.memptr.a.V", Some("memptr.a.V"), 16, 17)]
        );
        assert!(copies[0].matches("memptr", true, 32));
        assert!(!copies[0].matches("memptr", false, 32), "it reads the port");
        assert!(!copies[0].matches("memptr", true, 16), "another size");
        assert!(!copies[0].matches("ptr", true, 32), "another port ending the same");
        assert!(copies[1].matches("memptr", false, 16));
        assert!(!copies[1].matches("a.V", false, 16), "the local side is not a port written");
    }

    /// Vitis (2021 on) makes each copy a `<module>_Pipeline_<N>` instance of one loop, which
    /// names neither side; a `_Pipeline_<loop>` module is a loop's, not a copy's.
    #[test]
    fn vitis_copy_modules_are_the_numbered_pipeline_instances() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/cycle/01_memcpy_local/csynth.xml");
        let r = crate::csynth::parse_file(path).unwrap();
        let copies = report_memcpys(Some(&r), r.module("vscale").unwrap());
        let names: Vec<&str> = copies.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["vscale_Pipeline_1", "vscale_Pipeline_2"]);
        assert!(copies.iter().all(|c| c.sides.is_none() && c.trips == 256 && c.matches("in", true, 256)));
    }

    #[test]
    fn vivado_initialiser_loops_count_in_a_module_of_undefined_latency() {
        let r = crate::csynth::parse_str(VIVADO_ABSORB, "keccak_absorb_csynth.rpt").unwrap();
        let m = r.module("keccak_absorb").unwrap();
        assert!(m.latency.is_none());
        let (cost, notes) = generated_modules_cost(Some(&r), m);
        assert_eq!(cost, Some(Sourced::new(199, Source::Report)), "{notes:?}");
        assert_eq!(notes, ["memset_t (the initialiser loop of Vivado HLS): 199 cycles, from the report"]);
    }

    /// Independent initialisers at a function's start run side by side (the systolic fixture's
    /// five 64-element modules: its top's latency is less than their sum): the largest counts.
    #[test]
    fn initialisers_cost_the_largest_and_an_unknown_size_is_said() {
        let m: crate::emit::manifest::ModuleInfo = serde_json::from_str(
            r#"{"dataflow": false, "returns_void": true, "params": [], "exits": 1, "initialisers": [
                {"array": "a", "line": 3, "dims": ["16"], "elements": 16},
                {"array": "b", "line": 4, "dims": ["8", "N"], "elements": 64},
                {"array": "c", "line": 5, "dims": ["M"], "unknown": "dimension `M`: not known"}]}"#,
        )
        .unwrap();
        let (cost, notes) = initialiser_cost(Some(&m), &Defaults::default());
        assert_eq!(cost, Some(Sourced::new(66, Source::Default)));
        assert_eq!(notes[1], "initialiser of b[8][N] (line 4): 64 elements, 66 cycles");
        assert_eq!(notes[2], "initialiser of c[M] (line 5) not counted: dimension `M`: not known");
        assert_eq!(initialiser_cost(None, &Defaults::default()), (None, Vec::new()));
    }

    fn manifest(json: &str) -> Manifest {
        serde_json::from_str(json).unwrap()
    }

    const TWO_LOOPS: &str = r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],
      "files":[],"skipped":[],"probes":[
      {"id":0,"kind":"function","file":"k.cpp","line":1,"column":1,"function":"k","name":"k",
       "module":{"dataflow":false,"returns_void":true,"params":[],"exits":1}},
      {"id":1,"kind":"loop","file":"k.cpp","line":3,"column":1,"function":"k","name":"l1","label":"l1",
       "vitis_name":"VITIS_LOOP_3_1","parent":0,"loop":{"kind":"for","depth":0,"pipeline_ii":2}},
      {"id":2,"kind":"loop","file":"k.cpp","line":9,"column":1,"function":"k","name":"VITIS_LOOP_9_2",
       "vitis_name":"VITIS_LOOP_9_2","parent":0,"loop":{"kind":"for","depth":0}}]}"#;

    fn shape_100() -> RunShape {
        RunShape { max_trips: HashMap::from([(2, 100)]), ..RunShape::default() }
    }

    #[test]
    fn without_a_report_pragmas_then_defaults() {
        let t = build(&manifest(TWO_LOOPS), None, &Defaults::default(), &RunShape::default(), "k");
        let Timing::Loop(l1) = &t[&1] else { panic!() };
        assert_eq!(l1.pipelined, Sourced::new(true, Source::Pragma));
        assert_eq!(l1.ii, Some(Sourced::new(2, Source::Pragma)));
        // The tail beyond (TC − 1) × II: depth 1 (an empty chain) − 1, plus the `_Pipeline_`
        // module's 2 (rule 3).
        assert_eq!(l1.il, Some(Sourced::new(2, Source::Default)));
        let Timing::Loop(l2) = &t[&2] else { panic!() };
        assert!(!l2.pipelined.value);
        assert_eq!(l2.own, Some(Sourced::new(2, Source::Default)));
        // The run saw 100 trips of the innermost loop l2: Vitis pipelines it by default (rule 9).
        let t = build(&manifest(TWO_LOOPS), None, &Defaults::default(), &shape_100(), "k");
        let Timing::Loop(l2) = &t[&2] else { panic!() };
        assert_eq!(
            (l2.pipelined, l2.ii),
            (Sourced::new(true, Source::Default), Some(Sourced::new(1, Source::Default)))
        );
        let no_auto = Defaults { pipeline_loops: 0, ..Defaults::default() };
        let t = build(&manifest(TWO_LOOPS), None, &no_auto, &shape_100(), "k");
        let Timing::Loop(l2) = &t[&2] else { panic!() };
        assert!(!l2.pipelined.value, "pipeline_loops 0 turns the default off");
        let Timing::Module(m) = &t[&0] else { panic!() };
        assert_eq!(m.overhead, Sourced::new(2, Source::Default));
    }

    /// `k(int *a)` with an m_axi port and a loop `outer` around a loop `inner`, no pragmas.
    const DEFAULTS_ONLY: &str = r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],
      "files":[],"skipped":[],"probes":[
      {"id":0,"kind":"function","file":"k.cpp","line":1,"column":1,"function":"k","name":"k",
       "module":{"dataflow":false,"returns_void":true,"params":[{"name":"a","type":"int *","kind":"pointer","interface":"m_axi"}],"exits":1}},
      {"id":1,"kind":"loop","file":"k.cpp","line":3,"column":1,"function":"k","name":"outer","label":"outer",
       "vitis_name":"VITIS_LOOP_3_1","parent":0,"loop":{"kind":"for","depth":0}},
      {"id":2,"kind":"loop","file":"k.cpp","line":4,"column":1,"function":"k","name":"inner","label":"inner",
       "vitis_name":"VITIS_LOOP_4_2","parent":1,"loop":{"kind":"for","depth":1}}]}"#;

    fn shape(outer: u64, inner: u64) -> RunShape {
        RunShape {
            max_trips: HashMap::from([(1, outer), (2, inner)]),
            min_trips: HashMap::from([(1, outer), (2, inner)]),
            inner: HashMap::from([(0, [1].into()), (1, [2].into())]),
        }
    }

    /// An inner loop whose bound varies (`j < i`) cannot be unrolled: without a pragma it is the
    /// pipeline itself, not its parent; under a pipeline pragma on its parent neither is
    /// pipelined (the pragma cannot be applied).
    #[test]
    fn a_loop_whose_trips_vary_is_not_unrolled_into_a_pipeline() {
        let d = Defaults::default();
        let mut varying = shape(10, 8);
        varying.min_trips.insert(2, 1);
        let t = build(&manifest(DEFAULTS_ONLY), None, &d, &varying, "k");
        assert_eq!((pipelined_of(&t, 1).value, pipelined_of(&t, 2).value), (false, true));
        let pragma = DEFAULTS_ONLY
            .replace(r#""loop":{"kind":"for","depth":0}"#, r#""loop":{"kind":"for","depth":0,"pipeline_ii":1}"#);
        let m = manifest(&pragma);
        let t = build(&m, None, &d, &shape(10, 8), "k");
        assert_eq!(pipelined_of(&t, 1), Sourced::new(true, Source::Pragma), "a constant bound: the pragma holds");
        let t = build(&m, None, &d, &varying, "k");
        assert_eq!(
            (pipelined_of(&t, 1), pipelined_of(&t, 2)),
            (Sourced::new(false, Source::Pragma), Sourced::new(false, Source::Pragma))
        );
    }

    fn pipelined_of(t: &HashMap<u32, Timing>, id: u32) -> Sourced<bool> {
        match &t[&id] {
            Timing::Loop(l) => l.pipelined,
            _ => panic!("not a loop"),
        }
    }

    #[test]
    fn vitis_default_pipelining_takes_the_innermost_loop_or_its_parent() {
        let m = manifest(DEFAULTS_ONLY);
        let d = Defaults::default();
        // 100 inner trips (> 64): the inner loop is the pipeline.
        let t = build(&m, None, &d, &shape(10, 100), "k");
        assert_eq!((pipelined_of(&t, 1).value, pipelined_of(&t, 2)), (false, Sourced::new(true, Source::Default)));
        // 8 inner trips (<= 64): unrolled into the outer loop, which is the pipeline.
        let t = build(&m, None, &d, &shape(10, 8), "k");
        assert_eq!((pipelined_of(&t, 1), pipelined_of(&t, 2).value), (Sourced::new(true, Source::Default), false));
        // The project's threshold decides.
        let t = build(&m, None, &Defaults { pipeline_loops: 4, ..d }, &shape(10, 8), "k");
        assert!(pipelined_of(&t, 2).value && !pipelined_of(&t, 1).value);
        // The top has an m_axi port: its handshake is the AXI one (rule 11); not for another name.
        let Timing::Module(k) = &t[&0] else { panic!() };
        assert_eq!(k.overhead, Sourced::new(13, Source::Default));
        let t = build(&m, None, &d, &shape(10, 8), "other_top");
        let Timing::Module(k) = &t[&0] else { panic!() };
        assert_eq!(k.overhead, Sourced::new(2, Source::Default));
    }

    #[test]
    fn without_a_report_a_perfect_nest_around_a_pipeline_is_flattened() {
        let m = nest_manifest(["outer", "mid", "inner"]);
        let t = build(&m, None, &Defaults::default(), &RunShape::default(), "k");
        assert_eq!(
            roles(&t),
            [role("head", "outer_mid_inner"), role("member", "outer_mid_inner"), role("member", "outer_mid_inner")]
        );
        let Timing::Loop(head) = &t[&1] else { panic!() };
        assert_eq!(head.ii, Some(Sourced::new(1, Source::Pragma)), "the innermost loop's pragma");
        assert_eq!(roles(&build(&m, Some(&report("")), &Defaults::default(), &RunShape::default(), "k"))[0], None);
    }

    /// A function `k` with a perfect nest of three loops at lines 3, 4, 5 (C simulation: one
    /// probe each), the outermost named `outer`, the others as given.
    fn nest_manifest(names: [&str; 3]) -> Manifest {
        let member = |i: usize| {
            let n = names[i];
            let label = if n.starts_with("VITIS_LOOP_") { String::new() } else { format!(r#""label":"{n}","#) };
            format!(
                r#"{{"name":"{n}",{label}"vitis_name":"VITIS_LOOP_{}_{}","line":{},"column":{}}}"#,
                3 + i,
                i + 1,
                3 + i,
                3 + 2 * i
            )
        };
        let members = (0..3).map(member).collect::<Vec<_>>().join(",");
        let probe = |i: usize| {
            let n = names[i];
            let nest = if i == 0 {
                format!(
                    r#","nest":{{"probed":"per_loop","flattened_name":"{}","members":[{members}]}}"#,
                    names.join("_")
                )
            } else {
                String::new()
            };
            format!(
                r#"{{"id":{},"kind":"loop","file":"src/k.cpp","line":{},"column":{},"function":"k","name":"{n}",
                 "vitis_name":"VITIS_LOOP_{}_{}","parent":{},"loop":{{"kind":"for","depth":{i}{}}}{nest}}}"#,
                i + 1,
                3 + i,
                3 + 2 * i,
                3 + i,
                i + 1,
                i,
                if i == 2 { r#","pipeline_ii":1"# } else { "" }
            )
        };
        manifest(&format!(
            r#"{{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],"files":[],"skipped":[],"probes":[
              {{"id":0,"kind":"function","file":"src/k.cpp","line":1,"column":1,"function":"k","name":"k",
               "module":{{"dataflow":false,"returns_void":true,"params":[],"exits":1}}}},{},{},{}]}}"#,
            probe(0),
            probe(1),
            probe(2)
        ))
    }

    /// A 2022.1-style report of module `k` with the given `<SummaryOfLoopLatency>` content.
    fn report(loops: &str) -> csynth::Report {
        let xml = format!(
            r#"<profile><ReportVersion><Version>2023.2</Version></ReportVersion><UserAssignments><TopModelName>k</TopModelName></UserAssignments>
            <ModuleInformation><Module><Name>k</Name><PerformanceEstimates><SummaryOfOverallLatency><Best-caseLatency>1</Best-caseLatency>
            <Worst-caseLatency>999</Worst-caseLatency></SummaryOfOverallLatency><SummaryOfLoopLatency>{loops}</SummaryOfLoopLatency>
            </PerformanceEstimates></Module></ModuleInformation></profile>"#
        );
        csynth::parse_str(&xml, "csynth.xml").unwrap()
    }

    fn pipelined_loop(name: &str, ii: u64, depth: u64, inner: &str) -> String {
        format!(
            "<L><Name>{name}</Name><TripCount>64</TripCount><PipelineII>{ii}</PipelineII><PipelineDepth>{depth}</PipelineDepth>\
             <PipelineType>yes</PipelineType>{inner}</L>"
        )
    }

    fn roles(t: &HashMap<u32, Timing>) -> Vec<Option<(String, String)>> {
        (1..=3)
            .map(|id| match &t[&id] {
                Timing::Loop(l) => l.nest.as_ref().map(|n| match n {
                    NestRole::Head { flattened_name, .. } => ("head".to_string(), flattened_name.clone()),
                    NestRole::Member { flattened_name, .. } => ("member".to_string(), flattened_name.clone()),
                }),
                _ => None,
            })
            .collect()
    }

    fn role(r: &str, name: &str) -> Option<(String, String)> {
        Some((r.to_string(), name.to_string()))
    }

    #[test]
    fn a_flattened_nest_is_found_by_its_joined_name_and_times_its_loops() {
        let m = nest_manifest(["outer", "mid", "inner"]);
        let t = build(
            &m,
            Some(&report(&pipelined_loop("outer_mid_inner", 2, 9, ""))),
            &Defaults::default(),
            &RunShape::default(),
            "k",
        );
        assert_eq!(
            roles(&t),
            [role("head", "outer_mid_inner"), role("member", "outer_mid_inner"), role("member", "outer_mid_inner")]
        );
        let Timing::Loop(head) = &t[&1] else { panic!() };
        // No latency in this report: the tail is depth − 1 (rule 3).
        assert_eq!((head.ii, head.il), (Some(Sourced::new(2, Source::Report)), Some(Sourced::new(8, Source::Report))));
        assert!(matches!(head.nest, Some(NestRole::Head { innermost: 3, .. })));
        let Timing::Loop(inner) = &t[&3] else { panic!() };
        assert_eq!((inner.pipelined.value, inner.own), (false, Some(Sourced::new(0, Source::Report))));
        // A `.N` copy of the flattened loop is the same loop.
        let t = build(
            &m,
            Some(&report(&pipelined_loop("outer_mid_inner.2", 1, 3, ""))),
            &Defaults::default(),
            &RunShape::default(),
            "k",
        );
        assert_eq!(roles(&t)[0], role("head", "outer_mid_inner"));
    }

    #[test]
    fn only_the_inner_loops_flattened_make_a_nest_of_their_own() {
        let m = nest_manifest(["outer", "mid", "inner"]);
        let rep = report(&format!(
            "<outer><Name>outer</Name><TripCount>4</TripCount><IterationLatency>70</IterationLatency>{}</outer>",
            pipelined_loop("mid_inner", 1, 6, "")
        ));
        let t = build(&m, Some(&rep), &Defaults::default(), &RunShape::default(), "k");
        assert_eq!(roles(&t), [None, role("head", "mid_inner"), role("member", "mid_inner")]);
        let Timing::Loop(outer) = &t[&1] else { panic!() };
        assert_eq!(outer.report_loop.as_deref(), Some("k/outer"), "the outer loop keeps its own entry");
    }

    #[test]
    fn vitis_names_match_by_lines_and_other_names_by_source_location() {
        // Unlabeled loops: the tool counted the ordinals differently, the lines agree.
        let m = nest_manifest(["VITIS_LOOP_3_1", "VITIS_LOOP_4_2", "VITIS_LOOP_5_3"]);
        let name = "VITIS_LOOP_3_4_VITIS_LOOP_4_5_VITIS_LOOP_5_6";
        let t =
            build(&m, Some(&report(&pipelined_loop(name, 1, 4, ""))), &Defaults::default(), &RunShape::default(), "k");
        assert_eq!(roles(&t)[0], role("head", "VITIS_LOOP_3_1_VITIS_LOOP_4_2_VITIS_LOOP_5_3"));
        let Timing::Loop(head) = &t[&1] else { panic!() };
        assert_eq!(head.report_loop.as_deref(), Some(&*format!("k/{name}")));
        // Another name, placed by the report at the outermost loop's line of the same file.
        let m = nest_manifest(["outer", "mid", "inner"]);
        let at = |file: &str, line: u32| {
            let xml = format!(
                r#"<profile><ReportVersion><Version>2023.2</Version></ReportVersion><UserAssignments><TopModelName>k</TopModelName></UserAssignments>
                <ModuleInformation><Module><Name>k</Name><PerformanceEstimates><SummaryOfLoopLatency>{}</SummaryOfLoopLatency>
                <SummaryOfViolations><SummaryOfLoopViolations><merged><Name>merged</Name><SourceLocation>{file}:{line}</SourceLocation></merged>
                </SummaryOfLoopViolations></SummaryOfViolations></PerformanceEstimates></Module></ModuleInformation></profile>"#,
                pipelined_loop("merged", 1, 4, "")
            );
            build(
                &m,
                Some(&csynth::parse_str(&xml, "csynth.xml").unwrap()),
                &Defaults::default(),
                &RunShape::default(),
                "k",
            )
        };
        assert_eq!(roles(&at("proj/src/k.cpp", 3))[0], role("head", "outer_mid_inner"));
        assert_eq!(roles(&at("proj/src/k.cpp", 4))[0], None, "not the outermost loop's line");
        assert_eq!(roles(&at("other.cpp", 3))[0], None, "another file");
    }

    #[test]
    fn without_a_flattened_loop_in_the_report_the_loops_stay_apart() {
        let m = nest_manifest(["outer", "mid", "inner"]);
        let rep = report(&format!(
            "<outer><Name>outer</Name><TripCount>4</TripCount><IterationLatency>70</IterationLatency>\
             <mid><Name>mid</Name><TripCount>4</TripCount><IterationLatency>9</IterationLatency>{}</mid></outer>",
            pipelined_loop("inner", 1, 6, "")
        ));
        let t = build(&m, Some(&rep), &Defaults::default(), &RunShape::default(), "k");
        assert_eq!(roles(&t), [None, None, None]);
        let Timing::Loop(inner) = &t[&3] else { panic!() };
        assert_eq!(inner.report_loop.as_deref(), Some("k/inner"));
    }
}
