//! Removing instrumentation: the exact inverse of a rewrite.
//!
//! Rewrite refuses input that already contains any of our markers, so every marker in an
//! instrumented file is ours. Markers inside string and character literals are data, not
//! instrumentation: both sides ignore them (a kernel may well print "HLSINSTR_..."). Each
//! inserted token came with exactly one space; a run of tokens is removed with as many spaces,
//! which restores the original bytes (see `edit::flush_tokens`).
//!
//! Only an unmodified rewrite is undone blindly. Hand edits inside or across the markers (code
//! added to a braced block, a marker brace removed, code in a probe's arguments) would change
//! meaning on the way back: [`strip_with`] refuses them, or with `force` keeps that code in place.

use crate::edit::{apply, Edit};
use crate::plan::{CLOSE_BRACE, INCLUDE_LINES, OPEN_BRACE};
use crate::source::literal_ranges;
use std::ops::Range;

/// Text that marks hlsinstr instrumentation. Rewriting refuses files containing any of them.
pub const MARKERS: &[&str] = &[
    "HLSINSTR_",
    OPEN_BRACE,
    CLOSE_BRACE,
    "hlsinstr/probe.h",
    "hlsinstr/vitis.h",
    "hlsinstr_top.h",
    "hlsinstr_probe.cl",
];

/// First marker in `text` outside string and character literals, with its offset: the reason
/// to refuse a rewrite.
pub fn find_marker(text: &str) -> Option<(usize, &'static str)> {
    // Almost every input has no marker text at all, and then lexing its literals is not needed
    // (a substring test is ~50x faster than the lexer).
    if !MARKERS.iter().any(|m| text.contains(m)) {
        return None;
    }
    let literals = literal_ranges(text);
    MARKERS.iter().filter_map(|m| find_outside(text, 0, m, &literals).map(|i| (i, *m))).min()
}

