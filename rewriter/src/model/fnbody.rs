//! What a function's own body costs, for the cycle model without a report (`sim::timing`): the
//! chain of its operations when its loops are unrolled into a pipeline, and the accesses of its
//! array parameters, which a memory's two ports serialise.
//!
//! A pipelined function (`#pragma HLS PIPELINE` in its body, and every function it calls, which
//! Vitis pipelines with it) unrolls every loop inside (UG1399 "Function Pipelining": loops in
//! the hierarchy are fully unrolled). Its depth is then set by its longest chain of dependent
//! operations, each loop body counted once (the op table of `model::opchain`), and by its
//! memories: an unrolled loop issues all its accesses at once, but a block RAM has two ports
//! (UG1399 `bind_storage`, `ram_2p`; the 2019.1 DiagonalSum schedule binds each bank of its
//! partitioned `mat` to a `RAM` core of `Ports = 2`), so `k` accesses of one bank take
//! `ceil(k / 2)` states. The function's local arrays are not such memories: Vitis partitions
//! them into registers when a pipeline needs it (UG1399 `config_array_partition`: constant
//! indices under 64 elements in 2020.x, `throughput_driven auto` from 2023.1). A parameter
//! array is the caller's memory, or the top's `ap_memory` port, and keeps its ports.

use super::pragma::ChainStep;
use crate::parse::{field, kind, named_children};
use serde::{Deserialize, Serialize};
use tree_sitter::Node;

/// The loops around an access: (line, column) of each, innermost first.
type Loops = Vec<(usize, usize)>;

/// Accesses kept per function; a longer body keeps its first ones.
const MAX_USES: usize = 512;

/// The accesses of one array parameter in a function body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PortUse {
    pub param: String,
    /// Memories the array is split into by `ARRAY_PARTITION` (1 without; the accesses are taken
    /// as spread evenly over them). 0: an `hls::stream` parameter, one read and one write port.
    pub banks: u64,
    /// Elements one word of its memory holds by the function's own `ARRAY_RESHAPE` pragmas on
    /// it (`cyclic`/`block` factor, a `complete` dimension's size); 0 when it is not reshaped.
    /// A callee the array is passed to takes it (`sim::timing`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reshape_words: u64,
    /// Each access: whether it writes, and the loops around it in the function (line, column of
    /// each loop statement, innermost first), whose trip counts multiply it.
    pub accesses: Vec<Access>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<(usize, usize)>,
}

/// How a function uses one of its pointer or reference parameters that stands for one scalar
/// (`*p`, or a reference `r`): read, written, or both. Vivado HLS's s_axilite co-sim testbench
/// writes such an argument before the start when the function reads it and polls its valid
/// register when it writes it ([`crate::vitis_tb`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScalarUse {
    pub param: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write: bool,
}

/// The chain of a whole function body, its loops unrolled (each body once) and its local arrays
/// registers.
/// `decls` are the function body's (shared with its loops' details: the declared types and
/// memories are the same walk).
pub(super) fn body_chain(decls: &super::decls::Decls) -> Vec<ChainStep> {
    let walk = super::opchain::Walk { enter_loops: true, locals_in_registers: true };
    super::opchain::steps(decls.body, decls, walk)
}

