//! `hlsinstr sim`: C-simulation run and stall report.

use super::{EXIT_ERROR, EXIT_OK};
use clap::{Args, ValueEnum};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::sim::{self, output, replay::Dram, run, timing::Defaults, AnalysisOptions};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Exit code when the design deadlocks in C simulation.
pub const EXIT_DEADLOCK: i32 = 4;

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub inputs: ProjectArgs,
    /// The csynth report (`csynth.xml`, or the text `csynth.rpt`); default: looked for under the
    /// project's solution.
    #[arg(long)]
    pub csynth: Option<PathBuf>,
    /// Do not look for a csynth report.
    #[arg(long, conflicts_with = "csynth")]
    pub no_csynth: bool,
    /// Report format on stdout.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Write a VCD timeline (one busy signal per row) for GTKWave.
    #[arg(long)]
    pub vcd: Option<PathBuf>,
    /// Write a Chrome trace-event timeline for Perfetto / chrome://tracing.
    #[arg(long)]
    pub trace: Option<PathBuf>,
    /// Which top-level calls of the testbench the --vcd / --trace timeline shows, as
    /// `START:END` (calls counted from 0, END excluded; `START:` to the last). Default: from the
    /// first call, up to 500 000 invocations.
    #[arg(long, value_parser = parse_window)]
    pub trace_window: Option<(u64, u64)>,
    /// Clock period in ns (default: the project's, then the report's, then 10).
    #[arg(long)]
    pub clock: Option<f64>,
    /// DRAM bandwidth in GB/s (default 9.05, HLScope's board).
    #[arg(long)]
    pub dram_bw: Option<f64>,
    /// DRAM latency in ns (default 580, HLScope's board).
    #[arg(long)]
    pub dram_lat: Option<f64>,
    /// Stall rate (%) under which every critical-path module counts as inseparable.
    #[arg(long, default_value_t = 20.0)]
    pub stall_threshold: f64,
    /// Stop the testbench after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,
    /// Deadlock watchdog: no stream progress for this long while a process is blocked.
    #[arg(long, default_value_t = 2000)]
    pub watchdog_ms: u64,
    /// Keep the work directory (instrumented sources, objects, run directory, log) here.
    #[arg(long)]
    pub keep: Option<PathBuf>,
    /// Analyse an existing event log instead of running (needs --manifest); a project file given
    /// with it supplies the run's settings (clock, pipelining threshold, channels, flow target).
    #[arg(long, requires = "manifest")]
    pub events: Option<PathBuf>,
    /// The manifest of the rewrite that produced --events.
    #[arg(long, requires = "events")]
    pub manifest: Option<PathBuf>,
    /// C++ compiler (default: $CXX, then g++).
    #[arg(long)]
    pub cxx: Option<String>,
    /// Directory of the kernel headers (ap_int.h, hls_stream.h, ...); default: $XILINX_HLS/include,
    /// then $HLSINSTR_HLS_INCLUDE, then the checkout's .cache/hls-headers.
    #[arg(long)]
    pub hls_include: Option<PathBuf>,
    /// Compile the C simulation optimised (-O2), as `csim_design -O` or `csim.O=true` in the
    /// project asks; by default it is built as Vitis' csim builds it: -O0 -g.
    #[arg(long, short = 'O')]
    pub optimize: bool,
    /// Read this project or component of a Tcl script that opens several (default: the first).
    #[arg(long)]
    pub component: Option<String>,
    /// Read this solution of a Tcl script that opens several (default: the first).
    #[arg(long)]
    pub solution: Option<String>,
    /// No progress messages.
    #[arg(long, short)]
    pub quiet: bool,
    /// Compare with a C/RTL co-simulation: `<solution>/sim/report`, the solution directory, or a
    /// file (`<top>_cosim.rpt`, `lat.rpt`, `result.transaction.rpt`). Adds the co-sim cycles per
    /// call and the error of each to every format.
    #[arg(long)]
    pub cosim: Option<PathBuf>,
    /// Text format: say for every row how its cycles were found (report, run, directive, pragma,
    /// default) instead of the stall table.
    #[arg(long)]
    pub explain: bool,
    /// Probe kinds of the run (`branches` adds the control-flow trace: line counts, decision
    /// ratios, hot paths; it replaces `loops`).
    #[arg(long, default_value = "modules,loops,maxi")]
    pub probes: String,
    #[command(flatten)]
    pub watching: super::watch::WatchArgs,
    /// With `branches`: write one `<source>.gcov` per traced file here (gcov's text format).
    #[arg(long)]
    pub gcov: Option<PathBuf>,
    /// With `branches`: write the decoded trace (line counts, decisions, hot paths) as JSON here.
    #[arg(long)]
    pub coverage: Option<PathBuf>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Csv,
    Markdown,
}

