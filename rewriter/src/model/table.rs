//! Loops that fill constant tables: every statement stores a constant expression of the
//! loop's indices into an array that nothing else writes (one array, or several side by side:
//! `t1[i] = i; t2[i] = i;` in a public 2022.2 design, absent from its report). Vitis folds such a loop into a ROM
//! (the table's values are known at synthesis), so the loop is absent from its report and costs
//! nothing at run time (facts, rule 7). Without a report, `sim` needs to know this from the
//! source alone.
//!
//! The test is syntactic and errs towards "not a table": a loop is one only when each part of
//! it is one of the shapes below, so a zeroing loop followed by `hist[x]++`, a table passed to
//! another function, or a value read from memory keeps the loop's cycles.

use super::*;
use crate::model::pragma::ConstantTable;

/// The constant table loop `node` (a `for` statement) fills, if it is one. `function_body` is the
/// body of the function holding it, `params` its parameters, `inline` the function's `#pragma
/// HLS INLINE` (`Some(false)` for `off`, `None` without one: then a fill through a parameter is
/// a table only if a project directive inlines the function, `if_inlined`), and `outer` the
/// induction variables of the loops around it (constants while it runs: the inner loop of a 2-D
/// fill is a fill too).
pub(super) fn constant_table(
    node: Node,
    decls: &super::decls::Decls,
    inline: Option<bool>,
    outer: Vec<String>,
) -> Option<ConstantTable> {
    if kind(node) != "for_statement" {
        return None;
    }
    let (function_body, params, text) = (decls.body, decls.params, decls.text);
    let mut fill = Fill { text, scope: decls.const_lines(), indices: outer, arrays: Vec::new(), uses_index: false };
    if !fill.for_loop(node) {
        return None;
    }
    let mut arrays = fill.arrays.into_iter();
    let array = arrays.next()?;
    let also: Vec<String> = arrays.collect();
    let through_parameter = params.iter().any(|p| p.name == array);
    // Tables through parameters are taken one at a time (the rules below).
    if also.iter().any(|a| params.iter().any(|p| &p.name == a) || !decls.declares_local_array(a)) {
        return None;
    }
    if also.iter().any(|a| !only_read_elsewhere(function_body, node, a, text)) {
        return None;
    }
    if through_parameter {
        // The caller's array: a ROM only when the function is inlined into a caller that owns
        // it, and a fill with one constant (`buf[i] = 0`) is more often a reset of a buffer the
        // caller then writes.
        if inline == Some(false) || !fill.uses_index {
            return None;
        }
    } else if !decls.declares_local_array(&array) {
        return None;
    }
    if !only_read_elsewhere(function_body, node, &array, text) {
        return None;
    }
    let if_inlined = through_parameter && inline.is_none();
    Some(ConstantTable { array, also, through_parameter, if_inlined })
}

struct Fill<'a> {
    text: &'a str,
    /// The lines of the function body that say `const` or `constexpr`, where constant names
    /// are looked up ([`const_lines`]).
    scope: &'a [&'a str],
    /// Induction variables of the loops entered so far.
    indices: Vec<String>,
    /// The arrays the stores write, in the order first stored.
    arrays: Vec<String>,
    /// Some stored value depends on an index.
    uses_index: bool,
}

