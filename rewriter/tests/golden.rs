//! Golden rewrite tests: `tests/golden/<case>/input.cpp` (+ `probes`, the kinds) must rewrite to
//! `expected.cpp`, with the manifest `expected.manifest.json` and diagnostics `expected.stderr`.
//! A case with `input_from` (a case's name) rewrites that case's input instead of its own.
//! OpenCL C cases have `input.cl` and `expected.cl` instead, may have `options` (watch and
//! stall options, see `run_case`), and their generated `hlsinstr_ocl_host.h` under `expected.gen/`.
//!
//! Review changes as diffs; bless new expectations with
//! `HLSINSTR_BLESS=1 cargo test --test golden` and read `git diff tests/golden` before committing.

use hlsinstr::parse::{count_errors, parse, Lang};
use hlsinstr::rewrite::{rewrite, RewriteOptions};
use hlsinstr::select::{Kinds, SelectOptions};
use hlsinstr::walk::Input;
use std::path::{Path, PathBuf};

fn golden_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/golden")
}

fn blessing() -> bool {
    std::env::var_os("HLSINSTR_BLESS").is_some()
}

/// Compare or bless one expectation file; on mismatch return a readable unified diff.
fn check(path: &Path, actual: &str) -> Option<String> {
    if blessing() {
        std::fs::write(path, actual).unwrap();
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return None;
    }
    let name = path.file_name().unwrap().to_string_lossy();
    let diff = similar::TextDiff::from_lines(expected.as_str(), actual)
        .unified_diff()
        .header(&format!("expected/{name}"), &format!("actual/{name}"))
        .to_string();
    Some(format!("{}:\n{diff}", path.display()))
}

/// Where a case's input is: its own directory, or the case named in its `input_from` (the same
/// source rewritten another way, e.g. for another target).
fn input_dir(dir: &Path) -> PathBuf {
    match std::fs::read_to_string(dir.join("input_from")) {
        Ok(case) => dir.parent().expect("a case directory").join(case.trim()),
        Err(_) => dir.to_path_buf(),
    }
}

fn run_case(dir: &Path) -> Vec<String> {
    let kinds = std::fs::read_to_string(dir.join("probes")).unwrap_or_else(|_| "modules,loops".into());
    // `target`: `vitis <top>` for the in-FPGA build; its generated files (not the hls-lib copy)
    // are golden too, under `expected.gen/`.
    let target = std::fs::read_to_string(dir.join("target")).unwrap_or_default();
    let words: Vec<&str> = target.split_whitespace().collect();
    let (target, top) = match words.as_slice() {
        ["vitis", top] => (hlsinstr::fpga::Target::Vitis(Default::default()), Some(top.to_string())),
        _ => (hlsinstr::fpga::Target::Csim, None),
    };
    // `options`: watch and stall options, one `NAME VALUE` per line (`watch-range d[0:4]`,
    // `invariant d[i] >= 0`, `bounds d:8`, `at 12`), as on the command line.
    let options = std::fs::read_to_string(dir.join("options")).unwrap_or_default();
    let option = |name: &str| -> Vec<String> {
        options.lines().filter_map(|l| l.strip_prefix(name)?.strip_prefix(' ').map(str::to_string)).collect()
    };
    let first = |name: &str| option(name).into_iter().next();
    let watch = hlsinstr::select::WatchSpec::parse(
        first("watch").as_deref(),
        first("watch-range").as_deref(),
        first("invariant").as_deref(),
        &option("bounds"),
    )
    .unwrap();
    let stall = option("at").iter().map(|a| hlsinstr::select::StallLine::parse(a).unwrap()).collect();
    let opts = RewriteOptions {
        kinds: Kinds::parse(kinds.trim()).unwrap(),
        select: SelectOptions { top, watch, stall, ..SelectOptions::default() },
        target,
    };
    let source = input_dir(dir);
    let ext = if source.join("input.cl").exists() { "cl" } else { "cpp" };
    let input = Input { path: source.join(format!("input.{ext}")), rel: format!("input.{ext}") };
    let outcome = rewrite(std::slice::from_ref(&input), &opts).unwrap();
    assert!(outcome.errors.is_empty(), "{}: {:?}", dir.display(), outcome.errors);
    let file = &outcome.files[0];
    let mut failures = Vec::new();

    // Same checks the rewriter makes on itself, repeated here so a regression cannot hide.
    let parsed = |text: &str| if ext == "cl" { hlsinstr::opencl::blank(text).text } else { text.to_string() };
    let lang = Lang::of_path(&input.path);
    let before = count_errors(parse(lang, &parsed(&file.source.text), None).root_node());
    let after = count_errors(parse(lang, &parsed(&file.output), None).root_node());
    if after > before {
        failures.push(format!("{}: output has {after} parse errors, input {before}", dir.display()));
    }
    if hlsinstr::strip::strip(&file.output).unwrap() != file.source.text {
        failures.push(format!("{}: strip(rewrite(x)) != x", dir.display()));
    }

    let mut stderr = String::new();
    for (f, s) in &outcome.skipped {
        stderr.push_str(&format!("{f}:{}:{}: skipped {}: {}\n", s.line, s.col, s.function, s.reason));
    }
    for w in &outcome.warnings {
        stderr.push_str(&format!("{w}\n"));
    }
    let manifest = serde_json::to_string_pretty(&outcome.manifest).unwrap() + "\n";
    failures.extend(check(&dir.join(format!("expected.{ext}")), &file.output));
    failures
        .extend(check(&dir.join("expected.manifest.json"), &manifest.replace(env!("CARGO_PKG_VERSION"), "VERSION")));
    failures.extend(check(&dir.join("expected.stderr"), &stderr.replace(&dir.display().to_string(), "CASE")));
    for g in outcome
        .generated
        .iter()
        .filter(|g| !g.path.starts_with("hlsinstr-lib/") && !g.path.starts_with("hlsinstr_counter"))
    {
        let path = dir.join("expected.gen").join(g.path.replace('/', "__"));
        if blessing() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        }
        failures.extend(check(&path, &g.text));
    }
    failures
}

