//! OpenCL C (`.cl`) through the C pipeline: a pre-pass that blanks what C cannot parse.
//!
//! The OpenCL-only words (`__kernel`, address spaces, access qualifiers, Intel `channel`, `pipe`)
//! and every `__attribute__((...))` list are replaced by spaces, byte for byte (line breaks
//! kept), so every offset, line and column of the blanked text is the original's. The C grammar
//! (tree-sitter-c) parses the blanked text, the model is built on it, and the plan's edits apply
//! to the original text unchanged. What was blanked is kept: the ranges (no edit may land inside one)
//! and, per top-level declaration, the OpenCL facts the manifest reports.
//!
//! Only whole identifiers outside comments, string and character literals and preprocessor
//! lines are blanked. `channel` and `pipe` are blanked only when an identifier follows them
//! (`channel int c;`), so a variable named `channel` stays. An object-like macro defined earlier
//! in the file as nothing but such words and attribute lists (`#define KERNEL __kernel`,
//! `#define SINGLE_TASK __attribute__((max_global_work_dim(0)))`), or as nothing at all
//! (`#define INLINE`), is blanked where it is used, as its expansion would be; its `#define`
//! line stays. Cost: one pass over the text.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

/// Words blanked wherever they stand as identifiers: reserved in OpenCL C, unknown to C.
const WORDS: &[&str] = &[
    "__kernel",
    "kernel",
    "__global",
    "global",
    "__local",
    "local",
    "__constant",
    "constant",
    "__private",
    "private",
    "__read_only",
    "__write_only",
    "__read_write",
    "read_only",
    "write_only",
    "read_write",
];

/// Words blanked only when an identifier follows (a declaration, not a variable of that name).
const TYPE_WORDS: &[&str] = &["channel", "pipe"];

/// What the pre-pass saw before one top-level `{` (a function body, usually): everything since
/// the previous top-level `;` or `}`, parameter attributes included. Preprocessor conditionals
/// are not evaluated: an attribute under `#ifdef` counts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OpenClFacts {
    /// Declared `__kernel` / `kernel`.
    pub kernel: bool,
    /// `__attribute__((autorun))`: the kernel runs without a host launch.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub autorun: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub max_global_work_dim: Option<u64>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub num_compute_units: Vec<u64>,
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub reqd_work_group_size: Vec<u64>,
    /// Every attribute as written, whitespace collapsed (`max_global_work_dim(0)`).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub attributes: Vec<String>,
}

/// The blanked text and what was blanked.
#[derive(Debug, Clone, Default)]
pub struct Blanked {
    pub text: String,
    /// Blanked byte ranges, in order, disjoint.
    pub ranges: Vec<Range<usize>>,
    /// `(offset of a top-level '{', facts of the declaration it opens)`, in order.
    pub heads: Vec<(usize, OpenClFacts)>,
}

impl Blanked {
    /// Facts of the declaration whose top-level `{` is at `brace`.
    pub fn facts_at(&self, brace: usize) -> Option<&OpenClFacts> {
        self.heads.iter().find(|(b, _)| *b == brace).map(|(_, f)| f)
    }

    /// A blanked range that strictly contains `offset` (an insertion there would split a word).
    pub fn inside(&self, offset: usize) -> Option<&Range<usize>> {
        let i = self.ranges.partition_point(|r| r.end <= offset);
        self.ranges.get(i).filter(|r| r.start < offset)
    }
}

/// `.cl` files are OpenCL C.
pub fn is_opencl_path(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("cl"))
}

