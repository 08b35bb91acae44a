//! Finding the input files: directories are walked for C/C++ sources and headers and OpenCL C (`.cl`) in a stable order.

use crate::error::{Error, ErrorKind, Result};
use crate::source::is_source_path;
use std::path::{Path, PathBuf};

/// An input file and its path relative to its root (output layout, manifest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub path: PathBuf,
    pub rel: String,
}

/// Files under `inputs` (directories walked, files taken as given), sorted by relative path.
/// Directories in `exclude` (the output directory when it sits below an input) are not entered;
/// symlinks are not followed (a note per link goes to `notes`).
pub fn discover(inputs: &[PathBuf], exclude: &[PathBuf], notes: &mut Vec<String>) -> Result<Vec<Input>> {
    let exclude: Vec<PathBuf> = exclude.iter().filter_map(|p| p.canonicalize().ok()).collect();
    let mut found = Vec::new();
    for input in inputs {
        let meta = std::fs::symlink_metadata(input).map_err(|e| Error::io(input, &e))?;
        if meta.is_dir() {
            // The output directory is skipped below an input, never when it is the input itself:
            // then writing would overwrite inputs, which `emit` refuses with a clear message.
            walk_dir(input, "", &exclude, &mut found, notes)?;
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

fn walk_dir(dir: &Path, rel: &str, exclude: &[PathBuf], found: &mut Vec<Input>, notes: &mut Vec<String>) -> Result<()> {
    if !rel.is_empty() {
        if let Ok(c) = dir.canonicalize() {
            if exclude.contains(&c) {
                return Ok(());
            }
        }
    }
    let mut entries: Vec<_> = std::fs::read_dir(dir).map_err(|e| Error::io(dir, &e))?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with('.') {
            continue;
        }
        let path = entry.path();
        let child_rel = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        let ft = entry.file_type().map_err(|e| Error::io(&path, &e))?;
        if ft.is_symlink() {
            if is_source_path(&path) || path.is_dir() {
                notes.push(format!("{}: symlink not followed", path.display()));
            }
        } else if ft.is_dir() {
            walk_dir(&path, &child_rel, exclude, found, notes)?;
        } else if ft.is_file() && is_source_path(&path) {
            found.push(Input { path, rel: child_rel });
        }
    }
    Ok(())
}