impl Fill<'_> {
    /// A `for` whose header reads only indices and constants and whose body is only stores
    /// (or nested such loops).
    fn for_loop(&mut self, node: Node) -> bool {
        let own = body::induction_variables(node, self.text);
        if own.is_empty() {
            return false;
        }
        self.indices.extend(own);
        let header_ok = ["initializer", "condition", "update"].iter().all(|f| match field(node, f) {
            Some(part) => self.header_part(part),
            None => *f != "condition",
        });
        header_ok && field(node, "body").is_some_and(|b| self.statement(b))
    }

    fn header_part(&mut self, node: Node) -> bool {
        match kind(node) {
            "declaration" => node
                .children_by_field_name("declarator", &mut node.walk())
                .all(|d| kind(d) == "init_declarator" && field(d, "value").is_some_and(|v| self.constant(v, false))),
            "assignment_expression" | "comma_expression" => {
                named_children(node).all(|c| kind(c) == "identifier" && self.is_index(c) || self.header_part(c))
            }
            "update_expression" => field(node, "argument").is_some_and(|a| self.is_index(a)),
            _ => self.constant(node, false),
        }
    }

    fn statement(&mut self, node: Node) -> bool {
        match kind(node) {
            "compound_statement" => named_children(node).all(|c| self.statement(c)),
            "comment" | "empty_statement" => true,
            "preproc_call" => {
                node_text(node, self.text).trim_start().trim_start_matches('#').trim_start().starts_with("pragma")
            }
            "labeled_statement" => named_children(node).last().is_some_and(|s| self.statement(s)),
            "for_statement" => {
                let depth = self.indices.len();
                let ok = self.for_loop(node);
                self.indices.truncate(depth);
                ok
            }
            "expression_statement" => named_children(node).next().is_some_and(|e| self.store(e)),
            _ => false,
        }
    }

    /// `a[...]...[...] = constant`.
    fn store(&mut self, node: Node) -> bool {
        if kind(node) != "assignment_expression"
            || field(node, "operator").map(|o| node_text(o, self.text)) != Some("=")
        {
            return false;
        }
        let (Some(left), Some(right)) = (field(node, "left"), field(node, "right")) else { return false };
        let mut target = left;
        let mut subscripts = 0;
        while kind(target) == "subscript_expression" {
            let Some(index) = field(target, "indices").or_else(|| field(target, "index")) else { return false };
            if !self.constant(index, false) {
                return false;
            }
            subscripts += 1;
            let Some(base) = field(target, "argument") else { return false };
            target = base;
        }
        if subscripts == 0 || kind(target) != "identifier" {
            return false;
        }
        let name = node_text(target, self.text);
        if !self.arrays.iter().any(|a| a == name) {
            self.arrays.push(name.to_string());
        }
        self.constant(right, true)
    }

    fn is_index(&self, node: Node) -> bool {
        kind(node) == "identifier" && self.indices.iter().any(|i| i == node_text(node, self.text))
    }

    /// An expression of literals, constants and the indices, without side effects. `note`
    /// records whether an index was used (the stored values and subscripts).
    fn constant(&mut self, node: Node, note: bool) -> bool {
        match kind(node) {
            "number_literal" | "char_literal" | "true" | "false" | "sizeof_expression" | "comment" => true,
            "identifier" => {
                if self.is_index(node) {
                    self.uses_index |= note;
                    true
                } else {
                    is_constant_name(node_text(node, self.text), self.scope)
                }
            }
            "parenthesized_expression"
            | "binary_expression"
            | "unary_expression"
            | "conditional_expression"
            | "subscript_argument_list" => named_children(node).all(|c| self.constant(c, note)),
            "cast_expression" => field(node, "value").is_some_and(|v| self.constant(v, note)),
            // An element of a `const` table of the function (`coef[i]`, `w[i][j]`): known at synthesis.
            "subscript_expression" => {
                let index = field(node, "indices").or_else(|| field(node, "index"));
                let base = field(node, "argument");
                index.is_some_and(|i| self.constant(i, note))
                    && base.is_some_and(|b| match kind(b) {
                        "identifier" => is_const_array(node_text(b, self.text), self.scope),
                        "subscript_expression" => self.constant(b, note),
                        _ => false,
                    })
            }
            "call_expression" => {
                // `static_cast<short>(expr)` is a call of a template function in the grammar.
                let cast = field(node, "function").is_some_and(|f| node_text(f, self.text).starts_with("static_cast<"));
                cast && field(node, "arguments").is_some_and(|a| named_children(a).all(|c| self.constant(c, note)))
            }
            _ => false,
        }
    }
}

/// A macro or constant by convention (`N`, `TAB_SIZE`), or a name the function body declares
/// `const`/`constexpr` (`lines`: the body's [`const_lines`]). Only the body is searched: the
/// file can be megabytes and this runs per name.
fn is_constant_name(name: &str, lines: &[&str]) -> bool {
    if name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
    {
        return true;
    }
    lines.iter().any(|line| {
        let words: Vec<&str> = words(line).collect();
        words.iter().position(|w| *w == name).is_some_and(|p| p > 0)
            && line.split(name).nth(1).is_some_and(|rest| rest.trim_start().starts_with(['=', '{']))
    })
}

