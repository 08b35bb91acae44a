//! The in-FPGA control-flow trace (`--probes branches --target vitis`) end to end without Vitis:
//! (a) the cycle-stepping harness of the trace buffer (tests/hw/trace_harness.cpp): record order,
//!     flushes during the run, no kernel stall, wrap and linear rings, cycle deltas;
//! (b) tests/branches/paths.cpp (nested if/else, switch fall-through, early returns,
//!     break/continue, goto, data-dependent loops) rewritten for the board with a trace buffer of
//!     8 records (hundreds of flushes per call), built from the generated hls_config.cfg with g++
//!     and run through the new top: the testbench prints what the original prints, and the
//!     decoded path of every call equals the path the testbench's reference recorder logged;
//! (c) a 40-record DRAM ring: wrap keeps exactly the newest records, oldest first, and decodes
//!     the calls it holds whole to the same paths; linear keeps the first ones and says how many
//!     were lost; (d) timestamps give the cycles between records; (e) strip gives both inputs back.
//!
//! Needs g++ and the Xilinx C-simulation headers; a missing tool fails the test.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{hls_include, hlsinstr_ok as hlsinstr, repo, run_ok as run, run_vitis_csim};

#[test]
fn trace_buffer_cycle_harness() {
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("trace_harness");
    run(Command::new("g++")
        .args(["-std=c++14", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas", "-Wno-unused-label"])
        .arg("-I")
        .arg(repo().join("hls-lib/include"))
        .arg("-isystem")
        .arg(hls_include())
        .arg(repo().join("tests/hw/trace_harness.cpp"))
        .arg("-o")
        .arg(&exe));
    let out = run(&mut Command::new(&exe));
    assert!(out.contains("trace harness: 0 failed checks"), "{out}");
}

/// Rewrite paths.cpp + its testbench for the board in `dir/name`, build it as Vitis' C
/// simulation would (the cfg's files and cflags, the counter's C model) and run it there.
fn build_and_run(dir: &Path, name: &str, extra: &[&str]) -> PathBuf {
    let mut args = vec!["rewrite", "paths.cpp", "paths_tb.cpp", "--target", "vitis", "--top", "paths_top"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", name, "-q"]);
    hlsinstr(dir, &args);
    let out = dir.join(name);
    let printed = run_vitis_csim(&out, &["-w"]);
    assert_eq!(printed, std::fs::read_to_string(dir.join("expected.txt")).unwrap(), "the testbench's output");
    out
}

/// The decoded report of call `k` (1-based) of the build in `out`.
fn decode(out: &Path, k: usize) -> Value {
    let file = if k == 1 { "hlsinstr-dbg.bin".to_string() } else { format!("hlsinstr-dbg-{k}.bin") };
    let json = hlsinstr(out, &["decode", &file, "--manifest", "hlsinstr-manifest.json", "--format", "json"]);
    serde_json::from_str(&json).unwrap()
}

/// The lines of paths.cpp a decoded call walked, in order.
fn kernel_lines(call: &Value) -> Vec<usize> {
    call["path"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p[0] == "paths.cpp")
        .map(|p| p[1].as_u64().unwrap() as usize)
        .collect()
}

/// The raw records of a trace dump, oldest first (header: docs/branches.md#the-trace-dump).
fn records(path: &Path) -> Vec<u64> {
    let b = std::fs::read(path).unwrap();
    let w: Vec<u64> = b.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
    let (region, next, wrapped) = (w[3] as usize, w[4] as usize, w[5] & 2 != 0);
    let ring = &w[10..10 + region];
    if wrapped {
        ring[next..].iter().chain(&ring[..next]).copied().collect()
    } else {
        ring[..next].to_vec()
    }
}

#[test]
fn decoded_hardware_paths_match_the_reference_recorder() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["paths.cpp", "paths_tb.cpp"] {
        std::fs::copy(repo().join("tests/branches").join(f), dir.join(f)).unwrap();
    }
    // The original build: its output and the reference path (lines of paths.cpp, per call: the
    // testbench calls the top 4 times, and R logs every statement).
    let orig = dir.join("orig");
    std::fs::create_dir_all(&orig).unwrap();
    run(Command::new("g++").current_dir(&orig).args([
        "-std=c++11",
        "-O1",
        "-o",
        "t",
        "../paths.cpp",
        "../paths_tb.cpp",
    ]));
    std::fs::write(dir.join("expected.txt"), run(Command::new(orig.join("t")).current_dir(&orig))).unwrap();
    let reference: Vec<usize> =
        std::fs::read_to_string(orig.join("ref.txt")).unwrap().lines().map(|l| l.parse().unwrap()).collect();
    let original = std::fs::read_to_string(dir.join("paths.cpp")).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    // R in a condition or an operand runs without a statement of its own on the path.
    let conditional = |l: usize| lines[l - 1].contains("// cond");
    let expected: Vec<usize> = reference.iter().copied().filter(|&l| !conditional(l)).collect();
    assert!(expected.len() > 50, "the testbench exercises the kernel");

    // Three builds, compiled side by side: (b) an 8-record BRAM buffer (4-record bursts) and a
    // ring big enough for every record; (c) a 100-record ring that wraps; (d) timestamps and a
    // 100-record linear ring.
    let builds: Vec<(&str, Vec<&str>)> = vec![
        ("hw", vec!["--probes", "branches", "--trace-depth", "8", "--trace-records", "4096"]),
        ("wrap", vec!["--probes", "branches", "--trace-depth", "8", "--trace-records", "100"]),
        (
            "ts",
            vec![
                "--probes",
                "branches,timestamps",
                "--trace-depth",
                "8",
                "--trace-records",
                "100",
                "--trace-mode",
                "linear",
            ],
        ),
    ];
    let outs: Vec<PathBuf> = std::thread::scope(|s| {
        let handles: Vec<_> =
            builds.iter().map(|(name, extra)| s.spawn(move || build_and_run(dir, name, extra))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let (hw, wrap, ts) = (&outs[0], &outs[1], &outs[2]);
    for (f, out) in [("paths.cpp", "hw/paths.cpp"), ("paths_tb.cpp", "hw/paths_tb.cpp"), ("paths.cpp", "ts/paths.cpp")]
    {
        let text = std::fs::read_to_string(dir.join(out)).unwrap();
        assert_eq!(
            hlsinstr::strip::strip(&text).unwrap(),
            std::fs::read_to_string(dir.join(f)).unwrap(),
            "{out} strips back"
        );
    }
    let mut decoded = Vec::new();
    let mut counts = Vec::new();
    for k in 1..=4 {
        let rep = decode(hw, k);
        assert_eq!(rep["overwritten"], 0);
        assert_eq!(rep["lost"], 0);
        assert_eq!(rep["cut_records"], 0, "{rep}");
        let calls = rep["calls"].as_array().unwrap();
        assert_eq!(calls.len(), 1, "one call of the top per run");
        assert_eq!(calls[0]["function"], "paths_top");
        decoded.extend(
            kernel_lines(&calls[0]).into_iter().filter(|&l| lines[l - 1].contains("R(__LINE__)") && !conditional(l)),
        );
        counts.push(rep["records"].as_u64().unwrap());
    }
    assert_eq!(decoded, expected, "the decoded path is the reference recorder's");
    let biggest = *counts.iter().max().unwrap();
    assert!(biggest > 100, "the largest run has more records ({biggest}) than the small rings hold");

    // (c) The kept records are exactly the newest 100 of the full run's, oldest first, and each
    // call kept whole decodes to a piece of the reference path.
    let k = counts.iter().position(|&c| c == biggest).unwrap() + 1;
    let file =
        |out: &Path| out.join(if k == 1 { "hlsinstr-dbg.bin".to_string() } else { format!("hlsinstr-dbg-{k}.bin") });
    let full = records(&file(hw));
    assert_eq!(records(&file(wrap)), full[full.len() - 100..], "wrap keeps the newest records, oldest first");
    let rep = decode(wrap, k);
    assert_eq!(rep["overwritten"].as_u64().unwrap(), biggest - 100);
    assert!(rep["warnings"].to_string().contains("wrapped"), "{rep}");
    let kept = kernel_calls(&rep);
    assert!(kept.iter().any(|c| !c.is_empty()), "some calls of paths.cpp are whole in the newest 100 records: {rep}");
    for c in kept.iter().filter(|c| !c.is_empty()) {
        assert!(
            expected.windows(c.len()).any(|w| w == c.as_slice()),
            "a call kept whole is a piece of the reference path: {c:?}"
        );
    }

    // (d) Linear keeps the first 100 records (site id and value as in the full run; the cycle
    // delta above them) and says how many were lost. The counter's C model advances by one per
    // read, so every delta after the first is exactly 1.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(ts.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let t = &manifest["hw"]["trace"];
    let low = (1u64 << (t["id_bits"].as_u64().unwrap() + t["value_bits"].as_u64().unwrap())) - 1;
    let first: Vec<u64> = records(&file(ts)).iter().map(|r| r & low).collect();
    assert_eq!(first, full[..100], "linear keeps the first records");
    let rep = decode(ts, k);
    assert_eq!(rep["lost"].as_u64().unwrap(), biggest - 100);
    assert!(rep["warnings"].to_string().contains("not stored"), "{rep}");
    // The top's call is cut at its end: replayed up to the last stored record.
    let cut = &kernel_calls(&rep)[0];
    assert_eq!(rep["calls"][0]["complete"], false, "{rep}");
    assert!(cut.len() > 5 && expected.windows(cut.len()).any(|w| w == cut.as_slice()), "{cut:?}");
    let rep = decode(ts, 1);
    let sites = rep["calls"][0]["sites"].as_array().unwrap();
    assert!(sites.len() > 3);
    assert!(sites[1..].iter().all(|s| s["cycles"] == 1), "{sites:?}");
    assert_eq!(rep["calls"][0]["complete"], true);
    // The XRT host programs of a trace-only build and of one with the monitor too type-check
    // against the documented API (tests/hw/xrt_stub, as tests/vitis.rs does).
    hlsinstr(
        dir,
        &[
            "rewrite",
            "paths.cpp",
            "paths_tb.cpp",
            "--target",
            "vitis",
            "--top",
            "paths_top",
            "--probes",
            "modules,branches",
            "--out",
            "mb",
            "-q",
        ],
    );
    for out in [ts.clone(), dir.join("mb")] {
        run(Command::new("g++")
            .args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"])
            .arg("-I")
            .arg(repo().join("tests/hw/xrt_stub"))
            .arg("-I")
            .arg(&out)
            .arg("-isystem")
            .arg(hls_include())
            .arg(out.join("host/hlsinstr_host.cpp")));
    }
    let host = std::fs::read_to_string(dir.join("mb/host/hlsinstr_host.cpp")).unwrap();
    assert!(host.contains("with_suffix(dump, \"-trace\")"), "beside a monitor dump the trace goes to <dump>-trace.bin");
    let text = hlsinstr(ts, &["decode", "hlsinstr-dbg.bin", "--manifest", "hlsinstr-manifest.json"]);
    assert!(text.contains("call 1 paths_top (paths.cpp)") && text.contains(" +1"), "{text}");
}

/// The unconditional R lines of every call in a report whose function is in paths.cpp.
fn kernel_calls(rep: &Value) -> Vec<Vec<usize>> {
    let original = std::fs::read_to_string(repo().join("tests/branches/paths.cpp")).unwrap();
    let lines: Vec<&str> = original.lines().collect();
    rep["calls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["file"] == "paths.cpp")
        .map(|c| {
            kernel_lines(c)
                .into_iter()
                .filter(|&l| lines[l - 1].contains("R(__LINE__)") && !lines[l - 1].contains("// cond"))
                .collect()
        })
        .collect()
}

/// The RTL model of the record path and of the trace buffer with its flush logic
/// (verilog/estimate/, the figures of scripts/trace-resources.sh): lint-clean under Verilator
/// -Wall; the buffer's testbench passes under Icarus (wrap, linear, a ring that wraps three
/// times, a memory without stalls where the producer must never wait) and Verilator, and fails
/// when a flushed record is off by one place.
#[test]
fn trace_rtl_lints_and_passes_its_testbench_in_icarus_and_verilator() {
    let dir = repo().join("verilog/estimate");
    let rtl = dir.join("hlsinstr_trace_buffer.v");
    for (file, params) in [
        ("hlsinstr_trace_buffer.v", vec![]),
        ("hlsinstr_trace_buffer.v", vec!["-GDELTA_BITS=24", "-GWRAP=0"]),
        ("hlsinstr_trace_sites.v", vec!["-GSITES=8", "-GLOOPS=3", "-GID_BITS=4"]),
    ] {
        let out = Command::new("verilator")
            .args(["--lint-only", "-Wall"])
            .args(&params)
            .arg(dir.join(file))
            .output()
            .unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "verilator -Wall {file}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let work = tempfile::tempdir().unwrap();
    let tb = dir.join("hlsinstr_trace_buffer_tb.v");
    let icarus = |rtl: &Path, params: &[(&str, u32)]| -> String {
        let vvp = work.path().join("tb.vvp");
        let mut cmd = Command::new("iverilog");
        cmd.args(["-g2012", "-o"]).arg(&vvp);
        for (p, v) in params {
            cmd.arg(format!("-Phlsinstr_trace_buffer_tb.{p}={v}"));
        }
        run(cmd.arg(rtl).arg(&tb));
        run(Command::new("vvp").arg("-n").arg(&vvp))
    };
    for params in [
        vec![("WRAP", 1)],
        vec![("WRAP", 0)],
        vec![("DEPTH", 64), ("REGION", 1000), ("N", 3000)],
        vec![("DEPTH", 16), ("REGION", 4096), ("N", 700), ("STALLS", 0)],
    ] {
        let out = icarus(&rtl, &params);
        assert!(out.contains("PASS") && !out.contains("FAIL"), "{params:?}: {out}");
    }
    let broken = std::fs::read_to_string(&rtl)
        .unwrap()
        .replace("if (consume) rd_reg <= rd_reg + 1'b1;", "if (consume) rd_reg <= rd_reg + 2'd2;");
    let broken_path = work.path().join("broken.v");
    std::fs::write(&broken_path, broken).unwrap();
    assert!(icarus(&broken_path, &[("WRAP", 1)]).contains("FAIL"), "the testbench catches a misplaced record");
    let mdir = work.path().join("obj");
    run(Command::new("verilator")
        .args([
            "--binary",
            "--timing",
            "-Wno-fatal",
            "-Wno-lint",
            "-Wno-style",
            "-GWRAP=0",
            "--top-module",
            "hlsinstr_trace_buffer_tb",
        ])
        .arg("--Mdir")
        .arg(&mdir)
        .arg(&rtl)
        .arg(&tb));
    let out = run(&mut Command::new(mdir.join("Vhlsinstr_trace_buffer_tb")));
    assert!(out.contains("PASS") && !out.contains("FAIL"), "verilator: {out}");
}
