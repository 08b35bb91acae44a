//! Command-line layer: one module per subcommand, each an args struct and a `run_*` function.
//!
//! Exit codes (documented in docs/rewrite.md, docs/sim.md, docs/decode.md, docs/emulate.md):
//! 0 success · 1 a file failed or `--strict` saw a skip · 2 usage error · 3 done, but functions
//! or files were skipped (listed as `file:line:col: skipped <function>: <reason>`) · 130
//! interrupted (Ctrl-C or SIGTERM while `sim` or `emulate --run` ran a program).

mod cosim;
mod decode;
mod diff;
mod emulate;
mod examples;
mod man;
mod profile;
mod rewrite;
mod rtl_probe;
mod signals;
mod sim;
mod strip;
mod watch;

use clap::{Args, CommandFactory, Parser, Subcommand};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::rewrite::Outcome;
use std::ffi::OsString;
use std::path::PathBuf;

pub const EXIT_OK: i32 = 0;
pub const EXIT_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_SKIPPED: i32 = 3;

#[derive(Parser, Debug)]
#[command(name = "hlsinstr", version, about = "Insert, show and remove profiling probes in HLS C++ kernels")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Write an instrumented copy of the sources and a probe manifest.
    #[command(after_help = examples::REWRITE)]
    Rewrite(rewrite::RewriteArgs),
    /// Show what `rewrite` would change, as a unified diff; writes nothing.
    #[command(after_help = examples::DIFF)]
    Diff(diff::DiffArgs),
    /// Remove all instrumentation, giving the original sources back byte for byte.
    #[command(after_help = examples::STRIP)]
    Strip(strip::StripArgs),
    /// Run the C simulation with probes and report cycles, critical path and stalls.
    #[command(after_help = examples::SIM)]
    Sim(Box<sim::SimArgs>),
    /// Replay the testbench's calls of the top on the solution's RTL (Verilator or Icarus) and
    /// compare the outputs with the C simulation's (C/RTL co-simulation without Vitis).
    #[command(after_help = examples::COSIM)]
    Cosim(Box<cosim::CosimArgs>),
    /// Turn the in-FPGA monitor's debug dump (dbg.bin) into cycles per module and loop.
    #[command(after_help = examples::DECODE)]
    Decode(decode::DecodeArgs),
    /// Build (and with --run, run) the CPU emulation of rewritten OpenCL kernels (.cl) whose
    /// probes record into iBuffer units.
    #[command(after_help = examples::EMULATE)]
    Emulate(emulate::EmulateArgs),
    /// Probe the RTL of a Vitis HLS solution: thread the handshake of function and loop
    /// instances to a new top with a profiling IP (RealProbe's method).
    #[command(after_help = examples::RTL_PROBE)]
    RtlProbe(rtl_probe::RtlProbeArgs),
    /// Cycles per source line of a synthesized solution, from a waveform of its RTL.
    #[command(after_help = examples::PROFILE)]
    Profile(profile::ProfileArgs),
    /// Print or write the man pages (generated from these same definitions).
    #[command(after_help = examples::MAN)]
    Man(man::ManArgs),
}

/// Options shared by `rewrite` and `diff`: what to read and which probes to insert.
#[derive(Args, Debug, Clone)]
pub struct SelectArgs {
    /// Source files or directories (walked for C/C++ sources and headers).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Probe kinds, comma separated: modules, loops, timestamps, seq, maxi (m_axi bytes; needs
    /// modules), watch (watchpoints, .cl or C++ in C simulation with --top; needs --watch, --watch-range or --invariant), stall
    /// (.cl stall monitors; needs --at).
    #[arg(long, default_value = "modules")]
    pub probes: String,
    /// Probe only functions reachable from this top function.
    #[arg(long)]
    pub top: Option<String>,
    /// Probe only functions whose name matches this glob (repeatable).
    #[arg(long = "only", value_name = "GLOB")]
    pub only: Vec<String>,
    /// Worker threads (default: all cores). Output is identical for any value.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// What the probes are for: `csim` (an event log in C simulation) or `vitis` (the in-FPGA
    /// build: probe FIFOs, a monitor and a new top `<top>_instr`; needs --top).
    #[arg(long, default_value = "csim", value_parser = ["csim", "vitis"])]
    pub target: String,
    /// Name of the new top of `--target vitis` (default `<top>_instr`).
    #[arg(long, value_name = "NAME")]
    pub instr_top: Option<String>,
    /// Depth of every probe FIFO of `--target vitis`.
    #[arg(long, default_value_t = hlsinstr::fpga::vitis::DEFAULT_FIFO_DEPTH)]
    pub fifo_depth: u32,
    /// Clock of the generated build files (`--target vitis`).
    #[arg(long, default_value = "4ns")]
    pub clock: String,
    /// FPGA part of the generated build files (`--target vitis`).
    #[arg(long, default_value = "xcu250-figd2104-2L-e")]
    pub part: String,
    /// The monitor also keeps each probe's longest invocation (`--target vitis`; ~45 LUT/probe).
    #[arg(long)]
    pub monitor_longest: bool,
    /// Records the in-FPGA trace buffer holds in BRAM (`branches`, `watch`; `--target vitis`; even).
    #[arg(long, default_value_t = hlsinstr::fpga::vitis::DEFAULT_TRACE_DEPTH)]
    pub trace_depth: u32,
    /// Records of the trace's DRAM region (`--target vitis`).
    #[arg(long, default_value_t = hlsinstr::fpga::vitis::DEFAULT_TRACE_RECORDS)]
    pub trace_records: u64,
    /// When the DRAM region is full: `wrap` keeps the newest records, `linear` the first ones.
    #[arg(long, default_value = "wrap", value_parser = ["wrap", "linear"])]
    pub trace_mode: String,
    #[command(flatten)]
    pub watching: watch::WatchArgs,
    /// `stall` probes (.cl): a stall monitor around the statement that loads on this line,
    /// `FILE:LINE` or `LINE` (repeatable).
    #[arg(long = "at", value_name = "FILE:LINE")]
    pub at: Vec<String>,
}

