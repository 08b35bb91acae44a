//! The C simulation's copy of the user's tree: the instrumented sources and every file the
//! build reaches through `#include` (testbench, headers, blackbox models), at the same relative
//! places below one directory. A header included by an unlisted header then finds its
//! instrumented sibling, not the original beside it, which would silently bypass its probes
//! (a quoted include looks beside the including file first). Compiler messages about a copy are
//! mapped back to the user's own file, line, column and text ([`map_diagnostics`]).

use crate::error::{Error, Result};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Component, Path, PathBuf};

/// More files than this reached through includes are not a kernel project: stop looking.
const MAX_REACHED: usize = 20_000;

/// One copied file.
#[derive(Debug, Clone)]
pub struct Shadow {
    pub copy: PathBuf,
    pub original: PathBuf,
    /// `[instrumented_first_line, original_first_line, count]` runs of an instrumented file
    /// (see [`crate::emit::manifest::ManifestFile::line_map`]); `None`: copied unchanged.
    pub line_map: Option<Vec<[usize; 3]>>,
}

/// The copy of the tree below `dir`, mirroring the originals below `root`.
#[derive(Debug, Clone)]
pub struct Tree {
    pub root: PathBuf,
    pub dir: PathBuf,
    pub files: Vec<Shadow>,
}

impl Tree {
    /// A tree for `files` (absolute): `root` is the deepest directory holding them all.
    pub fn new(dir: PathBuf, files: &[PathBuf]) -> Tree {
        let mut root: Option<PathBuf> = None;
        for f in files {
            let d = f.parent().unwrap_or(Path::new("/")).to_path_buf();
            root = Some(match root {
                None => d,
                Some(r) => r.components().zip(d.components()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect(),
            });
        }
        Tree { root: root.unwrap_or_else(|| PathBuf::from("/")), dir, files: Vec::new() }
    }

    /// Where the copy of `original` goes; `None` when it is not below the root.
    pub fn copy_path(&self, original: &Path) -> Option<PathBuf> {
        original.strip_prefix(&self.root).ok().map(|rel| self.dir.join(rel))
    }

    /// Writes the copy of `original` with `text`, its includes pinned to another machine's tool
    /// installation read from the include path (see install_include.rs).
    pub fn add(&mut self, original: &Path, text: &[u8], line_map: Option<Vec<[usize; 3]>>) -> Result<PathBuf> {
        let text = super::install_include::unpin(text);
        let copy = self.copy_path(original).unwrap_or_else(|| self.dir.join(original.file_name().unwrap_or_default()));
        if let Some(d) = copy.parent() {
            std::fs::create_dir_all(d).map_err(|e| Error::io(d, &e))?;
        }
        std::fs::write(&copy, &text).map_err(|e| Error::io(&copy, &e))?;
        self.files.push(Shadow { copy: copy.clone(), original: original.to_path_buf(), line_map });
        Ok(copy)
    }

    /// `flags` with every `-I DIR` below the root preceded by the same directory of the copy,
    /// so that `#include <x.h>` finds the copy first.
    pub fn include_flags(&self, flags: &[String]) -> Vec<String> {
        let mut out = Vec::with_capacity(flags.len());
        let mut i = 0;
        while i < flags.len() {
            let (dir, used) = match flags[i].as_str() {
                "-I" if i + 1 < flags.len() => (Some(flags[i + 1].clone()), 2),
                f if f.starts_with("-I") && f.len() > 2 => (Some(f[2..].to_string()), 1),
                _ => (None, 1),
            };
            if let Some(copy) = dir.and_then(|d| self.copy_path(&canonical(Path::new(&d)))).filter(|c| c.is_dir()) {
                out.push(format!("-I{}", copy.display()));
            }
            out.extend(flags[i..i + used].iter().cloned());
            i += used;
        }
        out
    }
}

/// `p` absolute, through symlinks when it exists, `.` and `..` folded otherwise.
pub fn canonical(p: &Path) -> PathBuf {
    if let Ok(c) = p.canonicalize() {
        return c;
    }
    lexical(&std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()))
}

