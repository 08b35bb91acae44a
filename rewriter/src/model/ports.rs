//! The memory accesses of one iteration of a loop, for the initiation interval its memory ports
//! allow when the loop is pipelined without a report (`sim::timing`).
//!
//! A pipeline issues every access of an iteration, the loops inside it unrolled (UG1399
//! "pragma HLS pipeline": loops inside a pipelined loop are fully unrolled), and a memory bank
//! serves as many accesses a state as it has ports: two for a block RAM (dual-port when that
//! lowers the II, UG1399 "Memory Property on Interface"), one for `RAM_1P` (UG1448 "Resource
//! Constraints"). So a bank that `k` accesses of an iteration may reach holds the II at
//! `ceil(k / ports)` or more (the public Vivado HLS 2016.4 `matrixmul_5b`: II 6 for a target of
//! 1, six accesses of one single-port bank).
//!
//! Which bank an access reaches follows from its index on each partitioned dimension: the
//! model keeps every access with its index expressions as written, the loops around the body
//! (each index ranging over its loop's values) and the loops inside it (each value apart), all
//! as text; `sim` evaluates them with the constants of the sources and headers
//! ([`resolve`]), then counts the accesses per bank with the partitions and storage of the
//! pragmas and directives.

use super::fnbody::{not_hardware, role};
use crate::parse::{field, kind, named_children};
use serde::{Deserialize, Serialize};
use tree_sitter::Node;

/// Accesses kept per loop body before it is given up (its unrolled count can be larger).
const MAX_ACCESSES: usize = 256;
/// Accesses of an iteration, once the loops inside are unrolled, beyond which none are kept.
const MAX_UNROLLED: usize = 4096;

/// The memory accesses of a loop's iteration, as written.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopMemory {
    /// The induction variables of the loops around the body (the loop's own included) and of
    /// the loops inside it.
    pub vars: Vec<LoopVar>,
    /// The arrays accessed, with what the function's pragmas say of them.
    pub arrays: Vec<ArrayDecl>,
    pub accesses: Vec<ArrayAccess>,
    /// Filled by `sim` ([`resolve`]): each array's dimensions and its accesses' index ranges,
    /// the loops inside unrolled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resolved: Vec<ResolvedArray>,
    /// Filled by `sim` ([`resolve`]) when the loops around have few values: the accesses of
    /// each iteration apart, those loops' counters at one value each (`a[i + m][..]` of
    /// `m` unrolled falls into three banks an iteration, not every bank `i` reaches).
    #[serde(skip)]
    pub per_iteration: Vec<Vec<ResolvedArray>>,
}

/// A loop's induction variable: its values run from `lo` to `hi` (expressions as written)
/// by `step` (negative: from `hi` down).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopVar {
    pub name: String,
    pub lo: String,
    pub hi: String,
    pub step: i64,
    /// A loop inside the body: each of its values is an access of its own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inner: bool,
}

/// An array of the function and what its pragmas say.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayDecl {
    pub name: String,
    /// Declared dimensions, outermost first, as written (`3*DIM`); empty for a pointer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dims: Vec<String>,
    /// A parameter of the function (a memory of the caller or of the interface), not a local.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub param: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partitions: Vec<Partition>,
    /// Ports of its memory when a storage pragma says (`RAM_1P`: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ports: Option<u32>,
    /// `ARRAY_RESHAPE` pragmas of the function on it (as partitions: the elements of a bank
    /// become one word).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reshapes: Vec<Partition>,
    /// Elements a word of its memory holds by a caller's `ARRAY_RESHAPE` (a parameter bound to
    /// a reshaped array: `sim` fills it); `None`: none known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caller_words: Option<u64>,
}

/// `ARRAY_PARTITION`: `kind` is `block`, `cyclic` or `complete`; `dim` 0 is every dimension.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partition {
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub factor: Option<u64>,
    pub dim: u32,
}

