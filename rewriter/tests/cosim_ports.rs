//! `hlsinstr cosim` on port-level interfaces, with hand-written RTL in the form Vitis HLS and
//! Vivado HLS generate (tests/cosim/<design>/: C++ source and testbench, and a solution folder
//! with the Verilog and its csynth.xml interface table; tests/cosim/README.md):
//! - `mixed` (Vitis 2022.2 names): ap_ctrl_chain, ap_memory (one dual-port ROM, one RAM read and
//!   written), ap_ack / ap_vld / ap_hs inputs, ap_vld / ap_hs outputs, ap_fifo in and out
//!   (`in_r`/`out_r`: Vitis renames Verilog keywords), ap_return;
//! - `axpb` (Vitis 2022.2 names): ap_ctrl_hs, ap_none ap_int and short inputs, ap_return;
//! - `packet` (Vivado HLS 2018.3 names, with hlsinstr's model of `ap_axi_sdata.h`): ap_ctrl_none, axis in and out with TKEEP/TSTRB/TUSER/
//!   TLAST/TID/TDEST, ap_fifo in and out (`shift_V_V_dout`, `dst_V_din`).
//!
//! Each design: capture the testbench's calls, replay them in Verilator and in Icarus (the same
//! windows, cycle for cycle, and the C outputs), the exact latency the RTL's FSM has, and a
//! copy of the RTL with one wrong output, which must fail as a mismatch (exit 1).

mod common;

use common::{hls_include, repo};
use hlsinstr::cosim::{self, CallSource, CosimOutcome, CosimRequest, MemTiming, Simulator};
use hlsinstr::sim::run::{RunOptions, RunSpec};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// One work directory for the tests, one at a time: the Icarus VPI module (the same for every
/// design) is built there once. Each design captures into it afresh.
fn work() -> std::sync::MutexGuard<'static, tempfile::TempDir> {
    static W: OnceLock<Mutex<tempfile::TempDir>> = OnceLock::new();
    W.get_or_init(|| Mutex::new(tempfile::tempdir().unwrap())).lock().unwrap_or_else(|e| e.into_inner())
}

fn design(name: &str) -> PathBuf {
    repo().join("tests/cosim").join(name)
}

fn request(name: &str, solution: PathBuf, work: &Path, sim: Simulator, calls: CallSource) -> CosimRequest {
    CosimRequest {
        top: name.into(),
        solution,
        calls,
        work_dir: work.to_path_buf(),
        simulator: sim,
        wave: None,
        timing: MemTiming::default(),
        max_cycles: 10_000,
        repeat: 1,
        progress: None,
    }
}

/// Run the design's testbench, capture its calls and replay them in `sim`.
fn capture_and_run(name: &str, work: &Path, sim: Simulator) -> CosimOutcome {
    let d = design(name);
    let spec = RunSpec {
        top: name.into(),
        sources: vec![(d.join(format!("{name}.cpp")), Vec::new())],
        testbench: vec![(d.join(format!("{name}_tb.cpp")), Vec::new())],
        data_files: Vec::new(),
        common_flags: Vec::new(),
        argv: Vec::new(),
        ldflags: Vec::new(),
        optimize: false,
    };
    let options = RunOptions {
        cxx: "g++".into(),
        hls_include: hls_include(),
        work_dir: None,
        timeout: Duration::from_secs(120),
        watchdog_ms: 2000,
        kinds: hlsinstr::select::Kinds::parse("modules").unwrap(),
        uninstrumented: true,
        progress: None,
        cancel: None,
        watch: None,
    };
    let tb = CallSource::Testbench { spec: Box::new(spec), options: Box::new(options) };
    let o = cosim::run(&request(name, d.join("solution"), work, sim, tb)).unwrap_or_else(|e| panic!("{e}"));
    assert!(o.passed(), "{}: {:?} {:#?}", sim.name(), o.errors, o.calls);
    o
}

/// Capture in Verilator's run, replay the same calls in Icarus; both must pass and agree.
fn both(name: &str, work: &Path) -> CosimOutcome {
    let d = design(name);
    let v = capture_and_run(name, work, Simulator::Verilator);
    let captured = CallSource::Captured { dir: work.join("calls"), sources: vec![d.join(format!("{name}.cpp"))] };
    let i = cosim::run(&request(name, d.join("solution"), work, Simulator::Icarus, captured))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(i.passed(), "icarus: {:?} {:#?}", i.errors, i.calls);
    let windows = |o: &CosimOutcome| o.calls.iter().map(|c| c.window.clone()).collect::<Vec<_>>();
    assert_eq!(windows(&v), windows(&i), "Verilator and Icarus disagree");
    assert_eq!(v.total_cycles, i.total_cycles);
    v
}

