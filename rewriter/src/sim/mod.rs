//! `hlsinstr sim`: the HLScope software-simulation flow without a vendor tool.
//!
//! The pipeline, one module per stage: [`run`] (rewrite, compile with g++, run the testbench,
//! collect the log) → [`events`] (read the log) → [`timing`] (static cost of every probe from
//! the csynth report, pragmas or defaults) → [`replay`] (the cycle model over the log) →
//! [`report`] (PCP, stalls and reasons, bandwidth) → [`output`] (terminal, JSON, CSV, Markdown,
//! VCD, Chrome trace).

mod axilite_2019;
pub mod coverage;
pub mod csim_dir;
pub mod directives;
pub mod estimate;
pub mod events;
pub mod fastmap;
mod flow_interfaces;
pub mod headers;
mod install_include;
pub mod logpipe;
pub mod maxi_wait;
mod names;
pub mod output;
pub mod parcalls;
pub mod relations;
pub mod replay;
pub mod report;
pub mod run;
pub mod shadow;
pub mod silent;
pub mod stream;
pub mod timing;
mod vivado_loops;
pub mod watch;

use crate::csynth;
use crate::emit::manifest::Manifest;
use crate::error::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};

/// What the analysis needs besides the log and the manifest.
#[derive(Debug, Clone)]
pub struct AnalysisOptions {
    pub top: String,
    /// Clock period; `None` takes the report's, then Vitis' default of 10 ns.
    pub clock_ns: Option<f64>,
    pub dram: Option<replay::Dram>,
    pub defaults: timing::Defaults,
    pub csynth: Option<PathBuf>,
    pub stall_threshold_pct: f64,
    /// Timeline invocations to keep for `--vcd` / `--trace` (0: none).
    pub timeline_nodes: usize,
    /// Top-level calls `[start, end)` the timeline shows (`--trace-window`); `None`: from the first.
    pub trace_window: Option<(u64, u64)>,
    /// Original source lines by manifest file path (the annotated table shows them).
    pub sources: std::collections::HashMap<String, Vec<String>>,
    /// The co-simulation's per-call figures, to compare with.
    pub cosim: Option<estimate::CosimTruth>,
    /// The project's dataflow channels default to FIFOs (`syn.dataflow.default_channel=fifo`).
    pub fifo_arrays: bool,
    /// The tool release the project file names (`Project::tool_version_hint`): without a report,
    /// which co-sim testbench counts the calls.
    pub tool_version: Option<String>,
    /// The m_axi latency the project's flow target schedules for (`Project::maxi_latency_default`):
    /// without a report, the memory latency in place of the board's.
    pub maxi_latency: Option<u64>,
    /// The project is the Vitis kernel flow's (`flow_target` `vitis`): without a report, the
    /// top's ports no pragma names take that flow's interfaces (`flow_interfaces`).
    pub kernel_flow: bool,
}

/// The report and the replay it came from (the timeline writers need the latter).
pub struct Analysis {
    pub report: report::Report,
    pub replay: replay::Replay,
    /// Probes that never fired while their parent ran ([`silent`]).
    pub silent: Vec<String>,
    /// With `branches` probes, the branch trace's records (for [`coverage::decode`]; the cycle
    /// model does not take them), else empty.
    pub trace: Vec<events::Record>,
    /// With `watch` probes: the watch events ([`watch`]).
    pub watch: watch::WatchLog,
}

/// Reads a manifest file, refusing other formats and versions.
pub fn read_manifest(path: &Path) -> Result<Manifest> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
    let m: Manifest = serde_json::from_str(&text)
        .map_err(|e| Error::new(ErrorKind::BadInput, format!("not an hlsinstr manifest: {e}")).at(path))?;
    if m.format != crate::emit::manifest::FORMAT || m.version != crate::emit::manifest::VERSION {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "manifest format {} version {} is not {} version {}: rewrite again with this hlsinstr",
                m.format,
                m.version,
                crate::emit::manifest::FORMAT,
                crate::emit::manifest::VERSION
            ),
        )
        .at(path));
    }
    Ok(m)
}