/// Invocations a --vcd / --trace timeline keeps at most (~100 bytes each while it is written).
const TIMELINE_NODES: usize = 500_000;

/// `START:END` or `START:` of --trace-window.
fn parse_window(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s.split_once(':').ok_or("expected START:END (top-level calls, from 0; END excluded)")?;
    let a: u64 = a.trim().parse().map_err(|_| format!("`{a}` is not a call number"))?;
    let b: u64 = match b.trim() {
        "" => u64::MAX,
        b => b.parse().map_err(|_| format!("`{b}` is not a call number"))?,
    };
    if b <= a {
        return Err(format!("the window {a}:{b} is empty: END must be above START"));
    }
    Ok((a, b))
}

/// The end of what the testbench printed, on stderr (a failing run shows it in its error).
fn show_tail(outcome: &run::RunOutcome, kept: bool) {
    for (name, t) in [("stdout", &outcome.stdout), ("stderr", &outcome.stderr)] {
        if t.is_empty() {
            continue;
        }
        let whole =
            if kept { format!("all of it in {}", t.path.display()) } else { "--keep DIR keeps all of it".to_string() };
        eprint!(
            "hlsinstr sim: the testbench's {name} ({} bytes, last {} lines; {whole}):\n{}",
            t.bytes,
            t.lines.len(),
            t.show()
        );
    }
}

/// The analysis' options from the command line and the project the run had, if any: its
/// clock unless `--clock`, its pipelining threshold and channels, the release it names and its
/// flow target's m_axi latency (a bad `--clock` or DRAM figure is refused here).
fn analysis_options(
    args: &SimArgs,
    top: String,
    project: Option<&hlsinstr::project::Project>,
    csynth: Option<PathBuf>,
) -> Result<AnalysisOptions, Error> {
    let clock = args.clock.or_else(|| project.and_then(|p| p.clock_ns));
    let mut defaults = Defaults::default();
    if let Some(n) = project.and_then(|p| p.pipeline_threshold()) {
        defaults.pipeline_loops = n;
    }
    if let Some(w) = project.and_then(|p| p.pipeline_wrapper()) {
        defaults.pipeline_wrapper = w;
    }
    if let Some(o) = project.and_then(|p| p.axi_top_overhead()) {
        defaults.axi_top_overhead = o;
    }
    defaults.inline_single_call = project.is_none_or(|p| p.inlines_single_calls());
    defaults.loop_exit_states = project.is_some_and(|p| p.loop_exit_states());
    defaults.flatten_small_perfect_nests = project.is_some_and(|p| p.flattens_small_perfect_nests());
    defaults.wide_multiply =
        hlsinstr::sim::timing::wide_multiply_cycles(clock, project.and_then(|p| p.part.as_deref()));
    let dram = match (args.dram_bw, args.dram_lat) {
        (None, None) => None,
        (bw, lat) => {
            let d = Dram::default();
            Some(Dram { bandwidth: bw.map_or(d.bandwidth, |g| g * 1e9), latency_ns: lat.unwrap_or(d.latency_ns) })
        }
    };
    if let Some(d) = dram {
        if d.bandwidth <= 0.0 || d.latency_ns < 0.0 {
            return Err(Error::new(ErrorKind::Usage, "--dram-bw must be positive and --dram-lat not negative"));
        }
    }
    if clock.is_some_and(|c| c <= 0.0) {
        return Err(Error::new(ErrorKind::Usage, "--clock must be a positive period in ns"));
    }
    let timeline = args.vcd.is_some() || args.trace.is_some();
    Ok(AnalysisOptions {
        top,
        clock_ns: clock,
        dram,
        defaults,
        csynth,
        stall_threshold_pct: args.stall_threshold,
        timeline_nodes: if timeline { TIMELINE_NODES } else { 0 },
        trace_window: args.trace_window,
        sources: Default::default(),
        fifo_arrays: project.is_some_and(|p| p.dataflow_default_channel.as_deref() == Some("fifo")),
        cosim: match &args.cosim {
            Some(p) => {
                let mut truth = cosim_truth(p, "sim")?;
                if project.is_some_and(|p| p.cosim_random_stall) {
                    let note = "the project runs co-simulation with random stalls (cosim.random_stall, cosim_design \
                                -random_stall): its latencies hold waits no schedule has, so it runs above the estimate \
                                by what the stalls cost (rerun co-simulation without them to compare)";
                    eprintln!("hlsinstr sim: {note}");
                    truth.note = Some(note.to_string());
                }
                Some(truth)
            }
            None => None,
        },
        tool_version: project.and_then(|p| p.tool_version_hint()),
        maxi_latency: project.and_then(|p| p.maxi_latency_default()),
        kernel_flow: project.is_some_and(|p| p.flow_target.as_deref() == Some("vitis")),
    })
}

