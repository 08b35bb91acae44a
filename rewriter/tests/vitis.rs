//! The in-FPGA Vitis build (`rewrite --target vitis`) end to end, without Vitis:
//! (a) every example rewritten, compiled with g++ from the generated hls_config.cfg, its
//!     testbench run through the new top: same output as the original, the monitor terminates,
//!     and the decoded dumps count what the testbench predicts (`hlsinstr-expect` lines);
//! (b) the cycle-stepping monitor harness (tests/hw/monitor_harness.cpp) with and without
//!     timestamps; (e) its dump decoded to exactly the scripted numbers;
//! plus strip giving the sources back and the refusals.
//!
//! Needs g++ and the Xilinx C-simulation headers; a missing tool fails the test.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{hls_include, repo};

fn hlsinstr(args: &[&str], cwd: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn gxx(files: &[PathBuf], includes: &[PathBuf], exe: &Path) {
    let mut cmd = Command::new("g++");
    cmd.args(["-std=c++14", "-O1", "-w"]);
    for i in includes {
        cmd.arg("-I").arg(i);
    }
    cmd.arg("-isystem").arg(hls_include()).args(files).arg("-o").arg(exe);
    let out = cmd.output().expect("g++ is needed: apt-get install g++");
    assert!(out.status.success(), "g++ failed:\n{}", String::from_utf8_lossy(&out.stderr));
}

fn run_in(exe: &Path, dir: &Path, args: &[&str]) -> String {
    let out = Command::new(exe).args(args).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "{} failed ({:?}):\n{}{}",
        exe.display(),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `key=value` lines of the generated hls_config.cfg.
fn cfg_values(cfg: &str, key: &str) -> Vec<String> {
    cfg.lines().filter_map(|l| l.strip_prefix(&format!("{key}="))).map(|v| v.trim().to_string()).collect()
}

/// Compile the generated build as Vitis' C simulation would: the cfg's syn and tb files, its
/// cflags, and the counter blackbox's C model named by its JSON.
fn build_generated(out: &Path, exe: &Path) {
    let cfg = std::fs::read_to_string(out.join("hls_config.cfg")).unwrap();
    let mut files: Vec<PathBuf> = cfg_values(&cfg, "syn.file").iter().map(|f| out.join(f)).collect();
    files.extend(cfg_values(&cfg, "tb.file").iter().map(|f| out.join(f)));
    let blackbox = cfg_values(&cfg, "syn.blackbox.file");
    assert_eq!(blackbox.len(), 1, "the counter blackbox is registered");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(out.join(&blackbox[0])).unwrap()).unwrap();
    for c in json["c_files"].as_array().unwrap() {
        files.push(out.join(c["c_file"].as_str().unwrap()));
    }
    let includes: Vec<PathBuf> = cfg_values(&cfg, "syn.cflags")[0]
        .split_whitespace()
        .filter_map(|f| f.strip_prefix("-I"))
        .map(|d| out.join(d))
        .collect();
    gxx(&files, &includes, exe);
}

/// The generated XRT host program type-checks against the documented API (test-only
/// declarations in tests/hw/xrt_stub: no XRT here, so it is never linked or run).
fn host_compiles(out: &Path) {
    let o = Command::new("g++")
        .args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-Wno-unknown-pragmas"])
        .arg("-I")
        .arg(repo().join("tests/hw/xrt_stub"))
        .arg("-I")
        .arg(out)
        .arg("-isystem")
        .arg(hls_include())
        .arg(out.join("host/hlsinstr_host.cpp"))
        .output()
        .expect("g++");
    assert!(o.status.success(), "host/hlsinstr_host.cpp:\n{}", String::from_utf8_lossy(&o.stderr));
}

fn top_of(example: &Path) -> String {
    let cfg = std::fs::read_to_string(example.join("hls_config.cfg")).unwrap();
    cfg_values(&cfg, "syn.top")[0].clone()
}

fn cpp_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
        .collect();
    v.sort();
    v
}