/// What the run shows of each loop probe before any cycle is counted: its largest trip count
/// (a loop's end record carries it), and whether another probed loop or function ran inside it
/// (then it is not an innermost loop Vitis would pipeline by default). Fed one record at a time,
/// into arrays by probe id (an array update or two per record; a pair of probes already seen
/// is known from the last one seen inside the outer probe, without a lookup), handed over as a
/// [`timing::RunShape`].
#[derive(Default)]
struct ShapeBuilder {
    max_trips: fastmap::IdVec<Option<u64>>,
    min_trips: fastmap::IdVec<Option<u64>>,
    /// (outer, inner) probe pairs seen.
    inner: fastmap::FastSet<(u32, u32)>,
    /// Per outer probe, the last two inner probes seen (+ 1; 0: none): a loop running two
    /// in turn needs no lookup either.
    last_inner: fastmap::IdVec<[u64; 2]>,
    open: fastmap::ThreadStacks<Vec<u32>>,
    /// The shape changed since [`ShapeBuilder::shape`] was last taken.
    changed: bool,
}

impl ShapeBuilder {
    fn new(probes: usize) -> Self {
        let bound = 4 * probes + 1024;
        ShapeBuilder {
            max_trips: fastmap::IdVec::with_bound(bound),
            min_trips: fastmap::IdVec::with_bound(bound),
            last_inner: fastmap::IdVec::with_bound(bound),
            ..Default::default()
        }
    }

    #[inline(always)]
    fn push(&mut self, r: &events::Record) {
        let stack = self.open.get(r.thread);
        match r.event {
            events::Event::Begin => {
                if let Some(&outer) = stack.last() {
                    let last = self.last_inner.get_mut(outer);
                    let id = u64::from(r.probe) + 1;
                    if !last.contains(&id) {
                        *last = [id, last[0]];
                        self.changed |= self.inner.insert((outer, r.probe));
                    }
                }
                stack.push(r.probe);
            }
            events::Event::End => {
                stack.pop();
                if let Some(v) = r.value {
                    let e = self.max_trips.get_mut(r.probe).get_or_insert(0);
                    if v > *e {
                        *e = v;
                        self.changed = true;
                    }
                    let e = self.min_trips.get_mut(r.probe).get_or_insert(v);
                    if v < *e {
                        *e = v;
                        self.changed = true;
                    }
                }
            }
            _ => {}
        }
    }

    /// The shape so far.
    fn shape(&mut self) -> timing::RunShape {
        self.changed = false;
        let mut shape = timing::RunShape {
            max_trips: self.max_trips.iter().filter_map(|(k, v)| Some((k, (*v)?))).collect(),
            min_trips: self.min_trips.iter().filter_map(|(k, v)| Some((k, (*v)?))).collect(),
            ..Default::default()
        };
        for &(outer, inner) in &self.inner {
            shape.inner.entry(outer).or_default().insert(inner);
        }
        shape
    }
}

/// Log + manifest (+ report) → stall report, reading the log once, as a stream: memory does
/// not grow with its length (but for the branch trace's own records). See [`analyze_records`]
/// for how one pass gives what two did.
pub fn analyze(log: &Path, manifest: &Manifest, opts: &AnalysisOptions) -> Result<Analysis> {
    analyze_stream(events::open(log)?, &|| events::open(log), manifest, opts).map_err(|e| e.or_at(log))
}

/// As [`analyze`], over a log read from `stream` (the testbench's pipe as it arrives, say);
/// `reopen` reads it again from the start, which the cycle model needs only when the run's
/// shape turned out other than it first looked (see [`analyze_records`]).
pub fn analyze_stream(
    mut stream: events::Stream<'_>,
    reopen: &dyn Fn() -> Result<events::Stream<'static>>,
    manifest: &Manifest,
    opts: &AnalysisOptions,
) -> Result<Analysis> {
    let mut again = |visit: &mut dyn FnMut(&[events::Record]) -> Result<()>| -> Result<()> {
        let mut s = reopen()?;
        loop {
            let batch = s.next_batch()?;
            if batch.is_empty() {
                return Ok(());
            }
            visit(batch)?;
        }
    };
    let mut a = analyze_inner(&mut stream, &mut again, manifest, opts)?;
    // Said where the reader had to approximate (threads merged past its window; a second read
    // merges the same way).
    a.report.warnings.extend(stream.notes());
    Ok(a)
}