/// The subscript accesses of the function's pointer and array parameters, per parameter; a
/// parameter `ARRAY_PARTITION ... complete` over all its dimensions (`dim=0`) is registers and
/// left out, as is one whose partition cannot be worked out (a dimension that is not a literal).
pub(super) fn port_uses(function_body: Node, params: &[super::Param], text: &str) -> Vec<PortUse> {
    use super::types::ParamKind;
    let dims = param_dims(function_body, text);
    let mut out: Vec<PortUse> = Vec::new();
    for p in params.iter().filter(|p| p.kind == ParamKind::Stream) {
        out.push(PortUse { param: p.name.clone(), banks: 0, reshape_words: 0, accesses: Vec::new() });
    }
    for p in params.iter().filter(|p| matches!(p.kind, ParamKind::Pointer | ParamKind::Array)) {
        let Some(banks) = banks(function_body, &p.name, dims.iter().find(|(n, _)| n == &p.name).map(|(_, d)| d), text)
        else {
            continue;
        };
        let reshape_words =
            reshape_words(function_body, &p.name, dims.iter().find(|(n, _)| n == &p.name).map(|(_, d)| d), text);
        out.push(PortUse { param: p.name.clone(), banks, reshape_words, accesses: Vec::new() });
    }
    if out.is_empty() {
        return out;
    }
    // Walk in source order with the loops and the exclusive arms around each node.
    let mut todo: Vec<(Node, Loops, Arms)> = vec![(function_body, Vec::new(), Vec::new())];
    // A stream's accesses with the arms they are in, counted per path once the walk is done.
    let mut stream_uses: Vec<(String, Access, Arms)> = Vec::new();
    let mut count = 0;
    // A read of the same element in the same loops is one load (`if (c) s += m[i]; else t +=
    // m[i];`: Vitis reads `m[i]` once).
    let mut seen_reads: std::collections::HashSet<(String, String, Loops)> = Default::default();
    while let Some((n, loops, arms)) = todo.pop() {
        if count >= MAX_USES {
            break;
        }
        if not_hardware(n, text) {
            continue;
        }
        let k = kind(n);
        if k == "subscript_expression" {
            if let Some(name) = array_of(n, text) {
                if let Some(u) = out.iter_mut().find(|u| u.param == name && u.banks > 0) {
                    let (write, mut read) = role(n);
                    let element: String = text[n.byte_range()].split_whitespace().collect();
                    if read && !write && !seen_reads.insert((name.clone(), element, loops.clone())) {
                        read = false;
                    }
                    if read {
                        u.accesses.push(Access { write: false, loops: loops.clone() });
                    }
                    if write {
                        u.accesses.push(Access { write: true, loops: loops.clone() });
                    }
                    count += 1;
                }
                // The indices may read too (`t[idx[i]]`): look into them, not the array again.
                let inner = outermost_subscript_indices(n);
                todo.extend(inner.into_iter().map(|i| (i, loops.clone(), arms.clone())));
                continue;
            }
        }
        // `s.read()`, `s.write(x)`, `s >> x`, `s << x` on a stream parameter.
        if let Some((name, write)) = stream_access(n, text) {
            if out.iter().any(|u| u.param == name && u.banks == 0) {
                stream_uses.push((name, Access { write, loops: loops.clone() }, arms.clone()));
                count += 1;
            }
        }
        let mut here = loops.clone();
        if super::body::is_loop_kind(k) {
            let (line, col) = super::functions::position(text, n.start_byte());
            here.insert(0, (line, col));
        }
        let kids: Vec<Node> = named_children(n).collect();
        let arm_of = exclusive_arms(n, &kids);
        todo.extend(kids.into_iter().zip(arm_of).rev().map(|(c, arm)| {
            let mut inner = arms.clone();
            inner.extend(arm.map(|a| (n.id(), a)));
            (c, here.clone(), inner)
        }));
    }
    for u in out.iter_mut().filter(|u| u.banks == 0) {
        // Per direction and loops, in the order first seen: the most a path runs.
        let mine: Vec<&(String, Access, Arms)> = stream_uses.iter().filter(|(p, _, _)| p == &u.param).collect();
        let mut keys: Vec<&Access> = Vec::new();
        for (_, a, _) in &mine {
            if !keys.contains(&a) {
                keys.push(a);
            }
        }
        for key in keys {
            let arms: Vec<&[(usize, usize)]> =
                mine.iter().filter(|(_, a, _)| a == key).map(|(_, _, r)| r.as_slice()).collect();
            u.accesses.extend((0..on_worst_path(&arms)).map(|_| key.clone()));
        }
    }
    // A partitioned or reshaped array the function only passes on keeps its banks and words for
    // its callees.
    out.retain(|u| !u.accesses.is_empty() || u.banks > 1 || u.reshape_words > 1);
    out
}