/// First occurrence of `pat` at or after `from` that does not start inside one of `literals`
/// (sorted, disjoint ranges).
fn find_outside(text: &str, mut from: usize, pat: &str, literals: &[Range<usize>]) -> Option<usize> {
    loop {
        let at = from + text[from..].find(pat)?;
        let i = literals.partition_point(|r| r.end <= at);
        match literals.get(i) {
            Some(r) if r.start <= at => from = r.end,
            _ => return Some(at),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message} at byte {offset}")]
pub struct StripError {
    pub offset: usize,
    pub message: String,
}

/// How strict [`strip_with`] is.
#[derive(Debug, Clone, Copy, Default)]
pub struct StripOptions {
    /// Code that is not probe text inside or across the markers does not make the strip fail:
    /// it is kept where it is (a block's braces stay, an edited probe or include line stays) and
    /// reported in [`Stripped::kept`].
    pub force: bool,
}

/// The restored text, and with `force` what was kept and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stripped {
    pub text: String,
    /// `(offset in the instrumented text, what was kept there and why)`, in order.
    pub kept: Vec<StripError>,
}

/// Remove every trace of instrumentation from `text`. Refuses (rather than guessing) when the
/// markers hold anything but probe text: see [`strip_with`].
pub fn strip(text: &str) -> Result<String, StripError> {
    strip_with(text, &StripOptions::default()).map(|s| s.text)
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

/// What strip does with code that is not probe text where only probe text should be: refuse
/// the file, or (with `force`) keep the code and say where.
struct Judge {
    force: bool,
    kept: Vec<StripError>,
}

impl Judge {
    /// Ok (and noted) under `force`, else the error.
    fn found(&mut self, offset: usize, message: String) -> Result<(), StripError> {
        let e = StripError { offset, message };
        if self.force {
            self.kept.push(e);
            Ok(())
        } else {
            Err(e)
        }
    }
}

/// Remove every trace of instrumentation from `text`, checking that the markers hold nothing
/// but what a rewrite puts there: a `{/*hlsinstr*/ ... }/*hlsinstr*/` block holds exactly one
/// statement besides its probes (else removing the braces would move code out of a loop body or
/// a branch), each marker brace is closed by its partner, probe calls have probe arguments,
/// include lines are whole. Anything else is an error at its offset, or with `force` is kept in
/// place: the braces of such a block stay (the code stays inside), an edited probe call or
/// include line stays, and each is listed in [`Stripped::kept`].
pub fn strip_with(text: &str, opts: &StripOptions) -> Result<Stripped, StripError> {
    let mut judge = Judge { force: opts.force, kept: Vec::new() };
    let mut edits = Vec::new();
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut at = bom;
    while let Some(line) = INCLUDE_LINES.iter().find(|l| text[at..].starts_with(*l)) {
        let after = at + line.len();
        let eol = if text[after..].starts_with("\r\n") {
            2
        } else if text[after..].starts_with('\n') {
            1
        } else {
            0
        };
        edits.push(Edit::delete(at..after + eol));
        at = after + eol;
    }
    let literals = literal_ranges(text);
    include_lines_below(text, at, &mut edits, &mut judge)?;
    let kept_calls = check_calls(text, &literals, &mut judge)?;
    // Braces kept (only their `/*hlsinstr*/` goes): partners missing, or a block whose content
    // is not one statement any more.
    let mut keep_brace = std::collections::HashSet::new();
    if text.contains("/*hlsinstr*/") {
        let pairs = brace_pairs(text, &literals, &mut judge, &mut keep_brace)?;
        check_blocks(text, &pairs, &kept_calls, &mut judge, &mut keep_brace)?;
        stray_marker_comments(text, &literals, &mut judge)?;
    }
    let mut tokens: Vec<Range<usize>> = Vec::new();
    // End of the last list item removed, so two adjacent ones never claim the same comma.
    let mut list_end = 0;
    let mut markers = MarkerScan::new(text, &literals);
    let mut pos = 0;
    while let Some(found) = markers.next(pos) {
        let (start, kind) = found;
        match kind {
            Marker::Brace if keep_brace.contains(&start) => {
                edits.push(Edit::delete(start + 1..start + OPEN_BRACE.len()));
                pos = start + OPEN_BRACE.len();
            }
            Marker::Brace => {
                tokens.push(start..start + OPEN_BRACE.len());
                pos = start + OPEN_BRACE.len();
            }
            Marker::Call if kept_calls.contains_key(&start) => pos = kept_calls[&start],
            Marker::Call if text[start..].starts_with(TRACE_PARAM) || text[start..].starts_with(TRACE_ARG) => {
                // The trace FIFO's added parameter or argument: removed as a probe FIFO's is.
                let end =
                    start + if text[start..].starts_with(TRACE_PARAM) { TRACE_PARAM.len() } else { TRACE_ARG.len() };
                let range = added_item_range(text, start..end, list_end);
                list_end = range.end;
                edits.push(Edit::delete(range));
                pos = end;
            }
            Marker::Call if text[start..].starts_with(PARAM_PREFIX) || text[start..].starts_with("HLSINSTR_P(") => {
                // An added parameter `HLSINSTR_PROBE& hlsinstr_p<id>` or argument `HLSINSTR_P(<id>)`
                // (target vitis): always after the original items, so it goes with the comma before
                // it, or the one after it when it is the first item of the list.
                let digits_at = if text[start..].starts_with(PARAM_PREFIX) {
                    start + PARAM_PREFIX.len()
                } else {
                    start + "HLSINSTR_P(".len()
                };
                let digits = text[digits_at..].bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    return Err(err(start, "added probe parameter or argument without its id"));
                }
                let mut end = digits_at + digits;
                if !text[start..].starts_with(PARAM_PREFIX) {
                    if !text[end..].starts_with(')') {
                        return Err(err(start, "HLSINSTR_P( without its `)`"));
                    }
                    end += 1;
                }
                let range = added_item_range(text, start..end, list_end);
                list_end = range.end;
                edits.push(Edit::delete(range));
                pos = end;
            }
            Marker::Call if text[start..].starts_with("HLSINSTR_TB_CALL(") => {
                // `HLSINSTR_TB_CALL(top)`: keep `top`.
                let open = start + "HLSINSTR_TB_CALL".len();
                let close = matching_paren(text, open).ok_or_else(|| err(start, "unbalanced HLSINSTR_TB_CALL"))?;
                edits.push(Edit::delete(start..open + 1));
                edits.push(Edit::delete(close..close + 1));
                pos = close + 1;
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
                    // `HLSINSTR_RETURN(id, O, expr)`: keep `expr`. The wrapper's one space follows
                    // the comma, or precedes the name when `expr` touched `return` (`return(x)`).
                    let comma =
                        nth_comma(text, open, close, 2).ok_or_else(|| err(start, "HLSINSTR_RETURN without a value"))?;
                    let (from, value_start) = if text.as_bytes()[comma + 1] == b' ' {
                        (start, comma + 2)
                    } else if start > 0 && text.as_bytes()[start - 1] == b' ' {
                        (start - 1, comma + 1)
                    } else {
                        return Err(err(start, "HLSINSTR_RETURN without its space"));
                    };
                    edits.push(Edit::delete(from..value_start));
                    edits.push(Edit::delete(close..close + 1));
                    pos = value_start;
                    continue;
                }
                if MAXI_WRAPPERS.contains(&name) {
                    // `HLSINSTR_MAXI_R(id, p, expr)`: keep `expr`; the first two arguments are a
                    // number and a parameter name, so the second comma is the wrapper's own.
                    let comma = nth_comma(text, open, close, 2)
                        .ok_or_else(|| err(start, "HLSINSTR_MAXI_ wrapper without a value"))?;
                    if text.as_bytes()[comma + 1] != b' ' {
                        return Err(err(start, "HLSINSTR_MAXI_ wrapper without its space"));
                    }
                    edits.push(Edit::delete(start..comma + 2));
                    edits.push(Edit::delete(close..close + 1));
                    pos = comma + 2;
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
    let text = apply(text, edits).map_err(|e| err(0, &e.to_string()))?;
    judge.kept.sort_by_key(|k| k.offset);
    Ok(Stripped { text, kept: judge.kept })
}

/// Calls of `HLSINSTR_` names that are not a probe a rewrite inserts, or whose own arguments
/// are not probe text (code there would vanish with the probe): refused, or with `force` kept,
/// as `start → offset to resume the scan at`.
fn check_calls(
    text: &str,
    literals: &[Range<usize>],
    judge: &mut Judge,
) -> Result<std::collections::HashMap<usize, usize>, StripError> {
    let mut kept = std::collections::HashMap::new();
    let mut at = 0;
    while let Some(start) = find_outside(text, at, "HLSINSTR_", literals) {
        let name_len = text[start..].bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
        let name = &text[start..start + name_len];
        at = start + name_len;
        if text[start..].starts_with(PARAM_PREFIX)
            || text[start..].starts_with(TRACE_PARAM)
            || matches!(name, "HLSINSTR_P" | "HLSINSTR_TB_CALL" | "HLSINSTR_TR")
        {
            continue; // checked where they are removed
        }
        if !STATEMENTS.contains(&name) && !WRAPPERS.contains(&name) {
            // Not something a rewrite writes: the user's, or an edited probe.
            let shown: String = name.chars().take(40).collect();
            judge.found(start, format!("`{shown}` is not a probe hlsinstr inserts; rename or remove it"))?;
            let end = text[at..]
                .starts_with('(')
                .then(|| matching_paren(text, at))
                .flatten()
                .map_or(at, |c| c + 1 + usize::from(text[c + 1..].starts_with(';')));
            kept.insert(start, end);
            at = end;
            continue;
        }
        let Some(close) = text[at..].starts_with('(').then(|| matching_paren(text, at)).flatten() else {
            continue; // the removal says what is wrong
        };
        let own_args = if WRAPPERS.contains(&name) { nth_comma(text, at, close, 2).unwrap_or(close) } else { close };
        if let Some(bad) = not_probe_text(&text[at + 1..own_args]) {
            let shown: String = bad.chars().take(40).collect();
            judge.found(
                start,
                format!(
                    "`{name}(...)` has an argument that is not probe text (`{shown}`); move that code out of the probe"
                ),
            )?;
            kept.insert(start, close + 1);
            at = close + 1;
        }
    }
    Ok(kept)
}

/// Probe statements a rewrite inserts (`NAME(args);`, `HLSINSTR_RETURN_VOID(args)` without `;`).
const STATEMENTS: &[&str] = &[
    "HLSINSTR_FUNC_BEGIN",
    "HLSINSTR_FUNC_END",
    "HLSINSTR_LOOP_BEGIN",
    "HLSINSTR_LOOP_ITER",
    "HLSINSTR_LOOP_END",
    "HLSINSTR_LEAF_BEGIN",
    "HLSINSTR_LEAF_END",
    "HLSINSTR_LEAF_PARENT_BEGIN",
    "HLSINSTR_LEAF_PARENT_END",
    "HLSINSTR_UNWIND",
    "HLSINSTR_MAXI_PORTS",
    "HLSINSTR_RETURN_VOID",
    "HLSINSTR_WATCH_CFG",
    "HLSINSTR_WATCH_CFG_BOUNDS",
    "HLSINSTR_WATCH_TOP",
    "HLSINSTR_WATCH_DECL",
    "HLSINSTR_WATCH_POST",
    "HLSINSTR_WATCH_SITE",
    "HLSINSTR_SNAP",
    "HLSINSTR_STREAM_NAME",
    "HLSINSTR_BR_FUNC",
    "HLSINSTR_BR_UNIT",
    "HLSINSTR_BR_END",
    "HLSINSTR_BR",
    "HLSINSTR_BR_LOOP",
    "HLSINSTR_BR_ITER",
    "HLSINSTR_BR_EXIT",
];

/// Wrappers around the user's expression (`NAME(id, x, expr)`): the first two arguments are
/// the probe's, the rest is the user's.
const WRAPPERS: &[&str] = &[
    "HLSINSTR_RETURN",
    "HLSINSTR_RETURN_V",
    "HLSINSTR_MAXI_R",
    "HLSINSTR_MAXI_W",
    "HLSINSTR_MAXI_RW",
    "HLSINSTR_MAXI_RN",
    "HLSINSTR_MAXI_WN",
    "HLSINSTR_WATCH_R",
    "HLSINSTR_WATCH_W",
    "HLSINSTR_WATCH_RW",
    "HLSINSTR_WATCH_PR",
    "HLSINSTR_WATCH_PW",
    "HLSINSTR_WATCH_PRW",
    "HLSINSTR_WATCH_V",
    "HLSINSTR_WATCH_PV",
    "HLSINSTR_BR_V",
];

/// The first argument of a probe's own argument list that is not probe text: numbers,
/// identifiers (options such as `TS`, port and buffer names, a C file's port named down to a
/// row: `*m`), signs, with commas and spaces.
fn not_probe_text(args: &str) -> Option<&str> {
    args.split(',').map(str::trim).find(|a| {
        let a = a.trim_start_matches('*');
        a.is_empty() || !a.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+'))
    })
}

/// Include lines of ours below the block at the top of the file (moved there by hand): a whole
/// line is removed; a line that names one of our headers but is not one of our lines was edited
/// and is refused (kept with `force`).
fn include_lines_below(text: &str, from: usize, edits: &mut Vec<Edit>, judge: &mut Judge) -> Result<(), StripError> {
    const HEADERS: [&str; 4] = ["hlsinstr/probe.h", "hlsinstr/vitis.h", "hlsinstr_top.h", "hlsinstr_probe.cl"];
    if !HEADERS.iter().any(|h| text[from..].contains(h)) {
        return Ok(());
    }
    // Directive lines only (not the literal lexer: it reads a header name after a BOM as a
    // string); a header name in code or a comment is not an include line.
    let mut lines: Vec<usize> = Vec::new();
    for h in HEADERS {
        for (i, _) in text[from..].match_indices(h) {
            let start = text[..from + i].rfind('\n').map_or(0, |n| n + 1).max(from);
            if text[start..].trim_start_matches(['\u{feff}', ' ', '\t']).starts_with('#') {
                lines.push(start);
            }
        }
    }
    lines.sort_unstable();
    lines.dedup();
    for start in lines {
        let end = text[start..].find('\n').map_or(text.len(), |n| start + n);
        let line = text[start..end].strip_suffix('\r').unwrap_or(&text[start..end]);
        if INCLUDE_LINES.contains(&line) {
            edits.push(Edit::delete(start..(end + 1).min(text.len())));
        } else {
            let shown: String = line.trim().chars().take(60).collect();
            judge.found(
                start,
                format!("an hlsinstr include line was edited (`{shown}`); restore it or delete the line"),
            )?;
        }
    }
    Ok(())
}

/// `(open, close)` offsets of the `{/*hlsinstr*/` … `}/*hlsinstr*/` pairs, sorted by `open`.
/// A marker brace whose partner is a plain brace (a marker removed or edited) is refused, or
/// kept (as a plain brace) with `force`. Braces in literals, comments and preprocessor lines do
/// not count.
fn brace_pairs(
    text: &str,
    literals: &[Range<usize>],
    judge: &mut Judge,
    keep: &mut std::collections::HashSet<usize>,
) -> Result<Vec<(usize, usize)>, StripError> {
    let b = text.as_bytes();
    let mut stack: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    let mut lit = 0;
    let mut i = 0;
    let mut line_start = true;
    let is_open = |i: usize| text[i..].starts_with(OPEN_BRACE);
    let is_close = |i: usize| text[i..].starts_with(CLOSE_BRACE);
    let mut unmatched = |at: usize, partner: Option<usize>, judge: &mut Judge| -> Result<(), StripError> {
        keep.insert(at);
        let (marker, other) = if is_open(at) { (OPEN_BRACE, "}") } else { (CLOSE_BRACE, "{") };
        let message = match partner {
            Some(p) => {
                let (l, c) = line_col(text, p);
                format!("`{marker}` pairs with a plain `{other}` at {l}:{c}: a marker was removed or edited; restore it (or remove both)")
            }
            None => format!("`{marker}` has no partner: a brace was removed; restore it"),
        };
        judge.found(at, message)
    };
    while i < b.len() {
        while lit < literals.len() && literals[lit].end <= i {
            lit += 1;
        }
        if let Some(r) = literals.get(lit).filter(|r| r.start <= i) {
            i = r.end;
            line_start = false;
            continue;
        }
        match b[i] {
            b'\n' => line_start = true,
            b' ' | b'\t' | b'\r' => {}
            b'#' if line_start => {
                // A directive, with its continuation lines.
                while i < b.len() && b[i] != b'\n' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
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
                line_start = false;
                continue;
            }
            b'{' => {
                stack.push(i);
                line_start = false;
            }
            b'}' => {
                line_start = false;
                match stack.pop() {
                    Some(o) if is_open(o) && is_close(i) => pairs.push((o, i)),
                    Some(o) if is_open(o) => unmatched(o, Some(i), judge)?,
                    Some(o) if is_close(i) => unmatched(i, Some(o), judge)?,
                    Some(_) => {}
                    None if is_close(i) => unmatched(i, None, judge)?,
                    None => {}
                }
            }
            _ => line_start = false,
        }
        i += 1;
    }
    for o in stack.into_iter().filter(|&o| is_open(o)) {
        unmatched(o, None, judge)?;
    }
    pairs.sort_unstable();
    Ok(pairs)
}

/// Every `{/*hlsinstr*/ … }/*hlsinstr*/` block must hold one statement besides its probes: the
/// statement the rewrite braced. The outermost blocks are parsed one by one as the body of a
/// function (the nested ones are in the same tree), with the grammar of the file (OpenCL C when
/// it carries the `.cl` include line).
fn check_blocks(
    text: &str,
    pairs: &[(usize, usize)],
    kept_calls: &std::collections::HashMap<usize, usize>,
    judge: &mut Judge,
    keep: &mut std::collections::HashSet<usize>,
) -> Result<(), StripError> {
    const HEAD: &str = "void hlsinstr_block_() ";
    let opencl = text.trim_start_matches('\u{feff}').starts_with(crate::plan::CL_INCLUDE_LINE);
    let lang = if opencl { crate::parse::Lang::OpenCl } else { crate::parse::Lang::Cpp };
    let mut i = 0;
    while i < pairs.len() {
        let (o, c) = pairs[i];
        let inner = pairs[i..].iter().take_while(|(o2, _)| *o2 < c).count();
        let mut frag = String::with_capacity(HEAD.len() + c + 1 - o);
        frag.push_str(HEAD);
        frag.push_str(&text[o..=c]);
        if opencl {
            frag = crate::opencl::blank(&frag).text;
        }
        let tree = crate::parse::parse(lang, &frag, None);
        let mut blocks = std::collections::HashMap::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            if n.kind() == "compound_statement" {
                blocks.entry(n.start_byte()).or_insert(n);
            }
            stack.extend(crate::parse::named_children(n));
        }
        for &(o2, c2) in &pairs[i..i + inner] {
            let node = blocks.get(&(HEAD.len() + o2 - o)).filter(|n| n.end_byte() == HEAD.len() + c2 - o + 1);
            // A probe call kept in place (`force`) stays a statement of the block.
            let removed = |at: usize| !kept_calls.contains_key(&(at + o - HEAD.len()));
            let problem = match node.map(|n| statements(*n, &frag, removed)) {
                Some(Ok(1)) => continue,
                Some(Ok(0)) => "holds no statement besides its probes: the statement it braced was removed".to_string(),
                Some(Ok(n)) => format!(
                    "holds {n} statements besides its probes: code was added inside; removing the braces would \
                     move it out of the loop or branch the block belongs to"
                ),
                Some(Err(())) | None => {
                    "holds code that does not parse as statements: it cannot be checked; fix it".to_string()
                }
            };
            let (l, col) = line_col(text, c2);
            judge.found(o2, format!("the block `{OPEN_BRACE} … {CLOSE_BRACE}` (to {l}:{col}) {problem}"))?;
            keep.insert(o2);
            keep.insert(c2);
        }
        i += inner;
    }
    Ok(())
}

/// Statements of a block that are not probes (a label whose statement is a probe, as
/// `HLSINSTR_UNWIND` sits, labels the next one: not counted); `Err` when it does not parse.
fn statements(block: tree_sitter::Node, src: &str, removed: impl Fn(usize) -> bool) -> Result<usize, ()> {
    if block.has_error() {
        return Err(());
    }
    let is_probe = |n: tree_sitter::Node| {
        n.kind() == "expression_statement"
            && n.named_child(0).is_some_and(|call| {
                call.kind() == "call_expression"
                    && call
                        .child_by_field_name("function")
                        .is_some_and(|f| src[f.byte_range()].starts_with("HLSINSTR_") && removed(f.start_byte()))
            })
    };
    Ok(crate::parse::named_children(block)
        .filter(|n| match n.kind() {
            "comment" => false,
            // A `#pragma` line of the braced statement's loop (a pragma between an unbraced loop
            // header and its body sits inside the probe braces): not code, it stays in place.
            "preproc_call" => {
                n.child_by_field_name("directive").is_none_or(|d| src[d.byte_range()].trim() != "#pragma")
            }
            "labeled_statement" => !n.named_child(n.named_child_count().saturating_sub(1)).is_some_and(is_probe),
            _ => !is_probe(*n),
        })
        .count())
}

/// A `/*hlsinstr*/` that is not part of a marker brace: its brace was removed or moved.
fn stray_marker_comments(text: &str, literals: &[Range<usize>], judge: &mut Judge) -> Result<(), StripError> {
    let mut at = 0;
    while let Some(i) = find_outside(text, at, "/*hlsinstr*/", literals) {
        if i == 0 || !matches!(text.as_bytes()[i - 1], b'{' | b'}') {
            judge.found(i, "a `/*hlsinstr*/` marker without its brace: the brace was removed or moved".to_string())?;
        }
        at = i + 1;
    }
    Ok(())
}

/// A parameter the vitis target adds: `HLSINSTR_PROBE& hlsinstr_p<id>`.
pub const PARAM_PREFIX: &str = "HLSINSTR_PROBE& hlsinstr_p";
/// The trace FIFO's added parameter and argument (`--target vitis` with record sites).
pub const TRACE_PARAM: &str = "HLSINSTR_TRACE& hlsinstr_tr";
pub const TRACE_ARG: &str = "HLSINSTR_TR()";

/// Expression wrappers of `maxi` (`hls-lib/include/hlsinstr/maxi.h`): `NAME(id, p, expr)`.
/// The `watch` wrappers of OpenCL C (`opencl-lib/hlsinstr_probe.cl`) have the same form.
const MAXI_WRAPPERS: &[&str] = &[
    "HLSINSTR_MAXI_R",
    "HLSINSTR_MAXI_W",
    "HLSINSTR_MAXI_RW",
    "HLSINSTR_MAXI_RN",
    "HLSINSTR_MAXI_WN",
    "HLSINSTR_WATCH_R",
    "HLSINSTR_WATCH_W",
    "HLSINSTR_WATCH_RW",
    "HLSINSTR_WATCH_PR",
    "HLSINSTR_WATCH_PW",
    "HLSINSTR_WATCH_PRW",
    "HLSINSTR_WATCH_V",
    "HLSINSTR_WATCH_PV",
    "HLSINSTR_BR_V",
];

fn err(offset: usize, message: &str) -> StripError {
    StripError { offset, message: message.to_string() }
}

enum Marker {
    Brace,
    Call,
}

/// The markers of a text in order. Each pattern's next hit is remembered and searched for again
/// only once the scan has passed it: searching all three afresh at every marker would rescan the
/// text up to the next brace marker (or its end) for every call marker.
struct MarkerScan<'a> {
    text: &'a str,
    literals: &'a [Range<usize>],
    /// Per pattern: (searched from, first hit there or later).
    hits: [Option<(usize, Option<usize>)>; 3],
}

const PATTERNS: [&str; 3] = ["HLSINSTR_", OPEN_BRACE, CLOSE_BRACE];

impl<'a> MarkerScan<'a> {
    fn new(text: &'a str, literals: &'a [Range<usize>]) -> Self {
        MarkerScan { text, literals, hits: [None; 3] }
    }

    /// First hit of pattern `i` at or after `from`; `from` never decreases between calls.
    fn hit(&mut self, i: usize, from: usize) -> Option<usize> {
        match self.hits[i] {
            Some((searched, hit)) if searched <= from && hit.is_none_or(|h| h >= from) => hit,
            _ => {
                let hit = find_outside(self.text, from, PATTERNS[i], self.literals);
                self.hits[i] = Some((from, hit));
                hit
            }
        }
    }

    /// The first marker at or after `from`; `from` never decreases between calls.
    fn next(&mut self, from: usize) -> Option<(usize, Marker)> {
        let call = self.hit(0, from);
        let brace = match (self.hit(1, from), self.hit(2, from)) {
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

/// The text to delete for an added parameter or argument at `item`: it goes with the comma
/// before it (not one an earlier deletion, ending at `list_end`, already took), or with the one
/// after it when it is the first item of its list.
fn added_item_range(text: &str, item: std::ops::Range<usize>, list_end: usize) -> std::ops::Range<usize> {
    let (start, end) = (item.start, item.end);
    if start >= 2 && &text[start - 2..start] == ", " && start - 2 >= list_end {
        start - 2..end
    } else if text[end..].starts_with(", ") {
        start..end + 2
    } else {
        start..end
    }
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
        assert_eq!(find_marker("#include \"hlsinstr/probe.h\"\n"), Some((10, "hlsinstr/probe.h")));
        // The quick test for "no marker at all" must not miss one.
        for m in MARKERS {
            assert_eq!(find_marker(&format!("int x;\n{m}\n")), Some((7, *m)));
        }
    }

    #[test]
    fn markers_in_literals_are_data() {
        let src = "const char *a = \"HLSINSTR_X {/*hlsinstr*/\", *b = R\"d(\")HLSINSTR_Y)d\";\n\
                   char c = '\\''; int n = 1'000; // don't \"\nconst char *d = \"hlsinstr/probe.h\"; int HLSINSTR_Z;";
        assert_eq!(find_marker(src), Some((src.find("HLSINSTR_Z").unwrap(), "HLSINSTR_")));
        let lits: Vec<&str> = literal_ranges(src).into_iter().map(|r| &src[r]).collect();
        assert_eq!(lits, ["\"HLSINSTR_X {/*hlsinstr*/\"", "R\"d(\")HLSINSTR_Y)d\"", "'\\''", "\"hlsinstr/probe.h\""]);
        assert_eq!(literal_ranges("#if 0\nit's prose\n#endif\nx = \"s\";").len(), 2, "a stray quote ends at its line");
        // Rewritten code around such literals strips back exactly.
        let inst = "int f() { HLSINSTR_FUNC_BEGIN(0, P, 0); puts(\"HLSINSTR_LOOP_ITER(1); }/*hlsinstr*/\"); return HLSINSTR_RETURN(0, P, 1); }";
        assert_eq!(strip(inst).unwrap(), "int f() { puts(\"HLSINSTR_LOOP_ITER(1); }/*hlsinstr*/\"); return 1; }");
    }

    #[test]
    fn watch_wrappers_and_configuration_strip_back() {
        let inst = "__kernel void k(__global int *d, __global int *o) { HLSINSTR_WATCH_CFG_BOUNDS(0, d, 0, 8); HLSINSTR_WATCH_CFG(1, d, 0); HLSINSTR_WATCH_CFG(2, d, 0);\n  d[HLSINSTR_WATCH_RW(0, d, d[HLSINSTR_WATCH_R(1, d, i)])] += 1; *HLSINSTR_WATCH_PW(2, o, (o + 1)) = HLSINSTR_WATCH_PR(3, o, o)->x;\n}";
        let orig = "__kernel void k(__global int *d, __global int *o) {\n  d[d[i]] += 1; *(o + 1) = o->x;\n}";
        assert_eq!(strip(inst).unwrap(), orig);
    }

    #[test]
    fn maxi_wrappers_keep_their_expression_and_nest() {
        let inst = "void f(int *p, int *q, int n) { HLSINSTR_FUNC_BEGIN(0, P, 0); HLSINSTR_MAXI_PORTS(1, 2);\n  p[HLSINSTR_MAXI_RW(1, p, q[HLSINSTR_MAXI_R(2, q, g(n, \")\"))])] += *HLSINSTR_MAXI_W(1, p, (p + 1));\n  HLSINSTR_MAXI_R(2, q, q)->x = memcpy(p, q, HLSINSTR_MAXI_WN(1, p, HLSINSTR_MAXI_RN(2, q, n)));\nHLSINSTR_FUNC_END(0, P, 0); }";
        let orig = "void f(int *p, int *q, int n) {\n  p[q[g(n, \")\")]] += *(p + 1);\n  q->x = memcpy(p, q, n);\n}";
        assert_eq!(strip(inst).unwrap(), orig);
        assert!(strip("int x = p[HLSINSTR_MAXI_R(1, p,i)];").is_err(), "a wrapper without its space is not ours");
        // A C file names a 2-D port down to its row (`*m`: C counts `sizeof *p`).
        assert_eq!(strip("int x = m[1][HLSINSTR_MAXI_R(1, *m, i)];").unwrap(), "int x = m[1][i];");
    }

    #[test]
    fn glued_return_value_keeps_its_spacing() {
        let inst = "int f(int n) { if (n) return HLSINSTR_RETURN(0, P,-n); return HLSINSTR_RETURN(0, P,(n)); return HLSINSTR_RETURN(0, P, (n)); }";
        assert_eq!(strip(inst).unwrap(), "int f(int n) { if (n) return-n; return(n); return (n); }");
    }
}
