//! Loop-carried recurrences through multi-cycle operations, for the II of a pipelined loop
//! without a report (`sim::timing`): in `sum += a[i] * b[i]` on floats the next iteration's add
//! needs this one's sum, so a new iteration can start only once the add is done (the public
//! 2022.1 `spmv_accel`: `sum += v * x[col]` with the row's reset, II 6 at a 4-cycle fadd,
//! where the pragma asks for 1). The multiply is not on the cycle: it only feeds it.
//!
//! From the source alone, like [`super::opchain`]: the body's assignments in source order (not
//! entering nested loops); a variable is carried when a statement reads it before any
//! assignment of this iteration that is not under a condition has written it, and the body
//! assigns it. Following each such variable from its value at the start of the iteration to
//! the value the iteration leaves in it gives the ops on the cycle: on each assignment, the
//! heaviest path from an operand that depends on it to the result (a compound `+=` adds its
//! op); an assignment under a condition keeps the old value as the other input of a select.

use super::fnbody::array_of;
use super::opchain::{self, Cx};
use super::pragma::ChainStep;
use crate::parse::{field, kind, named_children};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

/// Expressions nested deeper than this are not looked into.
const MAX_DEPTH: usize = 200;
/// Statements of a body looked at; a longer body keeps its first ones.
const MAX_STATEMENTS: usize = 512;

/// An assignment of the body: what it writes, the expression and (for `x op= e`) the op, and
/// whether it happens only under a condition.
struct Assign<'t> {
    target: String,
    value: Node<'t>,
    compound: Option<String>,
    conditional: bool,
}

/// The recurrences of a loop body: per carried variable, the ops on its heaviest cycle, typed
/// by the variable's declared type (resolved with the typedefs later, as chain steps are).
/// Only cycles with an operation on them are kept: a select or logic alone costs no cycle here.
pub(super) fn recurrences(body: Node, decls: &super::decls::Decls, induction: &[String]) -> Vec<ChainStep> {
    let cx = Cx { text: decls.text, memories: decls.memories(), types: decls.types() };
    let assigns = assignments(body, &cx);
    let targets: HashSet<&str> = assigns.iter().map(|a| a.target.as_str()).collect();
    // Carried: read before this iteration has surely written it.
    let mut written: HashSet<&str> = HashSet::new();
    let mut carried: Vec<&str> = Vec::new();
    for a in &assigns {
        let mut reads = opchain::reads(a.value, cx.text);
        if a.compound.is_some() {
            reads.push(a.target.clone());
        }
        for r in reads {
            if let Some(&t) = targets.get(r.as_str()) {
                if !written.contains(t) && !carried.contains(&t) && !cx.memories.contains(t) {
                    carried.push(t);
                }
            }
        }
        if !a.conditional {
            written.insert(a.target.as_str());
        }
    }
    let mut out = memory_recurrences(body, &cx, &targets, induction, decls);
    for v in carried {
        // The ops from `v`'s value at the start of the iteration to each variable's value now.
        let mut dist: HashMap<&str, Vec<String>> = HashMap::from([(v, Vec::new())]);
        for a in &assigns {
            let mut best: Option<Vec<String>> = None;
            for (name, before) in &dist {
                let Some(mut path) = path_from(a.value, name, &cx, 0) else { continue };
                let mut ops = before.clone();
                ops.append(&mut path);
                if weight(&ops) > best.as_ref().map_or(0, |b| weight(b)) || best.is_none() {
                    best = Some(ops);
                }
            }
            if let Some(op) = &a.compound {
                if let Some(before) = dist.get(a.target.as_str()) {
                    let mut ops = before.clone();
                    ops.push(op.clone());
                    if best.as_ref().is_none_or(|b| weight(&ops) >= weight(b)) {
                        best = Some(ops);
                    } else if let Some(b) = best.as_mut() {
                        b.push(op.clone());
                    }
                } else if let Some(b) = best.as_mut() {
                    b.push(op.clone());
                }
            }
            let target = a.target.as_str();
            match (best, a.conditional) {
                (Some(mut ops), true) => {
                    // Under a condition: a select between the new value and the old one.
                    ops.push("select".to_string());
                    let old = dist.get(target).cloned();
                    let keep = old.filter(|o| weight(o) > weight(&ops));
                    dist.insert(target, keep.unwrap_or(ops));
                }
                (Some(ops), false) => {
                    dist.insert(target, ops);
                }
                (None, true) => {
                    // A value that does not depend on `v` (a reset) selected against the old.
                    if let Some(old) = dist.get_mut(target) {
                        old.push("select".to_string());
                    }
                }
                (None, false) => {
                    dist.remove(target);
                }
            }
        }
        let Some(mut ops) = dist.remove(v) else { continue };
        let ty = cx.types.get(v).cloned().unwrap_or_default();
        if opchain::wide_integer(&ty) {
            ops.iter_mut().filter(|o| *o == "mul").for_each(|o| *o = "mulw".to_string());
        }
        // A variable of a built-in integer type costs a cycle on its cycle only through an
        // operation that takes one; a typedef may name a float (resolved later with the headers).
        let integer = opchain::builtin_integer(&ty);
        if ops.iter().any(|o| o != "select") && (!integer || ops.iter().any(|o| takes_a_cycle(o))) {
            out.push(ChainStep { ty, ops, deps: Vec::new() });
        }
    }
    out
}