#[test]
fn every_example_runs_through_the_new_top_and_its_dumps_count_what_the_testbench_predicts() {
    for name in ["binary_search", "control_flow", "dataflow_pipeline", "matmul", "quicksort"] {
        let nests = check_example(name, "modules,loops");
        // control_flow's fill and matmul's copy loops are perfect nests: each one probe, whose
        // flattened trips (rows x columns) the testbench predicts for the inner loop. In
        // compute_tile row_loop/col_loop is one; prod_loop (after `acc` in col_loop's body) is not
        // part of it and keeps its own probe.
        let want: &[&str] = match name {
            "control_flow" => &["cf_top: fill_row/fill_col"],
            "matmul" => &[
                "compute_tile: row_loop/col_loop",
                "load_a_tile: load_a_row/load_a_col",
                "load_b: load_b_row/load_b_col",
            ],
            _ => &[],
        };
        assert_eq!(nests, want, "{name}: perfect nests measured as one loop");
    }
}

/// With timestamps every probe reads the counter blackbox (its C model in C simulation).
#[test]
fn examples_with_timestamps_read_the_counter_and_still_count_exactly() {
    for name in ["dataflow_pipeline", "quicksort"] {
        check_example(name, "modules,loops,timestamps");
    }
}

/// Rewrite, build and run one example; the perfect nests that were measured as one unit
/// (`function: outer/inner`).
fn check_example(name: &str, probes: &str) -> Vec<String> {
    let mut checked_nests = Vec::new();
    {
        let example = repo().join("examples").join(name);
        let top = top_of(&example);
        let tmp = tempfile::tempdir().unwrap();
        let orig_exe = tmp.path().join("orig");
        gxx(&cpp_files(&example), std::slice::from_ref(&example), &orig_exe);
        let want = run_in(&orig_exe, tmp.path(), &[]);

        let out = tmp.path().join("instr");
        let (code, _, err) = hlsinstr(
            &[
                "rewrite",
                example.to_str().unwrap(),
                "--probes",
                probes,
                "--target",
                "vitis",
                "--top",
                &top,
                "--out",
                out.to_str().unwrap(),
            ],
            &repo(),
        );
        assert_eq!(code, 0, "{name}: rewrite failed: {err}");
        for generated in [
            "hlsinstr_top.cpp",
            "hlsinstr_top.h",
            "hlsinstr_monitor.h",
            "run_hls.tcl",
            "hlsinstr_vpp.cfg",
            "host/hlsinstr_host.cpp",
        ] {
            assert!(out.join(generated).is_file(), "{name}: {generated} generated");
        }
        let exe = tmp.path().join("instr_tb");
        build_generated(&out, &exe);
        host_compiles(&out);
        let run_dir = tmp.path().join("run");
        std::fs::create_dir(&run_dir).unwrap();
        let got = run_in(&exe, &run_dir, &[]);
        assert_eq!(got, want, "{name}: the testbench's output changed through the new top");

        // Every call of the top wrote a dump; together they count what the testbench predicts.
        let mut calls: HashMap<String, u64> = HashMap::new();
        let mut execs: HashMap<(String, String), u64> = HashMap::new();
        let mut trips: HashMap<(String, String), u64> = HashMap::new();
        let mut nests: Vec<(String, Vec<String>)> = Vec::new();
        let mut dumps = 0;
        for entry in std::fs::read_dir(&run_dir).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "bin") {
                continue;
            }
            dumps += 1;
            let manifest = out.join("hlsinstr-manifest.json");
            let (code, json, err) = hlsinstr(
                &["decode", path.to_str().unwrap(), "--manifest", manifest.to_str().unwrap(), "--format", "json"],
                &repo(),
            );
            assert_eq!(code, 0, "{name}: decode {}: {err}", path.display());
            let rep: Value = serde_json::from_str(&json).unwrap();
            assert_eq!(rep["finished"], true, "{name}: the monitor terminated after draining");
            assert_eq!(rep["timestamps"], probes.contains("timestamps"), "{name}: time source");
            for row in rep["rows"].as_array().unwrap() {
                assert_eq!(row["unmatched"], 0, "{name}: every begin has its end: {row}");
                let function = row["function"].as_str().unwrap().to_string();
                let n = row["calls"].as_u64().unwrap_or(0);
                match row["kind"].as_str().unwrap() {
                    "function" => *calls.entry(function).or_default() += n,
                    _ => {
                        // A perfect nest is one probe: its executions are the outermost loop's,
                        // its (flattened) trips the innermost loop's total trips; the other
                        // counts of its loops are not measured.
                        let nest: Vec<String> = row["nest"]
                            .as_array()
                            .map(|m| m.iter().map(|x| x.as_str().unwrap().to_string()).collect())
                            .unwrap_or_default();
                        let name = row["name"].as_str().unwrap().to_string();
                        let (outer, inner) = match (nest.first(), nest.last()) {
                            (Some(o), Some(i)) => {
                                assert_eq!(name, nest.join("_"), "{name}: a nest is named as Vitis names it");
                                let (_, table, _) = hlsinstr(
                                    &["decode", path.to_str().unwrap(), "--manifest", manifest.to_str().unwrap()],
                                    &repo(),
                                );
                                assert!(table.contains(&format!("loop nest {name} ")), "{name}:\n{table}");
                                nests.push((function.clone(), nest.clone()));
                                (o.clone(), i.clone())
                            }
                            _ => (name.clone(), name),
                        };
                        *execs.entry((function.clone(), outer)).or_default() += n;
                        *trips.entry((function, inner)).or_default() += row["trips"].as_u64().unwrap_or(0);
                    }
                }
            }
        }
        assert!(dumps > 0, "{name}: no debug dump written");
        let mut checked = 0;
        for line in want.lines().filter_map(|l| l.strip_prefix("hlsinstr-expect ")) {
            let w: Vec<&str> = line.split_whitespace().collect();
            let n: u64 = w.last().unwrap().parse().unwrap();
            let in_nest = |pos: fn(&[String]) -> Option<&String>| {
                nests
                    .iter()
                    .any(|(f, m)| f == w[1] && m.contains(&w[2].to_string()) && pos(m) != Some(&w[2].to_string()))
            };
            let not_measured = match w[0] {
                "execs" => in_nest(|m| m.first()),
                "trips" => in_nest(|m| m.last()),
                _ => false,
            };
            if not_measured {
                continue; // an inner loop's executions or an outer loop's trips inside a nest
            }
            let got = match w[0] {
                "calls" => calls.get(w[1]).copied(),
                "execs" => execs.get(&(w[1].to_string(), w[2].to_string())).copied(),
                "trips" => trips.get(&(w[1].to_string(), w[2].to_string())).copied(),
                _ => continue, // m_axi bytes: a C-simulation kind
            };
            assert_eq!(got, Some(n), "{name}: hlsinstr-expect {line}");
            checked += 1;
        }
        assert!(checked > 0, "{name}: no predictions checked");
        nests.sort();
        nests.dedup();
        checked_nests.extend(nests.into_iter().map(|(f, m)| format!("{f}: {}", m.join("/"))));

        // strip gives the sources back and leaves the generated files out.
        let restored = tmp.path().join("restored");
        let (code, _, err) = hlsinstr(&["strip", out.to_str().unwrap(), "--out", restored.to_str().unwrap()], &repo());
        assert_eq!(code, 0, "{name}: strip: {err}");
        for src in std::fs::read_dir(&example).unwrap().flatten().map(|e| e.path()) {
            if src.extension().is_some_and(|e| e == "cpp" || e == "h") {
                let back = std::fs::read(restored.join(src.file_name().unwrap())).unwrap();
                assert_eq!(back, std::fs::read(&src).unwrap(), "{name}: strip restores {}", src.display());
            }
        }
        assert!(!restored.join("hlsinstr_top.cpp").exists(), "{name}: generated files are not restored as sources");
    }
    checked_nests
}

