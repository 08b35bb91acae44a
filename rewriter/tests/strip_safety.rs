//! `strip` never changes meaning silently. For every kind of marker a rewrite emits (block
//! braces, include lines, return wrappers, unwind labels, m_axi and watch wrappers, stall
//! snapshots, the in-FPGA build's parameters), taken from the golden outputs: strip of the
//! unmodified output is exact, and each hand edit inside or across markers (a statement added
//! in a block, a marker brace made plain, code in a probe's arguments, an edited include line, an
//! unknown `HLSINSTR_` name, a stray marker comment) is refused with its position, or with
//! `--force` kept in place. Regression tests for issue 18: "a statement added inside
//! `{/*hlsinstr*/ ... }/*hlsinstr*/` is moved out of the loop body (exit 0)" and "removing one
//! marker gives uncompilable output (exit 0)".

use hlsinstr::parse::{count_errors, parse, Lang};
use hlsinstr::source::literal_ranges;
use hlsinstr::strip::{strip, strip_with, StripOptions};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::repo;

const OPEN: &str = "{/*hlsinstr*/";
const CLOSE: &str = "}/*hlsinstr*/";
const FORCE: StripOptions = StripOptions { force: true };

/// A braced `HLSINSTR_UNWIND`: the label is the body of an `if`, reached by a goto from inside
/// probed loops (no golden case has this form).
const UNWIND: &str = "int g(int *a, int n) {\n  int s = 0;\n  for (int i = 0; i < n; i++) {\n    for (int j = 0; j < n; j++)\n      if (a[j] < 0) goto out;\n    s++;\n  }\n  if (n > 0)\n  out:\n    s += 1;\n  return s;\n}\n";

