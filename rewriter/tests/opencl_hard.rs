//! Robustness of the OpenCL C side: hard inputs in `tests/opencl/hard/*.cl`, one theme per file,
//! written the way Intel FPGA kernels are (macros that hide keywords and attributes, `#if` around
//! kernels, bodies and attributes, attributes in every position, channel arrays, vector types,
//! loop pragmas, C identifiers that C++ reserves, CRLF, a BOM, an empty, a non-UTF-8 and a
//! truncated file).
//!
//! For every file, with `--probes modules,loops,timestamps,seq`: no panic; either the file is
//! rewritten with exactly the skips, warnings and number of probes listed in `EXPECT`, or it is
//! refused with the listed error; `strip` gives the input back byte for byte; rewriting the output
//! is refused; a valid input passes `clang -x cl -cl-std=CL1.2 -fsyntax-only` (with the Intel
//! channel test header) and so does its rewritten output in the default mode and, for
//! self-contained kernels, in the iBuffer recording mode. With `--probes modules,loops,watch`
//! and a `--watch` on a buffer of the file, the same holds. clang missing fails the test.

use hlsinstr::error::ErrorKind;
use hlsinstr::model;
use hlsinstr::parse::{count_errors, parse, Lang};
use hlsinstr::rewrite::{rewrite, Outcome, RewriteOptions};
use hlsinstr::select::{Kinds, SelectOptions};
use hlsinstr::strip::strip;
use hlsinstr::walk::{discover, Input};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::repo;

const PROBES: &str = "modules,loops,timestamps,seq";

struct Expect {
    file: &'static str,
    /// `line:col: skipped function: start of the reason`, every skip of the file.
    skips: &'static [&'static str],
    /// `:line:col: warning: start of the message` (after the file's name), every warning of the file.
    warnings: &'static [&'static str],
    /// Probes in the manifest.
    probes: usize,
    /// The whole file is refused with this error (start of the message).
    error: Option<&'static str>,
    /// The input is valid OpenCL C 1.2 (for clang with the Intel channel test header).
    valid: bool,
    /// Self-contained: the output also passes clang in the iBuffer recording mode.
    ibuffer: bool,
    /// `--watch` expression for a run with `--probes modules,loops,watch`.
    watch: Option<&'static str>,
}

const REWRITTEN: Expect =
    Expect { file: "", skips: &[], warnings: &[], probes: 0, error: None, valid: true, ibuffer: true, watch: None };

/// Sorted by file name, one per file of tests/opencl/hard.
const EXPECT: &[Expect] = &[
    // Attributes before `__kernel`, between it and the return type, between the return type and
    // the name, on parameters, several in one list, over several lines, after a prototype, on
    // locals (Intel memory attributes).
    Expect { file: "attributes.cl", probes: 10, watch: Some("out[0]"), ..REWRITTEN },
    Expect { file: "bom.cl", probes: 2, ..REWRITTEN },
    // lane_sum's two loops over the channel array are a perfect nest: one probe.
    Expect { file: "channels.cl", probes: 9, watch: Some("out[0]"), ..REWRITTEN },
    Expect {
        file: "comments_strings.cl",
        // A line splice inside an identifier (`tot\` / `al`): tree-sitter reads two words.
        skips: &["21:15: skipped cont: does not parse cleanly (syntax error at 25:1"],
        probes: 2,
        ..REWRITTEN
    },
    Expect { file: "cpp_keywords.cl", probes: 3, watch: Some("typename[0]"), ..REWRITTEN },
    Expect { file: "crlf.cl", probes: 2, ..REWRITTEN },
    Expect { file: "empty.cl", warnings: &[": empty file, copied unchanged"], probes: 0, ..REWRITTEN },
    Expect {
        file: "ifdef.cl",
        // `#if`s of whole statements inside a body (inside_body) are probed around and inside.
        skips: &[
            // Both branches of an `#if` open a loop: the branch that splits the braces is named.
            "43:15: skipped split: the `#if USE_FAST` branch at 44:1 opens 1 brace(s) it does not close before `#else` at 46:1",
            // The error goes on up to the `#if 0` text, which does not parse either.
            "54:15: skipped disabled: does not parse cleanly (a syntax error from 43:10 on; the block opened at 54:41",
        ],
        probes: 8,
        ..REWRITTEN
    },
    Expect {
        file: "macros.cl",
        // A function-like macro around a loop header reads as a call followed by a block.
        skips: &["28:15: skipped macro_loops: does not parse cleanly (syntax error at 29:3"],
        probes: 7,
        watch: Some("a[0]"),
        ..REWRITTEN
    },
    Expect {
        file: "not_utf8.cl",
        error: Some("not valid UTF-8; convert the file to UTF-8"),
        valid: true,
        ibuffer: false,
        ..REWRITTEN
    },
    // The `loop_coalesce 2` nest is one probe, with nothing between its loops.
    Expect { file: "pragmas.cl", probes: 8, watch: Some("b[0]"), ..REWRITTEN },
    Expect {
        file: "truncated.cl",
        // The cut kernel is read as a definition with errors; the whole one before it is probed.
        skips: &["8:15: skipped cut: does not parse cleanly (a syntax error from 8:10 on; the block opened at 8:43"],
        probes: 2,
        valid: false,
        ibuffer: false,
        ..REWRITTEN
    },
    Expect { file: "types.cl", probes: 5, watch: Some("out[0]"), ..REWRITTEN },
    Expect { file: "vectors.cl", probes: 4, watch: Some("out[0]"), ..REWRITTEN },
];

