//! Every command block in README.md and docs/*.md runs, so the docs cannot drift from the tool.
//!
//! A fenced block's info string says what it is:
//! - `console`: a session. Each `$ ` line (with `\` continuations) runs in a sandbox; the lines
//!   after it are the output shown, and each must appear, in order, in what the command printed
//!   (stdout and stderr together). `...` stands for anything: alone on a line it elides lines,
//!   inside a line it elides part of it. The command must exit 0, or with the code a trailing
//!   `# exit N` comment names.
//! - `sh`: commands to run (one per line, `\` continues, `#` comments), each must exit 0.
//! - `console vendor` / `sh vendor`: needs a vendor tool (Vitis, aoc, a board): not run, and must
//!   name the tool in its first line's comment or in the text.
//! - `sh no-run REASON`: runs elsewhere (e.g. the test command itself, which would run this test).
//! - any other info string (`text`, `cpp`, `json`, `ini`, `tcl`, `verilog`): not a command.
//!
//! A block with no info string is an error: say what it is.
//!
//! Blocks of one page run in order in one sandbox, each from its root: a copy of the repository's examples and
//! libraries, with `hlsinstr` on PATH; `cargo run --release --` stands for `hlsinstr`, `$HLSINSTR` names it (scripts/demo.sh
//! uses it) and `$SHARED` is `../shared`. The
//! `--help` examples of every subcommand run the same way (`Examples:` lines of `--help`).

mod common;

use common::repo;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug)]
struct Block {
    page: String,
    line: usize,
    info: String,
    body: Vec<String>,
}

fn blocks(page: &Path) -> Vec<Block> {
    let text = fs::read_to_string(page).unwrap();
    let name = page.strip_prefix(repo()).unwrap().display().to_string();
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let fence = line.len() - t.len() <= 3 && t.starts_with("```");
        match (&mut open, fence) {
            (None, true) => {
                open = Some(Block { page: name.clone(), line: i + 1, info: t[3..].trim().to_string(), body: vec![] })
            }
            (Some(_), true) => out.push(open.take().unwrap()),
            (Some(b), false) => b.body.push(line.to_string()),
            (None, false) => {}
        }
    }
    assert!(open.is_none(), "{name}: unclosed code block");
    out
}

/// Logical lines: `\` at the end joins the next line.
fn joined(lines: &[String]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut cont = false;
    for (i, l) in lines.iter().enumerate() {
        if cont {
            let last = out.last_mut().unwrap();
            last.1.push(' ');
            last.1.push_str(l.trim());
        } else {
            out.push((i, l.to_string()));
        }
        cont = out.last().is_some_and(|(_, s)| s.ends_with('\\'));
        if cont {
            let last = out.last_mut().unwrap();
            last.1.pop();
        }
    }
    out
}

/// A sandbox: copies of what the commands read, `.cache` (fetched vendor headers) linked.
fn sandbox() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in [
        "examples",
        "hls-lib",
        "opencl-lib",
        "scripts",
        "verilog",
        "tests/c",
        "tests/watch",
        "tests/profile",
        "tests/hw/rtlprobe-mini",
    ] {
        copy_tree(&repo().join(sub), &dir.path().join(sub));
    }
    std::os::unix::fs::symlink(repo().join(".cache"), dir.path().join(".cache")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            fs::copy(&src, &dst).unwrap();
        }
    }
}

struct Shell {
    root: tempfile::TempDir,
    cwd: PathBuf,
    path: String,
}

impl Shell {
    fn new() -> Shell {
        let bin = Path::new(env!("CARGO_BIN_EXE_hlsinstr")).parent().unwrap().to_path_buf();
        let root = sandbox();
        let cwd = root.path().to_path_buf();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
        // Include directories of the vendor headers, as scripts/test.sh fetched them.
        common::hls_include();
        Shell { root, cwd, path }
    }

    /// Run one command; (exit code, stdout+stderr).
    fn run(&mut self, cmd: &str) -> (i32, String) {
        let cmd = cmd.replace("cargo run --release -- ", "hlsinstr ");
        // One stream, as a terminal shows it; `cd` changes the directory of the commands after it.
        let script = format!("exec 2>&1\n{cmd}\nstatus=$?\npwd > \"$HLSINSTR_DOC_PWD\"\nexit $status");
        let pwd_file = self.root.path().join(".doc-pwd");
        let out = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(&self.cwd)
            .env("PATH", &self.path)
            .env("HLSINSTR_DOC_PWD", &pwd_file)
            .env("HLSINSTR", env!("CARGO_BIN_EXE_hlsinstr"))
            .env("SHARED", common::fixtures().parent().unwrap())
            .output()
            .unwrap();
        if let Ok(p) = fs::read_to_string(&pwd_file) {
            self.cwd = PathBuf::from(p.trim());
        }
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        (out.status.code().unwrap_or(-1), text)
    }
}