/// `(name, instrumented text)`: every golden output, and the braced unwind label.
fn outputs() -> Vec<(String, String)> {
    let mut v = Vec::new();
    let golden = repo().join("tests/golden");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&golden).unwrap().flatten().map(|e| e.path()).collect();
    dirs.sort();
    for d in dirs {
        for name in ["expected.cpp", "expected.cl"] {
            if let Ok(t) = std::fs::read_to_string(d.join(name)) {
                v.push((format!("{}/{name}", d.file_name().unwrap().to_string_lossy()), t));
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("u.cpp"), UNWIND).unwrap();
    let o = hlsinstr(&["rewrite", "u.cpp", "--probes", "modules,loops", "--out", "o"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(dir.path().join("o/u.cpp")).unwrap();
    assert!(text.contains("{/*hlsinstr*/ out: HLSINSTR_UNWIND(0, 0);"), "the braced unwind form:\n{text}");
    v.push(("unwind.cpp".into(), text));
    v
}

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Offsets of `pat` outside string and character literals.
fn find_all(text: &str, pat: &str) -> Vec<usize> {
    let lits = literal_ranges(text);
    text.match_indices(pat).map(|(i, _)| i).filter(|&i| !lits.iter().any(|r| r.contains(&i))).collect()
}

fn lang(name: &str) -> Lang {
    if name.ends_with(".cl") {
        Lang::OpenCl
    } else {
        Lang::Cpp
    }
}

fn errors(name: &str, text: &str) -> usize {
    let text = if name.ends_with(".cl") { hlsinstr::opencl::blank(text).text } else { text.to_string() };
    count_errors(parse(lang(name), &text, None).root_node())
}

fn balance(text: &str) -> i64 {
    text.matches('{').count() as i64 - text.matches('}').count() as i64
}

/// `strip` refuses `tampered` with `expect` in the message, at an offset inside the text;
/// `--force` strips it with that note and a result that parses no worse than the original.
fn refused_and_forced(name: &str, what: &str, tampered: &str, original: &str, expect: &str) -> String {
    let e = strip(tampered).expect_err(&format!("{name}: {what}: strip must refuse"));
    assert!(e.message.contains(expect), "{name}: {what}: {e}");
    assert!(e.offset < tampered.len(), "{name}: {what}: the position is in the file");
    let forced = strip_with(tampered, &FORCE).unwrap_or_else(|e| panic!("{name}: {what}: --force: {e}"));
    assert!(forced.kept.iter().any(|k| k.message.contains(expect)), "{name}: {what}: {:?}", forced.kept);
    assert!(
        errors(name, &forced.text) <= errors(name, original),
        "{name}: {what}: the forced output parses worse:\n{}",
        forced.text
    );
    forced.text
}

#[test]
fn unmodified_rewrites_strip_exactly_with_nothing_kept() {
    for (name, text) in outputs() {
        let s = strip_with(&text, &StripOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(s.kept.is_empty(), "{name}");
        assert_eq!(strip_with(&text, &FORCE).unwrap(), s, "{name}: --force changes nothing on an unmodified rewrite");
    }
}

#[test]
fn code_added_inside_a_block_is_refused_or_kept_inside() {
    let mut blocks = 0;
    for (name, text) in outputs() {
        let original = strip(&text).unwrap();
        for c in find_all(&text, CLOSE) {
            let tampered = format!("{}hlsinstr_user_added(); {}", &text[..c], &text[c..]);
            let out = refused_and_forced(&name, "a statement added", &tampered, &original, "holds 2 statements");
            assert!(out.contains("hlsinstr_user_added(); }"), "{name}: kept inside its block:\n{out}");
            assert_eq!(balance(&out), balance(&original), "{name}");
            blocks += 1;
        }
        // The braced statement removed: nothing left for the loop or branch.
        for o in find_all(&text, OPEN) {
            let Some(c) =
                find_all(&text, CLOSE).into_iter().find(|&c| c > o && strip(&text[o..c + CLOSE.len()]).is_ok())
            else {
                continue;
            };
            let body = strip(&text[o + OPEN.len()..c]).unwrap();
            if body.trim().ends_with(';') && !body.contains('{') && !body.contains(':') {
                let tampered =
                    format!("{}{}", &text[..o + OPEN.len()], &text[o + OPEN.len()..].replacen(body.trim(), "", 1));
                if strip(&tampered).is_err() {
                    let e = strip(&tampered).unwrap_err();
                    assert!(
                        e.message.contains("holds no statement") || e.message.contains("not probe text"),
                        "{name}: {e}"
                    );
                }
            }
        }
    }
    assert!(blocks > 40, "only {blocks} blocks");
}

#[test]
fn a_marker_brace_made_plain_is_refused_or_kept_balanced() {
    let mut markers = 0;
    for (name, text) in outputs() {
        let original = strip(&text).unwrap();
        for at in find_all(&text, OPEN).into_iter().chain(find_all(&text, CLOSE)) {
            let tampered = format!("{}{}", &text[..at + 1], &text[at + OPEN.len()..]);
            let out = refused_and_forced(&name, "a marker made plain", &tampered, &original, "pairs with a plain");
            assert_eq!(balance(&out), balance(&original), "{name}: braces stay balanced:\n{out}");
            markers += 1;
        }
        // A brace and its comment both gone: the partner is alone.
        if let Some(&c) = find_all(&text, CLOSE).first() {
            let tampered = format!("{}{}", &text[..c], &text[c + CLOSE.len()..]);
            let e = strip(&tampered).unwrap_err();
            assert!(e.message.contains("has no partner") || e.message.contains("pairs with a plain"), "{name}: {e}");
        }
        // Only the comment moved away from its brace.
        if let Some(&o) = find_all(&text, OPEN).first() {
            let tampered = format!("{}{} /*hlsinstr*/{}", &text[..o], "{", &text[o + OPEN.len()..]);
            assert!(strip(&tampered).is_err(), "{name}");
        }
    }
    assert!(markers > 80, "only {markers} markers");
}

/// Every probe name of the golden outputs, with the offset of each call.
fn probe_calls(text: &str) -> Vec<(usize, String)> {
    find_all(text, "HLSINSTR_")
        .into_iter()
        .filter(|&i| i == 0 || !text.as_bytes()[i - 1].is_ascii_alphanumeric() && text.as_bytes()[i - 1] != b'_')
        .map(|i| {
            let n = text[i..].bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
            (i, text[i..i + n].to_string())
        })
        .collect()
}

#[test]
fn code_in_a_probes_arguments_is_refused_or_kept() {
    let mut seen = BTreeSet::new();
    for (name, text) in outputs() {
        let original = strip(&text).unwrap();
        for (at, probe) in probe_calls(&text) {
            seen.insert(probe.clone());
            if matches!(
                probe.as_str(),
                "HLSINSTR_P" | "HLSINSTR_PROBE" | "HLSINSTR_TB_CALL" | "HLSINSTR_TRACE" | "HLSINSTR_TR"
            ) {
                // The in-FPGA build's parameters (probe FIFO, trace FIFO), argument and
                // testbench call, not calls: every golden's exact strip round trip covers them.
                continue;
            }
            let open = at + probe.len();
            assert_eq!(&text[open..open + 1], "(", "{name}: {probe}");
            let tampered = format!("{}hlsinstr_user() + {}", &text[..open + 1], &text[open + 1..]);
            let out = refused_and_forced(&name, &probe, &tampered, &original, "not probe text");
            assert!(out.contains("hlsinstr_user() + "), "{name}: {probe}: kept");
        }
    }
    for kind in [
        "HLSINSTR_FUNC_BEGIN",
        "HLSINSTR_FUNC_END",
        "HLSINSTR_LOOP_BEGIN",
        "HLSINSTR_LOOP_ITER",
        "HLSINSTR_LOOP_END",
        "HLSINSTR_LEAF_BEGIN",
        "HLSINSTR_LEAF_END",
        "HLSINSTR_LEAF_PARENT_BEGIN",
        "HLSINSTR_LEAF_PARENT_END",
        "HLSINSTR_UNWIND",
        "HLSINSTR_RETURN",
        "HLSINSTR_RETURN_V",
        "HLSINSTR_RETURN_VOID",
        "HLSINSTR_MAXI_PORTS",
        "HLSINSTR_MAXI_R",
        "HLSINSTR_MAXI_W",
        "HLSINSTR_MAXI_RW",
        "HLSINSTR_MAXI_RN",
        "HLSINSTR_MAXI_WN",
        "HLSINSTR_WATCH_CFG",
        "HLSINSTR_WATCH_CFG_BOUNDS",
        "HLSINSTR_WATCH_DECL",
        "HLSINSTR_WATCH_POST",
        "HLSINSTR_WATCH_SITE",
        "HLSINSTR_WATCH_V",
        "HLSINSTR_WATCH_R",
        "HLSINSTR_WATCH_RW",
        "HLSINSTR_WATCH_PW",
        "HLSINSTR_SNAP",
        "HLSINSTR_P",
        "HLSINSTR_PROBE",
        "HLSINSTR_TB_CALL",
    ] {
        assert!(seen.contains(kind), "no golden output has {kind}: the test would not see it");
    }
}

#[test]
fn in_fpga_parameters_and_arguments_must_keep_their_ids() {
    let text = std::fs::read_to_string(repo().join("tests/golden/vitis_plumbing/expected.cpp")).unwrap();
    let p = find_all(&text, "HLSINSTR_P(")[0];
    let e = strip(&format!("{}HLSINSTR_P(x){}", &text[..p], &text[p + "HLSINSTR_P(0)".len()..])).unwrap_err();
    assert!(e.message.contains("without its id"), "{e}");
    let q = find_all(&text, "hlsinstr_p0")[0];
    let e = strip(&format!("{}hlsinstr_p{}", &text[..q], &text[q + "hlsinstr_p0".len()..])).unwrap_err();
    assert!(e.message.contains("without its id"), "{e}");
}

#[test]
fn include_lines_moved_are_removed_and_edited_ones_refused() {
    let mut kinds = BTreeSet::new();
    for (name, text) in outputs() {
        let original = strip(&text).unwrap();
        let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
        let mut at = bom;
        while text[at..].starts_with("#include \"hlsinstr") {
            let end = at + text[at..].find('\n').unwrap() + 1;
            let line = &text[at..end];
            kinds.insert(line.trim_end().to_string());
            // Moved to the start of the last line: still removed, exactly.
            let rest = format!("{}{}", &text[..at], &text[end..]);
            let last = rest.trim_end_matches('\n').rfind('\n').map_or(0, |i| i + 1);
            let moved = format!("{}{line}{}", &rest[..last], &rest[last..]);
            assert_eq!(strip(&moved).unwrap(), original, "{name}: moved include line");
            // Its tag removed: not ours for sure any more; refused, kept with --force.
            let edited = text.replacen(line, &line.replace(" // hlsinstr", ""), 1);
            let e = strip(&edited).unwrap_err();
            assert!(e.message.contains("include line was edited"), "{name}: {e}");
            let forced = strip_with(&edited, &FORCE).unwrap();
            assert_eq!(forced.kept.len(), 1, "{name}");
            at = end;
        }
    }
    assert_eq!(kinds.len(), 4, "every include line a rewrite writes: {kinds:?}");
}

#[test]
fn unknown_probe_names_and_stray_marker_comments_are_refused() {
    for (name, text) in outputs() {
        // A function's first probe: its module probe, or its trace entry in a branches-only build.
        let b = ["HLSINSTR_FUNC_BEGIN(", "HLSINSTR_BR_FUNC("]
            .iter()
            .find_map(|p| find_all(&text, p).first().copied())
            .unwrap_or_else(|| panic!("{name}: no function probe"));
        let tampered = format!("{}HLSINSTR_USER_THING(1); {}", &text[..b], &text[b..]);
        let e = strip(&tampered).unwrap_err();
        assert!(e.message.contains("`HLSINSTR_USER_THING` is not a probe hlsinstr inserts"), "{name}: {e}");
        assert_eq!(e.offset, b, "{name}");
        let forced = strip_with(&tampered, &FORCE).unwrap();
        assert!(forced.text.contains("HLSINSTR_USER_THING(1);"), "{name}: kept");

        let tampered = format!("{}/*hlsinstr*/ {}", &text[..b], &text[b..]);
        let e = strip(&tampered).unwrap_err();
        assert!(e.message.contains("marker without its brace"), "{name}: {e}");
    }
}

fn kernel_tree() -> (tempfile::TempDir, String) {
    let t = tempfile::tempdir().unwrap();
    let src = "void f(int *a, int n) {\n  for (int i = 0; i < n; i++)\n    a[i] = 0;\n  n++;\n}\n";
    std::fs::write(t.path().join("k.cpp"), src).unwrap();
    let o = hlsinstr(&["rewrite", "k.cpp", "--probes", "modules,loops", "--out", "i"], t.path());
    assert!(o.status.success(), "{}", stderr(&o));
    (t, src.to_string())
}

#[test]
fn a_statement_added_inside_a_loop_block_is_not_moved_out_of_the_loop() {
    let (t, _) = kernel_tree();
    let i = t.path().join("i/k.cpp");
    let text = std::fs::read_to_string(&i).unwrap();
    assert!(text.contains("{/*hlsinstr*/ HLSINSTR_LOOP_ITER(1); a[i] = 0; }/*hlsinstr*/"), "{text}");
    std::fs::write(&i, text.replace("a[i] = 0; }", "a[i] = 0; a[i] += 1; }")).unwrap();
    let o = hlsinstr(&["strip", "i", "--out", "r"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "i/k.cpp:4:5: cannot strip: the block `{/*hlsinstr*/ … }/*hlsinstr*/` (to 4:63) holds 2 statements"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!t.path().join("r").exists(), "nothing written");
    let o = hlsinstr(&["strip", "i", "--out", "r", "--force"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("i/k.cpp:4:5: --force: kept: the block"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(t.path().join("r/k.cpp")).unwrap(),
        "void f(int *a, int n) {\n  for (int i = 0; i < n; i++)\n    { a[i] = 0; a[i] += 1; }\n  n++;\n}\n",
        "both statements stay in the loop"
    );
}

#[test]
fn one_marker_removed_is_refused_not_restored_uncompilable() {
    let (t, _) = kernel_tree();
    let i = t.path().join("i/k.cpp");
    let text = std::fs::read_to_string(&i).unwrap();
    std::fs::write(&i, text.replace("}/*hlsinstr*/ HLSINSTR_LEAF_END", "} HLSINSTR_LEAF_END")).unwrap();
    let o = hlsinstr(&["strip", "i", "--in-place"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("i/k.cpp:4:5: cannot strip: `{/*hlsinstr*/` pairs with a plain `}` at 4:52"),
        "{}",
        stderr(&o)
    );
    assert!(std::fs::read_to_string(&i).unwrap().contains("HLSINSTR_LOOP_ITER"), "nothing written");
    let o = hlsinstr(&["strip", "i", "--in-place", "--force"], t.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = std::fs::read_to_string(&i).unwrap();
    assert_eq!(out, "void f(int *a, int n) {\n  for (int i = 0; i < n; i++)\n    { a[i] = 0; }\n  n++;\n}\n");
}