/// Recurrences through an array element (`hist[in[i]] += w`, `h[v]++`): a store to an element
/// whose index the iteration computes from data (a memory read, or a variable the body
/// assigns) may hit the element the next iteration reads, so Vitis orders them: the next read
/// waits for this store (UG1399's histogram: read and write "in alternating cycles, resulting
/// in a loop II of 2"; a public 2023.2 report: `hist[f[i]] += w[i]` on doubles II 8, the read's
/// 2 states, the dadd's 5 and the store's). An index of the induction variables alone touches
/// another element each iteration; an index that names none of them the same element, which
/// Vitis keeps in a register (a scalar's recurrence, no read or store); `#pragma HLS DEPENDENCE ... inter false` on the array says
/// there is no such dependence. The ops: `load`, those from the loaded value to the stored
/// one, `store`.
fn memory_recurrences(
    body: Node,
    cx: &Cx,
    targets: &HashSet<&str>,
    induction: &[String],
    decls: &super::decls::Decls,
) -> Vec<ChainStep> {
    let text = cx.text;
    let independent = no_inter_dependence(&text[decls.body.byte_range()]);
    let mut out = Vec::new();
    let mut todo = vec![body];
    let mut seen = 0;
    while let Some(n) = todo.pop() {
        seen += 1;
        if seen > MAX_STATEMENTS * 16 {
            break;
        }
        if outside(n, body) {
            continue;
        }
        let (element, value, compound) = match kind(n) {
            "assignment_expression" => {
                let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) else { continue };
                (l, Some(r), compound_op(n, l, r, cx))
            }
            // `h[v]++`: read, add one, write.
            "update_expression" => match field(n, "argument") {
                Some(a) => (a, None, Some(Some("add".to_string()))),
                None => continue,
            },
            _ => {
                todo.extend(named_children(n));
                continue;
            }
        };
        todo.extend(named_children(n));
        if kind(element) != "subscript_expression" || !opchain::is_memory_read(element, cx) {
            continue;
        }
        let Some(array) = array_of(element, text) else { continue };
        if independent.iter().any(|a| a.is_empty() || *a == array) {
            continue;
        }
        let indices = indices_of(element);
        let data_dependent = indices.iter().any(|&i| from_data(i, cx, targets));
        // An index that names none of the loop's counters is the same element every iteration:
        // Vitis keeps it in a register across them, a recurrence as a scalar's (the public
        // 2022.1 `dft`'s `real_output[k] += temp[n] * cos[index]` in its `n` loop: II 5).
        let invariant =
            !data_dependent && !indices.iter().any(|&i| opchain::reads(i, text).iter().any(|r| induction.contains(r)));
        if !data_dependent && !invariant {
            continue;
        }
        let mut ops = match (compound, value) {
            // `h[k] op= e`: the element's value, then the op.
            (Some(op), _) => vec!["load".to_string()].into_iter().chain(op).collect(),
            // `h[k] = f(h[j])`: from the read of the array to the result.
            (None, Some(v)) => match path_from(v, &array, cx, 0) {
                Some(p) if p.first().is_some_and(|o| o == "load") => p,
                _ => continue,
            },
            (None, None) => continue,
        };
        let ty = cx.types.get(&array).cloned().unwrap_or_default();
        if invariant {
            // In a register: no read, no store; integer logic alone costs nothing.
            ops.retain(|o| o != "load");
            if ops.is_empty() || opchain::builtin_integer(&ty) && !ops.iter().any(|o| takes_a_cycle(o)) {
                continue;
            }
        } else {
            ops.push("store".to_string());
        }
        out.push(ChainStep { ty, ops, deps: Vec::new() });
    }
    out
}