/// As [`analyze`], over records in memory.
///
/// The cycle model's defaults (Vitis' automatic pipelining, without a report) depend on the
/// run's largest trip counts and on which probes ran inside which, known only at the end; the
/// log used to be read twice for that. Now the model starts once the first
/// [`SHAPE_RECORDS`] records have shown the run's shape (at once when a report makes the
/// defaults moot) and runs beside the gathering of the shape; at the end the defaults the whole
/// run calls for are worked out again, and only if they differ from the ones the model ran with
/// is the log read a second time (a loop whose trip count crossed the threshold late, say). So
/// the result is what two passes gave, always.
pub fn analyze_records(records: &[events::Record], manifest: &Manifest, opts: &AnalysisOptions) -> Result<Analysis> {
    let mut again = |visit: &mut dyn FnMut(&[events::Record]) -> Result<()>| -> Result<()> { visit(records) };
    analyze_inner(&mut InMemory(Some(records)), &mut again, manifest, opts)
}

/// Where the analysis takes its records from, a slice at a time (a whole buffer of the log: a
/// call per record cost more than most of what is done with one).
trait Batches {
    /// The next records in order; empty at the end.
    fn next_batch(&mut self) -> Result<&[events::Record]>;
}

impl Batches for events::Stream<'_> {
    fn next_batch(&mut self) -> Result<&[events::Record]> {
        events::Stream::next_batch(self)
    }
}

/// Records in memory: one batch.
struct InMemory<'r>(Option<&'r [events::Record]>);

impl Batches for InMemory<'_> {
    fn next_batch(&mut self) -> Result<&[events::Record]> {
        Ok(self.0.take().unwrap_or(&[]))
    }
}

/// Records held before the cycle model starts, when the run's shape decides its defaults.
const SHAPE_RECORDS: usize = 1 << 16;
/// Records between two checks that the shape still calls for the defaults the model runs with
/// (only when the shape changed): a model already wrong is stopped early.
const RECHECK_RECORDS: u64 = 1 << 20;

/// What the one read of the log gathers besides the cycle model: the run's shape, which probes
/// fired, and (with `branches` probes) the branch trace's records.
struct FirstPass {
    shape: ShapeBuilder,
    fired: silent::Fired,
    branches: bool,
    trace: Vec<events::Record>,
    watch: watch::WatchLog,
}

impl FirstPass {
    fn new(manifest: &Manifest) -> Self {
        FirstPass {
            shape: ShapeBuilder::new(manifest.probes.len()),
            fired: silent::Fired::new(manifest.probes.len()),
            branches: manifest.branches.is_some(),
            trace: Vec::new(),
            watch: watch::WatchLog::default(),
        }
    }

    #[inline(always)]
    fn push(&mut self, r: &events::Record) {
        self.shape.push(r);
        self.fired.add(r);
        if let events::Event::Watch { .. } = r.event {
            self.watch.push(r);
        }
        if self.branches && r.event == events::Event::Trace {
            self.trace.push(r.clone());
        }
    }
}

/// Reads the log again from the start, handing every record to the visitor.
type ReadAgain<'v> = dyn FnMut(&mut dyn FnMut(&[events::Record]) -> Result<()>) -> Result<()> + 'v;

/// The cycle model started on a guess of the run's shape (see [`analyze_records`]).
enum Model<'a> {
    /// Records held until the shape shows.
    Holding(Vec<events::Record>),
    Running(Box<replay::Replayer<'a>>),
    /// Its first error (a corrupt log): reported once the whole log was read, as the second of
    /// two passes would have, after any error of the reading itself.
    Failed(Error),
    /// The shape changed the defaults: the log is read again at the end.
    Abandoned,
}

