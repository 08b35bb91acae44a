//! Why a function with `#if`/`#ifdef` in its body does not parse: which conditional splits braces
//! or a statement.
//!
//! Conditionals whose branches hold whole statements parse as `preproc_if`/`preproc_ifdef` nodes
//! of the block and are probed like any code (see `BodyWalker::visit_one`). A function whose
//! text has syntax errors and conditional lines is looked at here, on the text alone: a branch
//! whose braces do not balance splits braces; otherwise, when the function parses with one
//! branch of every conditional taken (the first, the last, or none), a directive that lands
//! inside a statement of that parse splits the statement. Either way the reason names the
//! directive and its line, which is what the user has to change.

use crate::parse::{kind, Lang};
use crate::source::line_col;

/// A conditional directive line: `#if`, `#ifdef`, `#ifndef`, `#elif`, `#elifdef`, `#elifndef`,
/// `#else`, `#endif`.
#[derive(Debug, Clone)]
struct Directive {
    /// Byte range of the line without its newline.
    start: usize,
    end: usize,
    word: String,
    /// The line as written, whitespace-squashed (`#ifdef A`).
    shown: String,
}

/// Directive lines of `text[range]`, with the text of each (continuation lines included).
fn directives(text: &str, range: std::ops::Range<usize>) -> Vec<Directive> {
    let mut out = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let line_end = text[at..range.end].find('\n').map(|i| at + i).unwrap_or(range.end);
        let mut end = line_end;
        // A directive continued with backslashes ends at the first line that is not.
        while text[at..end].trim_end().ends_with('\\') && end < range.end {
            end = text[end + 1..range.end].find('\n').map(|i| end + 1 + i).unwrap_or(range.end);
        }
        let line = text[at..end].trim_start();
        if let Some(rest) = line.strip_prefix('#') {
            let word: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            if matches!(word.as_str(), "if" | "ifdef" | "ifndef" | "elif" | "elifdef" | "elifndef" | "else" | "endif") {
                let shown = line.split_whitespace().collect::<Vec<_>>().join(" ");
                let shown = shown.split("//").next().unwrap_or("").trim().to_string();
                out.push(Directive { start: at, end, word, shown });
            }
        }
        at = end + 1;
    }
    out
}

/// One conditional: its directives, `#if...` first and `#endif` last (when present).
type Group = Vec<usize>;

/// Conditionals as groups of indices into `dirs`, outermost first; unterminated ones included.
fn groups(dirs: &[Directive]) -> Vec<Group> {
    let mut open: Vec<Group> = Vec::new();
    let mut done = Vec::new();
    for (i, d) in dirs.iter().enumerate() {
        match d.word.as_str() {
            "if" | "ifdef" | "ifndef" => open.push(vec![i]),
            "endif" => {
                if let Some(mut g) = open.pop() {
                    g.push(i);
                    done.push(g);
                }
            }
            _ => {
                if let Some(g) = open.last_mut() {
                    g.push(i);
                }
            }
        }
    }
    done.extend(open);
    done.sort_by_key(|g| g[0]);
    done
}

/// The `}` that closes the `{` at `open`, braces in literals and comments aside.
pub fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let code = crate::cpp_blank::code_only(text);
    let mut depth = 0usize;
    for (i, c) in code.bytes().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Where the function `text[range]` whose body opens at `open` ends when the first branch of
/// each of its conditionals is taken: the offset of its closing brace.
pub fn end_with_first_branches(text: &str, range: std::ops::Range<usize>, open: usize) -> Option<usize> {
    let dirs = directives(text, range.clone());
    let resolved = resolve(text, &range, &dirs, &groups(&dirs), Pick::First);
    matching_brace(&resolved, open)
}

fn at(text: &str, offset: usize) -> String {
    let (l, c) = line_col(text, offset);
    format!("{l}:{c}")
}

