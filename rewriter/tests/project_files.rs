//! Whole project files through `hlsinstr sim` (issue 17, item 7): headers reached through other
//! headers, probes that never fired, compiler messages in the user's own terms, csim's
//! unoptimised build, RTL blackbox C models, several solutions in one script, and a kernel
//! header directory that is not one.
//!
//! Needs g++ and the Xilinx C-simulation headers, like tests/sim.rs; never skips.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

mod common;
use common::{sim_in, Run};

fn sim(dir: &Path, args: &[&str]) -> Run {
    sim_in(dir, args)
}

/// `sim` with a JSON report that must succeed: the report, and the run for its messages.
fn sim_json(dir: &Path, args: &[&str]) -> (Value, Run) {
    let args: Vec<&str> = args.iter().copied().chain(["--format", "json"]).collect();
    let r = sim(dir, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let rep = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", r.stdout));
    (rep, r)
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        let p = t.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    t
}

fn row<'a>(rep: &'a Value, name: &str) -> &'a Value {
    rep["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("no row {name}: {rep}"))
}

/// `work` lives in core.h, a listed source, but the kernel reaches it only through wrap.h,
/// which is not listed: `#include "core.h"` in wrap.h looks beside wrap.h first, so unless the
/// copy of the tree holds wrap.h too, the original core.h (no probes) is compiled.
const CORE_H: &str =
    "#pragma once\ninline int work(int n) {\n  int s = 0;\nacc:\n  for (int i = 0; i < n; i++) s += i;\n  \
                      return s;\n}\n";