/// A `const`/`constexpr` array the function body declares with its values (`static const short
/// coef[16] = {...}`; `lines`: the body's [`const_lines`]): its elements are constants.
fn is_const_array(name: &str, lines: &[&str]) -> bool {
    lines.iter().any(|line| {
        let words: Vec<&str> = words(line).collect();
        let Some(at) = words.iter().position(|w| *w == name) else { return false };
        if !words[..at].iter().any(|w| *w == "const" || *w == "constexpr") {
            return false;
        }
        // The declarator: the name, its dimensions, then the initialiser.
        let Some(rest) = line.split_once(name).map(|(before, rest)| (before, rest.trim_start())) else { return false };
        let (before, mut rest) = rest;
        if before.ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let mut dims = 0;
        while let Some(r) = rest.strip_prefix('[') {
            let Some((_, after)) = r.split_once(']') else { return false };
            rest = after.trim_start();
            dims += 1;
        }
        dims > 0 && rest.starts_with(['=', '{'])
    })
}

/// The lines of `text` (a function body) with a word `const` or `constexpr`: the only lines
/// [`is_constant_name`] and [`is_const_array`] can match, kept once per function rather than
/// scanned again for every name of every loop.
pub(super) fn const_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|line| words(line).any(|w| w == "const" || w == "constexpr")).collect()
}

/// The words of a line: runs of letters, digits and `_`.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty())
}

/// `body` declares `name` as an array (`short tab[64];`, `static int t[N][M];`).
pub(super) fn declares_local_array(body: Node, name: &str, text: &str) -> bool {
    each_local_array(body, text, |n| n == name)
}

/// The names `body` declares as arrays (what [`declares_local_array`] looks for, all at once).
pub(super) fn local_array_names(body: Node, text: &str) -> std::collections::HashSet<String> {
    let mut names = std::collections::HashSet::new();
    each_local_array(body, text, |n| {
        names.insert(n.to_string());
        false
    });
    names
}

/// Walk the array declarations of `body`, each name to `stop`, until it says true (then true).
fn each_local_array(body: Node, text: &str, mut stop: impl FnMut(&str) -> bool) -> bool {
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if kind(n) == "declaration" {
            for d in n.children_by_field_name("declarator", &mut n.walk()) {
                let d = if kind(d) == "init_declarator" { field(d, "declarator").unwrap_or(d) } else { d };
                if kind(d) == "array_declarator" && body::innermost_identifier(d, text).is_some_and(|i| stop(&i)) {
                    return true;
                }
            }
        }
        todo.extend(named_children(n));
    }
    false
}

/// Outside `fill`, every use of `name` in `body` reads an element (`name[i]` as a value): it is
/// not written, incremented, passed whole to a call or have its address taken. Ancestors are
/// kept by hand: `Node::parent` walks down from the root, as long as the file.
pub(super) fn only_read_elsewhere(body: Node, fill: Node, name: &str, text: &str) -> bool {
    every_use(body, Some(fill), name, text, is_read_or_declaration)
}

/// Every identifier `name` in `body` (outside `skip`) passes `ok(ident, ancestors)`, the
/// ancestors outermost first. Kept by hand: `Node::parent` walks down from the root, as long as
/// the file.
pub(super) fn every_use(
    body: Node,
    skip: Option<Node>,
    name: &str,
    text: &str,
    ok: impl Fn(Node, &[Node]) -> bool,
) -> bool {
    let mut path: Vec<Node> = Vec::new();
    let mut todo = vec![(body, 0usize)];
    while let Some((n, depth)) = todo.pop() {
        path.truncate(depth);
        if skip.is_some_and(|s| s.id() == n.id()) {
            continue;
        }
        if kind(n) == "identifier" && node_text(n, text) == name && !ok(n, &path) {
            return false;
        }
        path.push(n);
        todo.extend(named_children(n).map(|c| (c, depth + 1)));
    }
    true
}

