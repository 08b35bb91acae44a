//! Watchpoints on Vitis C++ through the in-FPGA trace buffer (`--probes watch --target vitis`)
//! end to end without Vitis, on `tests/watch/` (a callee writes one element past the top's
//! 8-element `data` in the second call; a negative delta breaks `data[i] >= 0`):
//! (a) with `branches,timestamps` beside it and a trace buffer of 8 BRAM records: rewritten,
//!     built from the generated hls_config.cfg with g++ (as Vitis' C simulation would), run
//!     through the new top; the testbench prints what the original prints, and `decode` of the
//!     two runs' dumps lists exactly the watch events `hlsinstr sim` reports for the same
//!     testbench and options (each hit, the out-of-bounds write, the invariant violations: site,
//!     element, value, call), each with its cycle, and the path of each call beside them; strip
//!     gives every input back;
//! (b) watch alone in a 6-record wrap ring: each run keeps the newest events (the last ones of
//!     (a)'s, oldest first), says how many records were overwritten, and counts a value record
//!     whose event was overwritten.
//!
//! Also: hls-lib's hw/watch.h record by record (tests/hw/watch_harness.cpp), the RTL model of the
//! watch record path, and the refusal when no site can be placed in hardware.
//!
//! Needs g++, the Xilinx C-simulation headers, Verilator and Icarus; a missing tool fails the test.

mod common;

use common::{hls_include, hlsinstr_ok as hlsinstr, repo, run_ok as run, run_vitis_csim};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const WATCH: [&str; 4] = ["--watch-range", "data[2:4]", "--invariant", "data[i] >= 0"];
/// The generated build compiles clean of these warnings.
const WARNINGS: [&str; 6] =
    ["-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-Wno-unused-label", "-Wno-unused-parameter"];

/// Rewrite the kernel for the board into `dir/name`, build it from the generated cfg and run it.
fn build_and_run(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec!["rewrite", "vec.cpp", "vec.h", "vec_tb.cpp", "--target", "vitis", "--top", "vec_top"];
    args.extend_from_slice(&WATCH);
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", name, "-q"]);
    hlsinstr(dir, &args);
    let out = dir.join(name);
    let printed = run_vitis_csim(&out, &WARNINGS);
    assert_eq!(printed, std::fs::read_to_string(dir.join("expected.txt")).unwrap(), "{name}: the testbench's output");
    out
}

/// The decoded trace of run `k` (1-based) of the build in `out`.
fn decode(out: &Path, k: usize) -> Value {
    let file = if k == 1 { "hlsinstr-dbg.bin".to_string() } else { format!("hlsinstr-dbg-{k}.bin") };
    let json = hlsinstr(out, &["decode", &file, "--manifest", "hlsinstr-manifest.json", "--format", "json"]);
    serde_json::from_str(&json).unwrap()
}

/// Watch events without their cycles and site ids (ids are per build; file:line, function and
/// buffer name the site).
fn plain(list: &Value) -> Vec<Value> {
    list.as_array()
        .unwrap_or_else(|| panic!("no watch events: {list}"))
        .iter()
        .map(|e| {
            let mut e = e.clone();
            e.as_object_mut().unwrap().remove("cycle");
            e.as_object_mut().unwrap().remove("site");
            e
        })
        .collect()
}

fn events(rep: &Value) -> Vec<Value> {
    plain(&rep["watch"]["events"])
}