/// `p` with `.` and `..` folded by its text alone (what it names need not exist).
pub fn lexical(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// The `-I` directories of compiler flags.
pub fn include_dirs<'a>(flags: impl Iterator<Item = &'a String>) -> Vec<PathBuf> {
    let flags: Vec<&String> = flags.collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < flags.len() {
        if flags[i] == "-I" && i + 1 < flags.len() {
            out.push(canonical(Path::new(flags[i + 1])));
            i += 1;
        } else if let Some(d) = flags[i].strip_prefix("-I").filter(|d| !d.is_empty()) {
            out.push(canonical(Path::new(d)));
        }
        i += 1;
    }
    out.dedup();
    out
}

/// The files `start` includes, directly or not (`start` excluded), found as the compiler
/// would: a quoted name beside the including file, then in `dirs`; an angled one in `dirs`.
/// Files below `exclude` (the kernel headers, hls-lib) are not followed. Conditionals are not
/// evaluated: every `#include` line counts, which can only add files to the copy.
pub fn reached(start: &[PathBuf], dirs: &[PathBuf], exclude: &[PathBuf]) -> Vec<PathBuf> {
    reached_with_bytes(start, dirs, exclude).into_iter().map(|(path, _)| path).collect()
}

/// [`reached`], each file with the bytes the walk read: `sim` copies, scans and searches
/// these headers again, and one of them can be a weights header of tens of MB, so it is read
/// once. A file that could not be read has no bytes and includes nothing.
pub fn reached_with_bytes(start: &[PathBuf], dirs: &[PathBuf], exclude: &[PathBuf]) -> Vec<(PathBuf, Option<Vec<u8>>)> {
    let mut seen: HashSet<PathBuf> = start.iter().cloned().collect();
    let mut queue: VecDeque<PathBuf> = start.iter().cloned().collect();
    let mut out = Vec::new();
    let mut bytes_of: HashMap<PathBuf, Vec<u8>> = HashMap::new();
    let mut full = false;
    while let Some(file) = queue.pop_front() {
        let Ok(bytes) = std::fs::read(&file) else { continue };
        let text = String::from_utf8_lossy(&bytes);
        for (name, quoted) in includes(&text) {
            let here = file.parent().map(Path::to_path_buf);
            let candidates = here.filter(|_| quoted).into_iter().chain(dirs.iter().cloned());
            let Some(found) = candidates.map(|d| d.join(&name)).find(|p| p.is_file()) else { continue };
            let found = canonical(&found);
            if exclude.iter().any(|x| found.starts_with(x)) || !seen.insert(found.clone()) {
                continue;
            }
            out.push(found.clone());
            queue.push_back(found);
            if out.len() >= MAX_REACHED {
                full = true;
                break;
            }
        }
        drop(text);
        if !start.contains(&file) {
            bytes_of.insert(file, bytes);
        }
        if full {
            break;
        }
    }
    // Files found but not walked (the cap) are read here, once like the others.
    out.into_iter()
        .map(|p| {
            let bytes = bytes_of.remove(&p).or_else(|| std::fs::read(&p).ok());
            (p, bytes)
        })
        .collect()
}

/// `(name, quoted)` of every `#include "name"` / `#include <name>` line.
fn includes(text: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else { continue };
        let Some(rest) = rest.trim_start().strip_prefix("include") else { continue };
        let rest = rest.trim_start();
        let (close, quoted) = match rest.chars().next() {
            Some('"') => ('"', true),
            Some('<') => ('>', false),
            _ => continue,
        };
        if let Some(end) = rest[1..].find(close) {
            out.push((rest[1..1 + end].to_string(), quoted));
        }
    }
    out
}

