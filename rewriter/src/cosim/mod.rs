//! C/RTL co-simulation without a vendor simulator, and the vendor's co-simulation reports.
//!
//! Pipeline: [`solution`] (find the generated Verilog, classify the top's interfaces) →
//! [`capture`] (run the C testbench, record every call of the top) → plan (each call as bus
//! operations: buffers at addresses, s_axilite writes, port values) → [`build`] (Verilator or
//! Icarus harness, cached) → run → compare the RTL's outputs with the C model's and report
//! per-call latency. [`report`] reads Vitis' own co-simulation reports (`sim --cosim`).
//!
//! Entry point for other commands (`profile`): [`run`] with a [`CosimRequest`]; the
//! [`CosimOutcome`] has the waveform path and each call's cycle windows.

mod aggregate;
mod bind;
pub mod build;
pub mod capture;
mod layout;
mod partition;
mod plan;
pub mod report;
pub mod solution;
pub mod verilog;

pub use build::{Simulator, WaveFormat};
pub use report::*;

use crate::error::{Error, ErrorKind, Result};
use crate::sim::run::{RunOptions, RunSpec};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the calls to replay come from.
#[derive(Debug, Clone)]
pub enum CallSource {
    /// Run the C testbench (`sim`'s build) and capture its calls of the top.
    Testbench { spec: Box<RunSpec>, options: Box<RunOptions> },
    /// Calls captured before (`<work>/calls`, `call-NNNNNN.cap` files), with the top's signature
    /// read from these synthesis sources.
    Captured { dir: PathBuf, sources: Vec<PathBuf> },
}

/// The m_axi memory model's timing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MemTiming {
    /// Cycles from a read burst accepted to its first beat offered.
    pub read_latency: u32,
    /// Cycles from a write burst's last beat to its response.
    pub write_latency: u32,
    /// Bursts in flight per direction and bundle.
    pub outstanding: u32,
}

impl Default for MemTiming {
    fn default() -> Self {
        MemTiming { read_latency: 8, write_latency: 4, outstanding: 16 }
    }
}

/// How the harness's side of the streams moves: output streams are FIFOs of `fifo_depth`
/// elements (0: unbounded, always ready) drained one element per cycle whose `stall_pattern`
/// bit is `1`; input streams offer their next element only in such cycles. The pattern
/// (`1`s and `0`s) repeats from each call's start. Default: unbounded, `1`: never stalls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StreamFlow {
    pub fifo_depth: u64,
    pub stall_pattern: String,
    /// Settings of single streams, by C argument name (`--stream-flow NAME=DEPTH[:PATTERN]`),
    /// in place of the two above for that stream.
    pub streams: std::collections::BTreeMap<String, StreamFlow>,
}

impl Default for StreamFlow {
    fn default() -> Self {
        StreamFlow { fifo_depth: 0, stall_pattern: "1".into(), streams: Default::default() }
    }
}

impl StreamFlow {
    /// `NAME=DEPTH[:PATTERN]` (`--stream-flow`): the pattern defaults to `1` (never stalls).
    pub fn parse_stream(spec: &str) -> Result<(String, StreamFlow)> {
        let bad = || {
            Error::new(
                ErrorKind::Usage,
                format!(
                    "--stream-flow {spec:?}: give NAME=DEPTH[:PATTERN], the stream's C argument name, its FIFO                      depth (0: unbounded) and a `0`/`1` pattern, e.g. out=2:110"
                ),
            )
        };
        let (name, rest) = spec.split_once('=').ok_or_else(bad)?;
        let (depth, pattern) = rest.split_once(':').unwrap_or((rest, "1"));
        let name = name.trim();
        if name.is_empty() {
            return Err(bad());
        }
        let flow = StreamFlow {
            fifo_depth: depth.trim().parse().map_err(|_| bad())?,
            stall_pattern: pattern.trim().to_string(),
            streams: Default::default(),
        };
        flow.check()?;
        Ok((name.to_string(), flow))
    }

