//! `hlsinstr profile` end to end: a hand-written FSM design (tests/profile/tiny: a one-hot top
//! with mutually exclusive arms in one state, a pipelined sub-module and one never started, with
//! its own schedule reports) simulated with Icarus and Verilator, profiled, and checked against
//! per-line cycles computed by hand; the systolic fixture's 9 schedule reports against states
//! read by hand; and the fixture's RTL run under Icarus, whose profile must add up to the run
//! and be the same read from its VCD or its FST.
//! A missing simulator fails the test. Everything is built in temporary directories.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{fixtures, repo};

use hlsinstr::profile::sched::Schedule;
use hlsinstr::profile::Design;

fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install iverilog verilator)"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn tiny() -> PathBuf {
    repo().join("tests/profile/tiny")
}

fn tiny_rtl() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(tiny().join("solution/syn/verilog")).unwrap().map(|e| e.unwrap().path()).collect();
    v.sort();
    v
}

fn icarus(tb: &Path, rtl: &[PathBuf], top: &str, work: &Path) -> String {
    let out =
        run(Command::new("iverilog").args(["-g2012", "-s", top, "-o"]).arg(work.join("sim.vvp")).arg(tb).args(rtl));
    assert!(out.status.success(), "iverilog:\n{}", text(&out));
    let out = run(Command::new("vvp").args(["-n", "sim.vvp"]).current_dir(work));
    let t = text(&out);
    assert!(out.status.success() && t.contains("PASS"), "Icarus testbench:\n{t}");
    t
}

fn verilator(tb: &Path, rtl: &[PathBuf], top: &str, work: &Path) -> String {
    let obj = work.join("obj");
    let out = run(Command::new("verilator")
        .args(["--binary", "--timing", "--trace", "-Wno-fatal", "-Wno-lint", "-Wno-style", "-Wno-ZERODLY"])
        // Unoptimized C++ (runtime library too): the run is a few dozen cycles, the build is the cost.
        .args(["-MAKEFLAGS", "OPT_FAST=-O0 OPT_GLOBAL=-O0 OPT_SLOW=-O0", "-j", "0", "--top-module", top, "--Mdir"])
        .arg(&obj)
        .arg(tb)
        .args(rtl)
        .current_dir(work));
    assert!(out.status.success(), "verilator --binary:\n{}", text(&out));
    let out = run(Command::new(obj.join(format!("V{top}"))).current_dir(work));
    let t = text(&out);
    assert!(out.status.success() && t.contains("PASS"), "Verilator testbench:\n{t}");
    t
}

fn profile_json(solution: &Path, wave: &Path, extra: &[&str]) -> Value {
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("profile")
        .arg(solution)
        .arg("--wave")
        .arg(wave)
        .args(["--format", "json"])
        .args(extra));
    assert!(out.status.success(), "hlsinstr profile:\n{}", text(&out));
    serde_json::from_slice(&out.stdout).expect("profile --format json is JSON")
}

/// The profile's line table, over all calls.
fn lines(p: &Value) -> LineTable {
    table(p, &p["lines"])
}

fn total_share(p: &Value) -> f64 {
    let lines: f64 = p["lines"].as_array().unwrap().iter().map(|l| l["share"].as_f64().unwrap()).sum();
    let untagged: f64 = p["modules"].as_array().unwrap().iter().map(|m| m["untagged_share"].as_f64().unwrap()).sum();
    lines + untagged
}

fn module<'a>(p: &'a Value, name: &str) -> &'a Value {
    p["modules"].as_array().unwrap().iter().find(|m| m["module"] == name).unwrap_or_else(|| panic!("no module {name}"))
}

type LineTable = BTreeMap<u64, (u64, u64, f64, u64)>;

/// `line → (active, alone, share, unresolved)` of a line table (`lines` of the profile or of a call).
fn table(p: &Value, lines: &Value) -> LineTable {
    let locs = p["locs"].as_array().unwrap();
    lines
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let loc = &locs[l["loc"].as_u64().unwrap() as usize];
            let n = |k: &str| l[k].as_u64().unwrap();
            (loc["line"].as_u64().unwrap(), (n("active"), n("alone"), l["share"].as_f64().unwrap(), n("unresolved")))
        })
        .collect()
}