fn analyze_inner(
    source: &mut dyn Batches,
    again: &mut ReadAgain<'_>,
    manifest: &Manifest,
    opts: &AnalysisOptions,
) -> Result<Analysis> {
    // Functions named through a macro are looked up by the name Vitis gives them.
    let renamed = names::vitis_named(manifest, &opts.top).map(|(m, top)| (m, AnalysisOptions { top, ..opts.clone() }));
    let (manifest, opts) = match renamed.as_ref() {
        Some((m, o)) => (m, o),
        None => (manifest, opts),
    };
    // A report says where the ports went; without one, the kernel flow's defaults do.
    let flow_defaults = (opts.kernel_flow && opts.csynth.is_none())
        .then(|| flow_interfaces::kernel_flow_defaults(manifest, &opts.top))
        .flatten();
    let manifest = flow_defaults.as_ref().unwrap_or(manifest);
    let csynth = match &opts.csynth {
        Some(p) => Some((p.clone(), csynth::parse_file(p)?)),
        None => None,
    };
    let rep = csynth.as_ref().map(|(_, r)| r);
    // The report's burst table says which reads were bursts; without one, reads of two ports of
    // a bundle in one loop are not.
    let single_reads_known = match rep {
        Some(r) if r.maxi_bursts.is_some() => maxi_wait::reads_the_report_did_not_burst(manifest, r),
        _ => maxi_wait::reads_sharing_a_bundle_are_single(manifest),
    };
    let manifest = single_reads_known.as_ref().unwrap_or(manifest);
    let relations = relations::Relations::with_default_channel(manifest, opts.fifo_arrays);
    let clock = match (opts.clock_ns, rep.and_then(|r| r.target_clock_ns)) {
        (Some(c), _) => timing::Sourced::new(c, timing::Source::Project),
        (None, Some(c)) => timing::Sourced::new(c, timing::Source::Report),
        (None, None) => timing::Sourced::new(crate::project::DEFAULT_CLOCK_NS, timing::Source::Default),
    };
    // The m_axi latency the schedule assumed (the report's HW Interfaces table), not a board's.
    let report_maxi_latency = rep.and_then(|r| r.maxi.iter().filter_map(|m| m.latency).max());
    let (dram, dram_source) = match (opts.dram, report_maxi_latency) {
        (Some(d), _) => (d, timing::Source::Project),
        (None, Some(cycles)) => (
            replay::Dram { latency_ns: cycles as f64 * clock.value, ..replay::Dram::default() },
            timing::Source::Report,
        ),
        // Without a report, the latency the project's flow target makes Vitis schedule for: the
        // RTL waits for the bus as the schedule does, not for a board's DRAM.
        (None, None) => match opts.maxi_latency {
            Some(cycles) => (
                replay::Dram { latency_ns: cycles as f64 * clock.value, ..replay::Dram::default() },
                timing::Source::Project,
            ),
            None => (replay::Dram::default(), timing::Source::Default),
        },
    };
    let ropts = replay::Options {
        clock_ns: clock.value,
        dram,
        max_nodes: opts.timeline_nodes,
        bulk_transfers: rep.is_none(),
        copy_tail: 1 + opts.defaults.pipeline_wrapper,
        // Where a copy is a loop of its function's own states (no `_Pipeline_` module: Vivado HLS,
        // Vitis before 2021), those states wait the latency; from 2021 a copy is a module whose
        // caller's states are its top's ~13 beyond its children (facts, rules 1 and 11).
        copy_latency: match (rep, opts.defaults.pipeline_wrapper) {
            (None, 0) => opts.maxi_latency.unwrap_or(0),
            _ => 0,
        },
        // No `_Pipeline_` module around a loop (Vivado HLS, Vitis before 2021): a copy is a
        // loop of its function's state machine, as the wrapper's absence says.
        copies_in_sequence: opts.defaults.pipeline_wrapper == 0,
        window: opts.trace_window,
        top: opts.top.clone(),
        single_reads: single_reads(rep, report_maxi_latency, opts),
        reads_bound_ii: true,
    };
    let build = |shape: &timing::RunShape| timing::build(manifest, rep, &opts.defaults, shape, &opts.top);
    // Without a report the defaults depend on the shape: hold the first records until it shows.
    let hold = if rep.is_none() && opts.defaults.pipeline_loops != 0 { SHAPE_RECORDS } else { 0 };
    let mut first = FirstPass::new(manifest);
    let guess: std::cell::OnceCell<std::collections::HashMap<u32, timing::Timing>> = std::cell::OnceCell::new();
    let mut model = Model::Holding(Vec::new());
    let mut since_check = 0u64;
    loop {
        let batch = source.next_batch()?;
        if batch.is_empty() {
            break;
        }
        // Record by record while the model waits for the shape (the record that starts it is in
        // the shape it starts on) ...
        let mut at = 0;
        while let (Some(r), Model::Holding(held)) = (batch.get(at), &mut model) {
            at += 1;
            first.push(r);
            if held.len() < hold {
                held.push(r.clone());
                continue;
            }
            let held = std::mem::take(held);
            let timing = guess.get_or_init(|| build(&first.shape.shape()));
            let mut replayer = replay::Replayer::new(manifest, timing, &relations, &ropts);
            model = match held.iter().chain([r]).try_for_each(|h| replayer.push(h)) {
                Ok(()) => Model::Running(Box::new(replayer)),
                Err(e) => Model::Failed(e),
            };
        }
        // ... then the rest of the batch in one tight loop: the model's state is looked at once
        // per batch, not per record.
        let rest = &batch[at..];
        let mut taken = 0;
        if let Model::Running(replayer) = &mut model {
            for r in rest {
                taken += 1;
                first.push(r);
                if let Err(e) = replayer.push(r) {
                    model = Model::Failed(e);
                    break;
                }
            }
        }
        rest[taken..].iter().for_each(|r| first.push(r));
        // Whether the shape still calls for the model's defaults, checked between batches: when
        // the model is abandoned matters only to how much work is wasted, not to the result.
        since_check += batch.len() as u64;
        if since_check >= RECHECK_RECORDS && first.shape.changed {
            since_check = 0;
            if let (Model::Running(_), Some(g)) = (&model, guess.get()) {
                if *g != build(&first.shape.shape()) {
                    model = Model::Abandoned;
                }
            }
        }
    }
    let timing = build(&first.shape.shape());
    let mut replay = match model {
        Model::Failed(e) => return Err(e),
        Model::Running(replayer) if guess.get() == Some(&timing) => replayer.finish(),
        Model::Holding(held) => {
            let mut replayer = replay::Replayer::new(manifest, &timing, &relations, &ropts);
            held.iter().try_for_each(|h| replayer.push(h))?;
            replayer.finish()
        }
        Model::Running(_) | Model::Abandoned => {
            let mut replayer = replay::Replayer::new(manifest, &timing, &relations, &ropts);
            again(&mut |batch| batch.iter().try_for_each(|r| replayer.push(r)))?;
            replayer.finish()
        }
    };
    // What the report's reader could not use or had to assume (values it could not read, a
    // release taken from the build date, a sibling report not read) is said with the estimate.
    if let Some(r) = rep {
        replay.warnings.splice(0..0, r.warnings.iter().cloned());
    }
    if let (Some((a, b)), true) = (opts.trace_window, opts.timeline_nodes > 0) {
        replay.warnings.push(format!(
            "the timeline shows top-level calls {a} to {} of {} (--trace-window counts calls from 0)",
            b.min(replay.roots_begun).saturating_sub(1),
            replay.roots_begun
        ));
    }
    let mut report = report::build(&report::Inputs {
        manifest,
        timing: &timing,
        relations: &relations,
        replay: &replay,
        top: opts.top.clone(),
        clock_ns: clock,
        dram,
        dram_source,
        defaults: opts.defaults,
        csynth: csynth.as_ref().map(|(p, r)| (p.as_path(), r)),
        stall_threshold_pct: opts.stall_threshold_pct,
        sources: &opts.sources,
        cosim: opts.cosim.as_ref(),
        tool_version: opts.tool_version.as_deref(),
    });
    report.watch = first.watch.summary(manifest);
    Ok(Analysis { report, replay, silent: first.fired.warnings(manifest), trace: first.trace, watch: first.watch })
}