/// The design's solution copied with `from` replaced by `to` in its Verilog, replayed in Icarus
/// on the calls captured in `work` through the command line (the VPI module built there is
/// reused): exit 1, and its report.
fn wrong_rtl(name: &str, work: &Path, from: &str, to: &str) -> String {
    let d = design(name);
    let tmp = tempfile::tempdir().unwrap();
    let v = tmp.path().join("solution/syn/verilog");
    std::fs::create_dir_all(&v).unwrap();
    let rtl = std::fs::read_to_string(d.join(format!("solution/syn/verilog/{name}.v"))).unwrap();
    assert!(rtl.contains(from), "{from} not in the RTL");
    std::fs::write(v.join(format!("{name}.v")), rtl.replace(from, to)).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(&d)
        .args(["cosim", "--top", name, "--reuse-calls", "--quiet", "--simulator", "icarus"])
        .args(["--src", &format!("{name}.cpp"), "--tb", &format!("{name}_tb.cpp"), "--solution"])
        .arg(tmp.path().join("solution"))
        .arg("--work")
        .arg(work)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// Latency of `mixed` by its FSM: ap_start seen in state 1, the arguments taken in state 2 (their
/// valids are up with ap_start), then 4 iterations of a fifo read state and a compute/write
/// state, the outputs in state 5 (cnt's ap_ack is held high), ap_done in state 6: 11 edges.
#[test]
fn every_port_interface_of_a_vitis_top_with_ap_ctrl_chain() {
    let work = work();
    let o = both("mixed", work.path());
    assert_eq!(o.generator, "Vitis HLS");
    assert_eq!(o.calls.len(), 3);
    for c in &o.calls {
        assert_eq!(c.latency, 11, "{c:?}");
        assert_eq!(c.vitis_latency, 11, "{c:?}");
    }
    // The second call returns 23 + 100 = 123 (its testbench line: `return 123 peak 23 cnt 3`).
    let res = std::fs::read_to_string(work.path().join("run/results-icarus.txt")).unwrap();
    assert!(res.contains("port peak 17000000") && res.contains("port cnt 03000000"), "{res}");
    assert!(res.contains("ret 7b000000"), "{res}");
    let report = wrong_rtl(
        "mixed",
        work.path(),
        "assign out_r_din = y_fu_100_p2 + bias_read_reg;",
        "assign out_r_din = y_fu_100_p2 + bias_read_reg + 32'd1;",
    );
    assert!(report.contains("Fail") || report.contains("FAIL"), "{report}");
    assert!(report.contains("`out`[0]: RTL 1 (0x1) , C simulation 0 (0x0)"), "{report}");

    // ap_ctrl_hs with ap_none ports and ap_int values (Icarus alone: the build that takes
    // seconds is Verilator's, and the two agree on the designs above). By its FSM: arguments
    // registered with ap_start, the product, then ap_done with the sum: 2 edges.
    let o = capture_and_run("axpb", work.path(), Simulator::Icarus);
    let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
    assert_eq!(lat, [2, 2, 2]);
    let res = std::fs::read_to_string(work.path().join("run/results-icarus.txt")).unwrap();
    // axpb(-2047, 7, 1000) = -13329 as 20 bits: 0xfcbef.
    assert!(res.contains("ret efcb0f00"), "{res}");
    let report = wrong_rtl("axpb", work.path(), "mul_ln7_reg_65[19:0] +", "mul_ln7_reg_65[19:0] - 20'd1 +");
    assert!(report.contains("return value: RTL -13330"), "{report}");
}

/// Latency of `packet` (ap_ctrl_none: from the inputs offered to the last output handshake): the
/// shift value read in state 1, one beat per cycle in state 2 (3 and 5 beats), the sum written in
/// state 3: beats + 1 edges.
#[test]
fn axis_side_channels_and_vivado_hls_fifo_names_without_block_control() {
    let work = work();
    let o = both("packet", work.path());
    assert_eq!(o.generator, "Vivado HLS");
    let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
    assert_eq!(lat, [4, 6]);
    // TLAST dropped on the echo: a mismatch in the packed element (TLAST is bit 41 of 42).
    let report = wrong_rtl("packet", work.path(), "assign echo_TLAST = src_TLAST;", "assign echo_TLAST = 1'b0;");
    assert!(report.contains("`echo`[2]"), "{report}");
}
