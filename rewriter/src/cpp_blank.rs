//! Stage 1 helper: C++ that tree-sitter-cpp rejects but HLS code uses, blanked before parsing.
//!
//! The parser and the model's tree see a copy of the text with a few words and lines replaced by
//! spaces (newlines kept, so every offset is the original's); the model reads names and pragmas
//! from the original text, and the edits apply to it. What is blanked, and why it is safe:
//! - uses of object-like macros that expand to storage classes or qualifiers only (`#define KEEP
//!   static`, `KEEP int buf[16];`), and Vitis' `hls_thread_local`: the grammar reads the macro
//!   name as a type and the declaration fails. Declarations are never probed, so what the words
//!   say does not matter to the rewrite;
//! - `typename` in a functional cast (`typename Box<A>::T(0.5)`), which the grammar does not
//!   know; without it the cast reads as a call of a qualified name, which it is to a reader;
//! - a sign or size keyword used alone as a functional cast (`return (unsigned(x_));`, valid
//!   C++: the public mzrghorbani/lr_hls_dev's getters, Vivado HLS 2019.1), which the grammar
//!   reads as the start of a type and fails on; without it the cast reads as a parenthesised
//!   expression, its value to a reader (the width is not the rewrite's concern);
//! - `#pragma` lines between a brace-less loop header and its body, where the grammar expects a
//!   statement. The model finds them there again in the original text (see `model`);
//! - the inside of a long brace initializer of numbers only (`weight_t w2[4096] = {0.1, ...};`,
//!   hls4ml's weights headers hold 50 MB of them): a declaration is never probed, and parsing
//!   every number cost the rewrite most of its time and a syntax tree ~30 times the text. The
//!   parser sees `= {   }`, which is valid;
//! - `#include` lines inside a brace initializer (`const coef_t t[8][8] = {` then `#include
//!   "table.txt"` then `};`, the stock Xilinx DCT): the grammar takes a directive only where a
//!   statement or declaration may stand, fails on the whole function, and the function went
//!   unprobed and uncosted. The compiler still includes the file; the parser sees `= { }`.
//!
//! Text that parses is left alone: a file with none of these gets no copy.

use crate::opencl::Blanked;

/// Words that may stand where a storage class or qualifier does, and nothing else.
const SPECIFIERS: &[&str] = &[
    "static",
    "const",
    "volatile",
    "inline",
    "extern",
    "register",
    "thread_local",
    "constexpr",
    "mutable",
    "__inline",
    "__inline__",
    "__forceinline",
    "restrict",
    "__restrict",
    "__restrict__",
];

/// Vitis' own macros of that kind, defined in its headers (not in the user's file).
const VENDOR_SPECIFIERS: &[&str] = &["hls_thread_local"];

/// The blanked copy of `text`, or none when nothing needs blanking.
pub fn blank(text: &str) -> Option<Blanked> {
    blank_with(text, &[])
}

/// The names of `text`'s object-like macros that expand to specifiers only (see the module
/// comment), for [`blank_with`].
pub fn specifier_macros(text: &str) -> Vec<String> {
    let code = code_only(text);
    directive_lines(&code).into_iter().filter_map(|r| specifier_macro(&code[r])).collect()
}

