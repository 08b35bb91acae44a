//! Finding the input files: directories are walked for C/C++ sources and headers and OpenCL C
//! (`.cl`) in a stable order, the way their owner sees the project.
//!
//! A walk honours `.gitignore`, `.ignore` and `.git/info/exclude` (ripgrep's `ignore` crate; a
//! `.gitignore` counts without a `.git` folder too, as in a project downloaded as an archive),
//! skips hidden entries, and does not enter the folders Vitis HLS and Vivado HLS write
//! ([`vendor_folder`]): their copies of the sources (`solution1/sim/wrapc/*.cpp_pre.cpp.tb.cpp`,
//! `.autopilot/db/*.pp.0.cpp`) are not the user's code. Each such folder is named in one note.
//! A file named on the command line is always taken, wherever it is.

use crate::error::{Error, ErrorKind, Result};
use crate::source::is_source_path;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// An input file and its path relative to its root (output layout, manifest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    pub rel: String,
}

/// Files under `inputs` (directories walked, files taken as given), sorted by relative path.
/// Directories in `exclude` (the output directory when it sits below an input) are not entered;
/// symlinks are not followed (a note per link goes to `notes`), nor are ignored entries and
/// vendor-tool folders taken (a note per vendor folder).
pub fn discover(inputs: &[PathBuf], exclude: &[PathBuf], notes: &mut Vec<String>) -> Result<Vec<Input>> {
    let exclude: Vec<PathBuf> = exclude.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let mut found = Vec::new();
    for input in inputs {
        let meta = std::fs::symlink_metadata(input).map_err(|e| Error::io(input, &e))?;
        if meta.is_dir() {
            // The output directory is skipped below an input, never when it is the input itself:
            // then writing would overwrite inputs, which `emit` refuses with a clear message.
            walk_dir(input, &exclude, &mut found, notes)?;
        } else {
            let name = input.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
            found.push(Input { path: input.clone(), rel: name });
        }
    }
    found.sort_by(|a, b| a.rel.cmp(&b.rel));
    for pair in found.windows(2) {
        if pair[0].rel == pair[1].rel {
            return Err(Error::new(
                ErrorKind::Usage,
                format!(
                    "{} and {} would both be written as {}; rewrite them in separate runs",
                    pair[0].path.display(),
                    pair[1].path.display(),
                    pair[0].rel
                ),
            ));
        }
    }
    Ok(found)
}

/// Why `dir` is a folder Vitis HLS or Vivado HLS wrote (its sources are the tool's copies), or
/// `None`. Decided by what the folder holds, not by its name alone, so a user's own `hls/` or
/// `solution/` folder of sources is walked:
/// - `solution.aps`: a solution of a Vitis HLS / Vivado HLS project (`open_solution`);
/// - `hls.app`, `vivado_hls.app`, `vitis_hls.app`: the project folder that holds the solutions;
/// - `.autopilot`, `csim/build`, `sim/wrapc`, `sim/autowrap`: synthesis, C-simulation and
///   co-simulation outputs (also of a solution whose `.aps` file was not copied along);
/// - a folder named `hls` beside `vitis-comp.json` or `hls_config.cfg` holding `syn`, `csim`,
///   `sim`, `impl` or `reports`: the output of a Vitis unified component (`v++ --mode hls`);
/// - a folder named `solution*` in a folder named `*_prj` or `*.prj` (the project folders hls4ml
///   and `open_project NAME_prj` make) holding `syn`, `csim`, `sim`, `impl` or `script.tcl`.
pub fn vendor_folder(dir: &Path) -> Option<String> {
    let has_file = |n: &str| dir.join(n).is_file();
    let has_dir = |n: &str| dir.join(n).is_dir();
    if has_file("solution.aps") {
        return Some("a Vitis HLS solution (it holds solution.aps)".into());
    }
    for app in ["hls.app", "vivado_hls.app", "vitis_hls.app"] {
        if has_file(app) {
            return Some(format!("a Vitis HLS project folder (it holds {app})"));
        }
    }
    for out in [".autopilot", "csim/build", "sim/wrapc", "sim/autowrap"] {
        if has_dir(out) {
            return Some(format!("Vitis HLS build output (it holds {out})"));
        }
    }
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let parent = dir.parent().unwrap_or(Path::new(""));
    let outputs = ["syn", "csim", "sim", "impl", "reports"];
    if name == "hls" && outputs.iter().any(|o| has_dir(o)) {
        for owner in ["vitis-comp.json", "hls_config.cfg"] {
            if parent.join(owner).is_file() {
                return Some(format!("the output of a Vitis unified component (beside {owner})"));
            }
        }
    }
    let parent_name = parent.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.starts_with("solution")
        && (parent_name.ends_with("_prj") || parent_name.ends_with(".prj"))
        && (outputs.iter().any(|o| has_dir(o)) || has_file("script.tcl"))
    {
        return Some(format!("a solution of the HLS project {parent_name}"));
    }
    None
}

/// A vendor folder passed over, for its note.
struct Skipped {
    path: PathBuf,
    why: String,
}

