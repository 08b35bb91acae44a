//! Stage 5, emit: write outputs atomically, never outside the output directory, never over an input.

pub mod manifest;

use crate::error::{Error, ErrorKind, Result};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Where outputs go.
#[derive(Debug, Clone)]
pub enum Destination {
    /// Below this directory, keeping each file's relative path.
    Dir(PathBuf),
    /// Over the input files themselves (`--in-place`).
    InPlace,
}

/// Create (if needed) and canonicalise an output directory.
pub fn prepare_dir(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, &e))?;
    dir.canonicalize().map_err(|e| Error::io(dir, &e))
}

/// Write `contents` to `root/rel` atomically. Refuses relative paths that climb out of `root`,
/// any symlink below `root` on the way (it could point anywhere), and overwriting `input`.
pub fn write_below(root: &Path, rel: &str, contents: &[u8], input: Option<&Path>) -> Result<PathBuf> {
    let rel_path = Path::new(rel);
    if rel.is_empty() || !rel_path.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(Error::new(ErrorKind::UnsafePath, "refusing a path that leaves the output directory").at(rel));
    }
    let mut dir = root.to_path_buf();
    let parts: Vec<_> = rel_path.components().collect();
    for c in &parts[..parts.len() - 1] {
        dir.push(c);
        match std::fs::symlink_metadata(&dir) {
            Ok(m) if m.file_type().is_symlink() => {
                return Err(Error::new(
                    ErrorKind::UnsafePath,
                    "is a symlink inside the output directory; refusing to write through it (remove it or choose another --out)",
                )
                .at(&dir))
            }
            Ok(m) if !m.is_dir() => {
                return Err(Error::new(ErrorKind::UnsafePath, "exists and is not a directory").at(&dir))
            }
            Ok(_) => {}
            Err(_) => std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, &e))?,
        }
    }
    let target = root.join(rel_path);
    if let Ok(m) = std::fs::symlink_metadata(&target) {
        if m.file_type().is_symlink() {
            return Err(Error::new(ErrorKind::UnsafePath, "is a symlink; refusing to write through it").at(&target));
        }
        if let Some(input) = input {
            if same_file(&target, input) {
                return Err(Error::new(
                    ErrorKind::UnsafePath,
                    "output would overwrite the input file; choose another --out, or pass --in-place to modify inputs",
                )
                .at(&target));
            }
        }
    }
    atomic_write(&target, contents)?;
    Ok(target)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Write via a temporary file in the same directory and a rename: readers never see half a file.
pub fn atomic_write(target: &Path, contents: &[u8]) -> Result<()> {
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| Error::io(dir, &e))?;
    tmp.write_all(contents).map_err(|e| Error::io(target, &e))?;
    if let Ok(meta) = std::fs::metadata(target) {
        // Keep the permissions of a file we replace (in-place rewrites of executable scripts).
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(target).map_err(|e| Error::io(target, &e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_escapes_and_symlinks() {
        let dir = tempfile::tempdir().unwrap();
        let root = prepare_dir(&dir.path().join("out")).unwrap();
        assert!(write_below(&root, "a/b.cpp", b"x", None).is_ok());
        assert_eq!(std::fs::read(root.join("a/b.cpp")).unwrap(), b"x");
        assert_eq!(write_below(&root, "../x.cpp", b"x", None).unwrap_err().kind, ErrorKind::UnsafePath);
        assert_eq!(write_below(&root, "/etc/x.cpp", b"x", None).unwrap_err().kind, ErrorKind::UnsafePath);
        #[cfg(unix)]
        {
            let outside = dir.path().join("outside");
            std::fs::create_dir(&outside).unwrap();
            std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
            assert_eq!(write_below(&root, "link/x.cpp", b"x", None).unwrap_err().kind, ErrorKind::UnsafePath);
            std::os::unix::fs::symlink(outside.join("f.cpp"), root.join("f.cpp")).unwrap();
            assert_eq!(write_below(&root, "f.cpp", b"x", None).unwrap_err().kind, ErrorKind::UnsafePath);
            assert!(std::fs::read_dir(&outside).unwrap().next().is_none(), "nothing written outside");
        }
        let input = root.join("in.cpp");
        std::fs::write(&input, "orig").unwrap();
        assert_eq!(write_below(&root, "in.cpp", b"new", Some(&input)).unwrap_err().kind, ErrorKind::UnsafePath);
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "orig");
    }
}
