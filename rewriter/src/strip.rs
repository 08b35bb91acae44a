//! Removing instrumentation: the exact inverse of a rewrite.
//!
//! Rewrite refuses input that already contains any of our markers, so every marker in an
//! instrumented file is ours. Each inserted token came with exactly one space; a run of tokens
//! is removed with as many spaces, which restores the original bytes (see `edit::flush_tokens`).

use crate::edit::{apply, Edit};
use crate::plan::{CLOSE_BRACE, INCLUDE_LINE, OPEN_BRACE};
use std::ops::Range;

/// Text that marks hlsinstr instrumentation. Rewriting refuses files containing any of them.
pub const MARKERS: &[&str] = &["HLSINSTR_", OPEN_BRACE, CLOSE_BRACE, "hlsinstr/probe.h"];

/// First marker in `text`, with its offset: the reason to refuse a rewrite.
pub fn find_marker(text: &str) -> Option<(usize, &'static str)> {
    MARKERS.iter().filter_map(|m| text.find(m).map(|i| (i, *m))).min()
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at byte {offset}")]
pub struct StripError {
    pub offset: usize,
    pub message: String,
}

/// Remove every trace of instrumentation from `text`.
pub fn strip(text: &str) -> Result<String, StripError> {
    let mut edits = Vec::new();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if text[bom..].starts_with(INCLUDE_LINE) {
        let after = bom + INCLUDE_LINE.len();
        let eol = if text[after..].starts_with("\r\n") {
            2
        } else if text[after..].starts_with('\n') {
            1
        } else {
            0
        };
        edits.push(Edit::delete(bom..after + eol));
    }
    let mut tokens: Vec<Range<usize>> = Vec::new();
    let mut pos = 0;
    while let Some(found) = next_marker(text, pos) {
        let (start, kind) = found;
        match kind {
            Marker::Brace => {
                tokens.push(start..start + OPEN_BRACE.len());
                pos = start + OPEN_BRACE.len();
            }
            Marker::Call => {
                let open = text[start..]
                    .find('(')
                    .map(|i| start + i)
                    .ok_or_else(|| err(start, "HLSINSTR_ call without `(`"))?;
                let name = &text[start..open];
                let close = matching_paren(text, open)
                    .ok_or_else(|| err(start, "unbalanced parentheses in an HLSINSTR_ call"))?;
                if name == "HLSINSTR_RETURN" || name == "HLSINSTR_RETURN_V" {
                    // `HLSINSTR_RETURN(id, O, expr)`: keep `expr`.
                    let value_start = nth_comma(text, open, close, 2)
                        .ok_or_else(|| err(start, "HLSINSTR_RETURN without a value"))?
                        + 2;
                    edits.push(Edit::delete(start..value_start));
                    edits.push(Edit::delete(close..close + 1));
                    pos = value_start;
                    continue;
                }
                let mut end = close + 1;
                if name != "HLSINSTR_RETURN_VOID" {
                    if !text[end..].starts_with(';') {
                        return Err(err(start, "HLSINSTR_ statement without its `;`"));
                    }
                    end += 1;
                }
                tokens.push(start..end);
                pos = end;
            }
        }
    }
    edits.extend(token_runs(text, &tokens));
    apply(text, edits).map_err(|e| err(0, &e.to_string()))
}

fn err(offset: usize, message: &str) -> StripError {
    StripError { offset, message: message.to_string() }
}

enum Marker {
    Brace,
    Call,
}

fn next_marker(text: &str, from: usize) -> Option<(usize, Marker)> {
    let call = text[from..].find("HLSINSTR_").map(|i| from + i);
    let open = text[from..].find(OPEN_BRACE).map(|i| from + i);
    let close = text[from..].find(CLOSE_BRACE).map(|i| from + i);
    let brace = match (open, close) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    match (call, brace) {
        (Some(c), Some(b)) if b < c => Some((b, Marker::Brace)),
        (Some(c), _) => Some((c, Marker::Call)),
        (None, Some(b)) => Some((b, Marker::Brace)),
        (None, None) => None,
    }
}

/// Group tokens separated by single spaces and delete each group with one more space.
fn token_runs(text: &str, tokens: &[Range<usize>]) -> Vec<Edit> {
    let bytes = text.as_bytes();
    let mut edits = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let start = tokens[i].start;
        let mut end = tokens[i].end;
        while i + 1 < tokens.len() && tokens[i + 1].start == end + 1 && bytes[end] == b' ' {
            i += 1;
            end = tokens[i].end;
        }
        let range = if bytes.get(end) == Some(&b' ') {
            start..end + 1
        } else if start > 0 && bytes[start - 1] == b' ' {
            start - 1..end
        } else {
            start..end
        };
        edits.push(Edit::delete(range));
        i += 1;
    }
    edits
}