/// Blank the OpenCL-only syntax of `text` (see the module doc).
pub fn blank(text: &str) -> Blanked {
    let b = text.as_bytes();
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut heads = Vec::new();
    let mut facts = OpenClFacts::default();
    let mut depth = 0usize;
    let mut i = 0;
    let mut line_start = true;
    // Macros that expand to blankable words only, by name: what their expansion declares.
    let mut macros: HashMap<&str, OpenClFacts> = HashMap::new();
    // Open conditionals: (brace depth at `#if`, depth at the end of the first branch).
    let mut conditionals: Vec<(usize, Option<usize>)> = Vec::new();
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => i = line_end(b, i),
            b'/' if b.get(i + 1) == Some(&b'*') => i = text[i + 2..].find("*/").map_or(b.len(), |n| i + 2 + n + 2),
            b'#' if line_start => {
                let end = line_end(b, i);
                let line = &text[i + 1..end];
                directive(line, &mut macros);
                conditional(line, &mut conditionals, &mut depth);
                i = end;
            }
            b'"' | b'\'' => i = quoted_end(b, i),
            b'{' => {
                if depth == 0 {
                    heads.push((i, std::mem::take(&mut facts)));
                }
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
                facts = OpenClFacts::default();
                i += 1;
            }
            b';' => {
                if depth == 0 {
                    facts = OpenClFacts::default();
                }
                i += 1;
            }
            b'0'..=b'9' => i = ident_end(b, i + 1),
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let end = ident_end(b, i);
                let word = &text[i..end];
                if word == "__attribute__" {
                    let open = skip_space(b, end);
                    if b.get(open) == Some(&b'(') && b.get(skip_space(b, open + 1)) == Some(&b'(') {
                        let close = balanced_end(text, open);
                        let inner = text[open + 1..close].trim().strip_prefix('(').unwrap_or("");
                        let inner = inner.strip_suffix("))").unwrap_or(inner);
                        if depth == 0 {
                            for a in split_top(inner) {
                                record(&mut facts, &a);
                            }
                        }
                        ranges.push(i..close);
                        i = close;
                        line_start = false;
                        continue;
                    }
                } else if WORDS.contains(&word) {
                    if depth == 0 && (word == "kernel" || word == "__kernel") {
                        facts.kernel = true;
                    }
                    ranges.push(i..end);
                } else if let Some(m) = macros.get(word) {
                    if depth == 0 {
                        facts.kernel |= m.kernel;
                        for a in &m.attributes {
                            record(&mut facts, a);
                        }
                    }
                    ranges.push(i..end);
                } else if TYPE_WORDS.contains(&word) {
                    let next = skip_space(b, end);
                    if b.get(next).is_some_and(|&n| n.is_ascii_alphabetic() || n == b'_') {
                        ranges.push(i..end);
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
        line_start = false;
    }
    let mut out = b.to_vec();
    for r in &ranges {
        for byte in &mut out[r.clone()] {
            if !matches!(*byte, b'\n' | b'\r') {
                *byte = b' ';
            }
        }
    }
    // Only whole ASCII identifiers and attribute lists were replaced; a multi-byte character
    // inside an attribute becomes spaces, one per byte, which is still valid UTF-8.
    let text = String::from_utf8(out).expect("blanking writes ASCII spaces only");
    Blanked { text, ranges, heads }
}

/// Branches of a conditional may open or close braces differently (`#if A` / `for (...) {` /
/// `#else` / `for (...) {` / `#endif`): each branch starts at the depth of the `#if`, and the
/// depth after the `#endif` is the first branch's, as if it were the one compiled. Without this,
/// one such conditional would shift the depth of the rest of the file.
fn conditional(line: &str, open: &mut Vec<(usize, Option<usize>)>, depth: &mut usize) {
    let word = &line.trim_start()[..ident_end(line.trim_start().as_bytes(), 0)];
    match word {
        "if" | "ifdef" | "ifndef" => open.push((*depth, None)),
        "elif" | "elifdef" | "elifndef" | "else" => {
            if let Some((at_if, first)) = open.last_mut() {
                first.get_or_insert(*depth);
                *depth = *at_if;
            }
        }
        "endif" => {
            if let Some((_, Some(first))) = open.pop() {
                *depth = first;
            }
        }
        _ => {}
    }
}

/// A preprocessor line (after its `#`): a `#define` of blankable words only enters `macros`, an
/// `#undef` leaves it.
fn directive<'t>(line: &'t str, macros: &mut HashMap<&'t str, OpenClFacts>) {
    let line = line.trim_start();
    let (is_define, rest) = match (line.strip_prefix("define"), line.strip_prefix("undef")) {
        (Some(rest), _) => (true, rest),
        (_, Some(rest)) => (false, rest),
        _ => return,
    };
    let b = rest.as_bytes();
    let start = skip_space(b, 0);
    if start == 0 && !rest.is_empty() {
        return; // `#defined`, not `#define`
    }
    let end = ident_end(b, start);
    let name = &rest[start..end];
    if name.is_empty() {
        return;
    }
    macros.remove(name);
    if is_define && b.get(end) != Some(&b'(') {
        if let Some(facts) = blankable_expansion(&rest[end..], macros) {
            macros.insert(name, facts);
        }
    }
}

