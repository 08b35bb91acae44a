//! Where the testbench runs and which files it finds around it.
//!
//! Vitis' C simulation runs the testbench in `<project>/<solution>/csim/build` (a Vitis unified
//! component: `<component>/hls/csim/build`), with the files added with `add_files -tb` /
//! `tb.file=` copied there (UG1399, "Output of C Simulation": "Any files read by the test bench
//! are copied to this folder"; a directory added so is copied whole). Real testbenches count on
//! that layout: they open their data by bare name (`fopen("input.dat")`), or by a path that climbs
//! out of csim/build to the project's own tree (`fopen("../../../input.dat")`, `csim_design -argv
//! "../../../../data/x.txt"`, `ROOT_DIR + "input.dat"` with `ROOT_DIR = "../../../../../"`).
//!
//! `sim` runs the testbench at the same depth inside its work directory: `run/` stands for the
//! highest directory the testbench's paths climb to, the working directory is below it at
//! csim/build's place, and the files those paths name (read from the string literals of the
//! testbench and the headers it includes, and from the `-argv` words) are copied there from the
//! user's tree. The user's files are never opened for writing: what the testbench writes, even
//! through `../../../out.txt`, lands in the work directory. A path that names nothing is kept to
//! explain a failing run (see [`Layout::hints`]).

use super::shadow;
use crate::error::{Error, ErrorKind, Result};
use std::path::{Component, Path, PathBuf};

/// The testbench's surroundings, made in the work directory.
pub struct Layout {
    /// The testbench's working directory (`run/` itself when no path climbs out of it).
    pub cwd: PathBuf,
    /// Paths the testbench names that the copy did not hold: where the copy would be, and what
    /// to say when it is still not there after a failing run (the testbench did not write it).
    absent: Vec<(PathBuf, String)>,
}

impl Layout {
    /// What the testbench named that was not there and that it did not write either: the
    /// likeliest reasons a failing run failed, with what to do about each.
    pub fn hints(&self) -> Vec<String> {
        self.absent.iter().filter(|(copy, _)| !copy.exists()).map(|(_, h)| h.clone()).take(MAX_HINTS).collect()
    }
}

/// At most this many hints are shown with a failing run.
const MAX_HINTS: usize = 6;

