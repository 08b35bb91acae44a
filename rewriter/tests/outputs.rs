//! All-or-nothing outputs of `rewrite` and `strip`: staged beside `--out` and put in place only
//! when every file succeeded; a failed run leaves a previous `--out` as it was; `--out` holding
//! an input is refused; modes are kept; `--in-place` refuses read-only files; a lock refuses a
//! second run into the same `--out`. Regression tests named after what broke (issue 18).

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::files_below;

const KERNEL: &str = "int add(int a, int b) {\n  return a + b;\n}\n\nvoid loop(int *a, int n) {\n  for (int i = 0; i < n; i++)\n    a[i] = add(a[i], 1);\n}\n";
const OTHER: &str = "int twice(int x) {\n  return 2 * x;\n}\n";

fn hlsinstr(args: &[&str], cwd: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hlsinstr")).args(args).current_dir(cwd).output().expect("run hlsinstr")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for (p, c) in files {
        let path = t.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    }
    t
}

/// Every file below `dir` with its bytes (and, on Unix, its mode).
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>, u32)> {
    files_below(dir)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let bytes = std::fs::read(&p).unwrap();
            (rel, bytes, mode(&p))
        })
        .collect()
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(not(unix))]
fn mode(_: &Path) -> u32 {
    0
}

#[cfg(unix)]
fn chmod(p: &Path, m: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

fn no_stage_left(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".hlsinstr-"))
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "staging left behind: {left:?}");
}

