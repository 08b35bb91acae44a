//! The documentation cannot go stale unnoticed: README.md stays short and keeps the test command
//! CI runs, every relative link in README.md and docs/*.md resolves (the file exists and, with
//! `#anchor`, a heading of that GitHub slug exists in it), and docs/README.md indexes every page.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// README.md's size limit in bytes (12 KB).
const README_MAX_BYTES: usize = 12 * 1024;

use common::repo;

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Whether a line opens or closes a fenced code block (``` or ~~~, up to three spaces in).
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    line.len() - t.len() <= 3 && (t.starts_with("```") || t.starts_with("~~~"))
}

/// The lines of `text` outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut in_fence = false;
    for (i, line) in text.lines().enumerate() {
        if is_fence(line) {
            in_fence = !in_fence;
        } else if !in_fence {
            out.push((i + 1, line));
        }
    }
    out
}

/// `line` without its inline code spans (a run of backticks up to the same run).
fn without_code_spans(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' {
            let run = b[i..].iter().take_while(|&&c| c == b'`').count();
            let fence = &line[i..i + run];
            if let Some(end) = line[i + run..].find(fence) {
                i += run + end + run;
                continue;
            }
            out.push_str(fence);
            i += run;
            continue;
        }
        let ch = line[i..].chars().next().unwrap();
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// The targets of the inline links `[text](target)` and images `![alt](target)` in `text`,
/// outside code, with their line numbers. A target's optional title (`"..."`) is dropped.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let line = without_code_spans(line);
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let mut depth = 0usize;
            let mut end = None;
            for (i, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = Some(i);
                        break;
                    }
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            let Some(end) = end else { break };
            let mut target = after[..end].trim();
            if let Some(t) = target.strip_prefix('<').and_then(|t| t.split('>').next()) {
                target = t;
            } else if let Some(space) = target.find(char::is_whitespace) {
                target = &target[..space];
            }
            out.push((n, target.to_string()));
            rest = &after[end + 1..];
        }
    }
    out
}

/// GitHub's anchor of a heading: the rendered text (code spans, emphasis and link markup
/// dropped) lowercased, spaces turned into `-`, every other character that is not a letter, a
/// digit, `-` or `_` removed.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // A link's text stands for the link.
    while let Some(open) = rest.find('[') {
        match rest[open..].find("](").map(|m| open + m) {
            Some(mid) if rest[mid..].contains(')') => {
                let close = mid + rest[mid..].find(')').unwrap();
                text.push_str(&rest[..open]);
                text.push_str(&rest[open + 1..mid]);
                rest = &rest[close + 1..];
            }
            _ => break,
        }
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of every ATX heading of a markdown text, outside code blocks; a repeated slug
/// gets `-1`, `-2`, ... as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        if line.len() - t.len() > 3 {
            continue;
        }
        let hashes = t.bytes().take_while(|&c| c == b'#').count();
        if !(1..=6).contains(&hashes) || !(t.len() == hashes || t[hashes..].starts_with([' ', '\t'])) {
            continue;
        }
        let title = t[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// Whether a link target is an outside address rather than a path in the repository.
fn is_external(target: &str) -> bool {
    let scheme = target.split(':').next().unwrap_or("");
    target.contains(':') && !scheme.is_empty() && scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c))
}

/// `path` with `.` and `..` resolved lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

fn rel(path: &Path) -> String {
    path.strip_prefix(repo()).unwrap_or(path).display().to_string()
}

#[test]
fn readme_is_at_most_12_kb() {
    let size = fs::metadata(repo().join("README.md")).unwrap().len() as usize;
    assert!(
        size <= README_MAX_BYTES,
        "README.md is {size} bytes, more than {README_MAX_BYTES}: move detail into a page under docs/"
    );
}

#[test]
fn readme_holds_the_test_command_that_ci_runs() {
    let readme = read(&repo().join("README.md"));
    let mut in_fence = false;
    let mut found = false;
    for line in readme.lines() {
        if is_fence(line) {
            in_fence = !in_fence;
        } else if in_fence && line.split('#').next().unwrap().trim() == "scripts/test.sh" {
            found = true;
        }
    }
    assert!(found, "README.md must show `scripts/test.sh` as the test command, on a line of its own in a code block");
    let ci = read(&repo().join(".ci/run"));
    let last = ci.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    assert_eq!(last.trim(), "scripts/test.sh", ".ci/run must end by running README's test command");
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in common::doc_pages() {
        let text = read(&page);
        for (line, target) in links(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() { page.clone() } else { normalize(&page.parent().unwrap().join(path)) };
            let at = format!("{}:{line}: ({target})", rel(&page));
            checked += 1;
            if !file.starts_with(repo()) {
                broken.push(format!("{at}: leaves the repository"));
                continue;
            }
            if !file.exists() {
                broken.push(format!("{at}: {} does not exist", rel(&file)));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_none_or(|x| x != "md") {
                broken.push(format!("{at}: an anchor into a file that is not markdown"));
                continue;
            }
            let known = anchors(&read(&file));
            if !known.contains(anchor) {
                broken.push(format!("{at}: no heading #{anchor} in {}; it has: {:?}", rel(&file), known));
            }
        }
    }
    assert!(checked > 0, "no links found: the link scanner is broken");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn docs_index_links_every_page() {
    let docs = repo().join("docs");
    let index = docs.join("README.md");
    let linked: BTreeSet<PathBuf> = links(&read(&index))
        .into_iter()
        .filter(|(_, t)| !is_external(t))
        .map(|(_, t)| normalize(&docs.join(t.split('#').next().unwrap())))
        .collect();
    let mut missing = Vec::new();
    for entry in fs::read_dir(&docs).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() && path != index && !linked.contains(&path) {
            missing.push(rel(&path));
        }
    }
    missing.sort();
    assert!(missing.is_empty(), "docs/README.md does not link: {missing:?}");
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(slug("Decoding the iBuffer dump: `hlsinstr decode`"), "decoding-the-ibuffer-dump-hlsinstr-decode");
    assert_eq!(slug("The library (opencl-lib)"), "the-library-opencl-lib");
    assert_eq!(slug("Rewriting `.cl` files"), "rewriting-cl-files");
    assert_eq!(slug("m_axi traffic (`--probes modules,maxi`)"), "m_axi-traffic---probes-modulesmaxi");
    assert_eq!(slug("A — B"), "a--b");
    assert_eq!(slug("See [the index](README.md) now"), "see-the-index-now");
    let a = anchors("# T\n## Tests\n```\n## Not a heading\n```\n## Tests\n#NoSpace\n    # indented code\n");
    let want: BTreeSet<String> = ["t", "tests", "tests-1"].iter().map(|s| s.to_string()).collect();
    assert_eq!(a, want);
}

#[test]
fn links_skip_code() {
    let text = "See [a](a.md) and `[b](b.md)`.\n```\n[c](c.md)\n```\n[d](d.md#x \"title\") [e](<e f.md>) [g](https://x.org/(y))\n";
    let got: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(got, ["a.md", "d.md#x", "e f.md", "https://x.org/(y)"]);
    assert!(is_external("https://x.org/(y)") && is_external("mailto:a@b") && !is_external("docs/a.md#x"));
}