    /// A pattern of `0`/`1` with at least one `1` (else nothing would ever move).
    pub fn check(&self) -> Result<()> {
        for f in self.streams.values() {
            f.check()?;
        }
        let p = &self.stall_pattern;
        if p.is_empty() || !p.bytes().all(|c| c == b'0' || c == b'1') || !p.contains('1') || p.len() > 4096 {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "--stall-pattern {p:?}: give up to 4096 `0`/`1` characters with at least one `1` (`1`: the \
                     stream side moves that cycle, `0`: it stalls), e.g. 110"
                ),
            ));
        }
        Ok(())
    }
}

/// A waveform to write.
#[derive(Debug, Clone)]
pub struct Wave {
    pub path: PathBuf,
    pub format: WaveFormat,
}

/// What to co-simulate.
#[derive(Debug, Clone)]
pub struct CosimRequest {
    pub top: String,
    /// The solution directory (or a project / Vitis component holding one).
    pub solution: PathBuf,
    pub calls: CallSource,
    /// Work directory: capture, builds (cached across runs), plan and results.
    pub work_dir: PathBuf,
    pub simulator: Simulator,
    pub wave: Option<Wave>,
    pub timing: MemTiming,
    /// Back-pressure and starvation of the stream models.
    pub flow: StreamFlow,
    /// A call that runs longer than this many cycles is an error.
    pub max_cycles: u64,
    /// Replay every captured call this many times (long runs for speed measurements).
    pub repeat: u32,
    pub progress: Option<fn(&str)>,
}

/// Cycle windows of one call (cycle numbers count rising edges since the harness started; in
/// a Verilator waveform, rising edge `n` is at time `10·n` ns).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CallWindow {
    /// Harness cycle at which the call's first bus operation (an s_axilite write, or ap_start
    /// on a port) was presented.
    pub first: u64,
    /// First rising edge with ap_start high.
    pub start: u64,
    /// First rising edge with ap_done high.
    pub done: u64,
    /// When the block was idle again with every bus quiet (the next call starts after this).
    pub end: u64,
}

/// One replayed call.
#[derive(Debug, Clone, Serialize)]
pub struct CallOutcome {
    pub index: usize,
    /// Which captured call it replays (`call-NNNNNN.cap`).
    pub capture: String,
    pub window: CallWindow,
    /// ap_start..ap_done: `done - start` cycles.
    pub latency: u64,
    /// The call as Vitis' co-simulation report counts it: for s_axilite control on Vitis ≤ 2022.2 and 2023.2+,
    /// its testbench's argument writes, start write and status polls around ap_start..ap_done;
    /// otherwise first bus operation..ap_done (docs/cosim.md).
    pub vitis_latency: u64,
    /// Outputs that differ from the C simulation's (empty: the call passed).
    pub mismatches: Vec<String>,
    /// Cycles the design waited on a full output stream (`--fifo-depth`), summed over streams.
    pub output_stalls: u64,
}

/// The name and version of `cosim --format json` (docs/versions.md).
pub const REPORT_FORMAT: &str = "hlsinstr-cosim-report";
pub const REPORT_VERSION: u32 = 1;

/// `outcome` as the JSON report: its format and version, then its fields.
pub fn report_json(outcome: &CosimOutcome) -> String {
    #[derive(Serialize)]
    struct Doc<'a> {
        format: &'static str,
        version: u32,
        #[serde(flatten)]
        outcome: &'a CosimOutcome,
    }
    let doc = Doc { format: REPORT_FORMAT, version: REPORT_VERSION, outcome };
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

/// What a co-simulation found.
#[derive(Debug, Clone, Serialize)]
pub struct CosimOutcome {
    pub top: String,
    pub simulator: Simulator,
    pub solution: PathBuf,
    /// Vitis HLS or Vivado HLS (from the RTL's header).
    pub generator: String,
    pub interfaces: solution::Interfaces,
    pub calls: Vec<CallOutcome>,
    /// Every simulated cycle, reset included.
    pub total_cycles: u64,
    /// Wall time of the simulation loop alone (not the build).
    pub sim_seconds: f64,
    pub cycles_per_second: f64,
    pub build_cached: bool,
    pub wave: Option<PathBuf>,
    pub work_dir: PathBuf,
    /// Problems found that are not output mismatches (writes outside every buffer).
    pub errors: Vec<String>,
    pub notes: Vec<String>,
}