fn progress(msg: &str) {
    eprintln!("hlsinstr sim: {msg}");
}

pub fn run_sim(args: SimArgs) -> Result<i32, Error> {
    let (manifest, sources, analysis, _work) = if let Some(events) = &args.events {
        let manifest = sim::read_manifest(args.manifest.as_deref().unwrap_or(Path::new("")))?;
        let top = args.inputs.top.clone().or_else(|| manifest.top.clone()).unwrap_or_default();
        // A project file beside the log gives the analysis the settings the run had (its
        // clock, pipelining threshold, channels, release and flow target).
        let project = match &args.inputs.project {
            Some(p) => Some(hlsinstr::project::load_selected(p, &ProjectInputs::of(&args).select)?),
            None => None,
        };
        let opts = analysis_options(&args, top, project.as_ref(), args.csynth.clone())?;
        let analysis = sim::analyze(events, &manifest, &opts)?;
        (manifest, opts.sources, analysis, None)
    } else {
        let hls_include = hls_include(args.hls_include.as_deref())?;
        let (mut spec, project) = spec_from_args(&ProjectInputs::of(&args))?;
        if args.cosim.is_some() {
            take_cosim_argv(&mut spec, project.as_ref(), "sim");
        }
        let (kinds, watch) = args.watching.kinds(&args.probes)?;
        let opts = run::RunOptions {
            cxx: args.cxx.clone().or_else(|| std::env::var("CXX").ok()).unwrap_or_else(|| "g++".into()),
            hls_include,
            work_dir: args.keep.clone(),
            timeout: Duration::from_secs(args.timeout),
            watchdog_ms: args.watchdog_ms,
            kinds,
            watch,
            uninstrumented: false,
            progress: if args.quiet { None } else { Some(progress) },
            cancel: Some(&super::signals::INTERRUPTED),
        };
        let csynth = match (&args.csynth, args.no_csynth, &project) {
            (Some(c), _, _) => Some(c.clone()),
            (None, false, Some(p)) => {
                // `--top` first, then the project's: `--top` may name the function as the source
                // writes it where the project (and Vitis' report files) name the macro's expansion.
                let tops = [args.inputs.top.as_deref(), p.top.as_deref()];
                let mut tops: Vec<Option<&str>> = tops.into_iter().filter(Option::is_some).collect();
                tops.dedup();
                let tops = if tops.is_empty() { vec![None] } else { tops };
                tops.into_iter()
                    .flat_map(|top| {
                        p.solution_dirs().into_iter().flat_map(move |d| hlsinstr::csynth::find_top_reports(d, top))
                    })
                    .next()
            }
            _ => None,
        };
        if let Some(p) = project.as_ref().filter(|p| p.vivado_hls && p.pipeline_loops.is_none() && !args.quiet) {
            progress(&format!(
                "{} is a Vivado HLS project: no loop is pipelined without a pragma or directive (its default)",
                p.file.display()
            ));
        }
        // Checked before the run: the analysis runs beside the testbench.
        let checked = analysis_options(&args, spec.top.clone(), project.as_ref(), csynth.clone())?;
        let prepare = |m: &hlsinstr::emit::manifest::Manifest,
                       sources: &std::collections::HashMap<String, Vec<String>>| {
            if let (Some(c), false) = (&csynth, args.quiet || args.csynth.is_some()) {
                progress(&format!("using the csynth report {}", c.display()));
            }
            let mut manifest = m.clone();
            // The project's directives say how Vitis builds the loops as much as the pragmas do.
            if let Some(p) = &project {
                for w in sim::directives::apply(&mut manifest, &p.directives) {
                    eprintln!("hlsinstr sim: {w}");
                }
            }
            Ok((manifest, AnalysisOptions { sources: sources.clone(), ..checked.clone() }))
        };
        // Ctrl-C while the testbench runs ends its process group and removes the work directory.
        let guard = super::signals::install();
        let result = run::run_analysed(&spec, &opts, Some(&prepare));
        drop(guard);
        let mut outcome = match result {
            Ok(o) => o,
            Err(e) if e.message.starts_with("the design deadlocks") => {
                eprintln!("hlsinstr: error: {e}");
                return Ok(EXIT_DEADLOCK);
            }
            Err(e) => return Err(e),
        };
        for s in &outcome.skipped {
            eprintln!("{s}");
        }
        for n in &outcome.notes {
            eprintln!("hlsinstr sim: {n}");
        }
        if !args.quiet {
            show_tail(&outcome, args.keep.is_some());
        }
        let live = outcome.live.take().expect("an instrumented run is analysed");
        (live.manifest, outcome.sources.clone(), live.result?, Some(outcome))
    };
    for w in &analysis.silent {
        eprintln!("hlsinstr sim: warning: {w}");
    }
    let rep = &analysis.report;
    let text = match args.format {
        Format::Text if args.explain => output::explain(rep),
        Format::Text => output::text(rep),
        Format::Json => output::json(rep),
        Format::Csv => output::csv(rep),
        Format::Markdown => output::markdown(rep),
    };
    // The watch events follow the text report (docs/watch.md).
    let text = match (args.format, analysis.watch.is_empty()) {
        (Format::Text, false) => format!("{text}{}", analysis.watch.text(&manifest)),
        _ => text,
    };
    match &args.output {
        Some(p) => hlsinstr::emit::atomic_write(p, text.as_bytes())?,
        None => print!("{text}"),
    }
    if let Some(p) = &args.vcd {
        hlsinstr::emit::atomic_write(p, output::vcd(&analysis.replay, rep).as_bytes())?;
    }
    if let Some(p) = &args.trace {
        hlsinstr::emit::atomic_write(p, output::chrome_trace(&analysis.replay, rep).as_bytes())?;
    }
    let traced = match &manifest.branches {
        Some(b) => Some(branch_outputs(&args, &analysis.trace, b, &sources)?),
        None => None,
    };
    if let (Some(t), Format::Text, None) = (&traced, args.format, &args.output) {
        print!("\n{t}");
    }
    if rep.rows.is_empty() && traced.is_none() && analysis.watch.is_empty() {
        eprintln!("hlsinstr sim: the run recorded no probe events: is `{}` called by the testbench?", rep.top);
        return Ok(EXIT_ERROR);
    }
    Ok(EXIT_OK)
}