/// Lay out `run_dir` for the testbench. `build_dir` is Vitis' csim/build for the project (`None`
/// without a project: the testbench runs in `run_dir` beside its data files, as before);
/// `data_files` are the testbench files csim copies into it; `texts` the testbench's sources and
/// the headers they include; `argv` the `-argv` words; `project_dir` where to look for a file
/// named by bare name that the project does not list.
pub fn prepare(
    run_dir: &Path,
    build_dir: Option<&Path>,
    data_files: &[PathBuf],
    texts: &[String],
    argv: &[String],
    project_dir: Option<&Path>,
) -> Result<Layout> {
    let mut literals: Vec<String> = argv.to_vec();
    for t in texts {
        literals.extend(string_literals(t).into_iter().filter_map(|l| path_like(&l)));
    }
    literals.sort();
    literals.dedup();
    let Some(build) = build_dir else {
        copy_data(run_dir, data_files)?;
        return Ok(Layout { cwd: run_dir.to_path_buf(), absent: Vec::new() });
    };
    let depth = build.components().filter(|c| matches!(c, Component::Normal(_))).count();
    let climb = literals.iter().map(|l| climb_of(l)).max().unwrap_or(0).min(depth);
    // csim/build's last `climb` directories, below `run/`, which stands for `anchor`.
    let names: Vec<&std::ffi::OsStr> = build.iter().collect();
    let cwd = names[names.len() - climb..].iter().fold(run_dir.to_path_buf(), |p, n| p.join(n));
    let anchor: PathBuf = names[..names.len() - climb].iter().collect();
    std::fs::create_dir_all(&cwd).map_err(|e| Error::io(&cwd, &e))?;
    copy_data(&cwd, data_files)?;
    let mirror = |user: &Path| user.strip_prefix(&anchor).ok().map(|rel| run_dir.join(rel));
    let mut absent = Vec::new();
    let mut prefixes: Vec<(&str, PathBuf)> = Vec::new();
    for l in literals.iter().filter(|l| climb_of(l) > 0) {
        let user = shadow::lexical(&build.join(l));
        let Some(copy) = mirror(&user) else { continue };
        if build.starts_with(&user) {
            // An ancestor of csim/build: a prefix the testbench joins names to (`ROOT_DIR`).
            prefixes.push((l, user));
        } else if user.is_dir() && !small_tree(&user) {
            absent.push((copy, too_big(l, &user)));
        } else if user.exists() {
            copy_tree(&user, &copy)?;
        } else {
            make_parent(&user, &copy)?;
            absent.push((copy, missing(l, build, &user)));
        }
    }
    // Names joined to a prefix: `ROOT_DIR + "input.dat"`.
    for (prefix, p) in &prefixes {
        for l in literals.iter().filter(|l| climb_of(l) == 0) {
            let user = shadow::lexical(&p.join(l));
            if build.starts_with(&user) {
                continue;
            }
            match mirror(&user) {
                Some(copy) if user.is_dir() && !small_tree(&user) => absent.push((copy, too_big(l, &user))),
                Some(copy) if user.exists() => copy_tree(&user, &copy)?,
                // A name with an extension joined to the prefix: most likely a file it opens.
                Some(copy) if Path::new(l).extension().is_some() => {
                    make_parent(&user, &copy)?;
                    absent.push((copy, missing(&format!("{prefix}` + `{l}"), build, &user)));
                }
                _ => {}
            }
        }
    }
    // A bare name csim/build does not hold, while a file of that name is in the project: the
    // testbench most likely reads it, and Vitis would have had it only from `add_files -tb`.
    if let Some(dir) = project_dir {
        let names: Vec<&str> = literals
            .iter()
            .filter(|l| climb_of(l) == 0 && !l.contains('/'))
            .filter(|l| !cwd.join(l).exists() && !prefixes.iter().any(|(_, p)| p.join(l).exists()))
            .map(String::as_str)
            .collect();
        let found = find_named(dir, &names);
        for (l, found) in names.iter().zip(found) {
            if let Some(found) = found {
                absent.push((
                    cwd.join(l),
                    format!(
                    "the testbench names `{l}`, which the project does not add as a testbench file: Vitis copies only \
                     those (add_files -tb, tb.file=) into csim/build, where the testbench runs; {} has that name: add \
                     it to the project, or give it with `sim --tb {}`",
                    found.display(),
                    found.display()
                ),
                ));
            }
        }
    }
    Ok(Layout { cwd, absent })
}

/// A directory a literal names is copied only up to this size and this many entries: a path
/// climbing to `/usr` is no testbench data.
const MAX_COPY_BYTES: u64 = 256 << 20;
const MAX_COPY_ENTRIES: usize = 20_000;

/// Whether the directory is small enough to copy whole.
fn small_tree(dir: &Path) -> bool {
    let (mut bytes, mut entries) = (0u64, 0usize);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else { continue };
        for e in read.flatten() {
            entries += 1;
            match e.metadata() {
                Ok(m) if m.is_dir() => stack.push(e.path()),
                Ok(m) => bytes += m.len(),
                Err(_) => {}
            }
            if entries > MAX_COPY_ENTRIES || bytes > MAX_COPY_BYTES {
                return false;
            }
        }
    }
    true
}

/// The hint for a directory too big to copy.
fn too_big(named: &str, user: &Path) -> String {
    format!(
        "the testbench names `{named}`, the directory {}, which holds more than {} MiB or {MAX_COPY_ENTRIES} entries and \
         was not copied into the work directory; add the files the testbench reads with add_files -tb (tb.file=), or \
         name them one by one",
        user.display(),
        MAX_COPY_BYTES >> 20
    )
}

