//! Stage 4, edit: edits are plain data, applied once in a single forward pass.
//!
//! Planning yields [`Edit`]s and never touches the source. [`apply`] sorts them, refuses
//! overlaps (an instrumenter that silently drops an edit corrupts user code), and builds the
//! new text. Insertions at one offset are ordered by their [`Rank`]; two with the same rank at
//! the same offset are a planner bug and an error.

use std::ops::Range;

/// How an inserted piece meets its neighbours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// A token such as `HLSINSTR_LOOP_ITER(3);` or `{/*hlsinstr*/`. Tokens at one offset are
    /// joined by single spaces and get exactly one more space on the side that keeps them apart
    /// from the code around them, so `strip` can remove each token with one adjacent space.
    Token(String),
    /// Text inserted as is (the include line, the `HLSINSTR_RETURN(...)` wrapper).
    Raw(String),
}

/// Order of insertions at one offset. Closers come before openers; closers of inner constructs
/// before outer ones, openers of outer constructs before inner ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Rank {
    /// 0 = closes something, 1 = opens something.
    phase: u8,
    /// Ascending for openers, descending for closers (stored negated).
    level: i32,
    /// Tie-break inside one construct (brace before call for openers, call before brace for closers).
    sub: u8,
}

impl Rank {
    /// Something opened by a construct at nesting `level` (brace first: `sub` 0, then calls: 1).
    pub fn open(level: i32, sub: u8) -> Rank {
        Rank { phase: 1, level, sub }
    }
    /// Something closing a construct at nesting `level` (calls first: `sub` 0, then the brace: 1).
    pub fn close(level: i32, sub: u8) -> Rank {
        Rank { phase: 0, level: -level, sub }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Empty for an insertion.
    pub range: Range<usize>,
    pub piece: Piece,
    pub rank: Rank,
}

impl Edit {
    pub fn token(at: usize, text: impl Into<String>, rank: Rank) -> Edit {
        Edit { range: at..at, piece: Piece::Token(text.into()), rank }
    }
    pub fn raw(at: usize, text: impl Into<String>, rank: Rank) -> Edit {
        Edit { range: at..at, piece: Piece::Raw(text.into()), rank }
    }
    pub fn delete(range: Range<usize>) -> Edit {
        Edit { range, piece: Piece::Raw(String::new()), rank: Rank::open(0, 0) }
    }
    fn text(&self) -> &str {
        match &self.piece {
            Piece::Token(t) | Piece::Raw(t) => t,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("edits overlap at bytes {0:?} and {1:?}")]
    Overlap(Range<usize>, Range<usize>),
    #[error("two insertions at byte {0} have no defined order")]
    Unordered(usize),
    #[error("edit {0:?} is outside the text or not on a character boundary")]
    OutOfBounds(Range<usize>),
    #[error("a token inserted at byte {0} would glue two identifiers together")]
    Glued(usize),
}

/// Where a group of edits landed: the source bytes `old` became the output bytes `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub old: Range<usize>,
    pub new: Range<usize>,
}

/// Apply edits to `src`, returning the new text.
pub fn apply(src: &str, edits: Vec<Edit>) -> Result<String, EditError> {
    apply_tracked(src, &edits).map(|(out, _)| out)
}

/// [`apply`], borrowing the edits, and where the changes landed, in order: what an incremental
/// re-parse of the new text needs to know. Insertions at one offset are one change.
pub fn apply_tracked(src: &str, edits: &[Edit]) -> Result<(String, Vec<Change>), EditError> {
    let extra: usize = edits.iter().map(|e| e.text().len() + 2).sum();
    let mut out = String::with_capacity(src.len() + extra);
    let changes = apply_within(src, 0..src.len(), edits, &mut out)?;
    Ok((out, changes))
}

/// [`apply_tracked`] for the part `within` of `src` only, appended to `out`: the rewrite of a
/// large file applies each piece's edits as the piece is planned (see `rewrite::in_pieces`).
/// Every edit must lie within `within`. The bytes around an insertion that decide its spacing
/// are read from the whole `src`, so the pieces' outputs joined are the output of the whole.
/// Each change's `old` is an offset in `src`, its `new` one in `out`.
pub fn apply_within(
    src: &str,
    within: Range<usize>,
    edits: &[Edit],
    out: &mut String,
) -> Result<Vec<Change>, EditError> {
    for e in edits {
        if e.range.start > e.range.end
            || e.range.start < within.start
            || e.range.end > within.end
            || within.end > src.len()
            || !src.is_char_boundary(e.range.start)
            || !src.is_char_boundary(e.range.end)
        {
            return Err(EditError::OutOfBounds(e.range.clone()));
        }
    }
    let mut edits: Vec<&Edit> = edits.iter().collect();
    edits.sort_by_key(|e| (e.range.start, e.range.end, e.rank));
    for pair in edits.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.range.end > b.range.start || (!a.range.is_empty() && a.range == b.range) {
            return Err(EditError::Overlap(a.range.clone(), b.range.clone()));
        }
        if a.range.is_empty() && b.range.is_empty() && a.range.start == b.range.start && a.rank == b.rank {
            return Err(EditError::Unordered(a.range.start));
        }
    }
    let mut changes = Vec::new();
    let mut pos = within.start;
    let mut i = 0;
    while i < edits.len() {
        let at = edits[i].range.start;
        out.push_str(&src[pos..at]);
        pos = at;
        let new_start = out.len();
        if edits[i].range.is_empty() {
            // All insertions at this offset, in rank order; tokens in a row form one group.
            let mut tokens: Vec<&str> = Vec::new();
            while i < edits.len() && edits[i].range.is_empty() && edits[i].range.start == at {
                match &edits[i].piece {
                    Piece::Token(t) => tokens.push(t),
                    Piece::Raw(t) => {
                        flush_tokens(src, at, &mut tokens, out)?;
                        out.push_str(t);
                    }
                }
                i += 1;
            }
            flush_tokens(src, at, &mut tokens, out)?;
        } else {
            out.push_str(edits[i].text());
            pos = edits[i].range.end;
            i += 1;
        }
        changes.push(Change { old: at..pos, new: new_start..out.len() });
    }
    out.push_str(&src[pos..within.end]);
    Ok(changes)
}