fn expected_rows(stdout: &str) -> Vec<(u64, HashMap<String, u64>)> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("expect "))
        .map(|l| {
            let mut w = l.split_whitespace();
            let slot: u64 = w.next().unwrap().parse().unwrap();
            let kv = w.map(|p| p.split_once('=').unwrap()).map(|(k, v)| (k.to_string(), v.parse().unwrap())).collect();
            (slot, kv)
        })
        .collect()
}

#[test]
fn the_monitor_counts_a_scripted_producer_exactly_and_decode_reads_it_back() {
    let kernel = repo().join("tests/hw/monitor_kernel");
    for (probes, longest) in [("modules,loops", false), ("modules,loops,timestamps", false), ("modules,loops", true)] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("instr");
        let mut args = vec![
            "rewrite",
            kernel.to_str().unwrap(),
            "--probes",
            probes,
            "--target",
            "vitis",
            "--top",
            "top",
            "--out",
            out.to_str().unwrap(),
        ];
        if longest {
            args.push("--monitor-longest");
        }
        let (code, _, err) = hlsinstr(&args, &repo());
        assert_eq!(code, 0, "{err}");
        let exe = tmp.path().join("harness");
        gxx(&[repo().join("tests/hw/monitor_harness.cpp")], &[out.join("hlsinstr-lib/include"), out.clone()], &exe);
        let dump = tmp.path().join("a.bin");
        let stdout = run_in(&exe, tmp.path(), &[dump.to_str().unwrap()]);
        assert!(stdout.contains(": 0 failures"), "{probes}: {stdout}");

        // (e) the dump → decode → the scripted numbers.
        let manifest = out.join("hlsinstr-manifest.json");
        let (code, json, err) = hlsinstr(
            &["decode", dump.to_str().unwrap(), "--manifest", manifest.to_str().unwrap(), "--format", "json"],
            &repo(),
        );
        assert_eq!(code, 0, "{err}");
        let rep: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(rep["cycles"], 100008);
        assert_eq!(rep["timestamps"], probes.contains("timestamps"));
        let rows = rep["rows"].as_array().unwrap();
        let expected = expected_rows(&stdout);
        assert_eq!(expected.len(), 4);
        for (slot, want) in expected {
            let row = rows.iter().find(|r| r["slot"] == slot).unwrap_or_else(|| panic!("slot {slot} in {json}"));
            assert_eq!(row["calls"].as_u64(), Some(want["calls"]), "slot {slot}");
            assert_eq!(row["busy"].as_u64(), Some(want["busy"]), "slot {slot}");
            match want.get("max") {
                Some(m) => assert_eq!(row["max"].as_u64(), Some(*m), "slot {slot}"),
                None => assert!(row["max"].is_null() && !longest, "slot {slot}: no longest invocation kept"),
            }
            assert_eq!(row["first_start"].as_u64(), Some(want["first"]), "slot {slot}");
            assert_eq!(row["last_end"].as_u64(), Some(want["last"]), "slot {slot}");
            assert_eq!(row["trips"].as_u64().unwrap_or(0), want["trips"], "slot {slot}");
        }
    }
}