impl SelectArgs {
    pub fn options(&self) -> Result<hlsinstr::rewrite::RewriteOptions, Error> {
        if self.fifo_depth < 2 {
            return Err(Error::new(ErrorKind::Usage, "--fifo-depth must be at least 2 (a begin and an end in flight)"));
        }
        if self.trace_depth < 2 || !self.trace_depth.is_multiple_of(2) || self.trace_depth > 1 << 20 {
            return Err(Error::new(
                ErrorKind::Usage,
                "--trace-depth must be even, from 2 to 1048576 (the buffer is flushed half by half)",
            ));
        }
        if self.trace_records == 0 || self.trace_records > 1 << 32 {
            return Err(Error::new(ErrorKind::Usage, "--trace-records must be from 1 to 4294967296"));
        }
        let target = match self.target.as_str() {
            "vitis" => hlsinstr::fpga::Target::Vitis(hlsinstr::fpga::vitis::VitisOptions {
                instr_top: self.instr_top.clone(),
                fifo_depth: self.fifo_depth,
                clock: self.clock.clone(),
                part: self.part.clone(),
                longest: self.monitor_longest,
                trace_depth: self.trace_depth,
                trace_records: self.trace_records,
                trace_wrap: self.trace_mode == "wrap",
            }),
            _ => hlsinstr::fpga::Target::Csim,
        };
        let (kinds, watch) = self.watching.kinds(&self.probes)?;
        let stall = self.at.iter().map(|a| hlsinstr::select::StallLine::parse(a)).collect::<Result<Vec<_>, _>>()?;
        if kinds.stall == stall.is_empty() {
            return Err(Error::new(
                ErrorKind::Usage,
                if kinds.stall {
                    "`--probes stall` needs the lines to monitor: add --at FILE:LINE (the line of a load)"
                } else {
                    "--at goes with `--probes stall`: add `stall` to --probes"
                },
            ));
        }
        if kinds.stall && !matches!(target, hlsinstr::fpga::Target::Csim) {
            return Err(Error::new(
                ErrorKind::Usage,
                "stall probes are for OpenCL C kernels, which have their own build: drop --target vitis",
            ));
        }
        Ok(hlsinstr::rewrite::RewriteOptions {
            kinds,
            select: hlsinstr::select::SelectOptions {
                top: self.top.clone(),
                only: self.only.clone(),
                watch,
                stall,
                kernel_flow: false,
            },
            target,
        })
    }
}

/// Parse arguments, run, and return the exit code.
pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    let result = match cli.command {
        Command::Rewrite(a) => rewrite::run_rewrite(a),
        Command::Diff(a) => diff::run_diff(a),
        Command::Strip(a) => strip::run_strip(a),
        Command::Sim(a) => sim::run_sim(*a),
        Command::Cosim(a) => cosim::run_cosim(*a),
        Command::Decode(a) => decode::run_decode(a),
        Command::Emulate(a) => emulate::run_emulate(a),
        Command::RtlProbe(a) => rtl_probe::run_rtl_probe(a),
        Command::Profile(a) => profile::run_profile(a),
        Command::Man(a) => man::run_man(a, Cli::command()),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("hlsinstr: error: {e}");
            exit_code_for(&e)
        }
    }
}

fn exit_code_for(e: &Error) -> i32 {
    match e.kind {
        ErrorKind::Usage => EXIT_USAGE,
        ErrorKind::Interrupted => signals::EXIT_INTERRUPTED,
        _ => EXIT_ERROR,
    }
}

/// Run `f` on a pool of `jobs` threads (rayon's global pool when `None`).
pub fn with_jobs<T: Send>(jobs: Option<usize>, f: impl FnOnce() -> T + Send) -> Result<T, Error> {
    match jobs {
        None => Ok(f()),
        Some(0) => Err(Error::new(ErrorKind::Usage, "--jobs must be at least 1")),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map(|pool| pool.install(f))
            .map_err(|e| Error::new(ErrorKind::Io, format!("cannot start {n} worker threads: {e}"))),
    }
}

/// Print errors, skips and warnings of a run; return the exit code they imply.
pub fn report(outcome: &Outcome, strict: bool) -> i32 {
    for w in &outcome.warnings {
        eprintln!("{w}");
    }
    for (file, s) in &outcome.skipped {
        eprintln!("{file}:{}:{}: skipped {}: {}", s.line, s.col, s.function, s.reason);
    }
    for e in &outcome.errors {
        eprintln!("hlsinstr: error: {e}");
    }
    if !outcome.errors.is_empty() || (strict && !outcome.skipped.is_empty()) {
        EXIT_ERROR
    } else if !outcome.skipped.is_empty() {
        EXIT_SKIPPED
    } else {
        EXIT_OK
    }
}
