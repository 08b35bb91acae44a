//! `hlsinstr sim` on runs too long to hold: memory bounded whatever the number of events, the
//! testbench's output kept as a tail, the timeline windowed.
//!
//! Needs g++ and the Xilinx C-simulation headers, as tests/sim.rs.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

mod common;
#[path = "common/heavy.rs"]
mod heavy;
use common::hls_include;

fn hlsinstr(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hlsinstr"));
    c.arg("sim").arg("--hls-include").arg(hls_include()).args(args).current_dir(dir);
    c
}

#[test]
fn a_run_of_millions_of_events_keeps_memory_bounded() {
    let dir = tempfile::tempdir().unwrap();
    // 750 000 calls of the two leaves in turn: 1.5 M records (2 each) plus a few, none folded.
    let calls = 750_000u64;
    heavy::write(dir.path(), calls, 1, 0, heavy::Leaves::Alternating);
    let out = dir.path().join("report.json");
    let mut child = hlsinstr(
        dir.path(),
        &["--src", "kernel.cpp", "--tb", "tb.cpp", "--top", "top", "--format", "json", "-q", "-o", "report.json"],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    let (status, peak_kib) = heavy::peak_rss_kib(&mut child, Duration::from_millis(5));
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(status.success(), "{err}");
    let rep: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let runs = |name: &str| {
        let row = rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).expect("a leaf row");
        row["runs"].as_u64().unwrap()
    };
    assert_eq!((runs("leaf"), runs("leaf_b")), (calls / 2, calls / 2), "every call was counted");
    // Held whole, 1.5 M records took ~110 MB (~72 bytes each, besides the 3 MB log); streamed,
    // hlsinstr holds about what it holds for a short run (24 MB here).
    assert!(peak_kib < 40 * 1024, "hlsinstr peaked at {} MB for 1.5 M events", peak_kib / 1024);
}

#[test]
fn the_testbench_output_is_kept_as_a_tail_on_success_and_failure() {
    let dir = tempfile::tempdir().unwrap();
    heavy::write(dir.path(), 10, 1, 0, heavy::Leaves::Same);
    // 100 000 lines (~2.4 MB) before the checksum.
    let tb = std::fs::read_to_string(dir.path().join("tb.cpp")).unwrap().replace(
        "int main() {\n",
        "int main(int argc, char**) {\n    for (int k = 0; k < 100000; k++) std::printf(\"line %d of the testbench\\n\", k);\n    if (argc > 1) return 3;\n",
    );
    std::fs::write(dir.path().join("tb.cpp"), tb).unwrap();
    let ok = hlsinstr(dir.path(), &["--src", "kernel.cpp", "--tb", "tb.cpp", "--top", "top"]).output().unwrap();
    let err = String::from_utf8_lossy(&ok.stderr);
    assert!(ok.status.success(), "{err}");
    assert!(err.contains("the testbench's stdout ("), "the tail is shown on success:\n{err}");
    assert!(err.contains("  ... 99961 earlier lines\n  line 99961 of the testbench\n"), "{err}");
    assert!(err.contains("  checksum "), "{err}");
    assert!(!err.contains("line 99960 of"), "only the tail is shown");
    // A failing run shows the same tail in its error.
    let cfg = dir.path().join("hls_config.cfg");
    std::fs::write(&cfg, "[hls]\nsyn.top=top\nsyn.file=kernel.cpp\ntb.file=tb.cpp\ncsim.argv=fail\n").unwrap();
    let failed = hlsinstr(dir.path(), &["hls_config.cfg"]).output().unwrap();
    let err = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(1), "{err}");
    assert!(err.contains("exit code 3"), "{err}");
    assert!(err.contains("  ... 99960 earlier lines\n  line 99960 of the testbench\n"), "{err}");
    assert!(err.contains("line 99999 of the testbench"), "{err}");
}

#[test]
fn trace_window_picks_the_top_level_calls_the_timeline_shows() {
    let dir = tempfile::tempdir().unwrap();
    // Five calls of the top, 10 leaf calls each.
    heavy::write(dir.path(), 50, 5, 0, heavy::Leaves::Same);
    let trace = |window: Option<&str>| -> (Vec<f64>, Value) {
        let mut args = vec!["--src", "kernel.cpp", "--tb", "tb.cpp", "--top", "top", "-q", "--format", "json"];
        args.extend(["--trace", "t.json"]);
        if let Some(w) = window {
            args.extend(["--trace-window", w]);
        }
        let out = hlsinstr(dir.path(), &args).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let t: Value = serde_json::from_str(&std::fs::read_to_string(dir.path().join("t.json")).unwrap()).unwrap();
        let starts = t["traceEvents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["ph"] == "X" && e["name"] == "top")
            .map(|e| e["ts"].as_f64().unwrap())
            .collect();
        (starts, serde_json::from_slice(&out.stdout).unwrap())
    };
    let (all, _) = trace(None);
    assert_eq!(all.len(), 5);
    let (some, rep) = trace(Some("2:4"));
    assert_eq!(some, all[2..4].to_vec(), "calls 2 and 3, at their times in the run");
    let warnings = rep["warnings"].to_string();
    assert!(warnings.contains("top-level calls 2 to 3 of 5"), "the report says so: {warnings}");
    let (tail, _) = trace(Some("4:"));
    assert_eq!(tail, all[4..].to_vec());
    let bad = hlsinstr(dir.path(), &["--src", "kernel.cpp", "--tb", "tb.cpp", "--top", "top", "--trace-window", "3:3"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2), "an empty window is a usage error");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is empty"));
}
