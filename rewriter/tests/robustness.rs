//! Robustness: hard but valid inputs (`tests/robustness/*.cpp`, one theme per file; `*.cl` for
//! OpenCL C) and bad ones.
//!
//! For every input file and probe set: the rewrite succeeds with exactly the skips and warnings
//! listed in `EXPECT` (each one a documented limit, not a failure); every probed body still parses
//! cleanly; strip gives the input back byte for byte; rewriting the output is refused; probes sit
//! where they belong (never in a lambda or local class, an end probe on every way out). Through
//! the CLI: `--jobs 1` and `--jobs 4` write identical trees, and the instrumented files compile
//! with `g++ -std=c++17` against `hls-lib/include` in C simulation and synthesis mode, with no
//! more warnings than the originals. Bad inputs (empty, binary, not UTF-8, too big, syntax errors,
//! no C++ at all) each give a clear message and the documented exit code, never a panic.

use hlsinstr::emit::manifest::ProbeEntry;
use hlsinstr::error::ErrorKind;
use hlsinstr::parse::{count_errors, parse, Lang};
use hlsinstr::rewrite::{clean_probed_bodies, rewrite, Outcome, RewriteOptions};
use hlsinstr::select::{Kinds, SelectOptions};
use hlsinstr::source::literal_ranges;
use hlsinstr::strip::strip;
use hlsinstr::walk::{discover, Input};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PROBE_SETS: &[&str] = &["modules", "modules,loops", "modules,loops,timestamps,seq"];

/// When a skip happens: always, or only when loops are probed (a goto to a probed loop's label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum When {
    Always,
    WithLoops,
}
use When::*;

mod common;
use common::{files_below, repo};

struct Expect {
    file: &'static str,
    /// `(function, start of the reason, when)`: every skip of the file, each a documented limit.
    skips: &'static [(&'static str, &'static str, When)],
    /// `line:col: warning: start of the message`: every warning of the file.
    warnings: &'static [&'static str],
    /// Self-contained C++17 (compiled with and without probes).
    compiles: bool,
    /// The input already parses with errors that tree-sitter recovers from differently once the
    /// bodies are probed (`extern "C" {` opened under `#ifdef __cplusplus`): the output may have
    /// more errors than the input, outside every probed body. Elsewhere it may not.
    recovery_may_differ: bool,
}

const CONSTEXPR: &str = "`constexpr` function: a probe would stop it being usable in constant expressions";

