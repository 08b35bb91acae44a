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
        flow: Default::default(),
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
        csim_build: None,
        project_dir: None,
        common_flags: Vec::new(),
        argv: Vec::new(),
        ldflags: Vec::new(),
        optimize: false,
        kernel_flow: false,
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
    for f in std::fs::read_dir(d.join("solution/syn/verilog")).unwrap() {
        let f = f.unwrap().path();
        std::fs::copy(&f, v.join(f.file_name().unwrap())).unwrap();
    }
    std::fs::write(v.join(format!("{name}.v")), rtl.replace(from, to)).unwrap();
    if let Ok(d) = std::fs::read_to_string(d.join("solution/directives.tcl")) {
        std::fs::write(tmp.path().join("solution/directives.tcl"), d).unwrap();
    }
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

/// Latency of `banks` by its FSM: ap_start seen in state 1, 4 iterations of a read state and a
/// write state over the banks of `a`, `b` and `m`, 2 iterations of a read and a write state on
/// both ports of `acc`, the outputs with ap_done in state 6: 1 + 8 + 4 = 13 edges.
#[test]
fn partitioned_arrays_and_a_dual_port_ram() {
    let work = work();
    let o = both("banks", work.path());
    let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
    assert_eq!(lat, [13, 13]);
    // Each bank is its own RAM with the partition's elements: `a` cyclic 2 (a_1 holds the odd
    // elements), `b` block 2 (b_1 holds b[4..8]), `m` dim 1 complete (m_1 is row 1).
    let plan = std::fs::read_to_string(work.path().join("run/plan.txt")).unwrap();
    let a = |i: i32| format!("{:08x}", ((i + 1) * 3 - 7).swap_bytes());
    assert!(plan.contains(&format!("ramdata a_1 {}{}{}{}", a(1), a(3), a(5), a(7))), "{plan}");
    assert!(plan.contains("ramdata m_1 0a000000140000001e00000028000000"), "{plan}");
    let res = std::fs::read_to_string(work.path().join("run/results-icarus.txt")).unwrap();
    // b[4..8] = a[2i] - a[2i+1] = -3 in the first call; o[1] = c[0] ^ c[3] = 5 ^ 38 = 35.
    assert!(res.contains("ram b_1 fdfffffffdfffffffdfffffffdffffff"), "{res}");
    assert!(res.contains("port o_1 23000000"), "{res}");
    // A bank read at the wrong address is a mismatch named by the C element.
    let report =
        wrong_rtl("banks", work.path(), "assign a_1_address0 = i_fu_36[1:0];", "assign a_1_address0 = ~i_fu_36[1:0];");
    assert!(report.contains("`b`[0]:"), "{report}");
}

/// Latency of `bram18` by its FSM: ap_start seen in state 1, 4 iterations of a read state (both
/// BRAM ports, one bank of `t`) and a write state, the sum with ap_done in state 4: 9 edges.
/// Icarus alone (Verilator agrees on the designs above; its build takes most of a minute here).
#[test]
fn vivado_bram_interface_with_byte_enables_and_partition_from_directives_tcl() {
    let work = work();
    let o = capture_and_run("bram18", work.path(), Simulator::Icarus);
    assert_eq!(o.generator, "Vivado HLS");
    let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
    assert_eq!(lat, [9, 9]);
    let plan = std::fs::read_to_string(work.path().join("run/plan.txt")).unwrap();
    assert!(plan.contains("ram w_V 2 2 bram") && plan.contains("ram t_1_V 1 2 ap_memory"), "{plan}");
    // Writing the odd element's high byte too (byte enables 11): a mismatch on w[1].
    let report =
        wrong_rtl("bram18", work.path(), "ap_CS_fsm_state3 ? 2'b01 : 2'b00", "ap_CS_fsm_state3 ? 2'b11 : 2'b00");
    assert!(report.contains("`w`[1]: RTL"), "{report}");
}