/// Whether `actual` matches the shown line `shown`, where `...` stands for anything.
fn line_matches(shown: &str, actual: &str) -> bool {
    let parts: Vec<&str> = shown.trim_end().split("...").collect();
    let actual = actual.trim_end();
    if parts.len() == 1 {
        return actual == parts[0];
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() || !actual.ends_with(last) {
        return false;
    }
    let mut rest = &actual[first.len()..actual.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(at) => rest = &rest[at + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The shown lines not found, in order, in the actual output.
fn missing(shown: &[String], actual: &str) -> Vec<String> {
    let actual: Vec<&str> = actual.lines().collect();
    let mut at = 0;
    let mut miss = Vec::new();
    for s in shown {
        if s.trim() == "..." || s.trim().is_empty() {
            continue;
        }
        match actual[at..].iter().position(|a| line_matches(s, a)) {
            Some(p) => at += p + 1,
            None => miss.push(s.clone()),
        }
    }
    miss
}

fn expected_exit(cmd: &str) -> (String, i32) {
    if let Some(at) = cmd.rfind("# exit ") {
        if let Ok(code) = cmd[at + 7..].trim().parse() {
            return (cmd[..at].trim_end().to_string(), code);
        }
    }
    (cmd.to_string(), 0)
}

fn run_console(sh: &mut Shell, b: &Block, failures: &mut Vec<String>) {
    let lines = joined(&b.body);
    let mut i = 0;
    while i < lines.len() {
        let (n, l) = &lines[i];
        let Some(cmd) = l.strip_prefix("$ ") else {
            failures.push(format!("{}:{}: console output before any `$ ` command", b.page, b.line + 1 + n));
            return;
        };
        let mut shown = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].1.starts_with("$ ") {
            shown.push(lines[i].1.clone());
            i += 1;
        }
        let (cmd, want) = expected_exit(cmd);
        let (code, out) = sh.run(&cmd);
        let where_ = format!("{}:{}", b.page, b.line + 1 + n);
        if code != want {
            failures.push(format!("{where_}: `{cmd}` exited {code}, not {want}:\n{}", tail(&out)));
            return;
        }
        let miss = missing(&shown, &out);
        if !miss.is_empty() {
            failures.push(format!(
                "{where_}: `{cmd}` did not print, in order:\n  {}\nit printed:\n{}",
                miss.join("\n  "),
                tail(&out)
            ));
        }
    }
}

fn run_sh(sh: &mut Shell, page: &str, line: usize, body: &[String], failures: &mut Vec<String>) {
    for (n, l) in joined(body) {
        let t = l.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let (cmd, want) = expected_exit(t);
        let (code, out) = sh.run(&cmd);
        if code != want {
            failures.push(format!("{page}:{}: `{cmd}` exited {code}, not {want}:\n{}", line + 1 + n, tail(&out)));
            return;
        }
    }
}

fn tail(out: &str) -> String {
    let lines: Vec<&str> = out.lines().collect();
    lines[lines.len().saturating_sub(25)..].join("\n")
}

const VENDOR_TOOLS: [&str; 8] = ["vitis", "vivado", "aoc", "aocl", "v++", "xrt", "board", "quartus"];

#[test]
fn every_command_block_in_the_docs_runs() {
    // Pages run side by side, each in its own sandbox.
    let results: Vec<(Vec<String>, usize, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> =
            common::doc_pages().into_iter().map(|page| scope.spawn(move || run_page(&page))).collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut failures = Vec::new();
    let (mut ran, mut vendor) = (0, 0);
    for (f, r, v) in results {
        failures.extend(f);
        ran += r;
        vendor += v;
    }
    eprintln!("doc command blocks: {ran} run, {vendor} need a vendor tool");
    assert!(failures.is_empty(), "{} doc command block(s) fail:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// Run the blocks of one page in order; (failures, blocks run, vendor blocks).
fn run_page(page: &Path) -> (Vec<String>, usize, usize) {
    let mut failures = Vec::new();
    let (mut ran, mut vendor) = (0, 0);
    let mut shell: Option<Shell> = None;
    for b in &blocks(page) {
        let mut words = b.info.split_whitespace();
        let lang = words.next().unwrap_or("");
        let flag = words.next().unwrap_or("");
        // Every block starts in the sandbox's root, as the docs' commands run from the repository's.
        if let Some(sh) = shell.as_mut() {
            sh.cwd = sh.root.path().to_path_buf();
        }
        match (lang, flag) {
            ("", _) => failures.push(format!(
                "{}:{}: code block without an info string: mark it `console`, `sh` (run by this test), `sh vendor` (needs a vendor tool) or its language (`text`, `cpp`, ...)",
                b.page, b.line
            )),
            ("console" | "sh", "vendor") => {
                vendor += 1;
                let text = b.body.join("\n").to_lowercase();
                if !VENDOR_TOOLS.iter().any(|t| text.contains(t)) {
                    failures.push(format!("{}:{}: a `vendor` block must name the vendor tool it needs", b.page, b.line));
                }
            }
            ("sh", "no-run") if b.info.split_whitespace().count() < 3 => {
                failures.push(format!("{}:{}: a `no-run` block must say why after the flag", b.page, b.line))
            }
            ("sh", "no-run") => {}
            ("console", "") => {
                ran += 1;
                run_console(shell.get_or_insert_with(Shell::new), b, &mut failures)
            }
            ("sh", "") => {
                ran += 1;
                run_sh(shell.get_or_insert_with(Shell::new), &b.page, b.line, &b.body, &mut failures)
            }
            ("console" | "sh", other) => {
                failures.push(format!("{}:{}: unknown block flag `{other}` (vendor or no-run)", b.page, b.line))
            }
            _ => {}
        }
    }
    (failures, ran, vendor)
}

/// The `Examples:` of every subcommand's `--help`, run in order of the subcommands' listing so
/// that the examples of later ones can use what earlier ones wrote.
#[test]
fn every_help_example_runs() {
    let bin = env!("CARGO_BIN_EXE_hlsinstr");
    let help = Command::new(bin).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let mut subs: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .filter(|s| s != "help")
        .collect();
    // `decode` reads what `emulate --run` writes.
    if let (Some(d), Some(e)) = (subs.iter().position(|s| s == "decode"), subs.iter().position(|s| s == "emulate")) {
        if d < e {
            let decode = subs.remove(d);
            subs.insert(e, decode);
        }
    }
    assert!(subs.len() >= 6, "subcommands from --help: {subs:?}");
    let mut shell = Shell::new();
    let mut failures = Vec::new();
    let mut count = 0;
    for sub in &subs {
        let out = Command::new(bin).args([sub, "--help"]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let examples: Vec<String> = text
            .lines()
            .skip_while(|l| l.trim() != "Examples:")
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| l.trim().to_string())
            .collect();
        if examples.len() < 2 {
            failures.push(format!("`hlsinstr {sub} --help` has {} example(s); give 2-3", examples.len()));
        }
        count += examples.len();
        // The waveform the profile examples read.
        if sub == "profile" {
            let (code, out) = shell.run(
                "iverilog -g2012 -o tiny tests/profile/tiny/tiny_tb.v tests/profile/tiny/solution/syn/verilog/*.v && vvp -n tiny",
            );
            assert_eq!(code, 0, "{out}");
        }
        // Minutes-long examples run in the test they name, not here.
        let (slow, quick): (Vec<String>, Vec<String>) = examples.into_iter().partition(|e| e.contains("# slow: as "));
        for e in &slow {
            let test = e.split("# slow: as ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap_or("");
            if !repo().join("rewriter").join(test).is_file() {
                failures.push(format!("`{e}`: a slow example must name the test file that runs it"));
            }
        }
        run_sh(&mut shell, &format!("hlsinstr {sub} --help"), 0, &quick, &mut failures);
    }
    eprintln!("help examples: {count} run over {} subcommands", subs.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn shown_output_matching() {
    assert!(line_matches("hlsinstr: 9 probes; manifest .../m.json", "hlsinstr: 9 probes; manifest /tmp/x/m.json"));
    assert!(!line_matches("hlsinstr: 9 probes", "hlsinstr: 8 probes"));
    assert!(line_matches("a ... b ... c", "a 1 b 2 c"));
    assert!(!line_matches("a ... b ... c", "a 1 c 2 b"));
    let out = "one\ntwo\nthree\n";
    assert!(missing(&["one".into(), "...".into(), "three".into()], out).is_empty());
    assert_eq!(missing(&["three".into(), "one".into()], out), vec!["one".to_string()]);
}