/// `ident` (a use of the array, below `path`, its ancestors outermost first) is its declaration
/// or the array of an element read.
fn is_read_or_declaration(ident: Node, path: &[Node]) -> bool {
    let Some((&parent, above)) = path.split_last() else { return false };
    match kind(parent) {
        "array_declarator" | "init_declarator" | "declaration" => true,
        // `for (int v : t)` reads the elements; `for (int &v : t)` may write them.
        "for_range_loop" if field(parent, "right").is_some_and(|r| r.id() == ident.id()) => {
            let by_reference = field(parent, "declarator").is_some_and(|d| kind(d) == "reference_declarator");
            let constant = children(parent)
                .take_while(|c| kind(*c) != "reference_declarator")
                .any(|c| kind(c) == "type_qualifier" && c.child(0).is_some_and(|q| q.kind() == "const"));
            !by_reference || constant
        }
        "subscript_expression" if field(parent, "argument").is_some_and(|a| a.id() == ident.id()) => {
            // Climb the subscripts (`t[i][j]`) to the element, then ask how it is used.
            let mut element = parent;
            let mut rest = above;
            while let Some((&up, higher)) = rest.split_last() {
                if kind(up) != "subscript_expression" {
                    break;
                }
                element = up;
                rest = higher;
            }
            match rest.last() {
                Some(&user) => match kind(user) {
                    "assignment_expression" => field(user, "left").is_none_or(|l| l.id() != element.id()),
                    "update_expression" => false,
                    "pointer_expression" => user.child(0).is_none_or(|op| op.kind() != "&"),
                    _ => true,
                },
                None => true,
            }
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_cpp;

    fn table_of(src: &str) -> Vec<Option<(String, bool)>> {
        let tree = parse_cpp(src, None);
        let model = crate::model::build(&tree, src);
        model
            .functions
            .iter()
            .flat_map(|f| f.loops.iter())
            .map(|l| {
                l.details
                    .as_ref()
                    .unwrap()
                    .facts
                    .constant_table
                    .as_ref()
                    .map(|t| (t.array.clone(), t.through_parameter))
            })
            .collect()
    }

    #[test]
    fn a_table_of_the_index_read_afterwards_is_a_rom() {
        let src = "#define N 64\nint f(int x) {\n  short tab[N];\n  for (int i = 0; i < N; i++) tab[i] = static_cast<short>((i * i) >> 4) + 3;\n  return tab[x & (N - 1)];\n}\n";
        assert_eq!(table_of(src), vec![Some(("tab".into(), false))]);
    }

    #[test]
    fn two_dimensions_and_a_const_name() {
        let src = "int f(int x) {\n  const int k = 3;\n  int t[4][8];\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 8; j++) { t[i][j] = i * k + j; }\n  return t[x & 3][x & 7];\n}\n";
        assert_eq!(table_of(src), vec![Some(("t".into(), false)), Some(("t".into(), false))]);
    }

    /// Two tables filled side by side by one loop (a public 2022.2 design's `bram1[i] = i;
    /// bram2[i] = i;` with the counter declared before the loop: absent from its report); when
    /// either is written elsewhere the loop is not a fill.
    #[test]
    fn two_tables_filled_side_by_side() {
        let both = "typedef unsigned char u8;\nu8 f(u8 x) {\n  u8 a[64];\n  u8 b[64];\n  u8 i = 0;\n  for (i = 0; i < 64; i++) {\n    a[i] = i;\n    b[i] = i;\n  }\n  return a[x % 64] + b[(x + 8) % 64];\n}\n";
        let second_written = "int f(int x) {\n  int a[16];\n  int b[16];\n  for (int i = 0; i < 16; i++) { a[i] = i; b[i] = 2 * i; }\n  b[x & 15] = x;\n  return a[x & 15] + b[0];\n}\n";
        let tree = parse_cpp(both, None);
        let model = crate::model::build(&tree, both);
        let table = model.functions[0].loops[0].details.as_ref().unwrap().facts.constant_table.clone().unwrap();
        assert_eq!((table.array.as_str(), table.also.as_slice()), ("a", &["b".to_string()][..]));
        assert_eq!(table_of(second_written), vec![None]);
    }

    #[test]
    fn a_table_written_or_passed_on_afterwards_is_not() {
        let written = "int f(int x) {\n  int h[16];\n  for (int i = 0; i < 16; i++) h[i] = 0;\n  h[x & 15]++;\n  return h[0];\n}\n";
        let passed = "void g(int *p);\nint f(int x) {\n  int h[16];\n  for (int i = 0; i < 16; i++) h[i] = i;\n  g(h);\n  return h[x & 15];\n}\n";
        let stored = "int f(int x) {\n  int h[16];\n  for (int i = 0; i < 16; i++) h[i] = i;\n  h[2] = x;\n  return h[x & 15];\n}\n";
        for src in [written, passed, stored] {
            assert_eq!(table_of(src), vec![None], "{src}");
        }
    }

    #[test]
    fn values_from_memory_or_variables_are_not_constants() {
        let read = "int f(const int *in, int x) {\n  int t[16];\n  for (int i = 0; i < 16; i++) t[i] = in[i];\n  return t[x & 15];\n}\n";
        let var = "int f(int x, int s) {\n  int t[16];\n  for (int i = 0; i < 16; i++) t[i] = i * s;\n  return t[x & 15];\n}\n";
        let global = "int t[16];\nvoid f() {\n  for (int i = 0; i < 16; i++) t[i] = i;\n}\n";
        let call = "int g(int);\nint f(int x) {\n  int t[16];\n  for (int i = 0; i < 16; i++) t[i] = g(i);\n  return t[x & 15];\n}\n";
        for src in [read, var, global, call] {
            assert_eq!(table_of(src), vec![None], "{src}");
        }
    }

    #[test]
    fn through_a_parameter_only_in_an_inlined_function_and_from_the_index() {
        let inlined = "static void init(short tab[64]) {\n#pragma HLS INLINE\n  for (int i = 0; i < 64; i++) tab[i] = 2 * i + 16;\n}\n";
        let not_inlined = "static void init(short tab[64]) {\n  for (int i = 0; i < 64; i++) tab[i] = 2 * i + 16;\n}\n";
        let reset =
            "static void init(short tab[64]) {\n#pragma HLS INLINE\n  for (int i = 0; i < 64; i++) tab[i] = 0;\n}\n";
        let off = "static void init(short tab[64]) {\n#pragma HLS INLINE off\n  for (int i = 0; i < 64; i++) tab[i] = 2 * i + 16;\n}\n";
        assert_eq!(table_of(inlined), vec![Some(("tab".into(), true))]);
        assert_eq!(table_of(reset), vec![None]);
        assert_eq!(table_of(off), vec![None]);
        // Without the pragma, a table only if a project directive inlines the function.
        let tree = parse_cpp(not_inlined, None);
        let model = crate::model::build(&tree, not_inlined);
        let facts = &model.functions[0].loops[0].details.as_ref().unwrap().facts;
        let table = facts.constant_table.as_ref().unwrap();
        assert!(table.through_parameter && table.if_inlined, "{table:?}");
    }

    #[test]
    fn elements_of_a_const_table_are_constants() {
        let derived = "int f(int x) {\n  static const short coef[4] = {3, 1, 4, 1};\n  const int w[2][2] = {{1, 2}, {3, 4}};\n  int t[4];\n  for (int i = 0; i < 4; i++) t[i] = coef[i] * 2 + w[i & 1][1];\n  return t[x & 3];\n}\n";
        assert_eq!(table_of(derived), vec![Some(("t".into(), false))]);
        let mutable = "int f(int x) {\n  short coef[4] = {3, 1, 4, 1};\n  coef[x & 3] = x;\n  int t[4];\n  for (int i = 0; i < 4; i++) t[i] = coef[i] * 2;\n  return t[x & 3];\n}\n";
        let port = "int f(const short *coef, int x) {\n  int t[4];\n  for (int i = 0; i < 4; i++) t[i] = coef[i] * 2;\n  return t[x & 3];\n}\n";
        let by_data = "int f(int x) {\n  static const short coef[4] = {3, 1, 4, 1};\n  int t[4];\n  for (int i = 0; i < 4; i++) t[i] = coef[x & 3];\n  return t[x & 3];\n}\n";
        for src in [mutable, port, by_data] {
            assert_eq!(table_of(src), vec![None], "{src}");
        }
    }
}