/// The arrays a `DEPENDENCE` pragma of the function declares free of dependences across
/// iterations (`variable=h inter false`, `type=inter dependent=false`); "" for one naming no
/// variable (`class=array`): every array.
fn no_inter_dependence(function_text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in function_text.lines() {
        let l = line.to_ascii_lowercase();
        if !(l.contains("pragma") && l.contains("dependence") && l.contains("false")) {
            continue;
        }
        if l.contains("intra") && !l.contains("inter") {
            continue;
        }
        let compact: String = line.split_whitespace().collect::<Vec<_>>().join(" ").replace(" = ", "=");
        let var = compact.split_whitespace().find_map(|w| w.strip_prefix("variable=")).map(str::to_string);
        out.push(var.unwrap_or_default());
    }
    out
}

/// The index expressions of an element, outermost subscript first.
fn indices_of(mut n: Node) -> Vec<Node> {
    let mut out = Vec::new();
    while kind(n) == "subscript_expression" {
        out.extend(crate::parse::subscript_index(n));
        let Some(a) = field(n, "argument") else { break };
        n = a;
    }
    out
}

/// Whether an index is computed from data: it reads memory, calls something, or reads a
/// variable the body assigns (the induction variables are assigned by the loop's header).
fn from_data(index: Node, cx: &Cx, targets: &HashSet<&str>) -> bool {
    let mut todo = vec![index];
    while let Some(n) = todo.pop() {
        match kind(n) {
            "subscript_expression" | "field_expression" if opchain::is_memory_read(n, cx) => return true,
            "call_expression" => return true,
            "identifier" if targets.contains(&cx.text[n.byte_range()]) => return true,
            _ => todo.extend(named_children(n)),
        }
    }
    false
}

/// The II a pipeline's recurrences allow (0: none costs a cycle). A new iteration's first op
/// on a cycle waits for the last op of the previous iteration's: each operation of latency L
/// takes L + 1 states on the cycle (its result is used in the state after its last stage), and
/// a select in front of one (a reset of the accumulator) one more; a select after the last
/// (`if (c) s += v`) is folded into the register's write; through an array element the read
/// takes its 2 states and the store of a computed value one more ([`memory_recurrences`]). Measured on public Vitis 2023.2
/// reports at 5 ns (fadd and dadd of latency 4): `s += a[i]` II 5; `if (d >= 0) s += g(d)` 5;
/// an accumulator reset at each row, then `t += a * x`, 6; and Vitis 2022.1 at 10 ns (the
/// held-out `spmv_accel`, reset then fadd): 6. `wide_multiply` is the latency of a 32-bit or
/// wider integer multiply at the design's clock (`sim::timing::wide_multiply_cycles`).
pub fn recurrence_ii(recurrences: &[ChainStep], wide_multiply: u64) -> u64 {
    let latency =
        |o: &str, ty: &str| if o == "mulw" && ty == "int" { wide_multiply } else { opchain::op_latency(o, ty) };
    let mut most = 0;
    for r in recurrences {
        let mut states = 0;
        let mut select = false;
        let mut computed = false;
        for o in &r.ops {
            if o == "select" {
                select = true;
                continue;
            }
            // The store of a computed value takes a state after it; of the loaded value plus
            // logic, the read's data state.
            if o == "store" {
                states += u64::from(computed);
                continue;
            }
            let l = latency(o, &r.ty);
            computed |= o != "load" && l > 0;
            if l > 0 {
                states += l + 1 + u64::from(select);
                select = false;
            }
        }
        most = most.max(states);
    }
    most
}

/// An operation on an integer's cycle that takes a cycle whatever the type names: a divider, a
/// wide multiply, a square root, a memory read, or one typed floating by its operands.
fn takes_a_cycle(o: &str) -> bool {
    let base = o.split(['@', '=']).next().unwrap_or(o);
    matches!(base, "div" | "mulw" | "sqrt" | "load") || o.contains("@float") || o.contains("@double")
}

fn weight(ops: &[String]) -> u64 {
    ops.iter().map(|o| opchain::path_weight(o)).sum()
}

