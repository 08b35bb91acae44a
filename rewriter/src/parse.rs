//! Stage 1, parse: tree-sitter over a source text, error counting and a tree dump for debugging.
//!
//! Two grammars: C++ (tree-sitter-cpp) for C/C++ files and C (tree-sitter-c) for OpenCL C
//! (`.cl`, after the pre-pass of [`crate::opencl`]). Their node kinds and field names mostly
//! agree (the C++ grammar extends the C one); where the rest of the rewriter depends on one that
//! differs, it asks a helper here ([`subscript_index`], [`is_index_of`]) instead of naming the
//! kind, so the model, the plan and the checks run unchanged on either tree. [`kind`] and
//! [`field`] look up the grammar of the node's own tree.

use std::cell::RefCell;
use std::path::Path;
use std::sync::OnceLock;
use tree_sitter::{Language, Node, Parser, Tree};

/// The grammar a file is parsed with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    /// C and C++ sources and headers: tree-sitter-cpp.
    Cpp,
    /// OpenCL C (`.cl`), blanked by [`crate::opencl::blank`]: tree-sitter-c. OpenCL C is C, and
    /// the C++ grammar misreads valid C (a variable named `new`, `class` or `this`).
    OpenCl,
}

impl Lang {
    /// `.cl` files are OpenCL C; everything else we read is C or C++.
    pub fn of_path(path: &Path) -> Lang {
        if crate::opencl::is_opencl_path(path) {
            Lang::OpenCl
        } else {
            Lang::Cpp
        }
    }

    /// The tree-sitter grammar (each pinned exactly in the workspace manifest).
    pub fn language(self) -> &'static Language {
        static CPP: OnceLock<Language> = OnceLock::new();
        static C: OnceLock<Language> = OnceLock::new();
        match self {
            Lang::Cpp => CPP.get_or_init(|| tree_sitter_cpp::LANGUAGE.into()),
            Lang::OpenCl => C.get_or_init(|| tree_sitter_c::LANGUAGE.into()),
        }
    }

    /// The grammar `node`'s tree was parsed with.
    pub fn of_node(node: Node) -> Lang {
        if *node.language() == *Lang::OpenCl.language() {
            Lang::OpenCl
        } else {
            Lang::Cpp
        }
    }

    fn tables(self) -> &'static Tables {
        static CPP: OnceLock<Tables> = OnceLock::new();
        static C: OnceLock<Tables> = OnceLock::new();
        match self {
            Lang::Cpp => CPP.get_or_init(|| Tables::new(Lang::Cpp.language())),
            Lang::OpenCl => C.get_or_init(|| Tables::new(Lang::OpenCl.language())),
        }
    }
}

/// The C++ grammar (tree-sitter-cpp, pinned in the workspace manifest).
pub fn cpp_language() -> tree_sitter::Language {
    Lang::Cpp.language().clone()
}

thread_local! {
    // One parser per grammar and worker thread: creating one costs more than parsing a small header.
    static PARSERS: RefCell<[Option<Parser>; 2]> = const { RefCell::new([None, None]) };
}

/// Parse `text` with the grammar of `lang`. `old` enables incremental re-parsing of an edited
/// tree (of the same grammar).
pub fn parse(lang: Lang, text: &str, old: Option<&Tree>) -> Tree {
    with_parser(lang, |parser| {
        parser.parse(text, old).expect("parsing without timeout or cancellation always yields a tree")
    })
}

/// Parse only `piece` of `text` with the grammar of `lang`: node offsets and points are those
/// of the whole text, as if the rest were not there. The rewrite parses a large file a piece of
/// whole top-level items at a time with it ([`crate::top_level`]).
pub fn parse_piece(lang: Lang, text: &str, piece: tree_sitter::Range) -> Tree {
    with_parser(lang, |parser| {
        parser.set_included_ranges(&[piece]).expect("one range lies within the text");
        let tree = parser.parse(text, None);
        // An empty list is the whole text again, for every later parse on this thread.
        parser.set_included_ranges(&[]).expect("the empty list is always valid");
        tree.expect("parsing without timeout or cancellation always yields a tree")
    })
}

fn with_parser<T>(lang: Lang, f: impl FnOnce(&mut Parser) -> T) -> T {
    PARSERS.with(|p| {
        let mut parsers = p.borrow_mut();
        let parser = parsers[lang as usize].get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(lang.language()).expect("the grammars are ABI compatible with the pinned tree-sitter");
            p
        });
        f(parser)
    })
}

