//! Stage 1, parse: tree-sitter C++ over a source text, error counting and a tree dump for debugging.

use std::cell::RefCell;
use tree_sitter::{Node, Parser, Tree};

/// The C++ grammar (tree-sitter-cpp, pinned in the workspace manifest).
pub fn cpp_language() -> tree_sitter::Language {
    tree_sitter_cpp::LANGUAGE.into()
}

thread_local! {
    // One parser per worker thread: creating one costs more than parsing a small header.
    static PARSER: RefCell<Parser> = RefCell::new({
        let mut p = Parser::new();
        p.set_language(&cpp_language()).expect("tree-sitter-cpp is ABI compatible with the pinned tree-sitter");
        p
    });
}

/// Parse C++ source. `old` enables incremental re-parsing of an edited tree.
pub fn parse_cpp(text: &str, old: Option<&Tree>) -> Tree {
    PARSER.with(|p| {
        let mut p = p.borrow_mut();
        p.parse(text, old).expect("parsing without timeout or cancellation always yields a tree")
    })
}

/// Number of ERROR and MISSING nodes in a subtree.
pub fn count_errors(node: Node) -> usize {
    if !node.has_error() {
        return 0;
    }
    let own = usize::from(node.is_error() || node.is_missing());
    let mut cursor = node.walk();
    own + node.children(&mut cursor).map(count_errors).sum::<usize>()
}

/// First ERROR or MISSING node in a subtree, in source order.
pub fn first_error(node: Node) -> Option<Node> {
    if !node.has_error() {
        return None;
    }
    if node.is_error() || node.is_missing() {
        return Some(node);
    }
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).find_map(first_error);
    found
}

/// An indented dump of the syntax tree: kind, field name, 1-based position, leaf text.
pub fn dump_tree(tree: &Tree, text: &str) -> String {
    let mut out = String::new();
    dump_node(tree.root_node(), text, 0, None, &mut out);
    out
}

fn dump_node(node: Node, text: &str, depth: usize, field: Option<&str>, out: &mut String) {
    use std::fmt::Write;
    let pos = node.start_position();
    let _ = write!(out, "{}", "  ".repeat(depth));
    if let Some(f) = field {
        let _ = write!(out, "{f}: ");
    }
    let kind = if node.is_missing() { format!("MISSING {}", node.kind()) } else { node.kind().to_string() };
    let _ = write!(out, "{kind} [{}:{}]", pos.row + 1, pos.column + 1);
    if node.child_count() == 0 {
        let leaf: String = text[node.byte_range()].chars().take(60).collect();
        let _ = write!(out, " {:?}", leaf);
    }
    out.push('\n');
    let mut cursor = node.walk();
    for (i, child) in node.children(&mut cursor).enumerate() {
        dump_node(child, text, depth + 1, node.field_name_for_child(i as u32), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar_loads_and_counts_errors() {
        let ok = parse_cpp("int f() { return 1; }", None);
        assert_eq!(count_errors(ok.root_node()), 0);
        let bad = parse_cpp("int f() { return 1 }", None);
        assert!(count_errors(bad.root_node()) >= 1);
        assert!(first_error(bad.root_node()).is_some());
        assert!(dump_tree(&ok, "int f() { return 1; }").contains("function_definition [1:1]"));
    }
}