fn is_ident_byte(b: Option<&u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
}

/// Write a group of tokens: `" a b"` when the next character is white space (or the previous one
/// would glue to the first token), `"a b "` otherwise. Exactly one space per token.
fn flush_tokens(src: &str, at: usize, tokens: &mut Vec<&str>, out: &mut String) -> Result<(), EditError> {
    if tokens.is_empty() {
        return Ok(());
    }
    let bytes = src.as_bytes();
    let next_is_space = at >= bytes.len() || bytes[at].is_ascii_whitespace();
    let prev_glues = at > 0 && is_ident_byte(bytes.get(at - 1));
    let next_glues = is_ident_byte(bytes.get(at));
    if prev_glues && next_glues {
        return Err(EditError::Glued(at));
    }
    let joined = tokens.join(" ");
    if next_is_space || prev_glues {
        out.push(' ');
        out.push_str(&joined);
    } else {
        out.push_str(&joined);
        out.push(' ');
    }
    tokens.clear();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_get_one_space_each() {
        let src = "{\n  x;\n}";
        let out =
            apply(src, vec![Edit::token(1, "B;", Rank::open(0, 1)), Edit::token(1, "{/*hlsinstr*/", Rank::open(0, 0))])
                .unwrap();
        assert_eq!(out, "{ {/*hlsinstr*/ B;\n  x;\n}");
        let out = apply("a;b;", vec![Edit::token(2, "T;", Rank::open(0, 0))]).unwrap();
        assert_eq!(out, "a;T; b;");
        let out = apply("return;", vec![Edit::token(6, "R(1)", Rank::open(0, 0))]).unwrap();
        assert_eq!(out, "return R(1);");
    }

    #[test]
    fn closers_inner_first_openers_outer_first() {
        let edits = vec![
            Edit::token(0, "outer_end", Rank::close(0, 0)),
            Edit::token(0, "inner_end", Rank::close(2, 0)),
            Edit::token(0, "inner_begin", Rank::open(2, 1)),
            Edit::token(0, "outer_begin", Rank::open(0, 1)),
        ];
        assert_eq!(apply("x", edits).unwrap(), "inner_end outer_end outer_begin inner_begin x");
    }

    #[test]
    fn overlaps_and_unordered_insertions_are_errors() {
        let e = apply("abcdef", vec![Edit::delete(1..4), Edit::delete(3..5)]);
        assert!(matches!(e, Err(EditError::Overlap(..))));
        let e = apply("abc", vec![Edit::token(1, "x", Rank::open(0, 0)), Edit::token(1, "y", Rank::open(0, 0))]);
        assert_eq!(e, Err(EditError::Unordered(1)));
        assert!(matches!(apply("ab", vec![Edit::token(1, "x", Rank::open(0, 0))]), Err(EditError::Glued(1))));
        assert!(matches!(apply("ab", vec![Edit::delete(1..9)]), Err(EditError::OutOfBounds(_))));
    }

    #[test]
    fn changes_say_where_each_group_landed() {
        let edits = vec![
            Edit::token(1, "B;", Rank::open(0, 1)),
            Edit::token(1, "A;", Rank::open(0, 0)),
            Edit::delete(3..5),
            Edit::raw(6, "W(", Rank::open(0, 0)),
        ];
        let (out, changes) = apply_tracked("{ x;;y}", &edits).unwrap();
        assert_eq!(out, "{ A; B; xyW(}");
        assert_eq!(
            changes,
            [Change { old: 1..1, new: 1..7 }, Change { old: 3..5, new: 9..9 }, Change { old: 6..6, new: 10..12 }]
        );
    }

    #[test]
    fn deletions_and_raw_insertions() {
        let out =
            apply("return a+b;", vec![Edit::raw(7, "W(", Rank::open(0, 0)), Edit::raw(10, ")", Rank::close(0, 0))])
                .unwrap();
        assert_eq!(out, "return W(a+b);");
        assert_eq!(apply("abcdef", vec![Edit::delete(1..3), Edit::delete(4..5)]).unwrap(), "adf");
    }
}
