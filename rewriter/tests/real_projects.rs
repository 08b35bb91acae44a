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
