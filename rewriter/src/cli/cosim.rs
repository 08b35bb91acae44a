//! `hlsinstr cosim`: run the user's C testbench, capture each call of the top, replay the calls
//! on the solution's generated RTL in Verilator (or Icarus) and compare the outputs.

use super::sim::{hls_include, spec_from_args, take_cosim_argv, Format, ProjectArgs, ProjectInputs};
use super::{EXIT_ERROR, EXIT_OK};
use clap::{Args, ValueEnum};
use hlsinstr::cosim::{self, CallSource, CosimOutcome, CosimRequest, MemTiming, Simulator, Wave, WaveFormat};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::sim::run::RunOptions;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct CosimArgs {
    #[command(flatten)]
    pub inputs: ProjectArgs,
    /// The synthesised solution: its directory (holding syn/verilog), a Vitis component, or a
    /// project directory with one solution.
    #[arg(long)]
    pub solution: PathBuf,
    /// The RTL simulator.
    #[arg(long, value_enum, default_value_t = Sim::Verilator)]
    pub simulator: Sim,
    /// Write a VCD waveform of the whole run.
    #[arg(long, conflicts_with = "fst")]
    pub vcd: Option<PathBuf>,
    /// Write an FST waveform (Verilator only; smaller and faster than VCD).
    #[arg(long)]
    pub fst: Option<PathBuf>,
    /// Report format on stdout (text or json).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
    /// Work directory: captured calls, simulator builds (cached by content), plan, results.
    /// Default: `$XDG_CACHE_HOME/hlsinstr/cosim/<top>` (or `~/.cache/...`).
    #[arg(long)]
    pub work: Option<PathBuf>,
    /// m_axi memory model: cycles from a read request accepted to its first data beat.
    #[arg(long, default_value_t = MemTiming::default().read_latency)]
    pub read_latency: u32,
    /// m_axi memory model: cycles from a write burst's last beat to its response.
    #[arg(long, default_value_t = MemTiming::default().write_latency)]
    pub write_latency: u32,
    /// m_axi memory model: bursts in flight per direction and bundle.
    #[arg(long, default_value_t = MemTiming::default().outstanding)]
    pub outstanding: u32,
    /// Stream models: output streams are FIFOs of this many elements, full (`_full_n`/TREADY
    /// low) until the consumer drains them (0: unbounded, always ready).
    #[arg(long, default_value_t = 0)]
    pub fifo_depth: u64,
    /// Stream models: `1`/`0` per cycle, repeated from each call's start: whether the consumer
    /// of output streams takes an element and the producer of input streams offers one (`0`
    /// stalls), e.g. `1100`.
    #[arg(long, default_value = "1")]
    pub stall_pattern: String,
    /// One stream's own FIFO depth and pattern, in place of `--fifo-depth`/`--stall-pattern`:
    /// `NAME=DEPTH[:PATTERN]` with the stream's C argument name, e.g. `out=2:110` (repeatable).
    #[arg(long, value_name = "NAME=DEPTH[:PATTERN]")]
    pub stream_flow: Vec<String>,
    /// A call taking longer than this many cycles is an error (a hung design).
    #[arg(long, default_value_t = 10_000_000)]
    pub max_cycles: u64,
    /// Replay every captured call this many times (long runs, speed measurements).
    #[arg(long, default_value_t = 1)]
    pub repeat: u32,
    /// Replay the calls captured in WORK/calls by an earlier run instead of running the testbench.
    #[arg(long)]
    pub reuse_calls: bool,
    /// Stop the C testbench after this many seconds.
    #[arg(long, default_value_t = 600)]
    pub timeout: u64,
    /// C++ compiler for the testbench (default: $CXX, then g++).
    #[arg(long)]
    pub cxx: Option<String>,
    /// Directory of the kernel headers (ap_int.h, ...); as for `sim`.
    #[arg(long)]
    pub hls_include: Option<PathBuf>,
    /// No progress messages.
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Sim {
    Verilator,
    Icarus,
}

fn progress(msg: &str) {
    eprintln!("hlsinstr cosim: {msg}");
}

pub fn run_cosim(args: CosimArgs) -> Result<i32, Error> {
    if !matches!(args.format, Format::Text | Format::Json) {
        return Err(Error::new(ErrorKind::Usage, "cosim writes --format text or json"));
    }
    let outcome = cosimulate(&args)?;
    let text = match args.format {
        Format::Json => cosim::report_json(&outcome),
        _ => text(&outcome),
    };
    match &args.output {
        Some(p) => hlsinstr::emit::atomic_write(p, text.as_bytes())?,
        None => print!("{text}"),
    }
    if outcome.passed() {
        Ok(EXIT_OK)
    } else {
        eprintln!("hlsinstr cosim: FAIL: the RTL's outputs differ from the C simulation's");
        Ok(EXIT_ERROR)
    }
}

/// Run the co-simulation the arguments ask for (also `profile` without a waveform).
pub fn cosimulate(args: &CosimArgs) -> Result<CosimOutcome, Error> {
    let mut flow = cosim::StreamFlow {
        fifo_depth: args.fifo_depth,
        stall_pattern: args.stall_pattern.clone(),
        ..Default::default()
    };
    for spec in &args.stream_flow {
        let (name, f) = cosim::StreamFlow::parse_stream(spec)?;
        flow.streams.insert(name, f);
    }
    let inputs = ProjectInputs::new(&args.inputs, Default::default(), false);
    let (mut spec, project) = spec_from_args(&inputs)?;
    take_cosim_argv(&mut spec, project.as_ref(), "cosim");
    let work = match &args.work {
        Some(w) => w.clone(),
        None => default_work(&spec.top)?,
    };
    let calls = if args.reuse_calls {
        CallSource::Captured { dir: work.join("calls"), sources: spec.sources.iter().map(|(p, _)| p.clone()).collect() }
    } else {
        let options = RunOptions {
            cxx: args.cxx.clone().or_else(|| std::env::var("CXX").ok()).unwrap_or_else(|| "g++".into()),
            hls_include: hls_include(args.hls_include.as_deref())?,
            work_dir: None,
            timeout: Duration::from_secs(args.timeout),
            watchdog_ms: 2000,
            kinds: hlsinstr::select::Kinds::parse("modules")?,
            watch: None,
            uninstrumented: true,
            progress: if args.quiet { None } else { Some(progress) },
            cancel: Some(&super::signals::INTERRUPTED),
        };
        CallSource::Testbench { spec: Box::new(spec.clone()), options: Box::new(options) }
    };
    let wave = match (&args.vcd, &args.fst) {
        (Some(p), _) => Some(Wave { path: p.clone(), format: WaveFormat::Vcd }),
        (_, Some(p)) => Some(Wave { path: p.clone(), format: WaveFormat::Fst }),
        _ => None,
    };
    let req = CosimRequest {
        top: spec.top.clone(),
        solution: args.solution.clone(),
        calls,
        work_dir: work,
        simulator: match args.simulator {
            Sim::Verilator => Simulator::Verilator,
            Sim::Icarus => Simulator::Icarus,
        },
        wave,
        timing: MemTiming {
            read_latency: args.read_latency,
            write_latency: args.write_latency,
            outstanding: args.outstanding,
        },
        flow,
        max_cycles: args.max_cycles,
        repeat: args.repeat,
        progress: if args.quiet { None } else { Some(progress) },
    };
    let guard = super::signals::install();
    let outcome = cosim::run(&req);
    drop(guard);
    outcome
}

fn default_work(top: &str) -> Result<PathBuf, Error> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .ok_or_else(|| {
            Error::new(ErrorKind::Usage, "no HOME or XDG_CACHE_HOME for the work directory: give --work DIR")
        })?;
    Ok(base.join("hlsinstr/cosim").join(top))
}