/// Whether `n` is a nested loop, a lambda or a class of `body`: what an iteration's own walk
/// does not enter (a nested loop's accesses happen in its own iterations).
fn outside(n: Node, body: Node) -> bool {
    match kind(n) {
        "for_statement" | "while_statement" | "do_statement" | "for_range_loop" => n.id() != body.id(),
        "lambda_expression" | "class_specifier" | "struct_specifier" => true,
        _ => false,
    }
}

/// The body's assignments in source order, not entering nested loops, lambdas or classes.
fn assignments<'t>(body: Node<'t>, cx: &Cx) -> Vec<Assign<'t>> {
    let mut out = Vec::new();
    // (node, under a condition)
    let mut todo = vec![(body, false)];
    let mut seen = 0;
    while let Some((n, conditional)) = todo.pop() {
        seen += 1;
        if seen > MAX_STATEMENTS * 16 {
            break;
        }
        if outside(n, body) {
            continue;
        }
        match kind(n) {
            "declaration" => {
                for d in n.children_by_field_name("declarator", &mut n.walk()) {
                    if kind(d) != "init_declarator" {
                        continue;
                    }
                    let (Some(name), Some(value)) = (super::body::innermost_identifier(d, cx.text), field(d, "value"))
                    else {
                        continue;
                    };
                    out.push(Assign { target: name, value, compound: None, conditional });
                }
                continue;
            }
            "expression_statement" => {
                if let Some(e) = n.named_child(0).filter(|e| kind(*e) == "assignment_expression") {
                    if let Some(a) = assignment(e, cx, conditional) {
                        out.push(a);
                    }
                    continue;
                }
            }
            _ => {}
        }
        // What sits under an `if` or a `switch` happens only on some iterations (a `?:` is a
        // select of its expression: `path_from`).
        let cond = conditional || matches!(kind(n), "if_statement" | "switch_statement" | "case_statement");
        let kids: Vec<Node> = named_children(n).collect();
        for k in kids.into_iter().rev() {
            // An `if`'s condition runs every time; its branches do not.
            let branch =
                cond && !(kind(n) == "if_statement" && field(n, "condition").is_some_and(|c| c.id() == k.id()));
            todo.push((k, conditional || branch));
        }
    }
    out.sort_by_key(|a| a.value.start_byte());
    out.truncate(MAX_STATEMENTS);
    out
}

fn assignment<'t>(e: Node<'t>, cx: &Cx, conditional: bool) -> Option<Assign<'t>> {
    let (left, right) = (field(e, "left")?, field(e, "right")?);
    // Scalars only: an element of an array carried through memory is another recurrence.
    if kind(left) != "identifier" {
        return None;
    }
    let target = cx.text[left.byte_range()].to_string();
    let compound = compound_op(e, left, right, cx).flatten();
    Some(Assign { target, value: right, compound, conditional })
}

/// For `x op= e`, `Some` of the operation it adds (`None` inside for one that costs nothing,
/// `|=`); `None` for a plain `=`.
fn compound_op(e: Node, left: Node, right: Node, cx: &Cx) -> Option<Option<String>> {
    let op = e.child_by_field_name("operator").map_or("", |o| &cx.text[o.byte_range()]);
    (op != "=").then(|| opchain::binary_op(op.trim_end_matches('='), left, right, cx))
}

