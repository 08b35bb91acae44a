//! The calls a loop body makes on its best path: per function, the fewest calls of it on any
//! path through one iteration, for a loop whose report gives its iteration latency as a range
//! (`sim::replay`, `conditional_children`).
//!
//! The report's best iteration takes the cheapest path through the body; a function called on
//! every path (`if (a) f(x); else f(y);`: once on either arm) is inside that best case, one
//! called only on some paths (`if (a) f(x); if (b) f(y);`: none on the path that skips both) is
//! not, and each of its calls adds what the report counts for it. Counting a function's runs
//! against the loop's trips alone cannot tell the two apart: in the second body `f` may run more
//! often than the loop iterates and still be outside the best case (the public 2021.2
//! `Radix2wECC`'s `bf_mult`: its two `bf_add` calls ran 83 and 82 times in 162 iterations).
//!
//! Paths: statements in sequence add up; an `if` takes the fewer of its arms (no `else`: none);
//! a `switch` the fewest of its cases' paths (a case that falls through goes on into the next; none
//! without a `default`); `c ? a : b` the fewer of `a` and
//! `b`; the right side of `&&` and `||` may not run (none). Calls inside a nested loop belong to
//! that loop and are not counted; neither are calls in a lambda's body.

use crate::parse::{field, kind, named_children};
use std::collections::BTreeMap;
use tree_sitter::Node;

/// Calls per function name.
type Counts = BTreeMap<String, u32>;

/// The fewest calls of each function on any path through `body`: `(name, count)` sorted by
/// name, functions with none left out. A call's name is its callee's last component without
/// template arguments (`ns::f<int>` → `f`, `obj.f` → `f`), as `Call::name`.
pub(super) fn fewest_calls(body: Node, text: &str) -> Vec<(String, u32)> {
    fewest(body, text).into_iter().filter(|(_, n)| *n > 0).collect()
}

fn fewest(node: Node, text: &str) -> Counts {
    match kind(node) {
        "for_statement" | "while_statement" | "do_statement" | "for_range_loop" | "lambda_expression" => Counts::new(),
        "if_statement" => {
            let mut c = field(node, "condition").map(|n| fewest(n, text)).unwrap_or_default();
            let then = field(node, "consequence").map(|n| fewest(n, text)).unwrap_or_default();
            let other = field(node, "alternative").map(|n| fewest(n, text)).unwrap_or_default();
            add(&mut c, &least(&then, &other));
            c
        }
        "conditional_expression" => {
            let mut c = field(node, "condition").map(|n| fewest(n, text)).unwrap_or_default();
            let a = field(node, "consequence").map(|n| fewest(n, text)).unwrap_or_default();
            let b = field(node, "alternative").map(|n| fewest(n, text)).unwrap_or_default();
            add(&mut c, &least(&a, &b));
            c
        }
        "binary_expression" if is_short_circuit(node, text) => {
            field(node, "left").map(|n| fewest(n, text)).unwrap_or_default()
        }
        "switch_statement" => {
            let mut c = field(node, "condition").map(|n| fewest(n, text)).unwrap_or_default();
            let cases: Vec<Node> = field(node, "body")
                .map(|b| named_children(b).filter(|s| kind(*s) == "case_statement").collect())
                .unwrap_or_default();
            // A case without `value` is the `default`: without one, a value may match no case.
            let has_default = cases.iter().any(|s| field(*s, "value").is_none());
            let mut best: Option<Counts> = if has_default { None } else { Some(Counts::new()) };
            // From the last case up: a case that falls through also runs the path after it.
            let mut after = Counts::new();
            for case in cases.into_iter().rev() {
                let mut counts = Counts::new();
                for s in named_children(case).filter(|s| Some(*s) != field(case, "value")) {
                    add(&mut counts, &fewest(s, text));
                }
                if !super::flow::case_ends_path(case) {
                    add(&mut counts, &after);
                }
                best = Some(match best {
                    Some(b) => least(&b, &counts),
                    None => counts.clone(),
                });
                after = counts;
            }
            add(&mut c, &best.unwrap_or_default());
            c
        }
        "call_expression" => {
            let mut c = Counts::new();
            for n in named_children(node) {
                add(&mut c, &fewest(n, text));
            }
            if let Some(name) = field(node, "function").and_then(|f| callee_name(f, text)) {
                *c.entry(name).or_insert(0) += 1;
            }
            c
        }
        _ => {
            let mut c = Counts::new();
            for n in named_children(node) {
                add(&mut c, &fewest(n, text));
            }
            c
        }
    }
}