/// The text report: one row per call, both windows, then the verdict.
pub fn text(o: &CosimOutcome) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "C/RTL co-simulation of `{}` ({} RTL, {}): {}",
        o.top,
        o.generator,
        o.simulator.name(),
        if o.passed() { "Pass" } else { "FAIL" }
    );
    let _ = writeln!(s, "solution: {}", o.solution.display());
    let _ = writeln!(s, "\n{:>5}  {:>14}  {:>12}  {:>10}  result", "call", "ap_start..done", "Vitis window", "start@");
    for c in &o.calls {
        let _ = writeln!(
            s,
            "{:>5}  {:>14}  {:>12}  {:>10}  {}",
            c.index,
            c.latency,
            c.vitis_latency,
            c.window.start,
            if c.mismatches.is_empty() { "match" } else { "MISMATCH" }
        );
        for m in &c.mismatches {
            let _ = writeln!(s, "         {m}");
        }
    }
    if !o.calls.is_empty() {
        let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
        let vit: Vec<u64> = o.calls.iter().map(|c| c.vitis_latency).collect();
        let avg = |v: &[u64]| v.iter().sum::<u64>() as f64 / v.len() as f64;
        let _ = writeln!(
            s,
            "\nlatency (cycles)   min/avg/max  ap_start..ap_done {}/{:.1}/{}   Vitis co-sim window {}/{:.1}/{}",
            lat.iter().min().unwrap(),
            avg(&lat),
            lat.iter().max().unwrap(),
            vit.iter().min().unwrap(),
            avg(&vit),
            vit.iter().max().unwrap()
        );
    }
    for e in &o.errors {
        let _ = writeln!(s, "error: {e}");
    }
    for n in &o.notes {
        let _ = writeln!(s, "note: {n}");
    }
    let _ = writeln!(
        s,
        "simulated {} cycles in {:.3} s: {:.0} cycles/s{}",
        o.total_cycles,
        o.sim_seconds,
        o.cycles_per_second,
        if o.build_cached { " (cached build)" } else { "" }
    );
    if let Some(w) = &o.wave {
        let _ = writeln!(s, "waveform: {} (rising edge of cycle n at 10·n ns)", w.display());
    }
    s
}
