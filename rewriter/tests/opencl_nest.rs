//! Perfect loop nests in OpenCL C kernels, end to end: `tests/opencl/nest/kernels/nest.cl`
//! rewritten with `modules,loops,seq` probes each perfect nest as one unit (begin and end around
//! the outer loop, the trip count in the innermost body, nothing between the loops), passes
//! clang's OpenCL C 1.2 check in the default and the iBuffer mode, runs in `hlsinstr emulate`
//! with its host, and `hlsinstr decode` reports the flattened trips of each nest, while the nest
//! left by a break keeps a probe per loop. `strip` gives the kernel back byte for byte.
//!
//! Needs clang, g++, bash and python3; a missing tool fails the test.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::repo;

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn kernel() -> PathBuf {
    repo().join("tests/opencl/nest/kernels/nest.cl")
}

fn clang_cl(file: &Path, defines: &[&str]) -> Output {
    let lib = repo().join("opencl-lib");
    Command::new("clang")
        .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror"])
        .args(["-Wno-unknown-attributes", "-Wno-unknown-pragmas", "-Wno-ignored-pragmas", "-Wno-unused-label"])
        .args(defines)
        .arg("-include")
        .arg(lib.join("tb/intel_channels_check.h"))
        .arg("-I")
        .arg(&lib)
        .arg(file)
        .output()
        .expect("clang is needed: apt-get install clang")
}

/// The decoded JSON's span row (function or loop probe) of that name.
fn span<'a>(rep: &'a Value, name: &str) -> &'a Value {
    rep["spans"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no span {name} in {}", rep["spans"]))
}

#[test]
fn perfect_nests_are_one_probe_whose_emulated_trips_are_the_flattened_count() {
    let work = tempfile::tempdir().unwrap();
    let instr = work.path().join("instr");
    let o = hlsinstr(
        &["rewrite", "--probes", "modules,loops,seq", "--out", instr.to_str().unwrap(), kernel().to_str().unwrap()],
        work.path(),
    );
    assert!(o.status.success(), "rewrite:\n{}", text(&o));
    let out = std::fs::read_to_string(instr.join("nest.cl")).unwrap();
    // Nothing between the loops of a unit: the outer headers are followed by their inner loop.
    assert!(
        out.contains("  for (int i = 0; i < rows; i++) {\n    for (int j = 0; j < COLS; j++) { HLSINSTR_LOOP_ITER(1);"),
        "{out}"
    );
    assert!(out.contains("plane: for (int i = 0; i < 2; i++)\n    row: for"), "{out}");
    assert_eq!(out.matches("HLSINSTR_LOOP_BEGIN").count(), 4, "scale, cube: one each; first_negative: two\n{out}");

    // The input and the output are OpenCL C 1.2 (labels name loops for reports, unused by code).
    let o = clang_cl(&kernel(), &[]);
    assert!(o.status.success(), "clang on the input:\n{}", text(&o));
    for defines in [&[][..], &["-DHLSINSTR_OPENCL_IBUFFER", "-DHLSINSTR_NUM_IBUFFERS=7"][..]] {
        let o = clang_cl(&instr.join("nest.cl"), defines);
        assert!(o.status.success(), "clang {defines:?}:\n{}", text(&o));
    }

    let o = Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .arg("emulate")
        .arg(&instr)
        .arg("--host")
        .arg(repo().join("tests/opencl/nest/host.cpp"))
        .arg("--run")
        .current_dir(work.path())
        .env("HLSINSTR_EMU_DEADLOCK_MS", "5000")
        .output()
        .unwrap();
    assert!(o.status.success() && text(&o).contains("PASS"), "emulate --run:\n{}", text(&o));

    let manifest = instr.join("hlsinstr-manifest.json");
    let o = hlsinstr(
        &["decode", "hlsinstr-ocl.bin", "--manifest", manifest.to_str().unwrap(), "--format", "json"],
        work.path(),
    );
    assert!(o.status.success(), "decode:\n{}", text(&o));
    let rep: Value = serde_json::from_slice(&o.stdout).unwrap();
    // scale ran on 4 and 2 rows of 3: 12 and 6 flattened trips.
    let scale = span(&rep, "VITIS_LOOP_10_1_VITIS_LOOP_11_2");
    assert_eq!(scale["nest"], serde_json::json!(["VITIS_LOOP_10_1", "VITIS_LOOP_11_2"]));
    assert_eq!((scale["begins"].as_u64(), scale["trips"].clone()), (Some(2), serde_json::json!([12, 6])));
    let cube = span(&rep, "plane_row_col");
    assert_eq!(cube["nest"], serde_json::json!(["plane", "row", "col"]));
    assert_eq!(cube["trips"], serde_json::json!([24]));
    // first_negative's inner loop is left by a break: each loop its own probe, the inner
    // loop's trips per row (the break's iteration counts as begun).
    assert_eq!(span(&rep, "VITIS_LOOP_27_1")["trips"], serde_json::json!([4]));
    let inner = span(&rep, "VITIS_LOOP_28_2");
    assert_eq!((inner["trips"].clone(), inner.get("nest")), (serde_json::json!([3, 2, 1, 3]), None));

    let o = hlsinstr(&["decode", "hlsinstr-ocl.bin", "--manifest", manifest.to_str().unwrap()], work.path());
    let t = text(&o);
    assert!(t.contains("loop nest plane_row_col in cube") && t.contains("(trips 24)"), "{t}");

    // The manifest says what the unit measures.
    let m: Value = serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let unit = m["probes"].as_array().unwrap().iter().find(|p| p["name"] == "plane_row_col").unwrap();
    assert_eq!(unit["nest"]["probed"], "unit");
    let lines: Vec<u64> =
        unit["nest"]["members"].as_array().unwrap().iter().map(|x| x["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [20, 21, 22]);

    // strip gives the kernel back.
    let restored = work.path().join("restored");
    let o = hlsinstr(&["strip", instr.to_str().unwrap(), "--out", restored.to_str().unwrap()], work.path());
    assert!(o.status.success(), "strip:\n{}", text(&o));
    assert_eq!(std::fs::read(restored.join("nest.cl")).unwrap(), std::fs::read(kernel()).unwrap());
}