/// The ops on the heaviest path from an occurrence of `name` in `n` to its result; `None` when
/// `n` does not read `name`.
fn path_from(n: Node, name: &str, cx: &Cx, depth: usize) -> Option<Vec<String>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let text = cx.text;
    match kind(n) {
        "identifier" => return (&text[n.byte_range()] == name).then(Vec::new),
        "lambda_expression" => return None,
        _ => {}
    }
    let mut best: Option<Vec<String>> = None;
    for c in named_children(n) {
        if let Some(p) = path_from(c, name, cx, depth + 1) {
            if best.as_ref().is_none_or(|b| weight(&p) > weight(b)) {
                best = Some(p);
            }
        }
    }
    let mut path = best?;
    match kind(n) {
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text[o.byte_range()].to_string()).unwrap_or_default();
            if let (Some(l), Some(r)) = (field(n, "left"), field(n, "right")) {
                path.extend(opchain::binary_op(&op, l, r, cx));
            }
        }
        "conditional_expression" => path.push("select".to_string()),
        // An address that depends on it: the read waits for it.
        "subscript_expression" | "field_expression" if opchain::is_memory_read(n, cx) => path.push("load".to_string()),
        "call_expression" => {
            let f = field(n, "function").map(|f| text[f.byte_range()].to_string()).unwrap_or_default();
            if matches!(f.rsplit("::").next(), Some("sqrt" | "sqrtf" | "hsqrt")) {
                path.push("sqrt".to_string());
            }
        }
        _ => {}
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use crate::parse::parse_cpp;

    /// The recurrences of the first loop of `src`, as (type, ops).
    fn recurrences_of(src: &str) -> Vec<(String, Vec<String>)> {
        let tree = parse_cpp(src, None);
        let model = crate::model::build(&tree, src);
        let facts = &model.functions[0].loops[0].details.as_ref().unwrap().facts;
        facts.recurrence.iter().map(|s| (s.ty.clone(), s.ops.clone())).collect()
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn an_accumulation_carries_its_add_and_not_the_multiply_that_feeds_it() {
        let r = recurrences_of(
            "float f(float a[8], float b[8]) { float sum = 0;\n for (int i = 0; i < 8; i++) { sum += a[i] * b[i]; }\n return sum; }",
        );
        assert_eq!(r, vec![("float".to_string(), strings(&["add@float"]))]);
    }

    #[test]
    fn a_reset_under_a_condition_adds_a_select_and_a_value_made_afresh_carries_nothing() {
        let reset = recurrences_of(
            "float f(float v[8], int s[8]) { float sum = 0;\n for (int i = 0; i < 8; i++) { if (s[i]) { sum = 0; }\n sum += v[i]; }\n return sum; }",
        );
        assert_eq!(reset, vec![("float".to_string(), strings(&["select", "add@float"]))]);
        let fresh = recurrences_of(
            "float f(float v[8], float o[8]) { float sum;\n for (int i = 0; i < 8; i++) { sum = 0; sum += v[i]; o[i] = sum; }\n return sum; }",
        );
        assert!(fresh.is_empty(), "{fresh:?}");
    }

    #[test]
    fn a_recurrence_through_a_temporary_carries_each_op_through_memory_too_and_integer_logic_none() {
        let through = recurrences_of(
            "double f(double c[8]) { double x = 1;\n for (int i = 0; i < 8; i++) { double t = x * 0.5; x = t + c[i]; }\n return x; }",
        );
        assert_eq!(through.len(), 1, "{through:?}");
        assert_eq!(through[0].1.len(), 2, "{through:?}");
        let logic =
            recurrences_of("int f(int a[8]) { int s = 0;\n for (int i = 0; i < 8; i++) { s += a[i]; }\n return s; }");
        assert!(logic.is_empty(), "{logic:?}");
        let histogram = recurrences_of(
            "void f(int in[64], int hist[16]) {\n for (int i = 0; i < 64; i++) { int v = in[i]; hist[v]++; }\n}",
        );
        assert_eq!(histogram, vec![("int".to_string(), strings(&["load", "add", "store"]))]);
        let weighted = recurrences_of(
            "void f(int in[64], double w[64], double hist[16]) {\n for (int i = 0; i < 64; i++) { hist[in[i]] += w[i]; }\n}",
        );
        assert_eq!(weighted, vec![("double".to_string(), strings(&["load", "add@double", "store"]))]);
        // Each iteration its own element, or the pragma says no dependence: none.
        let own = recurrences_of("void f(float a[64]) {\n for (int i = 0; i < 64; i++) { a[i] += 1.0f; }\n}");
        assert!(own.is_empty(), "{own:?}");
        // The same element every iteration: kept in a register, the add alone.
        let same = recurrences_of(
            "void f(float x[64], float y[4], int k) {\n for (int n = 0; n < 64; n++) { y[k] += x[n]; }\n}",
        );
        assert_eq!(same, vec![("float".to_string(), strings(&["add@float"]))]);
        let same_int =
            recurrences_of("void f(int x[64], int y[4], int k) {\n for (int n = 0; n < 64; n++) { y[k] += x[n]; }\n}");
        assert!(same_int.is_empty(), "{same_int:?}");
        let free = recurrences_of(
            "void f(int in[64], int hist[16]) {\n#pragma HLS DEPENDENCE variable=hist inter false\n for (int i = 0; i < 64; i++) { hist[in[i]]++; }\n}",
        );
        assert!(free.is_empty(), "{free:?}");
        let divide = recurrences_of(
            "int f(int a[8]) { int s = 1;\n for (int i = 0; i < 8; i++) { s = a[i] / s; }\n return s; }",
        );
        assert_eq!(divide, vec![("int".to_string(), strings(&["div"]))]);
    }
}