/// [`blank`] with the uses of the macros `defined` elsewhere blanked too: a piece of whole
/// top-level items of a large file (see [`crate::top_level`]) is blanked as it is in the whole
/// file when `defined` holds the whole file's [`specifier_macros`]. Every other rule reads
/// within one top-level item.
pub fn blank_with(text: &str, defined: &[String]) -> Option<Blanked> {
    let code = code_only(text);
    let lines = directive_lines(&code);
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();

    let mut names: Vec<String> = VENDOR_SPECIFIERS.iter().map(|s| s.to_string()).collect();
    for r in &lines {
        if let Some(name) = specifier_macro(&code[r.clone()]) {
            names.push(name);
        }
    }
    names.extend(defined.iter().cloned());
    let in_directive = |at: usize| {
        let i = lines.partition_point(|r| r.end <= at);
        lines.get(i).is_some_and(|r| r.start <= at)
    };
    for (start, word) in words(&code) {
        if in_directive(start) {
            continue;
        }
        if names.iter().any(|n| n == word)
            || (word == "typename" && functional_cast_after(&code, start + word.len()))
            || (SIGN_SIZE.contains(&word) && keyword_cast_after(&code, start, start + word.len()))
        {
            ranges.push(start..start + word.len());
        }
    }
    ranges.extend(pragmas_before_unbraced_bodies(&code, &lines));
    ranges.extend(number_initializers(&code));
    ranges.extend(includes_in_initializers(&code, &lines));
    if ranges.is_empty() {
        return None;
    }
    ranges.sort_by_key(|r| r.start);
    let mut out = text.as_bytes().to_vec();
    for r in &ranges {
        for b in &mut out[r.clone()] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    let text = String::from_utf8(out).ok()?;
    Some(Blanked { text, ranges, heads: Vec::new() })
}

/// `text` with string and character literals and comments replaced by spaces (same length).
pub(crate) fn code_only(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    for r in crate::source::literal_ranges(text) {
        for b in &mut out[r] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    let bytes = text.as_bytes();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if out[i] == b'/' && out[i + 1] == b'/' {
            while i < bytes.len() && bytes[i] != b'\n' {
                out[i] = b' ';
                i += 1;
            }
        } else if out[i] == b'/' && out[i + 1] == b'*' {
            while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                if bytes[i] != b'\n' {
                    out[i] = b' ';
                }
                i += 1;
            }
            for b in out.iter_mut().skip(i).take(2) {
                *b = b' ';
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    // Replacing bytes of multi-byte characters by spaces keeps the length and stays UTF-8 only
    // where whole characters go: literal and comment bytes are all replaced, so it does.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Initializers shorter than this are left to the parser (they cost it little).
const LONG_INITIALIZER: usize = 4096;

/// The insides of brace initializers (`= {` or `] {`) at least [`LONG_INITIALIZER`] bytes long
/// that hold numbers only: digits, a number's letters (hex digits, `x`, exponents, suffixes),
/// signs, points, commas, nested braces and blanks. Anything else (a name, a call, a `;`, a
/// directive) leaves the initializer to the parser.
fn number_initializers(code: &str) -> Vec<std::ops::Range<usize>> {
    let b = code.as_bytes();
    let number_byte = |c: u8| {
        c.is_ascii_hexdigit()
            || matches!(c, b'x' | b'X' | b'u' | b'U' | b'l' | b'L' | b'p' | b'P' | b'.' | b'+' | b'-' | b',' | b'\'')
            || c.is_ascii_whitespace()
    };
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].find('{').map(|k| at + k) {
        at = k + 1;
        let before = b[..k].iter().rev().find(|c| !c.is_ascii_whitespace());
        if !matches!(before, Some(b'=' | b']')) {
            continue;
        }
        let (mut depth, mut i) = (1usize, k + 1);
        while i < b.len() && depth > 0 {
            match b[i] {
                b'{' => depth += 1,
                b'}' => depth -= 1,
                c if number_byte(c) => {}
                _ => break,
            }
            i += 1;
        }
        if depth == 0 && i - k >= LONG_INITIALIZER {
            out.push(k + 1..i - 1);
            at = i;
        }
    }
    out
}

/// The `#include` lines (of `lines`, the directive lines) that stand inside a brace initializer:
/// the innermost open brace before them follows `=`, `]`, `,` or another such brace.
fn includes_in_initializers(code: &str, lines: &[std::ops::Range<usize>]) -> Vec<std::ops::Range<usize>> {
    let b = code.as_bytes();
    let is_include = |r: &std::ops::Range<usize>| code[r.start + 1..r.end].trim_start().starts_with("include");
    if !lines.iter().any(is_include) {
        return Vec::new();
    }
    // One pass over the code outside directives: the open braces, each marked whether it opens
    // an initializer.
    let mut open: Vec<bool> = Vec::new();
    let mut out = Vec::new();
    let mut at = 0;
    for r in lines {
        while at < r.start {
            match b[at] {
                b'{' => {
                    let before = b[..at].iter().rev().find(|c| !c.is_ascii_whitespace());
                    let initializer = matches!(before, Some(b'=' | b']' | b','))
                        || (before == Some(&b'{') && open.last() == Some(&true));
                    open.push(initializer);
                }
                b'}' => {
                    open.pop();
                }
                _ => {}
            }
            at += 1;
        }
        if is_include(r) && open.last() == Some(&true) {
            out.push(r.clone());
        }
        at = at.max(r.end);
    }
    out
}

/// Byte ranges of preprocessor lines (from `#` to the end of the line, continuations included).
fn directive_lines(code: &str) -> Vec<std::ops::Range<usize>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < b.len() {
        let mut end = code[at..].find('\n').map(|i| at + i).unwrap_or(b.len());
        while code[at..end].trim_end().ends_with('\\') && end < b.len() {
            end = code[end + 1..].find('\n').map(|i| end + 1 + i).unwrap_or(b.len());
        }
        let first = code[at..end].find(|c: char| !c.is_whitespace()).map(|i| at + i);
        if let Some(f) = first.filter(|&f| b[f] == b'#') {
            out.push(f..end);
        }
        at = end + 1;
    }
    out
}

/// `#define NAME words` with every word a specifier (or none): NAME.
fn specifier_macro(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let name_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (name, value) = rest.split_at(name_len);
    // `#define F(x) ...` is function-like: not a specifier.
    if name.is_empty() || value.starts_with('(') {
        return None;
    }
    value.split_whitespace().all(|w| SPECIFIERS.contains(&w)).then(|| name.to_string())
}

/// Identifier-like words of `code` with their offsets.
fn words(code: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = code.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            if b[i].is_ascii_alphabetic() || b[i] == b'_' {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                // Digits before it make it part of a number (`1e5f`): not a word.
                if start > 0 && b[start - 1].is_ascii_digit() {
                    continue;
                }
                return Some((start, &code[start..i]));
            }
            i += 1;
        }
        None
    })
}

