//! Real kernels under `hlsinstr emulate` (issue 17, item 8): each kernel of
//! `tests/opencl/suite/` (written in the style of Rodinia, Parboil/Spector, the Intel FPGA
//! OpenCL examples and n-body codes; see its README) is rewritten, built and run with its host,
//! and what it prints is compared, number by number, with a plain C reference program built by
//! gcc. Then the messages when the host does not build, crashes, or a kernel header is missing.
//! Needs bash, python3, g++ and gcc; never skips.

mod common;

use common::repo;
use std::path::Path;
use std::process::{Command, Output};

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// `hlsinstr` in `cwd`; emulation builds unoptimised (CXXFLAGS=-O0, honoured by
/// hlsinstr-emu-build): a quarter less compile time, the same IEEE results.
fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(args)
        .current_dir(cwd)
        .env("CXXFLAGS", "-O0")
        .output()
        .expect("run hlsinstr")
}

/// Rewrites `kernel.cl` of `dir` into `<work>/instr` with loop and module probes, then
/// `hlsinstr emulate --run` with `host` and `extra` options.
fn emulate(kernel: &Path, host: &Path, extra: &[&str], work: &Path) -> Output {
    let o = hlsinstr(&["rewrite", "--probes", "modules,loops", "--out", "instr", kernel.to_str().unwrap()], work);
    assert!(o.status.success(), "rewrite {}:\n{}", kernel.display(), text(&o));
    let mut args = vec!["emulate", "instr", "--host", host.to_str().unwrap(), "--run"];
    args.extend_from_slice(extra);
    hlsinstr(&args, work)
}

/// The numbers of `a` and `b`, line by line: the same words, numbers within 1e-5 relative.
fn same_numbers(a: &str, b: &str) -> Result<(), String> {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    if la.len() != lb.len() {
        return Err(format!("{} lines, the reference {}", la.len(), lb.len()));
    }
    for (x, y) in la.iter().zip(&lb) {
        let (wx, wy): (Vec<&str>, Vec<&str>) = (x.split_whitespace().collect(), y.split_whitespace().collect());
        let close = wx.len() == wy.len()
            && wx.iter().zip(&wy).all(|(p, q)| match (p.parse::<f64>(), q.parse::<f64>()) {
                (Ok(u), Ok(v)) => (u - v).abs() <= 1e-5 * u.abs().max(v.abs()).max(1.0),
                _ => p == q,
            });
        if !close {
            return Err(format!("emulation `{x}`, reference `{y}`"));
        }
    }
    Ok(())
}

fn case(name: &str, extra: &[&str]) {
    let dir = repo().join("tests/opencl/suite").join(name);
    let work = tempfile::tempdir().unwrap();
    let o = emulate(&dir.join("kernel.cl"), &dir.join("host.cpp"), extra, work.path());
    assert!(o.status.success(), "{name} under emulate:\n{}", text(&o));
    let exe = work.path().join("ref");
    let c = Command::new("gcc").arg("-O0").arg("-o").arg(&exe).arg(dir.join("ref.c")).arg("-lm").output().unwrap();
    assert!(c.status.success(), "{name}/ref.c:\n{}", text(&c));
    let r = Command::new(&exe).output().unwrap();
    let (got, want) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&r.stdout));
    assert!(want.lines().count() >= 10, "{name}: the reference prints its results:\n{want}");
    if let Err(e) = same_numbers(&got, &want) {
        panic!("{name}: the emulation differs from the C reference: {e}\n--- emulation\n{got}--- reference\n{want}");
    }
}

#[test]
fn rodinia_style_nearest_neighbour_and_kmeans_match_c() {
    case("nn", &[]);
}

#[test]
fn histogram_atomics_and_integer_builtins_match_c() {
    case("histo", &[]);
}

#[test]
fn intel_style_vector_scale_with_a_header_and_a_define_match_c() {
    case("vscale", &["-D", "SCALE=3"]);
}

#[test]
fn nbody_geometric_builtins_match_c() {
    case("nbody", &[]);
}

#[test]
fn a_host_that_does_not_build_is_blamed_and_one_that_crashes_says_so() {
    let t = tempfile::tempdir().unwrap();
    let kernel = t.path().join("k.cl");
    std::fs::write(
        &kernel,
        "__kernel void k(__global int *a, const int n) {\n  for (int i = 0; i < n; i++) a[i] = i;\n}\n",
    )
    .unwrap();
    let bad = t.path().join("bad_host.cpp");
    std::fs::write(&bad, "#include \"hlsinstr_emu.h\"\nint main() { this is not C++; }\n").unwrap();
    let o = emulate(&kernel, &bad, &[], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let msg = text(&o);
    assert!(msg.contains(&format!("the host program {} does not compile (the kernels of", bad.display())), "{msg}");
    assert!(msg.contains("bad_host.cpp:2"), "the compiler's message is shown: {msg}");

    let crash = t.path().join("crash_host.cpp");
    std::fs::write(
        &crash,
        "#include \"hlsinstr_emu.h\"\n#include <cstdio>\nint main() {\n  int a[4];\n  const int n = 4;\n  \
         hlsinstr_emu::run(\"k\", {a, n});\n  std::printf(\"%d\\n\", a[3]);\n  std::fflush(stdout);\n  \
         volatile int *p = nullptr;\n  return *p;\n}\n",
    )
    .unwrap();
    let o = hlsinstr(&["emulate", "instr", "--host", crash.to_str().unwrap(), "--run"], t.path());
    let msg = text(&o);
    assert_eq!(o.status.code(), Some(1), "{msg}");
    assert!(msg.starts_with("3\n"), "the kernel ran first: {msg}");
    assert!(msg.contains("crashed (SIGSEGV"), "{msg}");
}

#[test]
fn kernel_headers_are_carried_into_the_output_and_a_missing_one_is_named() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("src/inc")).unwrap();
    std::fs::write(t.path().join("src/inc/n.h"), "#define N 3\n").unwrap();
    std::fs::write(
        t.path().join("src/k.cl"),
        "#include \"inc/n.h\"\n#include \"gone.h\"\n__kernel void k(__global int *a) { a[0] = N; }\n",
    )
    .unwrap();
    let o = hlsinstr(&["rewrite", "--out", "instr", "src/k.cl"], t.path());
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(t.path().join("instr/inc/n.h")).unwrap(), "#define N 3\n");
    let host = t.path().join("host.cpp");
    std::fs::write(&host, "int main() { return 0; }\n").unwrap();
    let o = hlsinstr(&["emulate", "instr", "--host", host.to_str().unwrap()], t.path());
    let msg = text(&o);
    assert_eq!(o.status.code(), Some(1), "{msg}");
    assert!(msg.contains("a file they include is missing"), "{msg}");
    assert!(msg.contains("gone.h"), "{msg}");
}
