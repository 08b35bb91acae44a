//! Stage 5, emit: write outputs atomically, never outside the output directory, never over an input.

pub mod manifest;
mod write;

pub use write::{in_place_manifest, write, Destination, Written};

use crate::error::{Error, ErrorKind, Result};
use std::io::Write;
use std::path::{Component, Path, PathBuf};

/// Create (if needed) and canonicalise an output directory.
pub fn prepare_dir(dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, &e))?;
    dir.canonicalize().map_err(|e| Error::io(dir, &e))
}

/// Write `contents` to `root/rel` atomically. Refuses relative paths that climb out of `root`,
/// any symlink below `root` on the way (it could point anywhere), and overwriting `input`.
pub fn write_below(root: &Path, rel: &str, contents: &[u8], input: Option<&Path>) -> Result<PathBuf> {
    let target = check_below(root, rel, input, true)?;
    atomic_write(&target, contents)?;
    Ok(target)
}

/// The path `root/rel`, once it is safe to write: `rel` stays below `root`, no symlink on the
/// way or at the end, not the file `input`. Missing directories on the way are created when
/// `create` (else nothing below the first missing one can be a symlink: the check ends there).
fn check_below(root: &Path, rel: &str, input: Option<&Path>, create: bool) -> Result<PathBuf> {
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
            Err(_) if create => std::fs::create_dir(&dir).map_err(|e| Error::io(&dir, &e))?,
            Err(_) => return Ok(root.join(rel_path)),
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
    Ok(target)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Write via a temporary file in the same directory and a rename: readers never see half a file.
/// A file that is replaced keeps its permissions (in-place rewrites of executable scripts); a new
/// one gets the usual `0666` less the umask, as `File::create` would give it.
pub fn atomic_write(target: &Path, contents: &[u8]) -> Result<()> {
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut tmp = temp_file_in(dir)?;
    tmp.write_all(contents).map_err(|e| Error::io(target, &e))?;
    if let Ok(meta) = std::fs::metadata(target) {
        let _ = std::fs::set_permissions(tmp.path(), meta.permissions());
    }
    tmp.persist(target).map_err(|e| Error::io(target, &e.error))?;
    Ok(())
}

/// A temporary file in `dir` created with the mode a new file gets (tempfile's default is 0600,
/// which outputs then kept).
fn temp_file_in(dir: &Path) -> Result<tempfile::NamedTempFile> {
    let mut b = tempfile::Builder::new();
    b.prefix(".hlsinstr-");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        b.permissions(std::fs::Permissions::from_mode(0o666));
    }
    b.tempfile_in(dir).map_err(|e| Error::io(dir, &e))
}

