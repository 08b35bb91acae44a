//! The multi-cycle operations on a loop body's longest dependence chain, for the cycle model
//! without a report (`sim::timing`): float/double add, sub, mul, div, sqrt and integer div/mod
//! take several cycles in Vitis, where the default iteration latency and pipeline depth assume
//! single-cycle logic.
//!
//! The chain is approximate, from the source alone: each assignment or initialised declaration
//! of the body (not of nested loops) is a step; its operations are those on the deepest path of
//! its expression tree (weighted as if float; subscripts are memory reads, their index
//! arithmetic is not counted); a step depends on the earlier steps that assigned
//! a variable it reads. A step's type is the declared type of the variable it assigns (a local,
//! a parameter, the array or struct it stores into), resolved to float/double/integer later with
//! the typedefs of the sources and headers ([`resolve_type`]).

use super::pragma::ChainStep;
use crate::parse::{field, kind, named_children};
use std::collections::HashMap;
use tree_sitter::Node;

/// Steps kept per loop; a longer body keeps its first ones.
const MAX_STEPS: usize = 256;
/// Expressions nested deeper than this are not looked into (their ops are not counted).
const MAX_EXPR_DEPTH: usize = 200;

/// Typical latencies at a 10 ns clock (hlsinstr's choice, see docs/cycle-model.md: Vitis
/// documents no default, it depends on device and clock). `ty` is `float`, `double` or `int`.
pub fn op_latency(op: &str, ty: &str) -> u64 {
    match (ty, op) {
        ("float", "add" | "sub") => 4,
        ("float", "mul") => 3,
        ("float", "div" | "divc" | "sqrt") => 15,
        ("double", "add" | "sub") => 5,
        ("double", "mul") => 6,
        ("double", "div" | "divc" | "sqrt") => 30,
        // A divisor that is a literal is a shift or a multiply: no divider.
        ("int", "div") => 35,
        _ => 0,
    }
}

/// The chain steps of a loop body: see the module comment.
pub(super) fn chain_steps(body: Node, function_body: Node, params: &[super::Param], text: &str) -> Vec<ChainStep> {
    let mut types: HashMap<String, String> = params.iter().map(|p| (p.name.clone(), base_type(&p.type_text))).collect();
    collect_declared(function_body, text, &mut types);
    let mut steps = Vec::new();
    let mut last_def: HashMap<String, usize> = HashMap::new();
    let mut todo = vec![body];
    let mut order = Vec::new();
    // Statements in source order, not entering nested loops, lambdas or classes.
    while let Some(n) = todo.pop() {
        match kind(n) {
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" if n.id() != body.id() => continue,
            "lambda_expression" | "class_specifier" | "struct_specifier" => continue,
            "expression_statement" | "declaration" => order.push(n),
            _ => {}
        }
        let kids: Vec<Node> = named_children(n).collect();
        todo.extend(kids.into_iter().rev());
    }
    order.sort_by_key(|n| n.start_byte());
    for stmt in order {
        if steps.len() >= MAX_STEPS {
            break;
        }
        for (target, ops, reads) in assignments(stmt, text) {
            let Some(ty) = types.get(&target).cloned() else { continue };
            let deps: Vec<usize> = reads.iter().filter_map(|r| last_def.get(r).copied()).collect();
            if ops.is_empty() && deps.is_empty() {
                continue;
            }
            last_def.insert(target, steps.len());
            steps.push(ChainStep { ty, ops, deps });
        }
    }
    drop_free_steps(steps)
}

/// Without the steps that cannot cost a cycle: of a built-in integer type, no division, and no
/// kept step before them (so the manifest only holds chains that may matter).
fn drop_free_steps(steps: Vec<ChainStep>) -> Vec<ChainStep> {
    let mut index: Vec<Option<usize>> = Vec::with_capacity(steps.len());
    let mut kept = Vec::new();
    for s in steps {
        let deps: Vec<usize> = s.deps.iter().filter_map(|&d| index.get(d).copied().flatten()).collect();
        let free = builtin_integer(&s.ty) && !s.ops.iter().any(|o| o == "div") && deps.is_empty();
        if free {
            index.push(None);
            continue;
        }
        index.push(Some(kept.len()));
        kept.push(ChainStep { deps, ..s });
    }
    kept
}

/// Integer types whose name says so, without looking at typedefs.
fn builtin_integer(ty: &str) -> bool {
    let base = ty.split('<').next().unwrap_or(ty);
    matches!(
        base,
        "" | "int" | "long" | "short" | "char" | "bool" | "size_t" | "ap_int" | "ap_uint" | "ap_fixed" | "ap_ufixed"
    ) || (base.starts_with("int") || base.starts_with("uint")) && base.ends_with("_t")
}

