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
        csim_build: None,
        project_dir: None,
        common_flags: vec![format!("-I{}", s.display())],
        argv: Vec::new(),
        ldflags: Vec::new(),
        optimize: false,
        kernel_flow: false,
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
        watch: None,
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
        flow: Default::default(),
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
        CallSource::Testbench { spec: Box::new(spec()), options: Box::new(options()) }
    };
    cosim::run(&request(w.path(), sim, calls)).unwrap_or_else(|e| panic!("{e}"))
}

/// Verilator and Icarus on the same captured call: the same windows, cycle for cycle, and the
/// C simulation's outputs (252 ap_start..ap_done with the default memory; see the next test for
/// the fixtures README's 264).
#[test]
fn verilator_and_icarus_agree_and_match_the_c_outputs() {
    let v = run(Simulator::Verilator);
    assert!(v.passed(), "{:?} {:?}", v.errors, v.calls);
    assert_eq!(v.calls.len(), 1);
    let i = run(Simulator::Icarus);
    assert!(i.passed(), "{:?} {:?}", i.errors, i.calls);
    assert_eq!(v.calls[0].window, i.calls[0].window);
    assert_eq!(v.total_cycles, i.total_cycles);
    let c = &v.calls[0];
    assert_eq!(c.latency, c.window.done - c.window.start);
    assert_eq!(c.latency, 252, "{:?}", c.window);
    // Vitis 2022.2's testbench around those 252: the 7 argument words and ap_start written
    // through s_axilite (ap_start seen 51 edges after the call's count began), ap_done at 304
    // seen by the status poll at 307, counted at 312 (src/vitis_tb/mod.rs). Vitis reports 321 with
    // its own memory model, whose run the fixtures README puts at 264: the next test.
    assert_eq!(c.vitis_latency, 312, "{:?}", c.window);
}

/// The fixtures README's 264 cycles came from a testbench whose memory sent the write response
/// late: with the response 68 cycles after the last write beat this harness gives 264 too, and
/// Vitis' window the co-sim report's 321; a response later still moves ap_done with it (the top
/// waits for the result's write).
#[test]
fn a_late_write_response_gives_the_fixture_readmes_264_cycles() {
    let _ = run(Simulator::Verilator); // captured calls and the Verilator build
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let latency = |write_latency: u32| {
        let mut req = request(w.path(), Simulator::Verilator, captured(w.path()));
        req.timing.write_latency = write_latency;
        let o = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.passed(), "{:?}", o.errors);
        (o.calls[0].latency, o.calls[0].vitis_latency)
    };
    // With that run, Vitis' window is the 321 of its co-sim report (src/vitis_tb/mod.rs).
    assert_eq!(latency(68), (264, 321));
    assert_eq!(latency(78).0, 274);
}

/// The command line from the solution's own folder: a relative --solution (the simulators run
/// elsewhere), the JSON report named and versioned.
#[test]
fn the_command_with_a_relative_solution_writes_a_versioned_json_report() {
    let _ = run(Simulator::Verilator);
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(solution())
        .args(["cosim", "--top", "multiplier", "--solution", "solution", "--reuse-calls", "--quiet"])
        .args(["--format", "json"])
        .args(["--src", "design.cpp", "--tb", "design_tb.cpp", "--work"])
        .arg(w.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["format"], "hlsinstr-cosim-report");
    assert_eq!(v["version"], 1);
    assert_eq!(v["calls"][0]["latency"], 252);
}

#[test]
fn a_corrupted_golden_output_is_a_mismatch_naming_the_buffer_and_index() {
    drop(run(Simulator::Verilator)); // capture and build (shared)
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let bad = w.path().join("bad-calls");
    std::fs::create_dir_all(&bad).unwrap();
    for e in std::fs::read_dir(w.path().join("calls")).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        // The first element of `result` after the call: 8 (0x00000008) becomes 9.
        let out: String = text
            .lines()
            .map(|l| {
                if l.starts_with("buffer out result ") {
                    let (head, hex) = l.rsplit_once(' ').unwrap();
                    format!("{head} 09{}\n", &hex[2..])
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        assert_ne!(out, text);
        std::fs::write(bad.join(p.file_name().unwrap()), out).unwrap();
    }
    let mut req = request(w.path(), Simulator::Verilator, captured(w.path()));
    req.calls = CallSource::Captured { dir: bad, sources: vec![solution().join("design.cpp")] };
    let o = cosim::run(&req).unwrap();
    assert!(!o.passed());
    let m = &o.calls[0].mismatches;
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("`result`[0]") && m[0].contains("RTL 8") && m[0].contains("C simulation 9"), "{m:?}");
}

#[test]
fn bad_inputs_give_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let mut req = request(tmp.path(), Simulator::Verilator, captured(tmp.path()));
    req.solution = tmp.path().join("nope");
    let e = cosim::run(&req).unwrap_err().to_string();
    assert!(e.contains("no such directory"), "{e}");
    req.solution = tmp.path().to_path_buf();
    let e = cosim::run(&req).unwrap_err().to_string();
    assert!(e.contains("no generated Verilog"), "{e}");
    let mut req = request(tmp.path(), Simulator::Verilator, captured(tmp.path()));
    req.top = "not_the_top".into();
    let e = cosim::run(&req).unwrap_err().to_string();
    assert!(e.contains("no module `not_the_top`") && e.contains("multiplier"), "{e}");
}