#[test]
fn golden_rewrites() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("input.cpp").exists() || p.join("input.cl").exists() || p.join("input_from").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "golden cases missing: {cases:?}");
    let failures: Vec<String> = cases.iter().flat_map(|c| run_case(c)).collect();
    assert!(
        failures.is_empty(),
        "golden mismatches (bless with HLSINSTR_BLESS=1 after review):\n{}",
        failures.join("\n")
    );
}

/// The `maxi` and `branches` cases are plain C++: their rewrites compile warning-free with g++
/// and clang++, in C simulation and in synthesis mode (where every wrapper is the bare expression).
#[test]
fn maxi_rewrite_compiles_in_simulation_and_synthesis() {
    for name in ["maxi", "branches"] {
        compiles_in_simulation_and_synthesis(name);
    }
}

fn compiles_in_simulation_and_synthesis(name: &str) {
    let case = golden_root().join(name);
    let include = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hls-lib/include");
    for cxx in ["g++", "clang++"] {
        for mode in [None, Some("-D__SYNTHESIS__")] {
            for file in ["input.cpp", "expected.cpp"] {
                let out = std::process::Command::new(cxx)
                    .args(["-std=c++11", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Werror"])
                    .arg("-Wno-unknown-pragmas")
                    .args(mode)
                    .arg("-I")
                    .arg(&include)
                    .arg(case.join(file))
                    .output()
                    .unwrap_or_else(|e| panic!("cannot run {cxx}: {e}; install it (apt-get install g++ clang)"));
                assert!(out.status.success(), "{cxx} {mode:?} {file}:\n{}", String::from_utf8_lossy(&out.stderr));
            }
        }
    }
}

/// Every OpenCL C case, before and after the rewrite, passes clang's OpenCL C 1.2 front end with
/// the probes compiled out, with `HLSINSTR_OPENCL_TRACE` (the trace hooks) and, the rewrite, with
/// `HLSINSTR_OPENCL_IBUFFER` (records into one iBuffer unit per manifest probe). Intel channels are
/// declared for clang by `opencl-lib/tb/intel_channels_check.h`; clang does not know Intel's
/// attributes (autorun, depth, ...), hence `-Wno-unknown-attributes`, nor the
/// `cl_intel_channels` extension pragma, hence `-Wno-ignored-pragmas`.
#[test]
fn opencl_rewrites_pass_clang_opencl_syntax_check() {
    let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("../opencl-lib");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(golden_root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("input.cl").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= 2, "OpenCL golden cases missing: {cases:?}");
    for case in &cases {
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(case.join("expected.manifest.json")).unwrap()).unwrap();
        let units = format!("-DHLSINSTR_NUM_IBUFFERS={}", manifest["probes"].as_array().unwrap().len());
        for file in ["input.cl", "expected.cl"] {
            let ibuffer = ["-DHLSINSTR_OPENCL_IBUFFER", units.as_str()];
            let mut modes: Vec<&[&str]> = vec![&[], &["-DHLSINSTR_OPENCL_TRACE"]];
            if file == "expected.cl" {
                modes.push(&ibuffer);
            }
            for mode in modes {
                let out = std::process::Command::new("clang")
                    .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Werror"])
                    .args(["-Wno-unknown-attributes", "-Wno-ignored-pragmas"])
                    .args(mode)
                    .arg("-include")
                    .arg(lib.join("tb/intel_channels_check.h"))
                    .arg("-I")
                    .arg(&lib)
                    .arg(case.join(file))
                    .output()
                    .unwrap_or_else(|e| panic!("cannot run clang: {e}; install it (apt-get install clang)"));
                assert!(
                    out.status.success(),
                    "{} {file} {mode:?}:\n{}",
                    case.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
}
