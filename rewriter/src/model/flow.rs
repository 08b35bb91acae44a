//! How a function's control leaves it: falling off the end, statements that end the flow,
//! gotos we cannot follow.

use super::*;

/// Can control reach the closing brace? Not when the last statement returns, jumps or throws.
pub(super) fn falls_off_end(body: Node) -> Option<usize> {
    // From the end: the last statement is usually the last child.
    let last = (0..body.named_child_count())
        .rev()
        .filter_map(|i| body.named_child(i))
        .find(|c| kind(*c) != "comment" && (!kind(*c).starts_with("preproc") || is_conditional(*c)));
    match last {
        None => Some(body.start_byte() + 1),
        // Which branch runs is not known here, and a probe right after `#endif` would be on the
        // directive's line: the end goes before the closing brace, unless every branch (an
        // `#else` included) ends the flow — then an end there would make g++ warn that control
        // reaches the end of a non-void function.
        Some(c) if is_conditional(c) => (!every_branch_ends_flow(c)).then(|| body.end_byte() - 1),
        Some(stmt) => {
            if ends_flow(stmt) {
                None
            } else if ends_with_unbraced_body(stmt) {
                // Right after `if (c) x;` a probe would look guarded by the `if` (and g++ says
                // so with -Wmisleading-indentation): put it before the closing brace instead.
                Some(body.end_byte() - 1)
            } else {
                Some(stmt.end_byte())
            }
        }
    }
}

/// `#if`/`#ifdef` ... `#endif` holding statements.
pub(super) fn is_conditional(node: Node) -> bool {
    matches!(kind(node), "preproc_if" | "preproc_ifdef")
}

/// The statement (under its labels) returns, jumps or throws.
pub(super) fn ends_flow(stmt: Node) -> bool {
    let mut inner = stmt;
    while kind(inner) == "labeled_statement" {
        match inner.named_child(inner.named_child_count().saturating_sub(1)) {
            Some(n) => inner = n,
            None => break,
        }
    }
    if is_conditional(inner) {
        return every_branch_ends_flow(inner);
    }
    matches!(kind(inner), "return_statement" | "goto_statement" | "throw_statement")
        || (kind(inner) == "expression_statement"
            && inner.named_child(0).is_some_and(|e| kind(e) == "throw_expression"))
}

/// A `switch` case whose path ends with it: its last statement (the last of a braced block, under
/// labels) is a `break`, `continue`, `return`, `goto` or `throw`. Any other case falls through and
/// its path goes on with the next case's statements (`case 0: case 1: f(); break;`).
pub(super) fn case_ends_path(case: Node) -> bool {
    let value = field(case, "value").map(|v| v.id());
    let mut last = named_children(case).rfind(|c| Some(c.id()) != value && kind(*c) != "comment");
    while let Some(n) = last {
        match kind(n) {
            "compound_statement" | "labeled_statement" => {
                last = named_children(n).rfind(|c| kind(*c) != "comment" && kind(*c) != "statement_identifier")
            }
            "break_statement" | "continue_statement" => return true,
            _ => return ends_flow(n),
        }
    }
    false
}

/// A conditional (or `#elif`/`#else` branch) whose every branch ends with a statement that ends
/// the flow, and which has an `#else`: no configuration falls through it.
pub(super) fn every_branch_ends_flow(node: Node) -> bool {
    let skip = [field(node, "condition"), field(node, "name"), field(node, "alternative")].map(|n| n.map(|n| n.id()));
    let last = named_children(node)
        .filter(|c| !skip.contains(&Some(c.id())))
        .rfind(|c| kind(*c) != "comment" && (!kind(*c).starts_with("preproc") || is_conditional(*c)));
    let this_ends = last.is_some_and(ends_flow);
    match field(node, "alternative") {
        Some(alt) => this_ends && every_branch_ends_flow(alt),
        None => this_ends && kind(node) == "preproc_else",
    }
}

/// The statement ends with an unbraced controlled statement: `if (c) x;`, `else x;`, `for (...) x;`.
pub(super) fn ends_with_unbraced_body(stmt: Node) -> bool {
    let tail = match kind(stmt) {
        "if_statement" => stmt.child_by_field_name("alternative").or_else(|| stmt.child_by_field_name("consequence")),
        "for_statement" | "while_statement" | "for_range_loop" => stmt.child_by_field_name("body"),
        "else_clause" => stmt.named_child(stmt.named_child_count().saturating_sub(1)),
        // A label guards nothing: look at the statement it labels.
        "labeled_statement" => {
            return stmt.named_child(stmt.named_child_count().saturating_sub(1)).is_some_and(ends_with_unbraced_body)
        }
        _ => return false,
    };
    match tail {
        None => false,
        Some(t) if kind(t) == "compound_statement" => false,
        Some(t) if matches!(kind(t), "if_statement" | "for_statement" | "while_statement" | "for_range_loop") => {
            ends_with_unbraced_body(t)
        }
        Some(_) => true,
    }
}

/// A goto that jumps into a loop (or between sibling loops) cannot be balanced by begin/end probes.
pub(super) fn goto_problem(f: &Function) -> Option<String> {
    for g in &f.gotos {
        let Some(label) = f.labels.iter().find(|l| l.name == g.label) else {
            return Some(format!("goto {} at {}:{} has no label in this function", g.label, g.line, g.col));
        };
        if !g.loops.starts_with(&label.loops) {
            return Some(format!(
                "goto {} at {}:{} jumps into a loop; loop probes could not stay balanced",
                g.label, g.line, g.col
            ));
        }
    }
    None
}
