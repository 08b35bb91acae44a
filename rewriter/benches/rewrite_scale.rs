//! `hlsinstr rewrite` on large generated inputs (issue 18, item 6): an hls4ml-style weights
//! header of number-only array initializers (`weight_t w0[20000] = {0.123456, ...};`) included
//! by a small top, a file of many small functions, and a function of many loops. Prints, per
//! input, its size, the probes, the wall and CPU time (user + system) of `hlsinstr rewrite -j 1`
//! and its peak resident set (wait4's ru_maxrss: the rewrite starts no children), and the
//! manifest's size.
//!
//! `cargo bench --bench rewrite_scale`; `HLSINSTR_BENCH_WEIGHTS_MB` (default 50) and
//! `HLSINSTR_BENCH_CODE_MB` (default 20) set the sizes, 0 leaves one out; a third input is one
//! function of `HLSINSTR_BENCH_LOOPS` (default 2000) small loops. Figures only.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let mb = |name: &str, default: usize| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let (weights_mb, code_mb) = (mb("HLSINSTR_BENCH_WEIGHTS_MB", 50), mb("HLSINSTR_BENCH_CODE_MB", 20));
    let loops = mb("HLSINSTR_BENCH_LOOPS", 2000);
    println!("hlsinstr rewrite at scale (-j 1, --probes modules,loops)");
    println!(
        "{:<16} {:>8} {:>8} {:>8} {:>8} {:>9} {:>12}",
        "input", "MB", "probes", "wall s", "cpu s", "peak MB", "manifest MB"
    );
    let dir = tempfile::tempdir().unwrap();
    if weights_mb > 0 {
        let d = dir.path().join("weights");
        std::fs::create_dir_all(&d).unwrap();
        let mut text = String::from("#ifndef W_H\n#define W_H\ntypedef float weight_t;\n");
        let mut k = 0u64;
        while text.len() < weights_mb << 20 {
            let _ = write!(text, "weight_t w{k}[20000] = {{");
            for i in 0..20000u64 {
                let v = ((i * 2654435761 + k) % 2_000_000) as f64 / 1e6 - 1.0;
                let _ = write!(text, "{}{v:.6}", if i == 0 { "" } else { ", " });
            }
            text.push_str("};\n");
            k += 1;
        }
        text.push_str("#endif\n");
        std::fs::write(d.join("weights.h"), &text).unwrap();
        std::fs::write(
            d.join("top.cpp"),
            "#include \"weights.h\"\nfloat top(int i) {\n  float acc = 0;\nrun:\n  for (int k = 0; k < 100; k++) acc += w0[(i + k) % 20000] * w1[k];\n  return acc;\n}\n",
        )
        .unwrap();
        measure("weights header", &d, text.len(), &["--top", "top"]);
    }
    if code_mb > 0 {
        let d = dir.path().join("code");
        std::fs::create_dir_all(&d).unwrap();
        let mut text = String::new();
        let mut k = 0u64;
        while text.len() < code_mb << 20 {
            let _ = write!(
                text,
                "int f{k}(int* a, int n) {{\n  int acc = 0;\nl{k}:\n  for (int i = 0; i < n; i++) {{\n    if (a[i] > {}) acc += a[i] * {}; else acc -= i;\n  }}\n  return acc;\n}}\n",
                k % 100,
                k % 7
            );
            k += 1;
        }
        std::fs::write(d.join("big.cpp"), &text).unwrap();
        measure("small functions", &d, text.len(), &[]);
    }
    if loops > 0 {
        // One function of many loops over a local and two parameter arrays: every loop's facts
        // ask what the function declares, which was once a walk of the whole body per loop.
        let d = dir.path().join("loops");
        std::fs::create_dir_all(&d).unwrap();
        let mut text =
            String::from("void big(int a[4096], int b[4096], int n) {\n  const int K = 3;\n  int tmp[64];\n");
        for k in 0..loops {
            let _ = write!(
                text,
                "l{k}:\n  for (int i = 0; i < 64; i++) {{ tmp[i] = a[i + {}] * {} + b[i] * K; b[i] = tmp[i] + 1; }}\n",
                k % 100,
                k % 7
            );
        }
        text.push_str("}\n");
        std::fs::write(d.join("loops.cpp"), &text).unwrap();
        measure(&format!("{loops} loops, 1 fn"), &d, text.len(), &[]);
    }
}

fn measure(name: &str, dir: &Path, bytes: usize, extra: &[&str]) {
    let out = dir.join("out");
    let started = Instant::now();
    let child = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("rewrite")
        .arg(dir)
        .args(["--probes", "modules,loops", "-j", "1", "-q", "--out"])
        .arg(&out)
        .args(extra)
        .stdout(Stdio::null())
        .spawn()
        .expect("run hlsinstr");
    let (status, usage) = wait4(child);
    assert!(status == 0, "hlsinstr rewrite failed on {name}");
    let wall = started.elapsed();
    let t = |tv: libc::timeval| Duration::new(tv.tv_sec as u64, tv.tv_usec as u32 * 1000);
    let cpu = t(usage.ru_utime) + t(usage.ru_stime);
    let manifest = std::fs::read_to_string(out.join("hlsinstr-manifest.json")).unwrap();
    let probes = serde_json::from_str::<serde_json::Value>(&manifest).unwrap()["probes"].as_array().map_or(0, Vec::len);
    println!(
        "{:<16} {:>8.1} {:>8} {:>8.2} {:>8.2} {:>9.1} {:>12.2}",
        name,
        bytes as f64 / 1e6,
        probes,
        wall.as_secs_f64(),
        cpu.as_secs_f64(),
        usage.ru_maxrss as f64 / 1024.0,
        manifest.len() as f64 / 1e6
    );
}

/// Reaps `child`: its wait status and resource usage.
fn wait4(child: std::process::Child) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills; the pid is our unreaped child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert!(pid > 0, "wait4 failed: {}", std::io::Error::last_os_error());
    (status, usage)
}
