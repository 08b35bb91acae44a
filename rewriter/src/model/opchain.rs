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
    // An operation typed by its operands (`mul@double`): that type, not the step's.
    if let Some((base, t)) = op.split_once('@').filter(|(b, _)| *b != "cmp") {
        return op_latency(base, t);
    }
    // A division by a name the sources may define (`div=N`) that no constant resolved: a divider.
    if let Some((base, _)) = op.split_once('=') {
        return op_latency(base, ty);
    }
    match (ty, op) {
        // An integer operand converted for floating arithmetic (`sitofp`, `sitodp`): 2 at 10 ns,
        // what three public designs agree on within a cycle (docs/cycle-model.md).
        (_, "itof") => 2,
        ("float", "add" | "sub") => 4,
        ("float", "mul") => 3,
        ("float", "div" | "divc" | "sqrt") => 15,
        ("double", "add" | "sub") => 5,
        ("double", "mul") => 6,
        ("double", "div" | "divc" | "sqrt") => 30,
        ("float" | "double", "mulw" | "mulc") => op_latency("mul", ty),
        // A divisor that is a literal is a shift or a multiply: no divider.
        ("int", "div") => 35,
        // An integer multiply of 32 bits or more: a DSP cascade with one register stage.
        ("int", "mulw") => 1,
        // A read of an array held in block RAM (or an `ap_memory` port): the address goes out
        // in one state, the data comes back in the next (RAM latency 1).
        (_, "load") => 1,
        // A float or double compare (fcmp, dcmp); one against a double literal also widens a
        // float operand first (fpext, 1).
        ("float" | "double", "cmp") | (_, "fcmp" | "cmp@float" | "cmp@double") => 1,
        (_, "dcmp") => 2,
        _ => 0,
    }
}

/// The chain steps of a loop body: see the module comment.
pub(super) fn chain_steps(body: Node, decls: &super::decls::Decls) -> Vec<ChainStep> {
    steps(body, decls, Walk { enter_loops: false, locals_in_registers: false })
}

/// How a body is walked for its chain.
#[derive(Clone, Copy)]
pub(super) struct Walk {
    /// Nested loops are part of it (unrolled into a function's pipeline: each body once, in
    /// source order); a loop body's own chain leaves them to their own probes.
    pub enter_loops: bool,
    /// The function's local arrays are registers, not memories (Vitis partitions them in a
    /// pipeline, `model::fnbody`); its pointer and array parameters stay memories.
    pub locals_in_registers: bool,
}

