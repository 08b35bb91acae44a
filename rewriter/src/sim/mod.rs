//! `hlsinstr sim`: the HLScope software-simulation flow without a vendor tool.
//!
//! The pipeline, one module per stage: [`run`] (rewrite, compile with g++, run the testbench,
//! collect the log) → [`events`] (read the log) → [`timing`] (static cost of every probe from
//! the csynth report, pragmas or defaults) → [`replay`] (the cycle model over the log) →
//! [`report`] (PCP, stalls and reasons, bandwidth) → [`output`] (terminal, JSON, CSV, Markdown,
//! VCD, Chrome trace).

pub mod coverage;
pub mod directives;
pub mod estimate;
pub mod events;
pub mod fastmap;
pub mod logpipe;
pub mod output;
pub mod relations;
pub mod replay;
pub mod report;
pub mod run;
pub mod shadow;
pub mod silent;
pub mod stream;
pub mod timing;
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
/// (then it is not an innermost loop Vitis would pipeline by default). Fed one record at a time.
/// Gathered in fast maps (a lookup or two per record), handed over as a [`timing::RunShape`].
#[derive(Default)]
struct ShapeBuilder {
    max_trips: fastmap::FastMap<u32, u64>,
    /// (outer, inner) probe pairs seen.
    inner: fastmap::FastSet<(u32, u32)>,
    open: fastmap::FastMap<u32, Vec<u32>>,
}

impl ShapeBuilder {
    fn push(&mut self, r: &events::Record) {
        let stack = self.open.entry(r.thread).or_default();
        match r.event {
            events::Event::Begin => {
                if let Some(&outer) = stack.last() {
                    self.inner.insert((outer, r.probe));
                }
                stack.push(r.probe);
            }
            events::Event::End => {
                stack.pop();
                if let Some(v) = r.value {
                    let e = self.max_trips.entry(r.probe).or_insert(0);
                    *e = v.max(*e);
                }
            }
            _ => {}
        }
    }

    fn shape(self) -> timing::RunShape {
        let mut shape = timing::RunShape { max_trips: self.max_trips.into_iter().collect(), ..Default::default() };
        for (outer, inner) in self.inner {
            shape.inner.entry(outer).or_default().insert(inner);
        }
        shape
    }
}

/// Log + manifest (+ report) → stall report. The log is read twice, as a stream: once for the
/// run's shape (which the cycle model's defaults need), which probes fired and the branch trace,
/// once through the cycle model; memory does not grow with its length (but for the branch
/// trace's own records).
pub fn analyze(log: &Path, manifest: &Manifest, opts: &AnalysisOptions) -> Result<Analysis> {
    let mut first = FirstPass::new(manifest);
    let mut stream = events::open(log)?;
    while let Some(r) = stream.next_record().map_err(|e| e.at(log))? {
        first.push(r);
    }
    let mut stream = events::open(log)?;
    let a = analyze_inner(&mut || stream.next_record(), first.shape.shape(), manifest, opts).map_err(|e| e.at(log))?;
    let mut a = Analysis { silent: first.fired.warnings(manifest), trace: first.trace, watch: first.watch, ..a };
    a.report.watch = a.watch.summary(manifest);
    // Said where the reader had to approximate (threads merged past its window).
    a.report.warnings.extend(stream.notes());
    Ok(a)
}

/// As [`analyze`], over records in memory.
pub fn analyze_records(records: &[events::Record], manifest: &Manifest, opts: &AnalysisOptions) -> Result<Analysis> {
    let mut first = FirstPass::new(manifest);
    records.iter().for_each(|r| first.push(r.clone()));
    let mut it = records.iter();
    let a = analyze_inner(&mut || Ok(it.next().cloned()), first.shape.shape(), manifest, opts)?;
    let mut a = Analysis { silent: first.fired.warnings(manifest), trace: first.trace, watch: first.watch, ..a };
    a.report.watch = a.watch.summary(manifest);
    Ok(a)
}

/// What the first read of the log gathers: the run's shape, which probes fired, and (with
/// `branches` probes) the branch trace's records.
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
            shape: ShapeBuilder::default(),
            fired: silent::Fired::default(),
            branches: manifest.branches.is_some(),
            trace: Vec::new(),
            watch: watch::WatchLog::default(),
        }
    }

    fn push(&mut self, r: events::Record) {
        self.shape.push(&r);
        self.fired.add(&r);
        self.watch.push(&r);
        if self.branches && r.event == events::Event::Trace {
            self.trace.push(r);
        }
    }
}

fn analyze_inner(
    next: &mut dyn FnMut() -> Result<Option<events::Record>>,
    shape: timing::RunShape,
    manifest: &Manifest,
    opts: &AnalysisOptions,
) -> Result<Analysis> {
    let csynth = match &opts.csynth {
        Some(p) => Some((p.clone(), csynth::parse_file(p)?)),
        None => None,
    };
    let rep = csynth.as_ref().map(|(_, r)| r);
    let timing = timing::build(manifest, rep, &opts.defaults, &shape, &opts.top);
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
        (None, None) => (replay::Dram::default(), timing::Source::Default),
    };
    let ropts = replay::Options {
        clock_ns: clock.value,
        dram,
        max_nodes: opts.timeline_nodes,
        bulk_transfers: rep.is_none(),
        window: opts.trace_window,
    };
    let mut replayer = replay::Replayer::new(manifest, &timing, &relations, &ropts);
    while let Some(r) = next()? {
        replayer.push(&r)?;
    }
    let mut replay = replayer.finish();
    if let (Some((a, b)), true) = (opts.trace_window, opts.timeline_nodes > 0) {
        replay.warnings.push(format!(
            "the timeline shows top-level calls {a} to {} of {} (--trace-window counts calls from 0)",
            b.min(replay.roots_begun).saturating_sub(1),
            replay.roots_begun
        ));
    }
    let report = report::build(&report::Inputs {
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
    });
    Ok(Analysis { report, replay, silent: Vec::new(), trace: Vec::new(), watch: watch::WatchLog::default() })
}