#[test]
fn a_header_reached_through_an_unlisted_header_is_probed_and_the_first_solution_is_read() {
    let t = tree(&[
        ("src/k.cpp", "#include \"wrap/wrap.h\"\nint top(int n) { return work(n) + work(1); }\n"),
        ("src/wrap/wrap.h", "#pragma once\n#include \"../core/core.h\"\n"),
        ("src/core/core.h", CORE_H),
        ("tb/tb.cpp", "#include <cstdio>\n#include \"../src/wrap/wrap.h\"\nint top(int);\nint main() { int r = top(5); std::printf(\"r=%d\\n\", r); return r != 10; }\n"),
        (
            "run_hls.tcl",
            "open_project p\nset_top top\nadd_files src/k.cpp\nadd_files src/core/core.h\nadd_files -tb tb/tb.cpp\n\
             open_solution fast\ncreate_clock -period 4\nopen_solution slow\ncreate_clock -period 8\n",
        ),
    ]);
    let (rep, r) = sim_json(t.path(), &["run_hls.tcl", "--no-csynth"]);
    // Two calls of work, 5 + 1 iterations of its loop: the probes of the copy ran.
    assert_eq!(row(&rep, "work")["runs"], 2, "{rep}");
    assert_eq!(row(&rep, "acc")["trips"], 6, "{rep}");
    assert!(!r.stderr.contains("never ran"), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "the script opens 2 solutions; `fast` is read (the others: slow; choose one with --solution NAME)"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(rep["clock_ns"]["value"], 4.0, "the first solution's clock: {}", rep["clock_ns"]);
    let (rep, _) = sim_json(t.path(), &["run_hls.tcl", "--no-csynth", "--solution", "slow"]);
    assert_eq!(rep["clock_ns"]["value"], 8.0, "{}", rep["clock_ns"]);
    let r = sim(t.path(), &["run_hls.tcl", "--solution", "medium"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--solution medium: the script opens no solution of that name (it opens: fast, slow)"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_loop_that_never_ran_while_its_function_did_is_a_warning() {
    let t = tree(&[
        ("k.cpp", "int top(int n) {\n  int s = 0;\n  if (n < 0) {\n  neg:\n    for (int i = 0; i < -n; i++) s -= i;\n  }\n  return s;\n}\n"),
        ("tb.cpp", "int top(int);\nint main() { return top(3); }\n"),
    ]);
    let r = sim(t.path(), &["--top", "top", "--src", "k.cpp", "--tb", "tb.cpp", "--no-csynth"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("warning: k.cpp:5: loop neg in top never ran although function top ran 1 time"),
        "{}",
        r.stderr
    );
}

#[test]
fn compiler_messages_show_the_users_line_column_and_text() {
    // The error is on a line the rewrite puts a loop probe on.
    let t = tree(&[
        ("k.cpp", "// kernel\nint top(int n) {\n  int s = 0;\nsum:\n  for (int i = 0; i < n; i++) s += undeclared_thing;\n  return s;\n}\n"),
        ("tb.cpp", "int top(int);\nint main() { return top(3); }\n"),
    ]);
    let r = sim(t.path(), &["--top", "top", "--src", "k.cpp", "--tb", "tb.cpp", "--no-csynth"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let k = t.path().canonicalize().unwrap().join("k.cpp");
    let col = "  for (int i = 0; i < n; i++) s += ".len() + 1;
    let at = format!("{}:5:{col}: error:", k.display());
    assert!(r.stderr.contains(&at), "expected {at} in:\n{}", r.stderr);
    assert!(r.stderr.contains("    5 |   for (int i = 0; i < n; i++) s += undeclared_thing;\n"), "{}", r.stderr);
    let caret = format!("      | {}^", " ".repeat(col - 1));
    assert!(r.stderr.contains(&caret), "expected the caret under the name:\n{}", r.stderr);
    assert!(!r.stderr.contains("HLSINSTR"), "no instrumented text shown:\n{}", r.stderr);
    assert!(!r.stderr.contains("/src/k.cpp"), "no path of the copy:\n{}", r.stderr);
}

/// `report` falls off its end when `err` is 0: undefined behaviour that g++ -O0 survives and
/// -O2 turns into a crash (it assumes the path is never taken).
const UB_TB: &str = "#include <cstdio>\nint top(int);\nstatic int errors = 0;\nstatic int report(int err) { errors += err; \
                     if (err) return 1; }\nint main() { int r = 0; for (int i = 0; i < 3; i++) { errors += top(i) != i; \
                     r += report(0); } std::printf(\"errors %d\\n\", errors); return errors; }\n";

#[test]
fn the_simulation_builds_like_csim_unoptimised_unless_the_project_says_o() {
    let cfg = "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\n";
    let t = tree(&[
        ("k.cpp", "int top(int x) { return x; }\n"),
        ("tb.cpp", UB_TB),
        ("hls_config.cfg", cfg),
        ("opt/hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=../k.cpp\ntb.file=../tb.cpp\ncsim.O=true\n"),
    ]);
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth"]);
    assert_eq!(r.code, 0, "runs at -O0 -g as in Vitis: {}", r.stderr);
    let r = sim(t.path(), &["opt/hls_config.cfg", "--no-csynth", "--timeout", "20"]);
    assert_eq!(r.code, 1, "-O2 when asked, and this testbench does not survive it: {}", r.stderr);
    assert!(r.stderr.contains("the testbench"), "{}", r.stderr);
}

#[test]
fn a_blackbox_c_model_is_compiled_into_the_simulation() {
    let json = r#"{ "c_function_name": "mac", "rtl_top_module_name": "mac",
        "c_files": [{ "c_file": "model/mac.cpp", "cflag": "-DSCALE=3" }], "rtl_files": ["mac.v"] }"#;
    let t = tree(&[
        ("k.cpp", "int mac(int a, int b);\nint top(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s = mac(s, i);\n  return s;\n}\n"),
        ("bb/model/mac.cpp", "int mac(int a, int b) { return a + SCALE * b; }\n"),
        ("bb/mac.json", json),
        ("tb.cpp", "int top(int);\nint main() { return top(4) != 18; }\n"),
        ("hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\nsyn.blackbox.file=bb/mac.json\ntb.file=tb.cpp\n"),
    ]);
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::write(t.path().join("bb/mac.json"), json.replace("model/mac.cpp", "model/gone.cpp")).unwrap();
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("the blackbox `mac` names the C model"), "{}", r.stderr);
}

/// Vivado HLS 2017.2's `fibonacci` (a public design) adds its `main.c` both as a source and
/// with `-tb`; csim compiles it once. Compiled twice, `main` was defined twice and the run did
/// not link. The top's file is listed both ways too, so its loop must still be probed.
#[test]
fn a_file_added_both_as_a_source_and_as_testbench_is_compiled_once() {
    let t = tree(&[
        ("src/fib.c", "int fib(int a, int b) {\n  int i;\n  for (i = 0; i < 10; i++) { int c = a + b; a = b; b = c; }\n  return b;\n}\n"),
        ("src/main.c", "#include <stdio.h>\nint fib(int a, int b);\nint main(void) { printf(\"%d\\n\", fib(1, 1)); return 0; }\n"),
        (
            "p/solution1/script.tcl",
            "open_project p\nset_top fib\nadd_files src/main.c\nadd_files src/fib.c\nadd_files -tb src/main.c\n\
             add_files -tb src/fib.c\nopen_solution solution1\ncreate_clock -period 10\n",
        ),
    ]);
    let (rep, _) = sim_json(t.path(), &["p/solution1/script.tcl", "--no-csynth"]);
    assert_eq!(row(&rep, "fib")["runs"], 1, "{rep}");
}

#[test]
fn an_hls_include_without_ap_int_h_is_an_error_not_a_fallback() {
    let t = tree(&[("inc/hls_stream.h", "")]);
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["sim", "--top", "t", "--hls-include"])
        .arg(t.path().join("inc"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("has no ap_int.h"), "{err}");
}

/// `tally` is a helper in a header the project does not list, found through `syn.cflags=-Iinc`
/// from two sources. A guard and `#pragma once` keep it one definition per unit.
const UTIL_H: &str = "#ifndef UTIL_H\n#define UTIL_H\n#include \"once.h\"\nstatic int tally(const int *v, int n) {\n  \
                      int s = 0;\ncount:\n  for (int i = 0; i < n; i++) s += twice(v[i]);\n  return s;\n}\n#endif\n";
const ONCE_H: &str = "#pragma once\nstatic inline int twice(int x) { return 2 * x; }\n";

#[test]
fn helpers_in_project_headers_are_probed_once_and_the_testbenchs_own_calls_do_not_count() {
    let t = tree(&[
        ("hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=src/a.cpp\nsyn.file=src/b.cpp\nsyn.cflags=-Iinc\ntb.file=tb.cpp\ntb.cflags=-Iinc\n"),
        ("inc/util.h", UTIL_H),
        ("inc/once.h", ONCE_H),
        ("src/a.cpp", "#include <util.h>\n#include \"util.h\"\nint half(const int *v, int n);\nint top(const int *v, int n) { return tally(v, n) + half(v, n); }\n"),
        ("src/b.cpp", "#include <util.h>\nint half(const int *v, int n) { return tally(v, n / 2); }\n"),
        ("tb.cpp", "#include <util.h>\nint top(const int *v, int n);\nint main() { int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n  \
                   int e = 0; for (int n = 4; n <= 8; n += 4) e += top(v, n) != tally(v, n) + tally(v, n / 2);\n  return e; }\n"),
    ]);
    let keep = t.path().join("work");
    let (rep, _) = sim_json(t.path(), &["hls_config.cfg", "--no-csynth", "--keep", keep.to_str().unwrap()]);
    // Two calls of the top (n = 4, 8): tally from the top (4 + 8 trips) and from half (2 + 4).
    let rows: Vec<&Value> = rep["rows"].as_array().unwrap().iter().filter(|r| r["name"] == "count").collect();
    let mut trips: Vec<u64> = rows.iter().map(|r| r["trips"].as_u64().unwrap()).collect();
    trips.sort();
    assert_eq!(trips, [6, 12], "{rep}");
    assert_eq!(
        rep["estimate"]["per_call"].as_array().unwrap().len(),
        2,
        "the testbench's tally calls are no calls of the top"
    );
    let warned = rep["warnings"].as_array().unwrap().iter().any(|w| {
        w.as_str().is_some_and(|w| w.starts_with("4 invocation(s) of tally ran outside the calls of the top top"))
    });
    assert!(warned, "{}", rep["warnings"]);
    // One manifest file per header however many units include it; the copies are instrumented at
    // the same relative places; the user's headers are as they were.
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(keep.join("hlsinstr-manifest.json")).unwrap()).unwrap();
    let paths: Vec<&str> = manifest["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert_eq!(paths.iter().filter(|p| p.ends_with("util.h")).count(), 1, "{paths:?}");
    assert!(paths.contains(&"__parent__/inc/util.h"), "{paths:?}");
    let copy = std::fs::read_to_string(keep.join("src/inc/util.h")).unwrap();
    assert!(copy.contains("HLSINSTR_LOOP_BEGIN"), "{copy}");
    assert_eq!(std::fs::read_to_string(t.path().join("inc/util.h")).unwrap(), UTIL_H);
    assert_eq!(std::fs::read_to_string(t.path().join("inc/once.h")).unwrap(), ONCE_H);
}

#[test]
fn a_header_that_cannot_be_rewritten_is_copied_as_it_is_with_a_warning_naming_it() {
    // A Latin-1 byte in a comment: not UTF-8, which the rewrite refuses.
    let t = tree(&[
        ("k.cpp", "#include \"legacy.h\"\nint top(int n) { return legacy(n); }\n"),
        ("tb.cpp", "int top(int);\nint main() { return top(3) != 3; }\n"),
    ]);
    let header =
        b"// caf\xe9\nstatic int legacy(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s++;\n  return s;\n}\n";
    std::fs::write(t.path().join("legacy.h"), header).unwrap();
    let r = sim(t.path(), &["--top", "top", "--src", "k.cpp", "--tb", "tb.cpp", "--no-csynth", "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let h = t.path().canonicalize().unwrap().join("legacy.h");
    let said = r.stderr.lines().any(|l| {
        l.starts_with("hlsinstr sim: warning: ")
            && l.contains(&h.display().to_string())
            && l.contains("UTF-8")
            && l.contains("copied without probes")
    });
    assert!(said, "{}", r.stderr);
    let rep: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(rep["rows"].as_array().unwrap().iter().all(|r| r["name"] != "legacy"), "{rep}");
    assert_eq!(std::fs::read(t.path().join("legacy.h")).unwrap(), header);
}

#[test]
fn a_c_kernels_header_instrumented_for_it_still_compiles_inside_a_testbenchs_extern_c() {
    let t = tree(&[
        ("k.h", "#ifndef K_H\n#define K_H\nstatic int tally(const int *v, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += v[i];\n  return s;\n}\nint top(const int *v, int n);\n#endif\n"),
        ("k.c", "#include \"k.h\"\nint top(const int *v, int n) { return tally(v, n); }\n"),
        ("tb.cpp", "extern \"C\" {\n#include \"k.h\"\n}\nint main() { int v[4] = {1, 2, 3, 4}; return top(v, 4) != 10; }\n"),
    ]);
    let (rep, _) = sim_json(t.path(), &["--top", "top", "--src", "k.c", "--tb", "tb.cpp", "--no-csynth"]);
    assert_eq!(row(&rep, "tally")["runs"], 1, "{rep}");
}

/// Issue 16 (reach): Vivado HLS' generated `script.tcl` lists no testbench when it was never
/// added in the GUI (iamhosseinali/cmplx_magnitude_cal@9a5c6c7: the kernel in the script, the
/// testbench committed beside it). `--tb` supplies it, with the project's settings kept; the
/// error without it says so; a `--tb` the script also lists is compiled once.
#[test]
fn tb_names_the_testbench_a_script_does_not_list() {
    let t = tree(&[
        ("p/src/k.cpp", "int top(int n) {\n  int s = 0;\nacc:\n  for (int i = 0; i < n; i++) s += i;\n  return s;\n}\n"),
        ("p/src/tb.cpp", "int top(int);\nint main() { return top(4) != 6; }\n"),
        (
            "p/solution1/script.tcl",
            "open_project p\nset_top top\nadd_files p/src/k.cpp\nopen_solution \"solution1\"\ncreate_clock -period 4 -name default\n",
        ),
        (
            "q/solution1/script.tcl",
            "open_project q\nset_top top\nadd_files p/src/k.cpp\nadd_files -tb p/src/tb.cpp\nopen_solution \"solution1\"\n",
        ),
    ]);
    let r = sim(t.path(), &["p/solution1/script.tcl", "--no-csynth"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("lists no testbench source") && r.stderr.contains("sim --tb <path>"), "{}", r.stderr);
    let (rep, _) = sim_json(t.path(), &["p/solution1/script.tcl", "--no-csynth", "--tb", "p/src/tb.cpp"]);
    assert_eq!(row(&rep, "acc")["trips"], 4, "{rep}");
    assert_eq!(rep["clock_ns"]["value"], 4.0, "the project's clock: {rep}");
    let r = sim(t.path(), &["q/solution1/script.tcl", "--no-csynth", "--tb", "p/src/tb.cpp", "--format", "json"]);
    assert_eq!(r.code, 0, "listed twice, compiled once: {}", r.stderr);
}

/// Issue 16 (reach): an RTL blackbox descriptor left out of the commit (Vitis' introductory
/// example `rtl_as_blackbox` lists `rtl_model.json` but commits only `rtl_model.cpp` and `.v`):
/// the error says what it is for and how to go on; `--tb <model.cpp>` runs without it.
#[test]
fn a_missing_blackbox_descriptor_is_explained_and_tb_supplies_its_model() {
    let t = tree(&[
        ("k.cpp", "int model(int a);\nint top(int a) { return model(a) + 1; }\n"),
        ("model.cpp", "int model(int a) { return 2 * a; }\n"),
        ("tb.cpp", "int top(int);\nint main() { return top(3) != 7; }\n"),
        ("hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\nsyn.blackbox.file=model.json\n"),
    ]);
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stderr.contains("RTL blackbox descriptor") && r.stderr.contains("sim --tb <model.cpp>"), "{}", r.stderr);
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth", "--tb", "model.cpp"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// The kernel of the csim-layout tests: `top(n)` sums 0..n.
const SUM_K: &str = "int top(int n) {\n  int s = 0;\nacc:\n  for (int i = 0; i < n; i++) s += i;\n  return s;\n}\n";

/// Issue 16/18 (real inputs): Vitis runs the testbench in `<project>/<solution>/csim/build` with
/// the `add_files -tb` files copied there (UG1399, "Output of C Simulation"). The testbench
/// finds a data file by bare name (listed from a subdirectory), a listed directory, a file
/// through `../../../` (the project directory) and `../../../../` (the script's), an `-argv`
/// path, and reads back what it wrote; what it writes, even above csim/build, stays in the work
/// directory and the user's tree is unchanged.
#[test]
fn the_testbench_finds_its_files_where_vitis_csim_puts_them_and_writes_only_to_the_work_dir() {
    let tb = r#"#include <cstdio>
#include <cstdlib>
int top(int);
static int read_int(const char *path) {
  FILE *f = std::fopen(path, "r");
  if (!f) { std::printf("cannot open %s\n", path); std::exit(2); }
  int v = -1;
  if (std::fscanf(f, "%d", &v) != 1) { std::printf("cannot read %s\n", path); std::exit(3); }
  std::fclose(f);
  return v;
}
int main(int argc, char **argv) {
  if (argc != 2) { std::printf("argc %d\n", argc); return 4; }
  int n = read_int("input.dat");                 // add_files -tb data/input.dat
  int golden = read_int("vectors/a/gold.dat");   // add_files -tb vectors
  int m = read_int("../../../more.dat");         // the project directory
  int w = read_int("../../../../shared/w.txt");  // the script's directory
  int a = read_int(argv[1]);                     // csim_design -argv
  FILE *o = std::fopen("out.dat", "w");
  std::fprintf(o, "%d\n", top(n));
  std::fclose(o);
  FILE *up = std::fopen("../../../../result.txt", "w");
  if (!up) { std::printf("cannot write ../../../../result.txt\n"); return 5; }
  std::fprintf(up, "%d\n", top(m));
  std::fclose(up);
  int back = read_int("out.dat");
  std::printf("n=%d golden=%d m=%d w=%d a=%d back=%d\n", n, golden, m, w, a, back);
  return !(back == golden && top(m) == w && a == 7);
}
"#;
    let t = tree(&[
        ("k.cpp", SUM_K),
        ("tb.cpp", tb),
        ("data/input.dat", "5\n"),
        ("vectors/a/gold.dat", "10\n"),
        ("proj/more.dat", "4\n"),
        ("shared/w.txt", "6\n"),
        ("args/a.txt", "7\n"),
        (
            "run_hls.tcl",
            "open_project proj\nset_top top\nadd_files k.cpp\nadd_files -tb tb.cpp\nadd_files -tb data/input.dat\n\
             add_files -tb vectors\nopen_solution solution1\ncsim_design -argv \"../../../../args/a.txt\"\n",
        ),
    ]);
    let before = snapshot(t.path());
    let keep = t.path().join("keep");
    let (rep, _) = sim_json(t.path(), &["run_hls.tcl", "--no-csynth", "--keep", "keep"]);
    assert_eq!(row(&rep, "acc")["trips"], 5 + 4 + 4, "top(n), top(m) twice: {rep}");
    let build = keep.join("run/proj/solution1/csim/build");
    assert_eq!(std::fs::read_to_string(build.join("out.dat")).unwrap(), "10\n");
    assert_eq!(std::fs::read_to_string(keep.join("run/result.txt")).unwrap(), "6\n", "`../../../../result.txt`");
    let printed = std::fs::read_to_string(keep.join("run/csim.stdout")).unwrap();
    assert!(printed.contains("n=5 golden=10 m=4 w=6 a=7 back=10"), "{printed}");
    std::fs::remove_dir_all(&keep).unwrap();
    assert_eq!(snapshot(t.path()), before, "nothing written in the user's tree");
}

/// Every file below `dir` with its bytes.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<std::path::PathBuf, Vec<u8>> {
    common::files_below(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap())).collect()
}

/// A Vitis unified component as the IDE lays it out: `<workspace>/<comp>/hls_config.cfg`,
/// csim run in `<comp>/<comp>/hls/csim/build`. A public testbench (aimpert/FPGA_FIR_Filter)
/// joins names to `ROOT_DIR = "../../../../../"` (the workspace) in a header; the file so named
/// is found, and a `tb.file=` directory and `csim.argv` are provided as csim provides them.
#[test]
fn a_unified_components_testbench_finds_files_joined_to_a_prefix_that_climbs_out_of_csim() {
    let header =
        "#pragma once\n#include <string>\nconst std::string ROOT_DIR = \"../../../../../\";\nint top(int n);\n";
    let tb = r#"#include <cstdio>
#include "root.h"
int main(int argc, char **argv) {
  std::string in = ROOT_DIR + "input.dat";
  FILE *f = std::fopen(in.c_str(), "r");
  FILE *g = std::fopen("vec/gold.dat", "r");
  FILE *h = argc > 1 ? std::fopen(argv[1], "r") : nullptr;
  if (!f || !g || !h) { std::printf("missing %d %d %d\n", !f, !g, !h); return 2; }
  int n, want, twice;
  std::fscanf(f, "%d", &n); std::fscanf(g, "%d", &want); std::fscanf(h, "%d", &twice);
  return !(top(n) == want && 2 * want == twice);
}
"#;
    let t = tree(&[
        ("input.dat", "5\n"),
        ("src/k.cpp", SUM_K),
        ("src/root.h", header),
        ("src/tb.cpp", tb),
        ("comp/vec/gold.dat", "10\n"),
        ("comp/twice.txt", "20\n"),
        (
            "comp/hls_config.cfg",
            "[hls]\nsyn.top=top\nsyn.file=../src/k.cpp\ntb.file=../src/tb.cpp\ntb.file=vec\ncsim.argv=../../../../twice.txt\n",
        ),
    ]);
    let (rep, _) = sim_json(t.path(), &["comp/hls_config.cfg", "--no-csynth"]);
    assert_eq!(row(&rep, "acc")["trips"], 5, "{rep}");
}

/// A testbench that fails for want of a file gets, after its output, what it named that the
/// copy does not hold: a path climbing out of csim/build to nothing (with where that is), a name
/// joined to a climbing prefix, and a bare name the project does not list while a file of that
/// name is in the project; not a file it wrote itself.
#[test]
fn a_testbench_failing_for_a_file_is_told_which_path_names_nothing_and_what_to_do() {
    let tb = r#"#include <cstdio>
#include <string>
int top(int);
const std::string ROOT = "../../../../";
int main() {
  std::FILE *w = std::fopen((ROOT + "written.dat").c_str(), "w");
  if (w) std::fclose(w);
  FILE *g = std::fopen((ROOT + "gold.dat").c_str(), "r");
  FILE *a = std::fopen("../../../gone.dat", "r");
  FILE *b = std::fopen("input.dat", "r");
  if (!a || !b || !g) { std::printf("cannot open\n"); return 2; }
  return top(1);
}
"#;
    let t = tree(&[
        ("k.cpp", SUM_K),
        ("tb.cpp", tb),
        ("data/input.dat", "5\n"),
        ("run_hls.tcl", "open_project proj\nset_top top\nadd_files k.cpp\nadd_files -tb tb.cpp\nopen_solution s\n"),
    ]);
    let r = sim(t.path(), &["run_hls.tcl", "--no-csynth"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let at = |p: &str| t.path().canonicalize().unwrap().join(p).display().to_string();
    assert!(
        r.stderr.contains("the testbench names `../../../gone.dat`")
            && r.stderr.contains(&format!("that is {}, which does not exist", at("proj/gone.dat"))),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("the testbench names `../../../../` + `gold.dat`")
            && r.stderr.contains(&format!("that is {}, which does not exist", at("gold.dat"))),
        "a name joined to a climbing prefix: {}",
        r.stderr
    );
    assert!(!r.stderr.contains("written.dat"), "what the testbench wrote is there: {}", r.stderr);
    assert!(
        r.stderr.contains("the testbench names `input.dat`, which the project does not add as a testbench file")
            && r.stderr.contains(&format!("`sim --tb {}`", at("data/input.dat"))),
        "{}",
        r.stderr
    );
}

/// A `<top>_cosim.rpt` of one Verilog run whose every call took `latency` cycles.
fn cosim_summary(latency: u64) -> String {
    let border = "+----------+----------+------+------+------+------+------+------+-----------+\n";
    format!(
        "Report time       : (hand-written for an hlsinstr test).\n\n{border}\
         |          |          |   Latency(Clock Cycles)   |  Interval(Clock Cycles)   | Total Execution Time |\n\
         +   RTL    +  Status  +------+------+------+------+------+------+    (Clock Cycles)    +\n\
         |          |          |  min |  avg |  max |  min |  avg |  max |           |\n{border}\
         |   Verilog|      Pass|{latency:>6}|{latency:>6}|{latency:>6}|    NA|    NA|    NA|{latency:>11}|\n{border}"
    )
}

/// Issue 16 (co-sim in the tool): Vitis' co-simulation runs the testbench with `cosim.argv`
/// (`cosim_design -argv`), not the C simulation's arguments; a run compared with a co-sim report
/// takes those, and says so. Here the C simulation's arguments make nine calls and co-sim's
/// (none, then `small`) one and two.
#[test]
fn a_run_compared_with_cosim_takes_cosims_arguments_not_the_c_simulations() {
    let tb = r#"#include <cstring>
int top(int);
int main(int argc, char **argv) {
  int calls = argc == 1 ? 1 : std::strcmp(argv[1], "small") == 0 ? 2 : 9;
  int s = 0;
  for (int c = 0; c < calls; c++) s += top(5);
  return s != calls * 10;
}
"#;
    let cosim = cosim_summary(18);
    let t = tree(&[
        ("k.cpp", SUM_K),
        ("tb.cpp", tb),
        ("hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\ncsim.argv=full\n"),
        (
            "run_hls.tcl",
            "open_project proj\nset_top top\nadd_files k.cpp\nadd_files -tb tb.cpp\nopen_solution solution1\n\
             csim_design -argv full\ncsynth_design\ncosim_design -rtl verilog -argv small\n",
        ),
        ("top_cosim.rpt", cosim.as_str()),
    ]);
    for (project, calls, argv) in [("hls_config.cfg", 1, "(none)"), ("run_hls.tcl", 2, "(`small`)")] {
        let (rep, run) = sim_json(t.path(), &[project, "--no-csynth", "--cosim", "top_cosim.rpt"]);
        let per_call = rep["estimate"]["per_call"].as_array().unwrap_or_else(|| panic!("{rep}"));
        assert_eq!(per_call.len(), calls, "{project}: {rep}");
        assert_eq!(row(&rep, "acc")["trips"], 5 * calls, "{project}");
        assert!(
            run.stderr
                .contains(&format!("runs with co-simulation's arguments {argv}, not the C simulation's (`full`)")),
            "{project}: {}",
            run.stderr
        );
        // Without --cosim the C simulation's arguments stand.
        let (rep, _) = sim_json(t.path(), &[project, "--no-csynth"]);
        assert_eq!(row(&rep, "acc")["trips"], 5 * 9, "{project}");
    }
}

/// A project that runs co-simulation with random stalls (`cosim.random_stall=1`, `cosim_design
/// -random_stall`: a public 2025.2 CNN ran 3.1 times its schedule so) gets the comparison with
/// a warning and a note saying why co-simulation runs above the estimate; without it, neither.
#[test]
fn a_cosim_with_random_stalls_is_compared_with_a_warning() {
    let cosim = cosim_summary(40);
    let tb = "int top(int);\nint main() { return top(5) == 10 ? 0 : 1; }\n";
    let t = tree(&[
        ("k.cpp", SUM_K),
        ("tb.cpp", tb),
        ("stalls.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\ncosim.random_stall=1\n"),
        ("plain.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\ntb.file=tb.cpp\n"),
        (
            "run_hls.tcl",
            "open_project proj\nset_top top\nadd_files k.cpp\nadd_files -tb tb.cpp\nopen_solution solution1\n\
             csynth_design\ncosim_design -rtl verilog -random_stall\n",
        ),
        ("top_cosim.rpt", cosim.as_str()),
    ]);
    for (project, stalls) in [("stalls.cfg", true), ("run_hls.tcl", true), ("plain.cfg", false)] {
        let (rep, run) = sim_json(t.path(), &[project, "--no-csynth", "--cosim", "top_cosim.rpt"]);
        let note = rep["estimate"]["cosim"]["note"].as_str().unwrap_or("");
        assert_eq!(note.contains("random stalls"), stalls, "{project}: {rep}");
        assert_eq!(run.stderr.contains("random stalls"), stalls, "{project}: {}", run.stderr);
    }
}

/// A kernel defined inside `extern "C"` and declared for the testbench as a C++ function links
/// in Vitis' co-simulation wrapper but not in a C simulation: the link error says which file
/// defines it so and what to do (a public 2023.1 `mac`).
#[test]
fn a_kernel_defined_extern_c_for_a_cpp_testbench_is_explained() {
    let t = tree(&[
        ("k.cpp", "extern \"C\" {\nint top(int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += i;\n  return s;\n}\n}\n"),
        ("k.h", "int top(int n);\n"),
        ("tb.cpp", "#include \"k.h\"\nint main() { return top(5) == 10 ? 0 : 1; }\n"),
        ("hls_config.cfg", "[hls]\nsyn.top=top\nsyn.file=k.cpp\nsyn.file=k.h\ntb.file=tb.cpp\n"),
    ]);
    let r = sim(t.path(), &["hls_config.cfg", "--no-csynth"]);
    assert_ne!(r.code, 0);
    assert!(r.stderr.contains("does not link"), "{}", r.stderr);
    assert!(r.stderr.contains("k.cpp defines `top` inside `extern \"C\"`"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
}
