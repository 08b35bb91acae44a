//! `hlsinstr cosim` on the systolic Vitis 2022.2 solution: capture, Verilator and Icarus runs,
//! the two windows, a corrupted golden output, and bad inputs. The Verilator and Icarus builds
//! are made once per test binary (a shared work directory: the builds are cached there).

mod common;

use common::{fixtures, hls_include};
use hlsinstr::cosim::{self, CallSource, CosimOutcome, CosimRequest, MemTiming, Simulator};
use hlsinstr::sim::run::{RunOptions, RunSpec};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

fn solution() -> PathBuf {
    fixtures().join("vitis-solution/2022.2-systolic-mm")
}

/// The shared work directory; the lock serialises runs (they share `run/` and the builds).
fn work() -> &'static Mutex<tempfile::TempDir> {
    static W: OnceLock<Mutex<tempfile::TempDir>> = OnceLock::new();
    W.get_or_init(|| Mutex::new(tempfile::tempdir().unwrap()))
}

fn spec() -> RunSpec {
    let s = solution();
    RunSpec {
        top: "multiplier".into(),
        sources: vec![(s.join("design.cpp"), Vec::new())],
        testbench: vec![(s.join("design_tb.cpp"), Vec::new())],
        data_files: Vec::new(),
        common_flags: vec![format!("-I{}", s.display())],
        argv: Vec::new(),
        ldflags: Vec::new(),
    }
}

fn options() -> RunOptions {
    RunOptions {
        cxx: "g++".into(),
        hls_include: hls_include(),
        work_dir: None,
        timeout: Duration::from_secs(120),
        watchdog_ms: 2000,
        kinds: hlsinstr::select::Kinds::parse("modules").unwrap(),
        uninstrumented: true,
        progress: None,
        cancel: None,
    }
}

fn request(work: &Path, sim: Simulator, calls: CallSource) -> CosimRequest {
    CosimRequest {
        top: "multiplier".into(),
        solution: solution(),
        calls,
        work_dir: work.to_path_buf(),
        simulator: sim,
        wave: None,
        timing: MemTiming::default(),
        max_cycles: 100_000,
        repeat: 1,
        progress: None,
    }
}

fn captured(work: &Path) -> CallSource {
    CallSource::Captured { dir: work.join("calls"), sources: vec![solution().join("design.cpp")] }
}

/// Capture once (the first test to get here runs the testbench), then replay.
fn run(sim: Simulator) -> CosimOutcome {
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let calls = if w.path().join("calls").is_dir() {
        captured(w.path())
    } else {
        CallSource::Testbench { spec: spec(), options: options() }
    };
    cosim::run(&request(w.path(), sim, calls)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn verilator_reproduces_264_cycles_321_in_vitis_window_and_the_c_outputs() {
    let o = run(Simulator::Verilator);
    assert!(o.passed(), "{:?} {:?}", o.errors, o.calls);
    assert_eq!(o.calls.len(), 1);
    assert_eq!(o.calls[0].latency, 264, "{:?}", o.calls[0].window);
    assert_eq!(o.calls[0].vitis_latency, 321);
}
