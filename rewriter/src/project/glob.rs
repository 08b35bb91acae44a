//! Tcl's `glob`, as project scripts use it to list files (`add_files [glob src/*.cpp]`,
//! `add_files -tb [glob -nocomplain -directory data *.dat]`): the files are on disk when the
//! script is read, so the list is what `vitis_hls` would have seen.
//!
//! Supported: the options `-nocomplain`, `-directory DIR`, `-tails`, `-types f|d` (and `--`);
//! patterns with `*`, `?`, `[abc]`, `[a-z]`, `\x` and `{a,b}` in any path component. Names
//! starting with `.` match only a pattern starting with `.`, as in Tcl. Matches are sorted (Tcl
//! gives directory order, which differs between machines). `-path`, `-join` and other `-types`
//! are not interpreted.

use std::path::{Path, PathBuf};

/// What a `glob` call asks for, read from its arguments.
pub(crate) struct Glob<'a> {
    pub nocomplain: bool,
    pub directory: Option<&'a str>,
    pub tails: bool,
    /// `Some(true)`: files only; `Some(false)`: directories only.
    pub files: Option<bool>,
    pub patterns: &'a [&'a str],
}

impl<'a> Glob<'a> {
    /// The call's options and patterns; `None` for an option this reader does not interpret.
    pub(crate) fn parse(args: &'a [&'a str]) -> Option<Glob<'a>> {
        let mut g = Glob { nocomplain: false, directory: None, tails: false, files: None, patterns: &[] };
        let mut i = 0;
        while i < args.len() {
            match args[i] {
                "-nocomplain" => g.nocomplain = true,
                "-tails" => g.tails = true,
                "-directory" | "-dir" => {
                    i += 1;
                    g.directory = Some(args.get(i)?);
                }
                "-types" | "-type" => {
                    i += 1;
                    g.files = match *args.get(i)? {
                        "f" => Some(true),
                        "d" => Some(false),
                        _ => return None,
                    };
                }
                "--" => {
                    i += 1;
                    break;
                }
                s if s.starts_with('-') => return None,
                _ => break,
            }
            i += 1;
        }
        g.patterns = &args[i..];
        Some(g)
    }

    /// The matches as Tcl writes them: below `-directory` as `DIR/name` (`name` with
    /// `-tails`), otherwise as the pattern was written; `cwd` is where relative ones are.
    pub(crate) fn matches(&self, cwd: &Path) -> Vec<String> {
        let base = match self.directory {
            Some(d) => super::resolve(cwd, d),
            None => cwd.to_path_buf(),
        };
        let mut out = Vec::new();
        for pattern in self.patterns {
            for p in expand_braces(pattern) {
                let (root, shown, rest) = if let Some(abs) = p.strip_prefix('/') {
                    (PathBuf::from("/"), "/".to_string(), abs.to_string())
                } else {
                    (base.clone(), String::new(), p)
                };
                let parts: Vec<&str> = rest.split('/').filter(|c| !c.is_empty()).collect();
                walk(&root, &shown, &parts, &mut out);
            }
        }
        out.retain(|(path, _)| match self.files {
            Some(true) => path.is_file(),
            Some(false) => path.is_dir(),
            None => true,
        });
        let mut shown: Vec<String> = out
            .into_iter()
            .map(|(_, rel)| match (self.directory, self.tails) {
                (Some(d), false) if !rel.starts_with('/') => format!("{}/{}", d.trim_end_matches('/'), rel),
                _ => rel,
            })
            .collect();
        shown.sort();
        shown.dedup();
        shown
    }
}

/// Every path below `dir` that the pattern components `parts` match, with the text Tcl shows
/// for it (`shown` so far).
fn walk(dir: &Path, shown: &str, parts: &[&str], out: &mut Vec<(PathBuf, String)>) {
    let Some((first, rest)) = parts.split_first() else {
        if dir.exists() && !shown.is_empty() {
            out.push((dir.to_path_buf(), shown.to_string()));
        }
        return;
    };
    let join = |name: &str| {
        if shown.is_empty() || shown.ends_with('/') {
            format!("{shown}{name}")
        } else {
            format!("{shown}/{name}")
        }
    };
    if !first.contains(['*', '?', '[', '\\']) {
        walk(&dir.join(first), &join(first), rest, out);
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut names: Vec<String> =
        entries.filter_map(|e| e.ok()).map(|e| e.file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    for name in names {
        if name.starts_with('.') && !first.starts_with('.') {
            continue;
        }
        if wildcard(first.as_bytes(), name.as_bytes()) {
            walk(&dir.join(&name), &join(&name), rest, out);
        }
    }
}

/// `{a,b}` alternatives expanded, outermost first (`src/{k,tb}.cpp` is two patterns).
fn expand_braces(p: &str) -> Vec<String> {
    let Some(open) = p.find('{') else { return vec![p.to_string()] };
    let mut depth = 0;
    let mut close = None;
    let mut commas = Vec::new();
    for (i, c) in p[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(open + i),
            _ => {}
        }
    }
    let Some(close) = close else { return vec![p.to_string()] };
    let mut cuts = vec![open];
    cuts.extend(commas);
    cuts.push(close);
    let (head, tail) = (&p[..open], &p[close + 1..]);
    cuts.windows(2).flat_map(|w| expand_braces(&format!("{head}{}{tail}", &p[w[0] + 1..w[1]]))).collect()
}

/// Tcl's `string match` rules for one path component.
fn wildcard(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|k| wildcard(rest, &s[k..])),
        Some((b'?', rest)) => !s.is_empty() && wildcard(rest, &s[1..]),
        Some((b'[', rest)) => {
            let Some(end) = rest.iter().position(|&c| c == b']') else { return false };
            let Some((&c, s_rest)) = s.split_first() else { return false };
            let set = &rest[..end];
            let mut hit = false;
            let mut i = 0;
            while i < set.len() {
                if i + 2 < set.len() && set[i + 1] == b'-' {
                    hit |= set[i] <= c && c <= set[i + 2];
                    i += 3;
                } else {
                    hit |= set[i] == c;
                    i += 1;
                }
            }
            hit && wildcard(&rest[end + 1..], s_rest)
        }
        Some((b'\\', rest)) if !rest.is_empty() => s.first() == Some(&rest[0]) && wildcard(&rest[1..], &s[1..]),
        Some((&c, rest)) => s.first() == Some(&c) && wildcard(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_and_braces_match_as_tcl_does() {
        assert!(wildcard(b"*.cpp", b"k.cpp") && !wildcard(b"*.cpp", b"k.cpp.bak"));
        assert!(wildcard(b"tb_?.dat", b"tb_1.dat") && !wildcard(b"tb_?.dat", b"tb_12.dat"));
        assert!(wildcard(b"[a-c]x", b"bx") && !wildcard(b"[a-c]x", b"dx"));
        assert!(wildcard(b"a\\*", b"a*") && !wildcard(b"a\\*", b"ab"));
        assert_eq!(expand_braces("src/{k,tb}.cpp"), ["src/k.cpp", "src/tb.cpp"]);
        assert_eq!(expand_braces("{a,{b,c}}x"), ["ax", "bx", "cx"]);
    }
}
