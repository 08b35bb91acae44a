//! The `hlsinstr` binary end to end on small temp trees: exit codes, layouts, refusals.

use std::path::Path;
use std::process::{Command, Output};

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

/// A temp tree from `(relative path, contents)` pairs.
fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

const KERNEL: &str = "int k(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += a[i];\n  return s;\n}\n";
const HEADER: &str = "#pragma once\ninline int twice(int x) { return 2 * x; }\n";
const SKIPPY: &str = "#define EACH(i) for (int i = 0; i < 4; i++)\nvoid m() {\n  EACH(i) {\n    g(i);\n  }\n}\n";

#[test]
fn rewrite_keeps_layout_writes_manifest_and_leaves_inputs_alone() {
    let t = tree(&[("src/k.cpp", KERNEL), ("src/inc/util.h", HEADER), ("src/notes.txt", "not code")]);
    let o = hlsinstr(&["rewrite", "src", "--probes", "modules,loops", "--out", "out"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = t.path().join("out");
    assert!(std::fs::read_to_string(out.join("k.cpp")).unwrap().contains("HLSINSTR_LOOP_ITER"));
    assert!(std::fs::read_to_string(out.join("inc/util.h")).unwrap().contains("HLSINSTR_FUNC_BEGIN"));
    assert!(!out.join("notes.txt").exists(), "only C/C++ files are written");
    assert_eq!(std::fs::read_to_string(t.path().join("src/k.cpp")).unwrap(), KERNEL, "input untouched");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    assert_eq!(m["version"], 1);
    assert_eq!(m["probes"].as_array().unwrap().len(), 3, "k, its loop, twice");
    let lp = m["probes"].as_array().unwrap().iter().find(|p| p["kind"] == "loop").unwrap();
    assert_eq!(lp["name"], "VITIS_LOOP_3_1");
    assert_eq!((lp["file"].as_str(), lp["line"].as_u64(), lp["column"].as_u64()), (Some("k.cpp"), Some(3), Some(3)));
    assert_eq!(m["files"][1]["line_map"][0], serde_json::json!([2, 1, 5]));
    assert!(stderr(&o).contains("3 probes in 2 of 2 files"), "{}", stderr(&o));
}

#[test]
fn strip_restores_exact_bytes() {
    let t = tree(&[("src/k.cpp", KERNEL), ("src/inc/util.h", HEADER)]);
    assert!(hlsinstr(&["rewrite", "src", "--probes", "modules,loops,timestamps,seq", "--out", "i"], t.path())
        .status
        .success());
    let o = hlsinstr(&["strip", "i", "--out", "r"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stderr(&o).contains("differs"), "{}", stderr(&o));
    assert_eq!(std::fs::read(t.path().join("r/k.cpp")).unwrap(), KERNEL.as_bytes());
    assert_eq!(std::fs::read(t.path().join("r/inc/util.h")).unwrap(), HEADER.as_bytes());
}

#[test]
fn in_place_rewrite_and_strip() {
    let t = tree(&[("k.cpp", KERNEL)]);
    let o = hlsinstr(&["rewrite", "k.cpp", "--in-place"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(t.path().join("k.cpp")).unwrap().contains("HLSINSTR_FUNC_BEGIN"));
    assert!(t.path().join("hlsinstr-manifest.json").exists());
    let o = hlsinstr(&["strip", "k.cpp", "--in-place"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(t.path().join("k.cpp")).unwrap(), KERNEL);
}

#[test]
fn rewriting_instrumented_code_is_refused() {
    let t = tree(&[("k.cpp", KERNEL)]);
    assert!(hlsinstr(&["rewrite", "k.cpp", "--out", "once"], t.path()).status.success());
    let o = hlsinstr(&["rewrite", "once", "--out", "twice"], t.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("once/k.cpp:1:") && stderr(&o).contains("already instrumented"), "{}", stderr(&o));
    assert!(stderr(&o).contains("hlsinstr strip"), "the message says what to do: {}", stderr(&o));
    assert!(!t.path().join("twice/k.cpp").exists());
}

#[test]
fn output_over_input_is_refused() {
    let t = tree(&[("k.cpp", KERNEL)]);
    let o = hlsinstr(&["rewrite", ".", "--out", "."], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds the input ./k.cpp: outputs would overwrite the inputs"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(t.path().join("k.cpp")).unwrap(), KERNEL);
    assert!(!t.path().join("hlsinstr-manifest.json").exists(), "no manifest among the sources");
}

#[test]
fn default_output_below_the_input_is_not_walked_again() {
    let t = tree(&[("k.cpp", KERNEL)]);
    assert!(hlsinstr(&["rewrite", "."], t.path()).status.success());
    let o = hlsinstr(&["rewrite", "."], t.path());
    assert_eq!(o.status.code(), Some(0), "second run must not read hlsinstr-out/: {}", stderr(&o));
}

#[test]
fn skips_are_reported_with_positions_and_exit_3_or_1_with_strict() {
    let t = tree(&[("m.cpp", SKIPPY), ("k.cpp", KERNEL)]);
    let o = hlsinstr(&["rewrite", ".", "--out", "o"], t.path());
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("m.cpp:2:6: skipped m: a function definition nested in the body"), "{}", stderr(&o));
    assert!(t.path().join("o/k.cpp").exists(), "the run goes on");
    assert_eq!(std::fs::read_to_string(t.path().join("o/m.cpp")).unwrap(), SKIPPY, "skipped code untouched");
    let o = hlsinstr(&["rewrite", ".", "--out", "strict", "--strict"], t.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(!t.path().join("strict").exists(), "--strict writes nothing");
}

#[test]
fn diff_shows_only_instrumentation_and_writes_nothing() {
    let t = tree(&[("k.cpp", KERNEL)]);
    let o = hlsinstr(&["diff", "k.cpp", "--probes", "modules,loops", "--color", "never"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let d = stdout(&o);
    assert!(d.starts_with("--- a/k.cpp\n+++ b/k.cpp\n"), "{d}");
    assert!(d.contains("+#include \"hlsinstr/probe.h\" // hlsinstr\n"));
    assert!(d.contains("-  for (int i = 0; i < n; i++) s += a[i];\n"));
    assert!(!d.contains('\x1b'));
    assert!(!t.path().join("hlsinstr-out").exists());
    let o = hlsinstr(&["diff", "k.cpp", "--stat"], t.path());
    assert_eq!(stdout(&o), "k.cpp | +3 -2\n1 files changed, 3 insertions(+), 2 deletions(-)\n");
    let o = hlsinstr(&["diff", "k.cpp", "--color", "always"], t.path());
    assert!(stdout(&o).contains("\x1b[32m+"));
}

#[test]
fn usage_errors_exit_2_and_say_what_to_do() {
    let t = tree(&[("k.cpp", KERNEL)]);
    let o = hlsinstr(&["rewrite", "k.cpp", "--top", "nope"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("defined: k"), "{}", stderr(&o));
    let o = hlsinstr(&["rewrite", "k.cpp", "--probes", "modules,bogus"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("choose from modules, loops, timestamps, seq"), "{}", stderr(&o));
    let o = hlsinstr(&["rewrite"], t.path());
    assert_eq!(o.status.code(), Some(2));
    let o = hlsinstr(&["rewrite", "missing.cpp"], t.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("missing.cpp"), "{}", stderr(&o));
}

#[test]
fn dump_tree_prints_the_syntax_tree() {
    let t = tree(&[("k.cpp", KERNEL)]);
    let o = hlsinstr(&["rewrite", "k.cpp", "--dump-tree"], t.path());
    assert!(o.status.success());
    assert!(stdout(&o).contains("for_statement [3:3]"), "{}", stdout(&o));
    assert!(!t.path().join("hlsinstr-out").exists());
}

#[test]
fn dump_tree_prints_the_c_tree_of_opencl_c() {
    // The tree the rewrite works on: blanked (`__kernel`, `__global` are spaces) and parsed as C,
    // so `new` is a variable and a subscript has C's field `index` (C++: `indices`).
    let t = tree(&[("k.cl", "__kernel void k(__global int *a) {\n  int new = a[0];\n}\n")]);
    let o = hlsinstr(&["rewrite", "k.cl", "--dump-tree"], t.path());
    assert!(o.status.success());
    let dump = stdout(&o);
    assert!(dump.contains("function_definition [1:10]"), "{dump}");
    assert!(dump.contains("declarator: identifier [2:7] \"new\""), "{dump}");
    assert!(dump.contains("index: number_literal [2:15] \"0\""), "{dump}");
    assert!(!dump.contains("ERROR") && !dump.contains("indices"), "{dump}");
}

#[test]
fn top_and_only_select_functions() {
    let src = "void leaf() {}\nvoid top() { leaf(); }\nvoid tb() { top(); }\n";
    let t = tree(&[("k.cpp", src)]);
    let o = hlsinstr(&["diff", "k.cpp", "--top", "top", "--color", "never"], t.path());
    let d = stdout(&o);
    assert!(d.contains("+void leaf() {HLSINSTR_FUNC_BEGIN") && d.contains("+void top() {"), "{d}");
    assert!(!d.contains("+void tb()"), "{d}");
    let o = hlsinstr(&["diff", "k.cpp", "--only", "t*", "--stat"], t.path());
    assert_eq!(stdout(&o).lines().next(), Some("k.cpp | +3 -2"));
}

#[test]
fn maxi_ports_follow_calls_across_files_and_need_modules() {
    let top = "void load(const int *src, int *buf, int n);\nvoid top(const int *in, int n) {\n#pragma HLS INTERFACE m_axi port=in bundle=gmem0\n  int buf[8];\n  load(in + 8, buf, n);\n}\n";
    let load = "void load(const int *src, int *buf, int n) {\n  for (int i = 0; i < n; i++) buf[i] = src[i];\n}\n";
    let t = tree(&[("top.cpp", top), ("load.cpp", load)]);
    let o = hlsinstr(&["rewrite", ".", "--probes", "modules,maxi", "--top", "top", "--out", "out"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = std::fs::read_to_string(t.path().join("out/load.cpp")).unwrap();
    assert!(out.contains("buf[i] = src[HLSINSTR_MAXI_R("), "{out}");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join("out/hlsinstr-manifest.json")).unwrap()).unwrap();
    let ports: Vec<&serde_json::Value> =
        m["probes"].as_array().unwrap().iter().filter(|p| p["kind"] == "port").collect();
    let names: Vec<(&str, &str)> =
        ports.iter().map(|p| (p["function"].as_str().unwrap(), p["name"].as_str().unwrap())).collect();
    assert_eq!(names, [("load", "src"), ("top", "in")], "walked in file order; `buf` is no port");
    assert_eq!(ports[0]["port"]["bound_to"], serde_json::json!([{"function": "top", "port": "in", "bundle": "gmem0"}]));

    let o = hlsinstr(&["rewrite", ".", "--probes", "loops,maxi", "--out", "x"], t.path());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("add `modules` to --probes"), "{}", stderr(&o));
}

const CL_KERNEL: &str = "channel int c __attribute__((depth(4)));\n__attribute__((autorun)) __attribute__((max_global_work_dim(0)))\n__kernel void k(__global int *restrict a, int n) {\n  #pragma unroll\n  for (int i = 0; i < n; i++) a[i] = read_channel_intel(c);\n}\n";

#[test]
fn opencl_files_are_walked_rewritten_diffed_stripped_and_refused_twice() {
    let t = tree(&[("src/k.cl", CL_KERNEL), ("src/h.cpp", KERNEL)]);
    let o = hlsinstr(&["diff", "src", "--probes", "modules,loops"], t.path());
    assert!(stdout(&o).contains("+#include \"hlsinstr_probe.cl\" // hlsinstr"), "{}{}", stdout(&o), stderr(&o));
    let o = hlsinstr(&["rewrite", "src", "--probes", "modules,loops", "--out", "i"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = std::fs::read_to_string(t.path().join("i/k.cl")).unwrap();
    assert!(out.contains("HLSINSTR_LOOP_BEGIN(3, P, 0);\n  #pragma unroll\n  for"), "pragma stays on its loop:\n{out}");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join("i/hlsinstr-manifest.json")).unwrap()).unwrap();
    let function = |file: &str| {
        m["probes"].as_array().unwrap().iter().find(|p| p["file"] == file && p["kind"] == "function").unwrap().clone()
    };
    let k = &function("k.cl")["module"]["opencl"];
    assert_eq!((k["kernel"].as_bool(), k["autorun"].as_bool()), (Some(true), Some(true)), "{m}");
    assert!(function("h.cpp")["module"].get("opencl").is_none(), "C++ functions have no OpenCL facts");
    let o = hlsinstr(&["strip", "i", "--out", "r"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(t.path().join("r/k.cl")).unwrap(), CL_KERNEL);
    let o = hlsinstr(&["rewrite", "i/k.cl", "--out", "again"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("already instrumented"), "{}", stderr(&o));
    let o = hlsinstr(&["rewrite", "src", "--target", "vitis", "--top", "k", "--out", "v"], t.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("without it"), "{}", stderr(&o));
}

/// Issue 17 item 9: `rewrite .` in a Vitis project instrumented Vitis' own copies of the sources
/// in the solution folder (5,258 probes in 12 generated files beside the 2 real ones).
#[test]
fn rewrite_of_a_vitis_project_skips_solution_folders_and_ignored_files() {
    let t = tree(&[
        ("k.cpp", KERNEL),
        ("k_tb.cpp", "int k(int *a, int n);\nint main() { int a[2] = {1, 2}; return k(a, 2) == 3 ? 0 : 1; }\n"),
        ("run_hls.tcl", "open_project proj\nset_top k\nadd_files k.cpp\nopen_solution solution1\n"),
        ("proj/hls.app", "<project/>"),
        ("proj/solution1/solution.aps", "<solution/>"),
        ("proj/solution1/sim/wrapc/k.cpp_pre.cpp.tb.cpp", KERNEL),
        ("proj/solution1/.autopilot/db/k.pp.0.cpp", KERNEL),
        ("proj/solution1/csim/build/k_tb.cpp", KERNEL),
        // A solution copied out of its project, without its .aps file.
        ("old/solution2/.autopilot/db/k.pp.0.cpp", KERNEL),
        ("old/solution2/syn/systemc/k.h", HEADER),
        ("gen/made.cpp", KERNEL),
        (".gitignore", "gen/\n"),
    ]);
    let o = hlsinstr(&["rewrite", ".", "--out", "out"], t.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("2 probes in 2 of 2 files"), "only k.cpp and k_tb.cpp are taken: {err}");
    let proj = format!(
        "proj{}: skipped: a Vitis HLS project folder (it holds hls.app); 3 C/C++ files",
        std::path::MAIN_SEPARATOR
    );
    assert!(err.contains(&proj), "{err}");
    assert!(err.contains("solution2") && err.contains("it holds .autopilot") && err.contains("2 C/C++ files"), "{err}");
    assert!(!err.contains("gen"), "an ignored folder is not a vendor folder: {err}");
    assert!(
        t.path().join("out/k.cpp").is_file()
            && !t.path().join("out/proj").exists()
            && !t.path().join("out/gen").exists()
    );
    // A file named on the command line is taken, wherever it is.
    let o = hlsinstr(&["rewrite", "proj/solution1/.autopilot/db/k.pp.0.cpp", "gen/made.cpp", "--out", "o2"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 probes in 2 of 2 files"), "{}", stderr(&o));
}