impl CosimOutcome {
    /// No mismatch and no error.
    pub fn passed(&self) -> bool {
        self.errors.is_empty() && self.calls.iter().all(|c| c.mismatches.is_empty())
    }
}

/// Run a co-simulation. Everything it writes goes under `req.work_dir` (and the waveform path).
pub fn run(req: &CosimRequest) -> Result<CosimOutcome> {
    let say = |m: &str| {
        if let Some(f) = req.progress {
            f(m)
        }
    };
    req.flow.check()?;
    let sol = solution::find(&req.solution)?;
    let ifs = solution::interfaces(&sol, &req.top)?;
    std::fs::create_dir_all(&req.work_dir).map_err(|e| Error::io(&req.work_dir, &e))?;
    let work = req.work_dir.canonicalize().map_err(|e| Error::io(&req.work_dir, &e))?;
    // The simulator first: a missing tool is news before a long C build.
    check_tool(req.simulator)?;
    let (sig, files) = match &req.calls {
        CallSource::Testbench { spec, options } => {
            let (spec, options) = (spec.as_ref(), options.as_ref());
            let sources: Vec<PathBuf> = spec.sources.iter().map(|(p, _)| p.clone()).collect();
            let sig = capture::top_signature(&sources, &req.top)?;
            say("running the C testbench and capturing the calls of the top");
            let files = capture::capture(spec, options, &sig, &work)?;
            (sig, files)
        }
        CallSource::Captured { dir, sources } => {
            let sig = capture::top_signature(sources, &req.top)?;
            let files = capture::call_files(dir)?;
            if files.is_empty() {
                return Err(Error::new(ErrorKind::Usage, "no captured calls (call-*.cap) there").at(dir));
            }
            (sig, files)
        }
    };
    let mut sig = sig;
    if let Some(d) = &sol.directives {
        let text = std::fs::read_to_string(d).map_err(|e| Error::io(d, &e))?;
        sig.partitions.extend(partition::from_directives_tcl(&text, &req.top));
    }
    let mut calls = Vec::new();
    for f in &files {
        calls.push(plan::read_call(f)?);
    }
    let plan = plan::make(&ifs, &sig, &calls, req)?;
    let run_dir = work.join("run");
    std::fs::create_dir_all(&run_dir).map_err(|e| Error::io(&run_dir, &e))?;
    let plan_path = run_dir.join("plan.txt");
    std::fs::write(&plan_path, &plan.text).map_err(|e| Error::io(&plan_path, &e))?;
    let results = run_dir.join(format!("results-{}.txt", req.simulator.name()));
    let _ = std::fs::remove_file(&results);
    let wave_fmt = req.wave.as_ref().map(|w| w.format);
    say(&format!("building the {} harness", req.simulator.name()));
    let built = match req.simulator {
        Simulator::Verilator => build::verilator(&sol, &ifs, &work, wave_fmt)?,
        Simulator::Icarus => build::icarus(&sol, &ifs, &work, wave_fmt)?,
    };
    say(&format!("simulating {} call(s)", plan.calls.len()));
    let started = Instant::now();
    let mut cmd = match req.simulator {
        Simulator::Verilator => {
            let mut c = std::process::Command::new(&built.exe);
            c.arg(&plan_path).arg(&results);
            if let Some(w) = &req.wave {
                c.arg("--wave").arg(abs(&w.path)?);
            }
            c
        }
        Simulator::Icarus => {
            let mut c = std::process::Command::new("vvp");
            c.arg("-n")
                .arg("-M")
                .arg(built.vpi_dir.as_ref().unwrap_or(&built.dir))
                .arg("-m")
                .arg("icarus_vpi")
                .arg(&built.exe);
            c.arg(format!("+plan={}", plan_path.display())).arg(format!("+results={}", results.display()));
            if let Some(w) = &req.wave {
                c.arg(format!("+vcd={}", abs(&w.path)?.display()));
            }
            c
        }
    };
    let out = cmd
        .current_dir(&run_dir)
        .output()
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot run the simulation: {e}")))?;
    let wall = started.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() || !results.is_file() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("the {} simulation failed ({}):\n{}{}", req.simulator.name(), out.status, stdout, stderr),
        ));
    }
    let sim_seconds = stdout
        .lines()
        .find_map(|l| {
            l.strip_prefix("simulated ").and_then(|r| r.split_whitespace().nth(3)).and_then(|s| s.parse().ok())
        })
        .unwrap_or(wall);
    let res = plan::read_results(&results)?;
    let mut outcome_calls = Vec::new();
    for (k, (pc, rc)) in plan.calls.iter().zip(&res.calls).enumerate() {
        let w = &rc.window;
        let mismatches = plan::compare(pc, rc, &calls[pc.capture]);
        outcome_calls.push(CallOutcome {
            index: k,
            capture: files[pc.capture].file_name().unwrap_or_default().to_string_lossy().into_owned(),
            window: w.clone(),
            latency: w.done.saturating_sub(w.start),
            vitis_latency: vitis_window(&ifs, pc, w, k > 0),
            mismatches,
            output_stalls: rc.stalls,
        });
    }
    if res.calls.len() != plan.calls.len() {
        return Err(Error::new(
            ErrorKind::Internal,
            format!("the harness reported {} calls of {}", res.calls.len(), plan.calls.len()),
        ));
    }
    let mut notes = ifs.notes.clone();
    if res.stray_reads > 0 {
        notes.push(format!(
            "the RTL read {} byte(s) outside every buffer (read as 0): bus-width alignment, or a depth smaller than \
             what the design reads",
            res.stray_reads
        ));
    }
    Ok(CosimOutcome {
        top: req.top.clone(),
        simulator: req.simulator,
        solution: sol.dir.clone(),
        generator: ifs.generator.clone(),
        interfaces: ifs,
        calls: outcome_calls,
        total_cycles: res.cycles,
        sim_seconds,
        cycles_per_second: if sim_seconds > 0.0 { res.cycles as f64 / sim_seconds } else { 0.0 },
        build_cached: built.cached,
        wave: req.wave.as_ref().map(|w| w.path.clone()),
        work_dir: work,
        errors: res.errors,
        notes,
    })
}

