//! `hlsinstr diff`: what a rewrite would change, as a unified diff or a per-file summary.

use similar::{ChangeTag, TextDiff};

/// Unified diff of one file, with `a/` and `b/` headers; empty when unchanged.
pub fn unified(rel: &str, before: &str, after: &str, color: bool) -> String {
    if before == after {
        return String::new();
    }
    let diff = TextDiff::from_lines(before, after);
    let text = diff.unified_diff().context_radius(3).header(&format!("a/{rel}"), &format!("b/{rel}")).to_string();
    if !color {
        return text;
    }
    text.lines()
        .map(|l| {
            let code = if l.starts_with("+++") || l.starts_with("---") {
                "1"
            } else if l.starts_with('+') {
                "32"
            } else if l.starts_with('-') {
                "31"
            } else if l.starts_with("@@") {
                "36"
            } else {
                ""
            };
            if code.is_empty() {
                format!("{l}\n")
            } else {
                format!("\x1b[{code}m{l}\x1b[0m\n")
            }
        })
        .collect()
}

/// Lines added and removed.
pub fn stat(before: &str, after: &str) -> (usize, usize) {
    let diff = TextDiff::from_lines(before, after);
    let mut added = 0;
    let mut removed = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_and_stat() {
        let d = unified("k.cpp", "a\nb\n", "x\na\nb\n", false);
        assert!(d.starts_with("--- a/k.cpp\n+++ b/k.cpp\n"), "{d}");
        assert!(d.contains("+x\n"));
        assert_eq!(stat("a\nb\n", "x\na\nc\n"), (2, 1));
        assert!(unified("k", "a", "a", true).is_empty());
    }
}