/// The chain steps of `body` (a loop body or a whole function body), walked as `walk` says.
pub(super) fn steps(body: Node, decls: &super::decls::Decls, walk: Walk) -> Vec<ChainStep> {
    let (params, text, types) = (decls.params, decls.text, decls.types());
    let params_only;
    let memories = if walk.locals_in_registers {
        params_only = decls.memories().iter().filter(|m| params.iter().any(|p| &p.name == *m)).cloned().collect();
        &params_only
    } else {
        decls.memories()
    };
    let cx = Cx { text, memories, types };
    let mut steps = Vec::new();
    let mut last_def: HashMap<String, usize> = HashMap::new();
    let mut todo = vec![body];
    let mut order = Vec::new();
    // Statements in source order, not entering nested loops, lambdas or classes.
    while let Some(n) = todo.pop() {
        match kind(n) {
            // A nested loop is its own probe's, also when it is the whole body (`for (..) for
            // (..) s += ..;`, no braces: the public 2017.2 `convolve`'s loops).
            "for_statement" | "while_statement" | "do_statement" | "for_range_loop" if !walk.enter_loops => continue,
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
        for (target, mut ops, reads) in assignments(stmt, &cx) {
            let Some(ty) = types.get(&target).cloned() else { continue };
            if wide_integer(&ty) {
                ops.iter_mut().filter(|o| *o == "mul").for_each(|o| *o = "mulw".to_string());
            }
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
        let typed_cmp = s.ops.iter().any(|o| o.split_once('@').is_some_and(|(_, t)| !builtin_integer(t)));
        let free =
            builtin_integer(&s.ty) && s.ops.iter().all(|o| op_latency(o, "int") == 0) && !typed_cmp && deps.is_empty();
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
pub(super) fn builtin_integer(ty: &str) -> bool {
    let base = ty.split('<').next().unwrap_or(ty);
    matches!(
        base,
        "" | "int" | "long" | "short" | "char" | "bool" | "size_t" | "ap_int" | "ap_uint" | "ap_fixed" | "ap_ufixed"
    ) || (base.starts_with("int") || base.starts_with("uint")) && base.ends_with("_t")
}

/// Integer types of 32 bits or more whose name says so (a multiply of them takes a cycle).
pub(super) fn wide_integer(ty: &str) -> bool {
    matches!(ty, "int" | "long" | "size_t" | "int32_t" | "uint32_t" | "int64_t" | "uint64_t")
}

/// What the expressions of a body are read against: the source, and the names that are
/// memories (arrays and pointer parameters, not partitioned into registers).
pub(super) struct Cx<'a> {
    pub(super) text: &'a str,
    pub(super) memories: &'a std::collections::HashSet<String>,
    /// Declared base types of the parameters and locals, by name.
    pub(super) types: &'a HashMap<String, String>,
}

/// The arrays a function reads from memory: its pointer and array parameters and its local
/// arrays, less those an `ARRAY_PARTITION ... complete` turns into registers: on every
/// dimension (`dim=0`), or on its only one (`dim=1`, the default; UG1399 `ARRAY_PARTITION`). A
/// `complete dim=1` of a two-dimensional array leaves a memory per row, each still read
/// from memory (the public Vivado HLS 2018.1 `do_convolution`: its `line_buf[2][5]`, `complete
/// dim=1`, read then stored into registers in a pipeline of depth 2).
pub(super) fn memories(function_body: Node, params: &[super::Param], text: &str) -> std::collections::HashSet<String> {
    use super::types::ParamKind;
    let mut dims: HashMap<String, usize> = params
        .iter()
        .filter(|p| matches!(p.kind, ParamKind::Pointer | ParamKind::Array))
        .map(|p| (p.name.clone(), p.dims.len().max(1)))
        .collect();
    let mut todo = vec![function_body];
    while let Some(n) = todo.pop() {
        if kind(n) == "array_declarator" {
            if let Some(name) = super::body::innermost_identifier(n, text) {
                // The outermost declarator of a name is met first and counts every dimension.
                let mut depth = 0;
                let mut at = Some(n);
                while let Some(d) = at.filter(|d| kind(*d) == "array_declarator") {
                    depth += 1;
                    at = d.child_by_field_name("declarator");
                }
                dims.entry(name).or_insert(depth);
            }
        }
        todo.extend(named_children(n));
    }
    for line in text[function_body.byte_range()].lines() {
        // Lowering the case of every line of every function showed: a line that does not say
        // `pragma` in any case is skipped first, without a copy.
        if !line.as_bytes().windows(6).any(|w| w.eq_ignore_ascii_case(b"pragma")) {
            continue;
        }
        let l = line.to_ascii_lowercase();
        if !(l.contains("pragma") && l.contains("array_partition") && l.contains("complete")) {
            continue;
        }
        let compact: String = line.split_whitespace().collect::<Vec<_>>().join(" ").replace(" = ", "=");
        let word = |key: &str| compact.split_whitespace().find_map(|w| w.strip_prefix(key)).map(str::to_string);
        let dim = word("dim=").and_then(|d| d.parse::<usize>().ok()).unwrap_or(1);
        if let Some(v) = word("variable=") {
            if dim == 0 || dims.get(&v).is_none_or(|&n| n <= 1) {
                dims.remove(&v);
            }
        }
    }
    dims.into_keys().collect()
}

/// `(target, ops on the deepest path, names read)` of each assignment in a statement.
fn assignments(stmt: Node, cx: &Cx) -> Vec<(String, Vec<String>, Vec<String>)> {
    let text = cx.text;
    let mut out = Vec::new();
    if kind(stmt) == "declaration" {
        for d in stmt.children_by_field_name("declarator", &mut stmt.walk()) {
            if kind(d) != "init_declarator" {
                continue;
            }
            let (Some(name), Some(value)) = (super::body::innermost_identifier(d, text), field(d, "value")) else {
                continue;
            };
            out.push((name, deepest(value, cx, 0), reads(value, text)));
        }
        return out;
    }
    let Some(e) = stmt.named_child(0) else { return out };
    if kind(e) != "assignment_expression" {
        return out;
    }
    let (Some(left), Some(right)) = (field(e, "left"), field(e, "right")) else { return out };
    let Some(target) = base_name(left, text) else { return out };
    let mut ops = deepest(right, cx, 0);
    let op = e.child_by_field_name("operator").map(|o| text[o.byte_range()].to_string()).unwrap_or_default();
    let mut read = reads(right, text);
    if let Some(o) = binary_op(op.trim_end_matches('='), left, right, cx) {
        // `t[i] += x` reads the element before it adds.
        if is_memory_read(left, cx) {
            ops.insert(0, "load".to_string());
        }
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

/// The op a binary operator is, given its operands; none for single-cycle logic. A compare
/// takes the type of its operands, not of the step: `cmp@T` with `T` the declared type of the
/// variable its left operand reads (resolved with the step's type), else `cmp` (the step's
/// type); against a double literal (`x > 0.0`, C compares in double) `dcmp`.
pub(super) fn binary_op(op: &str, left: Node, right: Node, cx: &Cx) -> Option<String> {
    let text = cx.text;
    // Of two constants (`N / W`, `4 * 8`): folded by the compiler, no operation.
    if constant_expression(left, cx) && constant_expression(right, cx) {
        return None;
    }
    let literal = kind(right) == "number_literal";
    // `x + i` of an array or pointer `x`: address arithmetic, integer logic (`*(x + i)`).
    let pointer = |n: Node| kind(n) == "identifier" && cx.memories.contains(&text[n.byte_range()]);
    if matches!(op, "+" | "-") && (pointer(left) || pointer(right)) {
        return None;
    }
    // The declared type of the variable the left operand reads; not through a field (`s[i].f`
    // has the field's type, which is not known here).
    let declared = || {
        if has_field(left) {
            return None;
        }
        cx.types.get(&base_name(left, text)?).filter(|t| !t.is_empty())
    };
    let operand_type = || declared().map(|t| format!("cmp@{t}"));
    // Arithmetic is done in C's common type of its operands, whatever the step assigns to:
    // floating when either operand is (`n * 0.034` multiplies in double, so does `M_PI * m`;
    // `s += in[i] * k[i]` of `short`s and a `float` kernel multiplies and adds in float). A
    // typedef'd operand's name is kept for `sim` to resolve ([`operand_types`]).
    let floating = || {
        let mut types = operand_types(left, cx, 0);
        for t in operand_types(right, cx, 0) {
            if !types.contains(&t) {
                types.push(t);
            }
        }
        // Integer operands alone keep the op untyped (timed by the step); beside a floating or
        // typedef'd one they stay listed: `sim` converts them (`itof`).
        types.iter().any(|t| t != "int").then(|| types.join("|"))
    };
    let typed = |op: &str| Some(floating().map_or_else(|| op.to_string(), |t| format!("{op}@{t}")));
    match op {
        "+" => typed("add"),
        "-" => typed("sub"),
        // By a constant: shifts and adds, no multiplier.
        "*" if literal || kind(left) == "number_literal" => typed("mulc"),
        "*" => typed("mul"),
        "/" | "%" if literal || constant_names(right, cx) == Some(0) => typed("divc"),
        // By a name that is no variable of the function (a `#define` or a `const` of the
        // sources, resolved with the headers' constants by `sim`): `div=<divisor>`.
        "/" | "%" if floating().is_none() => {
            Some(constant_operand(right, cx).map_or_else(|| "div".to_string(), |e| format!("div={e}")))
        }
        "/" | "%" => typed("div"),
        "<" | ">" | "<=" | ">=" | "==" | "!=" => {
            let lit = &text[right.byte_range()];
            if literal && float_literal(lit) {
                let double = !lit.to_ascii_lowercase().ends_with('f');
                return Some(match operand_type() {
                    Some(t) if double && t == "cmp@double" => t,
                    _ if double => "dcmp".to_string(),
                    _ => "fcmp".to_string(),
                });
            }
            Some(operand_type().unwrap_or_else(|| "cmp".to_string()))
        }
        _ => None,
    }
}

/// The type names that may make an operand floating, as C types it: a variable's declared type
/// when it is not a built-in integer (a typedef is kept by name), a floating literal's
/// (`float` with an `f`, else `double`), math.h's double constants (`M_PI`), a cast's type, a
/// math function's result (`sin` double, `sinf` float), and those of both sides of arithmetic,
/// of `?:`'s arms, of a negation or parentheses; `int` for an integer variable or cast (not an
/// integer literal, which the compiler converts). Empty: nothing known.
fn operand_types(n: Node, cx: &Cx, depth: usize) -> Vec<String> {
    let text = cx.text;
    let mut out: Vec<String> = Vec::new();
    if depth > MAX_EXPR_DEPTH {
        return out;
    }
    let mut add = |t: String| {
        if !out.contains(&t) {
            out.push(t);
        }
    };
    match kind(n) {
        // A double literal that a float holds exactly (`0.5`) does not widen float arithmetic:
        // the compiler narrows `f * 0.5` back to float when the result is a float.
        "number_literal" => {
            let lit = text[n.byte_range()].to_ascii_lowercase();
            if float_literal(&lit) {
                let exact = lit.trim_end_matches(['f', 'l']).parse::<f64>().is_ok_and(|v| f64::from(v as f32) == v);
                add(if lit.ends_with('f') || exact { "float" } else { "double" }.to_string());
            }
        }
        // An array or pointer named alone is an address, not a value of its element type.
        "identifier" if cx.memories.contains(&text[n.byte_range()]) => {}
        "identifier" => {
            let name = &text[n.byte_range()];
            match cx.types.get(name) {
                Some(t) => type_name(t).into_iter().for_each(&mut add),
                None if name.starts_with("M_")
                    && name[2..].chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') =>
                {
                    add("double".to_string())
                }
                None => {}
            }
        }
        // An element's type is its array's (not through a field, whose type is not known here).
        "subscript_expression" | "pointer_expression" if !has_field(n) => {
            if let Some(t) = base_name(n, text).and_then(|b| cx.types.get(&b)) {
                type_name(t).into_iter().for_each(&mut add);
            }
        }
        "cast_expression" => {
            if let Some(t) = field(n, "type") {
                let t = text[t.byte_range()].split_whitespace().collect::<Vec<_>>().join(" ");
                if !t.contains('*') {
                    type_name(t.trim_start_matches("const ")).into_iter().for_each(&mut add);
                }
            }
        }
        "call_expression" => {
            let f = field(n, "function").map(|f| &text[f.byte_range()]).unwrap_or("");
            let name = f.rsplit("::").next().unwrap_or("");
            const MATH: &[&str] = &[
                "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "exp2", "log",
                "log2", "log10", "pow", "sqrt", "cbrt", "hypot", "fabs", "floor", "ceil", "round", "fmod",
            ];
            if MATH.contains(&name) {
                add("double".to_string());
            } else if name.strip_suffix('f').is_some_and(|b| MATH.contains(&b)) {
                add("float".to_string());
            }
        }
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| &text[o.byte_range()]).unwrap_or("");
            if matches!(op, "+" | "-" | "*" | "/" | "%") {
                for side in [field(n, "left"), field(n, "right")].into_iter().flatten() {
                    operand_types(side, cx, depth + 1).into_iter().for_each(&mut add);
                }
            }
        }
        "conditional_expression" => {
            for side in [field(n, "consequence"), field(n, "alternative")].into_iter().flatten() {
                operand_types(side, cx, depth + 1).into_iter().for_each(&mut add);
            }
        }
        "parenthesized_expression" | "unary_expression" => {
            if let Some(c) = n.named_child(n.named_child_count().saturating_sub(1)) {
                operand_types(c, cx, depth + 1).into_iter().for_each(&mut add);
            }
        }
        _ => {}
    }
    out
}

/// How [`operand_types`] lists a declared type: `int` for a built-in integer, a floating or
/// typedef'd type by its name; none when no type is known.
fn type_name(t: &str) -> Option<String> {
    match t {
        "" => None,
        t if builtin_integer(t) => Some("int".to_string()),
        t => Some(t.to_string()),
    }
}

/// The text of an operand made only of names that are no parameter or local of the function,
/// integer literals, parentheses and integer arithmetic (`N`, `(TILE / W)`): what may be a
/// constant of the sources. `None` for anything else (a variable, a call, a read).
fn constant_operand(n: Node, cx: &Cx) -> Option<String> {
    let names = constant_names(n, cx)?;
    (names > 0).then(|| cx.text[n.byte_range()].split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Whether an operand is made only of integer literals and names that are no parameter or
/// local of the function (see [`constant_operand`]).
fn constant_expression(n: Node, cx: &Cx) -> bool {
    constant_names(n, cx).is_some()
}

/// The names in an operand of integer literals, such names, parentheses and arithmetic; `None`
/// when it has anything else.
fn constant_names(n: Node, cx: &Cx) -> Option<usize> {
    let mut todo = vec![n];
    let mut names = 0;
    while let Some(x) = todo.pop() {
        match kind(x) {
            "identifier" if cx.types.contains_key(&cx.text[x.byte_range()]) => return None,
            "identifier" => names += 1,
            "number_literal" if !float_literal(&cx.text[x.byte_range()]) => {}
            "parenthesized_expression" | "binary_expression" => todo.extend(named_children(x)),
            _ => return None,
        }
    }
    Some(names)
}

/// Whether an lvalue goes through a field (`s.f`, `p->f`, `a[i].f`).
fn has_field(mut n: Node) -> bool {
    loop {
        match kind(n) {
            "field_expression" => return true,
            "subscript_expression" => match field(n, "argument") {
                Some(a) => n = a,
                None => return false,
            },
            "parenthesized_expression" | "pointer_expression" => {
                match n.named_child(n.named_child_count().saturating_sub(1)) {
                    Some(c) => n = c,
                    None => return false,
                }
            }
            _ => return false,
        }
    }
}

/// `0.0`, `1.5f`, `2e3`: a floating literal (not `0x1e`).
fn float_literal(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    !t.starts_with("0x") && (t.contains('.') || t.contains('e'))
}

/// `t[i]`, `t[i][j]`, `s[i].f` or `p->f` of a memory (an array not partitioned into registers).
pub(super) fn is_memory_read(n: Node, cx: &Cx) -> bool {
    let mut n = n;
    loop {
        match kind(n) {
            "subscript_expression" => {
                let Some(a) = field(n, "argument") else { return false };
                if kind(a) == "identifier" {
                    return cx.memories.contains(&cx.text[a.byte_range()]);
                }
                n = a;
            }
            "field_expression" => {
                let Some(a) = field(n, "argument") else { return false };
                let arrow = n.child_by_field_name("operator").is_some_and(|o| &cx.text[o.byte_range()] == "->");
                if arrow && kind(a) == "identifier" {
                    return cx.memories.contains(&cx.text[a.byte_range()]);
                }
                n = a;
            }
            "parenthesized_expression" => match n.named_child(0) {
                Some(c) => n = c,
                None => return false,
            },
            _ => return false,
        }
    }
}

/// Whether an expression reads memory anywhere.
fn reads_memory(n: Node, cx: &Cx) -> bool {
    let mut todo = vec![n];
    while let Some(n) = todo.pop() {
        if matches!(kind(n), "subscript_expression" | "field_expression") && is_memory_read(n, cx) {
            return true;
        }
        todo.extend(named_children(n));
    }
    false
}

/// The ops on the deepest path of an expression, weighted as float ops.
fn deepest(n: Node, cx: &Cx, depth: usize) -> Vec<String> {
    if depth > MAX_EXPR_DEPTH {
        return Vec::new();
    }
    let text = cx.text;
    let weight = |ops: &[String]| ops.iter().map(|o| path_weight(o)).sum::<u64>();
    let mut own = None;
    match kind(n) {
        "binary_expression" => {
            let op = n.child_by_field_name("operator").map(|o| text[o.byte_range()].to_string()).unwrap_or_default();
            let (l, r) = (field(n, "left"), field(n, "right"));
            // `c && t[i] > x`: the read happens only once `c` is known (a read cannot be
            // speculated past the branch C's short-circuit makes), so the two sides add up.
            if let (Some(l), Some(r)) = (l, r) {
                if matches!(op.as_str(), "&&" | "||") && reads_memory(r, cx) {
                    let mut path = deepest(l, cx, depth + 1);
                    path.extend(deepest(r, cx, depth + 1));
                    return path;
                }
            }
            if let (Some(l), Some(r)) = (l, r) {
                own = binary_op(&op, l, r, cx);
            }
        }
        "call_expression" => {
            let f = field(n, "function").map(|f| text[f.byte_range()].to_string()).unwrap_or_default();
            let name = f.rsplit("::").next().unwrap_or("");
            if matches!(name, "sqrt" | "sqrtf" | "hsqrt") {
                own = Some("sqrt".to_string());
            }
        }
        "lambda_expression" => return Vec::new(),
        // A memory read: the reads its address needs (`t[idx[i]]`), then its own. The address
        // arithmetic is not counted (integer, and not the value's type).
        "subscript_expression" | "field_expression" => {
            let mut path = address_reads(n, cx, depth + 1);
            if is_memory_read(n, cx) {
                path.push("load".to_string());
            }
            return path;
        }
        _ => {}
    }
    let mut best: Vec<String> = Vec::new();
    for c in named_children(n) {
        let p = deepest(c, cx, depth + 1);
        if weight(&p) > weight(&best) || (best.is_empty() && !p.is_empty()) {
            best = p;
        }
    }
    best.extend(own);
    best
}

/// The weight of an op when choosing an expression's deepest path (its type not yet resolved:
/// as if float; a compare typed by its operand as a float compare unless that is an integer).
pub(super) fn path_weight(o: &str) -> u64 {
    match o.strip_prefix("cmp@") {
        Some(t) if builtin_integer(t) => 0,
        Some(_) => 1,
        // Typed by names `sim` resolves (`mul@data_t|coef_t`): weighed as float.
        None => match o.split_once('@') {
            Some((base, t)) if !matches!(t, "float" | "double" | "int") => op_latency(base, "float"),
            _ => op_latency(o, "float"),
        },
    }
}

/// The dependent memory reads an access needs for its address (`t[idx[i]][j]`: one).
fn address_reads(n: Node, cx: &Cx, depth: usize) -> Vec<String> {
    if depth > MAX_EXPR_DEPTH {
        return Vec::new();
    }
    let mut most = 0;
    let mut n = n;
    loop {
        let index = match kind(n) {
            "subscript_expression" => field(n, "indices").or_else(|| field(n, "index")).or_else(|| n.named_child(1)),
            "field_expression" | "parenthesized_expression" => None,
            _ => break,
        };
        if let Some(i) = index {
            most = most.max(reads_in_sequence(i, cx, depth + 1));
        }
        match field(n, "argument").or_else(|| n.named_child(0)) {
            Some(a) => n = a,
            None => break,
        }
    }
    vec!["load".to_string(); most]
}

/// The longest sequence of dependent memory reads in an expression (`a[b[i]] + c[j]`: two).
fn reads_in_sequence(n: Node, cx: &Cx, depth: usize) -> usize {
    if depth > MAX_EXPR_DEPTH {
        return 0;
    }
    if matches!(kind(n), "subscript_expression" | "field_expression") {
        return address_reads(n, cx, depth + 1).len() + usize::from(is_memory_read(n, cx));
    }
    named_children(n).map(|c| reads_in_sequence(c, cx, depth + 1)).max().unwrap_or(0)
}

/// The identifiers an expression reads.
pub(super) fn reads(n: Node, text: &str) -> Vec<String> {
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

/// The declared base types of a function's parameters and locals, by name (a local's last
/// declaration wins, over a parameter too).
pub(super) fn declared_types(function_body: Node, params: &[super::Param], text: &str) -> HashMap<String, String> {
    let mut types: HashMap<String, String> = params.iter().map(|p| (p.name.clone(), base_type(&p.type_text))).collect();
    collect_declared(function_body, text, &mut types);
    types
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
    // `short int`, `long long int`, `unsigned char`: the size word names the type, not `int`.
    if words.last() == Some(&"int") {
        if let Some(size) = words.iter().find(|w| matches!(**w, "short" | "long" | "char")) {
            return size.to_string();
        }
    }
    let last = words.last().copied().unwrap_or("");
    last.rsplit("::").next().unwrap_or(last).to_string()
}

/// The `typedef T name;` and `using name = T;` of some texts (sources and headers), read in one
/// pass: name → the base type it aliases, the first definition winning.
pub struct Aliases(std::collections::HashMap<String, String>, std::collections::HashMap<String, String>);

impl Aliases {
    pub fn scan(texts: &[&str]) -> Aliases {
        let mut map = std::collections::HashMap::new();
        let mut written = std::collections::HashMap::new();
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
            // `typedef unsigned word;`: the qualifier is the whole type, an `int`.
            let base = match base_type(&aliased) {
                b if b.is_empty() && aliased.split_whitespace().any(|w| matches!(w, "unsigned" | "signed")) => {
                    "int".to_string()
                }
                b => b,
            };
            map.entry(name.to_string()).or_insert(base);
            written.entry(name.to_string()).or_insert(aliased.trim().to_string());
        }
        Aliases(map, written)
    }

    /// The type a chain of typedefs names, as its last typedef writes it (`typedef ap_uint<8>
    /// input_type;` → `ap_uint<8>`); `None` for a name no typedef of the texts gives.
    pub fn written(&self, name: &str) -> Option<&str> {
        let mut at = self.1.get(name)?;
        for _ in 0..8 {
            match self.1.get(at.as_str()) {
                Some(next) => at = next,
                None => break,
            }
        }
        Some(at.as_str())
    }

    /// Whether a type name is an integer of 32 bits or more once the aliases are followed
    /// (`typedef int data_t;`): a multiply of it is a DSP cascade, as of a plain `int`.
    pub fn wide_integer(&self, name: &str) -> bool {
        let mut name = name;
        for _ in 0..8 {
            if wide_integer(name) {
                return true;
            }
            let Some(next) = self.0.get(name) else { return false };
            name = next;
        }
        false
    }

    /// A step with its type names resolved to `float`, `double` or `int`. A step of a typedef'd
    /// wide integer multiplies as the integer it names (the walk only knew the built-in names:
    /// [`steps`]). A compare typed by its operand (`cmp@rate_type`) resolves the same way; so does
    /// an operation typed by its operands (`mul@time_t`), and one typed by several names
    /// (`mul@data_t|coef_t`) takes C's common type of them: double over float over an integer.
    /// One that resolves to an integer type is timed by the step's.
    pub fn resolve_step(&self, s: &mut ChainStep) {
        let wide_step = self.wide_integer(&s.ty);
        s.ty = self.resolve(&s.ty).to_string();
        let mut ops = Vec::with_capacity(s.ops.len());
        for o in std::mem::take(&mut s.ops) {
            let (base, names) = o.split_once('@').unwrap_or((o.as_str(), ""));
            let names: Vec<&str> = names.split('|').filter(|t| !t.is_empty()).collect();
            let resolved: Vec<&str> = names.iter().map(|t| self.resolve(t)).collect();
            let t = ["double", "float"].into_iter().find(|f| resolved.contains(f)).unwrap_or("int");
            // An integer multiply of a typedef'd wide integer (`data_t` of `int`) is a wide one;
            // the `int` of a built-in integer operand says nothing of its width (a counter).
            let wide =
                base == "mul" && t == "int" && (wide_step || names.iter().any(|n| *n != "int" && self.wide_integer(n)));
            if wide {
                ops.push("mulw".to_string());
            } else if names.is_empty() {
                ops.push(o);
            } else if base != "cmp" && t == "int" {
                ops.push(base.to_string());
            } else {
                // Floating arithmetic on an integer operand converts it first (C's usual
                // conversions: `sitofp`, `sitodp`).
                if base != "cmp" && resolved.contains(&"int") {
                    ops.push("itof".to_string());
                }
                ops.push(format!("{base}@{t}"));
            }
        }
        s.ops = ops;
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
    chain_cycles_at(steps, op_latency("mulw", "int"))
}

/// [`chain_cycles`] with an integer multiply of 32 bits or more (`mulw`) taking `wide_multiply`
/// cycles: its register stages depend on the clock (`sim::timing::wide_multiply_cycles`).
pub fn chain_cycles_at(steps: &[ChainStep], wide_multiply: u64) -> u64 {
    costed_chain(steps, wide_multiply, false)
}

/// [`chain_cycles_at`] for one iteration of a loop that is not pipelined, beyond its default
/// two states (the exit test's and the next). A path that opens with a read whose data only
/// feeds logic (integer add, sub, compare, shifts, selects, or a read it addresses) does not
/// pay for that read: its address is known when the iteration starts, so it goes out in the
/// exit test's state and its data comes in the second, where that logic still fits.
/// Vivado HLS 2019.1 (public `des_dec`: seven loops of `x |= (y >> (64 - T[i])) & 1` over
/// constant tables, iteration 2 each) and 2020.1 (public `FFT`: copy loops `b[i] = a[i]`
/// of iteration 2, a bit reversal `b[i] = a[r[i]]` of 3) schedule them so; so is a 32-bit
/// multiply of one register stage on the data, its first stage in the data's state (2017.4's
/// UG871 `fir`, `acc += data * c[i]` at 10 ns: iteration 3 = 2 + the multiply's 1). A
/// combinational multiply keeps the read's cycle: the data arrives ~3.3 ns into its state
/// (`RAM` core delay 3.25 ns on Artix-7), and Vivado HLS 2019.1's `multiply_matrices` puts
/// `acc += a[..] * b[..]` of 16-bit operands (multiply 3.69 ns, add 2.03 ns) in a third state:
/// iteration 3 (its `verbose.sched.rpt`); so does a multiply of several stages at a faster clock
/// (2019.2's `matrixmul` at 5 ns: 2 + the read + 5), and floating operations (not measured).
pub fn iteration_chain_cycles_at(steps: &[ChainStep], wide_multiply: u64) -> u64 {
    costed_chain(steps, wide_multiply, true)
}

/// Whether an operation is a multiplier (`mul`, `mulw`, typed `mul@double`); an integer
/// multiply by a literal (`mulc`) is shifts and adds.
fn multiplies(op: &str) -> bool {
    let base = op.split(['@', '=']).next().unwrap_or(op);
    matches!(base, "mul" | "mulw")
}

fn costed_chain(steps: &[ChainStep], wide_multiply: u64, first_read_in_iteration: bool) -> u64 {
    let latency = |o: &str, ty: &str| if o == "mulw" && ty == "int" { wide_multiply } else { op_latency(o, ty) };
    let mut cost: Vec<u64> = Vec::with_capacity(steps.len());
    for s in steps {
        let mut own: u64 = s.ops.iter().map(|o| latency(o, &s.ty)).sum();
        let opens_with_read = s.ops.first().is_some_and(|o| o == "load");
        // What the data state can hold after the read: logic, the next read's address, or the
        // first register stage of a wide integer multiply (one stage at 10 ns).
        let then_logic = s.ops.get(1).is_none_or(|o| {
            o == "load"
                || (!multiplies(o) && latency(o, &s.ty) == 0)
                || (o == "mulw" && s.ty == "int" && wide_multiply == 1)
        });
        if first_read_in_iteration && opens_with_read && then_logic {
            own -= 1;
        }
        // The reads that open the path (`a[i]` in `p + a[i]`) overlap the steps it waits for.
        let after_reads: u64 = s.ops.iter().skip_while(|o| *o == "load").map(|o| latency(o, &s.ty)).sum();
        let before = s.deps.iter().filter_map(|&d| cost.get(d)).max().copied().unwrap_or(0);
        cost.push(own.max(before + after_reads));
    }
    cost.into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typedefs_are_written_out_through_chains() {
        let a = Aliases::scan(&["typedef ap_uint<8> input_type;\ntypedef input_type in_t;\nusing wide = ap_int<40>;"]);
        assert_eq!(a.written("in_t"), Some("ap_uint<8>"));
        assert_eq!(a.written("wide"), Some("ap_int<40>"));
        assert_eq!(a.written("int"), None);
    }

    #[test]
    fn typedefs_resolve_through_chains() {
        let h = "typedef float coord;\ntypedef coord rate;\nusing big = double;";
        let a = Aliases::scan(&[h]);
        assert_eq!(a.resolve("rate"), "float");
        assert_eq!(a.resolve("big"), "double");
        assert_eq!(a.resolve("ap_uint"), "int");
        let w =
            Aliases::scan(&["typedef int word;\ntypedef word data_t;\ntypedef unsigned u32;\ntypedef short half_t;\n\
             typedef short int s16;\ntypedef unsigned short int u16;\ntypedef long int l64;"]);
        assert!(w.wide_integer("data_t") && w.wide_integer("u32") && w.wide_integer("int") && w.wide_integer("l64"));
        assert!(!w.wide_integer("half_t") && !w.wide_integer("coord") && !w.wide_integer("ap_uint"));
        assert!(!w.wide_integer("s16") && !w.wide_integer("u16"), "`short int` is a short");
    }

    /// The steps as the model finds them in a body: the deepest path of each expression, the
    /// dependences through assigned variables, memory reads, nested loops apart.
    #[test]
    fn steps_of_a_body() {
        let src = "typedef float T;\nvoid k(T *a, double *d, int *q, int n) {\n  for (int i = 0; i < n; i++) {\n    \
                   T x = a[i * 4 + 1] * a[i];\n    T y = (x + a[i]) + a[i] * a[i] * a[i];\n    int m = i * 3 + n;\n    q[i] = q[i] / m + i % 8;\n    \
                   for (int j = 0; j < n; j++) { d[j] = d[j] / 3.0; }\n    a[i] = sqrtf(y);\n  }\n}\n";
        let got = steps_of(src);
        assert_eq!(
            got,
            vec![
                ("T".into(), v(&["load", "mul@T"]), vec![]),
                // (x + a) weighs 5, a*a*a 7: the read and two multiplies, then the outer add.
                ("T".into(), v(&["load", "mul@T", "mul@T", "add@T"]), vec![0]),
                ("int".into(), v(&["load", "div", "add"]), vec![]),
                ("T".into(), v(&["sqrt"]), vec![1]),
            ]
        );
        // `int m = i * 3 + n` cannot cost a cycle: not kept.
        // Resolved: x 1 + 3; y waits for x (4) then mul, mul, add (10), its read overlapping:
        // 14; sqrt 15 after y: 29; the integer division's read and divider (36) are longer.
        let aliases = Aliases::scan(&[src]);
        let resolved: Vec<ChainStep> = steps_of_body(src)
            .into_iter()
            .map(|mut s| {
                aliases.resolve_step(&mut s);
                s
            })
            .collect();
        assert_eq!(chain_cycles(&resolved), 36);
        assert_eq!(chain_cycles(&resolved[..2]), 14);
        assert_eq!(chain_cycles(&[resolved[0].clone(), resolved[1].clone(), resolved[3].clone()]), 29);
    }

    /// Compares take their operands' type, a read behind `&&` waits for the test, a multiply by
    /// a literal is free and one of 32-bit integers takes a cycle, and an array partitioned into
    /// registers is not read from memory.
    #[test]
    fn compares_short_circuits_and_multiplies() {
        let src = "void k(const int *w, const float *v, const int *idx, float *o, int n) {\n  int reg[8];\n\
                   #pragma HLS ARRAY_PARTITION variable=reg complete\n  for (int i = 0; i < n; i++) {\n    \
                   float a = (w[i] > 0 && v[idx[i]] > 1.0f) ? v[i] : 0.0f;\n    bool b = v[i] > 0.0;\n    \
                   int c = w[i] * w[i] + 4 * i + reg[i & 7];\n    o[i] = a;\n  }\n}\n";
        assert_eq!(
            steps_of(src),
            vec![
                ("float".into(), v(&["load", "cmp@int", "load", "load", "fcmp"]), vec![]),
                // A float against a double literal: widened, then a double compare.
                ("bool".into(), v(&["load", "dcmp"]), vec![]),
                ("int".into(), v(&["load", "mulw", "add", "add"]), vec![]),
                ("float".into(), v(&[]), vec![0]),
            ]
        );
        let steps = steps_of_body(src);
        let cost: Vec<u64> = (1..=steps.len()).map(|k| chain_cycles(&steps[..k])).collect();
        // a: 1 + 0 + 1 + 1 + 1; b: 1 + 2; c: 1 + 1; o[i] = a: 4.
        assert_eq!(cost, [4, 4, 4, 4]);
        assert_eq!(chain_cycles(&steps[1..2]), 3);
        assert_eq!(chain_cycles(&steps[2..3]), 2);
    }

    fn v(ops: &[&str]) -> Vec<String> {
        ops.iter().map(|o| o.to_string()).collect()
    }

    /// `(int)(t[i] * 0.034)` multiplies in double (C converts `t[i]`, a double, and the literal
    /// is one): an integer step with a double multiply inside. A floating step keeps timing its
    /// arithmetic by its own type.
    #[test]
    fn floating_arithmetic_in_an_integer_step_keeps_its_type() {
        let src = "void k(const double *t, int *d, float *f, int n) {\n  for (int i = 0; i < n; i++) {\n    \
                   int x = (int)(t[i] * 0.034);\n    int y = i * 2;\n    d[i] = x + y;\n    f[i] = f[i] * 0.5;\n  }\n}\n";
        assert_eq!(
            steps_of(src),
            vec![
                ("int".into(), v(&["load", "mulc@double"]), vec![]),
                ("int".into(), v(&["add"]), vec![0]),
                // A double literal a float holds exactly: a float multiply.
                ("float".into(), v(&["load", "mulc@float"]), vec![]),
            ]
        );
        let steps = steps_of_body(src);
        // x: a read, then a double multiply (1 + 6); d[i]: after it, a free add.
        assert_eq!(chain_cycles(&steps[..2]), 7);
        assert_eq!(op_latency("mulc@double", "int"), 6);
    }

    /// C's common type of the operands types each operation, whatever the step assigns to: a
    /// `short` sum of `short` times `float` multiplies and adds in float; `M_PI` (a double
    /// that no float holds) makes a double multiply; a cast's type counts; a typedef'd operand
    /// is kept by name for `sim`. A loop that is the whole body of another (no braces) is its
    /// own probe's, not the outer loop's.
    #[test]
    fn operations_take_the_common_type_of_their_operands() {
        let src = "typedef float coef_t;\nvoid k(const short *in, const float *kf, const coef_t *c, short *out, int n, int m) {\n  \
                   short s = 0;\n  float a = 0;\n  for (int i = 0; i < n; i++) {\n    s += in[i] * kf[i];\n    \
                   a = M_PI * i * (i + 1) / n;\n    out[i] = (float)in[i] * c[i];\n  }\n  \
                   for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++)\n      s += in[j] * kf[j];\n  out[0] = s + a;\n}\n";
        assert_eq!(
            steps_of(src),
            vec![
                // The integer operands stay listed: `sim` converts them.
                ("short".into(), v(&["load", "mul@int|float", "add@int|float"]), vec![]),
                // `(i + 1)`'s add weighs as the step's float add on the deepest path.
                ("float".into(), v(&["add", "mul@double|int", "div@double|int"]), vec![]),
                ("short".into(), v(&["load", "mul@float|coef_t"]), vec![]),
            ]
        );
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        let chain = |l: usize| m.functions[0].loops[l].details.as_ref().unwrap().facts.chain.len();
        assert_eq!((chain(1), chain(2)), (0, 1), "the unbraced inner loop's step is its own");
        // Resolved: each integer operand of floating arithmetic is converted first.
        let aliases = Aliases::scan(&[src]);
        let mut first = steps_of_body(src).remove(0);
        aliases.resolve_step(&mut first);
        assert_eq!(first.ops, v(&["load", "itof", "mul@float", "itof", "add@float"]));
        assert_eq!(chain_cycles(&[first]), 1 + 2 + 3 + 2 + 4);
    }

    fn steps_of_body(src: &str) -> Vec<ChainStep> {
        let m = crate::model::build(&crate::parse::parse_cpp(src, None), src);
        m.functions[0].loops[0].details.as_ref().unwrap().facts.chain.clone()
    }

    fn steps_of(src: &str) -> Vec<(String, Vec<String>, Vec<usize>)> {
        steps_of_body(src).into_iter().map(|s| (s.ty, s.ops, s.deps)).collect()
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