/// `(target, ops on the deepest path, names read)` of each assignment in a statement.
fn assignments(stmt: Node, text: &str) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    if kind(stmt) == "declaration" {
        for d in stmt.children_by_field_name("declarator", &mut stmt.walk()) {
            if kind(d) != "init_declarator" {
                continue;
            }
            let (Some(name), Some(value)) = (super::body::innermost_identifier(d, text), field(d, "value")) else {
                continue;
            };
            out.push((name, deepest(value, text, 0), reads(value, text)));
        }
        return out;
    }
    let Some(e) = stmt.named_child(0) else { return out };
    if kind(e) != "assignment_expression" {
        return out;
    }
    let (Some(left), Some(right)) = (field(e, "left"), field(e, "right")) else { return out };
    let Some(target) = base_name(left, text) else { return out };
    let mut ops = deepest(right, text, 0);
    let op = e.child_by_field_name("operator").map(|o| text[o.byte_range()].to_string()).unwrap_or_default();
    let mut read = reads(right, text);
    if let Some(o) = binary_op(op.trim_end_matches('='), right) {
        ops.push(o);
        read.push(target.clone());
    }
    out.push((target, ops, read));
    out
}

/// The variable an lvalue names: `x`, `a[i]`, `s.f`, `p->f`, `*p`.
fn base_name(mut n: Node, text: &str) -> Option<String> {
    loop {
        match kind(n) {
            "identifier" => return Some(text[n.byte_range()].to_string()),
            "subscript_expression" => n = field(n, "argument")?,
            "field_expression" => n = field(n, "argument")?,
            "pointer_expression" | "parenthesized_expression" => {
                n = n.named_child(n.named_child_count().checked_sub(1)?)?
            }
            _ => return None,
        }
    }
}

/// The op a binary operator is, given its right operand; none for single-cycle logic.
fn binary_op(op: &str, right: Node) -> Option<String> {
    let literal = kind(right) == "number_literal";
    match op {
        "+" => Some("add"),
        "-" => Some("sub"),
        "*" => Some("mul"),
        "/" | "%" if literal => Some("divc"),
        "/" | "%" => Some("div"),
        _ => None,
    }
    .map(str::to_string)
}

/// The ops on the deepest path of an expression, weighted as float ops.
fn deepest(n: Node, text: &str, depth: usize) -> Vec<String> {
    if depth > MAX_EXPR_DEPTH {
        return Vec::new();
    }
    let weight = |ops: &[String]| ops.iter().map(|o| op_latency(o, "float")).sum::<u64>();
    let mut own = None;
    match kind(n) {
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text[o.byte_range()].to_string()).unwrap_or_default();
            if let Some(r) = field(n, "right") {
                own = binary_op(&op, r);
            }
        }
        "call_expression" => {
            let f = field(n, "function").map(|f| text[f.byte_range()].to_string()).unwrap_or_default();
            let name = f.rsplit("::").next().unwrap_or("");
            if matches!(name, "sqrt" | "sqrtf" | "hsqrt") {
                own = Some("sqrt".to_string());
            }
        }
        // A memory read (its subscript is address arithmetic, not the value's type), a field.
        "lambda_expression" | "subscript_expression" | "field_expression" => return Vec::new(),
        _ => {}
    }
    let mut best: Vec<String> = Vec::new();
    for c in named_children(n) {
        let p = deepest(c, text, depth + 1);
        if weight(&p) > weight(&best) || (best.is_empty() && !p.is_empty()) {
            best = p;
        }
    }
    best.extend(own);
    best
}

/// The identifiers an expression reads.
fn reads(n: Node, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![n];
    while let Some(n) = todo.pop() {
        if kind(n) == "identifier" {
            out.push(text[n.byte_range()].to_string());
        }
        todo.extend(named_children(n));
    }
    out
}

/// The declared types of the locals of a function body, by name (its last declaration wins).
fn collect_declared(body: Node, text: &str, types: &mut HashMap<String, String>) {
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if kind(n) == "declaration" {
            if let Some(t) = field(n, "type") {
                let ty = base_type(&text[t.byte_range()]);
                for d in n.children_by_field_name("declarator", &mut n.walk()) {
                    if let Some(name) = super::body::innermost_identifier(d, text) {
                        types.insert(name, ty.clone());
                    }
                }
            }
        }
        if !matches!(kind(n), "lambda_expression" | "class_specifier" | "struct_specifier") {
            todo.extend(named_children(n));
        }
    }
}

/// A type's name without qualifiers, pointers, namespaces or template arguments:
/// `const float *` → `float`, `ap_uint<16>` → `ap_uint`.
fn base_type(t: &str) -> String {
    let t = t.split('<').next().unwrap_or(t);
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == '*' || c == '&')
        .filter(|w| !w.is_empty() && !matches!(*w, "const" | "volatile" | "static" | "unsigned" | "signed"))
        .collect();
    let last = words.last().copied().unwrap_or("");
    last.rsplit("::").next().unwrap_or(last).to_string()
}

/// The `typedef T name;` and `using name = T;` of some texts (sources and headers), read in one
/// pass: name → the base type it aliases, the first definition winning.
pub struct Aliases(std::collections::HashMap<String, String>);

