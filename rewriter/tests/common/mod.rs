//! What the integration tests share: where the repository is, the Xilinx C-simulation headers
//! (`scripts/fetch-hls-headers.sh`, or `$XILINX_HLS/include`), the files below a directory, and a
//! deterministic random source for the fuzz-ish tests.
//! Each test crate uses part of it, hence `allow(dead_code)`.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The comment block Vivado HLS or Vitis HLS (`tool`) writes at the top of a generated
/// `script.tcl`, with its copyright `year`, then `body`.
pub fn generated_script(tool: &str, year: u32, body: &str) -> String {
    format!(
        "############################################################\n\
         ## This file is generated automatically by {tool} HLS.\n\
         ## Please DO NOT edit it.\n\
         ## Copyright 1986-{year} Xilinx, Inc. All Rights Reserved.\n\
         ############################################################\n{body}"
    )
}

/// The repository root (the workspace, one above the crate).
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// `shared/fixtures`, the vendor-tool files beside the repository.
pub fn fixtures() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures");
    assert!(dir.is_dir(), "fixtures not found at {}: shared/ must sit beside the repository", dir.display());
    dir
}

/// What a run of `hlsinstr` printed and how it exited.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `hlsinstr sim --quiet --hls-include <the headers> ARGS` run in `dir`.
pub fn sim_in(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("sim")
        .arg("--quiet")
        .arg("--hls-include")
        .arg(hls_include())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run hlsinstr");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The documentation pages: README.md, CHANGELOG.md and every docs/*.md, sorted.
pub fn doc_pages() -> Vec<PathBuf> {
    let mut pages = vec![repo().join("README.md"), repo().join("CHANGELOG.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every file below `dir` (at any depth), sorted.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The directory holding ap_int.h, hls_stream.h, ...: fetched once, cached in .cache/.
pub fn hls_include() -> PathBuf {
    let out = Command::new("bash")
        .arg(repo().join("scripts/fetch-hls-headers.sh"))
        .output()
        .expect("bash is needed to fetch the HLS headers");
    assert!(out.status.success(), "scripts/fetch-hls-headers.sh failed: {}", String::from_utf8_lossy(&out.stderr));
    let dir = PathBuf::from(String::from_utf8(out.stdout).unwrap().trim());
    assert!(dir.join("hls_stream.h").exists(), "no hls_stream.h in {}", dir.display());
    dir
}

/// The probe events of examples/opencl/mxv (rewritten with `modules,loops,seq`, run on a
/// `rows` x `cols` matrix), as `<probe label> begin` / `<probe label> end[ trips N]`, in the
/// order the emulation runs them: (single work-item kernel, NDRange pipelined, NDRange with
/// HLSINSTR_EMU_NDRANGE=sequential).
pub struct MxvOrders {
    pub single: Vec<String>,
    pub ndrange: Vec<String>,
    pub ndrange_sequential: Vec<String>,
}

pub fn mxv_orders(rows: usize, cols: usize) -> MxvOrders {
    let dot = [
        "function dot begin".to_string(),
        "loop VITIS_LOOP_7_1 in dot begin".to_string(),
        format!("loop VITIS_LOOP_7_1 in dot end trips {cols}"),
        "function dot end".to_string(),
    ];
    // Single work-item: one kernel invocation, row by row.
    let mut single =
        vec!["function mxv_single begin".to_string(), "loop VITIS_LOOP_16_1 in mxv_single begin".to_string()];
    for _ in 0..rows {
        single.extend_from_slice(&dot);
    }
    single.push(format!("loop VITIS_LOOP_16_1 in mxv_single end trips {rows}"));
    single.push("function mxv_single end".to_string());
    // One work-item of the NDRange kernel.
    let mut one = vec!["function mxv_ndrange begin".to_string()];
    one.extend_from_slice(&dot);
    one.push("function mxv_ndrange end".to_string());
    // Pipelined (seed 004, Fig. 2b): every work-item passes a probe before any passes the next
    // one (a probe's sequence number and record are channel calls, where work-items take turns).
    let ndrange = one.iter().flat_map(|e| std::iter::repeat_n(e.clone(), rows)).collect();
    let ndrange_sequential = (0..rows).flat_map(|_| one.clone()).collect();
    MxvOrders { single, ndrange, ndrange_sequential }
}

/// xorshift64*: deterministic bytes for the fuzz-ish tests, no dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// docs/sim-report.schema.json, compiled.
pub fn report_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo().join("docs/sim-report.schema.json")).unwrap()).unwrap();
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler.add_resource("file:///sim-report.schema.json", schema).unwrap();
    let idx = compiler.compile("file:///sim-report.schema.json", &mut schemas).unwrap();
    (schemas, idx)
}

pub fn validate_against_schema(rep: &serde_json::Value) {
    let (schemas, idx) = report_schema();
    if let Err(e) = schemas.validate(rep, idx) {
        panic!("the report does not match docs/sim-report.schema.json: {e:#}");
    }
}

/// Runs `cmd`, fails the test with its output unless it exits 0, and returns its stdout.
pub fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `hlsinstr ARGS` run in `dir`; it must succeed. Returns its stdout.
pub fn hlsinstr_ok(dir: &Path, args: &[&str]) -> String {
    run_ok(Command::new(env!("CARGO_BIN_EXE_hlsinstr")).current_dir(dir).args(args))
}

/// Builds an in-FPGA build (`rewrite --target vitis` output in `out`) as Vitis' C simulation
/// would, from its generated hls_config.cfg (`syn.file`, `tb.file`, `syn.cflags`) plus the
/// counter's C model, with g++ and `flags`, runs it in `out` and returns what it printed.
pub fn run_vitis_csim(out: &Path, flags: &[&str]) -> String {
    let cfg = std::fs::read_to_string(out.join("hls_config.cfg")).unwrap();
    let values = |key: &str| -> Vec<String> {
        cfg.lines().filter_map(|l| l.strip_prefix(&format!("{key}="))).map(str::to_string).collect()
    };
    let mut cmd = Command::new("g++");
    cmd.current_dir(out).args(["-std=c++14", "-O0"]).args(flags).args(["-o", "t"]);
    cmd.arg("-isystem").arg(hls_include());
    cmd.args(values("syn.cflags")[0].split_whitespace());
    cmd.args(values("syn.file")).args(values("tb.file")).arg("hlsinstr_counter_model.cpp");
    run_ok(&mut cmd);
    run_ok(Command::new(out.join("t")).current_dir(out))
}