/// The exclusive arms a node is in, outermost first: (the branching statement's node id, the
/// arm). Only one arm of each runs, so Vitis schedules one port access for a stream that every
/// arm reads (`switch (state) { case A: s.read(x); ...; break; case B: s.read(x); ... }`: one
/// read in the public 2016.2 `frameSIPO`, whose pipeline's latency is 1).
type Arms = Vec<(usize, usize)>;

/// For each child of `n`, the arm of `n` it is in, when `n` branches: an `if`'s consequence and
/// its `else`; a `switch` body's cases, a case that falls through sharing the next case's arm.
fn exclusive_arms(n: Node, kids: &[Node]) -> Vec<Option<usize>> {
    match kind(n) {
        "if_statement" => {
            let then = field(n, "consequence").map(|c| c.id());
            let other = field(n, "alternative").map(|c| c.id());
            kids.iter()
                .map(|c| {
                    if Some(c.id()) == then {
                        Some(0)
                    } else if Some(c.id()) == other {
                        Some(1)
                    } else {
                        None
                    }
                })
                .collect()
        }
        "compound_statement" if n.parent().is_some_and(|p| kind(p) == "switch_statement") => {
            let mut arm = 0;
            kids.iter()
                .map(|c| {
                    if kind(*c) != "case_statement" {
                        return None;
                    }
                    let here = arm;
                    if super::flow::case_ends_path(*c) {
                        arm += 1;
                    }
                    Some(here)
                })
                .collect()
        }
        _ => kids.iter().map(|_| None).collect(),
    }
}

/// How many of `accesses` (each given by the arms it is in) one path through the body runs at
/// most: those in no arm always; of those under one branching statement, the arm with the most.
fn on_worst_path(accesses: &[&[(usize, usize)]]) -> usize {
    let always = accesses.iter().filter(|a| a.is_empty()).count();
    let mut branches: Vec<usize> = accesses.iter().filter_map(|a| a.first().map(|(b, _)| *b)).collect();
    branches.sort_unstable();
    branches.dedup();
    let mut most = always;
    for b in branches {
        let mut arms: Vec<usize> =
            accesses.iter().filter_map(|a| a.first().filter(|(x, _)| *x == b).map(|(_, arm)| *arm)).collect();
        arms.sort_unstable();
        arms.dedup();
        most += arms
            .iter()
            .map(|arm| {
                let inside: Vec<&[(usize, usize)]> =
                    accesses.iter().filter(|a| a.first() == Some(&(b, *arm))).map(|a| &a[1..]).collect();
                on_worst_path(&inside)
            })
            .max()
            .unwrap_or(0);
    }
    most
}

/// The reads and writes of the function's reference parameters (`r = x`, `r += x`, `r++`, any
/// other mention a read) and of its pointer parameters through `*p`; parameters never used so
/// are left out (the caller drops a pointer also used with subscripts: an array, [`port_uses`]). A parameter only
/// passed on to a callee counts as read: what the callee does with it is not followed.
pub(super) fn scalar_uses(function_body: Node, params: &[super::Param], text: &str) -> Vec<ScalarUse> {
    use super::types::ParamKind;
    let wanted: Vec<&super::Param> =
        params.iter().filter(|p| matches!(p.kind, ParamKind::Reference | ParamKind::Pointer)).collect();
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<ScalarUse> = Vec::new();
    let mut todo = vec![function_body];
    while let Some(n) = todo.pop() {
        let k = kind(n);
        if matches!(k, "lambda_expression" | "class_specifier" | "struct_specifier") {
            continue;
        }
        // The node that stands for the scalar: `*p` of a pointer, the name of a reference.
        let named = match k {
            "pointer_expression" if n.child(0).is_some_and(|o| o.kind() == "*") => field(n, "argument")
                .filter(|a| kind(*a) == "identifier")
                .map(|a| &text[a.byte_range()])
                .filter(|name| wanted.iter().any(|p| p.kind == ParamKind::Pointer && p.name == *name)),
            "identifier" => Some(&text[n.byte_range()])
                .filter(|name| wanted.iter().any(|p| p.kind == ParamKind::Reference && p.name == *name)),
            _ => None,
        };
        if let Some(name) = named {
            let (write, read) = role(n);
            let read = read || !write;
            match out.iter_mut().find(|u| u.param == name) {
                Some(u) => {
                    u.read |= read;
                    u.write |= write;
                }
                None => out.push(ScalarUse { param: name.to_string(), read, write }),
            }
            continue;
        }
        todo.extend(named_children(n));
    }
    out.sort_by_key(|u| params.iter().position(|p| p.name == u.param));
    out
}