fn assert_table(got: &LineTable, want: &LineTable, what: &str) {
    assert_eq!(got.keys().collect::<Vec<_>>(), want.keys().collect::<Vec<_>>(), "{what}: lines seen");
    for (line, w) in want {
        let g = got[line];
        assert!(
            g.0 == w.0 && g.1 == w.1 && (g.2 - w.2).abs() < 1e-9 && g.3 == w.3,
            "{what}: line {line}: got {g:?}, want {w:?}"
        );
    }
}

/// The tiny design's run, by hand (docs/profile.md walks through it). Call 1 (n = 4), 11 cycles:
/// S1 (lines 3, 11) · S2 ×5 (lines 4, 5; arm 9 at i = 0, 2 and arm 7 at i = 1, 3; the exit cycle
/// none) · S3 ×4 calling the helper, whose 2-stage pipeline runs lines 21 | 21+22 | 21+22 | 22
/// (the caller's line 12 gets no share while it waits) · S4 (lines 13, 14). Call 2 (n = 1), back
/// to back, 8 cycles: the same with one loop-body cycle (arm 9). `unused` is never started: its
/// lines 16 and 17 must not appear.
fn check_tiny(p: &Value, sim: &str) {
    let third = 1.0 / 3.0;
    let call1: LineTable = [
        (3, (1, 0, 0.5, 0)),
        (11, (1, 0, 0.5, 0)),
        (4, (5, 0, 4.0 * third + 0.5, 0)),
        (5, (5, 0, 4.0 * third + 0.5, 0)),
        (7, (2, 0, 2.0 * third, 0)),
        (9, (2, 0, 2.0 * third, 0)),
        (12, (4, 0, 0.0, 0)),
        (13, (1, 0, 0.5, 0)),
        (14, (1, 0, 0.5, 0)),
        (21, (3, 1, 2.0, 0)),
        (22, (3, 1, 2.0, 0)),
    ]
    .into_iter()
    .collect();
    let call2: LineTable = [
        (3, (1, 0, 0.5, 0)),
        (11, (1, 0, 0.5, 0)),
        (4, (2, 0, third + 0.5, 0)),
        (5, (2, 0, third + 0.5, 0)),
        (9, (1, 0, third, 0)),
        (12, (4, 0, 0.0, 0)),
        (13, (1, 0, 0.5, 0)),
        (14, (1, 0, 0.5, 0)),
        (21, (3, 1, 2.0, 0)),
        (22, (3, 1, 2.0, 0)),
    ]
    .into_iter()
    .collect();
    let mut both = call1.clone();
    for (l, w) in &call2 {
        let e = both.entry(*l).or_insert((0, 0, 0.0, 0));
        *e = (e.0 + w.0, e.1 + w.1, e.2 + w.2, e.3 + w.3);
    }
    assert_eq!(p["cycles"], 19, "{sim}: the run");
    let calls = p["calls"].as_array().unwrap();
    assert_eq!(calls.iter().map(|c| c["cycles"].as_u64().unwrap()).collect::<Vec<_>>(), [11, 8], "{sim}: calls");
    assert_eq!(calls[1]["start"].as_u64().unwrap(), calls[0]["end"].as_u64().unwrap() + 1, "{sim}: back to back");
    assert_table(&table(p, &calls[0]["lines"]), &call1, &format!("{sim} call 1"));
    assert_table(&table(p, &calls[1]["lines"]), &call2, &format!("{sim} call 2"));
    assert_table(&lines(p), &both, sim);
    assert!((total_share(p) - 19.0).abs() < 1e-9, "{sim}: shares add up to the run");
    for (m, active, starts) in [("tiny", 19, 2), ("helper", 8, 2), ("unused", 0, 0)] {
        let got = (module(p, m)["active"].as_u64().unwrap(), module(p, m)["starts"].as_u64().unwrap());
        assert_eq!(got, (active, starts), "{sim}: {m}");
    }
}

