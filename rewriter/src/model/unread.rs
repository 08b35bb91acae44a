//! Stores nothing reads: a local array that the function only ever stores into (`t[i] = e`)
//! holds values no one observes, so synthesis removes the stores, the loops that do nothing
//! else, and the reads that only feed them. C simulation still runs them, so without a report
//! `sim` must not charge their cycles or count the port reads among them as DRAM traffic
//! (facts, item 5 of issue 16: "bytes moved by code that Vitis removes are not DRAM traffic").
//!
//! The test errs towards "live": the array is declared in the function, and every other name of
//! it is the array of a plain `=` store; the stored values and subscripts have no side effects
//! (no calls but casts, no assignments or increments). A read, an increment, a compound
//! assignment, the array passed to a call or its address taken keeps everything.

use super::*;

/// The local array a `for` loop (`node`, in the function whose body is `function_body`) only
/// stores into, when nothing in the function reads it: the loop is code Vitis removes. Its header
/// may read anything without side effects (a bound `n` too); its body is only such stores and
/// nested such loops.
pub(super) fn unread_store_loop(node: Node, decls: &super::decls::Decls) -> Option<String> {
    let mut arrays: Vec<String> = Vec::new();
    if !dead_loop(node, decls.text, &mut Vec::new(), &mut arrays) {
        return None;
    }
    let all_unread = !arrays.is_empty() && arrays.iter().all(|a| decls.only_stored(a));
    all_unread.then(|| arrays.join(", "))
}

/// The local array the store around `ident` (a name at the end of `path`, its ancestors from the
/// function body `path[0]` down) writes, when nothing in the function reads that array and the
/// store has no side effects: the value read at `ident` is never used.
pub(super) fn feeds_only_unread_store(ident: Node, path: &[Node], text: &str) -> Option<String> {
    let body = *path.first()?;
    let at = path.iter().rposition(|n| kind(*n) == "expression_statement")?;
    let e = path.get(at + 1).copied()?;
    // The statement is the store itself, not a store inside a larger expression.
    let statement = path[at];
    if named_children(statement).next().map(|c| c.id()) != Some(e.id()) {
        return None;
    }
    let array = store_target(e, text)?;
    if array == node_text(ident, text) || !pure_store(e, text) || !only_stored(body, &array, text) {
        return None;
    }
    Some(array)
}

/// A loop whose header has no side effects beyond stepping its own indices and whose body is
/// only stores `a[...] = e` (and nested such loops); the stored arrays are added to `arrays`.
fn dead_loop(node: Node, text: &str, indices: &mut Vec<String>, arrays: &mut Vec<String>) -> bool {
    if kind(node) != "for_statement" {
        return false;
    }
    let own = body::induction_variables(node, text);
    if own.is_empty() {
        return false;
    }
    let depth = indices.len();
    indices.extend(own);
    let header_ok = ["initializer", "condition", "update"].iter().all(|f| match field(node, f) {
        Some(part) => pure(part, text, indices),
        None => *f != "condition",
    });
    let ok = header_ok && field(node, "body").is_some_and(|b| dead_statement(b, text, indices, arrays));
    indices.truncate(depth);
    ok
}

fn dead_statement(node: Node, text: &str, indices: &mut Vec<String>, arrays: &mut Vec<String>) -> bool {
    match kind(node) {
        "compound_statement" => named_children(node).all(|c| dead_statement(c, text, indices, arrays)),
        "comment" | "empty_statement" => true,
        "preproc_call" => node_text(node, text).trim_start().trim_start_matches('#').trim_start().starts_with("pragma"),
        "labeled_statement" => named_children(node).last().is_some_and(|s| dead_statement(s, text, indices, arrays)),
        "for_statement" => dead_loop(node, text, indices, arrays),
        "expression_statement" => named_children(node).next().is_some_and(|e| match store_target(e, text) {
            Some(a) if pure_store(e, text) => {
                if !arrays.contains(&a) {
                    arrays.push(a);
                }
                true
            }
            _ => false,
        }),
        _ => false,
    }
}

/// The array of a plain store `a[...]...[...] = e`.
fn store_target(e: Node, text: &str) -> Option<String> {
    if kind(e) != "assignment_expression" || field(e, "operator").map(|o| node_text(o, text)) != Some("=") {
        return None;
    }
    let mut target = field(e, "left")?;
    let mut subscripts = 0;
    while kind(target) == "subscript_expression" {
        target = field(target, "argument")?;
        subscripts += 1;
    }
    (subscripts > 0 && kind(target) == "identifier").then(|| node_text(target, text).to_string())
}

/// A store `a[...] = e` (see [`store_target`]) whose subscripts and value have no side effects.
fn pure_store(e: Node, text: &str) -> bool {
    ["left", "right"].iter().all(|f| field(e, f).is_some_and(|part| pure(part, text, &[])))
}