/// A simulator that is not installed is named, with what to do.
#[test]
fn a_missing_simulator_says_what_to_install() {
    let tmp = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["cosim", "--top", "multiplier", "--reuse-calls", "--work"])
        .arg(tmp.path())
        .arg("--src")
        .arg(solution().join("design.cpp"))
        .arg("--tb")
        .arg(solution().join("design_tb.cpp"))
        .arg("--solution")
        .arg(solution())
        .env("PATH", tmp.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`verilator` is not installed") && err.contains("apt-get install verilator"), "{err}");
}

/// `profile` without a waveform runs `cosim` itself and profiles its VCD: the same call
/// (ap_start..ap_done, counted inclusive of the ap_done cycle: 252 + 1), and every cycle goes to
/// a source line or to a module's untagged states.
#[test]
fn profile_without_a_waveform_runs_cosim_and_profiles_its_vcd() {
    let _ = run(Simulator::Verilator);
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(solution())
        .args(["profile", "solution", "--top", "multiplier", "--src", "design.cpp", "--tb", "design_tb.cpp"])
        .args(["--format", "json", "--hls-include"])
        .arg(hls_include())
        .arg("--work")
        .arg(w.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let p: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(p["cycles"], 253);
    assert_eq!(p["calls"].as_array().unwrap().len(), 1);
    let lines: f64 = p["lines"].as_array().unwrap().iter().map(|l| l["share"].as_f64().unwrap()).sum();
    let untagged: f64 = p["modules"].as_array().unwrap().iter().map(|m| m["untagged_share"].as_f64().unwrap()).sum();
    assert!((lines + untagged - 253.0).abs() < 1e-6, "lines {lines} + untagged {untagged}");
}

/// `cosim` on `hlsinstr rtl-probe`'s output (docs/rtl-probe.md): Verilator runs the probed new
/// top (`multiplier_rtlprobe`: the edited design beside the profiling IP, the probe's AXI4-Lite
/// slave idle) on the same captured call as the original solution: the same outputs (both match
/// the C simulation's) in the same cycles.
#[test]
fn the_probed_design_under_verilator_has_the_originals_outputs_and_cycles() {
    let v = run(Simulator::Verilator);
    assert!(v.passed(), "{:?} {:?}", v.errors, v.calls);
    let w = work().lock().unwrap_or_else(|e| e.into_inner());
    let probed = w.path().join("probed");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("rtl-probe")
        .arg(solution().join("solution"))
        .arg("--out")
        .arg(&probed)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let req = CosimRequest { solution: probed.clone(), ..request(w.path(), Simulator::Verilator, captured(w.path())) };
    let p = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
    assert!(p.passed(), "{:?} {:?}", p.errors, p.calls);
    // It simulated the new top, not the top: the wrapper names it.
    let wrap = std::fs::read_dir(w.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("hlsinstr_wrap.v")).ok())
        .find(|t| t.contains("multiplier_rtlprobe dut("));
    assert!(wrap.is_some_and(|t| t.contains("dut.u_design.ap_start")), "the probed top's wrapper");
    assert!(p.notes.iter().any(|n| n.contains("simulating `multiplier_rtlprobe`")), "{:?}", p.notes);
    assert_eq!(p.calls.len(), v.calls.len());
    for (a, b) in v.calls.iter().zip(&p.calls) {
        assert_eq!((a.window.start, a.window.done, a.latency), (b.window.start, b.window.done, b.latency));
    }
    assert_eq!(v.total_cycles, p.total_cycles);
    // Icarus (a build of seconds) on the probed design agrees too.
    let i = cosim::run(&CosimRequest { simulator: Simulator::Icarus, ..req }).unwrap_or_else(|e| panic!("{e}"));
    assert!(i.passed(), "{:?} {:?}", i.errors, i.calls);
    assert_eq!((i.calls[0].window.start, i.calls[0].window.done), (v.calls[0].window.start, v.calls[0].window.done));
}
