//! Straight-line segments of a function body that hold several calls: what `sim` needs to tell
//! which calls Vitis may start in one state (`sim::parcalls`).
//!
//! Vitis schedules a function body's operations on their data dependences: a call of a module is
//! one operation, and two calls neither of which needs what the other produces start in the same
//! state and run side by side (the public 2021.2 `Radix2wECC`'s `bf_inv` starts both of
//! `j = vec_degree(u) - vec_degree(v)`'s pipelines in one state, and both of `bf_add(u, u, h); h =
//! g << j; bf_add(z, z, h);`'s in another). Control flow (an `if`, a loop, a `return`) ends the
//! straight line: a segment is the statements of one block between two such statements.
//!
//! Each segment is a list of items in the order they run: a call (its index in the function's
//! `calls`, the variables each argument names), or a statement's own effect (the variables it
//! reads and writes, beside the calls inside it). A call's result is the variable `#<index>`.
//! Whether a call writes what it is passed depends on the callee's parameters, which `sim`
//! knows; here a call only records what it names.

use crate::parse::{field, kind, named_children};
use serde::{Deserialize, Serialize};
use tree_sitter::Node;

/// One straight-line segment with two calls or more.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Segment {
    pub items: Vec<SegItem>,
}

/// A call or a statement's own effect (see the module's text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegItem {
    /// The call's index in the function's `calls`; `None`: a statement's own reads and writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call: Option<usize>,
    /// A call: per argument, the variables it names (`#k` for the result of call `k` in it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<Vec<String>>,
    /// A statement: the variables it reads (calls' results as `#k`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reads: Vec<String>,
    /// A statement: the variables it assigns as a whole (a register Vitis renames).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub writes: Vec<String>,
    /// A statement: the arrays and pointers it stores into (`t[i] = ..`, `*p = ..`: a memory).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stores: Vec<String>,
}

/// The segments of `body` holding two calls or more. `call_at` maps a call expression's start
/// offset to its index in the function's calls (calls the walk did not record are left out).
pub(super) fn segments(body: Node, text: &str, call_at: &dyn Fn(usize) -> Option<usize>) -> Vec<Segment> {
    let mut out = Vec::new();
    visit(body, text, call_at, &mut out, 0);
    out
}

/// The parameters of `fdecl` declared with `qualifier` on their type (`const int *p`, `volatile
/// u8 b[8]`: what they point to or hold), not on a pointer itself (`int *const p`).
pub(super) fn qualified_params(fdecl: Node, text: &str, qualifier: &str) -> Vec<String> {
    let Some(list) = field(fdecl, "parameters") else { return Vec::new() };
    let mut out = Vec::new();
    for p in named_children(list) {
        let qualified =
            named_children(p).any(|c| kind(c) == "type_qualifier" && text[c.byte_range()].trim() == qualifier);
        if !qualified {
            continue;
        }
        let mut d = field(p, "declarator");
        for _ in 0..MAX_DEPTH {
            let Some(n) = d else { break };
            if kind(n) == "identifier" {
                out.push(text[n.byte_range()].to_string());
                break;
            }
            d = field(n, "declarator").or_else(|| n.named_child(0));
        }
    }
    out
}

const MAX_DEPTH: usize = 200;

fn visit(node: Node, text: &str, call_at: &dyn Fn(usize) -> Option<usize>, out: &mut Vec<Segment>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match kind(node) {
        "compound_statement" | "case_statement" => {
            let mut seg = Segment::default();
            for s in named_children(node) {
                if Some(s) == field(node, "value") {
                    continue;
                }
                if is_straight(s) {
                    statement(s, text, call_at, &mut seg);
                } else {
                    flush(&mut seg, out);
                    visit(s, text, call_at, out, depth + 1);
                }
            }
            flush(&mut seg, out);
        }
        "expression_statement" | "declaration" => {
            let mut seg = Segment::default();
            statement(node, text, call_at, &mut seg);
            flush(&mut seg, out);
        }
        "lambda_expression" => {}
        _ => {
            for c in named_children(node) {
                visit(c, text, call_at, out, depth + 1);
            }
        }
    }
}

/// A statement control does not leave or branch in: an expression or a declaration without a
/// lambda or a conditional expression (a `?:` or `&&` is a branch of its own).
fn is_straight(s: Node) -> bool {
    matches!(kind(s), "expression_statement" | "declaration" | "comment") && !has_branch(s, 0)
}

fn has_branch(n: Node, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return true;
    }
    match kind(n) {
        "lambda_expression" | "conditional_expression" | "statement_expression" => true,
        _ => named_children(n).any(|c| has_branch(c, depth + 1)),
    }
}