#[test]
fn decoded_watch_events_are_the_ones_sim_reports() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["vec.cpp", "vec.h", "vec_tb.cpp", "hls_config.cfg"] {
        std::fs::copy(repo().join("tests/watch").join(f), dir.join(f)).unwrap();
    }
    let orig = dir.join("orig");
    std::fs::create_dir_all(&orig).unwrap();
    run(Command::new("g++").current_dir(&orig).args(["-std=c++11", "-O1", "-o", "t", "../vec.cpp", "../vec_tb.cpp"]));
    std::fs::write(dir.join("expected.txt"), run(&mut Command::new(orig.join("t")))).unwrap();

    let builds: Vec<(&str, Vec<&str>)> = vec![
        ("hw", vec!["--probes", "watch,branches,timestamps", "--trace-depth", "8", "--trace-records", "4096"]),
        ("ring", vec!["--probes", "watch", "--trace-depth", "4", "--trace-records", "6"]),
    ];
    let (outs, sim) = std::thread::scope(|s| {
        let handles: Vec<_> =
            builds.iter().map(|(name, extra)| s.spawn(move || build_and_run(dir, name, extra))).collect();
        let sim =
            common::sim_in(dir, &[&["hls_config.cfg", "--probes", "watch", "--format", "json"], &WATCH[..]].concat());
        (handles.into_iter().map(|h| h.join().unwrap()).collect::<Vec<_>>(), sim)
    });
    assert_eq!(sim.code, 0, "{}", sim.stderr);
    let sim: Value = serde_json::from_str(&sim.stdout).unwrap();
    let want = plain(&sim["watch"]["shown"]);
    assert_eq!(want.len(), 9, "sim reports the example's 9 events: {sim}");
    let (hw, ring) = (&outs[0], &outs[1]);

    for (f, out) in [("vec.cpp", "hw/vec.cpp"), ("vec_tb.cpp", "hw/vec_tb.cpp"), ("vec.cpp", "ring/vec.cpp")] {
        let text = std::fs::read_to_string(dir.join(out)).unwrap();
        assert_eq!(text.contains("HLSINSTR_WATCH_SITE("), f == "vec.cpp", "{out}");
        assert_eq!(
            hlsinstr::strip::strip(&text).unwrap(),
            std::fs::read_to_string(dir.join(f)).unwrap(),
            "{out} strips back"
        );
    }

    // (a) Both runs' events, in order, are sim's, field for field.
    let mut got = Vec::new();
    let mut per_run = Vec::new();
    for k in 1..=2 {
        let rep = decode(hw, k);
        assert_eq!(rep["watch"]["call"], k as u64, "the run number is the call of the top");
        assert_eq!(rep["overwritten"], 0);
        assert_eq!(rep["calls"].as_array().unwrap().len(), 1, "the path of the call beside the events: {rep}");
        assert_eq!(rep["calls"][0]["complete"], true);
        let e = events(&rep);
        per_run.push(e.clone());
        got.extend(e);
    }
    assert_eq!(got, want, "the decoded watch events are the ones sim reports");
    let kinds: Vec<&str> = got.iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"out_of_bounds") && kinds.contains(&"invariant") && kinds.contains(&"hit"));
    let rep = decode(hw, 2);
    let cycles: Vec<u64> =
        rep["watch"]["events"].as_array().unwrap().iter().map(|e| e["cycle"].as_u64().unwrap()).collect();
    assert!(cycles.windows(2).all(|w| w[0] < w[1]), "cycles grow: {cycles:?}");
    let text = hlsinstr(hw, &["decode", "hlsinstr-dbg-2.bin", "--manifest", "hlsinstr-manifest.json"]);
    assert!(
        text.contains("  call 2: out of bounds vec.cpp:7 (read-write of acc in accumulate): element 8 at cycle "),
        "{text}"
    );
    assert!(text.contains("call 1 vec_top (vec.cpp)"), "the path beside the events: {text}");

    // (b) A 6-record ring keeps the newest records: each run's last events, oldest first.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(ring.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    assert!(manifest["branches"].is_null() && manifest["hw"]["trace"]["watch"]["value_id"].is_u64(), "{manifest}");
    for (k, full) in per_run.iter().enumerate() {
        let rep = decode(ring, k + 1);
        let kept = events(&rep);
        assert!(!kept.is_empty() && kept.len() < full.len(), "run {}: {kept:?}", k + 1);
        assert_eq!(kept, full[full.len() - kept.len()..], "run {}: the newest events", k + 1);
        assert!(rep["overwritten"].as_u64().unwrap() > 0);
        assert!(rep["warnings"].to_string().contains("the oldest"), "{rep}");
    }
    // Run 2's newest 6 records begin with the value of an overwritten hit.
    let rep = decode(ring, 2);
    assert_eq!(rep["watch"]["orphan_values"], 1, "{rep}");
    let text = hlsinstr(ring, &["decode", "hlsinstr-dbg-2.bin", "--manifest", "hlsinstr-manifest.json"]);
    assert!(text.contains("1 value records whose event was overwritten"), "{text}");
}