/// `a && b`, `a || b` (also `and`, `or`).
fn is_short_circuit(node: Node, text: &str) -> bool {
    let op = field(node, "operator").map(|o| &text[o.byte_range()]);
    matches!(op, Some("&&" | "||" | "and" | "or"))
}

/// The callee's last name component, template arguments left out (`functions::call_names`'
/// rule); none for a callee that is no name.
fn callee_name(func: Node, text: &str) -> Option<String> {
    let n = super::functions::callee_name_node(func);
    let name = text[n.byte_range()].trim();
    (matches!(kind(n), "identifier" | "field_identifier") && !name.is_empty()).then(|| name.to_string())
}

fn add(into: &mut Counts, other: &Counts) {
    for (k, v) in other {
        *into.entry(k.clone()).or_insert(0) += v;
    }
}

/// Per function, the fewer of the two paths' calls (a function one path does not call: none).
fn least(a: &Counts, b: &Counts) -> Counts {
    a.iter().filter_map(|(k, v)| b.get(k).map(|w| (k.clone(), (*v).min(*w)))).filter(|(_, v)| *v > 0).collect()
}

#[cfg(test)]
mod tests {
    fn best(body: &str) -> Vec<(String, u32)> {
        let src = format!("void t(int a, int b, int x, int y) {{\n  for (int i = 0; i < 4; i++) {body}\n}}\n");
        let m = crate::model::build(&crate::parse::parse_cpp(&src, None), &src);
        m.functions[0].loops[0].details.as_ref().unwrap().facts.best_path_calls.clone()
    }

    fn calls(v: &[(&str, u32)]) -> Vec<(String, u32)> {
        v.iter().map(|(n, c)| (n.to_string(), *c)).collect()
    }

    #[test]
    fn a_function_on_every_path_is_in_the_best_case_and_one_on_some_paths_is_not() {
        assert_eq!(best("{ if (a) f(x); else f(y); }"), calls(&[("f", 1)]), "either arm calls f once");
        assert_eq!(best("{ if (a) f(x); if (b) f(y); }"), calls(&[]), "both ifs may be skipped");
        assert_eq!(best("{ g(x); if (a) f(x); else { h(x), f(y); } }"), calls(&[("f", 1), ("g", 1)]));
        assert_eq!(best("{ f(x); f(y); }"), calls(&[("f", 2)]));
        assert_eq!(best("{ y = a ? f(x) : g(x); }"), calls(&[]));
        assert_eq!(best("{ if (a && f(x)) g(y); }"), calls(&[]));
        assert_eq!(best("{ ns::f<int>(x); obj.g(y); }"), calls(&[("f", 1), ("g", 1)]));
        assert_eq!(best("{ for (int j = 0; j < 2; j++) f(x); }"), calls(&[]), "the inner loop's call");
    }

    #[test]
    fn a_switch_takes_its_cheapest_case_and_none_without_a_default() {
        let cases = "case 0: f(x); break; case 1: f(y); g(y); break;";
        assert_eq!(best(&format!("{{ switch (a) {{ {cases} default: f(b); }} }}")), calls(&[("f", 1)]));
        assert_eq!(best(&format!("{{ switch (a) {{ {cases} }} }}")), calls(&[]));
    }

    #[test]
    fn a_case_that_falls_through_runs_the_next_cases_statements_too() {
        // `case 0:` has no statements of its own: its path is case 1's, which calls f.
        let grouped = "{ switch (a) { case 0: case 1: f(x); break; default: f(y); g(y); } }";
        assert_eq!(best(grouped), calls(&[("f", 1)]));
        // Case 0 calls g and falls into case 1's f: every path calls f.
        let falls = "{ switch (a) { case 0: g(x); case 1: f(x); break; default: f(y); } }";
        assert_eq!(best(falls), calls(&[("f", 1)]));
        // A break as the last statement of a braced case ends its path like a bare one.
        let braced = "{ switch (a) { case 0: { f(x); break; } case 1: f(y); f(y); break; default: f(b); f(b); } }";
        assert_eq!(best(braced), calls(&[("f", 1)]));
    }
}