/// The reason a function whose text is `text[range]` (parsed with `lang`, with syntax errors)
/// is skipped, when a preprocessor conditional is to blame; `None` when there is none or it is
/// not the cause.
pub fn split_reason(text: &str, range: std::ops::Range<usize>, lang: Lang) -> Option<String> {
    let dirs = directives(text, range.clone());
    if dirs.is_empty() {
        return None;
    }
    let code = crate::cpp_blank::code_only(text);
    let groups = groups(&dirs);
    // Braces: every branch must close what it opens.
    for g in &groups {
        for (k, &d) in g.iter().enumerate() {
            let Some(&next) = g.get(k + 1) else { break };
            let branch = &code[dirs[d].end..dirs[next].start];
            let (mut depth, mut low) = (0i64, 0i64);
            for c in branch.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                low = low.min(depth);
            }
            if depth != 0 || low < 0 {
                let what = if depth > 0 {
                    format!("opens {depth} brace(s) it does not close")
                } else {
                    "closes a brace it did not open".to_string()
                };
                return Some(format!(
                    "the `{}` branch at {} {what} before `{}` at {}: a conditional that splits braces cannot be probed (repeat the whole statement in each branch)",
                    dirs[d].shown,
                    at(text, dirs[d].start),
                    dirs[next].shown,
                    at(text, dirs[next].start)
                ));
            }
        }
    }
    // Statements: parse with one branch of each conditional and see where the directives land.
    for pick in [Pick::First, Pick::Last, Pick::None] {
        let resolved = resolve(text, &range, &dirs, &groups, pick);
        let tree = crate::parse::parse(lang, &resolved, None);
        let root = tree.root_node();
        if crate::parse::first_error(root).is_some_and(|e| e.start_byte() < range.end && e.end_byte() > range.start) {
            continue;
        }
        for d in &dirs {
            let Some(node) = root.descendant_for_byte_range(d.start, d.start) else { continue };
            if !matches!(kind(node), "compound_statement" | "case_statement" | "translation_unit")
                && node.start_byte() < d.start
                && node.end_byte() > d.end
            {
                // The statement the directive is in: the outermost below the block.
                let mut stmt = node;
                while let Some(p) = stmt.parent() {
                    if matches!(kind(p), "compound_statement" | "case_statement" | "translation_unit") {
                        break;
                    }
                    stmt = p;
                }
                return Some(format!(
                    "`{}` at {} is inside the statement at {}: a conditional that splits a statement cannot be probed (repeat the whole statement in each branch)",
                    d.shown,
                    at(text, d.start),
                    at(text, stmt.start_byte())
                ));
            }
        }
        return None;
    }
    None
}

#[derive(Debug, Clone, Copy)]
enum Pick {
    First,
    Last,
    None,
}

/// `text` with all but `range` blanked, the directive lines of `range` blanked and, of each
/// conditional, every branch but the picked one blanked (newlines kept, so offsets stay).
fn resolve(text: &str, range: &std::ops::Range<usize>, dirs: &[Directive], groups: &[Group], pick: Pick) -> String {
    let mut out = text.as_bytes().to_vec();
    let mut blank = |from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    for g in groups {
        let branches = g.len().saturating_sub(1).max(1);
        let keep = match pick {
            Pick::First => Some(0),
            Pick::Last => Some(branches - 1),
            Pick::None => None,
        };
        for (k, &d) in g.iter().enumerate() {
            let end = g.get(k + 1).map(|&n| dirs[n].start).unwrap_or(range.end);
            if keep != Some(k) && dirs[d].word != "endif" {
                blank(dirs[d].end, end);
            }
        }
    }
    for d in dirs {
        blank(d.start, d.end);
    }
    // The function alone: error recovery around other code must not reach into it.
    blank(0, range.start);
    blank(range.end, text.len());
    String::from_utf8(out).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(src: &str) -> Option<String> {
        split_reason(src, 0..src.len(), Lang::Cpp)
    }

    #[test]
    fn a_branch_that_opens_a_brace_is_named() {
        let src = "int g(int x) {\n  int s = 0;\n#ifdef A\n  if (x) {\n#else\n  if (!x) {\n#endif\n    s = 1;\n  }\n  return s;\n}\n";
        let r = reason(src).unwrap();
        assert!(
            r.starts_with("the `#ifdef A` branch at 3:1 opens 1 brace(s) it does not close before `#else` at 5:1"),
            "{r}"
        );
    }

    #[test]
    fn a_directive_inside_a_statement_is_named() {
        let src = "int h(int a, int b) {\n  int s = a\n#ifdef A\n   + b\n#endif\n  ;\n  return s;\n}\n";
        let r = reason(src).unwrap();
        assert!(r.starts_with("`#ifdef A` at 3:1 is inside the statement at 2:3"), "{r}");
        let src = "int k(int n) {\n  int s = 0;\n#ifdef A\n  for (int i = 0; i < n; i++)\n#else\n  for (int i = n; i > 0; i--)\n#endif\n  { s += i; }\n  return s;\n}\n";
        let r = reason(src).unwrap();
        assert!(r.starts_with("`#else` at 5:1 is inside the statement at 4:3"), "{r}");
    }

    #[test]
    fn braces_in_literals_and_comments_do_not_count_and_no_conditional_is_no_reason() {
        let src = "void f() {\n#ifdef A\n  puts(\"{\"); // }\n#endif\n  x(;\n}\n";
        assert_eq!(reason(src), None);
        assert_eq!(reason("void f() { x(; }"), None);
    }
}