fn walk_dir(root: &Path, exclude: &[PathBuf], found: &mut Vec<Input>, notes: &mut Vec<String>) -> Result<()> {
    let skipped: Arc<Mutex<Vec<Skipped>>> = Arc::default();
    let mut builder = ignore::WalkBuilder::new(root);
    builder
        .standard_filters(true)
        .git_global(false) // the user's global excludes describe their editor, not this project
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(|a, b| a.cmp(b));
    let exclude = exclude.to_vec();
    let seen = Arc::clone(&skipped);
    builder.filter_entry(move |e| {
        if e.depth() == 0 || !e.file_type().is_some_and(|t| t.is_dir()) {
            return true;
        }
        if e.path().canonicalize().is_ok_and(|c| exclude.contains(&c)) {
            return false;
        }
        match vendor_folder(e.path()) {
            Some(why) => {
                seen.lock().unwrap_or_else(|p| p.into_inner()).push(Skipped { path: e.path().to_path_buf(), why });
                false
            }
            None => true,
        }
    });
    for entry in builder.build() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => match e.io_error() {
                Some(io) => {
                    let at = error_path(&e).unwrap_or_else(|| root.to_path_buf());
                    return Err(Error::io(&at, io));
                }
                // A bad pattern in an ignore file: the rest of the file still applies.
                None => {
                    notes.push(format!("hlsinstr: {e}"));
                    continue;
                }
            },
        };
        if entry.depth() == 0 {
            continue;
        }
        let path = entry.path();
        let Some(ft) = entry.file_type() else { continue };
        if ft.is_symlink() {
            if is_source_path(path) || path.is_dir() {
                notes.push(format!("{}: symlink not followed", path.display()));
            }
        } else if ft.is_file() && is_source_path(path) {
            found.push(Input { path: path.to_path_buf(), rel: rel_of(root, path) });
        }
    }
    let mut skipped = std::mem::take(&mut *skipped.lock().unwrap_or_else(|p| p.into_inner()));
    skipped.sort_by(|a, b| a.path.cmp(&b.path));
    for s in skipped {
        let n = count_sources(&s.path, 100_000);
        let files = match n {
            0 => "no C/C++ files in it".to_string(),
            1 => "1 C/C++ file in it not taken".to_string(),
            n => format!("{n} C/C++ files in it not taken"),
        };
        notes.push(format!(
            "{}{}: skipped: {}; {files} (name a file to take it anyway)",
            s.path.display(),
            std::path::MAIN_SEPARATOR,
            s.why
        ));
    }
    Ok(())
}

fn error_path(e: &ignore::Error) -> Option<PathBuf> {
    match e {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => error_path(err),
        _ => None,
    }
}

/// `path` relative to `root`, `/`-separated.
fn rel_of(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// C/C++ and OpenCL files below `dir` (symlinks not followed), counting at most `limit` entries:
/// for the note only, so a huge `.autopilot` costs a bounded walk.
fn count_sources(dir: &Path, limit: usize) -> usize {
    let mut stack = vec![dir.to_path_buf()];
    let (mut seen, mut n) = (0usize, 0usize);
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            seen += 1;
            if seen > limit {
                return n;
            }
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(e.path()),
                Ok(t) if t.is_file() && is_source_path(&e.path()) => n += 1,
                _ => {}
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let t = tempfile::tempdir().unwrap();
        for f in files {
            let p = t.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "int f() { return 0; }\n").unwrap();
        }
        t
    }

    fn rels(t: &tempfile::TempDir, notes: &mut Vec<String>) -> Vec<String> {
        discover(&[t.path().to_path_buf()], &[], notes).unwrap().into_iter().map(|i| i.rel).collect()
    }

    #[test]
    fn a_solution_folder_is_told_by_what_it_holds() {
        let t = tree(&[
            "src/k.cpp",
            "proj/solution1/solution.aps",
            "proj/solution1/sim/wrapc/k.cpp_pre.cpp.tb.cpp",
            "proj/hls.app",
            "build/csim/build/k.cpp",
            "comp/hls_config.cfg",
            "comp/hls/syn/systemc/k.cpp",
            "mine/hls/k2.cpp",
        ]);
        let mut notes = Vec::new();
        assert_eq!(rels(&t, &mut notes), ["mine/hls/k2.cpp", "src/k.cpp"]);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].contains("build") && notes[0].contains("csim/build") && notes[0].contains("1 C/C++ file"));
        assert!(notes[1].contains("hls") && notes[1].contains("hls_config.cfg"), "{notes:?}");
        assert!(
            notes[2].contains("proj") && notes[2].contains("hls.app") && notes[2].contains("1 C/C++ file"),
            "{notes:?}"
        );
    }

    #[test]
    fn gitignore_and_ignore_files_count_without_a_repository() {
        let t = tree(&["a.cpp", "gen/b.cpp", "c_gen.cpp", "keep/d.cpp"]);
        std::fs::write(t.path().join(".gitignore"), "gen/\n").unwrap();
        std::fs::write(t.path().join("keep/.ignore"), "*.cpp\n").unwrap();
        std::fs::write(t.path().join(".ignore"), "*_gen.cpp\n").unwrap();
        let mut notes = Vec::new();
        assert_eq!(rels(&t, &mut notes), ["a.cpp"]);
    }
}