fn hard_dir() -> PathBuf {
    repo().join("tests/opencl/hard")
}

fn inputs() -> Vec<Input> {
    let mut notes = Vec::new();
    let found = discover(&[hard_dir()], &[], &mut notes).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    found
}

fn rewrite_one(input: &Input) -> Outcome {
    let opts = RewriteOptions {
        kinds: Kinds::parse(PROBES).unwrap(),
        select: SelectOptions::default(),
        target: Default::default(),
    };
    rewrite(std::slice::from_ref(input), &opts).unwrap()
}

/// Runs `cmd`; a tool that is not installed fails the test, saying what to install.
fn run(cmd: &mut Command) -> Output {
    let tool = cmd.get_program().to_string_lossy().into_owned();
    cmd.output().unwrap_or_else(|e| panic!("cannot run {tool}: {e}; install it (apt-get install {tool}) and run again"))
}

/// clang's OpenCL C 1.2 syntax check with the Intel channel test header; Intel attributes and
/// loop pragmas are unknown to clang, the other warnings are errors.
fn clang_cl(file: &Path, defines: &[String]) -> Output {
    let lib = repo().join("opencl-lib");
    run(Command::new("clang")
        .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-Wall", "-Werror"])
        .args(["-Wno-unknown-attributes", "-Wno-unknown-pragmas", "-Wno-ignored-pragmas"])
        .args(defines)
        .arg("-include")
        .arg(lib.join("tb/intel_channels_check.h"))
        .arg("-I")
        .arg(&lib)
        .arg(file))
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

#[test]
fn every_file_has_an_expectation_and_keeps_its_bytes() {
    let files: Vec<String> = inputs().into_iter().map(|i| i.rel).collect();
    let listed: Vec<&str> = EXPECT.iter().map(|e| e.file).collect();
    assert_eq!(files, listed, "tests/opencl/hard and EXPECT differ (EXPECT is sorted by file name)");
    let bytes = |f: &str| std::fs::read(hard_dir().join(f)).unwrap();
    let crlf = bytes("crlf.cl");
    assert!(crlf.windows(2).filter(|w| w == b"\r\n").count() >= 10, "crlf.cl must keep its \\r\\n bytes");
    assert!(!crlf.iter().enumerate().any(|(i, &b)| b == b'\n' && (i == 0 || crlf[i - 1] != b'\r')), "bare \\n");
    assert!(bytes("bom.cl").starts_with(b"\xef\xbb\xbf"), "bom.cl lost its BOM");
    assert!(bytes("empty.cl").is_empty());
    assert!(std::str::from_utf8(&bytes("not_utf8.cl")).is_err());
    assert!(bytes("truncated.cl").ends_with(b"a[i] = "), "truncated.cl must stay cut off");
}

#[test]
fn hard_opencl_inputs_rewrite_strip_back_refuse_twice_and_pass_clang() {
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for input in inputs() {
        let e = EXPECT.iter().find(|e| e.file == input.rel).expect("listed");
        let ctx = &input.rel;
        let out = rewrite_one(&input);

        if e.valid {
            let o = clang_cl(&input.path, &[]);
            if !o.status.success() {
                failures.push(format!("{ctx}: the input does not pass clang (fix the corpus):\n{}", text(&o)));
            }
        }
        if let Some(error) = e.error {
            match out.errors.as_slice() {
                [err] if err.to_string().contains(error) => {}
                other => failures.push(format!("{ctx}: expected the error `{error}`, got {other:?}")),
            }
            assert!(out.files.is_empty(), "{ctx}: a refused file has no output");
            continue;
        }
        assert!(out.errors.is_empty(), "{ctx}: {:?}", out.errors);
        let file = &out.files[0];

        let skips: Vec<String> = out
            .skipped
            .iter()
            .map(|(_, s)| format!("{}:{}: skipped {}: {}", s.line, s.col, s.function, s.reason))
            .collect();
        if skips.len() != e.skips.len() || !skips.iter().zip(e.skips).all(|(got, want)| got.starts_with(want)) {
            failures.push(format!("{ctx}: skips\n  got  {skips:?}\n  want {:?}", e.skips));
        }
        let warnings: Vec<&String> = out.warnings.iter().collect();
        let matches = |w: &String, want: &str| w.contains(&format!("{ctx}{want}"));
        if warnings.len() != e.warnings.len() || !warnings.iter().zip(e.warnings).all(|(g, w)| matches(g, w)) {
            failures.push(format!("{ctx}: warnings\n  got  {warnings:?}\n  want {:?}", e.warnings));
        }
        if out.manifest.probes.len() != e.probes {
            failures.push(format!("{ctx}: {} probes, expected {}", out.manifest.probes.len(), e.probes));
        }
        if strip(&file.output).as_deref() != Ok(file.source.text.as_str()) {
            failures.push(format!("{ctx}: strip(rewrite(x)) != x"));
        }
        if e.probes == 0 {
            continue;
        }

        // Never doubled: the output is refused.
        let written = work.path().join(&input.rel);
        std::fs::write(&written, &file.output).unwrap();
        let twice = rewrite_one(&Input { path: written.clone(), rel: input.rel.clone() });
        match twice.errors.as_slice() {
            [err] if err.kind == ErrorKind::AlreadyInstrumented && err.to_string().contains("hlsinstr strip") => {}
            other => failures.push(format!("{ctx}: second rewrite not refused: {other:?}")),
        }

        if e.valid {
            let o = clang_cl(&written, &[]);
            if !o.status.success() {
                failures.push(format!("{ctx}: the rewritten file fails clang (default mode):\n{}", text(&o)));
            }
        }
        if e.ibuffer {
            let defines = ["-DHLSINSTR_OPENCL_IBUFFER".to_string(), format!("-DHLSINSTR_NUM_IBUFFERS={}", e.probes)];
            let o = clang_cl(&written, &defines);
            if !o.status.success() {
                failures.push(format!("{ctx}: the rewritten file fails clang (iBuffer mode):\n{}", text(&o)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The clang check above can fail: a probe macro used wrongly in the rewritten text is caught.
#[test]
fn the_clang_check_catches_a_broken_rewrite() {
    let input = Input { path: hard_dir().join("channels.cl"), rel: "channels.cl".into() };
    let out = rewrite_one(&input);
    let broken = out.files[0].output.replacen("HLSINSTR_LOOP_ITER(", "HLSINSTR_LOOP_ITER(1, ", 1);
    let work = tempfile::tempdir().unwrap();
    let path = work.path().join("channels.cl");
    std::fs::write(&path, broken).unwrap();
    let defines = ["-DHLSINSTR_OPENCL_IBUFFER".to_string(), "-DHLSINSTR_NUM_IBUFFERS=9".to_string()];
    assert!(!clang_cl(&path, &defines).status.success());
}

/// OpenCL C is C: `cpp_keywords.cl` uses `new`, `class`, `this`, `delete`, `operator`,
/// `template`, `typename`, ... as names. Parsed as C++ (as `.cl` files were before), the file has
/// syntax errors and both of its functions would be skipped; parsed as C it has none.
#[test]
fn cpp_keywords_are_c_identifiers_the_c_grammar_reads() {
    let src = std::fs::read_to_string(hard_dir().join("cpp_keywords.cl")).unwrap();
    let blanked = hlsinstr::opencl::blank(&src).text;
    let c = parse(Lang::OpenCl, &blanked, None);
    let cpp = parse(Lang::Cpp, &blanked, None);
    assert_eq!(count_errors(c.root_node()), 0);
    assert!(count_errors(cpp.root_node()) > 0);
    let names = |tree| {
        let m = model::build(tree, &blanked);
        let ok: Vec<String> = m.functions.iter().map(|f| f.name.clone()).collect();
        let skipped: Vec<String> = m.skipped.iter().map(|s| s.function.clone()).collect();
        (ok, skipped)
    };
    assert_eq!(names(&c), (vec!["delete".to_string(), "rename".to_string()], vec![]));
    let (ok, _) = names(&cpp);
    assert!(ok.is_empty(), "tree-sitter-cpp misreads every function here: {ok:?}");
    // And the rewrite, which parses `.cl` as C, probes both functions and both loops' loop.
    let out = rewrite_one(&Input { path: hard_dir().join("cpp_keywords.cl"), rel: "cpp_keywords.cl".into() });
    let probed: Vec<&str> = out.manifest.probes.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(probed.len(), 3, "{probed:?}");
    assert!(probed.contains(&"delete") && probed.contains(&"rename"), "{probed:?}");
}

/// Through the binary, the whole directory at once: exit 1 for the non-UTF-8 file (nothing is
/// written), every skip on stderr in `file:line:col: skipped <function>: <reason>` form, no panic.
#[test]
fn the_cli_reports_every_skip_and_the_bad_file_without_a_panic() {
    let work = tempfile::tempdir().unwrap();
    let out = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
        .args(["rewrite", "--probes", PROBES, "--out"])
        .arg(work.path().join("out"))
        .arg(hard_dir()));
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(err.contains("not_utf8.cl:1:29: not valid UTF-8"), "{err}");
    let skip_lines: Vec<&str> = err.lines().filter(|l| l.contains(": skipped ")).collect();
    let expected: usize = EXPECT.iter().map(|e| e.skips.len()).sum();
    assert_eq!(skip_lines.len(), expected, "{err}");
    for e in EXPECT {
        for s in e.skips {
            assert!(skip_lines.iter().any(|l| l.starts_with(&format!("{}:{s}", e.file))), "{}:{s} in\n{err}", e.file);
        }
    }
}

/// Watchpoints on the hard inputs (through the binary): the accesses of the watched buffer get
/// sites, the output strips back and passes clang in both modes.
#[test]
fn watchpoints_on_hard_inputs_strip_back_and_pass_clang() {
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for e in EXPECT.iter().filter(|e| e.watch.is_some()) {
        let watch = e.watch.unwrap();
        let out_dir = work.path().join(e.file);
        let o = run(Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["rewrite", "--probes", "modules,loops,watch", "--watch", watch, "--out"])
            .arg(&out_dir)
            .arg(hard_dir().join(e.file)));
        let ctx = format!("{} --watch {watch}", e.file);
        if !matches!(o.status.code(), Some(0 | 3)) || text(&o).contains("panicked") {
            failures.push(format!("{ctx}: {}", text(&o)));
            continue;
        }
        let manifest: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out_dir.join("hlsinstr-manifest.json")).unwrap()).unwrap();
        let probes = manifest["probes"].as_array().unwrap();
        if !probes.iter().any(|p| p["kind"] == "watch") {
            failures.push(format!("{ctx}: no watch site"));
        }
        let written = out_dir.join(e.file);
        let output = std::fs::read_to_string(&written).unwrap();
        let input = std::fs::read_to_string(hard_dir().join(e.file)).unwrap();
        if strip(&output).as_deref() != Ok(input.as_str()) {
            failures.push(format!("{ctx}: strip(rewrite(x)) != x"));
        }
        let ibuffer = ["-DHLSINSTR_OPENCL_IBUFFER".to_string(), format!("-DHLSINSTR_NUM_IBUFFERS={}", probes.len())];
        for defines in [&[][..], &ibuffer[..]] {
            let o = clang_cl(&written, defines);
            if !o.status.success() {
                failures.push(format!("{ctx}: clang {defines:?}:\n{}", text(&o)));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The include line follows the file's conventions: after the BOM, with the file's line ending.
#[test]
fn the_include_line_keeps_the_bom_first_and_the_crlf_line_endings() {
    let bom = rewrite_one(&Input { path: hard_dir().join("bom.cl"), rel: "bom.cl".into() });
    assert!(bom.files[0].output.starts_with("\u{feff}#include \"hlsinstr_probe.cl\" // hlsinstr\n"));
    let crlf = rewrite_one(&Input { path: hard_dir().join("crlf.cl"), rel: "crlf.cl".into() });
    let out = crlf.files[0].output.as_bytes();
    assert!(out.starts_with(b"#include \"hlsinstr_probe.cl\" // hlsinstr\r\n"));
    assert!(!out.iter().enumerate().any(|(i, &b)| b == b'\n' && (i == 0 || out[i - 1] != b'\r')), "bare \\n");
}
