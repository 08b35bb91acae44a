//! The event log folds runs of identical leaves (hls-lib `event_log.h`, `ThreadLog::end_leaf`)
//! and the analysis takes a run in one step where the cycle model allows it
//! (`sim/replay.rs`, `Leaf`). Both must leave every report as it was: for every design we have
//! (the examples, the rule cases with and without their reports, the sim test designs and one
//! kernel made of such runs in every place the model treats them differently), the testbench
//! that `sim` built is run again with the log folded and unfolded, and both logs are analysed:
//! the JSON reports and the VCD timelines must be the same.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{hls_include, repo};

/// The projects, and for each the report to analyse with too (if it has one).
fn designs() -> Vec<(PathBuf, Option<PathBuf>)> {
    let mut out = Vec::new();
    for group in ["examples", "tests/cycle", "tests/sim"] {
        let mut dirs: Vec<PathBuf> =
            std::fs::read_dir(repo().join(group)).unwrap().map(|e| e.unwrap().path()).collect();
        dirs.sort();
        for d in dirs {
            // A design whose testbench is meant to deadlock or fail has no report to compare.
            if !d.join("hls_config.cfg").is_file() || d.ends_with("deadlock") {
                continue;
            }
            let report = Some(d.join("csynth.xml")).filter(|r| r.is_file());
            out.push((d, report));
        }
    }
    assert!(out.len() >= 30, "{out:?}");
    out
}

/// Runs the kept testbench in its run directory with the log folded or not; returns the log.
fn run_testbench(keep: &Path, folded: bool) -> PathBuf {
    let log = keep.join(if folded { "folded.log" } else { "unfolded.log" });
    let out = Command::new(keep.join("csim.exe"))
        .current_dir(keep.join("run"))
        .env("HLSINSTR_EVENTS", &log)
        .env("HLSINSTR_EVENTS_FORMAT", "binary")
        .env("HLSINSTR_EVENTS_REPEATS", if folded { "1" } else { "0" })
        .env_remove("HLSINSTR_EVENTS_FD")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}: {}", keep.display(), String::from_utf8_lossy(&out.stderr));
    log
}

/// `sim --events` of one log: the JSON report and the VCD timeline.
fn analyse(project: &Path, keep: &Path, log: &Path, report: Option<&Path>) -> (String, String) {
    let vcd = log.with_extension("vcd");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hlsinstr"));
    cmd.args(["sim", "--quiet", "--format", "json", "--hls-include"])
        .arg(hls_include())
        .arg(project.join("hls_config.cfg"))
        .arg("--events")
        .arg(log)
        .arg("--manifest")
        .arg(keep.join("hlsinstr-manifest.json"))
        .arg("--vcd")
        .arg(&vcd);
    match report {
        Some(r) => cmd.arg("--csynth").arg(r),
        None => cmd.arg("--no-csynth"),
    };
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}: {}", project.display(), String::from_utf8_lossy(&out.stderr));
    (String::from_utf8(out.stdout).unwrap(), std::fs::read_to_string(&vcd).unwrap())
}

#[test]
fn folded_and_unfolded_logs_give_the_same_reports() {
    let work = tempfile::tempdir().unwrap();
    let (mut folded_bytes, mut unfolded_bytes) = (0u64, 0u64);
    for (i, (project, report)) in designs().iter().enumerate() {
        let keep = work.path().join(i.to_string());
        let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["sim", "--quiet", "--no-csynth", "--hls-include"])
            .arg(hls_include())
            .arg(project.join("hls_config.cfg"))
            .arg("--keep")
            .arg(&keep)
            .arg("-o")
            .arg(work.path().join(format!("{i}.txt")))
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {}", project.display(), String::from_utf8_lossy(&out.stderr));
        let (folded, unfolded) = (run_testbench(&keep, true), run_testbench(&keep, false));
        folded_bytes += std::fs::metadata(&folded).unwrap().len();
        unfolded_bytes += std::fs::metadata(&unfolded).unwrap().len();
        for r in [None, report.as_deref()] {
            let a = analyse(project, &keep, &folded, r);
            let b = analyse(project, &keep, &unfolded, r);
            assert!(a == b, "{} (report {r:?}): the folded log gives another report", project.display());
        }
    }
    // Something was folded (the rule cases' and examples' innermost loops repeat).
    assert!(folded_bytes * 10 < unfolded_bytes * 9, "folded {folded_bytes} B, unfolded {unfolded_bytes} B");
}