fn flush(seg: &mut Segment, out: &mut Vec<Segment>) {
    let seg = std::mem::take(seg);
    if seg.items.iter().filter(|i| i.call.is_some()).count() >= 2 {
        out.push(seg);
    }
}

/// The items of one straight statement: its calls innermost first, then its own effect.
fn statement(s: Node, text: &str, call_at: &dyn Fn(usize) -> Option<usize>, seg: &mut Segment) {
    if kind(s) == "comment" {
        return;
    }
    let mut calls = Vec::new();
    calls_in(s, text, call_at, seg, &mut calls, 0);
    let mut own = SegItem::default();
    effects(s, text, call_at, &mut own, 0);
    if !own.writes.is_empty() || !own.stores.is_empty() {
        own.reads.extend(calls.iter().map(|k| format!("#{k}")));
        own.reads.sort();
        own.reads.dedup();
        seg.items.push(own);
    }
}

/// Pushes an item per call under `n`, innermost first; `found` collects their indices.
fn calls_in(
    n: Node,
    text: &str,
    call_at: &dyn Fn(usize) -> Option<usize>,
    seg: &mut Segment,
    found: &mut Vec<usize>,
    depth: usize,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for c in named_children(n) {
        calls_in(c, text, call_at, seg, found, depth + 1);
    }
    if kind(n) != "call_expression" {
        return;
    }
    let Some(k) = field(n, "function").and_then(|f| call_at(f.start_byte())) else { return };
    let args = field(n, "arguments")
        .map(|a| {
            named_children(a)
                .filter(|c| kind(*c) != "comment")
                .map(|a| {
                    let mut vars = Vec::new();
                    names(a, text, call_at, &mut vars, 0);
                    vars
                })
                .collect()
        })
        .unwrap_or_default();
    seg.items.push(SegItem { call: Some(k), args, ..SegItem::default() });
    found.push(k);
}

/// The variables `n` names (a call inside it as `#k`, not its arguments: the call reads those).
fn names(n: Node, text: &str, call_at: &dyn Fn(usize) -> Option<usize>, out: &mut Vec<String>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match kind(n) {
        "identifier" => push(out, &text[n.byte_range()]),
        "call_expression" => {
            match field(n, "function").and_then(|f| call_at(f.start_byte())) {
                Some(k) => push(out, &format!("#{k}")),
                // A call the walk did not record (a method, a built-in): what it names.
                None => {
                    if let Some(a) = field(n, "arguments") {
                        names(a, text, call_at, out, depth + 1);
                    }
                    if let Some(f) = field(n, "function").filter(|f| kind(*f) == "field_expression") {
                        names(f, text, call_at, out, depth + 1);
                    }
                }
            }
        }
        "field_expression" => {
            if let Some(a) = field(n, "argument") {
                names(a, text, call_at, out, depth + 1);
            }
        }
        "qualified_identifier" | "field_identifier" | "type_identifier" | "sizeof_expression" => {}
        _ => {
            for c in named_children(n) {
                names(c, text, call_at, out, depth + 1);
            }
        }
    }
}

/// A statement's own reads and writes: assignments, increments and initialised declarators.
fn effects(n: Node, text: &str, call_at: &dyn Fn(usize) -> Option<usize>, own: &mut SegItem, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match kind(n) {
        "assignment_expression" => {
            if let Some(l) = field(n, "left") {
                let assigned = target(l, text, own);
                // `a += b` reads `a`; `t[i] = b` reads `i` (and `t`, a memory).
                let plain = field(n, "operator").is_some_and(|o| &text[o.byte_range()] == "=");
                let mut read = Vec::new();
                names(l, text, call_at, &mut read, depth + 1);
                read.retain(|x| !plain || Some(x) != assigned.as_ref() || !own.writes.contains(x));
                for x in read {
                    push(&mut own.reads, &x);
                }
            }
            if let Some(r) = field(n, "right") {
                effects(r, text, call_at, own, depth + 1);
                names(r, text, call_at, &mut own.reads, depth + 1);
            }
        }
        "update_expression" => {
            if let Some(a) = field(n, "argument") {
                target(a, text, own);
                names(a, text, call_at, &mut own.reads, depth + 1);
            }
        }
        "init_declarator" => {
            if let Some(d) = field(n, "declarator") {
                let mut v = Vec::new();
                names(d, text, call_at, &mut v, depth + 1);
                for x in v.into_iter().take(1) {
                    push(&mut own.writes, &x);
                }
            }
            if let Some(v) = field(n, "value") {
                effects(v, text, call_at, own, depth + 1);
                names(v, text, call_at, &mut own.reads, depth + 1);
            }
        }
        "call_expression" => {
            // Its own item: only what its arguments assign is the statement's.
            if let Some(a) = field(n, "arguments") {
                effects(a, text, call_at, own, depth + 1);
            }
        }
        _ => {
            for c in named_children(n) {
                effects(c, text, call_at, own, depth + 1);
            }
        }
    }
}