#[test]
fn tiny_design_profiles_exactly_under_icarus_and_verilator() {
    let (w_ic, w_vl) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let tb = tiny().join("tiny_tb.v");
    let rtl = tiny_rtl();
    std::thread::scope(|s| {
        s.spawn(|| icarus(&tb, &rtl, "tiny_tb", w_ic.path()));
        s.spawn(|| verilator(&tb, &rtl, "tiny_tb", w_vl.path()));
    });
    let solution = tiny().join("solution");
    let trace = w_ic.path().join("trace.json");
    let ic = profile_json(&solution, &w_ic.path().join("tiny.vcd"), &["--perfetto", trace.to_str().unwrap()]);
    let vl = profile_json(&solution, &w_vl.path().join("tiny.vcd"), &[]);
    check_tiny(&ic, "Icarus");
    check_tiny(&vl, "Verilator");
    assert_eq!(ic["scope"], "tiny_tb.dut");
    assert_eq!(vl["scope"], "TOP.tiny_tb.dut");
    assert_eq!(ic["lines"], vl["lines"], "the simulators agree line by line");

    // The trace: one track per instance; the helper's slices cover its 4 cycles, stage by stage.
    let t: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).expect("the trace is JSON");
    let events = t["traceEvents"].as_array().unwrap();
    let track = |name: &str| {
        events
            .iter()
            .find(|e| e["name"] == "thread_name" && e["args"]["name"].as_str().unwrap().contains(name))
            .unwrap()["tid"]
            .clone()
    };
    let helper: Vec<(String, u64)> = events
        .iter()
        .filter(|e| e["ph"] == "X" && e["tid"] == track("grp_tiny_helper_fu_60"))
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["dur"].as_u64().unwrap()))
        .collect();
    let stages = [("S1".to_string(), 1), ("S1+S2".to_string(), 2), ("S2".to_string(), 1)];
    assert_eq!(helper, [stages.clone(), stages].concat(), "one pipeline run per call");
    assert!(!events.iter().any(|e| e["ph"] == "X" && e["tid"] == track("grp_tiny_unused_fu_70")), "unused never ran");
    let calls: Vec<u64> =
        events.iter().filter(|e| e["ph"] == "X" && e["tid"] == 0).map(|e| e["dur"].as_u64().unwrap()).collect();
    assert_eq!(calls, [11, 8]);

    // Without the branch condition's signal, the arms cannot be told apart: each counts in every
    // cycle of the loop body, marked unresolved, and they split those cycles evenly.
    let edited = tempfile::tempdir().unwrap();
    copy_tree(&tiny(), edited.path());
    let rpt = edited.path().join("solution/.autopilot/db/tiny.verbose.sched.rpt");
    let s = std::fs::read_to_string(&rpt).unwrap().replace("tmp_odd)", "tmp_gone)");
    std::fs::write(&rpt, s).unwrap();
    let un = profile_json(&edited.path().join("solution"), &w_ic.path().join("tiny.vcd"), &[]);
    let got = lines(&un);
    // Five loop-body cycles (4 + 1), four lines in each: a quarter each.
    assert_eq!(got[&7], (5, 0, 1.25, 5));
    assert_eq!(got[&9], (5, 0, 1.25, 5));
    assert!((got[&4].2 - 2.25).abs() < 1e-9 && (got[&5].2 - 2.25).abs() < 1e-9, "{got:?}");
    assert!((total_share(&un) - 19.0).abs() < 1e-9);
    assert!(un["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("unresolved")));
}

fn copy_tree(from: &Path, to: &Path) {
    for f in common::files_below(from) {
        let dest = to.join(f.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&f, &dest).unwrap();
    }
}

fn systolic() -> PathBuf {
    fixtures().join("vitis-solution/2022.2-systolic-mm")
}

/// The line numbers (of design.cpp) tagged on the non-directive operations of a state.
fn state_lines(s: &Schedule, id: u32) -> Vec<u32> {
    let mut v: Vec<u32> = s
        .state(id)
        .unwrap()
        .ops
        .iter()
        .filter(|o| !o.opcode.starts_with("spec"))
        .filter_map(|o| o.loc.as_ref().map(|l| l.line))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A state read by hand: (id, tagged lines, operations).
type StateCase = (u32, &'static [u32], usize);
/// (module, states, states read by hand, the pipeline's (II, depth, states)).
type Case = (&'static str, usize, &'static [StateCase], Option<(u32, u32, &'static [u32])>);

/// All 9 reports parse; the states below were read by hand in the reports (lines of the
/// `ST_<n> :` operations, `spec*` directives left out, and the operation counts).
#[test]
fn fixture_schedules_agree_with_states_read_by_hand() {
    let db = systolic().join("solution/.autopilot/db");
    let read = |m: &str| Schedule::read(&db.join(format!("{m}.verbose.sched.rpt"))).unwrap();
    let cases: &[Case] = &[
        (
            "multiplier",
            149,
            &[
                (1, &[25, 27, 31, 142], 347),
                (2, &[31], 11),
                (72, &[36], 17),
                (73, &[36], 1),
                (74, &[36], 32),
                (148, &[150], 1),
                (149, &[150], 20),
            ],
            None,
        ),
        ("multiplier_Pipeline_1", 1, &[(1, &[], 40)], Some((1, 1, &[1]))),
        ("multiplier_Pipeline_2", 1, &[], Some((1, 1, &[1]))),
        ("multiplier_Pipeline_4", 1, &[], Some((1, 1, &[1]))),
        ("multiplier_Pipeline_5", 1, &[], Some((1, 1, &[1]))),
        ("multiplier_Pipeline_6", 1, &[], Some((1, 1, &[1]))),
        (
            "multiplier_Pipeline_VITIS_LOOP_142_3",
            2,
            &[(1, &[142, 144, 147], 93), (2, &[142, 144], 9)],
            Some((1, 2, &[1, 2])),
        ),
        (
            "multiplier_Pipeline_VITIS_LOOP_31_1",
            3,
            &[(1, &[31], 211), (2, &[31, 36, 37], 137), (3, &[31, 36, 37], 255)],
            Some((1, 3, &[1, 2, 3])),
        ),
        (
            "multiplier_Pipeline_systolic1",
            2,
            &[(1, &[60, 83, 89, 92, 110], 780), (2, &[57, 60, 73, 83, 85, 89, 92, 112, 119], 806)],
            Some((1, 2, &[1, 2])),
        ),
    ];
    for (name, n_states, states, pipe) in cases {
        let s = read(name);
        assert_eq!(&s.module, name);
        assert_eq!(s.is_top, *name == "multiplier");
        assert_eq!(s.states.len(), *n_states, "{name}");
        for (id, want, ops) in *states {
            assert_eq!(state_lines(&s, *id), *want, "{name} state {id}");
            assert_eq!(s.state(*id).unwrap().ops.len(), *ops, "{name} state {id} operations");
        }
        match pipe {
            None => assert!(s.pipelines.is_empty(), "{name}"),
            Some((ii, depth, st)) => {
                assert_eq!(s.pipelines.len(), 1, "{name}");
                assert_eq!(
                    (s.pipelines[0].ii, s.pipelines[0].depth, s.pipelines[0].states.as_slice()),
                    (*ii, *depth, *st)
                );
            }
        }
    }
    // A predicate read by hand: Pipeline_1's store to localA_6 runs when !exitcond111475 & p_cast1 == 6.
    let p1 = read("multiplier_Pipeline_1");
    let op = p1.state(1).unwrap().ops.iter().find(|o| o.id == 25).unwrap();
    assert_eq!(format!("{:?}", op.predicate), "Dnf([[Lit { var: \"exitcond111475\", equals: None, negated: true }, Lit { var: \"p_cast1\", equals: Some(6), negated: false }]])");

    // The design: top first, each sub-module's RTL found by Vitis' `<top>_<module>` naming.
    let d = Design::load(&systolic().join("solution")).unwrap();
    assert_eq!(d.modules.len(), 9);
    assert_eq!(d.modules[0].rtl.name, "multiplier");
    assert_eq!(d.modules[0].rtl.fsm_states.len(), 149);
    let subs: Vec<&str> =
        d.modules[0].rtl.instances.iter().filter(|(ty, _)| d.by_rtl(ty).is_some()).map(|(_, n)| n.as_str()).collect();
    assert_eq!(subs.len(), 8, "{subs:?}");
    assert!(subs.contains(&"grp_multiplier_Pipeline_1_fu_2080"));
    assert_eq!(d.modules[d.by_rtl("multiplier_multiplier_Pipeline_1").unwrap()].sched.module, "multiplier_Pipeline_1");
}

/// The fixture's RTL under Icarus: the profile's run is the testbench's own ap_start..ap_done
/// count, 264 as in the fixtures README, and the shares add up to it.
#[test]
fn fixture_profile_adds_up_to_the_run() {
    let work = tempfile::tempdir().unwrap();
    // Icarus reads Vitis' `always @ (*)` as always_comb only when told (shared/fixtures/README.md),
    // and wants a space before a comment after `default_nettype`: a copy for simulation.
    let rtl_dir = work.path().join("rtl");
    std::fs::create_dir(&rtl_dir).unwrap();
    let mut rtl = Vec::new();
    for f in std::fs::read_dir(systolic().join("solution/syn/verilog")).unwrap() {
        let f = f.unwrap().path();
        let s = std::fs::read_to_string(&f).unwrap();
        let s = hlsinstr::cosim::build::icarus_comb(&s); // as `cosim --simulator icarus` reads Vitis RTL
        let dest = rtl_dir.join(f.file_name().unwrap());
        std::fs::write(&dest, s).unwrap();
        rtl.push(dest);
    }
    let out = icarus(&repo().join("tests/profile/systolic/multiplier_tb.v"), &rtl, "multiplier_tb", work.path());
    let cycles: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("CYCLES "))
        .expect("the testbench counts the run")
        .trim()
        .parse()
        .unwrap();
    let p = profile_json(&systolic().join("solution"), &work.path().join("multiplier.vcd"), &[]);
    assert_eq!(p["cycles"].as_u64().unwrap(), cycles);
    // With the write response 66 cycles after the last beat, the fixtures README's figure.
    assert_eq!(cycles, 264, "ap_start..ap_done");
    assert_eq!(p["calls"].as_array().unwrap().len(), 1);
    assert!((total_share(&p) - cycles as f64).abs() < 1e-6, "shares {} vs {cycles} cycles", total_share(&p));
    // Every sub-module ran once; the pipelines' lines were seen.
    for m in p["modules"].as_array().unwrap() {
        assert_eq!(m["starts"], 1, "{}", m["module"]);
    }
    let got = lines(&p);
    for line in [31, 36, 57, 110, 119, 142, 150] {
        assert!(got.get(&line).is_some_and(|l| l.0 > 0), "design.cpp:{line} never active: {got:?}");
    }
    // The top waits in its call states while the systolic loop runs: its 24 cycles are the loop's.
    assert_eq!(module(&p, "multiplier_Pipeline_systolic1")["active"], 24);
    assert!((module(&p, "multiplier_Pipeline_systolic1")["share"].as_f64().unwrap() - 24.0).abs() < 1e-9);

    // The same run dumped as FST (vvp's `-fst`; $dumpfile's name kept, so the content tells the
    // format): the same profile, line for line and cycle for cycle.
    let fst_dir = work.path().join("fst");
    std::fs::create_dir(&fst_dir).unwrap();
    let out = run(Command::new("vvp").arg("-n").arg(work.path().join("sim.vvp")).arg("-fst").current_dir(&fst_dir));
    assert!(out.status.success() && text(&out).contains("PASS"), "Icarus with -fst:\n{}", text(&out));
    let fst = fst_dir.join("multiplier.fst");
    std::fs::rename(fst_dir.join("multiplier.vcd"), &fst).unwrap();
    assert_eq!(std::fs::read(&fst).unwrap()[0], 0, "vvp -fst writes an FST (header block first)");
    let pf = profile_json(&systolic().join("solution"), &fst, &[]);
    assert_eq!(pf, p, "the FST's profile differs from the VCD's");
    // Content, not the name: the FST under a .vcd name reads the same.
    let as_vcd = fst_dir.join("misnamed.vcd");
    std::fs::copy(&fst, &as_vcd).unwrap();
    assert_eq!(profile_json(&systolic().join("solution"), &as_vcd, &[]), p);
    // Truncated (a simulation killed before closing it): a clear error, no panic.
    let bytes = std::fs::read(&fst).unwrap();
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    for keep in [bytes.len() / 2, bytes.len() - 40, 400] {
        let cut = fst_dir.join(format!("cut{keep}.fst"));
        std::fs::write(&cut, &bytes[..keep]).unwrap();
        let out = run(Command::new(bin).arg("profile").arg(systolic().join("solution")).arg("--wave").arg(&cut));
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{keep} bytes kept:\n{t}");
        assert!(t.contains("cannot read this FST waveform") && t.contains("truncated or corrupt"), "{t}");
        assert!(!t.contains("panicked"), "{t}");
    }
}

#[test]
fn clear_errors_on_wrong_inputs() {
    let work = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    // No waveform: a usage error saying what to give.
    let out = run(Command::new(bin).args(["profile"]).arg(tiny().join("solution")));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("--wave"), "{}", text(&out));
    // Not a solution.
    let out = run(Command::new(bin).args(["profile"]).arg(work.path()).args(["--wave", "x.vcd"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("no .autopilot folder"), "{}", text(&out));
    // Not a VCD.
    let bad = work.path().join("bad.vcd");
    std::fs::write(&bad, "hello\n").unwrap();
    let out = run(Command::new(bin).args(["profile"]).arg(tiny().join("solution")).arg("--wave").arg(&bad));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out).contains("not a VCD"), "{}", text(&out));
    // A report that is not a schedule.
    copy_tree(&tiny(), &work.path().join("t"));
    std::fs::write(work.path().join("t/solution/.autopilot/db/x.verbose.sched.rpt"), "== csynth summary\n").unwrap();
    let out = run(Command::new(bin).args(["profile"]).arg(work.path().join("t/solution")).arg("--wave").arg(&bad));
    assert!(text(&out).contains("x.verbose.sched.rpt: not a schedule report"), "{}", text(&out));
    // A waveform without the top: says how to dump it.
    let vcd = work.path().join("other.vcd");
    std::fs::write(
        &vcd,
        "$scope module tb $end\n$var wire 1 ! clk $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n",
    )
    .unwrap();
    let out = run(Command::new(bin).args(["profile"]).arg(tiny().join("solution")).arg("--wave").arg(&vcd));
    assert!(text(&out).contains("no scope in the waveform looks like the top `tiny`"), "{}", text(&out));
}

/// Under ap_ctrl_chain `ap_done` stays high until `ap_continue`: those cycles end one call, not
/// several. A hand-made waveform of the tiny top: S1 S2 S3 S4 S4 S4 (done held), then S1 S2 S3 S4.
#[test]
fn a_held_ap_done_ends_one_call() {
    let work = tempfile::tempdir().unwrap();
    let mut vcd = String::from(
        "$timescale 1ns $end\n$scope module tb $end\n$scope module dut $end\n$var wire 1 ! ap_clk $end\n\
         $var wire 1 \" ap_start $end\n$var wire 1 # ap_done $end\n$var reg 4 $ ap_CS_fsm [3:0] $end\n\
         $scope module grp_tiny_helper_fu_60 $end\n$var wire 1 % ap_start $end\n$upscope $end\n\
         $scope module grp_tiny_unused_fu_70 $end\n$var wire 1 & ap_start $end\n$upscope $end\n\
         $upscope $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n0\"\n0#\nb1 $\n0%\n0&\n",
    );
    let states = [1, 1, 2, 3, 4, 4, 4, 1, 2, 3, 4, 1, 1];
    let start = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0];
    for (c, (s, st)) in states.iter().zip(start).enumerate() {
        let t = 10 * c as u64 + 5;
        let done = u8::from(*s == 4);
        vcd.push_str(&format!("#{t}\n1!\n#{}\n0!\n{st}\"\n{done}#\nb{:b} $\n", t + 5, 1u32 << (s - 1)));
    }
    let wave = work.path().join("held.vcd");
    std::fs::write(&wave, vcd).unwrap();
    let p = profile_json(&tiny().join("solution"), &wave, &[]);
    let calls: Vec<u64> = p["calls"].as_array().unwrap().iter().map(|c| c["cycles"].as_u64().unwrap()).collect();
    assert_eq!(calls, [6, 4], "{p:#}");
    assert_eq!(module(&p, "tiny")["starts"], 2);
}

/// Sources are found beside the solution, or through `--src`; a tag whose file is nowhere is
/// `missing`, and a `--src` that does not exist is a usage error.
#[test]
fn sources_are_found_through_src() {
    let work = tempfile::tempdir().unwrap();
    copy_tree(&tiny().join("solution"), &work.path().join("elsewhere/solution"));
    let vcd = work.path().join("w.vcd");
    std::fs::write(
        &vcd,
        "$scope module tb $end\n$scope module dut $end\n$var wire 1 ! ap_clk $end\n$var wire 1 \" ap_start $end\n\
         $var reg 4 # ap_CS_fsm [3:0] $end\n$scope module grp_tiny_helper_fu_60 $end\n$upscope $end\n\
         $scope module grp_tiny_unused_fu_70 $end\n$upscope $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n\
         #0\n0!\n1\"\nb1 #\n#5\n1!\n#10\n0!\nb10 #\n#15\n1!\n",
    )
    .unwrap();
    let solution = work.path().join("elsewhere/solution");
    let kinds = |p: &Value| -> Vec<String> {
        p["locs"].as_array().unwrap().iter().map(|l| l["kind"].as_str().unwrap().to_string()).collect()
    };
    let p = profile_json(&solution, &vcd, &[]);
    assert!(kinds(&p).iter().all(|k| k == "missing"), "{:?}", kinds(&p));
    // The sub-instances here have no handshake signals: said, and their cycles stay the caller's.
    assert!(p["notes"].as_array().unwrap().iter().any(|n| n.as_str().unwrap().contains("has no ap_start")), "{p:#}");
    let src = tiny().join("tiny.cpp");
    let p = profile_json(&solution, &vcd, &["--src", src.to_str().unwrap()]);
    assert!(kinds(&p).iter().all(|k| k == "source"), "{:?}", kinds(&p));
    assert_eq!(p["cycles"], 2, "S1 with ap_start, then S2");
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("profile")
        .arg(&solution)
        .arg("--wave")
        .arg(&vcd)
        .args(["--src", "/nonexistent/k.cpp"]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// A dataflow region (tests/profile/df: a top without an FSM, two processes joined by a 2-deep
/// FIFO, ap_start held until ap_ready, which comes as both processes start). By hand, call 1
/// (n = 3), cycles 5..11: both processes in state 1 at 5 (lines 2, 6); `produce` writes at 6, 7,
/// 8 and leaves its loop at 9 (state 2: lines 3, 4), is done at 10 (line 5), idle at 11;
/// `consume` waits at 6, reads at 7, 8, 9, leaves at 10 (state 2: lines 8, 9) and is done at 11
/// (lines 10, 11). The top runs from ap_start through ap_done (7 cycles) although ap_start fell
/// at 5. Call 2 (n = 5): the same with two more elements: 9 cycles. Each process counts its own
/// window (produce 6 + 8, consume 7 + 9: 30 > 16 cycles of run) and a cycle where both run is
/// split among both's lines: 10 cycles of four lines, 2 of three (lines 5, 8, 9), 2 with lines
/// 2 and 6, 2 with lines 10 and 11: the shares add up to the run's 16 cycles.
#[test]
fn dataflow_processes_overlap_without_double_counting() {
    let w = tempfile::tempdir().unwrap();
    let df = repo().join("tests/profile/df");
    let mut rtl: Vec<PathBuf> =
        std::fs::read_dir(df.join("solution/syn/verilog")).unwrap().map(|e| e.unwrap().path()).collect();
    rtl.sort();
    icarus(&df.join("df_tb.v"), &rtl, "df_tb", w.path());
    let p = profile_json(&df.join("solution"), &w.path().join("df.vcd"), &[]);
    let calls: Vec<u64> = p["calls"].as_array().unwrap().iter().map(|c| c["cycles"].as_u64().unwrap()).collect();
    assert_eq!(calls, [7, 9], "{p}");
    assert_eq!(p["cycles"], 16);
    assert_eq!(p["concurrent_cycles"], 14, "both processes run in all but the consumer's last 1 + 1 cycles");
    for (m, active, starts) in [("df", 16, 2), ("produce", 14, 2), ("consume", 16, 2)] {
        let got = (module(&p, m)["active"].as_u64().unwrap(), module(&p, m)["starts"].as_u64().unwrap());
        assert_eq!(got, (active, starts), "{m}");
    }
    let (q, t) = (0.25, 1.0 / 3.0);
    let want: LineTable = [
        (2, (2, 0, 1.0, 0)),
        (3, (10, 0, 10.0 * q, 0)),
        (4, (10, 0, 10.0 * q, 0)),
        (5, (2, 0, 2.0 * t, 0)),
        (6, (2, 0, 1.0, 0)),
        (8, (12, 0, 10.0 * q + 2.0 * t, 0)),
        (9, (12, 0, 10.0 * q + 2.0 * t, 0)),
        (10, (2, 0, 1.0, 0)),
        (11, (2, 0, 1.0, 0)),
    ]
    .into_iter()
    .collect();
    assert_table(&lines(&p), &want, "dataflow");
    assert!((total_share(&p) - 16.0).abs() < 1e-9);
}
