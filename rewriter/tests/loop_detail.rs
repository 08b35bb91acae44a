//! Two shortcuts of the rewrite must not change its outcome:
//! - without the `loops` probe kind, the model works out loop details (insertion point, header,
//!   induction variables, perfect-nest link, pragma facts) only in functions that have a loop
//!   marked `#pragma HLSINSTR probe`, the only loops that can then be probed (`model::LoopDetail`);
//! - when what is probed in a file depends on that file alone, files are planned and emitted a
//!   window at a time instead of all after all are analysed (`rewrite::rewrite_streamed`).
//!
//! For every golden case, robustness input, example and OpenCL test kernel, for several probe
//! kinds and both targets, on 1 and 3 threads, the rewrite with every loop's details and no
//! streaming and the rewrite as `hlsinstr rewrite` runs it give the same outputs, manifest,
//! warnings, skipped functions (with reasons), errors and generated files, or the same error.

use hlsinstr::fpga::Target;
use hlsinstr::model::LoopDetail;
use hlsinstr::rewrite::{rewrite, rewrite_with, Outcome, RewriteOptions};
use hlsinstr::select::{Kinds, SelectOptions, StallLine, WatchSpec};
use hlsinstr::walk::Input;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

mod common;
use common::{files_below, repo};

/// Kind sets without `loops` (where the details are left out) and a few with it.
const KINDS: &[&str] = &[
    "modules",
    "modules,timestamps",
    "modules,seq",
    "modules,timestamps,seq",
    "modules,maxi",
    "modules,loops",
    "modules,loops,timestamps,seq",
];

/// Everything a rewrite gives back, as text, in a fixed order.
fn render(result: hlsinstr::error::Result<Outcome>) -> String {
    let o = match result {
        Ok(o) => o,
        Err(e) => return format!("error: {e} ({:?})", e.kind),
    };
    let mut s = String::new();
    for f in &o.files {
        let _ = writeln!(s, "== {} ({} probes)\n{}", f.source.rel, f.probes, f.output);
    }
    let _ = writeln!(s, "== manifest\n{}", serde_json::to_string_pretty(&o.manifest).unwrap());
    for (file, skip) in &o.skipped {
        let _ = writeln!(s, "skipped {file}:{}:{} {}: {}", skip.line, skip.col, skip.function, skip.reason);
    }
    for w in &o.warnings {
        let _ = writeln!(s, "warning {w}");
    }
    for e in &o.errors {
        let _ = writeln!(s, "error {e} ({:?})", e.kind);
    }
    for g in &o.generated {
        let _ = writeln!(s, "== generated {}\n{}", g.path, g.text);
    }
    s
}

/// The same outcome with every loop's details and no streaming as with the shortcuts, whatever
/// the thread count (the streaming window follows it).
fn assert_same(what: &str, inputs: &[Input], opts: &RewriteOptions) {
    let full = render(rewrite_with(inputs, opts, LoopDetail::All, false));
    for threads in [1, 3] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let derived = pool.install(|| render(rewrite(inputs, opts)));
        if full != derived {
            let diff = similar::TextDiff::from_lines(&full, &derived)
                .unified_diff()
                .header("every loop's details, not streamed", "as rewrite runs")
                .to_string();
            panic!("{what}, --probes {:?}, {threads} threads: the outcomes differ:\n{diff}", opts.kinds.names());
        }
    }
}

fn options(kinds: &str, top: Option<&str>, target: Target) -> RewriteOptions {
    RewriteOptions {
        kinds: Kinds::parse(kinds).unwrap(),
        select: SelectOptions { top: top.map(str::to_string), ..SelectOptions::default() },
        target,
    }
}

fn input(path: &Path, root: &Path) -> Input {
    Input { path: path.to_path_buf(), rel: path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/") }
}

fn files_under(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    files_below(dir).into_iter().filter(|p| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e))).collect()
}

/// Every golden case with its own options (kinds, target, watch and stall options), then with
/// each kind set in C simulation.
#[test]
fn golden_cases() {
    let root = repo().join("tests/golden");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    cases.sort();
    let mut seen = 0;
    for dir in cases {
        let source = match std::fs::read_to_string(dir.join("input_from")) {
            Ok(case) => root.join(case.trim()),
            Err(_) => dir.clone(),
        };
        let Some(path) = ["input.cpp", "input.cl"].iter().map(|f| source.join(f)).find(|p| p.exists()) else {
            continue;
        };
        let inputs = [input(&path, &source)];
        let kinds = std::fs::read_to_string(dir.join("probes")).unwrap_or_else(|_| "modules,loops".into());
        let target = std::fs::read_to_string(dir.join("target")).unwrap_or_default();
        let top = target.strip_prefix("vitis ").map(str::trim);
        let target = if top.is_some() { Target::Vitis(Default::default()) } else { Target::Csim };
        let text = std::fs::read_to_string(dir.join("options")).unwrap_or_default();
        let option = |name: &str| -> Vec<String> {
            text.lines().filter_map(|l| l.strip_prefix(name)?.strip_prefix(' ').map(str::to_string)).collect()
        };
        let first = |name: &str| option(name).into_iter().next();
        let mut opts = options(kinds.trim(), top, target.clone());
        opts.select.watch = WatchSpec::parse(
            first("watch").as_deref(),
            first("watch-range").as_deref(),
            first("invariant").as_deref(),
            &option("bounds"),
        )
        .unwrap();
        opts.select.stall = option("at").iter().map(|a| StallLine::parse(a).unwrap()).collect();
        let what = dir.display().to_string();
        assert_same(&what, &inputs, &opts);
        for kinds in KINDS {
            assert_same(&what, &inputs, &options(kinds, None, Target::Csim));
            if top.is_some() {
                assert_same(&what, &inputs, &options(kinds, top, target.clone()));
            }
        }
        seen += 1;
    }
    assert!(seen >= 15, "golden cases missing: {seen}");
}