/// The hint for a path that names nothing in the user's tree.
fn missing(named: &str, build: &Path, user: &Path) -> String {
    format!(
        "the testbench names `{named}`; from Vitis' csim/build ({}) that is {}, which does not exist (sim copies what \
         the testbench's paths name into its work directory at the same place); put the file there, or change the path",
        build.display(),
        user.display()
    )
}

/// The testbench files csim copies into its working directory, by their own names.
fn copy_data(dir: &Path, data_files: &[PathBuf]) -> Result<()> {
    for d in data_files {
        let name =
            d.file_name().ok_or_else(|| Error::new(ErrorKind::BadInput, "a testbench file has no name").at(d))?;
        copy_tree(d, &dir.join(name))?;
    }
    Ok(())
}

/// A file or directory copied (directories whole); never a link to the user's file, which the
/// testbench could write through.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    if from.is_dir() {
        std::fs::create_dir_all(to).map_err(|e| Error::io(to, &e))?;
        for e in std::fs::read_dir(from).map_err(|e| Error::io(from, &e))?.flatten() {
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        Ok(())
    } else {
        if let Some(p) = to.parent() {
            std::fs::create_dir_all(p).map_err(|e| Error::io(p, &e))?;
        }
        std::fs::copy(from, to).map(|_| ()).map_err(|e| Error::io(from, &e))
    }
}

/// A file the testbench may write: its directory is made in the copy when the user's exists (in
/// Vitis the write would succeed there).
fn make_parent(user: &Path, copy: &Path) -> Result<()> {
    match (user.parent(), copy.parent()) {
        (Some(u), Some(c)) if u.is_dir() => std::fs::create_dir_all(c).map_err(|e| Error::io(c, &e)),
        _ => Ok(()),
    }
}

/// How many directories a relative path climbs above where it starts (`../../a` 2, `a/../..` 1).
fn climb_of(path: &str) -> usize {
    let mut depth: isize = 0;
    let mut lowest: isize = 0;
    for c in Path::new(path).components() {
        match c {
            Component::ParentDir => depth -= 1,
            Component::Normal(_) => depth += 1,
            Component::RootDir | Component::Prefix(_) => return 0,
            Component::CurDir => {}
        }
        lowest = lowest.min(depth);
    }
    lowest.unsigned_abs()
}

/// A string literal that may name a file or directory, as a relative path: no blanks or
/// control characters, not an option, not absolute; a format (`"../data/in_%d.txt"`) gives its
/// directory (`"../data/"`).
fn path_like(l: &str) -> Option<String> {
    let l = match l.find('%') {
        Some(i) => &l[..l[..i].rfind('/')? + 1],
        None => l,
    };
    let ok = !l.is_empty()
        && l.len() < 1024
        && !l.starts_with('-')
        && !l.starts_with('/')
        && !l
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '*' | '?' | '"' | '<' | '>' | '|' | ':'))
        && (l.contains('/') || l.contains('.'));
    ok.then(|| l.to_string())
}

/// The string literals of C/C++ text (found by the scanner every stage shares,
/// [`crate::source::literal_ranges`]: comments, character literals and `#include` lines are
/// not), escapes decoded as far as paths need (`\\`, `\"`). Raw strings are left out.
fn string_literals(text: &str) -> Vec<String> {
    let literals = crate::source::literal_ranges(text).into_iter().filter(|r| text.as_bytes()[r.start] == b'"');
    literals.map(|r| decoded(&text[r.start + 1..r.end])).collect()
}

/// A string literal's text after its opening quote, up to its closing quote (an unterminated
/// one has none: it ends at its line's end), `\n` and `\t` as themselves and any other
/// escaped character as that character.
fn decoded(body: &str) -> String {
    let mut s = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => s.push('\n'),
                Some('t') => s.push('\t'),
                Some(e) => s.push(e),
                None => break,
            },
            '"' => break,
            c => s.push(c),
        }
    }
    s
}

