//! Stage 1 helper: a large file cut into pieces of whole top-level items before it is parsed.
//!
//! A syntax tree takes about 55 bytes per byte of dense C++, so a 20 MB file's tree alone is
//! over 1 GB. The rewrite parses such a file a piece at a time ([`crate::parse::parse_piece`]),
//! builds the model of each piece and drops its tree before the next. The cuts come from a scan
//! of the text, not from a tree: a line start outside any braces, parentheses, brackets and
//! preprocessor conditional, right after a `;` or `}`. The scan may be fooled (braces that only
//! balance across `#if` branches, a macro that ends a declaration); a piece cut in the wrong
//! place does not parse cleanly, and then the caller parses the whole file as before. A piece
//! that parses cleanly is a sequence of whole top-level items, which is what the whole file's
//! tree has there too (tests compare the models).

use std::ops::Range;
use tree_sitter::Point;

/// Pieces of `text` of about `piece` bytes or more, each starting where a top-level item may
/// start (see the module comment), in order and covering the text. One piece when no cut was
/// found.
pub fn pieces(text: &str, piece: usize) -> Vec<tree_sitter::Range> {
    let code = crate::cpp_blank::code_only(text);
    let bytes = code.as_bytes();
    let (mut depth, mut pp_depth) = (0i64, 0i64);
    // The last byte of code that was not blank, and whether the current line has had any.
    let mut last = b';';
    let mut line_has_code = false;
    let mut row = 0;
    let mut out = Vec::new();
    let mut start = (0, Point { row: 0, column: 0 });
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            row += 1;
            line_has_code = false;
            i += 1;
            if depth == 0 && pp_depth == 0 && matches!(last, b';' | b'}') && i - start.0 >= piece && i < bytes.len() {
                let at = Point { row, column: 0 };
                out.push(range(start, (i, at)));
                start = (i, at);
            }
            continue;
        }
        if b == b'#' && !line_has_code {
            // A directive, with its continuation lines: only conditionals matter.
            let end = directive_end(bytes, i);
            let word = code[i + 1..end].trim_start().split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
            match word {
                "if" | "ifdef" | "ifndef" => pp_depth += 1,
                "endif" => pp_depth -= 1,
                _ => {}
            }
            row += bytes[i..end].iter().filter(|&&c| c == b'\n').count();
            i = end;
            continue;
        }
        if !b.is_ascii_whitespace() {
            line_has_code = true;
            last = b;
            match b {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => depth -= 1,
                _ => {}
            }
        }
        i += 1;
    }
    let end = Point { row, column: text.len() - text.rfind('\n').map_or(0, |n| n + 1) };
    out.push(range(start, (text.len(), end)));
    out
}

/// The offset of the newline that ends the directive starting at `at` (or the text's end),
/// continuation lines included.
fn directive_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < bytes.len() {
        if bytes[i] == b'\n' {
            let before = bytes[at..i].iter().rposition(|c| !matches!(c, b' ' | b'\t' | b'\r'));
            if before.is_some_and(|p| bytes[at + p] == b'\\') {
                i += 1;
                continue;
            }
            return i;
        }
        i += 1;
    }
    i
}

fn range(from: (usize, Point), to: (usize, Point)) -> tree_sitter::Range {
    tree_sitter::Range { start_byte: from.0, end_byte: to.0, start_point: from.1, end_point: to.1 }
}

/// The byte ranges of [`pieces`].
pub fn byte_ranges(pieces: &[tree_sitter::Range]) -> Vec<Range<usize>> {
    pieces.iter().map(|p| p.start_byte..p.end_byte).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts(text: &str, piece: usize) -> Vec<&str> {
        byte_ranges(&pieces(text, piece)).into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn cuts_fall_between_top_level_items_only() {
        let text = "int a;\nint f() {\n  return 1;\n}\nstruct S {\n  int x;\n};\n#if A\nint b;\n#endif\nint c; // }\nint d = g(1,\n  2);\n";
        assert_eq!(
            cuts(text, 1),
            [
                "int a;\n",
                "int f() {\n  return 1;\n}\n",
                "struct S {\n  int x;\n};\n",
                "#if A\nint b;\n#endif\n",
                "int c; // }\n",
                "int d = g(1,\n  2);\n"
            ]
        );
        assert_eq!(cuts(text, 1000), [text], "pieces are at least `piece` bytes");
        let p = pieces(text, 1);
        assert_eq!((p[1].start_point.row, p[5].start_point.row, p[5].end_point), (1, 11, Point { row: 13, column: 0 }));
    }

    #[test]
    fn strings_comments_and_continued_directives_do_not_move_cuts() {
        let text = "#define M(x) \\\n  { x; }\nconst char *s = \"{\";\n/* { */ int a;\nchar c = '{';\nint b;";
        assert_eq!(
            cuts(text, 1),
            [
                "#define M(x) \\\n  { x; }\n",
                "const char *s = \"{\";\n",
                "/* { */ int a;\n",
                "char c = '{';\n",
                "int b;"
            ]
        );
        let last = pieces(text, 1).pop().unwrap();
        assert_eq!(last.end_point, Point { row: 5, column: 6 });
    }
}
