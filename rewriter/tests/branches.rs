//! The branch trace end to end on `tests/branches/paths.cpp` (nested if/else chains, brace-less
//! arms, switch fall-through, early returns, break/continue, goto, data-dependent loops, `?:` and
//! `&&` with calls): rewrite, build with g++, run; the decoded path must be the path the
//! testbench's reference recorder logged, our line counts must equal real gcov's, and the
//! output must strip back to the input byte for byte.

mod common;

use hlsinstr::cfg::replay::{Decoder, SiteRecord};
use hlsinstr::sim::events::Event;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the command starts");
    assert!(out.status.success(), "{cmd:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `line -> count` of a `.gcov` file, for lines with a count (`#####` is 0).
fn gcov_counts(path: &Path) -> BTreeMap<usize, u64> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = BTreeMap::new();
    for l in text.lines() {
        let mut f = l.splitn(3, ':');
        let (c, n) = (f.next().unwrap().trim().trim_end_matches('*'), f.next().unwrap().trim());
        let n: usize = n.parse().unwrap();
        if n == 0 || c == "-" {
            continue;
        }
        out.insert(n, if c.starts_with('#') || c.starts_with('=') { 0 } else { c.parse().unwrap() });
    }
    out
}

/// The build in `inst` ran (its event log `ev.log`, its reference path `ref.txt`): the decoded
/// path of the statements calling R unconditionally is the reference's, in order, and R in an
/// operand or condition ran as often as its site recorded or its test was met.
fn check_decoded_path(inst: &Path, original: &str) {
    let manifest = hlsinstr::sim::read_manifest(&inst.join("hlsinstr-manifest.json")).unwrap();
    // `__LINE__` is the instrumented file's line: back to the original through the line map.
    let map = &manifest.files[0].line_map;
    let original_line = |l: usize| {
        let [first, orig, _] = *map.iter().rev().find(|r| r[0] <= l).expect("a mapped line");
        orig + (l - first)
    };
    let reference: Vec<usize> = std::fs::read_to_string(inst.join("ref.txt"))
        .unwrap()
        .lines()
        .map(|l| original_line(l.parse().unwrap()))
        .collect();
    let trace = manifest.branches.as_ref().expect("a branch trace in the manifest");
    let records = hlsinstr::sim::events::read(&inst.join("ev.log")).unwrap();
    let recs: Vec<SiteRecord> = records
        .iter()
        .filter(|r| r.event == Event::Trace)
        .map(|r| SiteRecord { site: r.probe, value: r.value })
        .collect();
    let mut d = Decoder::new(&trace.functions, &trace.inline_ids(), true);
    d.thread(&recs).unwrap();

    // Statements calling R unconditionally: the decoded path, in order, is the reference's.
    let lines: Vec<&str> = original.lines().collect();
    let conditional = |l: usize| lines[l - 1].contains("R(__LINE__)") && lines[l - 1].contains("// cond");
    let decoded: Vec<usize> = d
        .counts
        .path
        .iter()
        .map(|p| p.1)
        .filter(|&l| lines[l - 1].contains("R(__LINE__)") && !conditional(l))
        .collect();
    let expected: Vec<usize> = reference.iter().copied().filter(|&l| !conditional(l)).collect();
    assert!(expected.len() > 50, "the testbench exercises the kernel");
    assert_eq!(decoded, expected);
    // R in an operand or a condition: its calls are the operand's site hits or the test's visits.
    for (l, text) in lines.iter().enumerate().map(|(i, t)| (i + 1, t)).filter(|(l, _)| conditional(*l)) {
        let calls = reference.iter().filter(|&&r| r == l).count() as u64;
        let site = trace.sites.iter().find(|s| s.line == l && s.kind != "ternary_false");
        let seen = match site {
            Some(s) => d.counts.site_hits.get(&s.id).copied().unwrap_or(0),
            None => {
                let f = trace.functions.iter().position(|f| f.graph.nodes.iter().any(|n| n.line == l)).unwrap();
                let g = &trace.functions[f].graph;
                (0..g.nodes.len()).filter(|&n| g.nodes[n].line == l).map(|n| d.counts.visits[f][n]).max().unwrap()
            }
        };
        assert_eq!(seen, calls, "line {l}: {text}");
    }
}