/// Decode the branch trace; write `--gcov` and `--coverage`; the text section of the report.
fn branch_outputs(
    args: &SimArgs,
    records: &[sim::events::Record],
    trace: &hlsinstr::emit::manifest::BranchTrace,
    sources: &std::collections::HashMap<String, Vec<String>>,
) -> Result<String, Error> {
    let cov = sim::coverage::decode(records, trace)?;
    if let Some(p) = &args.coverage {
        let json = serde_json::to_string_pretty(&cov).map_err(|e| Error::new(ErrorKind::Internal, e.to_string()))?;
        hlsinstr::emit::atomic_write(p, json.as_bytes())?;
    }
    if let Some(dir) = &args.gcov {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot create the --gcov directory: {e}")).at(dir))?;
        for f in &cov.files {
            let lines = match sources.get(&f.path) {
                Some(l) => l.clone(),
                None => std::fs::read_to_string(&f.path)
                    .map_err(|e| {
                        Error::new(
                            ErrorKind::Io,
                            format!("cannot read the source `{}` for its .gcov file: {e}; run from the directory the rewrite's paths are relative to", f.path),
                        )
                    })?
                    .lines()
                    .map(str::to_string)
                    .collect(),
            };
            let text = sim::coverage::gcov_text(&f.path, &lines, &f.lines);
            hlsinstr::emit::atomic_write(&dir.join(sim::coverage::gcov_name(&f.path)), text.as_bytes())?;
        }
    }
    Ok(sim::coverage::text(&cov))
}