/// The variable an assignment's left side stores into: a whole variable (or a field of one) is a
/// register write, an element or a dereference a memory store.
fn target(l: Node, text: &str, own: &mut SegItem) -> Option<String> {
    let mut n = l;
    let mut memory = false;
    for _ in 0..MAX_DEPTH {
        match kind(n) {
            "identifier" => {
                let name = &text[n.byte_range()];
                if memory {
                    push(&mut own.stores, name);
                } else {
                    push(&mut own.writes, name);
                }
                return Some(name.to_string());
            }
            "subscript_expression" => {
                memory = true;
                match field(n, "argument") {
                    Some(a) => n = a,
                    None => return None,
                }
            }
            "pointer_expression" => {
                memory = true;
                match field(n, "argument") {
                    Some(a) => n = a,
                    None => return None,
                }
            }
            "field_expression" => {
                if field(n, "operator").is_some_and(|o| &text[o.byte_range()] == "->") {
                    memory = true;
                }
                match field(n, "argument") {
                    Some(a) => n = a,
                    None => return None,
                }
            }
            "parenthesized_expression" => match named_children(n).next() {
                Some(a) => n = a,
                None => return None,
            },
            _ => return None,
        }
    }
    None
}

fn push(out: &mut Vec<String>, name: &str) {
    if !out.iter().any(|x| x == name) {
        out.push(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(body: &str) -> Vec<Segment> {
        let src = format!("void t(int a, int b, int *p) {{\n{body}\n}}\n");
        let m = crate::model::build(&crate::parse::parse_cpp(&src, None), &src);
        m.functions[0].segments.clone()
    }

    fn call(k: usize, args: &[&[&str]]) -> SegItem {
        let args = args.iter().map(|a| a.iter().map(|s| s.to_string()).collect()).collect();
        SegItem { call: Some(k), args, ..SegItem::default() }
    }

    fn stmt(reads: &[&str], writes: &[&str], stores: &[&str]) -> SegItem {
        let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect();
        SegItem { call: None, args: Vec::new(), reads: v(reads), writes: v(writes), stores: v(stores) }
    }

    #[test]
    fn calls_and_statements_of_one_block_in_order() {
        let s = segs("  f(a, b);\n  a = b << 2;\n  g(a, b);");
        assert_eq!(
            s,
            vec![Segment {
                items: vec![call(0, &[&["a"], &["b"]]), stmt(&["b"], &["a"], &[]), call(1, &[&["a"], &["b"]])]
            }]
        );
    }

    #[test]
    fn a_result_is_read_by_the_statement_that_uses_it() {
        let s = segs("  int j = f(a) - f(b);");
        assert_eq!(
            s,
            vec![Segment { items: vec![call(0, &[&["a"]]), call(1, &[&["b"]]), stmt(&["#0", "#1"], &["j"], &[])] }]
        );
        let s = segs("  f(g(a), b);\n  h(b);");
        assert_eq!(s[0].items[..2], [call(1, &[&["a"]]), call(0, &[&["#1"], &["b"]])]);
    }

    #[test]
    fn const_and_volatile_on_a_parameters_type_not_on_a_pointer() {
        let src = "void t(const int *a, volatile const char b[8], int *const c, const int &d, int e) { f(a); g(b); }\n";
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        assert_eq!(m.functions[0].const_params, ["a", "b", "d"]);
        assert_eq!(m.functions[0].volatile_params, ["b"]);
    }

    #[test]
    fn control_flow_ends_a_segment_and_a_store_is_memory() {
        assert!(segs("  f(a);\n  if (a) b = 1;\n  g(b);").is_empty(), "one call on each side of the if");
        let s = segs("  if (a) { f(a); p[0] = a; g(p); }");
        assert_eq!(
            s,
            vec![Segment { items: vec![call(0, &[&["a"]]), stmt(&["a", "p"], &[], &["p"]), call(1, &[&["p"]])] }]
        );
        assert!(segs("  f(a);\n  b = a ? g(a) : 0;").is_empty(), "a ?: branches");
    }
}