/// Parse C++ source. `old` enables incremental re-parsing of an edited tree.
pub fn parse_cpp(text: &str, old: Option<&Tree>) -> Tree {
    parse(Lang::Cpp, text, old)
}

/// Kind names by id and field ids by name, of one grammar.
struct Tables {
    kinds: Vec<&'static str>,
    fields: Vec<(&'static str, u16)>,
}

impl Tables {
    fn new(language: &Language) -> Tables {
        let kinds =
            (0..language.node_kind_count()).map(|id| language.node_kind_for_id(id as u16).unwrap_or("")).collect();
        let mut fields: Vec<(&'static str, u16)> = (1..=language.field_count() as u16)
            .filter_map(|id| language.field_name_for_id(id).map(|name| (name, id)))
            .collect();
        fields.sort_unstable();
        Tables { kinds, fields }
    }
}

/// `node.kind()`, looked up in a table of the grammar's kind names: `Node::kind` measures and
/// UTF-8-checks a C string on every call, which shows when a walk asks every node of a file.
pub fn kind(node: Node) -> &'static str {
    match Lang::of_node(node).tables().kinds.get(usize::from(node.kind_id())) {
        Some(name) => name,
        // ERROR nodes have an id past the grammar's own kinds.
        None => node.kind(),
    }
}

/// `node.child_by_field_name(name)`, with the field's id looked up in a table: by name,
/// tree-sitter compares `name` with the grammar's field names one by one on every call.
pub fn field<'t>(node: Node<'t>, name: &str) -> Option<Node<'t>> {
    let ids = &Lang::of_node(node).tables().fields;
    let i = ids.binary_search_by(|(n, _)| (*n).cmp(name)).ok()?;
    node.child_by_field_id(ids[i].1)
}

/// Nodes with up to this many children are walked by index; larger ones with a cursor.
const BY_INDEX_UP_TO: usize = 16;

/// The named children of `node`, in order. `named_child(i)` walks from the first child, but a
/// cursor's step to the next sibling costs several times one step of that walk (about 700
/// instructions a child in tree-sitter 0.25 against 300 by index, for the few children of a
/// statement), so few children are taken by index and many with a cursor.
pub fn named_children(node: Node<'_>) -> impl DoubleEndedIterator<Item = Node<'_>> {
    by_index_or_cursor(
        node.named_child_count(),
        move |i| node.named_child(i),
        move || node.named_children(&mut node.walk()).collect(),
    )
}

/// The children of `node`, named or not, in order (see [`named_children`]).
pub fn children(node: Node<'_>) -> impl DoubleEndedIterator<Item = Node<'_>> {
    by_index_or_cursor(node.child_count(), move |i| node.child(i), move || node.children(&mut node.walk()).collect())
}

/// `count` children: by index (`nth`) when they are few, else all at once with a cursor (`all`).
fn by_index_or_cursor<'t>(
    count: usize,
    nth: impl Fn(usize) -> Option<Node<'t>>,
    all: impl FnOnce() -> Vec<Node<'t>>,
) -> impl DoubleEndedIterator<Item = Node<'t>> {
    let (few, many) = if count <= BY_INDEX_UP_TO { (count, Vec::new()) } else { (0, all()) };
    (0..few).filter_map(nth).chain(many)
}

/// The index expressions of a `subscript_expression`, comments left out: C++ has a field
/// `indices` (a `subscript_argument_list`, `m[i, j]` in C++23), C a field `index` (one expression).
pub fn subscript_index(subscript: Node) -> Vec<Node> {
    if let Some(list) = field(subscript, "indices") {
        return list.named_children(&mut list.walk()).filter(|c| c.kind() != "comment").collect();
    }
    field(subscript, "index").into_iter().collect()
}

