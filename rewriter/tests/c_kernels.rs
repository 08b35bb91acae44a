//! Real projects that are not plain C++: C kernels rewritten and built as C (issue 17 item 1),
//! bodies with statement-level `#if`/`#ifdef` blocks (item 2). Each case rewrites a small
//! project, builds the output with gcc / g++, runs it, and compares its output and event log with
//! the original's. Needs gcc and g++; a missing tool fails the test.

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{hls_include, repo};

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn sh(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}; install it (apt-get install gcc g++)"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn write(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
}

/// Compiles `files` of `dir` (C with gcc -std=c11, C++ with g++) plus, when `runtime`, the C
/// probes' runtime; links with g++ and runs. Returns (stdout, event log records).
fn build_and_run(dir: &Path, files: &[&str], defines: &[&str], runtime: bool) -> (String, Vec<String>) {
    let lib = repo().join("hls-lib/include");
    let mut objects = Vec::new();
    let mut units: Vec<std::path::PathBuf> = files.iter().map(|f| dir.join(f)).collect();
    if runtime {
        let rt = dir.join("hlsinstr_c_runtime.cpp");
        std::fs::write(&rt, "#include \"hlsinstr/c_runtime.h\"\n").unwrap();
        units.push(rt);
    }
    for (k, unit) in units.iter().enumerate() {
        let c = unit.extension().is_some_and(|e| e == "c");
        let obj = dir.join(format!("{k}.o"));
        let mut cmd = Command::new(if c { "gcc" } else { "g++" });
        cmd.arg(if c { "-std=c11" } else { "-std=c++14" })
            .args(["-Wall", "-Wextra", "-Werror", "-Wno-unused-label", "-Wno-unknown-pragmas", "-Wno-unused-parameter"])
            .args(defines)
            .arg("-I")
            .arg(&lib)
            .arg("-I")
            .arg(hls_include())
            .arg("-c")
            .arg(unit)
            .arg("-o")
            .arg(&obj);
        sh(&mut cmd);
        objects.push(obj);
    }
    let exe = dir.join("a.out");
    sh(Command::new("g++").args(&objects).arg("-pthread").arg("-o").arg(&exe));
    let log = dir.join("events.log");
    let _ = std::fs::remove_file(&log);
    let out =
        sh(Command::new(&exe).current_dir(dir).env("HLSINSTR_EVENTS", &log).env("HLSINSTR_EVENTS_FORMAT", "text"));
    let records = std::fs::read_to_string(&log)
        .map(|t| t.lines().filter(|l| !l.starts_with('#')).map(String::from).collect())
        .unwrap_or_default();
    (String::from_utf8_lossy(&out.stdout).into_owned(), records)
}

/// `<probe> <event> <value>` of each record, in order: what the program did, without threads,
/// sequence numbers and timestamps.
fn events(records: &[String]) -> Vec<String> {
    records
        .iter()
        .map(|r| {
            let w: Vec<&str> = r.split_whitespace().collect();
            format!("{} {} {}", w[1], w[2], w[6])
        })
        .collect()
}