/// `lite2`: `x` and `y` on s_axilite bundle `ctrl2`, `k`, the block control and the return value
/// on `control`, each bundle its own adapter. By the adapters (3 edges per write: AW, W, B) and
/// the harness's order (the other bundles first, one edge before the control bundle's writes,
/// ap_start last): x, y, k and ap_start take 4 × 3 + 1 = 13 edges from the first write to the
/// edge where the FSM sees ap_start; then 2 edges to ap_done (the product, then the sum).
#[test]
fn two_s_axilite_bundles() {
    let work = work();
    let o = capture_and_run("lite2", work.path(), Simulator::Icarus);
    assert_eq!(o.interfaces.axilite.len(), 2);
    assert_eq!(o.interfaces.control_bundle.as_deref(), Some("control"));
    for c in &o.calls {
        assert_eq!((c.latency, c.vitis_latency), (2, 15), "{c:?}");
    }
    let plan = std::fs::read_to_string(work.path().join("run/plan.txt")).unwrap();
    assert!(plan.contains("reg ctrl2 18 3e8\nreg control 18 5\n"), "{plan}");
    // y read from the wrong bundle's register: every return value differs.
    let report =
        wrong_rtl("lite2", work.path(), "assign ap_return = mul_reg_58 + y;", "assign ap_return = mul_reg_58 + k;");
    assert!(report.contains("return value: RTL"), "{report}");
}