/// `sim` of `project` without a report, its work directory kept in `keep`.
fn sim_kept(project: &Path, keep: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--quiet", "--no-csynth", "--format", "json", "--hls-include"])
        .arg(hls_include())
        .arg(project.join("hls_config.cfg"))
        .arg("--keep")
        .arg(keep)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The kernel made for this: its runs are folded, and its report holds each of them.
#[test]
fn the_repeats_kernel_folds_its_runs() {
    let work = tempfile::tempdir().unwrap();
    let project = repo().join("tests/sim/repeats");
    let keep = work.path().join("keep");
    sim_kept(&project, &keep);
    let (folded, unfolded) = (run_testbench(&keep, true), run_testbench(&keep, false));
    let count = |log: &Path| hlsinstr::sim::events::read(log).unwrap().len();
    assert_eq!(count(&folded), count(&unfolded), "the folded log reads back as many records");
    let (f, u) = (std::fs::metadata(&folded).unwrap().len(), std::fs::metadata(&unfolded).unwrap().len());
    assert!(f * 4 < u * 3, "folded {f} B, unfolded {u} B");
}

/// The leaf loops of tests/sim/leaf_runs are stored and written as leaf-runs records
/// (probes.md, "Leaf loops"): its testbench, as `sim` built it, writes a log less than half the
/// size with them, which reads back as many records; the rewrite gave its leaves leaf probes
/// and its loops around them loop probes.
#[test]
fn the_leaf_runs_kernel_stores_its_runs() {
    let work = tempfile::tempdir().unwrap();
    let project = repo().join("tests/sim/leaf_runs");
    let keep = work.path().join("keep");
    sim_kept(&project, &keep);
    let src = std::fs::read_to_string(keep.join("src/leaf_runs.cpp")).unwrap();
    for (name, leaf) in [("Sort", false), ("Inner", true), ("Some", true), ("Taps", true), ("Calls", true)] {
        let line = src.lines().find(|l| l.contains(&format!("{name}:"))).unwrap();
        assert_eq!(line.contains("HLSINSTR_LEAF_BEGIN"), leaf, "{name}: {line}");
    }
    let (stored, plain) = (run_testbench(&keep, true), run_testbench(&keep, false));
    let count = |log: &Path| hlsinstr::sim::events::read(log).unwrap().len();
    assert_eq!(count(&stored), count(&plain), "the log with leaf runs reads back as many records");
    let (s, p) = (std::fs::metadata(&stored).unwrap().len(), std::fs::metadata(&plain).unwrap().len());
    assert!(s * 2 < p, "with leaf runs {s} B, without {p} B");
}

/// The leaf parents of tests/sim/leaf_parents store their begins and ends with their leaves'
/// runs (probes.md, "Leaf parents"): the rewrite gives them leaf-parent probes, and loops with a
/// child that is no leaf or with a grandchild loop probes; the log with stored runs reads back as
/// many records as the one without, in fewer bytes.
#[test]
fn the_leaf_parents_kernel_stores_its_parents() {
    let work = tempfile::tempdir().unwrap();
    let project = repo().join("tests/sim/leaf_parents");
    let keep = work.path().join("keep");
    sim_kept(&project, &keep);
    let src = std::fs::read_to_string(keep.join("src/leaf_parents.cpp")).unwrap();
    let kinds = [
        ("Rounds", "LOOP"),
        ("Sort", "LEAF_PARENT"),
        ("Inner", "LEAF"),
        ("Stop", "LEAF_PARENT"),
        ("Many", "LEAF_PARENT"),
        ("Long", "LEAF"),
        ("Hidden", "LEAF_PARENT"),
        ("Calls", "LEAF"),
        ("Mixed", "LOOP"),
        ("Leaf", "LEAF"),
        ("Called", "LOOP"),
        ("Deep", "LOOP"),
        ("Mid", "LEAF_PARENT"),
        ("Low", "LEAF"),
    ];
    for (name, kind) in kinds {
        let line = src.lines().find(|l| l.contains(&format!(" {name}:"))).unwrap();
        assert!(line.contains(&format!("HLSINSTR_{kind}_BEGIN(")), "{name}: {line}");
    }
    let (stored, plain) = (run_testbench(&keep, true), run_testbench(&keep, false));
    let count = |log: &Path| hlsinstr::sim::events::read(log).unwrap().len();
    assert_eq!(count(&stored), count(&plain), "the log with stored runs reads back as many records");
    let (s, p) = (std::fs::metadata(&stored).unwrap().len(), std::fs::metadata(&plain).unwrap().len());
    assert!(s * 2 < p, "with stored runs {s} B, without {p} B");
}