/// Probe ids by `kind name` (`function sum`, `loop add`) from the manifest of `out`.
fn probe_ids(out: &Path) -> std::collections::HashMap<String, u64> {
    let text = std::fs::read_to_string(out.join("hlsinstr-manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut ids = std::collections::HashMap::new();
    for p in m["probes"].as_array().unwrap() {
        let name = p["name"].as_str().or(p["function"].as_str()).unwrap_or_default();
        ids.insert(format!("{} {}", p["kind"].as_str().unwrap(), name), p["id"].as_u64().unwrap());
    }
    ids
}

const SUM_C: &str =
    "int sum(int *a, int n){ int s=0; add: for(int i=0;i<n;i++) s+=a[i]; return s; }\nvoid clear(int *a, int n) {\n  if (n <= 0) return;\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n";
const MAIN_C: &str = "#include <stdio.h>\nint sum(int *a, int n);\nvoid clear(int *a, int n);\nint main(void) {\n  int a[4] = {1, 2, 3, 4};\n  printf(\"%d\\n\", sum(a, 4));\n  printf(\"%d\\n\", sum(a, 2));\n  clear(a, 0);\n  clear(a, 4);\n  printf(\"%d\\n\", sum(a, 4));\n  return 0;\n}\n";
const TB_CPP: &str = "#include <cstdio>\nextern \"C\" int sum(int *a, int n);\nextern \"C\" void clear(int *a, int n);\nint main() {\n  int a[4] = {1, 2, 3, 4};\n  std::printf(\"%d\\n\", sum(a, 4));\n  std::printf(\"%d\\n\", sum(a, 2));\n  clear(a, 0);\n  clear(a, 4);\n  std::printf(\"%d\\n\", sum(a, 4));\n  return 0;\n}\n";

/// The events of sum(a, 4), sum(a, 2), clear(a, 0) (early return), clear(a, 4), sum(a, 4).
fn expected_kernel_events(ids: &std::collections::HashMap<String, u64>) -> Vec<String> {
    let (sum, add, clear) = (ids["function sum"], ids["loop add"], ids["function clear"]);
    let clear_loop = ids.iter().find(|(k, _)| k.starts_with("loop VITIS_LOOP_4")).map(|(_, v)| *v).unwrap();
    let call_sum =
        |n: u64| vec![format!("{sum} B -"), format!("{add} B -"), format!("{add} E {n}"), format!("{sum} E -")];
    let mut e = call_sum(4);
    e.extend(call_sum(2));
    e.extend([format!("{clear} B -"), format!("{clear} E -")]);
    e.extend([
        format!("{clear} B -"),
        format!("{clear_loop} B -"),
        format!("{clear_loop} E 4"),
        format!("{clear} E -"),
    ]);
    e.extend(call_sum(4));
    e
}

#[test]
fn c_kernel_stays_c_with_a_c_and_a_cpp_testbench() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("k.c", SUM_C), ("main.c", MAIN_C), ("tb.cpp", TB_CPP)]);
    let (orig_c, _) = build_and_run(d, &["k.c", "main.c"], &[], false);
    assert_eq!(orig_c, "10\n3\n0\n");
    // Only the kernel is instrumented; both testbenches call it.
    let o = hlsinstr(&["rewrite", "k.c", "--probes", "modules,loops", "--out", "out"], d);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = d.join("out");
    let instrumented = std::fs::read_to_string(out.join("k.c")).unwrap();
    assert!(instrumented.contains("HLSINSTR_FUNC_BEGIN"), "{instrumented}");
    write(&out, &[("main.c", MAIN_C), ("tb.cpp", TB_CPP)]);
    let want = expected_kernel_events(&probe_ids(&out));
    for tb in ["main.c", "tb.cpp"] {
        let (stdout, records) = build_and_run(&out, &["k.c", tb], &[], true);
        assert_eq!(stdout, orig_c, "{tb}");
        assert_eq!(events(&records), want, "{tb}");
    }
    // Under synthesis the probes vanish and the file is still C.
    let lib = repo().join("hls-lib/include");
    sh(Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-label", "-D__SYNTHESIS__", "-fsyntax-only"])
        .arg("-I")
        .arg(&lib)
        .arg(out.join("k.c")));
}