/// What a macro's replacement text declares, when it is a sequence of words that [`blank`]
/// blanks (including macros of such words) and `__attribute__((...))` lists, with comments and
/// line splices between them, or nothing at all (`#define INLINE`: blanking a use is what its
/// expansion does); `None` for any other text.
fn blankable_expansion(value: &str, macros: &HashMap<&str, OpenClFacts>) -> Option<OpenClFacts> {
    let b = value.as_bytes();
    let mut facts = OpenClFacts::default();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_whitespace() => i += 1,
            b'\\' if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => i += 1,
            b'/' if b.get(i + 1) == Some(&b'/') => break,
            b'/' if b.get(i + 1) == Some(&b'*') => i = value[i + 2..].find("*/").map(|n| i + 2 + n + 2)?,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let end = ident_end(b, i);
                let word = &value[i..end];
                if word == "__attribute__" {
                    let open = skip_space(b, end);
                    if b.get(open) != Some(&b'(') || b.get(skip_space(b, open + 1)) != Some(&b'(') {
                        return None;
                    }
                    let close = balanced_end(value, open);
                    let inner = value[open + 1..close].trim().strip_prefix('(')?.strip_suffix("))")?;
                    for a in split_top(inner) {
                        record(&mut facts, &a);
                    }
                    i = close;
                } else if WORDS.contains(&word) {
                    facts.kernel |= word == "kernel" || word == "__kernel";
                    i = end;
                } else if let Some(m) = macros.get(word) {
                    facts.kernel |= m.kernel;
                    facts.attributes.extend(m.attributes.iter().cloned());
                    i = end;
                } else {
                    return None;
                }
            }
            _ => return None,
        }
    }
    Some(facts)
}

/// One attribute (`max_global_work_dim(0)`) into the facts.
fn record(facts: &mut OpenClFacts, attr: &str) {
    let attr: String = attr.split_whitespace().collect::<Vec<_>>().join(" ");
    if attr.is_empty() {
        return;
    }
    let (name, args) = match attr.find('(') {
        Some(p) => (attr[..p].trim(), attr[p + 1..].strip_suffix(')').unwrap_or(&attr[p + 1..])),
        None => (attr.as_str(), ""),
    };
    let nums: Vec<u64> = args.split(',').filter_map(|a| a.trim().parse().ok()).collect();
    match name.trim_matches('_') {
        "autorun" => facts.autorun = true,
        "max_global_work_dim" => facts.max_global_work_dim = nums.first().copied(),
        "num_compute_units" => facts.num_compute_units = nums,
        "reqd_work_group_size" => facts.reqd_work_group_size = nums,
        _ => {}
    }
    facts.attributes.push(attr);
}

/// Split `a, b(c, d)` at top-level commas.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim().to_string());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim().to_string());
    out
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
        i += 1;
    }
    i
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// End of a line, line splices followed.
fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += if b[i] == b'\\' { 2 } else { 1 };
    }
    i.min(b.len())
}