/// The single-beat m_axi reads of pipelines are charged for a Vitis HLS release (the report's,
/// else the project's) and the interface latency its schedule assumed: the report's HW
/// Interfaces table, else its flow target (Vivado IP flow 0, Vitis kernel flow 64), else the
/// project's.
fn single_reads(
    rep: Option<&csynth::Report>,
    report_latency: Option<u64>,
    opts: &AnalysisOptions,
) -> Option<maxi_wait::SingleReads> {
    let version = rep.map(|r| r.version.as_str()).or(opts.tool_version.as_deref())?;
    let (year, minor) = crate::vitis_tb::release_of(version)?;
    let flow = rep.and_then(|r| r.flow_target.as_deref()).map(|f| if f == "vitis" { 64 } else { 0 });
    let latency = report_latency.or(flow).or(opts.maxi_latency)?;
    maxi_wait::SingleReads::for_release(year, minor, latency)
}

#[cfg(test)]
mod tests {
    use super::*;
    use events::{Event, Record};

    /// `k` calls loop `outer`, which runs loop `inner`: without a report Vitis pipelines
    /// `outer` when `inner` has few trips, else `inner` (timing.rs, rule 9).
    fn nest() -> Manifest {
        serde_json::from_str(
            r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],"files":[],"skipped":[],"probes":[
              {"id":0,"kind":"function","file":"k.cpp","line":1,"column":1,"function":"k","name":"k"},
              {"id":1,"kind":"loop","file":"k.cpp","line":3,"column":1,"function":"k","name":"outer","parent":0},
              {"id":2,"kind":"loop","file":"k.cpp","line":4,"column":1,"function":"k","name":"inner","parent":1}]}"#,
        )
        .unwrap()
    }

    /// `calls` calls of `k`, each running `inner` `trips(call)` times.
    fn records(calls: u64, trips: impl Fn(u64) -> u64) -> Vec<Record> {
        let mut out = Vec::new();
        for c in 0..calls {
            for (probe, event, value) in [
                (0, Event::Begin, None),
                (1, Event::Begin, None),
                (2, Event::Begin, None),
                (2, Event::End, Some(trips(c))),
                (1, Event::End, Some(1)),
                (0, Event::End, None),
            ] {
                let order = out.len() as u64;
                out.push(Record { order, probe, event, thread: 0, seq: None, timestamp_ns: None, value });
            }
        }
        out
    }

    fn options() -> AnalysisOptions {
        AnalysisOptions {
            top: "k".into(),
            clock_ns: None,
            dram: None,
            defaults: timing::Defaults::default(),
            csynth: None,
            stall_threshold_pct: 5.0,
            timeline_nodes: 0,
            trace_window: None,
            sources: Default::default(),
            cosim: None,
            fifo_arrays: false,
            tool_version: None,
            maxi_latency: None,
            kernel_flow: false,
        }
    }

    /// The one pass's result, whether it read the log again, and what two passes give: the
    /// whole run's shape first, then the cycle model.
    fn one_and_two_passes(records: &[Record]) -> (String, bool, String) {
        let (m, opts) = (nest(), options());
        let mut read_again = false;
        let mut again = |visit: &mut dyn FnMut(&[Record]) -> Result<()>| -> Result<()> {
            read_again = true;
            visit(records)
        };
        // In batches of 1000, as a log's buffers come.
        struct Chunks<'r>(std::slice::Chunks<'r, Record>);
        impl Batches for Chunks<'_> {
            fn next_batch(&mut self) -> Result<&[Record]> {
                Ok(self.0.next().unwrap_or(&[]))
            }
        }
        let one = analyze_inner(&mut Chunks(records.chunks(1000)), &mut again, &m, &opts).unwrap();
        let mut shape = ShapeBuilder::default();
        records.iter().for_each(|r| shape.push(r));
        let timing = timing::build(&m, None, &opts.defaults, &shape.shape(), "k");
        let relations = relations::Relations::with_default_channel(&m, false);
        let ropts = replay::Options {
            clock_ns: crate::project::DEFAULT_CLOCK_NS,
            dram: replay::Dram::default(),
            max_nodes: 0,
            bulk_transfers: true,
            copy_tail: 3,
            copy_latency: 0,
            copies_in_sequence: false,
            window: None,
            top: "k".into(),
            single_reads: None,
            reads_bound_ii: false,
        };
        let two = replay::replay(records, &m, &timing, &relations, &ropts).unwrap();
        let show = |r: &replay::Replay| format!("{:?} {}", r.sites, r.total_cycles);
        (show(&one.replay), read_again, show(&two))
    }

    #[test]
    fn one_pass_gives_what_two_gave_and_reads_again_only_when_the_shape_changed_the_defaults() {
        let calls = SHAPE_RECORDS as u64 / 6 + 1000;
        // The same shape throughout: the model that started early stands.
        let (one, again, two) = one_and_two_passes(&records(calls, |_| 4));
        assert_eq!(one, two);
        assert!(!again, "the log was read twice");
        // The inner loop's trips cross the threshold in the last call: `inner` becomes the
        // pipeline instead of `outer`, and the model runs again with that.
        let (one, again, two) = one_and_two_passes(&records(calls, |c| if c + 1 == calls { 100 } else { 4 }));
        assert_eq!(one, two);
        assert!(again, "the defaults changed but the log was not read again");
        // Fewer records than are held: one model, with the whole run's shape.
        let (one, again, two) = one_and_two_passes(&records(50, |c| if c == 49 { 100 } else { 4 }));
        assert_eq!(one, two);
        assert!(!again);
    }
}
