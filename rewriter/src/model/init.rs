//! Aggregate initialisers of local arrays (`int hist[16] = {4, 4, 3, ...};`, `= {0}`): Vitis
//! fills such an array with a module of its own, `<func>_Pipeline_<N>`, one loop of one trip per
//! element (facts, rule 1), each time the function runs. Without a report `sim` must charge it.
//!
//! Not every initialiser is such a module: a `static` array is filled once, at configuration; a
//! `const` one, or one the function only reads afterwards, is a ROM whose contents are known at
//! synthesis. The read-only test is `table::only_read_elsewhere`, the one the constant-table
//! loops use: anything else (a store, `++`, passing the array whole, taking its address) counts as
//! a write, so the initialiser is charged.

use super::*;

/// The initialised local arrays of `body` (a function body) that it writes later, in source order.
/// `pruning` (the body walk's, when it had one) skips expressions with nothing below them to
/// record: a declaration below an expression sits in something that holds statements, which
/// opens with `{`, so such an expression holds none (see [`super::prune`]). On dense code this
/// walk cost as much as the body walk itself, most of it in expression statements.
pub(super) fn written_initialisers(body: Node, text: &str, pruning: Option<&prune::Pruning>) -> Vec<LocalInit> {
    let mut found = Vec::new();
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if pruning.is_some_and(|p| p.skips(n)) {
            continue;
        }
        match kind(n) {
            "declaration" => found.extend(declared(body, n, text)),
            // A lambda's or local class's arrays are another function's.
            "lambda_expression" | "class_specifier" | "struct_specifier" => continue,
            _ => {}
        }
        todo.extend(named_children(n).collect::<Vec<_>>().into_iter().rev());
    }
    found
}

/// The initialisers `decl` makes that count.
fn declared(body: Node, decl: Node, text: &str) -> Vec<LocalInit> {
    let mut out = Vec::new();
    for d in decl.children_by_field_name("declarator", &mut decl.walk()) {
        if kind(d) != "init_declarator" {
            continue;
        }
        let (Some(array), Some(value)) = (field(d, "declarator"), field(d, "value")) else { continue };
        if kind(array) != "array_declarator" || kind(value) != "initializer_list" {
            continue;
        }
        // `static`, `const`, `constexpr` before the declarator: filled once, or a ROM.
        let head = &text[decl.start_byte()..array.start_byte()];
        let words: Vec<&str> = head.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
        if words.iter().any(|w| matches!(*w, "static" | "const" | "constexpr")) {
            continue;
        }
        let Some(name) = body::innermost_identifier(array, text) else { continue };
        if table::only_read_elsewhere(body, decl, &name, text) {
            continue;
        }
        let mut dims = Vec::new();
        let mut a = array;
        while kind(a) == "array_declarator" {
            dims.push(match field(a, "size") {
                Some(s) => node_text(s, text).split_whitespace().collect::<Vec<_>>().join(" "),
                // `int t[] = {1, 2, 3}`: the list's length.
                None => named_children(value).filter(|c| kind(*c) != "comment").count().to_string(),
            });
            match field(a, "declarator") {
                Some(inner) => a = inner,
                None => break,
            }
        }
        dims.reverse();
        let (line, _) = position(text, decl.start_byte());
        out.push(LocalInit { array: name, line, dims });
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_cpp;

    fn inits(src: &str) -> Vec<(String, Vec<String>)> {
        let model = crate::model::build(&parse_cpp(src, None), src);
        model.functions[0].initialisers.iter().map(|i| (i.array.clone(), i.dims.clone())).collect()
    }

    #[test]
    fn an_initialised_array_written_later_is_counted_with_its_dimensions() {
        let src = "int f(int x) {\n  int h[N_BINS] = {1, 2, 3};\n  int m[2][N * 4] = {0};\n  int z[] = {5, 6, 7};\n  h[x & 3]++;\n  m[1][x] = x;\n  g(z);\n  return h[0] + m[0][0];\n}\n";
        let by_reference = "void f() {\n  int t[2] = {1, 2};\n  for (int &v : t) v++;\n}\n";
        assert_eq!(inits(by_reference), [("t".into(), vec!["2".into()])]);
        assert_eq!(
            inits(src),
            [
                ("h".into(), vec!["N_BINS".into()]),
                ("m".into(), vec!["2".into(), "N * 4".into()]),
                ("z".into(), vec!["3".into()])
            ]
        );
    }

    #[test]
    fn read_only_static_and_const_arrays_are_not() {
        let read_only = "int f(int x) {\n  int t[4] = {1, 2, 3, 4};\n  return t[x & 3];\n}\n";
        let stat = "int f(int x) {\n  static int t[4] = {0};\n  t[x & 3]++;\n  return t[0];\n}\n";
        let cnst = "int f(int x) {\n  const int t[4] = {1, 2, 3, 4};\n  return t[x & 3];\n}\n";
        let no_init = "int f(int x) {\n  int t[4];\n  t[x & 3] = 1;\n  return t[0];\n}\n";
        let ranged = "int f() {\n  int t[4] = {1, 2, 3, 4};\n  int s = 0;\n  for (int v : t) s += v;\n  for (const int &v : t) s += v;\n  return s;\n}\n";
        for src in [read_only, stat, cnst, no_init, ranged] {
            assert!(inits(src).is_empty(), "{src}");
        }
    }
}