/// The same `lite2` RTL with a Vitis 2023.2 header: Vitis' window is 2023.2's testbench around
/// the run (src/vitis_tb/mod.rs, `turns_2023`; `k`, 1 word on the control bundle, changes every
/// call). First call: poll 0-4, `k` written 5-10 (the start armed from 13), the start idle at 11,
/// poll 12-16, `k` idle at 17, the start written at 18 (ap_start seen at 21, ap_done at 23),
/// the poll at 24 sees it: 30, counted from 1: 29. A later call is counted from the previous
/// one's end (6 edges after its done poll began at 0): `k` and the start pass at 5 and 6 (the
/// flags re-armed from 9), poll 7-11, `k` written 12-17 (the start armed from 20), the start
/// idle at 18, poll 19-23, `k` idle at 24, the start at 25 (ap_done at 30), the poll at 31 sees
/// it: 37 - 6 = 31.
#[test]
fn a_2023_2_header_counts_later_calls_from_the_previous_end() {
    let work = work();
    capture_and_run("lite2", work.path(), Simulator::Icarus);
    let d = design("lite2");
    let tmp = tempfile::tempdir().unwrap();
    let v = tmp.path().join("solution/syn/verilog");
    std::fs::create_dir_all(&v).unwrap();
    for f in std::fs::read_dir(d.join("solution/syn/verilog")).unwrap() {
        let f = f.unwrap().path();
        let text = std::fs::read_to_string(&f).unwrap();
        let header = "// Vitis HLS - High-Level Synthesis from C, C++ and OpenCL v2023.2 (64-bit)\n";
        std::fs::write(v.join(f.file_name().unwrap()), format!("{header}{text}")).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(&d)
        .args(["cosim", "--top", "lite2", "--reuse-calls", "--quiet", "--simulator", "icarus", "--format", "json"])
        .args(["--src", "lite2.cpp", "--tb", "lite2_tb.cpp", "--solution"])
        .arg(tmp.path().join("solution"))
        .arg("--work")
        .arg(work.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let calls = rep["calls"].as_array().unwrap();
    let got: Vec<(u64, u64)> =
        calls.iter().map(|c| (c["latency"].as_u64().unwrap(), c["vitis_latency"].as_u64().unwrap())).collect();
    assert_eq!(got, [(2, 29), (2, 31), (2, 31)], "{rep}");
}

/// Back-pressure and starvation of the stream models on `packet`: output FIFOs of one element
/// drained, and input elements offered, only in cycles whose pattern bit is 1 (`10`: the even
/// cycles counted from the call's load; the first cycle of a call is odd). By hand, for 3
/// beats: the shift value read at edge 2; beat 1 at edge 4 fills `echo`; edge 6 offers beat 2
/// while `echo` is full (one stall) and drains it; beat 2 at edge 8, a stall at 10, beat 3 at
/// 12; the sum into `dst` at 13: 12 edges after the call's start at edge 1 (4 without
/// back-pressure), 2 stalls. 5 beats: 20 edges, 4 stalls. Both simulators, the same windows.
#[test]
fn stream_back_pressure_and_starvation() {
    let work = work();
    let d = design("packet");
    let flow = cosim::StreamFlow { fifo_depth: 1, stall_pattern: "10".into(), ..Default::default() };
    let v = capture_and_run("packet", work.path(), Simulator::Verilator);
    assert_eq!(v.calls.iter().map(|c| c.latency).collect::<Vec<_>>(), [4, 6]);
    let mut outcomes = Vec::new();
    for sim in [Simulator::Verilator, Simulator::Icarus] {
        let captured = CallSource::Captured { dir: work.path().join("calls"), sources: vec![d.join("packet.cpp")] };
        let mut req = request("packet", d.join("solution"), work.path(), sim, captured);
        req.flow = flow.clone();
        let o = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
        assert!(o.passed(), "{}: {:?} {:#?}", sim.name(), o.errors, o.calls);
        let got: Vec<(u64, u64)> = o.calls.iter().map(|c| (c.latency, c.output_stalls)).collect();
        assert_eq!(got, [(12, 2), (20, 4)], "{}", sim.name());
        outcomes.push(o.calls.iter().map(|c| c.window.clone()).collect::<Vec<_>>());
    }
    assert_eq!(outcomes[0], outcomes[1], "Verilator and Icarus disagree");
    // A pattern that never moves is refused before anything runs.
    let captured = CallSource::Captured { dir: work.path().join("calls"), sources: vec![d.join("packet.cpp")] };
    let mut req = request("packet", d.join("solution"), work.path(), Simulator::Icarus, captured);
    req.flow.stall_pattern = "00".into();
    let e = cosim::run(&req).unwrap_err().to_string();
    assert!(e.contains("--stall-pattern") && e.contains("at least one `1`"), "{e}");

    // Per stream (`--stream-flow NAME=DEPTH[:PATTERN]`, by C argument name).
    let per_stream = |specs: &[&str]| {
        let captured = CallSource::Captured { dir: work.path().join("calls"), sources: vec![d.join("packet.cpp")] };
        let mut req = request("packet", d.join("solution"), work.path(), Simulator::Icarus, captured);
        for spec in specs {
            let (name, f) = cosim::StreamFlow::parse_stream(spec).unwrap();
            req.flow.streams.insert(name, f);
        }
        cosim::run(&req).map(|o| o.calls.iter().map(|c| (c.latency, c.output_stalls)).collect::<Vec<_>>())
    };
    // Each of the four with the setting above: what the global setting gave.
    let all = per_stream(&["src=1:10", "shift=1:10", "echo=1:10", "dst=1:10"]).unwrap();
    assert_eq!(all, [(12, 2), (20, 4)]);
    // `dst` alone: its one write finds the FIFO empty; nothing changes.
    assert_eq!(per_stream(&["dst=1:10"]).unwrap(), [(4, 0), (6, 0)]);
    // `echo` alone: back-pressure without starvation of the inputs, between the two.
    let echo = per_stream(&["echo=1:10"]).unwrap();
    for (k, &(lat, stalls)) in echo.iter().enumerate() {
        assert!(stalls > 0 && lat > [4, 6][k] && lat < [12, 20][k], "{echo:?}");
    }
    let e = per_stream(&["out=1"]).unwrap_err().to_string();
    assert!(e.contains("no stream argument `out`") && e.contains("src, shift, echo, dst"), "{e}");
    for bad in ["echo", "=1", "echo=x", "echo=1:012", "echo=1:00"] {
        assert!(cosim::StreamFlow::parse_stream(bad).is_err(), "{bad}");
    }
}

/// `cosim --fst` writes an FST that `profile --wave` reads, with the same profile as the VCD of
/// the same calls: tests/profile/tiny (hand-written RTL with its schedule reports) driven by a
/// C model of it, the FST from Verilator, the VCD from Icarus (the two agree cycle for cycle).
#[test]
fn cosim_fst_profiles_like_its_vcd() {
    let work = work();
    let tiny = repo().join("tests/profile/tiny");
    // The C model of the tiny RTL (its tiny.cpp is a stand-in for line numbers, not compilable).
    let src = tempfile::tempdir().unwrap();
    std::fs::write(
        src.path().join("tiny_model.cpp"),
        "static int helper(int x) {\n  for (int k = 0; k < 3; k++) x += k;\n  return x;\n}\n\
         void tiny(int n, int *out) {\n  int acc = 0;\n  for (int i = 0; i < n; i++) acc += (i & 1) ? 3 : -1;\n  \
         *out = helper(acc);\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.path().join("tiny_tb.cpp"),
        "void tiny(int n, int *out);\nint main() {\n  int a = 0, b = 0;\n  tiny(4, &a);\n  tiny(1, &b);\n  \
         return !(a == 7 && b == 2);\n}\n",
    )
    .unwrap();
    let spec = RunSpec {
        top: "tiny".into(),
        sources: vec![(src.path().join("tiny_model.cpp"), Vec::new())],
        testbench: vec![(src.path().join("tiny_tb.cpp"), Vec::new())],
        data_files: Vec::new(),
        csim_build: None,
        project_dir: None,
        common_flags: Vec::new(),
        argv: Vec::new(),
        ldflags: Vec::new(),
        optimize: false,
        kernel_flow: false,
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
    let fst = work.path().join("tiny.fst");
    let vcd = work.path().join("tiny.vcd");
    let tb = CallSource::Testbench { spec: Box::new(spec), options: Box::new(options) };
    let mut req = request("tiny", tiny.join("solution"), work.path(), Simulator::Verilator, tb);
    req.wave = Some(cosim::Wave { path: fst.clone(), format: cosim::WaveFormat::Fst });
    let v = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
    assert!(v.passed(), "{:?} {:#?}", v.errors, v.calls);
    let captured =
        CallSource::Captured { dir: work.path().join("calls"), sources: vec![src.path().join("tiny_model.cpp")] };
    let mut req = request("tiny", tiny.join("solution"), work.path(), Simulator::Icarus, captured);
    req.wave = Some(cosim::Wave { path: vcd.clone(), format: cosim::WaveFormat::Vcd });
    let i = cosim::run(&req).unwrap_or_else(|e| panic!("{e}"));
    assert!(i.passed(), "{:?} {:#?}", i.errors, i.calls);
    assert_eq!(std::fs::read(&fst).unwrap()[0], 0, "an FST (its header block first), not a VCD");
    let profile = |wave: &Path| -> serde_json::Value {
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .arg("profile")
            .arg(tiny.join("solution"))
            .arg("--wave")
            .arg(wave)
            .args(["--format", "json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let (pf, pv) = (profile(&fst), profile(&vcd));
    assert!(pf["lines"].as_array().is_some_and(|l| !l.is_empty()), "{pf}");
    for key in ["cycles", "lines", "modules"] {
        assert_eq!(pf[key], pv[key], "{key}: the FST and the VCD give different profiles");
    }
    // Instances by module (their scope paths name each simulator's testbench).
    let inst = |p: &serde_json::Value| {
        p["instances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["module"].clone(), i["active"].clone(), i["starts"].clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(inst(&pf), inst(&pv));
    // The tiny design's own figures (tests/profile.rs works them out by hand): 19 cycles of the
    // top over the two calls, 8 of them in the helper.
    assert_eq!(pf["cycles"], 19, "{pf}");
    let per_call =
        |p: &serde_json::Value| p["calls"].as_array().unwrap().iter().map(|c| c["cycles"].clone()).collect::<Vec<_>>();
    assert_eq!(per_call(&pf), per_call(&pv));
    assert_eq!(per_call(&pf).len(), 2, "{pf}");
}

/// `structs`: structs aggregated into one port each, fields from the least significant bit in
/// declaration order with their C++ widths (Pix: ap_uint<5>, ap_uint<6>, ap_uint<5>, bool = 17
/// bits on ap_fifo streams; Stat, a typedef'd anonymous struct in a header: short and char[2]
/// = 32 bits on an ap_none input and an ap_vld output). By the FSM: one pixel per edge, then the
/// result with ap_done: pixels + 1 edges (3 and 2 pixels).
#[test]
fn structs_aggregated_on_streams_and_ports() {
    let work = work();
    let o = capture_and_run("structs", work.path(), Simulator::Icarus);
    let lat: Vec<u64> = o.calls.iter().map(|c| c.latency).collect();
    assert_eq!(lat, [4, 3]);
    let cap = std::fs::read_to_string(work.path().join("calls/call-000000.cap")).unwrap();
    // cfg: n = 5, tag "Az" → 0x7a410005; the first pixel r 1, g 40, b 30, last 0 → 0xf501.
    assert!(cap.contains("aggregate in cfg\nvalue in cfg 32 0500417a"), "{cap}");
    assert!(cap.contains("buffer in in 17 3 3 01f500"), "{cap}");
    // Fields swapped in the RTL: the C model's element order tells.
    let report = wrong_rtl(
        "structs",
        work.path(),
        "{in_r_dout[16], in_r_dout[4:0], g_fu_70_p2, in_r_dout[15:11]}",
        "{in_r_dout[16], in_r_dout[15:11], g_fu_70_p2, in_r_dout[4:0]}",
    );
    assert!(report.contains("`out`[0]: RTL"), "{report}");
}