/// Every robustness input and OpenCL test kernel on its own, with each kind set; then each of
/// the two directories as one project (many windows; unreadable and truncated files among them,
/// whose errors keep their place).
#[test]
fn robustness_and_opencl_inputs() {
    let repo = repo();
    let mut files = files_under(&repo.join("tests/robustness"), &["cpp", "cl"]);
    files.extend(files_under(&repo.join("tests/opencl"), &["cl"]));
    assert!(files.len() >= 30, "inputs missing: {files:?}");
    for path in &files {
        let inputs = [input(path, &repo)];
        for kinds in KINDS {
            assert_same(&path.display().to_string(), &inputs, &options(kinds, None, Target::Csim));
        }
    }
    for dir in ["tests/robustness", "tests/opencl"] {
        let inputs: Vec<Input> = files_under(&repo.join(dir), &["cpp", "cl"]).iter().map(|p| input(p, &repo)).collect();
        for kinds in KINDS {
            assert_same(dir, &inputs, &options(kinds, None, Target::Csim));
        }
    }
}

/// A bad `--only` glob fails the run the same way, with inputs and without.
#[test]
fn option_errors() {
    let repo = repo();
    let inputs: Vec<Input> =
        files_under(&repo.join("examples/matmul"), &["cpp"]).iter().map(|p| input(p, &repo)).collect();
    for inputs in [&inputs[..], &[]] {
        let mut opts = options("modules", None, Target::Csim);
        opts.select.only = vec!["[".into()];
        assert_same("bad glob", inputs, &opts);
        opts.select.only = vec!["matmul*".into()];
        assert_same("--only", inputs, &opts);
    }
}

/// Every example as one project (kernel, header and testbench together: selection spans
/// files), in C simulation and, the Vitis ones, for the in-FPGA build of their top.
#[test]
fn examples() {
    let repo = repo();
    let root = repo.join("examples");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for dir in dirs {
        let inputs: Vec<Input> =
            files_under(&dir, &["cpp", "h", "hpp", "cl"]).iter().map(|p| input(p, &repo)).collect();
        let top = std::fs::read_to_string(dir.join("hls_config.cfg"))
            .ok()
            .and_then(|c| c.lines().find_map(|l| l.strip_prefix("syn.top=").map(|t| t.trim().to_string())));
        for kinds in KINDS {
            assert_same(&dir.display().to_string(), &inputs, &options(kinds, None, Target::Csim));
            if let Some(top) = &top {
                let vitis = options(kinds, Some(top), Target::Vitis(Default::default()));
                assert_same(&dir.display().to_string(), &inputs, &vitis);
            }
        }
    }
}

/// The cases the details matter for without `loops`: loops marked `#pragma HLSINSTR probe` in
/// perfect nests (warnings of nests a probe splits, nests probed as one unit in hardware),
/// beside functions without marks, and a goto to a marked loop's label.
#[test]
fn marked_loops_in_nests() {
    let src = "\
void plain(int a[8][8]) {
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) a[i][j] = 0;
}
void marked(int a[8][8], int n) {
outer:
  for (int i = 0; i < 8; i++) {
#pragma HLS loop_flatten
    for (int j = 0; j < 8; j++) {
#pragma HLSINSTR probe
#pragma HLS PIPELINE II=1
      a[i][j] = n;
    }
  }
  for (int k = 0; k < n; k++) {
#pragma HLSINSTR probe
#pragma unroll
    for (int m = 0; m < k; m++) a[k][m] = 1;
  }
}
void jumps(int *a, int n) {
  goto again;
again:
  while (n--) {
#pragma HLSINSTR probe
    a[n] = 0;
  }
}
void top(int a[8][8], int n) {
  plain(a);
  marked(a, n);
  jumps(a[0], n);
}
";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("k.cpp");
    std::fs::write(&path, src).unwrap();
    let inputs = [input(&path, dir.path())];
    for kinds in KINDS.iter().chain(&["loops", "loops,timestamps"]) {
        assert_same("marked loops", &inputs, &options(kinds, None, Target::Csim));
        assert_same("marked loops", &inputs, &options(kinds, Some("top"), Target::Vitis(Default::default())));
    }
    // The marks do make loop probes without `loops`, so the details were used.
    let out = rewrite(&inputs, &options("modules", None, Target::Csim)).unwrap();
    assert!(out.manifest.probes.iter().any(|p| p.kind == "loop"), "{:?}", out.manifest.probes);
}