/// `(stream, writes)` of a stream access: a call of `read`/`read_nb`/`write`/`write_nb` on a
/// name, or `>>`/`<<` with a name on the left.
fn stream_access(n: Node, text: &str) -> Option<(String, bool)> {
    match kind(n) {
        "call_expression" => {
            let f = field(n, "function").filter(|f| kind(*f) == "field_expression")?;
            let object = field(f, "argument").filter(|a| kind(*a) == "identifier")?;
            let method = field(f, "field").map(|m| &text[m.byte_range()])?;
            let write = match method {
                "read" | "read_nb" => false,
                "write" | "write_nb" => true,
                _ => return None,
            };
            Some((text[object.byte_range()].to_string(), write))
        }
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| o.kind())?;
            let left = field(n, "left").filter(|l| kind(*l) == "identifier")?;
            let write = match op {
                ">>" => false,
                "<<" => true,
                _ => return None,
            };
            Some((text[left.byte_range()].to_string(), write))
        }
        _ => None,
    }
}

/// A node whose accesses are no hardware of the function: a lambda or a class body (code of
/// its own), or a statement that only prints (C simulation only: synthesis drops it with what
/// it reads).
pub(super) fn not_hardware(n: Node, text: &str) -> bool {
    match kind(n) {
        "lambda_expression" | "class_specifier" | "struct_specifier" => true,
        "expression_statement" => prints(&text[n.byte_range()]),
        _ => false,
    }
}

/// A statement that only prints (`std::cout << a[i]`, `printf(...)`): C simulation only,
/// synthesis drops it with what it reads.
fn prints(stmt: &str) -> bool {
    let s = stmt.trim_start();
    ["cout", "cerr", "clog", "printf", "fprintf", "puts"].iter().any(|w| {
        s.strip_prefix("std::").unwrap_or(s).strip_prefix(w).is_some_and(|r| r.trim_start().starts_with(['<', '(']))
    })
}

/// The array an access `a[i][j]` reads (its innermost identifier).
pub(super) fn array_of(mut n: Node, text: &str) -> Option<String> {
    while kind(n) == "subscript_expression" {
        n = field(n, "argument")?;
    }
    (kind(n) == "identifier").then(|| text[n.byte_range()].to_string())
}

/// The index expressions of a chain of subscripts (`a[i][j]`: `i`, `j`).
fn outermost_subscript_indices(mut n: Node) -> Vec<Node> {
    let mut out = Vec::new();
    while kind(n) == "subscript_expression" {
        if let Some(i) = field(n, "indices").or_else(|| field(n, "index")).or_else(|| n.named_child(1)) {
            out.push(i);
        }
        match field(n, "argument") {
            Some(a) => n = a,
            None => break,
        }
    }
    out
}

