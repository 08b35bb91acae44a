//! Where string and character literals are in C/C++ text, without a parse: strip, the
//! model and the OpenCL pre-pass skip what is inside them.

use std::ops::Range;

/// Byte ranges of the string and character literals of C/C++ text, raw strings included, in
/// order. A small lexer: comments are skipped (a quote in a comment opens nothing), `#include`
/// header names are not literals, digit separators (`1'000`) are not quotes, and an unterminated
/// literal ends at its line's end, so stray quotes (`#if 0` prose) cannot swallow the file.
pub fn literal_ranges(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                // Runs of blanks (indentation) in one go.
                i += 1;
                while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c') {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2);
                continue;
            }
            b'#' if line_start => {
                let rest = text[i + 1..].trim_start_matches([' ', '\t']);
                if rest.starts_with("include") || rest.starts_with("import") {
                    i = text[i..].find('\n').map_or(b.len(), |n| i + n);
                    continue;
                }
                i += 1;
            }
            b'"' | b'\'' => {
                let end = quoted_end(b, i);
                out.push(i..end);
                i = end;
            }
            b'0'..=b'9' => {
                // A pp-number: digits, letters, `.`, `'` separators, exponent signs.
                i += 1;
                while i < b.len() {
                    let c = b[i];
                    if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                        i += 1;
                    } else if c == b'\'' && b.get(i + 1).is_some_and(|n| n.is_ascii_alphanumeric()) {
                        i += 2;
                    } else if (c == b'+' || c == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P') {
                        i += 1;
                    } else {
                        break;
                    }
                }
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                let start = i;
                i += b[i..].iter().position(|&c| !IDENTIFIER[usize::from(c)]).unwrap_or(b.len() - i);
                // Raw strings; other prefixes (`L`, `u8`) are followed by a quote handled next.
                if b.get(i) == Some(&b'"') && matches!(&b[start..i], b"R" | b"LR" | b"uR" | b"UR" | b"u8R") {
                    let end = raw_end(b, i);
                    out.push(start..end);
                    i = end;
                }
            }
            _ => i += 1,
        }
        line_start = false;
    }
    out
}

/// The bytes that continue an identifier: letters, digits, `_` and every byte of a non-ASCII
/// character.
const IDENTIFIER: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
        c += 1;
    }
    t
};

/// End (exclusive) of the `"..."` or `'...'` literal opening at `start`.
fn quoted_end(b: &[u8], start: usize) -> usize {
    let quote = b[start];
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            // An escape, or a line splice (`\` then LF or CRLF).
            b'\\' => i += if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') { 2 } else { 1 },
            b'\n' => return i,
            c if c == quote => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// End (exclusive) of the raw string whose `"` is at `quote`: `R"delim( ... )delim"`.
fn raw_end(b: &[u8], quote: usize) -> usize {
    let delim_len = b[quote + 1..].iter().take(17).position(|&c| c == b'(');
    let Some(delim_len) = delim_len.filter(|&n| n <= 16) else { return quoted_end(b, quote) };
    let delim = &b[quote + 1..quote + 1 + delim_len];
    if delim.iter().any(|c| c.is_ascii_whitespace() || matches!(c, b')' | b'\\' | b'"')) {
        return quoted_end(b, quote);
    }
    let body = quote + 2 + delim_len;
    let mut close = vec![b')'];
    close.extend_from_slice(delim);
    close.push(b'"');
    b[body..].windows(close.len()).position(|w| w == close.as_slice()).map_or(b.len(), |p| body + p + close.len())
}
