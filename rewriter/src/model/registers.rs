//! Loops whose bodies live in registers, for the cycle model without a report (`sim::timing`):
//! a loop that is not pipelined spends, per iteration, its exit test and its body's states. A
//! body that reads or writes no memory, calls nothing and holds no loop is one state of
//! register logic; one that reads a memory needs a state for the address and one for the data
//! (the default of 2 a trip). Measured: a public Vivado HLS 2017.2 Fibonacci loop
//! (`f2 = f1 + f0; f0 = f1; f1 = f2;`, 10 trips) has an iteration latency of 1 in its report and
//! its co-simulation; a public matrix product's `sum += a[i][k] * b[k][j]` loop, 3 = 2 + a read.
//!
//! A whole function of such logic, on scalar arguments only, with no multiply, divide or
//! floating point (which Vitis binds to pipelined DSP or IP cores: a public 2022.2 `a * b + c`
//! top has latency 3), and no `static` state, is combinational: latency 0 (a public Vivado HLS
//! 2018.2 add/subtract top, block control on s_axilite: 0 in its report and its co-simulation).

use super::types::ParamKind;
use super::Param;
use crate::parse::{kind, named_children};
use tree_sitter::Node;

/// Nodes looked at before giving up (a long body is taken as not register-only).
const MAX_NODES: usize = 2000;

/// Whether a loop body is register logic only: no array subscript, no pointer dereference or
/// `->`, no call (a macro that looks like one included), no nested loop, no `new`/`delete`, no
/// lambda, and no use of a pointer, array or stream parameter (`s >> x` on a stream).
pub(super) fn registers_only(body: Node, params: &[Param], text: &str) -> bool {
    walk(body, params, text, false)
}

/// Whether a function body is combinational: [`registers_only`], only scalar parameters, and no
/// `*`, `/`, `%` (or their compound assignments), floating-point type or `static` local.
pub(super) fn combinational(body: Node, params: &[Param], text: &str) -> bool {
    params.iter().all(|p| matches!(p.kind, ParamKind::Scalar | ParamKind::Reference))
        && !params.iter().any(|p| floating(&p.type_text))
        && walk(body, params, text, true)
}

fn floating(type_text: &str) -> bool {
    type_text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|w| matches!(w, "float" | "double" | "half"))
}

fn walk(body: Node, params: &[Param], text: &str, whole_function: bool) -> bool {
    let memories: Vec<&str> = params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Pointer | ParamKind::Array | ParamKind::Stream))
        .map(|p| p.name.as_str())
        .collect();
    let mut todo = vec![body];
    let mut seen = 0;
    while let Some(n) = todo.pop() {
        seen += 1;
        if seen > MAX_NODES {
            return false;
        }
        match kind(n) {
            "subscript_expression"
            | "call_expression"
            | "pointer_expression"
            | "for_statement"
            | "for_range_loop"
            | "while_statement"
            | "do_statement"
            | "new_expression"
            | "delete_expression"
            | "lambda_expression"
            | "gnu_asm_expression"
            | "co_await_expression" => return false,
            "field_expression" if text[n.byte_range()].contains("->") => return false,
            "identifier" if memories.contains(&&text[n.byte_range()]) => return false,
            _ => {}
        }
        if whole_function {
            let t = &text[n.byte_range()];
            match kind(n) {
                "binary_expression" | "assignment_expression"
                    if n.child_by_field_name("operator")
                        .is_some_and(|o| matches!(&text[o.byte_range()], "*" | "/" | "%" | "*=" | "/=" | "%=")) =>
                {
                    return false
                }
                "primitive_type" | "type_identifier" if floating(t) => return false,
                "storage_class_specifier" if t == "static" => return false,
                _ => {}
            }
        }
        todo.extend(named_children(n));
    }
    true
}

#[cfg(test)]
mod tests {
    fn flags(src: &str) -> Vec<bool> {
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        m.functions[0].loops.iter().map(|l| l.details.as_ref().unwrap().facts.registers_only).collect()
    }

    #[test]
    fn scalar_recurrences_are_registers_and_memory_calls_and_nests_are_not() {
        let src = "int fib(int n, int a[10], int *p) {\n\
                   \x20 int f0 = 0, f1 = 1, f2 = 0;\n\
                   \x20 for (int i = 0; i < 10; i++) { f2 = f1 + f0; f0 = f1; f1 = f2; }\n\
                   \x20 for (int i = 0; i < 10; i++) { f2 += a[i]; }\n\
                   \x20 for (int i = 0; i < 10; i++) { f2 += *p; }\n\
                   \x20 for (int i = 0; i < 10; i++) { f2 = g(f2); }\n\
                   \x20 for (int i = 0; i < 4; i++) { for (int j = 0; j < 4; j++) f2++; }\n\
                   \x20 return f2;\n}\n";
        assert_eq!(flags(src), [true, false, false, false, false, true]);
    }

    fn comb(src: &str) -> bool {
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        m.functions[0].combinational
    }

    #[test]
    fn adds_and_selects_on_scalars_are_combinational_and_the_rest_is_not() {
        assert!(comb("int alu(int a, int b, bool sub) { return sub ? a - b : a + b; }\n"));
        assert!(comb("void f(ap_uint<20> a, ap_uint<20> b, ap_uint<20> &r) { r = (a ^ b) + 1; }\n"));
        assert!(!comb("int f(int a, int b, int c) { return a * b + c; }\n"), "a DSP");
        assert!(!comb("int f(int a, int b) { a /= b; return a; }\n"), "a divider");
        assert!(!comb("float f(float a, float b) { return a + b; }\n"), "a floating-point core");
        assert!(!comb("int f(int a) { double t = a; return t > 1.0; }\n"), "a floating-point core");
        assert!(!comb("int f(int a) { static int s; s += a; return s; }\n"), "state across calls");
        assert!(!comb("int f(int a[4]) { return a[0]; }\n"), "a memory");
        assert!(!comb("int f(int a) { int s = 0; for (int i = 0; i < 4; i++) s += a; return s; }\n"));
        assert!(!comb("int f(int a) { return g(a); }\n"), "a call");
    }
}