#[test]
fn c_kernel_with_a_probed_c_testbench_and_a_goto_out_of_a_loop() {
    // The testbench's own functions get probes too; a goto out of a loop closes it (UNWIND).
    let k = "int find(const int *a, int n, int x) {\n  int at = -1;\n  for (int i = 0; i < n; i++) {\n    if (a[i] == x) { at = i; goto done; }\n  }\ndone:\n  return at;\n}\n";
    let main = "#include <stdio.h>\nint find(const int *a, int n, int x);\nint main(void) {\n  int a[5] = {5, 6, 7, 8, 9};\n  printf(\"%d %d\\n\", find(a, 5, 7), find(a, 5, 1));\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("k.c", k), ("main.c", main)]);
    let (orig, _) = build_and_run(d, &["k.c", "main.c"], &[], false);
    let o = hlsinstr(&["rewrite", "k.c", "main.c", "--probes", "modules,loops", "--out", "out"], d);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (stdout, records) = build_and_run(&d.join("out"), &["k.c", "main.c"], &[], true);
    assert_eq!(stdout, orig);
    let e = events(&records);
    // main, then find twice: 3 and 5 trips; every begin has its end.
    assert_eq!(e.len(), 2 + 2 * 4, "{e:?}");
    assert!(e.iter().any(|r| r.ends_with(" E 3")) && e.iter().any(|r| r.ends_with(" E 5")), "{e:?}");
}

/// m_axi byte counts in a C kernel (`--probes maxi`, probe_c.h): a `memcpy` size and element
/// accesses of a 2-D port, whose element the C wrappers size through its row (`*m`: C has no
/// decltype). Rewritten, built with gcc, run: one R record per port and call, before the end.
#[test]
fn c_kernel_counts_m_axi_bytes_of_memcpys_and_element_accesses() {
    let k = "#include <string.h>\nint sum(int m[4][8], const short *in, int n) {\n\
             #pragma HLS INTERFACE m_axi port=m\n#pragma HLS INTERFACE m_axi port=in\n  \
             short buf[16];\n  int s = 0, i;\n  memcpy(buf, in, n * sizeof(short));\n  \
             for (i = 0; i < n; i++) s += m[1][i] + buf[i];\n  return s;\n}\n";
    let main = "#include <stdio.h>\nint sum(int m[4][8], const short *in, int n);\nint main(void) {\n  \
                int m[4][8] = {{0}, {1, 2, 3, 4, 5, 6, 7, 8}};\n  short in[16] = {1, 1, 1, 1, 1, 1, 1, 1};\n  \
                int a = sum(m, in, 8);\n  printf(\"%d %d\\n\", a, sum(m, in, 2));\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("k.c", k), ("main.c", main)]);
    let (orig, _) = build_and_run(d, &["k.c", "main.c"], &[], false);
    assert_eq!(orig, "44 5\n");
    let o = hlsinstr(&["rewrite", "k.c", "--probes", "modules,maxi", "--top", "sum", "--out", "out"], d);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success() && !stderr.contains("not counted"), "{stderr}");
    let out = d.join("out");
    let text = std::fs::read_to_string(out.join("k.c")).unwrap();
    assert!(text.contains("HLSINSTR_MAXI_R(") && text.contains(", *m, "), "{text}");
    write(&out, &[("main.c", main)]);
    let ids = probe_ids(&out);
    let (f, m, input) = (ids["function sum"], ids["port m"], ids["port in"]);
    let (stdout, records) = build_and_run(&out, &["k.c", "main.c"], &[], true);
    assert_eq!(stdout, orig);
    // sum(m, in, 8): 8 ints of m, 16 bytes of in; sum(m, in, 2): 2 ints, 4 bytes.
    let call = |ints: u64| {
        let mut e = vec![format!("{f} B -")];
        let mut ports = [(m, 4 * ints), (input, 2 * ints)];
        ports.sort();
        e.extend(ports.iter().map(|(id, bytes)| format!("{id} R {bytes}")));
        e.push(format!("{f} E -"));
        e
    };
    let mut want = call(8);
    want.extend(call(2));
    assert_eq!(events(&records), want);
    // Under synthesis the wrappers are their expressions and the file is still C.
    sh(Command::new("gcc")
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-Wno-unused-label", "-Wno-unknown-pragmas"])
        .args(["-D__SYNTHESIS__", "-fsyntax-only", "-I"])
        .arg(repo().join("hls-lib/include"))
        .arg(out.join("k.c")));
}