impl Aliases {
    pub fn scan(texts: &[&str]) -> Aliases {
        let mut map = std::collections::HashMap::new();
        for line in texts.iter().flat_map(|t| t.lines()).map(str::trim) {
            let line = line.trim_end_matches(';').trim();
            let (name, aliased) = if let Some(rest) = line.strip_prefix("typedef ") {
                let mut words: Vec<&str> = rest.split_whitespace().collect();
                match words.pop() {
                    Some(name) if !words.is_empty() => (name, words.join(" ")),
                    _ => continue,
                }
            } else if let Some((lhs, rhs)) = line.strip_prefix("using ").and_then(|r| r.split_once('=')) {
                (lhs.trim(), rhs.trim().to_string())
            } else {
                continue;
            };
            map.entry(name.to_string()).or_insert_with(|| base_type(&aliased));
        }
        Aliases(map)
    }

    /// `float`, `double` or `int` for a type name, following the aliases (at most 8 deep).
    pub fn resolve(&self, name: &str) -> &'static str {
        let mut name = name;
        for _ in 0..8 {
            match name {
                "float" | "half" => return "float",
                "double" => return "double",
                _ => {}
            }
            let Some(next) = self.0.get(name) else { return "int" };
            name = next;
        }
        "int"
    }
}

/// Cycles of the longest chain of `steps` once their types are resolved (`ty` is `float`,
/// `double` or `int`).
pub fn chain_cycles(steps: &[ChainStep]) -> u64 {
    let mut cost: Vec<u64> = Vec::with_capacity(steps.len());
    for s in steps {
        let own: u64 = s.ops.iter().map(|o| op_latency(o, &s.ty)).sum();
        let before = s.deps.iter().filter_map(|&d| cost.get(d)).max().copied().unwrap_or(0);
        cost.push(own + before);
    }
    cost.into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typedefs_resolve_through_chains() {
        let h = "typedef float coord;\ntypedef coord rate;\nusing big = double;";
        let a = Aliases::scan(&[h]);
        assert_eq!(a.resolve("rate"), "float");
        assert_eq!(a.resolve("big"), "double");
        assert_eq!(a.resolve("ap_uint"), "int");
    }

    /// The steps as the model finds them in a body: the deepest path of each expression, the
    /// dependences through assigned variables, subscripts as memory reads, nested loops apart.
    #[test]
    fn steps_of_a_body() {
        let src = "typedef float T;\nvoid k(T *a, double *d, int *q, int n) {\n  for (int i = 0; i < n; i++) {\n    \
                   T x = a[i * 4 + 1] * a[i];\n    T y = (x + a[i]) + a[i] * a[i] * a[i];\n    int m = i * 3 + n;\n    q[i] = q[i] / m + i % 8;\n    \
                   for (int j = 0; j < n; j++) { d[j] = d[j] / 3.0; }\n    a[i] = sqrtf(y);\n  }\n}\n";
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        let f = &m.functions[0];
        let steps = &f.loops[0].details.as_ref().unwrap().facts.chain;
        let got: Vec<(String, Vec<String>, Vec<usize>)> =
            steps.iter().map(|s| (s.ty.clone(), s.ops.clone(), s.deps.clone())).collect();
        let v = |ops: &[&str]| ops.iter().map(|o| o.to_string()).collect::<Vec<_>>();
        assert_eq!(
            got,
            vec![
                ("T".into(), v(&["mul"]), vec![]),
                // (x + a) is 4 deep, a*a*a 6: the two multiplies, then the outer add.
                ("T".into(), v(&["mul", "mul", "add"]), vec![0]),
                ("int".into(), v(&["div", "add"]), vec![]),
                ("T".into(), v(&["sqrt"]), vec![1]),
            ]
        );
        // `int m = i * 3 + n` cannot cost a cycle: not kept.
        // Resolved: x 3, y 3 + 10, sqrt 15: 28; the integer division (35) is longer.
        let aliases = Aliases::scan(&[src]);
        let resolved: Vec<ChainStep> =
            steps.iter().map(|s| ChainStep { ty: aliases.resolve(&s.ty).into(), ..s.clone() }).collect();
        assert_eq!(chain_cycles(&resolved), 35);
        assert_eq!(chain_cycles(&resolved[..2]), 13);
        assert_eq!(chain_cycles(&[resolved[0].clone(), resolved[1].clone(), resolved[3].clone()]), 28);
    }

    #[test]
    fn chain_follows_dependences() {
        let s = |ty: &str, ops: &[&str], deps: &[usize]| ChainStep {
            ty: ty.into(),
            ops: ops.iter().map(|o| o.to_string()).collect(),
            deps: deps.to_vec(),
        };
        // t = a * b (3); u = t + c (4): 7; v = x / y as int (35), independent.
        let steps = [s("float", &["mul"], &[]), s("float", &["add"], &[0]), s("int", &["divc"], &[])];
        assert_eq!(chain_cycles(&steps), 7);
        let steps = [s("float", &["mul"], &[]), s("int", &["div"], &[])];
        assert_eq!(chain_cycles(&steps), 35);
    }
}