fn abs(p: &Path) -> Result<PathBuf> {
    if p.is_absolute() {
        return Ok(p.to_path_buf());
    }
    Ok(std::env::current_dir().map_err(|e| Error::io(".", &e))?.join(p))
}

fn check_tool(sim: Simulator) -> Result<()> {
    let (tool, hint) = match sim {
        Simulator::Verilator => {
            ("verilator", "install Verilator 5 (apt-get install verilator), or use --simulator icarus")
        }
        Simulator::Icarus => {
            ("iverilog", "install Icarus Verilog (apt-get install iverilog), or use --simulator verilator")
        }
    };
    match std::process::Command::new(tool).arg("-V").output() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(Error::new(ErrorKind::Usage, format!("`{tool}` is not installed or not on PATH: {hint}")))
        }
        _ => Ok(()),
    }
}

/// The call as Vitis' co-simulation report would count it. Block control on s_axilite, RTL of
/// Vitis ≤ 2022.2 and 2023.2+: its testbench's argument writes (the words that changed since the previous
/// call), start write and status polls around this run's ap_start..ap_done
/// ([`crate::vitis_tb`]; `after` a previous call, which 2023.2's testbench counts from that
/// call's end). Otherwise: from the call's first bus operation (ap_start on a port, or the first
/// s_axilite write of a newer version's testbench) to ap_done, as measured here.
fn vitis_window(ifs: &solution::Interfaces, call: &plan::PlannedCall, w: &CallWindow, after: bool) -> u64 {
    let on_axilite = ifs.control_bundle.is_some() && ifs.control != solution::Control::None;
    let run = w.done.saturating_sub(w.start);
    match crate::vitis_tb::Window::for_top(ifs.version.as_deref(), on_axilite, call.control_words.clone()) {
        crate::vitis_tb::Window::Handshake => w.done.saturating_sub(w.first),
        turns @ crate::vitis_tb::Window::AxiLitePolled2023 { .. } => turns.cycles_after(after.then_some(run), run),
        polled => polled.cycles(run),
    }
}
