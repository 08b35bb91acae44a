//! Stage 1, parse: tree-sitter C++ over a source text, error counting and a tree dump for debugging.

use std::cell::RefCell;
use std::sync::OnceLock;
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

/// `node.kind()`, looked up in a table of the grammar's kind names: `Node::kind` measures and
/// UTF-8-checks a C string on every call, which shows when a walk asks every node of a file.
pub fn kind(node: Node) -> &'static str {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let language = cpp_language();
        (0..language.node_kind_count()).map(|id| language.node_kind_for_id(id as u16).unwrap_or("")).collect()
    });
    match names.get(usize::from(node.kind_id())) {
        Some(name) => name,
        // ERROR nodes have an id past the grammar's own kinds.
        None => node.kind(),
    }
}

/// `node.child_by_field_name(name)`, with the field's id looked up in a table: by name,
/// tree-sitter compares `name` with the grammar's field names one by one on every call.
pub fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    static IDS: OnceLock<Vec<(&'static str, u16)>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let language = cpp_language();
        let mut ids: Vec<(&'static str, u16)> = (1..=language.field_count() as u16)
            .filter_map(|id| language.field_name_for_id(id).map(|name| (name, id)))
            .collect();
        ids.sort_unstable();
        ids
    });
    let i = ids.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    node.child_by_field_id(ids[i].1)
}

// The walks below use explicit stacks, not recursion: expressions nest as deep as the code is
// long (`a + b + ... + z`), far deeper than a thread's stack allows.

/// Number of ERROR and MISSING nodes in a subtree.
pub fn count_errors(node: Node) -> usize {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if !n.has_error() {
            continue;
        }
        count += usize::from(n.is_error() || n.is_missing());
        stack.extend(n.children(&mut n.walk()));
    }
    count
}

/// First ERROR or MISSING node in a subtree, in source order.
pub fn first_error(node: Node) -> Option<Node> {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if !n.has_error() {
            continue;
        }
        if n.is_error() || n.is_missing() {
            return Some(n);
        }
        let first = stack.len();
        stack.extend(n.children(&mut n.walk()));
        stack[first..].reverse();
    }
    None
}

/// An indented dump of the syntax tree: kind, field name, 1-based position, leaf text.
pub fn dump_tree(tree: &Tree, text: &str) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut stack: Vec<(Node, usize, Option<&'static str>)> = vec![(tree.root_node(), 0, None)];
    while let Some((node, depth, field)) = stack.pop() {
        let pos = node.start_position();
        // Indentation is capped (with the depth written out) so deep trees do not print gigabytes.
        let _ = write!(out, "{}", "  ".repeat(depth.min(64)));
        if depth > 64 {
            let _ = write!(out, "<{depth}> ");
        }
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
        let first = stack.len();
        for (i, child) in node.children(&mut node.walk()).enumerate() {
            stack.push((child, depth + 1, node.field_name_for_child(i as u32)));
        }
        stack[first..].reverse();
    }
    out
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

    #[test]
    fn kind_table_names_every_node_as_node_kind_does() {
        let src =
            "#define M(x) do { return x; } while (0)\ntemplate <class T> struct S : B<T> { operator int() const; };\n\
                   namespace n { extern \"C\" int f(int *a, hls::stream<int> &s) try { for (auto x : a) { L: s << x; } \
                   return [](int v) { return v; }(1) + sizeof(T) ?: 0; } catch (...) {} }\nint g( { R\"x(raw)x\"; 'c';";
        let tree = parse_cpp(src, None);
        let mut cursor = tree.walk();
        let mut seen = 0;
        'walk: loop {
            let node = cursor.node();
            assert_eq!(kind(node), node.kind(), "{node:?}");
            seen += 1;
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        assert!(seen > 100 && count_errors(tree.root_node()) > 0, "named, anonymous, aliased and ERROR nodes");
    }

    #[test]
    fn field_table_finds_what_child_by_field_name_finds() {
        let src = "template <class T> T f(T a, int *b) { for (int i = 0; i < 2; i++) { L: return g<T>(a, b[i]); } }";
        let tree = parse_cpp(src, None);
        let language = cpp_language();
        let names: Vec<&str> =
            (1..=language.field_count() as u16).filter_map(|id| language.field_name_for_id(id)).collect();
        let mut stack = vec![tree.root_node()];
        let mut found = 0;
        while let Some(node) = stack.pop() {
            for name in names.iter().copied().chain(["no_such_field", ""]) {
                assert_eq!(field(node, name), node.child_by_field_name(name), "{name} of {node:?}");
                found += usize::from(field(node, name).is_some());
            }
            stack.extend(node.children(&mut node.walk()));
        }
        assert!(found > 20);
    }

    #[test]
    fn deep_trees_do_not_overflow_the_stack() {
        let src = format!("int f() {{ return {}1{} + ; }}", "(".repeat(20_000), ")".repeat(20_000));
        let tree = parse_cpp(&src, None);
        assert!(count_errors(tree.root_node()) >= 1);
        assert!(first_error(tree.root_node()).is_some());
        let dump = dump_tree(&tree, &src);
        assert!(dump.contains("<20000> ") && dump.len() < 50 * 1024 * 1024, "indentation is capped");
    }
}