/// The same kernel as a C file (`.c`, built by gcc; hls-lib's C probes record the return with
/// a cleanup): the same exact path, and the output strips back.
#[test]
fn a_c_kernel_is_traced_exactly() {
    let src_dir = common::repo().join("tests/branches");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::copy(src_dir.join("paths.cpp"), dir.join("paths.c")).unwrap();
    std::fs::copy(src_dir.join("paths_tb.c"), dir.join("paths_tb.c")).unwrap();
    std::fs::write(dir.join("rt.cpp"), "#include \"hlsinstr/c_runtime.h\"\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    let out =
        run(Command::new(bin).current_dir(dir).args(["rewrite", "paths.c", "--probes", "branches", "--out", "inst"]));
    assert!(!out.contains("not traced"), "{out}");
    let inst = dir.join("inst");
    let original = std::fs::read_to_string(dir.join("paths.c")).unwrap();
    let output = std::fs::read_to_string(inst.join("paths.c")).unwrap();
    assert!(output.contains("HLSINSTR_BR_FUNC("), "traced");
    assert_eq!(hlsinstr::strip::strip(&output).unwrap(), original, "strip gives the input back");
    let include = format!("-I{}", common::repo().join("hls-lib/include").display());
    for (cc, file) in [("gcc", "paths.c"), ("gcc", "../paths_tb.c"), ("g++", "../rt.cpp")] {
        let std = if cc == "gcc" { "-std=c11" } else { "-std=c++11" };
        run(Command::new(cc).current_dir(&inst).args([std, "-Wall", "-Werror", "-O1", "-c", &include, file]));
    }
    run(Command::new("g++").current_dir(&inst).args(["paths.o", "paths_tb.o", "rt.o", "-pthread", "-o", "t"]));
    run(Command::new(inst.join("t")).current_dir(&inst).env("HLSINSTR_EVENTS", "ev.log"));
    check_decoded_path(&inst, &original);
}

#[test]
fn decoded_paths_match_the_reference_and_line_counts_match_gcov() {
    let src_dir = common::repo().join("tests/branches");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["paths.cpp", "paths_tb.cpp"] {
        std::fs::copy(src_dir.join(f), dir.join(f)).unwrap();
    }
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    run(Command::new(bin).current_dir(dir).args([
        "rewrite",
        "paths.cpp",
        "--probes",
        "branches",
        "--out",
        "inst",
        "-q",
    ]));
    let inst = dir.join("inst");
    let original = std::fs::read_to_string(dir.join("paths.cpp")).unwrap();
    let output = std::fs::read_to_string(inst.join("paths.cpp")).unwrap();
    assert_eq!(hlsinstr::strip::strip(&output).unwrap(), original, "strip gives the input back");

    // The instrumented build, its event log and the reference path.
    let include = common::repo().join("hls-lib/include");
    run(Command::new("g++")
        .current_dir(&inst)
        .args(["-std=c++11", "-Wall", "-Werror", "-O1", "-o", "t"])
        .arg(format!("-I{}", include.display()))
        .args(["paths.cpp", "../paths_tb.cpp"]));
    run(Command::new(inst.join("t")).current_dir(&inst).env("HLSINSTR_EVENTS", "ev.log"));
    check_decoded_path(&inst, &original);
    let lines: Vec<&str> = original.lines().collect();

    // Line counts: `sim --gcov` against gcov on the original build of the same testbench.
    run(Command::new(bin).current_dir(dir).args([
        "sim",
        "--events",
        "inst/ev.log",
        "--manifest",
        "inst/hlsinstr-manifest.json",
        "--gcov",
        "ours",
        "-q",
    ]));
    let cov = dir.join("cov");
    std::fs::create_dir_all(&cov).unwrap();
    run(Command::new("g++").current_dir(&cov).args([
        "--coverage",
        "-O0",
        "-o",
        "t",
        "../paths.cpp",
        "../paths_tb.cpp",
    ]));
    run(Command::new(cov.join("t")).current_dir(&cov));
    let gcda = std::fs::read_dir(&cov)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("paths.gcda"))
        .expect("gcov data of paths.cpp");
    run(Command::new("gcov").current_dir(&cov).arg("-o").arg(&cov).arg(&gcda));
    let theirs = gcov_counts(&cov.join("paths.cpp.gcov"));
    let ours = gcov_counts(&dir.join("ours/paths.cpp.gcov"));
    assert!(ours.len() > 40, "counts for the traced lines: {ours:?}");
    for (line, count) in &ours {
        assert_eq!(theirs.get(line), Some(count), "line {line}: `{}`", lines[line - 1]);
    }
}

