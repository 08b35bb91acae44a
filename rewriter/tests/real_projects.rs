//! Code from real projects that used to leave functions untouched or misreport them (issue 17
//! items 3 and 4), each as a minimal repro run through the CLI: the functions are probed, the
//! reachability from `--top` includes what the code really calls, and the output compiles.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::repo;

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

/// Rewrites `k.cpp` holding `src` with `args` added; (exit code, stderr, instrumented text).
fn rewrite(src: &str, args: &[&str]) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cpp"), src).unwrap();
    let mut all = vec!["rewrite", "k.cpp", "--probes", "modules,loops", "--out", "out"];
    all.extend(args);
    let o = hlsinstr(&all, dir.path());
    let out = std::fs::read_to_string(dir.path().join("out/k.cpp")).unwrap_or_default();
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned(), out)
}

/// The body of function `name` in the instrumented text begins with a probe.
fn probed(out: &str, name: &str) -> bool {
    out.lines().any(|l| l.contains(&format!("{name}(")) && l.contains("HLSINSTR_FUNC_BEGIN"))
}

/// The instrumented text compiles as C++14 against hls-lib.
fn compiles(out: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.cpp");
    std::fs::write(&file, out).unwrap();
    let o = Command::new("g++")
        .args(["-std=c++14", "-fsyntax-only", "-Wno-unknown-pragmas", "-I"])
        .arg(repo().join("hls-lib/include"))
        .arg(&file)
        .output()
        .expect("g++ is needed");
    assert!(o.status.success(), "{}\n{out}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_skipped_top_says_why_and_its_callees_are_probed() {
    let src = "void stage(int *a, int n) {\n  for (int i = 0; i < n; i++) a[i]++;\n}\nint other(int x) { return x; }\nvoid top(int *a, int n) {\n  int s = 0\n#ifdef X\n   + 1\n#endif\n  ;\n  stage(a, n + s);\n}\n";
    let (code, stderr, out) = rewrite(src, &["--top", "top"]);
    assert_eq!(code, Some(3), "{stderr}");
    assert!(!stderr.contains("no such function"), "{stderr}");
    assert!(
        stderr.contains("skipped top: `#ifdef X` at 7:1 is inside the statement at 6:3")
            && stderr.contains("it is the --top function: what it calls is probed"),
        "{stderr}"
    );
    assert!(probed(&out, "stage") && !probed(&out, "other"), "{out}");
    compiles(&out);
    // An unknown top is still a usage error, naming the candidates.
    let (code, stderr, _) = rewrite(src, &["--top", "nope"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("defined: other, stage"), "{stderr}");
}

#[test]
fn a_typename_functional_cast_does_not_skip_its_function() {
    let src = "template <class A> struct Box { typedef A T; };\ntemplate <class A>\nA half(A x) {\n  return x * typename Box<A>::T(0.5);\n}\ndouble use(double x) { return half(x); }\n";
    let (code, stderr, out) = rewrite(src, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(out.contains("return HLSINSTR_RETURN(0, P, x * typename Box<A>::T(0.5));"), "{out}");
    compiles(&out);
}

#[test]
fn storage_class_macros_and_hls_thread_local_do_not_skip_their_function() {
    let src = "#define KEEP static\n#ifndef hls_thread_local\n#define hls_thread_local thread_local\n#endif\nKEEP int table[4];\nint acc(int x) {\n  KEEP int buf[16];\n  buf[x & 15] += x;\n  return buf[0] + table[0];\n}\nint count(int x) {\n  hls_thread_local int n = 0;\n  for (int i = 0; i < x; i++) n++;\n  return n;\n}\n";
    let (code, stderr, out) = rewrite(src, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(probed(&out, "acc") && probed(&out, "count"), "{out}");
    assert!(out.contains("HLSINSTR_LEAF_BEGIN"), "{out}"); // a leaf loop (probes.md)
    compiles(&out);
}

#[test]
fn a_pragma_between_an_unbraced_loop_header_and_its_body_stays_in_the_loop() {
    let src = "void fill(int *a, int n) {\n  for (int i = 0; i < n; i++)\n#pragma HLS PIPELINE II=1\n    a[i] = i;\n  while (n > 0)\n#pragma HLS LOOP_TRIPCOUNT max=8\n    n--;\n}\n";
    let (code, stderr, out) = rewrite(src, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    // The braces the probes need open before the pragma: it stays inside the loop body.
    assert!(
        out.contains(
            "i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(1);\n#pragma HLS PIPELINE II=1\n    a[i] = i; }/*hlsinstr*/"
        ),
        "{out}"
    );
    assert!(out.contains("(n > 0) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2);\n#pragma HLS LOOP_TRIPCOUNT"), "{out}");
    compiles(&out);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("k.cpp"), src).unwrap();
    hlsinstr(&["rewrite", "k.cpp", "--probes", "modules,loops", "--out", "out"], dir.path());
    let manifest = std::fs::read_to_string(dir.path().join("out/hlsinstr-manifest.json")).unwrap();
    assert!(manifest.contains("\"pipeline_ii\": 1"), "the pragma is the loop's: {manifest}");
}

/// The same with a comment after the pragma line, the loop itself the unbraced body of an `if`
/// (a Vivado HLS 2019.1 design: `if (...) for (...)` / `#pragma HLS unroll` / `//for (...)` /
/// `for (...) {`): the braces still open at the header's `)`, before the pragma and the comment.
#[test]
fn a_pragma_and_a_comment_before_an_unbraced_loop_body_stay_in_the_loop() {
    let src = "void clear(int m[9][9], int a) {\n  if (a)\n    for (int i = 0; i < 9; i++)\n#pragma HLS unroll\n      // one row\n      for (int j = 0; j < 9; j++) {\n        m[i][j] = 0;\n      }\n}\n";
    let (code, stderr, out) = rewrite(src, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(out.contains("i++) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(1);\n#pragma HLS unroll\n      // one row\n"), "{out}");
    compiles(&out);
}

#[test]
fn functor_calls_and_hls_task_arguments_are_reachable_from_top() {
    let src = "namespace hls { struct task { template <class F, class... A> task(F, A&&...) {} }; }\n#define hls_thread_local thread_local\nstruct Acc {\n  int s = 0;\n  int operator()(int x) { s += x; return s; }\n};\nvoid worker(int n) { (void)n; }\nvoid other(int n) { (void)n; }\nint top(int *a, int n) {\n  Acc acc;\n  int r = 0;\n  for (int i = 0; i < n; i++) r = acc(a[i]);\n  hls_thread_local hls::task t1(worker, n);\n  return r;\n}\n";
    let (code, stderr, out) = rewrite(src, &["--top", "top"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(probed(&out, "operator()") && probed(&out, "worker") && probed(&out, "top"), "{out}");
    assert!(!probed(&out, "other"), "{out}");
    compiles(&out);
}