/// `decode --sim` pairs the in-FPGA build's probes with the C-simulation report's by source, not
/// by id: matmul's sim build has m_axi port probes and a probe per loop, its in-FPGA build
/// neither, so ids differ from the first port on. Every measured module and loop gets its sim
/// figures, a perfect nest those of its outermost loop, and the nests' inner loops are named.
#[test]
fn decode_with_a_sim_report_pairs_probes_by_source_across_nests_and_ports() {
    let example = repo().join("examples/matmul");
    let tmp = tempfile::tempdir().unwrap();
    let include = hls_include();
    let (code, sim, err) = hlsinstr(
        &[
            "sim",
            "--quiet",
            "--hls-include",
            include.to_str().unwrap(),
            example.join("hls_config.cfg").to_str().unwrap(),
            "--format",
            "json",
        ],
        &repo(),
    );
    assert_eq!(code, 0, "sim: {err}");
    let sim_path = tmp.path().join("sim.json");
    std::fs::write(&sim_path, &sim).unwrap();

    let out = tmp.path().join("instr");
    let (code, _, err) = hlsinstr(
        &[
            "rewrite",
            example.to_str().unwrap(),
            "--probes",
            "modules,loops",
            "--target",
            "vitis",
            "--top",
            "matmul_top",
            "--out",
            out.to_str().unwrap(),
        ],
        &repo(),
    );
    assert_eq!(code, 0, "rewrite: {err}");
    let exe = tmp.path().join("instr_tb");
    build_generated(&out, &exe);
    let run_dir = tmp.path().join("run");
    std::fs::create_dir(&run_dir).unwrap();
    run_in(&exe, &run_dir, &[]);
    let manifest = out.join("hlsinstr-manifest.json");
    let (code, json, err) = hlsinstr(
        &[
            "decode",
            run_dir.join("hlsinstr-dbg.bin").to_str().unwrap(),
            "--manifest",
            manifest.to_str().unwrap(),
            "--sim",
            sim_path.to_str().unwrap(),
            "--format",
            "json",
        ],
        &repo(),
    );
    assert_eq!(code, 0, "decode: {err}");
    let rep: Value = serde_json::from_str(&json).unwrap();
    let rows = rep["rows"].as_array().unwrap();
    for row in rows.iter().filter(|r| r["calls"].as_u64().unwrap_or(0) > 0) {
        assert!(row["sim_cycles"].as_u64().is_some_and(|c| c > 0), "every measured row has sim figures: {row}");
    }
    let names: Vec<&str> =
        rows.iter().filter(|r| r.get("nest").is_some()).map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["load_b_row_load_b_col", "load_a_row_load_a_col", "row_loop_col_loop"]);
    // A nest's sim figures are its outermost loop's (summed over that loop's sites).
    let sim: Value = serde_json::from_str(&sim).unwrap();
    for (nest, outer) in [("load_b_row_load_b_col", "load_b_row"), ("row_loop_col_loop", "row_loop")] {
        let want: u64 = sim["rows"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["kind"] == "loop" && r["name"] == outer)
            .map(|r| r["cycles"].as_u64().unwrap())
            .sum();
        let row = rows.iter().find(|r| r["name"] == nest).unwrap();
        assert_eq!((row["sim_cycles"].as_u64(), want > 0), (Some(want), true), "{nest}");
    }
    let warnings: Vec<&str> =
        rep["warnings"].as_array().map(|w| w.iter().map(|x| x.as_str().unwrap()).collect()).unwrap_or_default();
    assert!(warnings.iter().any(|w| w.contains("are inner loops of perfect nests")), "{warnings:?}");
    assert!(!warnings.iter().any(|w| w.contains("not in this build's manifest")), "{warnings:?}");
}