/// No side effects: no calls (but `static_cast<T>(x)`), no `new`/`delete`, no lambdas, and no
/// assignment or increment except of a loop index in `indices` (the header's `i++`, `i = 0`).
fn pure(node: Node, text: &str, indices: &[String]) -> bool {
    let is_index =
        |n: Option<Node>| n.is_some_and(|n| kind(n) == "identifier" && indices.iter().any(|i| i == node_text(n, text)));
    match kind(node) {
        "call_expression" => {
            field(node, "function").is_some_and(|f| node_text(f, text).starts_with("static_cast<"))
                && field(node, "arguments").is_some_and(|a| named_children(a).all(|c| pure(c, text, indices)))
        }
        "new_expression" | "delete_expression" | "lambda_expression" | "co_await_expression" | "throw_expression" => {
            false
        }
        "update_expression" => is_index(field(node, "argument")),
        "assignment_expression" => {
            is_index(field(node, "left")) && field(node, "right").is_some_and(|r| pure(r, text, indices))
        }
        _ => named_children(node).all(|c| pure(c, text, indices)),
    }
}

/// `name` is a local array of `body` and every name of it but its declaration is the array of a
/// plain `=` store.
fn only_stored(body: Node, name: &str, text: &str) -> bool {
    super::table::declares_local_array(body, name, text) && stored_only(body, name, text)
}

/// Every name `name` in `body` but its declaration is the array of a plain `=` store (whether
/// `body` declares it is [`only_stored`]'s question).
pub(super) fn stored_only(body: Node, name: &str, text: &str) -> bool {
    super::table::every_use(body, None, name, text, declared_or_stored)
}

/// `ident` (below `path`) is the array's declaration or the array of the left side of `=`.
fn declared_or_stored(ident: Node, path: &[Node]) -> bool {
    let Some((&parent, _)) = path.split_last() else { return false };
    match kind(parent) {
        "array_declarator" => true,
        "subscript_expression" if field(parent, "argument").is_some_and(|a| a.id() == ident.id()) => {
            let mut element = parent;
            let mut rest = &path[..path.len() - 1];
            while let Some((&up, higher)) = rest.split_last() {
                if kind(up) != "subscript_expression" || field(up, "argument").is_none_or(|a| a.id() != element.id()) {
                    break;
                }
                element = up;
                rest = higher;
            }
            rest.last().is_some_and(|&user| {
                kind(user) == "assignment_expression"
                    && field(user, "left").is_some_and(|l| l.id() == element.id())
                    && user.child_by_field_name("operator").is_some_and(|o| o.kind() == "=")
            })
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_cpp;

    fn removed(src: &str) -> Vec<Option<String>> {
        let tree = parse_cpp(src, None);
        let model = crate::model::build(&tree, src);
        model
            .functions
            .iter()
            .flat_map(|f| f.loops.iter())
            .map(|l| l.details.as_ref().unwrap().facts.unread_store.clone())
            .collect()
    }

    #[test]
    fn a_copy_loop_into_an_array_nothing_reads_is_removed() {
        let src = "void f(const int *in, int *out, int n) {\n  int shadow[64];\n  for (int i = 0; i < n; i++) {\n#pragma HLS PIPELINE II=1\n    shadow[i] = in[i] * 2;\n  }\n  out[0] = n;\n}\n";
        assert_eq!(removed(src), vec![Some("shadow".to_string())]);
        let nested = "void f(const int *in) {\n  int t[4][8];\n  for (int i = 0; i < 4; i++)\n    for (int j = 0; j < 8; j++) t[i][j] = in[8 * i + j];\n}\n";
        assert_eq!(removed(nested), vec![Some("t".to_string()), Some("t".to_string())]);
    }

    #[test]
    fn a_read_an_escape_or_a_side_effect_keeps_the_loop() {
        let read =
            "int f(const int *in) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n  return t[3];\n}\n";
        let passed = "void g(int *);\nvoid f(const int *in) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n  g(t);\n}\n";
        let increment =
            "void f(const int *in) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n  t[0]++;\n}\n";
        let call =
            "int h(int);\nvoid f(const int *in) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] = h(in[i]);\n}\n";
        let side = "void f(const int *in, int *out) {\n  int t[64];\n  for (int i = 0; i < 64; i++) { t[i] = in[i]; out[i] = 1; }\n}\n";
        let global = "int t[64];\nvoid f(const int *in) {\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n}\n";
        let param = "void f(const int *in, int t[64]) {\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n}\n";
        let pointer = "void f(const int *in) {\n  int t[64];\n  int *p = t;\n  for (int i = 0; i < 64; i++) t[i] = in[i];\n  (void)p;\n}\n";
        let compound = "void f(const int *in) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] += in[i];\n}\n";
        let nested_store = "void f(const int *in, int *out) {\n  int t[64];\n  for (int i = 0; i < 64; i++) t[i] = (out[i] = in[i]);\n}\n";
        let bumps =
            "void f(const int *in) {\n  int t[64];\n  int k = 0;\n  for (int i = 0; i < 64; i++) t[i] = in[k++];\n}\n";
        for src in [read, passed, increment, call, side, global, param, pointer, compound, nested_store, bumps] {
            assert_eq!(removed(src), vec![None], "{src}");
        }
    }
}