/// Offset of the `)` matching the `(` at `open`, skipping strings, characters and comments.
pub fn matching_paren(text: &str, open: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return (b[i] == b')').then_some(i);
                }
            }
            b'"' | b'\'' => i = skip_quoted(b, i)?,
            b'/' if b.get(i + 1) == Some(&b'/') => i = text[i..].find('\n').map(|n| i + n)?,
            b'/' if b.get(i + 1) == Some(&b'*') => i = text[i + 2..].find("*/").map(|n| i + 2 + n + 1)?,
            _ => {}
        }
        i += 1;
    }
    None
}

fn skip_quoted(b: &[u8], start: usize) -> Option<usize> {
    let quote = b[start];
    // Raw string literal R"delim( ... )delim".
    if quote == b'"' && start > 0 && b[start - 1] == b'R' {
        let open = start + b[start..].iter().position(|&c| c == b'(')?;
        let delim = &b[start + 1..open];
        let mut close = Vec::from(&b")"[..]);
        close.extend_from_slice(delim);
        close.push(b'"');
        let end = b[open..].windows(close.len()).position(|w| w == close.as_slice())?;
        return Some(open + end + close.len() - 1);
    }
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            c if c == quote => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Offset of the n-th top-level comma (1-based) inside the parentheses `open..close`.
fn nth_comma(text: &str, open: usize, close: usize, n: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut seen = 0;
    for (i, &c) in b.iter().enumerate().take(close).skip(open + 1) {
        if c == b',' {
            seen += 1;
            if seen == n {
                return Some(i);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_tokens_with_one_space_each() {
        let inst = "#include \"hlsinstr/probe.h\" // hlsinstr\r\nvoid f() { HLSINSTR_FUNC_BEGIN(1, P, 0);\r\n  if (x) {/*hlsinstr*/ HLSINSTR_LOOP_BEGIN(2, P, 0); for(;;) {/*hlsinstr*/ HLSINSTR_LOOP_ITER(2); y(\")\"); }/*hlsinstr*/ HLSINSTR_LOOP_END(2, P, 0); }/*hlsinstr*/\r\n  return HLSINSTR_RETURN_VOID(1, P);\r\n}";
        let orig = "void f() {\r\n  if (x) for(;;) y(\")\");\r\n  return;\r\n}";
        assert_eq!(strip(inst).unwrap(), orig);
    }

    #[test]
    fn return_wrapper_keeps_the_expression() {
        let inst = "int f() { return HLSINSTR_RETURN(1, TS, g(\")\", ')', /*)*/ R\"x()\")x\")); }";
        assert_eq!(strip(inst).unwrap(), "int f() { return g(\")\", ')', /*)*/ R\"x()\")x\"); }");
    }

    #[test]
    fn markers_found() {
        assert_eq!(find_marker("int a; // HLSINSTR_X"), Some((10, "HLSINSTR_")));
        assert_eq!(find_marker("#pragma HLSINSTR probe"), None);
    }
}