/// The co-simulation's per-call figures: its transaction list, else its summary when every call
/// took the same (min = max), else its average with a warning (`hlsinstr <command>: ...`).
pub(super) fn cosim_truth(path: &Path, command: &str) -> Result<sim::estimate::CosimTruth, Error> {
    let c = hlsinstr::cosim::read(path)?;
    for w in &c.warnings {
        eprintln!("hlsinstr {command}: {}: {w}", path.display());
    }
    if let Some(s) = c.status.as_deref().filter(|s| !s.eq_ignore_ascii_case("pass")) {
        eprintln!(
            "hlsinstr {command}: the co-simulation's status is {s}, not Pass: its figures may not be the design's"
        );
    }
    let mut spread = None;
    let per_call = if !c.per_call.is_empty() {
        c.per_call.clone()
    } else {
        match (c.latency, c.latency_avg) {
            (Some(l), _) if l.is_exact() => vec![l.min],
            (l, Some(avg)) => {
                spread = l.map(|l| (l.min, l.max));
                let how = match spread {
                    Some((lo, hi)) => format!(
                        "comparing its minimum {lo}, average {avg:.1} and maximum {hi} with the shortest call, the \
                         mean and the longest (one call: the average)"
                    ),
                    None => format!("comparing every call with the average {avg:.1}"),
                };
                eprintln!("hlsinstr {command}: {} lists no per-call latencies; {how}", path.display());
                vec![avg.round() as u64]
            }
            _ => {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!(
                        "{}: the co-simulation report has no latency (did co-simulation run? its status: {})",
                        path.display(),
                        c.status.as_deref().unwrap_or("unknown")
                    ),
                ))
            }
        }
    };
    Ok(sim::estimate::CosimTruth {
        files: c.files.iter().map(|f| f.display().to_string()).collect(),
        per_call,
        spread,
        note: None,
    })
}

/// The project inputs `sim` and `cosim` share: a project file (and which of its components or
/// solutions) and/or --top, --src, --tb, --cflags.
pub struct ProjectInputs<'a> {
    pub project: &'a Option<PathBuf>,
    pub top: &'a Option<String>,
    pub src: &'a [PathBuf],
    pub tb: &'a [PathBuf],
    pub cflags: &'a Option<String>,
    pub select: hlsinstr::project::Select,
    pub optimize: bool,
}

impl<'a> ProjectInputs<'a> {
    pub fn new(i: &'a ProjectArgs, select: hlsinstr::project::Select, optimize: bool) -> Self {
        ProjectInputs { project: &i.project, top: &i.top, src: &i.src, tb: &i.tb, cflags: &i.cflags, select, optimize }
    }

    fn of(a: &'a SimArgs) -> Self {
        let select = hlsinstr::project::Select { component: a.component.clone(), solution: a.solution.clone() };
        Self::new(&a.inputs, select, a.optimize)
    }
}