/// Refuses an output directory that is, or contains, one of `inputs` (files): writing there would
/// put outputs among the sources (and the next walk would read them as inputs). An output
/// directory below an input directory is fine: the walk leaves it out.
pub fn refuse_inputs_inside(out: &Path, inputs: &[&Path]) -> Result<()> {
    let Ok(out_c) = out.canonicalize() else { return Ok(()) }; // not there yet: holds nothing
    for input in inputs {
        if let Ok(c) = input.canonicalize() {
            if c.starts_with(&out_c) {
                return Err(Error::new(
                    ErrorKind::UnsafePath,
                    format!(
                        "--out {} holds the input {}: outputs would overwrite the inputs or mix with them; choose \
                         an output directory outside the inputs (nothing was written)",
                        out.display(),
                        input.display()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Name of the lock file that marks an output directory as being written.
pub const LOCK_FILE: &str = ".hlsinstr.lock";

/// An output directory being written by this run: locked against a second run, its outputs
/// staged in a temporary directory beside it and renamed into place together by
/// [`OutputDir::commit`]. Dropped without a commit, it leaves the directory as it was (and
/// removes it if this run created it).
pub struct OutputDir {
    root: PathBuf,
    lock: PathBuf,
    created: bool,
    committed: bool,
    /// `(final path, staged file)`, in the order they were added.
    files: Vec<(PathBuf, PathBuf)>,
    stage: tempfile::TempDir,
}

impl OutputDir {
    /// Creates `dir` if needed and takes its lock (`dir/.hlsinstr.lock`, created exclusively;
    /// one left by a run that no longer exists is taken over).
    pub fn open(dir: &Path) -> Result<OutputDir> {
        let created = !dir.exists();
        let root = prepare_dir(dir)?;
        let lock = root.join(LOCK_FILE);
        let locked = take_lock(&lock);
        if let Err(e) = locked {
            if created {
                let _ = std::fs::remove_dir(&root);
            }
            return Err(e);
        }
        // In the parent, so that the final renames stay on one file system; a dot name, so that a
        // walk of the parent (the default output sits below the inputs) passes it by.
        let parent = root.parent().unwrap_or(&root).to_path_buf();
        let staged = |dir: &Path| tempfile::Builder::new().prefix(".hlsinstr-stage-").tempdir_in(dir);
        // A parent we may not write to (the output directory was made for us): inside it, then.
        let stage = match staged(&parent).or_else(|_| staged(&root)) {
            Ok(s) => s,
            Err(e) => {
                let _ = std::fs::remove_file(&lock);
                if created {
                    let _ = std::fs::remove_dir(&root);
                }
                return Err(Error::io(&parent, &e));
            }
        };
        Ok(OutputDir { root, lock, created, committed: false, files: Vec::new(), stage })
    }

    /// The directory (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Stages `contents` for `root/rel`, with the mode of `input` when given (else that of the
    /// file it replaces, else a new file's). Refuses here, before anything is in place: a path
    /// that climbs out of the directory, a symlink on the way or at the end (it could point
    /// anywhere), and a target that is `input` itself.
    pub fn add(&mut self, rel: &str, contents: &[u8], input: Option<&Path>) -> Result<PathBuf> {
        self.add_written(rel, input, |w| w.write_all(contents))
    }

    /// [`OutputDir::add`] with the contents written by `write`: a manifest of hundreds of
    /// megabytes goes into its file as it is serialised, not into a string first.
    pub fn add_written(
        &mut self,
        rel: &str,
        input: Option<&Path>,
        write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
    ) -> Result<PathBuf> {
        let target = check_below(&self.root, rel, input, false)?;
        let staged = self.stage.path().join(self.files.len().to_string());
        let file = std::fs::File::create(&staged).map_err(|e| Error::io(&target, &e))?;
        let mut out = std::io::BufWriter::with_capacity(1 << 16, file);
        write(&mut out).and_then(|()| std::io::Write::flush(&mut out)).map_err(|e| Error::io(&target, &e))?;
        drop(out);
        let mode = input.or(Some(target.as_path())).and_then(|p| std::fs::metadata(p).ok()).map(|m| m.permissions());
        if let Some(mode) = mode {
            std::fs::set_permissions(&staged, mode).map_err(|e| Error::io(&target, &e))?;
        }
        self.files.push((target.clone(), staged));
        Ok(target)
    }

    /// Renames every staged file into place, in the order added (put the manifest last: a
    /// failure in the middle, a full disk, then never leaves a new manifest over old outputs).
    pub fn commit(mut self) -> Result<Vec<PathBuf>> {
        let mut written = Vec::with_capacity(self.files.len());
        for (target, staged) in std::mem::take(&mut self.files) {
            let rel = target.strip_prefix(&self.root).unwrap_or(&target).to_string_lossy().into_owned();
            // Checked again: the tree may have changed since `add`.
            check_below(&self.root, &rel, None, true)?;
            std::fs::rename(&staged, &target).map_err(|e| Error::io(&target, &e))?;
            written.push(target);
        }
        self.committed = true;
        Ok(written)
    }
}

impl Drop for OutputDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.lock);
        if self.created && !self.committed {
            // Only if empty: this run put nothing there.
            let _ = std::fs::remove_dir(&self.root);
        }
    }
}

fn take_lock(lock: &Path) -> Result<()> {
    for attempt in 0..2 {
        match std::fs::OpenOptions::new().write(true).create_new(true).open(lock) {
            Ok(mut f) => {
                let _ = writeln!(f, "{}", std::process::id());
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let holder = std::fs::read_to_string(lock).ok().and_then(|s| s.trim().parse::<u32>().ok());
                if attempt == 0 && holder.is_some_and(|pid| !process_exists(pid)) {
                    // Left by a run that was killed: no one holds it.
                    let _ = std::fs::remove_file(lock);
                    continue;
                }
                let who = holder.map(|p| format!(" (process {p})")).unwrap_or_default();
                return Err(Error::new(
                    ErrorKind::Busy,
                    format!(
                        "another hlsinstr run{who} is writing to this directory; wait for it to finish, or remove \
                         {} if no run is active",
                        lock.display()
                    ),
                )
                .at(lock.parent().unwrap_or(lock)));
            }
            Err(e) => return Err(Error::io(lock, &e)),
        }
    }
    Err(Error::new(ErrorKind::Busy, "cannot take the output directory's lock").at(lock))
}

/// Whether a process of this id exists (without Unix: assumed, so a lock is never taken over).
fn process_exists(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else { return true };
        // SAFETY: kill(2) with signal 0 only checks that the process exists.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// The replacement of files in place (`--in-place`), all or nothing: each new text is staged in
/// a temporary file beside its file and renamed over it by [`InPlace::commit`]; dropped before,
/// nothing changes.
#[derive(Default)]
pub struct InPlace {
    files: Vec<(tempfile::NamedTempFile, PathBuf)>,
}

impl InPlace {
    pub fn new() -> InPlace {
        InPlace::default()
    }

    /// Stages `contents` to replace `target`, keeping its permissions. A read-only file is
    /// refused: a rename would replace it all the same, and read-only usually means "not mine
    /// to change".
    /// A `target` that does not exist yet (the manifest) is created with a new file's mode.
    pub fn add(&mut self, target: &Path, contents: &[u8]) -> Result<()> {
        let meta = match std::fs::metadata(target) {
            Ok(m) => Some(m),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(Error::io(target, &e)),
        };
        if meta.as_ref().is_some_and(|m| m.permissions().readonly()) {
            return Err(Error::new(
                ErrorKind::UnsafePath,
                "is read-only; --in-place does not replace read-only files: make it writable (chmod u+w) or write \
                 to --out",
            )
            .at(target));
        }
        let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let mut tmp = temp_file_in(dir)?;
        tmp.write_all(contents).map_err(|e| Error::io(target, &e))?;
        if let Some(meta) = meta {
            std::fs::set_permissions(tmp.path(), meta.permissions()).map_err(|e| Error::io(target, &e))?;
        }
        self.files.push((tmp, target.to_path_buf()));
        Ok(())
    }

    /// Renames every staged file over its target.
    pub fn commit(self) -> Result<()> {
        for (tmp, target) in self.files {
            tmp.persist(&target).map_err(|e| Error::io(&target, &e.error))?;
        }
        Ok(())
    }
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