/// Keywords that the grammar reads as the start of a sized type (`unsigned int`) but C++ also
/// allows alone as a functional cast's type (`unsigned(x)`).
const SIGN_SIZE: &[&str] = &["unsigned", "signed", "long", "short"];

/// The keyword between `start` and `at` is a functional cast: `(` follows (not `(*` or `(&`, a
/// declarator of a function pointer or reference), and no type word comes before it
/// (`long long(x)`, `unsigned long(x)` are not valid casts; `(`, an operator, `return` are).
fn keyword_cast_after(code: &str, start: usize, at: usize) -> bool {
    let b = code.as_bytes();
    let mut i = at;
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i >= b.len() || b[i] != b'(' {
        return false;
    }
    let next = code[i + 1..].trim_start().as_bytes().first().copied();
    if matches!(next, Some(b'*' | b'&' | b'^')) {
        return false;
    }
    let before = code[..start].trim_end();
    let word_before = before.rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
    before.is_empty() || !before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') || word_before == "return"
}

/// After `typename` at `at`: a qualified name (with template arguments) directly followed by
/// `(` or `{`: a functional cast such as `typename Box<A>::T(0.5)`.
fn functional_cast_after(code: &str, at: usize) -> bool {
    let b = code.as_bytes();
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(at);
    let mut parts = 0;
    loop {
        if i + 1 < b.len() && &code[i..i + 2] == "::" {
            i = skip_ws(i + 2);
            continue;
        }
        if i < b.len() && (b[i].is_ascii_alphabetic() || b[i] == b'_') {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            parts += 1;
            i = skip_ws(i);
            if i < b.len() && b[i] == b'<' {
                // Template arguments: balanced angle brackets (and parentheses inside them).
                let (mut angle, mut paren) = (0i32, 0i32);
                while i < b.len() {
                    match b[i] {
                        b'<' if paren == 0 => angle += 1,
                        b'>' if paren == 0 => angle -= 1,
                        b'(' => paren += 1,
                        b')' => paren -= 1,
                        b';' | b'{' | b'}' => return false,
                        _ => {}
                    }
                    i += 1;
                    if angle == 0 {
                        break;
                    }
                }
                i = skip_ws(i);
            }
            if i + 1 < b.len() && &code[i..i + 2] == "::" {
                continue;
            }
            break;
        }
        return false;
    }
    parts >= 2 && i < b.len() && (b[i] == b'(' || b[i] == b'{')
}