/// Compiler output with every copy's path, line, column and quoted source line replaced by the
/// original's (gcc and clang: `path:line:col:`, `path:line,` in include chains, and gcc's
/// `  LINE | text` excerpt with its caret line).
pub fn map_diagnostics(text: &str, files: &[Shadow]) -> String {
    let mut out = String::with_capacity(text.len());
    // The last location mapped: (file index, instrumented line, original line, column shift).
    let mut last: Option<(usize, usize, usize, isize)> = None;
    let mut lines_cache: std::collections::HashMap<usize, (Vec<String>, Vec<String>)> = Default::default();
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        if let Some((k, instr, orig, shift)) = last {
            if let Some(mapped) = excerpt(body, k, instr, orig, shift, files, &mut lines_cache) {
                out.push_str(&mapped);
                out.push_str(&line[body.len()..]);
                continue;
            }
        }
        last = None;
        let mut rest = line;
        let mut mapped = String::new();
        'scan: while !rest.is_empty() {
            for (k, f) in files.iter().enumerate() {
                let copy = f.copy.display().to_string();
                let Some(pos) = rest.find(&copy) else { continue };
                mapped.push_str(&rest[..pos]);
                mapped.push_str(&f.original.display().to_string());
                let after = &rest[pos + copy.len()..];
                let (num, tail) = number_after_colon(after);
                let Some(instr) = num else {
                    rest = after;
                    continue 'scan;
                };
                let orig = match &f.line_map {
                    Some(map) => original_line(map, instr),
                    None => Some(instr),
                };
                mapped.push(':');
                mapped.push_str(&orig.map_or_else(|| format!("{instr}(instrumented)"), |l| l.to_string()));
                rest = tail;
                let (col, tail) = number_after_colon(rest);
                let shift = match (col, orig, &f.line_map) {
                    (Some(c), Some(o), Some(_)) => {
                        let (instr_lines, orig_lines) = file_lines(k, files, &mut lines_cache);
                        let i_text = instr_lines.get(instr - 1).map_or("", String::as_str);
                        let o_text = orig_lines.get(o - 1).map_or("", String::as_str);
                        let c2 = map_column(i_text, o_text, c);
                        mapped.push_str(&format!(":{c2}"));
                        rest = tail;
                        c2 as isize - c as isize
                    }
                    (Some(c), _, _) => {
                        mapped.push_str(&format!(":{c}"));
                        rest = tail;
                        0
                    }
                    _ => 0,
                };
                if let (Some(o), Some(_)) = (orig, &f.line_map) {
                    last = Some((k, instr, o, shift));
                }
                continue 'scan;
            }
            mapped.push_str(rest);
            break;
        }
        out.push_str(&mapped);
    }
    out
}

/// `:digits` at the start of `s`: the number and what follows it.
fn number_after_colon(s: &str) -> (Option<usize>, &str) {
    let Some(r) = s.strip_prefix(':') else { return (None, s) };
    let digits = r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    match r[..digits].parse() {
        Ok(n) => (Some(n), &r[digits..]),
        Err(_) => (None, s),
    }
}

/// The instrumented and original lines of file `k`.
fn file_lines<'c>(
    k: usize,
    files: &[Shadow],
    cache: &'c mut std::collections::HashMap<usize, (Vec<String>, Vec<String>)>,
) -> &'c (Vec<String>, Vec<String>) {
    cache.entry(k).or_insert_with(|| {
        let read = |p: &Path| {
            String::from_utf8_lossy(&std::fs::read(p).unwrap_or_default()).lines().map(String::from).collect()
        };
        (read(&files[k].copy), read(&files[k].original))
    })
}