/// The project inputs `sim` and `cosim` take on the command line.
#[derive(Args, Debug, Clone)]
pub struct ProjectArgs {
    /// The Vitis project: `hls_config.cfg` or a Tcl script (`open_project`, `set_top`,
    /// `add_files`, `create_clock`). Or give --top, --src and --tb.
    pub project: Option<PathBuf>,
    /// Top function (overrides the project's).
    #[arg(long)]
    pub top: Option<String>,
    /// Synthesis source files (instead of, or added to, the project's); a directory is walked
    /// as `rewrite` walks it.
    #[arg(long = "src", num_args = 1..)]
    pub src: Vec<PathBuf>,
    /// Testbench files (sources and data files).
    #[arg(long = "tb", num_args = 1..)]
    pub tb: Vec<PathBuf>,
    /// Extra compiler flags for every file (one string, split on spaces).
    #[arg(long, allow_hyphen_values = true)]
    pub cflags: Option<String>,
}

/// Co-simulation runs the testbench with `cosim.argv` (`cosim_design -argv`), not with the C
/// simulation's arguments: a run compared with it, or standing in for it, takes those (a public
/// 2025.1 `gemm` runs full-size shapes under `csim.argv` and small ones in co-simulation; timed
/// with the first, its calls were compared with the others). Said when it changes the run.
pub(super) fn take_cosim_argv(spec: &mut run::RunSpec, project: Option<&hlsinstr::project::Project>, command: &str) {
    let Some(p) = project else { return };
    let argv = run::argv_words(p.cosim_argv.as_deref());
    if argv != spec.argv {
        let shown = |a: &[String]| if a.is_empty() { "none".to_string() } else { format!("`{}`", a.join(" ")) };
        eprintln!(
            "hlsinstr {command}: the testbench runs with co-simulation's arguments ({}), not the C simulation's ({}), as Vitis' co-simulation does",
            shown(&argv),
            shown(&spec.argv)
        );
        spec.argv = argv;
    }
}