#[test]
fn sim_on_a_c_project_gives_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let main = "#include <stdio.h>\nint sum(int *a, int n);\nint main(void) {\n  int a[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n  int s = sum(a, 8);\n  printf(\"%d\\n\", s);\n  return s == 36 ? 0 : 1;\n}\n";
    // `void *` to `int *` without a cast: valid C that a C++ compiler rejects.
    // An m_axi port: its bytes are counted in C as in C++ (probe_c.h).
    let k = "#include <stdlib.h>\nint sum(int *a, int n){\n#pragma HLS INTERFACE m_axi port=a\n int *copy = malloc(n * sizeof *copy); int s=0; add: for(int i=0;i<n;i++) { copy[i] = a[i]; s+=copy[i]; } free(copy); return s; }\n";
    write(d, &[("k.c", k), ("main.c", main)]);
    let o = hlsinstr(
        &["sim", "--top", "sum", "--src", "k.c", "--tb", "main.c", "--no-csynth", "--format", "json", "--quiet"],
        d,
    );
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let text = report.to_string();
    assert!(text.contains("\"sum\"") && text.contains("add"), "{text}");
}

#[test]
fn statement_level_conditionals_compile_and_run_the_same_in_every_configuration() {
    let kernel = std::fs::read_to_string(repo().join("tests/golden/preproc_bodies/input.cpp")).unwrap();
    let tb = "#include <cstdio>\nint traced(const int *a, int n);\nint branches(int n);\nvoid tail(int *a, int n);\nint split_braces(int x);\nint split_statement(int a, int b);\nint main() {\n  int a[4] = {3, -1, 4, -1};\n  int t = traced(a, 4);\n  int b = branches(5);\n  std::printf(\"%d %d\\n\", t, b);\n  tail(a, 4);\n  std::printf(\"%d %d %d\\n\", a[3], split_braces(1), split_statement(2, 3));\n  return 0;\n}\n";
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, &[("k.cpp", &kernel), ("tb.cpp", tb)]);
    let o = hlsinstr(&["rewrite", "k.cpp", "--probes", "modules,loops", "--out", "out"], d);
    assert_eq!(o.status.code(), Some(3), "two functions are skipped: {}", String::from_utf8_lossy(&o.stderr));
    let out = d.join("out");
    write(&out, &[("tb.cpp", tb)]);
    let ids = probe_ids(&out);
    let (traced, branches, tail) = (ids["function traced"], ids["function branches"], ids["function tail"]);
    for defines in [&[][..], &["-DCLAMP", "-DDEBUG", "-DSLOW=3", "-DINVERT", "-DADD_B"][..], &["-DFAST"][..]] {
        let (want, _) = build_and_run(d, &["k.cpp", "tb.cpp"], defines, false);
        let (got, records) = build_and_run(&out, &["k.cpp", "tb.cpp"], defines, false);
        assert_eq!(got, want, "{defines:?}");
        let e = events(&records);
        let modules: Vec<&String> =
            e.iter().filter(|r| [traced, branches, tail].iter().any(|id| r.starts_with(&format!("{id} ")))).collect();
        let want_modules = [traced, traced, branches, branches, tail, tail]
            .iter()
            .enumerate()
            .map(|(k, id)| format!("{id} {} -", if k % 2 == 0 { "B" } else { "E" }))
            .collect::<Vec<_>>();
        assert_eq!(modules, want_modules.iter().collect::<Vec<_>>(), "{defines:?}: {e:?}");
        // The loop inside the `#elif SLOW > 1` branch runs only with SLOW=3.
        let slow_loop = ids.iter().find(|(k, _)| k.starts_with("loop VITIS_LOOP_23")).map(|(_, v)| *v).unwrap();
        let ran = e.iter().any(|r| r.starts_with(&format!("{slow_loop} E 3")));
        assert_eq!(ran, defines.contains(&"-DSLOW=3"), "{defines:?}: {e:?}");
    }
}