fn quoted_end(b: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\n' => return i,
            c if c == b[start] => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// End (exclusive) of the parenthesized group opening at `open`, skipping literals; the text's
/// end if it never closes.
fn balanced_end(text: &str, open: usize) -> usize {
    let b = text.as_bytes();
    let mut depth = 0;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            b'"' | b'\'' => {
                i = quoted_end(b, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanking_keeps_every_offset_and_leaves_comments_and_strings() {
        let src = "// __kernel global\n__kernel void k(__global float4 *restrict a, const char *s) {\n  printf(\"__local %d\", 1); /* local */ __local int t[4];\n}\n";
        let bl = blank(src);
        assert_eq!(bl.text.len(), src.len());
        assert_eq!(bl.text.lines().count(), src.lines().count());
        assert!(bl.text.starts_with("// __kernel global\n         void k(         float4 *restrict a"));
        assert!(bl.text.contains("\"__local %d\""));
        assert!(bl.text.contains(&format!("/* local */{}int t[4];", " ".repeat(9))));
        assert!(bl.heads[0].1.kernel);
    }

    #[test]
    fn nested_attribute_parentheses_and_facts() {
        let src = "channel int c[2] __attribute__((depth(4)));\nint channel = 0;\n__attribute__((max_global_work_dim(0)))\n__attribute__((autorun, num_compute_units(2, 2))) __attribute__ ((reqd_work_group_size(64,1,1)))\n__kernel void k() {}\nvoid h() { kernel_like(); }\n";
        let bl = blank(src);
        assert_eq!(bl.text.len(), src.len());
        let lines: Vec<&str> = bl.text.lines().collect();
        assert_eq!(lines[0].split_whitespace().collect::<Vec<_>>(), ["int", "c[2]", ";"]);
        assert_eq!(lines[1], "int channel = 0;");
        assert_eq!(bl.text.matches('(').count(), 3, "{}", bl.text);
        let (brace, k) = &bl.heads[0];
        assert_eq!(&src[*brace..*brace + 2], "{}");
        assert!(k.kernel && k.autorun);
        assert_eq!(k.max_global_work_dim, Some(0));
        assert_eq!(k.num_compute_units, vec![2, 2]);
        assert_eq!(k.reqd_work_group_size, vec![64, 1, 1]);
        assert_eq!(
            k.attributes,
            ["max_global_work_dim(0)", "autorun", "num_compute_units(2, 2)", "reqd_work_group_size(64,1,1)"]
        );
        assert_eq!(bl.heads[1].1, OpenClFacts::default(), "the channel's depth belongs to no function");
        assert!(bl.inside(src.find("depth").unwrap()).is_some());
        assert!(bl.inside(0).is_none());
    }

    #[test]
    fn preprocessor_lines_are_left_alone() {
        let src = "#define KERNEL() __kernel\n#pragma unroll 4\n#if defined(__kernel)\nKERNEL() void k() {}\n#endif\n";
        assert_eq!(blank(src).text, src);
    }

    #[test]
    fn branches_of_a_conditional_start_at_the_same_brace_depth() {
        let src = "void f(int n) {\n#if A\n  for (;;) {\n#elif B\n  while (n) {\n#else\n  {\n#endif\n  }\n}\n\
                   #ifdef C\n#endif\n__kernel void k() {}\n";
        let bl = blank(src);
        let heads: Vec<(usize, bool)> = bl.heads.iter().map(|(b, f)| (*b, f.kernel)).collect();
        assert_eq!(heads, [(14, false), (src.rfind('{').unwrap(), true)]);
    }

    #[test]
    fn macros_of_blankable_words_are_blanked_where_used() {
        let src = "#define KERNEL __kernel\n#define GLOBAL /* space */ __global\n\
                   #define SINGLE __attribute__((max_global_work_dim(0))) \\\n  __attribute__((autorun))\n\
                   #define BOTH KERNEL SINGLE\n#define NOT_ONLY __kernel void\n#define LATER __local\n#undef LATER\n\
                   BOTH void k(GLOBAL int *a, LATER int *b) {}\nKERNEL void h() { NOT_ONLY; int KERNEL_X; }\n\
                   #define INLINE /* nothing */\nINLINE int g() { return 0; }\n";
        let bl = blank(src);
        assert_eq!(bl.text.len(), src.len());
        let lines: Vec<&str> = bl.text.lines().collect();
        assert_eq!(&lines[..8], &src.lines().take(8).collect::<Vec<_>>()[..], "definitions stay");
        assert_eq!(lines[8], "     void k(       int *a, LATER int *b) {}");
        assert_eq!(lines[9], "       void h() { NOT_ONLY; int KERNEL_X; }");
        assert_eq!(lines[11], "       int g() { return 0; }");
        let k = &bl.heads[0].1;
        assert!(k.kernel && k.autorun);
        assert_eq!(k.max_global_work_dim, Some(0));
        assert_eq!(k.attributes, ["max_global_work_dim(0)", "autorun"]);
        assert!(bl.heads[1].1.kernel && bl.heads[1].1.attributes.is_empty());
        assert_eq!(bl.heads[2].1, OpenClFacts::default());
    }
}
