//! Which expressions the body walk can skip: those with nothing below them it records.
//!
//! The walk records calls, jumps, labels, loops, declarations, pragmas, nested definitions and,
//! when the file defines macros that hide a jump, every identifier. Below an expression node
//! only three of these can occur, each with a character the expression's text must hold:
//! - a `call_expression`: its argument list opens with `(` right after (blanks aside) the end
//!   of the callee, which is a name, `>`, `)`, `]`, or an operator after the keyword `operator`;
//! - anything that holds statements (a GNU statement expression `({ ... })`, a lambda, a
//!   compound statement as a macro argument): it opens with `{`;
//! - preprocessor lines: they start with `#`.
//!
//! The same holds for the nodes that hold only expressions (an expression statement, an
//! argument list, ...). So an expression whose text holds no `{`, no `#`, no `operator`, no
//! comment (which may sit between a callee and its `(`) and no `(` after a character that can
//! end a callee (anything but blanks and the operators and punctuation that open a group:
//! `( [ , = + - * / % < ! ~ ^ | & ? : ;`) has nothing below it to record. Its children are not
//! visited: an expression statement is otherwise a dozen nodes, each a few hundred instructions
//! of tree-sitter calls. The test is conservative: string literals or grouping parentheses after
//! a name only cost the skip.

use crate::parse::Lang;
use std::sync::OnceLock;
use tree_sitter::Node;

/// The kinds of C++ expressions (tree-sitter-cpp's `expression` supertype and comma lists;
/// the C grammar's are a subset), and the nodes that hold only expressions: expression
/// statements, initialised declarators (a declarator, an `=` and an expression or braces),
/// argument, index and initialiser lists.
const EXPRESSIONS: &[&str] = &[
    "argument_list",
    "expression_statement",
    "init_declarator",
    "initializer_list",
    "subscript_argument_list",
    "alignof_expression",
    "assignment_expression",
    "binary_expression",
    "call_expression",
    "cast_expression",
    "char_literal",
    "co_await_expression",
    "comma_expression",
    "compound_literal_expression",
    "concatenated_string",
    "conditional_expression",
    "delete_expression",
    "extension_expression",
    "false",
    "field_expression",
    "fold_expression",
    "generic_expression",
    "gnu_asm_expression",
    "identifier",
    "lambda_expression",
    "new_expression",
    "null",
    "number_literal",
    "offsetof_expression",
    "parameter_pack_expansion",
    "parenthesized_expression",
    "pointer_expression",
    "qualified_identifier",
    "raw_string_literal",
    "requires_clause",
    "requires_expression",
    "sizeof_expression",
    "string_literal",
    "subscript_expression",
    "template_function",
    "this",
    "true",
    "unary_expression",
    "update_expression",
    "user_defined_literal",
];

/// The expressions of one function body that have nothing below them to record.
pub(super) struct Pruning {
    /// Offsets (in the file) of every character that may start something recorded, ascending.
    blockers: Vec<usize>,
    /// By kind id: the kind is an expression.
    expression: &'static [bool],
}

impl Pruning {
    /// For the body `body` of a file whose text is `text`.
    pub(super) fn new(body: Node, text: &str) -> Pruning {
        Pruning { blockers: blockers(&text[body.byte_range()], body.start_byte()), expression: expressions(body) }
    }

    /// `node` is an expression with nothing below it to record.
    pub(super) fn skips(&self, node: Node) -> bool {
        if !self.expression.get(usize::from(node.kind_id())).copied().unwrap_or(false) {
            return false;
        }
        let range = node.byte_range();
        let first = self.blockers.partition_point(|&b| b < range.start);
        self.blockers.get(first).is_none_or(|&b| b >= range.end)
    }
}

/// The expression kinds of `node`'s grammar, by kind id.
fn expressions(node: Node) -> &'static [bool] {
    static CPP: OnceLock<Vec<bool>> = OnceLock::new();
    static C: OnceLock<Vec<bool>> = OnceLock::new();
    let lang = Lang::of_node(node);
    let table = match lang {
        Lang::Cpp => &CPP,
        Lang::OpenCl => &C,
    };
    table.get_or_init(|| {
        let l = lang.language();
        (0..l.node_kind_count() as u16)
            .map(|id| l.node_kind_is_named(id) && l.node_kind_for_id(id).is_some_and(|k| EXPRESSIONS.contains(&k)))
            .collect()
    })
}

/// Offsets of the characters of `body` (at `base` in its file) that may start a call's argument
/// list, a block, a preprocessor line, a comment or the keyword `operator`.
fn blockers(body: &str, base: usize) -> Vec<usize> {
    // Most characters are none of these: look closer only at the few that may be.
    const CANDIDATE: [bool; 256] = {
        let mut t = [false; 256];
        t[b'{' as usize] = true;
        t[b'#' as usize] = true;
        t[b'/' as usize] = true;
        t[b'o' as usize] = true;
        t[b'(' as usize] = true;
        t
    };
    let b = body.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if !CANDIDATE[usize::from(c)] {
            continue;
        }
        let blocks = match c {
            b'/' => matches!(b.get(i + 1), Some(b'/' | b'*')),
            b'o' => b[i..].starts_with(b"operator"),
            b'(' => {
                let before = b[..i].iter().rev().find(|c| !c.is_ascii_whitespace());
                !before.is_some_and(|&c| opens_group(c))
            }
            _ => true,
        };
        if blocks {
            out.push(base + i);
        }
    }
    out
}

/// A `(` after this character opens a group, not an argument list.
fn opens_group(c: u8) -> bool {
    matches!(
        c,
        b'(' | b'['
            | b','
            | b'='
            | b'+'
            | b'-'
            | b'*'
            | b'/'
            | b'%'
            | b'<'
            | b'!'
            | b'~'
            | b'^'
            | b'|'
            | b'&'
            | b'?'
            | b':'
            | b';'
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_cpp;

    /// The texts of the expressions a walk of `src`'s first function body skips, outermost only.
    fn skipped(src: &str) -> Vec<String> {
        let tree = parse_cpp(src, None);
        let f = tree.root_node().named_child(0).unwrap();
        let body = f.child_by_field_name("body").unwrap();
        let p = Pruning::new(body, src);
        let mut out = Vec::new();
        let mut stack = vec![body];
        while let Some(n) = stack.pop() {
            if p.skips(n) {
                out.push(src[n.byte_range()].to_string());
                continue;
            }
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            stack.extend(children.into_iter().rev());
        }
        out
    }

    #[test]
    fn calls_blocks_and_preprocessor_lines_are_never_skipped() {
        let src = "void f(int *a, int n) {\n  n += a[(n + 1) % 4] * 2;\n  g(n);\n  n = s.h (a[0]) + k<int>(1) + (*p)(2) + a[0](3) + x.operator+(4) + ({ 5; });\n  n = m /* c */ (n) + [](){ return 1; }() + \"(\"[0];\n}\n";
        let s = skipped(src);
        // A whole statement without calls, and call-free operands and arguments of the others.
        assert!(s.contains(&"n += a[(n + 1) % 4] * 2;".to_string()), "{s:?}");
        for call in
            ["g(n)", "s.h (a[0])", "k<int>(1)", "(*p)(2)", "a[0](3)", "x.operator+(4)", "({ 5; })", "m /* c */ (n)"]
        {
            assert!(!s.iter().any(|t| t.contains(call)), "{call} in {s:?}");
        }
        assert!(!s.iter().any(|t| t.contains("return")), "{s:?}");
        assert!(s.contains(&"a[0]".to_string()), "an argument without a call: {s:?}");
    }
}