impl Partition {
    /// Elements one word holds when this is an `ARRAY_RESHAPE` of an array of `sizes`
    /// (outermost first; `None`: not known): a `cyclic`/`block` factor, a `complete` dimension's
    /// size, every dimension's for `dim=0`; `None` when a size it needs is not known.
    pub fn reshape_words(&self, sizes: Option<&[Option<u64>]>) -> Option<u64> {
        match (self.kind.as_str(), self.dim) {
            ("complete", 0) => sizes?.iter().try_fold(1u64, |acc, s| s.map(|s| acc.saturating_mul(s.max(1)))),
            ("complete", d) => sizes?.get(d as usize - 1).copied().flatten(),
            _ => self.factor,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayAccess {
    pub array: String,
    /// Index expressions, outermost dimension first.
    pub index: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub write: bool,
    /// The loops inside the body around the access (their variables' names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inner: Vec<String>,
}

/// An array's dimensions and the accesses of one iteration: per access, per dimension, the
/// range of indices it can reach (`None`: not known, any).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResolvedArray {
    pub array: String,
    pub sizes: Vec<Option<u64>>,
    pub accesses: Vec<Vec<Option<(i64, i64)>>>,
}

/// The accesses of `body`'s iteration (`lp` its loop), or none when no array is accessed more
/// than once in it (one access a bank never holds a pipeline back).
pub(super) fn loop_memory(lp: Node, body: Node, decls: &super::decls::Decls) -> Option<LoopMemory> {
    let (function_body, text) = (decls.body, decls.text);
    let arrays = decls.arrays();
    if arrays.is_empty() {
        return None;
    }
    let mut vars = Vec::new();
    // The loops around the body, outermost first, the loop itself last.
    let mut around = Vec::new();
    let mut n = Some(lp);
    while let Some(x) = n {
        if x.id() == function_body.id() {
            break;
        }
        if kind(x) == "for_statement" {
            around.push(x);
        }
        n = x.parent();
    }
    for l in around.into_iter().rev() {
        vars.extend(loop_var(l, text, false));
    }
    let variables = decls.names();
    let mut accesses: Vec<ArrayAccess> = Vec::new();
    // The statement of each access (its start byte), beside `accesses`.
    let mut statements: Vec<usize> = Vec::new();
    let mut todo: Vec<(Node, Vec<String>)> = vec![(body, Vec::new())];
    let mut nested_multiplies = false;
    while let Some((n, inner)) = todo.pop() {
        if accesses.len() >= MAX_ACCESSES {
            return None;
        }
        if not_hardware(n, text) {
            continue;
        }
        let k = kind(n);
        if k == "subscript_expression" {
            if let Some(a) = access(n, text).filter(|(name, _)| arrays.iter().any(|d| &d.name == name)) {
                let (array, index) = a;
                let (mut write, mut read) = role(n);
                // A read of the same element in the same loops is one load.
                if read
                    && !write
                    && accesses.iter().any(|b| !b.write && b.array == array && b.index == index && b.inner == inner)
                {
                    read = false;
                }
                // Right after a store to the same element (no other element of the array in
                // between, which could be the same one), a read takes the stored value and a
                // second store replaces the first: one store an iteration (`k[i] <<= 1;
                // k[i] |= b;`: the public Vivado HLS 2019.1 `des_dec`'s key loop, a read and
                // a store of `sub_key[i]` an iteration, iteration 2 in its report).
                // A store's own statement (`a[i] = a[i] + 1`) reads before it stores.
                let stmt = statement_of(n);
                let last = accesses.iter().zip(&statements).rev().find(|(b, _)| b.array == array && b.inner == inner);
                if last.is_some_and(|(b, &at)| b.write && b.index == index && at != stmt) {
                    read = false;
                    write = false;
                }
                if read {
                    accesses.push(ArrayAccess {
                        array: array.clone(),
                        index: index.clone(),
                        write: false,
                        inner: inner.clone(),
                    });
                    statements.push(stmt);
                }
                if write {
                    accesses.push(ArrayAccess { array, index, write: true, inner: inner.clone() });
                    statements.push(stmt);
                }
                // The indices may access arrays too (`t[idx[i]]`).
                let mut m = n;
                while kind(m) == "subscript_expression" {
                    todo.extend(index_nodes(m).into_iter().map(|i| (i, inner.clone())));
                    match field(m, "argument") {
                        Some(a) => m = a,
                        None => break,
                    }
                }
                continue;
            }
        }
        let mut here = inner.clone();
        if super::body::is_loop_kind(k) && n.id() != lp.id() {
            // A loop inside: unrolled in a pipeline, each value apart; one without a known range
            // cannot be unrolled (and Vitis does not pipeline around it).
            let v = loop_var(n, text, true)?;
            // A bound that reads a variable of the function (`j < n`, `j < i`) is not a constant.
            if [&v.lo, &v.hi].iter().any(|e| identifiers(e).iter().any(|w| variables.iter().any(|x| x == w))) {
                return None;
            }
            here.push(v.name.clone());
            vars.push(v);
            nested_multiplies = true;
        }
        let kids: Vec<Node> = named_children(n).collect();
        todo.extend(kids.into_iter().rev().map(|c| (c, here.clone())));
    }
    let repeated = |a: &ArrayAccess| accesses.iter().filter(|b| b.array == a.array).count() > 1;
    if !accesses.iter().any(|a| repeated(a) || (nested_multiplies && !a.inner.is_empty())) {
        return None;
    }
    let used: Vec<ArrayDecl> = arrays.iter().filter(|d| accesses.iter().any(|a| a.array == d.name)).cloned().collect();
    Some(LoopMemory { vars, arrays: used, accesses, resolved: Vec::new(), per_iteration: Vec::new() })
}

/// The function's own arrays and streams (declared in its body, not parameters) that `body`
/// names: `(arrays, streams)`, each sorted. In a dataflow function they are the channels between
/// the processes Vitis makes of its loops (an array a ping-pong buffer, a stream a FIFO).
pub(super) fn local_channels(body: Node, decls: &super::decls::Decls) -> (Vec<String>, Vec<String>) {
    let named = identifiers(&decls.text[body.byte_range()]);
    let mut arrays: Vec<String> =
        decls.local_arrays().iter().map(|a| a.name.clone()).filter(|a| named.contains(&a.as_str())).collect();
    let mut streams: Vec<String> = decls.streams().iter().filter(|s| named.contains(&s.as_str())).cloned().collect();
    for v in [&mut arrays, &mut streams] {
        v.sort();
        v.dedup();
    }
    (arrays, streams)
}

/// The names the function body declares with a stream type (`hls::stream<T> s;`), in the order
/// of a walk that does not enter lambdas or classes.
pub(super) fn stream_names(function_body: Node, text: &str) -> Vec<String> {
    let mut streams = Vec::new();
    let mut todo = vec![function_body];
    while let Some(n) = todo.pop() {
        if kind(n) == "declaration" && field(n, "type").is_some_and(|t| text[t.byte_range()].contains("stream")) {
            for d in n.children_by_field_name("declarator", &mut n.walk()) {
                streams.extend(super::body::innermost_identifier(d, text));
            }
        }
        if !matches!(kind(n), "lambda_expression" | "class_specifier" | "struct_specifier") {
            todo.extend(named_children(n));
        }
    }
    streams
}

/// The names the function declares (parameters and locals, loop variables among them).
pub(super) fn declared_names(function_body: Node, params: &[super::Param], text: &str) -> Vec<String> {
    let mut out: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    let mut todo = vec![function_body];
    while let Some(n) = todo.pop() {
        if kind(n) == "declaration" {
            for d in n.children_by_field_name("declarator", &mut n.walk()) {
                out.extend(super::body::innermost_identifier(d, text));
            }
        }
        todo.extend(named_children(n));
    }
    out
}

/// `(array, index expressions)` of `a[i][j]` (outermost dimension first).
fn access(n: Node, text: &str) -> Option<(String, Vec<String>)> {
    let mut index = Vec::new();
    let mut m = n;
    while kind(m) == "subscript_expression" {
        let i = index_nodes(m).into_iter().next()?;
        index.push(text[i.byte_range()].to_string());
        m = field(m, "argument")?;
    }
    if kind(m) != "identifier" {
        return None;
    }
    index.reverse();
    Some((text[m.byte_range()].to_string(), index))
}

/// The index expression of one subscript (`a[i]`: `i`), without the brackets.
fn index_nodes(n: Node) -> Vec<Node> {
    let i = field(n, "indices").or_else(|| field(n, "index")).or_else(|| n.named_child(1));
    let Some(i) = i else { return Vec::new() };
    if kind(i) == "subscript_argument_list" {
        return named_children(i).collect();
    }
    vec![i]
}

/// The induction variable of `for (v = a; v < b; v++)` (also `<=`, `>`, `>=`, `!=`, `++v`, `v--`,
/// `v += c`, `v -= c`, `v = v + c`), or none for another shape.
/// The scalar parameters (by value or reference) among `params` that the bound of `for` loop `l`
/// names (`k < K`), in order of first use.
pub(super) fn bound_params(l: Node, params: &[super::types::Param], text: &str) -> Vec<String> {
    use super::types::ParamKind;
    let Some(v) = loop_var(l, text, false) else { return Vec::new() };
    let mut out: Vec<String> = Vec::new();
    for w in identifiers(&v.hi) {
        let scalar = params.iter().any(|p| p.name == w && matches!(p.kind, ParamKind::Scalar | ParamKind::Reference));
        if scalar && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    }
    out
}

fn loop_var(l: Node, text: &str, inner: bool) -> Option<LoopVar> {
    if kind(l) != "for_statement" {
        return None;
    }
    let t = |n: Node| text[n.byte_range()].trim().to_string();
    let init = field(l, "initializer")?;
    let (name, start) = match kind(init) {
        "declaration" => {
            let d = field(init, "declarator").filter(|d| kind(*d) == "init_declarator")?;
            (t(field(d, "declarator")?), t(field(d, "value")?))
        }
        "assignment_expression" => (t(field(init, "left")?), t(field(init, "right")?)),
        _ => return None,
    };
    let mut cond = field(l, "condition")?;
    if kind(cond) == "condition_clause" {
        cond = field(cond, "value").or_else(|| cond.named_child(0))?;
    }
    if kind(cond) != "binary_expression" || t(field(cond, "left")?) != name {
        return None;
    }
    let bound = t(field(cond, "right")?);
    let op = cond.child_by_field_name("operator").map(|o| o.kind())?;
    let update = field(l, "update")?;
    let step = match kind(update) {
        "update_expression" => {
            let u = t(update);
            let v = u.trim_start_matches(['+', '-']).trim_end_matches(['+', '-']).trim();
            if v != name {
                return None;
            }
            if u.contains("++") {
                1
            } else {
                -1
            }
        }
        "assignment_expression" if t(field(update, "left")?) == name => {
            let right = field(update, "right")?;
            let op = update.child_by_field_name("operator").map(|o| o.kind())?;
            let literal = |n: Node| t(n).parse::<i64>().ok();
            match op {
                "+=" => literal(right)?,
                "-=" => -literal(right)?,
                "=" if kind(right) == "binary_expression" && t(field(right, "left")?) == name => {
                    let c = literal(field(right, "right")?)?;
                    match right.child_by_field_name("operator").map(|o| o.kind())? {
                        "+" => c,
                        "-" => -c,
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        _ => return None,
    };
    let (lo, hi) = match (op, step > 0) {
        ("<" | "!=", true) => (start, format!("({bound}) - 1")),
        ("<=", true) => (start, bound),
        (">" | "!=", false) => (format!("({bound}) + 1"), start),
        (">=", false) => (bound, start),
        _ => return None,
    };
    (step != 0).then_some(LoopVar { name, lo, hi, step, inner })
}

/// The arrays of a function: its array and pointer parameters that are memories (not streams,
/// not m_axi: a bus port, not a RAM) and its local arrays, with their pragmas.
pub(super) fn arrays_of(function_body: Node, params: &[super::Param], text: &str) -> Vec<ArrayDecl> {
    use super::types::ParamKind;
    let mut out: Vec<ArrayDecl> = params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Pointer | ParamKind::Array))
        .filter(|p| !p.interface.as_deref().is_some_and(|i| i.eq_ignore_ascii_case("m_axi")))
        .map(|p| ArrayDecl { name: p.name.clone(), dims: p.dims.clone(), param: true, ..ArrayDecl::default() })
        .collect();
    let mut todo = vec![function_body];
    while let Some(n) = todo.pop() {
        if kind(n) == "declaration" {
            for d in n.children_by_field_name("declarator", &mut n.walk()) {
                let d = if kind(d) == "init_declarator" { field(d, "declarator").unwrap_or(d) } else { d };
                if kind(d) != "array_declarator" {
                    continue;
                }
                let mut dims = Vec::new();
                let mut x = Some(d);
                while let Some(a) = x.filter(|a| kind(*a) == "array_declarator") {
                    dims.push(field(a, "size").map(|s| text[s.byte_range()].trim().to_string()).unwrap_or_default());
                    x = field(a, "declarator");
                }
                dims.reverse();
                if let Some(name) = x.filter(|i| kind(*i) == "identifier").map(|i| text[i.byte_range()].to_string()) {
                    out.retain(|a| a.name != name);
                    out.push(ArrayDecl { name, dims, ..ArrayDecl::default() });
                }
            }
        }
        if !matches!(kind(n), "lambda_expression" | "class_specifier" | "struct_specifier") {
            todo.extend(named_children(n));
        }
    }
    for line in text[function_body.byte_range()].lines() {
        // Only a directive line can matter: skip the others before lowering their case.
        if !line.trim_start().starts_with('#') {
            continue;
        }
        let l = line.trim_start().to_ascii_lowercase();
        if !(l.starts_with('#') && l.contains("pragma")) {
            continue;
        }
        let compact: String = l
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .replace(" = ", "=")
            .replace("= ", "=")
            .replace(" =", "=");
        let words: Vec<&str> = compact.split_whitespace().collect();
        let opt = |k: &str| words.iter().find_map(|w| w.strip_prefix(k));
        let Some(var) = opt("variable=").or_else(|| opt("port=")) else { continue };
        let Some(a) = out.iter_mut().find(|a| a.name.to_ascii_lowercase() == var) else { continue };
        if words.contains(&"array_partition") {
            if let Some(p) = partition(&words) {
                a.partitions.push(p);
            }
        } else if words.contains(&"array_reshape") {
            if let Some(p) = partition(&words) {
                a.reshapes.push(p);
            }
        } else if let Some(core) = opt("core=").or_else(|| opt("type=")).or_else(|| opt("storage_type=")) {
            if let Some(ports) = storage_ports(core) {
                a.ports = Some(ports);
            }
        }
    }
    out
}

/// The partition of an `array_partition` pragma's words (lower case): `complete`, `block` or
/// `cyclic` (bare or as `type=`), `factor=`, `dim=` (1 when not given).
pub fn partition(words: &[&str]) -> Option<Partition> {
    let opt = |k: &str| words.iter().find_map(|w| w.strip_prefix(k));
    let kind = ["complete", "block", "cyclic"]
        .into_iter()
        .find(|k| words.contains(k) || opt("type=") == Some(*k) || opt("-type=") == Some(*k))
        .unwrap_or("complete");
    let factor = opt("factor=").and_then(|f| f.parse().ok());
    if kind != "complete" && factor.is_none() {
        return None;
    }
    let dim = opt("dim=").and_then(|d| d.parse().ok()).unwrap_or(1);
    Some(Partition { kind: kind.to_string(), factor, dim })
}

/// The ports of a storage core or type (`RAM_1P_BRAM`, `ram_1p`, `RAM_2P`, `ROM_1P`): 1 for a
/// single-port one, 2 for the others of a RAM or ROM; none for a name that is neither.
pub fn storage_ports(core: &str) -> Option<u32> {
    let c = core.to_ascii_lowercase();
    if !(c.starts_with("ram") || c.starts_with("rom")) {
        return None;
    }
    Some(if c.contains("_1p") || c == "ram" || c == "rom" { 1 } else { 2 })
}

/// The start byte of the statement or declaration that holds `n`.
fn statement_of(n: Node) -> usize {
    let mut at = n;
    while !matches!(kind(at), "expression_statement" | "declaration" | "return_statement") {
        match at.parent() {
            Some(p) => at = p,
            None => break,
        }
    }
    at.start_byte()
}

/// Evaluates the accesses of `m` with the constants of the sources (loop bounds, index
/// expressions, dimensions), the loops inside unrolled; leaves `resolved` empty when a loop
/// inside has no constant range or there are too many accesses.
pub fn resolve(m: &mut LoopMemory, consts: &super::consts::Constants) {
    m.resolved.clear();
    m.per_iteration.clear();
    let value = |e: &str| consts.eval(e).ok().and_then(|v| i64::try_from(v).ok());
    // Ranges of the loops around (by name); values of the loops inside.
    let mut ranges: Vec<(String, Option<(i64, i64)>)> = Vec::new();
    let mut inner_values: Vec<(String, Vec<i64>)> = Vec::new();
    // A manifest is read back from disk: a step of 0 or of `i64::MIN`, or bounds far apart, must
    // not divide by zero or overflow.
    let stride = |v: &LoopVar| i64::try_from(v.step.unsigned_abs()).unwrap_or(i64::MAX).max(1);
    let count = |v: &LoopVar, lo: i64, hi: i64| (hi.saturating_sub(lo) / stride(v)).saturating_add(1);
    let values_of = |v: &LoopVar, lo: i64, hi: i64| -> Vec<i64> {
        let step = stride(v);
        (0..count(v, lo, hi)).map(|k| if v.step > 0 { lo + k * step } else { hi - k * step }).collect()
    };
    let mut around_values: Vec<(String, Vec<i64>)> = Vec::new();
    let mut around_known = true;
    for v in &m.vars {
        let range = value(&v.lo).zip(value(&v.hi)).filter(|(lo, hi)| lo <= hi);
        if !v.inner {
            ranges.push((v.name.clone(), range));
            match range {
                Some((lo, hi)) if count(v, lo, hi) <= MAX_ITERATIONS as i64 => {
                    around_values.push((v.name.clone(), values_of(v, lo, hi)))
                }
                _ => around_known = false,
            }
            continue;
        }
        let Some((lo, hi)) = range else { return };
        if count(v, lo, hi) > MAX_UNROLLED as i64 {
            return;
        }
        inner_values.push((v.name.clone(), values_of(v, lo, hi)));
    }
    let Some(out) = resolve_with(m, &[], &ranges, &inner_values, consts) else { return };
    m.resolved = out;
    // Each iteration apart, when the loops around have few values together.
    let mut iterations: Vec<Vec<(String, i64)>> = vec![Vec::new()];
    for (name, values) in around_values.iter().filter(|_| around_known) {
        iterations = iterations
            .into_iter()
            .flat_map(|c| values.iter().map(move |v| [c.clone(), vec![(name.clone(), *v)]].concat()))
            .collect();
        if iterations.len() > MAX_ITERATIONS {
            return;
        }
    }
    // The accesses of every iteration apart stay within the bound of one iteration unrolled.
    let per_iteration: usize = m.resolved.iter().map(|r| r.accesses.len()).sum();
    if !around_known || around_values.is_empty() || per_iteration * iterations.len() > MAX_UNROLLED * 4 {
        return;
    }
    let per: Option<Vec<Vec<ResolvedArray>>> =
        iterations.iter().map(|at| resolve_with(m, at, &ranges, &inner_values, consts)).collect();
    m.per_iteration = per.unwrap_or_default();
}

/// Iterations of the loops around a body resolved one by one ([`LoopMemory::per_iteration`]).
const MAX_ITERATIONS: usize = 64;

/// The accesses of `m` resolved with the loops around at `at` (the others over their ranges)
/// and the loops inside at each of their values; `None` when there are too many.
fn resolve_with(
    m: &LoopMemory,
    at: &[(String, i64)],
    ranges: &[(String, Option<(i64, i64)>)],
    inner_values: &[(String, Vec<i64>)],
    consts: &super::consts::Constants,
) -> Option<Vec<ResolvedArray>> {
    let value = |e: &str| consts.eval(e).ok().and_then(|v| i64::try_from(v).ok());
    let mut out: Vec<ResolvedArray> = m
        .arrays
        .iter()
        .map(|a| ResolvedArray {
            array: a.name.clone(),
            sizes: a.dims.iter().map(|d| value(d).and_then(|v| u64::try_from(v).ok())).collect(),
            accesses: Vec::new(),
        })
        .collect();
    let mut total = 0usize;
    let mut seen = std::collections::HashSet::new();
    for a in &m.accesses {
        // Every combination of the values of the loops inside around it.
        let loops: Vec<&(String, Vec<i64>)> =
            a.inner.iter().filter_map(|n| inner_values.iter().find(|(v, _)| v == n)).collect();
        let mut combos: Vec<Vec<(String, i64)>> = vec![at.to_vec()];
        for (name, values) in loops {
            combos = combos
                .into_iter()
                .flat_map(|c| values.iter().map(move |v| [c.clone(), vec![(name.clone(), *v)]].concat()))
                .collect();
            if combos.len() > MAX_UNROLLED {
                return None;
            }
        }
        for fixed in combos {
            total += 1;
            if total > MAX_UNROLLED {
                return None;
            }
            // A read of the same element twice in an iteration is one load, and stores to one
            // element are one store (the last; the value stays in a register between them):
            // `tmp[i][j] += a[i][k] * b[k][j]` unrolled over `k` reads and writes `tmp[i][j]`
            // once, as the public 2022.2 `kernel_2mm` pipelines its i-j nest at II 5, its ten
            // reads of each of `A` and `B` on two ports (the model said 11 with the 21 accesses of
            // `tmp`). The same element: the same index text, the values of the loops inside that
            // it names the same.
            let named: Vec<(String, i64)> =
                fixed.iter().filter(|(n, _)| a.index.iter().any(|e| names_identifier(e, n))).cloned().collect();
            if !seen.insert((a.write, a.array.clone(), a.index.clone(), named)) {
                continue;
            }
            let index: Vec<Option<(i64, i64)>> =
                a.index.iter().map(|e| index_range(e, &fixed, ranges, consts)).collect();
            if let Some(r) = out.iter_mut().find(|r| r.array == a.array) {
                r.accesses.push(index);
            }
        }
    }
    Some(out)
}

/// Whether expression `e` names the identifier `name`.
fn names_identifier(e: &str, name: &str) -> bool {
    e.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name)
}

/// The range of an index expression: the loops inside at their values, the loops around over
/// their ranges (taken at the corners: the expressions kept are sums and products of them),
/// the constants of the sources. `None` when it has another name or another operator.
fn index_range(
    expr: &str,
    fixed: &[(String, i64)],
    ranges: &[(String, Option<(i64, i64)>)],
    consts: &super::consts::Constants,
) -> Option<(i64, i64)> {
    if !expr.chars().all(|c| c.is_alphanumeric() || " _+-*()".contains(c)) {
        return None;
    }
    let names = identifiers(expr);
    let ranged: Vec<(&str, (i64, i64))> = ranges
        .iter()
        .filter(|(n, _)| names.contains(&n.as_str()) && !fixed.iter().any(|(f, _)| f == n))
        .map(|(n, r)| r.map(|r| (n.as_str(), r)))
        .collect::<Option<Vec<_>>>()?;
    if ranged.len() > 4 {
        return None;
    }
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for corner in 0..(1u32 << ranged.len()) {
        let mut values: Vec<(&str, i64)> = fixed.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        for (k, (n, (a, b))) in ranged.iter().enumerate() {
            values.push((n, if corner & (1 << k) == 0 { *a } else { *b }));
        }
        let v = consts.eval(&substitute(expr, &values)).ok().and_then(|v| i64::try_from(v).ok())?;
        lo = lo.min(v);
        hi = hi.max(v);
    }
    Some((lo, hi))
}

fn identifiers(expr: &str) -> Vec<&str> {
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| w.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_'))
        .collect()
}

/// `expr` with each name of `values` replaced by its value in parentheses.
fn substitute(expr: &str, values: &[(&str, i64)]) -> String {
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match values.iter().find(|(n, _)| *n == word.as_str()) {
            Some((_, v)) => out.push_str(&format!("({v})")),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in expr.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// The initiation interval the memory ports of `m` allow (1 when none holds it back), with the
/// array and bank that set it: per array, each access counted against every bank its index
/// ranges can reach; a bank serves `ports` accesses a state (2 unless its storage says).
/// Only parameters `keep` accepts are counted (memories of the interface or of a caller, which
/// Vitis does not repartition), not local arrays: Vitis partitions those further as a pipeline
/// needs (the 2022.2 systolic fixture writes 8 elements of one bank of its `localA`, `complete
/// dim=1`, an iteration at II 1). Arrays `complete` on every dimension are registers.
pub fn port_ii(m: &LoopMemory, keep: impl Fn(&ArrayDecl) -> bool) -> Option<(u64, String)> {
    port_states(m, |a| a.param && keep(a))
}

/// The states the accesses of one iteration of `m` take on the busiest bank of the arrays
/// `keep` accepts, local arrays included (as [`port_ii`] counts them; more than 1 only).
pub fn port_states(m: &LoopMemory, keep: impl Fn(&ArrayDecl) -> bool) -> Option<(u64, String)> {
    // The busiest iteration where each is known apart, else all iterations' banks at once.
    let sets: Vec<&[ResolvedArray]> = if m.per_iteration.is_empty() {
        vec![&m.resolved]
    } else {
        m.per_iteration.iter().map(Vec::as_slice).collect()
    };
    let mut best: Option<(u64, String)> = None;
    for set in sets {
        if let Some((ii, why)) = states_of(m, set, &keep) {
            if best.as_ref().is_none_or(|(b, _)| ii > *b) {
                best = Some((ii, why));
            }
        }
    }
    best.filter(|(ii, _)| *ii > 1)
}

/// [`port_states`] of one set of resolved accesses (any count).
fn states_of(m: &LoopMemory, resolved: &[ResolvedArray], keep: &impl Fn(&ArrayDecl) -> bool) -> Option<(u64, String)> {
    let mut best: Option<(u64, String)> = None;
    for r in resolved {
        let Some(decl) = m.arrays.iter().find(|a| a.name == r.array) else { continue };
        if !keep(decl) {
            continue;
        }
        if registers(decl, r.sizes.len()) {
            continue;
        }
        // Per partitioned dimension: how its indices fall into banks.
        let split: Option<Vec<Split>> = decl.partitions.iter().map(|p| Split::of(p, &r.sizes)).collect();
        let Some(split) = split else { continue };
        let mut counts: std::collections::HashMap<Vec<u64>, u64> = Default::default();
        for access in &r.accesses {
            // The banks it may reach on each partitioned dimension.
            let mut banks: Vec<Vec<u64>> = vec![Vec::new()];
            for d in &split {
                let reach = d.reach(access.get(d.dim).copied().flatten());
                banks =
                    banks.into_iter().flat_map(|b| reach.iter().map(move |x| [b.clone(), vec![*x]].concat())).collect();
            }
            for b in banks {
                *counts.entry(b).or_default() += 1;
            }
        }
        let ports = u64::from(decl.ports.unwrap_or(2).max(1));
        let words = reshape_words(decl, &r.sizes);
        if let Some((bank, k)) = counts.into_iter().max_by_key(|(b, k)| (*k, std::cmp::Reverse(b.clone()))) {
            // A reshaped memory serves the elements of one word in one access (UG1399 "pragma
            // HLS array_reshape": the elements are joined into wider words): `k` accesses of
            // elements take at least `k / words` accesses of words, the bound taken here (the
            // accesses of one iteration are taken to fall on as few words as they can, as the
            // unrolled copies of `a[i + j]` over a word's `j` do).
            let k = k.div_ceil(words);
            let ii = k.div_ceil(ports);
            if best.as_ref().is_none_or(|(b, _)| ii > *b) {
                let bank = if split.is_empty() {
                    String::new()
                } else {
                    format!(" bank {}", bank.iter().map(u64::to_string).collect::<Vec<_>>().join(","))
                };
                let why = format!("{}{bank}: {k} accesses, {ports} port{}", r.array, if ports == 1 { "" } else { "s" });
                best = Some((ii, why));
            }
        }
    }
    best
}

/// An array partitioned `complete` on every one of its `ndims` dimensions (`dim=0`, or a
/// `complete` partition of each dimension: `dim=1` of a one-dimensional array) is registers
/// (UG1399 "pragma HLS array_partition": complete decomposes the array into individual
/// elements), with no ports to wait for whatever its indices: the public Vitis 2020.2 `aaa`
/// pipelines `r[i] = ...; r[i+2] = r[i+1] + r[i] + 1` over a `complete dim=1` argument at II 1.
fn registers(decl: &ArrayDecl, ndims: usize) -> bool {
    let complete = |dim: u32| decl.partitions.iter().any(|p| p.dim == dim && p.kind == "complete");
    complete(0) || (1..=ndims.max(1) as u32).all(complete)
}

/// Elements one word of the array's memory holds by `ARRAY_RESHAPE` (its own pragmas, or a
/// caller's): a `cyclic`/`block` factor, a `complete` dimension's size (every dimension's for
/// `dim=0`), multiplied over the reshaped dimensions; 1 when none is or a size is not known.
pub fn reshape_words(decl: &ArrayDecl, sizes: &[Option<u64>]) -> u64 {
    let mut words = 1u64;
    for p in &decl.reshapes {
        words = words.saturating_mul(p.reshape_words(Some(sizes)).unwrap_or(1).max(1));
    }
    words.max(decl.caller_words.unwrap_or(1))
}

/// How one partitioned dimension's indices fall into banks.
struct Split {
    /// The dimension (0: the outermost).
    dim: usize,
    /// Banks it makes.
    banks: u64,
    /// `block`: indices a bank holds; `None` for `cyclic` (index modulo banks) and `complete`.
    per_bank: Option<u64>,
}

impl Split {
    /// The split a partition makes of an array of these dimension sizes; `None` when a size it
    /// needs is not known.
    fn of(p: &Partition, sizes: &[Option<u64>]) -> Option<Split> {
        let dim = (p.dim as usize).saturating_sub(1);
        let size = sizes.get(dim).copied().flatten();
        let factor = p.factor.filter(|&f| f > 0);
        match p.kind.as_str() {
            "complete" => Some(Split { dim, banks: size?.max(1), per_bank: None }),
            "cyclic" => Some(Split { dim, banks: factor?, per_bank: None }),
            _ => Some(Split { dim, banks: factor?, per_bank: Some(size?.div_ceil(factor?).max(1)) }),
        }
    }

    /// The banks indices of `range` can reach (every bank for an unknown range).
    fn reach(&self, range: Option<(i64, i64)>) -> Vec<u64> {
        let all = || (0..self.banks).collect();
        let Some((lo, hi)) = range else { return all() };
        let (lo, hi) = (lo.max(0) as u64, hi.max(0) as u64);
        match self.per_bank {
            Some(per) => ((lo / per).min(self.banks - 1)..=(hi / per).min(self.banks - 1)).collect(),
            None if hi - lo + 1 >= self.banks => all(),
            None => {
                let mut b: Vec<u64> = (lo..=hi).map(|i| i % self.banks).collect();
                b.sort_unstable();
                b.dedup();
                b
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory_of(src: &str, consts: &str, loop_index: usize) -> LoopMemory {
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        let mut mem = m.functions[0].loops[loop_index].details.as_ref().unwrap().facts.memory.clone().unwrap();
        resolve(&mut mem, &crate::model::consts::Constants::scan([consts, src]));
        *mem
    }

    /// The `matrixmul_5b` pattern: one single-port array of 12 rows in 5 blocks of 3; an
    /// iteration reads a row of A (rows 0–3: banks 0 and 1, the row not known), two rows of B
    /// (constant rows 4, 5 in bank 1; 6, 7 in bank 2) and writes a row of C: bank 1 sees 6.
    #[test]
    fn accesses_per_bank_set_the_ii() {
        let src = "void mm(int a[3*DIM][DIM]) {\n#pragma HLS RESOURCE variable=a core=RAM_1P_BRAM\n\
                   #pragma HLS ARRAY_PARTITION variable=a block factor=5 dim=1\n  int r[DIM]; int tmp = 0;\n  \
                   for (int i = 0; i < DIM; i++) {\n    for (int j = 0; j < DIM; j++) {\n#pragma HLS PIPELINE\n      \
                   tmp = 0;\n      for (int k = 0; k < DIM; k++) r[k] = a[i][k];\n      \
                   for (int k = 0; k < DIM; k++) tmp += r[k] * a[k + DIM][j];\n      a[i + 2 * DIM][j] = tmp;\n    }\n  }\n}\n";
        let mem = memory_of(src, "#define DIM 4\n", 1);
        assert_eq!(mem.arrays[0].ports, Some(1));
        assert_eq!(mem.arrays[0].partitions, [Partition { kind: "block".into(), factor: Some(5), dim: 1 }]);
        let a = &mem.resolved[0];
        assert_eq!(a.sizes, [Some(12), Some(4)]);
        assert_eq!(a.accesses.len(), 9);
        assert_eq!(a.accesses[0], [Some((0, 3)), Some((0, 0))]);
        assert_eq!(port_ii(&mem, |_| true), Some((6, "a bank 1: 6 accesses, 1 port".into())));
        // Without the partition: 9 accesses of one single-port memory.
        let unsplit = src.replace("#pragma HLS ARRAY_PARTITION variable=a block factor=5 dim=1\n", "");
        assert_eq!(port_ii(&memory_of(&unsplit, "#define DIM 4\n", 1), |_| true).map(|x| x.0), Some(9));
        // Dual-port (no storage pragma): ceil(9 / 2).
        let dual = unsplit.replace("#pragma HLS RESOURCE variable=a core=RAM_1P_BRAM\n", "");
        assert_eq!(port_ii(&memory_of(&dual, "#define DIM 4\n", 1), |_| true).map(|x| x.0), Some(5));
        // Cyclic by 4 on the second dimension: the row of A (k = 0..3) one access a bank; the
        // four rows of B and the row of C on column j (0..3): any bank, 1 + 4 + 1.
        let cyclic = src.replace("block factor=5 dim=1", "cyclic factor=4 dim=2");
        assert_eq!(port_ii(&memory_of(&cyclic, "#define DIM 4\n", 1), |_| true).map(|x| x.0), Some(6));
    }

    #[test]
    fn one_access_an_array_or_registers_set_nothing() {
        let src = "void k(int *x, int *y, int n) {\n  for (int i = 0; i < n; i++) {\n    y[i] = x[i] + 1;\n  }\n}\n";
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        assert_eq!(m.functions[0].loops[0].details.as_ref().unwrap().facts.memory, None);
        let regs = "void k(int x[4], int *y) {\n#pragma HLS array_partition variable=x complete dim=0\n  \
                    for (int i = 0; i < 8; i++) {\n    y[i] = x[0] + x[1] + x[2] + x[3];\n  }\n}\n";
        assert_eq!(port_ii(&memory_of(regs, "", 0), |_| true), None);
        let ported = regs.replace("#pragma HLS array_partition variable=x complete dim=0\n", "");
        assert_eq!(port_ii(&memory_of(&ported, "", 0), |_| true).map(|x| x.0), Some(2));
        // `complete dim=1` of a one-dimensional array is registers too; of a two-dimensional
        // one, rows of memory (each index of its first dimension a memory of its own).
        let dim1 = regs.replace("complete dim=0", "complete dim=1");
        assert_eq!(port_ii(&memory_of(&dim1, "", 0), |_| true), None);
        let rows = "void k(int x[4][4], int *y) {\n#pragma HLS array_partition variable=x complete dim=1\n  \
                    for (int i = 0; i < 8; i++) {\n    y[i] = x[0][0] + x[0][1] + x[0][2] + x[0][3];\n  }\n}\n";
        assert_eq!(port_ii(&memory_of(rows, "", 0), |_| true).map(|x| x.0), Some(2));
    }

    /// A sliding window over rows split into banks (`complete dim=1`): an iteration of the
    /// pipelined row loop reads rows `i`, `i + 1`, `i + 2`, 24 elements of each; every row `i`
    /// can reach over the loop gets 72 only when the iterations are taken together. The public
    /// Vivado HLS 2018.3 `matrix_conv` (`set_directive_array_partition`) pipelines it at II 12.
    #[test]
    fn banks_are_counted_an_iteration_at_a_time() {
        let src = "void conv(char a[10][10], char b[3][3], short r[8][8]) {\n\
                   #pragma HLS ARRAY_PARTITION variable=a complete dim=1\n\
                   \x20 for (int i = 0; i < 8; i++) {\n#pragma HLS PIPELINE\n\
                   \x20   for (int j = 0; j < 8; j++) {\n      short s = 0;\n\
                   \x20     for (int m = 0; m < 3; m++) {\n        for (int n = 0; n < 3; n++) {\n\
                   \x20         s += a[i + m][j + n] * b[m][n];\n        }\n      }\n      r[i][j] = s;\n    }\n  }\n}\n";
        let mut mem = memory_of(src, "", 0);
        assert_eq!(mem.per_iteration.len(), 8);
        let a_only = |d: &ArrayDecl| d.name == "a";
        assert_eq!(port_states(&mem, a_only).map(|x| x.0), Some(12));
        // Taken together (the loops around not known one by one): 72 accesses a bank.
        mem.per_iteration.clear();
        assert_eq!(port_states(&mem, a_only).map(|x| x.0), Some(36));
    }

    /// A manifest read back may hold any step or bounds: resolving never panics.
    #[test]
    fn hostile_steps_and_bounds_do_not_panic() {
        let consts = crate::model::consts::Constants::scan([""]);
        for (step, lo, hi) in [(0, "0", "7"), (i64::MIN, "0", "7"), (1, "-9223372036854775808", "9223372036854775807")]
        {
            for inner in [false, true] {
                let var = LoopVar { name: "i".into(), lo: lo.into(), hi: hi.into(), step, inner };
                let mut m = LoopMemory {
                    vars: vec![var],
                    arrays: vec![ArrayDecl { name: "a".into(), dims: vec!["8".into()], ..Default::default() }],
                    accesses: vec![ArrayAccess {
                        array: "a".into(),
                        index: vec!["i".into()],
                        write: false,
                        inner: if inner { vec!["i".into()] } else { Vec::new() },
                    }],
                    ..Default::default()
                };
                resolve(&mut m, &consts);
            }
        }
    }

    #[test]
    fn a_store_then_the_same_element_again_is_one_store_and_no_load() {
        let accesses = |body: &str| {
            let src = format!(
                "void k(long s[16], const int t[48], int x) {{\n  for (int j = 0; j < 48; j++) {{ {body} }}\n}}\n"
            );
            let mem = memory_of(&src, "", 0);
            mem.accesses
                .iter()
                .map(|a| format!("{}{}{}", if a.write { "w " } else { "r " }, a.array, a.index.join(",")))
                .collect::<Vec<_>>()
        };
        // `des_dec`'s key loop: a read of `s[x]`, the shifted value kept, one store.
        assert_eq!(accesses("s[x] <<= 1; s[x] |= t[j] & 1;"), ["r sx", "w sx", "r tj"]);
        // A statement reads its right side before it stores: both stay.
        assert_eq!(accesses("s[j] = s[j] + 1; s[x] = 0;"), ["w sj", "r sj", "w sx"]);
        // Another element of the array in between may be the same one: nothing is merged.
        assert_eq!(accesses("s[x] = 1; s[j] = 2; s[x] = s[x] + 3;"), ["w sx", "w sj", "w sx", "r sx"]);
    }

    #[test]
    fn loop_headers_and_substitution() {
        assert_eq!(substitute("i + 2*DIM - ii", &[("i", 3)]), "(3) + 2*DIM - ii");
        let src = "void k(int a[16]) {\n  for (int i = 15; i >= 0; i -= 2) { a[i] = a[i] + 1; }\n}\n";
        let mem = memory_of(src, "", 0);
        assert_eq!((mem.vars[0].lo.as_str(), mem.vars[0].hi.as_str(), mem.vars[0].step), ("0", "15", -2));
        assert_eq!(mem.resolved[0].accesses, [vec![Some((0, 15))], vec![Some((0, 15))]]);
    }
}