/// Whether `child` is (or, in C++, holds) the index of `parent`: the `subscript_argument_list`
/// of C++, or the child in field `index` of a C `subscript_expression`.
pub fn is_index_of(parent: Node, child: Node) -> bool {
    match kind(parent) {
        "subscript_argument_list" => true,
        "subscript_expression" => field(parent, "index").is_some_and(|i| i.id() == child.id()),
        _ => false,
    }
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

    /// Every node of `tree`.
    fn all_nodes(tree: &Tree) -> Vec<Node<'_>> {
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(n.children(&mut n.walk()));
        }
        out
    }

    #[test]
    fn kind_table_names_every_node_as_node_kind_does() {
        let cpp =
            "#define M(x) do { return x; } while (0)\ntemplate <class T> struct S : B<T> { operator int() const; };\n\
                   namespace n { extern \"C\" int f(int *a, hls::stream<int> &s) try { for (auto x : a) { L: s << x; } \
                   return [](int v) { return v; }(1) + sizeof(T) ?: 0; } catch (...) {} }\nint g( { R\"x(raw)x\"; 'c';";
        let c = "#define M(x) do { return x; } while (0)\nstruct S { int a : 3; union { float f; } u; };\n\
                 typedef enum { A = 1 } E; int f(int *restrict a, float4 v) { L: for (int i = 0; i < 4; i++) \
                 { a[i] += (int)v.s0; } switch (a[0]) { case 1: goto L; } return sizeof(struct S) ?: 0; }\nint g( { 'c';";
        for (lang, src) in [(Lang::Cpp, cpp), (Lang::OpenCl, c)] {
            let tree = parse(lang, src, None);
            let nodes = all_nodes(&tree);
            for &node in &nodes {
                assert_eq!(Lang::of_node(node), lang);
                assert_eq!(kind(node), node.kind(), "{lang:?}: {node:?}");
            }
            assert!(
                nodes.len() > 100 && count_errors(tree.root_node()) > 0,
                "{lang:?}: named, anonymous, aliased and ERROR nodes"
            );
        }
    }

    #[test]
    fn field_table_finds_what_child_by_field_name_finds() {
        let src =
            "int f(int a, int *b) { for (int i = 0; i < 2; i++) { L: if (a) return g(a, b[i]); while (b[0]) b++; } }";
        let cpp = format!("template <class T> T h(T a) {{ return a; }}\n{src}");
        for (lang, src) in [(Lang::Cpp, cpp.as_str()), (Lang::OpenCl, src)] {
            let tree = parse(lang, src, None);
            let language = lang.language();
            let names: Vec<&str> =
                (1..=language.field_count() as u16).filter_map(|id| language.field_name_for_id(id)).collect();
            let mut found = 0;
            for node in all_nodes(&tree) {
                for name in names.iter().copied().chain(["no_such_field", ""]) {
                    assert_eq!(field(node, name), node.child_by_field_name(name), "{lang:?}: {name} of {node:?}");
                    found += usize::from(field(node, name).is_some());
                }
            }
            assert!(found > 20, "{lang:?}");
        }
    }

    /// OpenCL C is C: words that C++ reserves are ordinary identifiers there, and the C++
    /// grammar misreads them. The C grammar reads the same text without an error.
    #[test]
    fn opencl_c_is_parsed_with_the_c_grammar() {
        let src = "int f(int *a) { int new = a[0]; int class = new + 1; int this = class; return this; }";
        assert_eq!(count_errors(parse(Lang::OpenCl, src, None).root_node()), 0);
        assert!(count_errors(parse(Lang::Cpp, src, None).root_node()) > 0);
        assert_eq!(Lang::of_path(Path::new("k/x.CL")), Lang::OpenCl);
        assert_eq!(Lang::of_path(Path::new("k/x.c")), Lang::Cpp);
    }

    #[test]
    fn subscript_index_hides_the_grammars_field() {
        let src = "void f(int *p, int i) { p[i /* k */ + 1] = p[p - p]; }";
        for lang in [Lang::Cpp, Lang::OpenCl] {
            let tree = parse(lang, src, None);
            let mut subs: Vec<Node> =
                all_nodes(&tree).into_iter().filter(|n| kind(*n) == "subscript_expression").collect();
            subs.sort_by_key(|n| n.start_byte());
            let index: Vec<&str> =
                subs.iter().flat_map(|s| subscript_index(*s)).map(|n| &src[n.byte_range()]).collect();
            assert_eq!(index, ["i /* k */ + 1", "p - p"], "{lang:?}");
            // `p - p` is the index of the second subscript, `p[...]` (its argument) is not.
            let minus = subscript_index(subs[1])[0];
            let holder = minus.parent().unwrap();
            assert!(is_index_of(holder, minus), "{lang:?}");
            assert!(!is_index_of(subs[1], field(subs[1], "argument").unwrap()), "{lang:?}");
        }
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