#[test]
fn refusals_say_what_to_do() {
    let kernel = repo().join("tests/hw/monitor_kernel");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("o");
    let k = kernel.to_str().unwrap();
    let o = out.to_str().unwrap();
    let (code, _, err) = hlsinstr(&["rewrite", k, "--target", "vitis", "--out", o], &repo());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("needs --top"), "{err}");
    let (code, _, err) =
        hlsinstr(&["rewrite", k, "--probes", "modules,seq", "--target", "vitis", "--top", "top", "--out", o], &repo());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("seq and maxi are C-simulation kinds"), "{err}");
    let (code, _, err) = hlsinstr(&["rewrite", k, "--target", "vitis", "--top", "top", "--in-place"], &repo());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not --in-place"), "{err}");
    assert!(!kernel.join("hlsinstr-manifest.json").exists());

    // A testbench calling a design function other than the top cannot be plumbed.
    let src = tmp.path().join("src");
    std::fs::create_dir(&src).unwrap();
    std::fs::write(src.join("k.cpp"), "void leaf(int *x) { x[0] = 1; }\nvoid top(int *x) { leaf(x); }\n").unwrap();
    std::fs::write(
        src.join("tb.cpp"),
        "void leaf(int *x);\nvoid top(int *x);\nint main() { int x[1]; top(x); leaf(x); return 0; }\n",
    )
    .unwrap();
    let (code, _, err) =
        hlsinstr(&["rewrite", src.to_str().unwrap(), "--target", "vitis", "--top", "top", "--out", o], &repo());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("calls `leaf`"), "{err}");
    assert!(!out.exists(), "nothing written");

    // Two processes of a dataflow region reaching the same probe.
    std::fs::write(src.join("tb.cpp"), "void top(int *x);\nint main() { int x[1]; top(x); return 0; }\n").unwrap();
    std::fs::write(
        src.join("k.cpp"),
        "void leaf(int *x) { x[0] = 1; }\nvoid a(int *x) { leaf(x); }\nvoid b(int *x) { leaf(x); }\nvoid top(int *x) {\n#pragma HLS dataflow\n a(x); b(x); }\n",
    )
    .unwrap();
    let (code, _, err) =
        hlsinstr(&["rewrite", src.to_str().unwrap(), "--target", "vitis", "--top", "top", "--out", o], &repo());
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("one writer in a dataflow region"), "{err}");
}