/// gcc's `  LINE | text` excerpt of the instrumented line and the caret line under it, as the
/// original's; `None` for any other line.
fn excerpt(
    body: &str,
    k: usize,
    instr: usize,
    orig: usize,
    shift: isize,
    files: &[Shadow],
    cache: &mut std::collections::HashMap<usize, (Vec<String>, Vec<String>)>,
) -> Option<String> {
    let (num, bar) = body.split_once(" |")?;
    let num = num.trim();
    if num.is_empty() {
        // The caret line: move the marks by the column shift.
        let marks = bar.strip_prefix(' ').unwrap_or(bar);
        let lead = marks.len() - marks.trim_start().len();
        let moved = (lead as isize + shift).max(0) as usize;
        let width = body.find('|').unwrap_or(0);
        return Some(format!("{}| {}{}", " ".repeat(width), " ".repeat(moved), marks.trim_start()));
    }
    if num.parse::<usize>().ok()? != instr {
        return None;
    }
    let (_, orig_lines) = file_lines(k, files, cache);
    let text = orig_lines.get(orig - 1)?;
    let width = body.find('|').unwrap_or(0).saturating_sub(1);
    Some(format!("{:>width$} | {text}", orig))
}

/// The column in the original line of column `col` (1-based) of the instrumented line, which
/// is the original with probe text inserted: the characters are aligned by their longest
/// common subsequence, and a column inside inserted text maps to the next original character.
pub fn map_column(instr: &str, orig: &str, col: usize) -> usize {
    let (i, o): (Vec<char>, Vec<char>) = (instr.chars().collect(), orig.chars().collect());
    // Long lines (generated code) are not aligned: quadratic work for a column.
    if i.len() * o.len() > 4_000_000 || i == o {
        return col.min(o.len() + 1).max(1);
    }
    let (n, m) = (i.len(), o.len());
    // lcs[a][b]: common subsequence length of i[a..] and o[b..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for a in (0..n).rev() {
        for b in (0..m).rev() {
            lcs[a][b] = if i[a] == o[b] { lcs[a + 1][b + 1] + 1 } else { lcs[a + 1][b].max(lcs[a][b + 1]) };
        }
    }
    let target = col.saturating_sub(1);
    let (mut a, mut b) = (0, 0);
    while a < n && b < m {
        if i[a] == o[b] && lcs[a][b] == lcs[a + 1][b + 1] + 1 {
            if a >= target {
                return b + 1;
            }
            a += 1;
            b += 1;
        } else if lcs[a + 1][b] >= lcs[a][b + 1] {
            // i[a] is inserted text.
            if a >= target {
                return b + 1;
            }
            a += 1;
        } else {
            b += 1;
        }
    }
    b + 1
}

/// Original line of an instrumented line, from the manifest's `[instr, orig, count]` runs.
pub fn original_line(map: &[[usize; 3]], line: usize) -> Option<usize> {
    if map.is_empty() {
        return Some(line);
    }
    map.iter().find(|r| line >= r[0] && line < r[0] + r[2]).map(|r| r[1] + (line - r[0]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn includes_are_read_from_directive_lines() {
        let t = "#include \"a.h\"\n  #  include <b/c.h>\n// #include \"no.h\"\n#define X \"d.h\"\n#include MACRO\n";
        assert_eq!(includes(t), vec![("a.h".to_string(), true), ("b/c.h".to_string(), false)]);
    }

    #[test]
    fn columns_map_around_an_insertion() {
        let orig = "  for (int i = 0; i < n; i++) x += a[i];";
        let instr = "  for (int i = 0; i < n; i++) { HLSINSTR_LOOP(3); x += a[i]; }";
        assert_eq!(map_column(instr, orig, 3), 3);
        // `a` of `a[i]`: after the insertion.
        let a_instr = instr.find("a[i]").unwrap() + 1;
        let a_orig = orig.find("a[i]").unwrap() + 1;
        assert_eq!(map_column(instr, orig, a_instr), a_orig);
        assert_eq!(map_column(orig, orig, 7), 7);
    }

    #[test]
    fn original_lines_through_the_line_map() {
        let map = [[2, 1, 10], [13, 11, 5]];
        assert_eq!(original_line(&map, 2), Some(1));
        assert_eq!(original_line(&map, 11), Some(10));
        assert_eq!(original_line(&map, 12), None);
        assert_eq!(original_line(&map, 14), Some(12));
    }
}