/// `#pragma` lines right after the `)` of a `for`/`while` header whose body, after them, is not
/// a block: the lines, to blank.
fn pragmas_before_unbraced_bodies(code: &str, lines: &[std::ops::Range<usize>]) -> Vec<std::ops::Range<usize>> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for (start, word) in words(code) {
        if word != "for" && word != "while" {
            continue;
        }
        // A loop written in a macro definition has no body on the next line.
        let k = lines.partition_point(|r| r.end <= start);
        if lines.get(k).is_some_and(|r| r.start <= start) {
            continue;
        }
        let mut i = start + word.len();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() || b[i] != b'(' {
            continue;
        }
        // The header's closing parenthesis.
        let mut depth = 0i32;
        while i < b.len() {
            match b[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
            i += 1;
            if depth == 0 {
                break;
            }
        }
        let mut found = Vec::new();
        loop {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            let Ok(k) = lines.binary_search_by_key(&i, |r| r.start) else { break };
            let line = &lines[k];
            if !code[line.clone()].trim_start_matches('#').trim_start().starts_with("pragma") {
                break;
            }
            found.push(line.clone());
            i = line.end;
        }
        if !found.is_empty() && i < b.len() && b[i] != b'{' && b[i] != b';' {
            out.extend(found);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(src: &str) -> String {
        blank(src).map(|b| b.text).unwrap_or_else(|| src.to_string())
    }

    #[test]
    fn specifier_macros_and_hls_thread_local_are_blanked_where_used() {
        let src = "#define KEEP static\n#define CONST const volatile\n#define SQ(x) x\nint f() { KEEP int b[4]; hls_thread_local int n; CONST int c = 1; return SQ(b[0]); }\n";
        let out = blanked(src);
        assert_eq!(out.len(), src.len());
        assert!(out.contains("#define KEEP static") && out.contains("{      int b[4];"), "{out}");
        assert!(out.contains("                 int n;") && out.contains("      int c = 1"), "{out}");
        assert!(out.contains("SQ(b[0])"), "function-like macros stay: {out}");
    }

    #[test]
    fn long_number_initializers_are_blanked_inside_their_braces() {
        let numbers: Vec<String> = (0..2000).map(|k| format!("{}.5e-3f", k as f64 / 7.0)).collect();
        let src = format!("float w[2000] = {{{}}};\nint f() {{ return 1; }}\n", numbers.join(", "));
        let out = blanked(&src);
        assert_eq!(out.len(), src.len());
        assert!(out.starts_with("float w[2000] = {  ") && out.contains(" };\nint f() { return 1; }"), "{out:.80}");
        // 2-D, and the same with a name inside: left alone.
        let nested =
            format!("int m[2][1000] = {{{{{}}}, {{{}}}}};\n", numbers[..1000].join(","), numbers[..1000].join(","));
        let out = blanked(&nested);
        let inside = &out[out.find('{').unwrap()..];
        assert!(!inside.contains(|c: char| c.is_ascii_digit()) && inside.trim_end().ends_with("};"), "{inside:.80}");
        let named = format!("float w[2000] = {{{}, N}};\n", numbers.join(", "));
        assert_eq!(blanked(&named), named, "a name inside: not numbers only");
        let short = "float w[3] = {1.0, 2.0, 3.0};\n";
        assert_eq!(blanked(short), short, "short initializers are parsed");
    }

    #[test]
    fn an_include_inside_an_initializer_is_blanked_and_the_function_parses() {
        let src = "#include \"dct.h\"\nvoid dct_1d(int in[8], int out[8]) {\n  const int t[8][8] = {\n#include \"table.txt\"\n  };\n  for (int k = 0; k < 8; k++) out[k] = in[k] * t[k][0];\n}\nint g() { int x[2] = { 1,\n#include \"more.txt\"\n }; return x[0]; }\n";
        let out = blanked(src);
        assert_eq!(out.len(), src.len());
        assert!(out.starts_with("#include \"dct.h\""), "a top-level include stays: {out}");
        assert!(!out.contains("table.txt") && !out.contains("more.txt"), "{out}");
        let tree = crate::parse::parse_cpp(&out, None);
        assert!(!tree.root_node().has_error(), "{out}");
        // In a function body, not in an initializer: left to the parser.
        assert!(blank("void f() {\n#include \"body.inc\"\n}\n").is_none());
    }

    #[test]
    fn typename_only_in_a_functional_cast() {
        let src = "template <typename A> A h(A x) { typename Box<A>::T y = typename Box<A>::T(0.5); return x * typename ns::Box<A, 2>::T{1}; }";
        let out = blanked(src);
        assert_eq!(out.matches("typename").count(), 2, "the template parameter and the declaration: {out}");
        assert!(out.contains("y =          Box<A>::T(0.5)") && out.contains("x *          ns::Box"), "{out}");
        assert!(blank("void f() { \"typename A::B(x)\"; }").is_none(), "literals are not code");
    }

    #[test]
    fn a_sign_keyword_alone_as_a_functional_cast() {
        let src = "unsigned f(const S &s) { return (unsigned(s.layer())); }\nint g(int v) { return unsigned(v) + long (v); }\n";
        let out = blanked(src);
        assert!(out.contains("return (        (s.layer()));"), "{out}");
        assert!(out.contains("return         (v) +      (v);"), "{out}");
        assert!(out.starts_with("unsigned f("), "a return type is kept: {out}");
        let decls = "unsigned (*fp)(int);\nunsigned long h(unsigned long (x));\nunsigned int n = 0;\n";
        assert!(blank(decls).is_none(), "declarations are not casts: {:?}", blank(decls).map(|b| b.text));
    }

    #[test]
    fn pragmas_between_an_unbraced_loop_header_and_its_body() {
        let src = "void f(int *a) {\n  for (int i = 0; i < 4; i++)\n#pragma HLS PIPELINE II=1\n    a[i] = i;\n  for (;;)\n#pragma HLS UNROLL\n  {\n  }\n}\n";
        let out = blanked(src);
        assert!(out.contains("i++)\n                         \n    a[i]"), "{out}");
        assert!(out.contains("#pragma HLS UNROLL\n  {"), "a block keeps its pragma: {out}");
        let src = "#define EACH(n) for (int i = 0; i < n; i++)\n#pragma HLS INLINE\nint x;\n";
        assert!(blank(src).is_none(), "a loop in a macro definition");
    }
}