pub fn spec_from_args(args: &ProjectInputs) -> Result<(run::RunSpec, Option<hlsinstr::project::Project>), Error> {
    let select = &args.select;
    let project = match args.project {
        Some(p) => Some(hlsinstr::project::load_selected(p, select)?),
        None if *select != Default::default() => {
            return Err(Error::new(ErrorKind::Usage, "--component and --solution choose in a project file: give one"))
        }
        None => None,
    };
    for w in project.iter().flat_map(|p| &p.warnings) {
        eprintln!("hlsinstr sim: {}: {}", w.path.display(), w.message);
    }
    for n in project.iter().flat_map(|p| &p.notes) {
        eprintln!("hlsinstr sim: note: {n}");
    }
    // `--tb` files join the project's testbench (a script written by the GUI often lists none:
    // Vivado HLS' generated `script.tcl` of a design whose testbench was never added to it);
    // they get the project's testbench flags like its own.
    let mut tb_taken = false;
    let mut spec = match &project {
        Some(p) if args.src.is_empty() || p.top.is_some() => {
            let mut p = p.clone();
            if let Some(t) = args.top {
                p.top = Some(t.clone());
            }
            let same =
                |a: &Path, b: &Path| a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y);
            for f in args.tb {
                if p.testbench.iter().any(|t| same(&t.path, f)) {
                    continue;
                }
                let is_source = hlsinstr::source::is_cxx_path(f);
                p.testbench.push(hlsinstr::project::SourceFile {
                    path: f.clone(),
                    cflags: Vec::new(),
                    csimflags: Vec::new(),
                    is_source,
                });
            }
            tb_taken = true;
            // A missing blackbox descriptor with the C model given here: the model stands in for
            // the RTL module as the descriptor would have had it (compiled with the testbench).
            if !args.tb.is_empty() {
                for d in p.blackbox.iter().filter(|d| !d.exists()) {
                    eprintln!(
                        "hlsinstr sim: the RTL blackbox descriptor {} does not exist; its C model is taken from --tb",
                        d.display()
                    );
                }
                p.blackbox.retain(|d| d.exists());
            }
            run::RunSpec::from_project(&p)?
        }
        _ => run::RunSpec {
            top: String::new(),
            sources: Vec::new(),
            testbench: Vec::new(),
            data_files: Vec::new(),
            csim_build: None,
            project_dir: None,
            common_flags: Vec::new(),
            argv: Vec::new(),
            ldflags: Vec::new(),
            optimize: false,
            kernel_flow: false,
        },
    };
    if let Some(t) = args.top {
        spec.top = t.clone();
    }
    spec.optimize |= args.optimize;
    // A directory given to --src is walked as `rewrite` walks it (ignore files, no vendor folders).
    for p in args.src {
        if p.is_dir() {
            let mut notes = Vec::new();
            let found = hlsinstr::walk::discover(std::slice::from_ref(p), &[], &mut notes)?;
            for n in notes {
                eprintln!("hlsinstr sim: {n}");
            }
            spec.common_flags.push(format!("-I{}", p.display()));
            spec.sources.extend(found.into_iter().map(|i| (i.path, Vec::new())));
        } else {
            spec.sources.push((p.clone(), Vec::new()));
        }
    }
    for f in args.tb.iter().filter(|_| !tb_taken) {
        if hlsinstr::source::is_cxx_path(f) {
            spec.testbench.push((f.clone(), Vec::new()));
        } else {
            spec.data_files.push(f.clone());
        }
    }
    for f in args.src.iter().filter(|p| !p.is_dir()).chain(args.tb) {
        if !f.exists() {
            return Err(Error::new(ErrorKind::Usage, format!("{} does not exist", f.display())));
        }
        if let Some(d) = f.parent() {
            let d = if d.as_os_str().is_empty() { Path::new(".") } else { d };
            spec.common_flags.push(format!("-I{}", d.display()));
        }
    }
    if let Some(c) = args.cflags {
        spec.common_flags.extend(c.split_whitespace().map(String::from));
    }
    if spec.top.is_empty() {
        return Err(Error::new(ErrorKind::Usage, "no top function: give a project file or --top"));
    }
    if spec.sources.is_empty() || spec.testbench.is_empty() {
        return Err(Error::new(
            ErrorKind::Usage,
            "nothing to simulate: give a project file (hls_config.cfg or a Tcl script) or --src and --tb",
        ));
    }
    Ok((spec, project))
}

/// The kernel headers: the flag, `$XILINX_HLS/include`, `$HLSINSTR_HLS_INCLUDE`, then the
/// checkout's `.cache/hls-headers` (scripts/fetch-hls-headers.sh).
pub fn hls_include(flag: Option<&Path>) -> Result<PathBuf, Error> {
    let has = |d: &Path| d.join("ap_int.h").is_file();
    // A directory the user named is the one used, or an error: falling back to another set of
    // headers would simulate with headers they did not choose.
    if let Some(dir) = flag {
        if has(dir) {
            return Ok(dir.to_path_buf());
        }
        let why = if dir.is_dir() { "has no ap_int.h" } else { "is not a directory" };
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "--hls-include {}: {why}; give the directory that holds ap_int.h and hls_stream.h \
                 ($XILINX_HLS/include, or the one scripts/fetch-hls-headers.sh prints)",
                dir.display()
            ),
        ));
    }
    let mut tried = Vec::new();
    let candidates: Vec<PathBuf> = std::env::var_os("XILINX_HLS")
        .map(|x| PathBuf::from(x).join("include"))
        .into_iter()
        .chain(std::env::var_os("HLSINSTR_HLS_INCLUDE").map(PathBuf::from))
        .chain([Path::new(env!("CARGO_MANIFEST_DIR")).join("../.cache/hls-headers")])
        .collect();
    for c in candidates {
        if has(&c) {
            return Ok(c);
        }
        tried.push(c.display().to_string());
    }
    Err(Error::new(
        ErrorKind::Usage,
        format!(
            "no kernel headers (ap_int.h, hls_stream.h): set XILINX_HLS, or run scripts/fetch-hls-headers.sh and pass \
             --hls-include with the directory it prints (tried: {})",
            tried.join(", ")
        ),
    ))
}
