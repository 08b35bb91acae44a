//! The OpenCL branch trace end to end on `tests/opencl/branches/kernels/paths.cl` (nested
//! if/else chains with brace-less arms, switch fall-through, early returns, break/continue,
//! data-dependent loops, `?:` and `&&` with side effects; a single work-item kernel called four
//! times and an NDRange kernel of six work-items): rewrite with `--probes branches`, clang's
//! OpenCL C 1.2 check in both modes, `strip` back to the input, `hlsinstr emulate --run`, then
//! `hlsinstr decode --format json`. The kernels log every line they run (the reference path):
//! per function and work-item the decoded paths, in order, are the reference's, and the line
//! counts and inline-site records equal its counts.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::repo;

fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install clang g++ python3)"))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

fn hlsinstr(dir: &Path, args: &[&str]) -> Output {
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .current_dir(dir)
        .args(args)
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000"));
    assert!(out.status.success(), "hlsinstr {args:?}:\n{}", text(&out));
    out
}

#[test]
fn decoded_paths_per_work_item_match_the_kernels_own_log() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let src = repo().join("tests/opencl/branches");
    let kernels = src.join("kernels");
    let out = hlsinstr(dir, &["rewrite", "--probes", "branches", "--out", "instr", kernels.to_str().unwrap()]);
    assert!(!text(&out).contains("not traced"), "{}", text(&out));
    let instr = dir.join("instr");

    // The output is OpenCL C 1.2 in the default and the iBuffer mode, and strips back.
    let lib = repo().join("opencl-lib");
    for mode in [None, Some("-DHLSINSTR_OPENCL_IBUFFER")] {
        let out = run(Command::new("clang")
            .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror", "-Wno-unknown-attributes"])
            .args(mode)
            .arg("-DHLSINSTR_NUM_IBUFFERS=5")
            .arg("-include")
            .arg(lib.join("tb/intel_channels_check.h"))
            .arg("-I")
            .arg(&lib)
            .arg(instr.join("paths.cl")));
        assert!(out.status.success(), "clang {mode:?}:\n{}", text(&out));
    }
    hlsinstr(dir, &["strip", "instr", "--out", "stripped"]);
    let original = std::fs::read_to_string(kernels.join("paths.cl")).unwrap();
    assert_eq!(std::fs::read_to_string(dir.join("stripped/paths.cl")).unwrap(), original);

    // Run in the emulation: the reference path (ref.txt) and the dump.
    let host = src.join("host.cpp");
    let out = hlsinstr(dir, &["emulate", "--depth", "512", "--run", "--host", host.to_str().unwrap(), "instr"]);
    assert!(text(&out).contains("PASS"), "{}", text(&out));
    let out = hlsinstr(
        dir,
        &["decode", "hlsinstr-ocl.bin", "--manifest", "instr/hlsinstr-manifest.json", "--format", "json"],
    );
    let rep: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let b = &rep["branches"];
    let manifest = hlsinstr::sim::read_manifest(&instr.join("hlsinstr-manifest.json")).unwrap();

    // `__LINE__` is the instrumented file's line: back to the original through the line map.
    let map = &manifest.files[0].line_map;
    let original_line = |l: usize| {
        let [first, orig, _] = *map.iter().rev().find(|r| r[0] <= l).expect("a mapped line");
        orig + (l - first)
    };
    // Per work-item its lines in order: the single work-item kernel's calls (work-item 0) ran
    // before the NDRange launch.
    let mut reference: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for l in std::fs::read_to_string(dir.join("ref.txt")).unwrap().lines() {
        let (who, line) = l.split_once(' ').unwrap();
        let item = if who == "top" { 0 } else { who.parse().unwrap() };
        reference.entry(item).or_default().push(original_line(line.parse().unwrap()));
    }
    let lines: Vec<&str> = original.lines().collect();
    let logs = |l: usize| lines[l - 1].contains("R(__LINE__)");
    let conditional = |l: usize| logs(l) && lines[l - 1].contains("// cond");
    let trace = manifest.branches.as_ref().expect("a branch trace");
    assert_eq!(trace.functions.len(), 5);
    let paths = b["paths"].as_array().unwrap();
    assert_eq!(b["calls"].as_u64().unwrap() as usize, paths.len(), "every call listed");
    let mut compared = 0;
    for f in &trace.functions {
        let own: std::collections::BTreeSet<usize> = f.graph.nodes.iter().map(|n| n.line).collect();
        for (&item, reflines) in &reference {
            let expected: Vec<usize> =
                reflines.iter().copied().filter(|&l| own.contains(&l) && !conditional(l)).collect();
            let decoded: Vec<usize> = paths
                .iter()
                .filter(|p| p["function"] == f.function.as_str() && p["work_item"] == item)
                .flat_map(|p| p["lines"].as_array().unwrap().iter().map(|l| l.as_u64().unwrap() as usize))
                .filter(|&l| logs(l) && !conditional(l))
                .collect();
            assert_eq!(decoded, expected, "{} work-item {item}", f.function);
            compared += decoded.len();
        }
    }
    assert!(compared > 150, "{compared} lines compared");
    let all: Vec<usize> = reference.values().flatten().copied().collect();
    assert!(all.len() > 150, "the host exercises the kernels");
    let count = |l: usize| all.iter().filter(|&&r| r == l).count() as u64;
    // Line counts: every line that logs unconditionally ran as often as it logged.
    let counts = &b["coverage"]["files"][0]["lines"];
    for l in (1..=lines.len()).filter(|&l| logs(l) && !conditional(l)) {
        assert_eq!(counts[l.to_string()].as_u64(), Some(count(l)), "line {l}: {}", lines[l - 1]);
    }
    // R in an operand (`?:`, `&&`) ran once per record of its site; in a condition, once per
    // test of it.
    let records: Vec<&serde_json::Value> = paths.iter().flat_map(|p| p["records"].as_array().unwrap()).collect();
    for l in (1..=lines.len()).filter(|&l| conditional(l)) {
        let operand =
            trace.sites.iter().any(|s| s.line == l && matches!(s.kind.as_str(), "ternary_true" | "and_right"));
        let seen = if operand {
            records
                .iter()
                .filter(|r| r["line"] == l && matches!(r["kind"].as_str(), Some("ternary_true" | "and_right")))
                .count() as u64
        } else {
            counts[l.to_string()].as_u64().unwrap()
        };
        assert_eq!(seen, count(l), "line {l}: {}", lines[l - 1]);
    }
    // The decisions went both ways somewhere, and the NDRange kernel's six work-items are told apart.
    assert!(b["coverage"]["decisions"].as_array().unwrap().len() >= 15);
    let nd: Vec<u64> =
        paths.iter().filter(|p| p["function"] == "paths_nd").map(|p| p["work_item"].as_u64().unwrap()).collect();
    assert_eq!(nd, [0, 1, 2, 3, 4, 5]);

    // A record of a site the manifest does not have is a clear error, not a wrong path.
    let mut dump = std::fs::read(dir.join("hlsinstr-ocl.bin")).unwrap();
    let first_snapshot = (32..dump.len()).step_by(32).find(|&o| dump[o..o + 4] == [0, 0, 0, 0]).unwrap();
    dump[first_snapshot + 28..first_snapshot + 32].copy_from_slice(&999u32.to_le_bytes());
    std::fs::write(dir.join("bad.bin"), &dump).unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).current_dir(dir).args([
        "decode",
        "bad.bin",
        "--manifest",
        "instr/hlsinstr-manifest.json",
    ]));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("holds a record of site 999, which the manifest does not have"), "{}", text(&out));
}