/// The RTL model of the watch record path (verilog/estimate/hlsinstr_watch_sites.v, the figures
/// of scripts/trace-resources.sh): lint-clean under Verilator -Wall; its testbench passes under
/// Icarus and fails when a site's offset is off by one.
#[test]
fn watch_rtl_lints_and_passes_its_testbench() {
    let dir = repo().join("verilog/estimate");
    let rtl = dir.join("hlsinstr_watch_sites.v");
    for params in [vec![], vec!["-GSITES=8", "-GID_BITS=4"]] {
        let out = Command::new("verilator").args(["--lint-only", "-Wall"]).args(&params).arg(&rtl).output().unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "verilator -Wall {params:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let work = tempfile::tempdir().unwrap();
    let icarus = |rtl: &Path| -> String {
        let vvp = work.path().join("tb.vvp");
        run(Command::new("iverilog")
            .args(["-g2012", "-o"])
            .arg(&vvp)
            .arg(rtl)
            .arg(dir.join("hlsinstr_watch_sites_tb.v")));
        run(Command::new("vvp").arg("-n").arg(&vvp))
    };
    let out = icarus(&rtl);
    assert!(out.contains("PASS") && !out.contains("FAIL"), "{out}");
    let text = std::fs::read_to_string(&rtl).unwrap();
    let line = "k = $signed(idx[s*INDEX_BITS +: INDEX_BITS]) + s;";
    assert!(text.contains(line));
    let broken = work.path().join("broken.v");
    std::fs::write(&broken, text.replace(line, "k = $signed(idx[s*INDEX_BITS +: INDEX_BITS]) + s + 1;")).unwrap();
    assert!(icarus(&broken).contains("FAIL"), "the testbench catches a wrong offset");
}

/// A callee reached only through a pointer computed at run time has no place in the watched
/// buffer for the hardware: with nothing left to watch, the in-FPGA rewrite is refused and says
/// why and what to do; nothing is written.
#[test]
fn nothing_watchable_in_hardware_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join("k.cpp"),
        "static void f(int *p) { p[0] = 1; }\nint t(int d[8], int n) {\n    f(d + n);\n    return 0;\n}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(dir)
        .args(["rewrite", "k.cpp", "--target", "vitis", "--top", "t", "--probes", "watch", "--watch", "d[1]"])
        .args(["--out", "o"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("nothing is watched in the in-FPGA build") && err.contains("`p` of f"), "{err}");
    assert!(!dir.join("o").exists(), "nothing written");
}

/// hls-lib's hw/watch.h record by record (tests/hw/watch_harness.cpp): value and pointer sites
/// at an offset, a value in two records, out-of-bounds accesses at both ends skipped in C
/// simulation, elements outside the watched range silent. Warning-free under -Wall -Wextra.
#[test]
fn watch_header_records_exactly() {
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("watch_harness");
    run(Command::new("g++")
        .args(["-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-Wno-unused-label"])
        .arg("-I")
        .arg(repo().join("hls-lib/include"))
        .arg("-isystem")
        .arg(hls_include())
        .arg(repo().join("tests/hw/watch_harness.cpp"))
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    assert!(out.contains("watch harness: 0 failed checks"), "{out}");
}