#[test]
fn a_refused_rewrite_leaves_a_previous_out_untouched() {
    let t = tree(&[("src/k.cpp", KERNEL)]);
    assert!(hlsinstr(&["rewrite", "src", "--probes", "modules,loops", "--out", "out"], t.path()).status.success());
    let before = snapshot(&t.path().join("out"));
    assert!(before.iter().any(|(r, b, _)| r == "hlsinstr-manifest.json" && b.len() > 100));
    // Rewriting the instrumented copy is refused (exit 1): it used to replace the manifest of
    // `out` with an empty one.
    assert!(hlsinstr(&["rewrite", "src", "--out", "instr"], t.path()).status.success());
    let o = hlsinstr(&["rewrite", "instr", "--out", "out"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("already instrumented"), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing written: 1 of 1 input files failed (instr/k.cpp)"), "{}", stderr(&o));
    assert_eq!(snapshot(&t.path().join("out")), before, "out is as it was");
    no_stage_left(t.path());
}

#[test]
fn when_one_input_file_fails_nothing_is_written() {
    let t = tree(&[("src/a.cpp", KERNEL), ("src/b.cpp", OTHER)]);
    // b.cpp is already instrumented: a.cpp must not be written alone.
    let o = hlsinstr(&["rewrite", "src/b.cpp", "--out", "tmp"], t.path());
    assert!(o.status.success());
    std::fs::copy(t.path().join("tmp/b.cpp"), t.path().join("src/b.cpp")).unwrap();
    let o = hlsinstr(&["rewrite", "src", "--out", "out"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("src/b.cpp:1:") && err.contains("already instrumented"), "which file and why: {err}");
    assert!(err.contains("nothing written: 1 of 2 input files failed (src/b.cpp)"), "{err}");
    assert!(!t.path().join("out").exists(), "an --out this run created is removed");
    no_stage_left(t.path());
}

#[test]
fn an_out_that_is_or_contains_an_input_is_refused_before_anything_is_written() {
    let t = tree(&[("src/k.cpp", KERNEL)]);
    let before = snapshot(t.path());
    for (args, input) in [
        (&["rewrite", "src", "--out", "src"][..], "src/k.cpp"),
        (&["rewrite", "src/k.cpp", "--out", "."][..], "src/k.cpp"),
        (&["rewrite", "src", "--out", "."][..], "src/k.cpp"),
    ] {
        let o = hlsinstr(args, t.path());
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("holds the input {input}")) && stderr(&o).contains("nothing was written"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("probes in"), "no success line: {}", stderr(&o));
        assert_eq!(snapshot(t.path()), before, "{args:?} wrote something");
    }
    // The same for strip.
    assert!(hlsinstr(&["rewrite", "src", "--out", "instr"], t.path()).status.success());
    let before = snapshot(t.path());
    let o = hlsinstr(&["strip", "instr", "--out", "instr"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds the input instr/k.cpp"), "{}", stderr(&o));
    assert_eq!(snapshot(t.path()), before);
}

#[cfg(unix)]
#[test]
fn outputs_keep_the_mode_of_their_input() {
    let t = tree(&[("src/k.cpp", KERNEL), ("src/run.cpp", OTHER)]);
    chmod(&t.path().join("src/k.cpp"), 0o644);
    chmod(&t.path().join("src/run.cpp"), 0o755);
    assert!(hlsinstr(&["rewrite", "src", "--out", "out"], t.path()).status.success());
    assert_eq!(mode(&t.path().join("out/k.cpp")), 0o644, "was 0600");
    assert_eq!(mode(&t.path().join("out/run.cpp")), 0o755);
    // A new file without an input gets what File::create gives it (0666 less the umask).
    let probe = t.path().join("probe");
    std::fs::File::create(&probe).unwrap();
    assert_eq!(mode(&t.path().join("out/hlsinstr-manifest.json")), mode(&probe));
    assert!(hlsinstr(&["strip", "out", "--out", "restored"], t.path()).status.success());
    assert_eq!(mode(&t.path().join("restored/k.cpp")), 0o644, "restored files were 0600");
    assert_eq!(mode(&t.path().join("restored/run.cpp")), 0o755);
    // In place, too.
    assert!(hlsinstr(&["rewrite", "src", "--in-place"], t.path()).status.success());
    assert_eq!(mode(&t.path().join("src/run.cpp")), 0o755);
    assert!(hlsinstr(&["strip", "src", "--in-place"], t.path()).status.success());
    assert_eq!(std::fs::read_to_string(t.path().join("src/run.cpp")).unwrap(), OTHER);
    assert_eq!(mode(&t.path().join("src/run.cpp")), 0o755);
}

#[cfg(unix)]
#[test]
fn in_place_refuses_read_only_files_and_changes_nothing() {
    let t = tree(&[("src/a.cpp", KERNEL), ("src/b.cpp", OTHER)]);
    chmod(&t.path().join("src/b.cpp"), 0o444);
    let before = snapshot(t.path());
    let o = hlsinstr(&["rewrite", "src", "--in-place"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("src/b.cpp: is read-only; --in-place does not replace read-only files"),
        "{}",
        stderr(&o)
    );
    assert_eq!(snapshot(t.path()), before, "a.cpp is not rewritten alone, no manifest");
    no_stage_left(&t.path().join("src"));
    // strip --in-place likewise.
    chmod(&t.path().join("src/b.cpp"), 0o644);
    assert!(hlsinstr(&["rewrite", "src", "--in-place"], t.path()).status.success());
    chmod(&t.path().join("src/a.cpp"), 0o444);
    let before = snapshot(t.path());
    let o = hlsinstr(&["strip", "src", "--in-place"], t.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("src/a.cpp: is read-only"), "{}", stderr(&o));
    assert_eq!(snapshot(t.path()), before);
}

#[test]
fn a_second_run_into_a_locked_out_is_refused() {
    let t = tree(&[("src/k.cpp", KERNEL)]);
    assert!(hlsinstr(&["rewrite", "src", "--out", "out"], t.path()).status.success());
    assert!(!t.path().join("out/.hlsinstr.lock").exists(), "the lock goes at the end");
    // A run in progress (this test process stands for it) holds the lock.
    let lock = t.path().join("out/.hlsinstr.lock");
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    let before = snapshot(&t.path().join("out"));
    for args in [&["rewrite", "src", "--out", "out"][..], &["strip", "out", "--out", "out2"][..]] {
        let out = args[args.len() - 1];
        std::fs::create_dir_all(t.path().join(out)).unwrap();
        std::fs::write(t.path().join(out).join(".hlsinstr.lock"), format!("{}\n", std::process::id())).unwrap();
        let o = hlsinstr(args, t.path());
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("another hlsinstr run (process {}) is writing", std::process::id())),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    assert_eq!(snapshot(&t.path().join("out")), before, "untouched, and the other run's lock stays");
    // A lock whose process is gone (a killed run) is taken over.
    let mut gone = Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    std::fs::write(&lock, format!("{pid}\n")).unwrap();
    let o = hlsinstr(&["rewrite", "src", "--out", "out"], t.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!lock.exists());
}

#[test]
fn concurrent_runs_into_one_out_never_both_write() {
    // Many files, so that the runs overlap; whatever the timing, a run either wrote its
    // complete tree or was refused with the lock message, and the result is one whole tree.
    let files: Vec<(String, String)> =
        (0..300).map(|i| (format!("src/k{i:03}.cpp"), KERNEL.replace("add", &format!("add{i}")))).collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, c)| (p.as_str(), c.as_str())).collect();
    let t = tree(&refs);
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_hlsinstr"))
            .args(["rewrite", "src", "--probes", "modules,loops", "--out", "out"])
            .current_dir(t.path())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    let outs = [a.wait_with_output().unwrap(), b.wait_with_output().unwrap()];
    for o in &outs {
        assert!(
            o.status.success() || stderr(o).contains("another hlsinstr run"),
            "neither success nor the lock: {}",
            stderr(o)
        );
    }
    assert!(outs.iter().any(|o| o.status.success()));
    assert_eq!(files_below(&t.path().join("out")).len(), 301, "300 files and the manifest");
    no_stage_left(t.path());
}