/// `(writes, reads)` of an access: the target of `=` writes only, of `+=` or `++` both, an
/// inner level of `a[i][j]` neither (counted at the outer one), anything else reads.
pub(super) fn role(n: Node) -> (bool, bool) {
    let mut top = n;
    while let Some(p) = top.parent() {
        if kind(p) == "subscript_expression" && field(p, "argument").is_some_and(|a| a.id() == top.id()) {
            top = p;
        } else {
            break;
        }
    }
    if top.id() != n.id() {
        return (false, false); // an inner level of `a[i][j]`: counted at the outer one
    }
    match top.parent() {
        Some(p) if kind(p) == "assignment_expression" && field(p, "left").is_some_and(|l| l.id() == top.id()) => {
            let plain = p.child_by_field_name("operator").is_some_and(|o| o.kind() == "=");
            (true, !plain)
        }
        Some(p) if kind(p) == "update_expression" => (true, true),
        _ => (false, true),
    }
}

/// The declared dimensions of the function's array parameters (`int m[9][9]`: 9, 9; a pointer
/// `int *p` has none), from the function's declarator.
fn param_dims(function_body: Node, text: &str) -> Vec<(String, Vec<Option<u64>>)> {
    let Some(def) = function_body.parent() else { return Vec::new() };
    let mut out = Vec::new();
    let mut todo: Vec<Node> = field(def, "declarator").into_iter().collect();
    while let Some(n) = todo.pop() {
        if kind(n) == "parameter_declaration" {
            let mut dims = Vec::new();
            let mut d = field(n, "declarator");
            while let Some(x) = d {
                if kind(x) == "array_declarator" {
                    dims.push(field(x, "size").and_then(|s| text[s.byte_range()].trim().parse().ok()));
                }
                if kind(x) == "identifier" {
                    // Declarators nest outside in: `m[9][3]` is array(array(m, 9), 3).
                    dims.reverse();
                    out.push((text[x.byte_range()].to_string(), dims));
                    break;
                }
                d = field(x, "declarator");
            }
            continue;
        }
        if kind(n) == "compound_statement" {
            continue;
        }
        todo.extend(named_children(n));
    }
    out
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Elements one word of an array parameter's memory holds by the `ARRAY_RESHAPE` pragmas of
/// the body (`model::ports::reshape_words` for the rule); 0 without one, or when a size it
/// needs is not known.
fn reshape_words(function_body: Node, array: &str, dims: Option<&Vec<Option<u64>>>, text: &str) -> u64 {
    let mut words = 1u64;
    let mut any = false;
    for line in text[function_body.byte_range()].lines() {
        let l = line.trim_start().to_ascii_lowercase();
        if !(l.starts_with('#') && l.contains("pragma") && l.contains("array_reshape")) {
            continue;
        }
        let compact: String = l.split_whitespace().collect::<Vec<_>>().join(" ").replace(" = ", "=").replace("= ", "=");
        let words_of: Vec<&str> = compact.split_whitespace().collect();
        if words_of.iter().find_map(|w| w.strip_prefix("variable=")) != Some(&array.to_ascii_lowercase()) {
            continue;
        }
        let Some(p) = super::ports::partition(&words_of) else { return 0 };
        let Some(w) = p.reshape_words(dims.map(Vec::as_slice)) else { return 0 };
        words = words.saturating_mul(w.max(1));
        any = true;
    }
    if any {
        words
    } else {
        0
    }
}

/// The memories an array parameter is split into by the `ARRAY_PARTITION` pragmas of the body:
/// 1 without, the dimension's size for `complete dim=D`, `factor` for `cyclic`/`block`; `None`
/// when it is registers (`complete dim=0`) or the size is not known.
fn banks(function_body: Node, array: &str, dims: Option<&Vec<Option<u64>>>, text: &str) -> Option<u64> {
    let mut banks = 1u64;
    for line in text[function_body.byte_range()].lines() {
        // Only a directive line can matter: skip the others before lowering their case.
        if !line.trim_start().starts_with('#') {
            continue;
        }
        let l = line.trim_start().to_ascii_lowercase();
        if !(l.starts_with('#') && l.contains("pragma") && l.contains("array_partition")) {
            continue;
        }
        let compact: String = l.split_whitespace().collect::<Vec<_>>().join(" ").replace(" = ", "=").replace("= ", "=");
        let words: Vec<&str> = compact.split_whitespace().collect();
        let opt = |k: &str| words.iter().find_map(|w| w.strip_prefix(k));
        if opt("variable=") != Some(&array.to_ascii_lowercase()) {
            continue;
        }
        let dim: usize = opt("dim=").and_then(|d| d.parse().ok()).unwrap_or(1);
        if words.contains(&"complete") {
            if dim == 0 {
                return None;
            }
            let size = dims.and_then(|d| d.get(dim - 1).copied().flatten())?;
            banks *= size.max(1);
        } else {
            let factor: u64 = opt("factor=").and_then(|f| f.parse().ok())?;
            banks *= factor.max(1);
        }
    }
    Some(banks)
}

/// States the accesses of one memory bank take in a pipeline: two per state (two ports); reads
/// return one state after their address, so the last one's data is there `ceil(k / 2)` states
/// after the start; writes end with their state (`ceil(k / 2) − 1`).
pub fn port_cycles(reads: u64, writes: u64) -> u64 {
    let states = (reads + writes).div_ceil(2);
    if reads > 0 {
        states
    } else {
        states.saturating_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(src: &str) -> crate::model::Function {
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        m.functions.into_iter().next().unwrap()
    }

    /// The DiagonalSum pattern: a 9 × 9 parameter partitioned on its second dimension (9 banks),
    /// read 81 times in two unrolled loops: 9 reads a bank, 5 states through two ports.
    #[test]
    fn accesses_of_a_partitioned_parameter() {
        let src = "int k(int m[9][9], int *o, int n) {\n#pragma HLS array_partition variable=m complete dim=2\n\
                   #pragma HLS pipeline II=12\n  int s = 0;\n  int t[4];\n  for (int i = 0; i < 9; i++)\n    \
                   for (int j = 0; j < 9; j++) { s += m[i][j]; t[j & 3] = s; }\n  o[0] += s;\n  return s;\n}\n";
        let f = function(src);
        let uses = &f.port_uses;
        assert_eq!(uses.len(), 2, "{uses:?}");
        assert_eq!((uses[0].param.as_str(), uses[0].banks), ("m", 9));
        assert_eq!(uses[0].accesses, vec![Access { write: false, loops: vec![(7, 5), (6, 3)] }]);
        // `o[0] += s`: a read and a write, outside the loops; `t` is a local: not a port.
        assert_eq!((uses[1].param.as_str(), uses[1].banks, uses[1].accesses.len()), ("o", 1, 2));
        assert_eq!(port_cycles(9, 0), 5);
        assert_eq!(port_cycles(0, 9), 4);
        assert_eq!(port_cycles(1, 1), 1);
        assert_eq!(port_cycles(0, 0), 0);
    }

    #[test]
    fn registers_and_unknown_sizes_are_no_ports() {
        let src = "void k(int a[8], int b[N], int *c) {\n#pragma HLS array_partition variable=a complete dim=0\n\
                   #pragma HLS array_partition variable=b complete dim=1\n#pragma HLS array_partition variable=c cyclic factor=2\n  \
                   c[0] = a[1] + b[2];\n}\n";
        let f = function(src);
        assert_eq!(f.port_uses.len(), 1);
        assert_eq!((f.port_uses[0].param.as_str(), f.port_uses[0].banks), ("c", 2));
    }

    /// Which scalar arguments the body reads and which it writes: `s = ...` of a reference, `*p`
    /// of a pointer (both for `*acc += x`); a pointer used with subscripts is an array, a stream
    /// reference no scalar, an unused pointer absent.
    #[test]
    fn reads_and_writes_of_scalar_arguments() {
        let src = "#include <hls_stream.h>\nvoid k(int theta, int &s, int &c, long *acc, int *m, int *u, hls::stream<int> &q) {\n  \
                   int x = theta + c;\n  s = x;\n  *acc += m[1];\n  c++;\n  q.write(x);\n}\n";
        let f = function(src);
        let u = |read, write| (read, write);
        let got: Vec<(&str, (bool, bool))> =
            f.scalar_uses.iter().map(|s| (s.param.as_str(), u(s.read, s.write))).collect();
        assert_eq!(got, [("s", (false, true)), ("c", (true, true)), ("acc", (true, true))], "in parameter order");
    }

    /// Stream words each way; a read of one element in both branches of an `if` is one load; a
    /// commented-out pragma partitions nothing; printing is not hardware.
    #[test]
    fn streams_branches_comments_and_prints() {
        let src = "#include <hls_stream.h>\nint k(hls::stream<int> &in, hls::stream<int> &out, int m[4]) {\n\
                   //#pragma HLS array_partition variable=m complete dim=1\n  int s = 0, t = 0;\n  \
                   for (int i = 0; i < 4; i++) {\n    int v = in.read();\n    if (v > 0) s += m[i]; else t += m[i];\n    \
                   std::cout << m[i];\n    out << v;\n  }\n  out.write(s);\n  return t;\n}\n";
        let f = function(src);
        let by = |p: &str| f.port_uses.iter().find(|u| u.param == p).unwrap().clone();
        let (i, o, m) = (by("in"), by("out"), by("m"));
        assert_eq!((i.banks, i.accesses.len(), i.accesses[0].write), (0, 1, false));
        assert_eq!(o.accesses.iter().map(|a| (a.write, a.loops.len())).collect::<Vec<_>>(), [(true, 1), (true, 0)]);
        assert_eq!((m.banks, m.accesses.len()), (1, 1));
    }

    /// A stream read in every arm of a `switch` or an `if` is one read on any path (the public
    /// 2016.2 `frameSIPO`: its two states each read the input); reads in one arm add up, a case
    /// that falls through shares the next case's path, an `if` without `else` has an empty arm.
    #[test]
    fn stream_accesses_in_exclusive_arms_count_once_per_path() {
        let src = "#include <hls_stream.h>\nvoid k(hls::stream<int> &in, hls::stream<int> &out, int st, int c) {\n  \
                   int x = 0, y = 0;\n  switch (st) {\n  case 0: in.read(x); break;\n  case 1: in.read(x); in.read(y); \
                   if (c) out.write(x); else out.write(y); break;\n  case 2:\n  case 3: in.read(y); break;\n  }\n  \
                   if (c > 1) out.write(y);\n}\n";
        let f = function(src);
        let by = |p: &str| f.port_uses.iter().find(|u| u.param == p).unwrap().accesses.len();
        assert_eq!((by("in"), by("out")), (2, 2), "in: case 1 reads twice; out: one arm of the if, then the if after");
        let fall = "#include <hls_stream.h>\nvoid k(hls::stream<int> &in, int st) {\n  int x;\n  switch (st) {\n  \
                    case 0: in.read(x);\n  case 1: in.read(x); break;\n  }\n}\n";
        let f = function(fall);
        assert_eq!(f.port_uses[0].accesses.len(), 2, "case 0 falls through into case 1");
        let braced = "#include <hls_stream.h>\nvoid k(hls::stream<int> &in, int st) {\n  int x;\n  switch (st) {\n  \
                      case 0: { in.read(x); break; }\n  case 1: in.read(x); break;\n  }\n}\n";
        let f = function(braced);
        assert_eq!(f.port_uses[0].accesses.len(), 1, "a braced case's last break ends its path");
    }

    /// The body's chain runs through its loops (unrolled, each body once), its locals are
    /// registers and its parameters memories.
    #[test]
    fn body_chain_enters_loops() {
        let src = "float k(float *a, float b) {\n#pragma HLS pipeline\n  float t[4];\n  float s = 0;\n  \
                   for (int i = 0; i < 4; i++) { t[i] = a[i] * b; }\n  for (int i = 0; i < 4; i++) { s += t[i]; }\n  return s;\n}\n";
        let f = function(src);
        // a[i] read (1), fmul (3); then t[i] (a register) into the fadd (4): 8.
        assert_eq!(crate::model::opchain::chain_cycles(&f.body_chain), 8);
    }
}