const EXPECT: &[Expect] = &[
    Expect { file: "bom.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect { file: "classes.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect {
        file: "comments.cpp",
        skips: &[(
            "labeled_pragma",
            "does not parse cleanly (missing `;` at 63:7; read as one definition up to 66:2)",
            Always,
        )],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect {
        file: "constexpr.cpp",
        skips: &[
            ("square", CONSTEXPR, Always),
            ("factorial", CONSTEXPR, Always),
            ("log2_ceil", CONSTEXPR, Always),
            ("Config::width", CONSTEXPR, Always),
            ("Config::Config", CONSTEXPR, Always),
            ("twice_at_compile_time", "`consteval` function", Always),
        ],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect { file: "crlf.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect {
        file: "empty_functions.cpp",
        skips: &[],
        // `void only_block() { {} }` reads as a declaration with a braced initializer.
        warnings: &["13:1: warning: syntax error at 13:25: read as a declaration"],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect { file: "extern_c.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: true },
    Expect {
        file: "goto.cpp",
        skips: &[
            ("into_loop", "goto inside at 43:14 jumps into a loop; loop probes could not stay balanced", Always),
            ("to_loop_label", "goto top at 57:17 targets the label of a probed loop", WithLoops),
            ("duff", "a `case` jumps into a loop of its `switch` (Duff's device?)", Always),
        ],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect {
        file: "lambdas.cpp",
        skips: &[],
        // A lambda's loops are not probed: said once per lambda that holds one.
        warnings: &[
            "35:16: warning: this lambda holds a loop (at 37:5)",
            "50:27: warning: this lambda holds a loop (at 51:5)",
        ],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect {
        file: "macros.cpp",
        skips: &[
            ("DECLARE_KERNEL", "no return type: probably a function-like macro invocation", Always),
            ("macro_wrapped_loop", "a function definition nested in the body", Always),
            ("macro_body", "does not parse cleanly (missing `;` at 39:43; read as one definition up to 41:2)", Always),
            ("hidden_return", "macro `RETURN_IF_NEG` (defined at 9:9) hides a `return`", Always),
        ],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect { file: "namespaces.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect { file: "odd_formatting.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect {
        file: "opencl_hard.cl",
        skips: &[],
        // An `__attribute__` list left open at the end of the file.
        warnings: &["21:1: warning: syntax error at 21:17"],
        compiles: false,
        recovery_may_differ: false,
    },
    Expect {
        file: "operators.cpp",
        skips: &[
            ("Vec2::operator-", "`return {...}` with a braced initializer cannot be wrapped", Always),
            ("operator\"\"_deg", CONSTEXPR, Always),
        ],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect {
        file: "preproc_conditionals.cpp",
        // Statement-level conditionals are probed around and inside.
        skips: &[],
        // The `#if 0` text swallows the head of `after_if0`.
        warnings: &["59:22: warning: syntax error at 55:1: this block is not read as a function body"],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect { file: "range_for_bindings.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect { file: "raw_strings.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect {
        file: "signatures.cpp",
        skips: &[("guarded_call", "body is a `try_statement`, not a block (function-try-block?)", Always)],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect {
        file: "templates.cpp",
        skips: &[("length", CONSTEXPR, Always)],
        warnings: &[],
        compiles: true,
        recovery_may_differ: false,
    },
    Expect { file: "unbraced.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
    Expect { file: "unicode.cpp", skips: &[], warnings: &[], compiles: true, recovery_may_differ: false },
];

fn robustness_dir() -> PathBuf {
    repo().join("tests/robustness")
}

fn inputs() -> Vec<Input> {
    let mut notes = Vec::new();
    let found = discover(&[robustness_dir()], &[], &mut notes).unwrap();
    assert!(notes.is_empty(), "{notes:?}");
    found
}

fn expect(file: &str) -> &'static Expect {
    EXPECT.iter().find(|e| e.file == file).unwrap_or_else(|| panic!("{file}: add it to EXPECT in this test"))
}

fn options(probes: &str) -> RewriteOptions {
    RewriteOptions {
        kinds: Kinds::parse(probes).unwrap(),
        select: SelectOptions::default(),
        target: Default::default(),
    }
}

fn run(inputs: &[Input], probes: &str) -> Outcome {
    rewrite(inputs, &options(probes)).unwrap()
}

#[test]
fn every_file_has_an_expectation_and_every_expectation_a_file() {
    let files: Vec<String> = inputs().into_iter().map(|i| i.rel).collect();
    let listed: Vec<String> = EXPECT.iter().map(|e| e.file.to_string()).collect();
    assert_eq!(files, listed, "tests/robustness and EXPECT differ (EXPECT is sorted by file name)");
    assert!(files.len() >= 20, "{files:?}");
    let crlf = std::fs::read(robustness_dir().join("crlf.cpp")).unwrap();
    assert!(crlf.windows(2).filter(|w| w == b"\r\n").count() > 20, "crlf.cpp must keep its \\r\\n bytes");
    assert!(
        !crlf.iter().enumerate().any(|(i, &b)| b == b'\n' && (i == 0 || crlf[i - 1] != b'\r')),
        "bare \\n in crlf.cpp"
    );
    assert!(
        std::fs::read(robustness_dir().join("bom.cpp")).unwrap().starts_with(b"\xef\xbb\xbf"),
        "bom.cpp lost its BOM"
    );
}

/// `text` with string and character literals blanked out (same offsets): marker text in a
/// literal is data and must not be counted as a probe.
fn code_only(text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for r in literal_ranges(text) {
        bytes[r].iter_mut().filter(|b| **b != b'\n').for_each(|b| *b = b' ');
    }
    String::from_utf8(bytes).unwrap()
}

fn at(node: tree_sitter::Node) -> String {
    let p = node.start_position();
    format!("{}:{}", p.row + 1, p.column + 1)
}

/// The probe id a call `NAME(id, ...)` carries, when `node` is such a call to one of `names`.
fn probe_call(node: tree_sitter::Node, code: &str, names: &[&str]) -> Option<u32> {
    if node.kind() != "call_expression" {
        return None;
    }
    let function = node.child_by_field_name("function")?;
    if !names.contains(&&code[function.byte_range()]) {
        return None;
    }
    let args = node.child_by_field_name("arguments")?;
    code[args.byte_range()].trim_start_matches('(').split(',').next()?.trim().parse().ok()
}

/// Where the probes are, checked on the instrumented text alone.
fn check_placement(file: &str, lang: Lang, output: &str, probes: &[&ProbeEntry]) -> Vec<String> {
    let code = code_only(output);
    let mut failures = Vec::new();
    let count = |pat: String| code.matches(&pat).count();
    for p in probes {
        let id = p.id;
        let sites: Vec<(String, usize)> = if p.kind == "function" {
            vec![(format!("HLSINSTR_FUNC_BEGIN({id},"), count(format!("HLSINSTR_FUNC_BEGIN({id},")))]
        } else {
            // A leaf loop or leaf parent (probes.md) has its probes at both ends, never two kinds.
            let kinds = ["LOOP", "LEAF", "LEAF_PARENT"];
            let at_begin = |k: &str| count(format!("HLSINSTR_{k}_BEGIN({id},"));
            let kind = kinds.into_iter().find(|k| at_begin(k) > 0).unwrap_or("LOOP");
            for other in kinds.into_iter().filter(|k| *k != kind) {
                if at_begin(other) + count(format!("HLSINSTR_{other}_END({id},")) > 0 {
                    failures.push(format!("{file}: loop {id} has both {kind} and {other} probes"));
                }
            }
            [
                format!("HLSINSTR_{kind}_BEGIN({id},"),
                format!("HLSINSTR_LOOP_ITER({id})"),
                format!("HLSINSTR_{kind}_END({id},"),
            ]
            .into_iter()
            .map(|s| (s.clone(), count(s)))
            .collect()
        };
        for (site, n) in sites {
            if n != 1 {
                failures.push(format!("{file}: `{site}` appears {n} times"));
            }
        }
    }

    let tree = parse(lang, output, None);
    let mut stack = vec![tree.root_node()];
    let mut probed_functions = 0;
    while let Some(node) = stack.pop() {
        stack.extend(node.children(&mut node.walk()));
        if node.kind() != "function_definition" {
            continue;
        }
        let Some(body) = node.child_by_field_name("body") else { continue };
        let body_code = &code[body.byte_range()];
        let fid: Option<u32> = body_code[1..]
            .trim_start()
            .strip_prefix("HLSINSTR_FUNC_BEGIN(")
            .and_then(|r| r.split(',').next())
            .and_then(|id| id.trim().parse().ok());
        let Some(fid) = fid else {
            if body_code.contains("HLSINSTR_") {
                failures
                    .push(format!("{file}:{}: probes in a function without a frame (lambda? local class?)", at(node)));
            }
            continue;
        };
        probed_functions += 1;
        // Every return of the function itself goes through the wrapper with the function's id;
        // lambdas and local classes are other functions and carry no probe at all.
        let mut inner = vec![body];
        while let Some(n) = inner.pop() {
            match n.kind() {
                "lambda_expression" | "class_specifier" | "struct_specifier" | "union_specifier" => {
                    if code[n.byte_range()].contains("HLSINSTR_") {
                        failures.push(format!("{file}:{}: a probe inside a {}", at(n), n.kind()));
                    }
                }
                "return_statement" => {
                    let value = n.named_children(&mut n.walk()).find(|c| c.kind() != "comment");
                    let wrapped = value.and_then(|v| {
                        probe_call(v, &code, &["HLSINSTR_RETURN", "HLSINSTR_RETURN_V", "HLSINSTR_RETURN_VOID"])
                    });
                    if wrapped != Some(fid) {
                        failures.push(format!("{file}:{}: return without the end probe of function {fid}", at(n)));
                    }
                }
                _ => inner.extend(n.children(&mut n.walk())),
            }
        }
        // Where control can fall off the end, the end probe is a statement of the body.
        let statements: Vec<tree_sitter::Node> = body
            .named_children(&mut body.walk())
            .filter(|c| c.kind() != "comment" && !c.kind().starts_with("preproc"))
            .collect();
        let own = |c: &tree_sitter::Node| code[c.byte_range()].starts_with("HLSINSTR_");
        let mut last = statements.iter().rev().find(|c| !own(c)).copied();
        while let Some(l) = last.filter(|l| l.kind() == "labeled_statement") {
            last = l.named_child(l.named_child_count() - 1);
        }
        let ends_flow = last.is_some_and(|l| {
            matches!(l.kind(), "return_statement" | "goto_statement" | "throw_statement")
                || (l.kind() == "expression_statement"
                    && l.named_child(0).is_some_and(|e| e.kind() == "throw_expression"))
        });
        let has_end = statements.iter().any(|s| code[s.byte_range()].starts_with(&format!("HLSINSTR_FUNC_END({fid},")));
        if !ends_flow && !has_end {
            failures.push(format!("{file}:{}: function {fid} can fall off its end without an end probe", at(node)));
        }
    }
    let expected = probes.iter().filter(|p| p.kind == "function").count();
    if probed_functions != expected {
        failures.push(format!("{file}: {probed_functions} bodies start with a frame, the manifest has {expected}"));
    }
    failures
}

#[test]
fn hard_inputs_rewrite_parse_round_trip_and_refuse_a_second_rewrite() {
    let inputs = inputs();
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for probes in PROBE_SETS {
        let with_loops = probes.contains("loops");
        // One file per run, so each outcome is that file's alone.
        for input in &inputs {
            let e = expect(&input.rel);
            let out = run(std::slice::from_ref(input), probes);
            let ctx = format!("{} [{probes}]", input.rel);
            assert!(out.errors.is_empty(), "{ctx}: {:?}", out.errors);
            let file = &out.files[0];
            if file.probes == 0 {
                failures.push(format!("{ctx}: nothing probed"));
                continue;
            }

            let mut skipped: Vec<(String, String)> =
                out.skipped.iter().map(|(_, s)| (s.function.clone(), s.reason.clone())).collect();
            for (function, reason, when) in e.skips {
                if *when == WithLoops && !with_loops {
                    continue;
                }
                match skipped.iter().position(|(f, r)| f == function && r.starts_with(reason)) {
                    Some(i) => {
                        skipped.remove(i);
                    }
                    None => failures.push(format!("{ctx}: expected skip of {function}: {reason}")),
                }
            }
            failures.extend(skipped.iter().map(|(f, r)| format!("{ctx}: unexpected skip of {f}: {r}")));
            let mut warnings = out.warnings.clone();
            for w in e.warnings {
                match warnings.iter().position(|x| x.contains(&format!("{}:{w}", input.rel))) {
                    Some(i) => {
                        warnings.remove(i);
                    }
                    None => failures.push(format!("{ctx}: expected warning {w}")),
                }
            }
            failures.extend(warnings.iter().map(|w| format!("{ctx}: unexpected warning {w}")));

            // OpenCL C is parsed, here as in the rewriter, with its OpenCL-only syntax blanked.
            let parsed = |text: &str| match input.rel.ends_with(".cl") {
                true => hlsinstr::opencl::blank(text).text,
                false => text.to_string(),
            };
            let output = parsed(&file.output);
            let lang = Lang::of_path(&input.path);
            let before = count_errors(parse(lang, &parsed(&file.source.text), None).root_node());
            let tree = parse(lang, &output, None);
            let after = count_errors(tree.root_node());
            if after > before && !e.recovery_may_differ {
                failures.push(format!("{ctx}: output has {after} parse errors, input {before}"));
            }
            let functions = out.manifest.probes.iter().filter(|p| p.kind == "function").count();
            let clean = clean_probed_bodies(tree.root_node(), &output);
            if clean != functions {
                failures.push(format!("{ctx}: {clean} of {functions} probed bodies parse cleanly"));
            }

            if strip(&file.output).as_deref() != Ok(file.source.text.as_str()) {
                failures.push(format!("{ctx}: strip(rewrite(x)) != x"));
            }
            let probes_here: Vec<&ProbeEntry> = out.manifest.probes.iter().collect();
            failures.extend(check_placement(&ctx, lang, &output, &probes_here));

            // Never doubled: the output is refused, with what to do instead.
            let again = work.path().join(format!("{}-{}", probes.replace(',', "-"), input.rel));
            std::fs::write(&again, &file.output).unwrap();
            let twice = run(&[Input { path: again, rel: input.rel.clone() }], probes);
            match twice.errors.as_slice() {
                [err] if err.kind == ErrorKind::AlreadyInstrumented => {
                    let msg = err.to_string();
                    if !msg.contains("already instrumented") || !msg.contains("hlsinstr strip") {
                        failures.push(format!("{ctx}: unclear refusal: {msg}"));
                    }
                }
                other => failures.push(format!("{ctx}: second rewrite not refused: {other:?}")),
            }
            assert!(twice.files.is_empty(), "{ctx}: a refused file has no output");
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Every file below `dir`, relative path → bytes.
fn tree_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files_below(dir)
        .into_iter()
        .map(|p| (p.strip_prefix(dir).unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect()
}

/// `rewrite tests/robustness` into `<work>/<name>`; the run's output.
fn rewrite_all(work: &Path, name: &str, probes: &str, jobs: &str) -> Output {
    let src = robustness_dir();
    let out = work.join(name);
    hlsinstr(
        &["rewrite", src.to_str().unwrap(), "--probes", probes, "--jobs", jobs, "-q", "--out", out.to_str().unwrap()],
        work,
    )
}

#[test]
fn any_thread_count_writes_the_same_tree_and_strip_restores_it() {
    let work = tempfile::tempdir().unwrap();
    for probes in PROBE_SETS {
        let name = probes.replace(',', "-");
        let one = rewrite_all(work.path(), &format!("{name}-j1"), probes, "1");
        let four = rewrite_all(work.path(), &format!("{name}-j4"), probes, "4");
        let err = stderr(&one);
        assert_eq!(one.status.code(), Some(3), "[{probes}] skips exit 3: {err}");
        assert!(!err.contains("panicked"), "{err}");
        assert_eq!(four.status.code(), one.status.code());
        assert_eq!(stderr(&four), err, "[{probes}] diagnostics differ between --jobs 1 and 4");
        let a = tree_bytes(&work.path().join(format!("{name}-j1")));
        let b = tree_bytes(&work.path().join(format!("{name}-j4")));
        // Every file, the manifest, and the host header of the .cl rewrite (opencl_hard.cl).
        assert_eq!(
            a.len(),
            EXPECT.len() + 2,
            "every file, the manifest and hlsinstr_ocl_host.h: {:?}",
            a.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        assert!(a.iter().any(|f| f.0 == "hlsinstr_ocl_host.h"), "no generated hlsinstr_ocl_host.h");
        for ((pa, ba), (pb, bb)) in a.iter().zip(&b) {
            assert_eq!(pa, pb);
            assert!(ba == bb, "[{probes}] {pa} differs between --jobs 1 and 4");
        }
        // Skip lines name file, position, function and reason, like the library reports them.
        let inputs = inputs();
        let lib = run(&inputs, probes);
        for (file, s) in &lib.skipped {
            let line = format!("{file}:{}:{}: skipped {}: {}", s.line, s.col, s.function, s.reason);
            assert!(err.lines().any(|l| l == line), "[{probes}] missing `{line}` in:\n{err}");
        }
        assert_eq!(err.lines().filter(|l| l.contains(": skipped ")).count(), lib.skipped.len(), "{err}");

        let restored = work.path().join(format!("{name}-restored"));
        let o = hlsinstr(
            &["strip", work.path().join(format!("{name}-j1")).to_str().unwrap(), "--out", restored.to_str().unwrap()],
            work.path(),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(!stderr(&o).contains("differs"), "{}", stderr(&o));
        for e in EXPECT {
            let back = std::fs::read(restored.join(e.file)).unwrap();
            assert!(
                back == std::fs::read(robustness_dir().join(e.file)).unwrap(),
                "[{probes}] {} not restored",
                e.file
            );
        }
    }
}

fn warnings(o: &Output) -> usize {
    String::from_utf8_lossy(&o.stderr).matches("warning:").count()
}

fn gxx(file: &Path, extra: &[&str]) -> Output {
    let include = repo().join("hls-lib/include");
    Command::new("g++")
        .args(["-std=c++17", "-fsyntax-only", "-Wall", "-Wextra"])
        .args(extra)
        .arg("-I")
        .arg(&include)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run g++: {e}; install it (apt-get install g++)"))
}

/// `f` over `items` on as many threads as there are cores.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get()).min(16);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

#[test]
fn instrumented_files_compile_in_simulation_and_synthesis() {
    let probe_h = repo().join("hls-lib/include/hlsinstr/probe.h");
    assert!(probe_h.exists(), "{} is missing: the probes cannot be compiled", probe_h.display());
    let files: Vec<&Expect> = EXPECT.iter().filter(|e| e.compiles).collect();
    let base: Vec<Output> = par_map(&files, |e| gxx(&robustness_dir().join(e.file), &[]));
    for (e, o) in files.iter().zip(&base) {
        assert!(o.status.success(), "{}: the original does not compile:\n{}", e.file, stderr(o));
    }
    let work = tempfile::tempdir().unwrap();
    let mut jobs: Vec<(usize, &str, &str)> = Vec::new();
    for probes in PROBE_SETS {
        let o = rewrite_all(work.path(), &probes.replace(',', "-"), probes, "4");
        assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
        for (i, _) in files.iter().enumerate() {
            for mode in ["simulation", "synthesis"] {
                jobs.push((i, probes, mode));
            }
        }
    }
    let failures: Vec<String> = par_map(&jobs, |&(i, probes, mode)| {
        let file = work.path().join(probes.replace(',', "-")).join(files[i].file);
        let extra: &[&str] = if mode == "synthesis" { &["-D__SYNTHESIS__"] } else { &[] };
        let o = gxx(&file, extra);
        let ctx = format!("{} [{probes}] ({mode})", files[i].file);
        if !o.status.success() {
            Some(format!("{ctx}: the instrumented file does not compile:\n{}", stderr(&o)))
        } else if warnings(&o) > warnings(&base[i]) {
            Some(format!("{ctx}: instrumentation adds warnings:\n{}", stderr(&o)))
        } else {
            None
        }
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// About 5 MB of kernels: functions with loops, early returns and gotos, classes with methods.
/// Returns the text and the number of probes a full rewrite must insert.
fn big_source(target: usize) -> (String, usize) {
    use std::fmt::Write;
    let mut text = String::with_capacity(target + 1024);
    let mut probes = 0;
    let mut i = 0;
    while text.len() < target {
        match i % 3 {
            0 => write!(
                text,
                "int f{i}(const int *a, int n) {{\n  int s = 0;\n  for (int j = 0; j < n; j++) {{\n    if (a[j] < 0) return -1;\n    s += a[j] * {k};\n  }}\n  while (s > 1000) s /= 2;\n  return s;\n}}\n\n",
                k = i % 7
            ),
            1 => write!(
                text,
                "void g{i}(int *m, int rows, int cols) {{\n  for (int r = 0; r < rows; r++)\n    for (int c = 0; c < cols; c++) {{\n      if (m[r * cols + c] < 0) goto done;\n      m[r * cols + c] += {i};\n    }}\ndone:\n  m[0] = 0;\n}}\n\n"
            ),
            _ => write!(
                text,
                "struct S{i} {{\n  int v = {i};\n  int get() const {{ return v; }}\n  void set(int x) {{\n    if (x < 0) return;\n    do {{ v += x; }} while (v < 10);\n  }}\n}};\n\n"
            ),
        }
        .unwrap();
        probes += 3;
        i += 1;
    }
    (text, probes)
}

#[test]
fn a_five_megabyte_file_round_trips() {
    let (text, expected) = big_source(5 * 1024 * 1024);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.cpp");
    std::fs::write(&path, &text).unwrap();
    let start = std::time::Instant::now();
    let out = run(&[Input { path, rel: "big.cpp".into() }], "modules,loops,timestamps,seq");
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    assert!(out.skipped.is_empty() && out.warnings.is_empty(), "{:?} {:?}", out.skipped, out.warnings);
    assert_eq!(out.files[0].probes, expected);
    assert_eq!(strip(&out.files[0].output).as_deref(), Ok(text.as_str()));
    // No timing assertion: it finished. The figure is for whoever reads the log.
    eprintln!("5 MB rewrite + strip: {:?}", start.elapsed());
}

/// A temp tree from `(relative path, contents)` pairs.
fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (rel, bytes) in files {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
    dir
}

/// Run, check the exit code and that nothing panicked; the stderr.
fn expect_exit(args: &[&str], cwd: &Path, code: i32) -> String {
    let o = hlsinstr(args, cwd);
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
    err
}

const GOOD: &str =
    "int good(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) s += a[i];\n  return s;\n}\n";

#[test]
fn bad_inputs_give_clear_messages_and_documented_exit_codes() {
    let t = tree(&[
        ("empty/empty.cpp", b""),
        ("nul/nul.cpp", b"int x;\n\x00\x01\x02"),
        ("latin1/latin1.cpp", b"// caf\xe9\nint x;\n"),
        ("comment/c.cpp", b"// calls HLSINSTR_LOOP_ITER by hand\nint f() { return 1; }\n"),
        ("none/notes.txt", b"no C++ here"),
        ("mixed/good.cpp", GOOD.as_bytes()),
        ("mixed/nul.cpp", b"\x00"),
    ]);
    let p = t.path();

    // Empty: copied unchanged, with a note; success.
    let err = expect_exit(&["rewrite", "empty", "--out", "o-empty"], p, 0);
    assert!(err.contains("empty.cpp: empty file, copied unchanged"), "{err}");
    assert_eq!(std::fs::read(p.join("o-empty/empty.cpp")).unwrap(), b"");

    // Binary, not UTF-8, already-instrumented text: the file fails (exit 1), with its position.
    let err = expect_exit(&["rewrite", "nul", "--out", "o-nul"], p, 1);
    assert!(err.contains("nul.cpp:2:1: binary file (NUL byte)"), "{err}");
    assert!(!p.join("o-nul/nul.cpp").exists());
    let err = expect_exit(&["rewrite", "latin1", "--out", "o-latin1"], p, 1);
    assert!(err.contains("latin1.cpp:1:7: not valid UTF-8") && err.contains("iconv"), "{err}");
    let err = expect_exit(&["rewrite", "comment", "--out", "o-comment"], p, 1);
    assert!(err.contains("c.cpp:1:10: already instrumented (found `HLSINSTR_`)"), "{err}");

    // A bad file is reported with the good ones, and then nothing is written: a tree without
    // it would pass for a complete rewrite.
    let err = expect_exit(&["rewrite", "mixed", "--out", "o-mixed"], p, 1);
    assert!(err.contains("nul.cpp:1:1: binary file"), "{err}");
    assert!(err.contains("nothing written: 1 of 2 input files failed (mixed/nul.cpp)"), "{err}");
    assert!(!p.join("o-mixed").exists());

    // No C++ at all: a usage error.
    let err = expect_exit(&["rewrite", "none", "--out", "o-none"], p, 2);
    assert!(err.contains("no C/C++ or OpenCL C (.cl) files found in the inputs"), "{err}");

    // Over the size limit: refused before reading (a sparse file costs no disk).
    let huge = p.join("huge/huge.cpp");
    std::fs::create_dir_all(huge.parent().unwrap()).unwrap();
    std::fs::File::create(&huge).unwrap().set_len(hlsinstr::source::MAX_FILE_BYTES + 1).unwrap();
    let err = expect_exit(&["rewrite", "huge", "--out", "o-huge"], p, 1);
    assert!(err.contains("huge.cpp: file is 64 MiB, over the 64 MiB limit"), "{err}");

    // Strip refuses what it cannot undo, and binary input, with exit 1.
    std::fs::write(p.join("broken-probe.cpp"), "void f() { HLSINSTR_FUNC_BEGIN(0, P, 0; }\n").unwrap();
    let err = expect_exit(&["strip", "broken-probe.cpp", "--out", "o-strip"], p, 1);
    assert!(err.contains("broken-probe.cpp:1:12: cannot strip: unbalanced parentheses"), "{err}");
    let err = expect_exit(&["strip", "nul", "--out", "o-strip-nul"], p, 1);
    assert!(err.contains("binary file"), "{err}");
}

#[test]
fn pathological_nesting_is_reported_not_a_crash() {
    // Deep expressions (generated code) are walked without recursion; absurd loop nests are
    // skipped with a reason instead of overflowing the stack.
    let sum = vec!["x"; 100_000].join(" + ");
    let nest = format!("{}{}", "for (;;) {".repeat(300), "}".repeat(300));
    let src = format!("int wide(int x) {{\n  return {sum};\n}}\n\nvoid deep() {{\n  {nest}\n}}\n");
    let t = tree(&[("deep.cpp", src.as_bytes())]);
    let err = expect_exit(&["rewrite", "deep.cpp", "--probes", "modules,loops", "--out", "o"], t.path(), 3);
    assert!(err.contains("deep.cpp:5:6: skipped deep: loops nested deeper than 256"), "{err}");
    let out = std::fs::read_to_string(t.path().join("o/deep.cpp")).unwrap();
    assert!(out.contains("int wide(int x) { HLSINSTR_FUNC_BEGIN("), "the wide function is probed");
    let o = hlsinstr(&["rewrite", "deep.cpp", "--dump-tree"], t.path());
    assert!(o.status.success() && !stderr(&o).contains("overflow"), "{}", stderr(&o));
}

#[test]
fn a_syntax_error_skips_only_its_function() {
    let src =
        format!("{GOOD}\nint broken(int n) {{\n  int x = ;\n  return n + x;\n}}\n\nint after(int n) {{ return n; }}\n");
    let t = tree(&[("k.cpp", src.as_bytes())]);
    let err = expect_exit(&["rewrite", "k.cpp", "--probes", "modules,loops", "--out", "o"], t.path(), 3);
    assert!(
        err.lines().any(|l| l.starts_with("k.cpp:7:5: skipped broken: does not parse cleanly (syntax error at 8:")),
        "{err}"
    );
    let out = std::fs::read_to_string(t.path().join("o/k.cpp")).unwrap();
    assert!(out.contains("int broken(int n) {\n  int x = ;\n  return n + x;\n}"), "broken function untouched:\n{out}");
    assert!(out.contains("int good(int *a, int n) { HLSINSTR_FUNC_BEGIN("), "{out}");
    assert!(out.contains("int after(int n) { HLSINSTR_FUNC_BEGIN("), "{out}");
    // --strict turns the skip into a failure and writes nothing.
    expect_exit(&["rewrite", "k.cpp", "--strict", "--out", "strict"], t.path(), 1);
    assert!(!t.path().join("strict").exists());
    // The library reports the same, and strips back exactly.
    let o = run(&[Input { path: t.path().join("k.cpp"), rel: "k.cpp".into() }], "modules,loops");
    assert_eq!(o.skipped.len(), 1);
    assert_eq!(strip(&o.files[0].output).as_deref(), Ok(src.as_str()));
}