/// `sim` on a whole example (rewrite, build, run, decode): its `.gcov` counts equal real gcov's on
/// the same testbench, line for line.
#[test]
fn sim_gcov_of_the_control_flow_example_equals_gcov() {
    let example = common::repo().join("examples/control_flow");
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for f in ["control_flow.cpp", "control_flow.h", "control_flow_tb.cpp", "hls_config.cfg"] {
        std::fs::copy(example.join(f), dir.join(f)).unwrap();
    }
    let hls = common::hls_include();
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    let report = run(Command::new(bin)
        .current_dir(dir)
        .arg("sim")
        .arg("hls_config.cfg")
        .arg("--hls-include")
        .arg(&hls)
        .args(["--probes", "modules,branches", "--gcov", "ours", "-q"]));
    assert!(report.contains("branch trace: "), "{report}");
    run(Command::new("g++")
        .current_dir(dir)
        .args(["--coverage", "-O0", "-o", "t", "control_flow.cpp", "control_flow_tb.cpp"])
        .arg(format!("-I{}", hls.display())));
    run(Command::new(dir.join("t")).current_dir(dir));
    let gcda = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("control_flow.gcda"))
        .expect("gcov data of control_flow.cpp");
    run(Command::new("gcov").current_dir(dir).arg("-o").arg(dir).arg(&gcda));
    let theirs = gcov_counts(&dir.join("control_flow.cpp.gcov"));
    let ours = gcov_counts(&dir.join("ours/control_flow.cpp.gcov"));
    assert!(ours.len() > 60, "{ours:?}");
    for (line, count) in &ours {
        assert_eq!(theirs.get(line), Some(count), "control_flow.cpp:{line}");
    }
}

/// `sim --probes modules,branches --gcov` on a C project (gcc builds the `.c` files): its counts
/// equal real gcov's on the same testbench built with `gcc --coverage`.
#[test]
fn sim_gcov_of_a_c_project_equals_gcov() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let main = "#include <stdio.h>\nint sum(const int *a, int n);\nint main(void) {\n  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n  int s = sum(a, 8) + sum(a, 3);\n  printf(\"%d\\n\", s);\n  return s == 9 ? 0 : 1;\n}\n";
    let k = "int sum(const int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    if (a[i] % 3 == 0)\n      continue;\n    switch (a[i] & 3) {\n    case 1:\n      s += a[i];\n    case 2:\n      s += 1;\n      break;\n    default:\n      s -= 1;\n    }\n  }\n  return s;\n}\n";
    std::fs::write(dir.join("k.c"), k).unwrap();
    std::fs::write(dir.join("main.c"), main).unwrap();
    run(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).current_dir(dir).args([
        "sim",
        "--top",
        "sum",
        "--src",
        "k.c",
        "--tb",
        "main.c",
        "--no-csynth",
        "--probes",
        "modules,branches",
        "--gcov",
        "ours",
        "--quiet",
    ]));
    let cov = dir.join("cov");
    std::fs::create_dir_all(&cov).unwrap();
    run(Command::new("gcc").current_dir(&cov).args(["--coverage", "-O0", "-o", "t", "../k.c", "../main.c"]));
    run(Command::new(cov.join("t")).current_dir(&cov));
    let gcda = std::fs::read_dir(&cov)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("k.gcda"))
        .expect("gcov data of k.c");
    run(Command::new("gcov").current_dir(&cov).arg("-o").arg(&cov).arg(&gcda));
    let theirs = gcov_counts(&cov.join("k.c.gcov"));
    let ours = gcov_counts(&dir.join("ours/k.c.gcov"));
    assert!(ours.len() >= 10, "counts for the traced lines: {ours:?}");
    for (line, count) in &ours {
        assert_eq!(theirs.get(line), Some(count), "line {line}: `{}`", k.lines().nth(line - 1).unwrap());
    }
}