/// For each of `names`, the first file of that name below `dir`, in one walk (hidden
/// directories and csim folders skipped; bounded: it only improves a hint).
fn find_named(dir: &Path, names: &[&str]) -> Vec<Option<PathBuf>> {
    let mut found = vec![None; names.len()];
    if names.is_empty() {
        return found;
    }
    let mut stack = vec![(dir.to_path_buf(), 0)];
    let mut seen = 0;
    while let Some((d, depth)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            seen += 1;
            if seen > 20_000 {
                return found;
            }
            let file = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if p.is_dir() {
                if depth < 6 && !file.starts_with('.') && file != "csim" && file != "target" {
                    stack.push((p, depth + 1));
                }
            } else if let Some(i) = names.iter().position(|n| *n == file) {
                found[i].get_or_insert(p);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_skip_comments_and_characters_and_decode_escapes() {
        let t = "// \"no\"\nchar c = '\"'; /* \"no\" */ f(\"../a\\\\b.txt\", \"x\\\"y\");";
        assert_eq!(string_literals(t), ["../a\\b.txt", "x\"y"]);
        let t = "#include \"../k.h\"\n  # include \"../j.h\"\n#define D \"../d/\"\nint x; // \"\n";
        assert_eq!(string_literals(t), ["../d/"]);
    }

    #[test]
    fn climbs_count_the_levels_above_the_start() {
        assert_eq!(climb_of("../../../input.dat"), 3);
        assert_eq!(climb_of("a/../../b"), 1);
        assert_eq!(climb_of("input.dat"), 0);
        assert_eq!(climb_of("../../../../../"), 5);
        assert_eq!(climb_of("/abs/../x"), 0);
    }

    /// The copy made for a Tcl project's testbench: csim/build's place below `run/`, a climbing
    /// directory and file copied, a written file's directory made, a `-tb` file beside it.
    #[test]
    fn the_copy_holds_what_the_paths_name_at_their_places() {
        let t = tempfile::tempdir().unwrap();
        let user = t.path().join("user");
        for (f, text) in [("proj/data/a.dat", "1"), ("up.txt", "2"), ("tb/in.dat", "3"), ("proj/out/keep", "")] {
            std::fs::create_dir_all(user.join(f).parent().unwrap()).unwrap();
            std::fs::write(user.join(f), text).unwrap();
        }
        let run = t.path().join("work/run");
        let build = user.join("proj/sol/csim/build");
        let texts = ["fopen(\"../../../data/\"); fopen(\"../../../out/o.txt\", \"w\");".to_string()];
        let argv = ["../../../../up.txt".to_string()];
        let l = prepare(&run, Some(&build), &[user.join("tb/in.dat")], &texts, &argv, Some(&user)).unwrap();
        assert_eq!(l.cwd, run.join("proj/sol/csim/build"));
        assert!(small_tree(&user));
        assert_eq!(std::fs::read_to_string(run.join("proj/data/a.dat")).unwrap(), "1");
        assert_eq!(std::fs::read_to_string(run.join("up.txt")).unwrap(), "2");
        assert_eq!(std::fs::read_to_string(l.cwd.join("in.dat")).unwrap(), "3");
        assert!(run.join("proj/out").is_dir() && !run.join("proj/out/keep").exists());
        assert_eq!(l.hints().len(), 1, "o.txt, until the testbench writes it: {:?}", l.hints());
        std::fs::write(run.join("proj/out/o.txt"), "").unwrap();
        assert!(l.hints().is_empty());
    }

    #[test]
    fn only_path_like_literals_count() {
        assert_eq!(path_like("input.dat").as_deref(), Some("input.dat"));
        assert_eq!(path_like("../data/in_%d.txt").as_deref(), Some("../data/"));
        assert_eq!(path_like("%d\n"), None);
        assert_eq!(path_like("diff -w out.dat"), None);
        assert_eq!(path_like("-dataFile"), None);
        assert_eq!(path_like("PASS"), None);
        assert_eq!(path_like("/etc/passwd"), None);
    }
}
