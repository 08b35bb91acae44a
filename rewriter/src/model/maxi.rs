//! m_axi facts of one function: its pointer and array parameters and every use of them in the
//! body, classified as an element read or written, a `memcpy`, the pointer handed on to a call,
//! or a use whose bytes cannot be counted (with the reason).
//!
//! Which parameters are m_axi ports is decided later, across files (`select::ports`): an
//! INTERFACE pragma, or a port of a caller passed in. This module reads one function's syntax,
//! and only when `maxi` probes are asked for ([`attach`], after `model::build`): other runs do
//! not pay for the extra walk of each body.

use super::{node_text, squash, FileModel, Span};
use crate::parse::{field, is_index_of, subscript_index};
use std::collections::HashMap;
use tree_sitter::{Node, Tree};

/// The pointer and array parameters of a function and their uses.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MaxiFacts {
    pub params: Vec<PtrParam>,
    /// Variables declared in the body (only in a function with pointer parameters), in order.
    pub locals: Vec<Local>,
}

/// A variable declared in a function body: what a probe after a statement may depend on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Local {
    pub name: String,
    /// The declaration's type as written (`const int`), declarator pointers/arrays not included.
    pub type_text: String,
    /// The declarator is the plain name (no `*`, `[]`): a variable of `type_text` itself.
    pub plain: bool,
    /// Offset of the declaration's start.
    pub at: usize,
}

/// The statement that holds an access, and whether a probe can follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StmtSlot {
    /// An expression statement or declaration directly in a `{}` block or a `case`: a probe
    /// statement can go right before `span.start` and right after `span.end` (after its `;`).
    /// `assigns`: the variable the statement declares or assigns (`T x = ...;`, `x = ...;`,
    /// `x += ...;`), when there is exactly one.
    Block { span: Span, assigns: Option<String> },
    /// Anywhere else (a loop header, a condition, a `return`, an unbraced body): why.
    Not(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtrParam {
    /// Position in the parameter list, unnamed parameters included: what call arguments match.
    pub index: usize,
    pub name: String,
    /// Subscripts (or `*`) from the parameter to one element: 1 for `int *p` and `int p[N]`,
    /// 2 for `int m[R][C]`.
    pub rank: usize,
    /// The element type as declared (`const int`, `ap_uint<512>`), dimensions left out.
    pub element_type: String,
    /// Position of the parameter's name.
    pub line: usize,
    pub col: usize,
    pub uses: Vec<PtrUse>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtrUse {
    /// Position of the parameter's name at the use.
    pub line: usize,
    pub col: usize,
    pub kind: UseKind,
    /// An element read (`Access` with `Read` or `ReadWrite`): the loops around it and whether
    /// it can be a burst of its innermost loop (the cycle model's single-read waits).
    pub run: Option<ReadRun>,
}

/// Where an element read sits among the loops of its function body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRun {
    /// Lines of the loops around the read, innermost first (a loop probe's line).
    pub loops: Vec<usize>,
    /// The read may be one forward run of consecutive elements across the iterations of its
    /// innermost loop, which Vitis can make a burst (UG1399 "AXI Burst Transfers"): a
    /// one-subscript `p[...]` whose index adds the loop's counter once, unscaled. False only
    /// when clearly not: the counter absent from the index, scaled, or subtracted. Anything
    /// the check cannot read (a `while`, a counter it does not find) counts as may-burst.
    pub may_burst: bool,
}

/// Which way an access moves data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    Read,
    Write,
    /// `p[i] += x`, `++*p`: the element is read, then written.
    ReadWrite,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UseKind {
    /// One element read and/or written. `wrap` is the expression a counting macro wraps: the
    /// index of `p[i]`, the operand of `*p`, the `p` of `p->x`. `depth` is its nesting depth in
    /// the body, which orders wrappers that start or end at the same offset. `element` is the
    /// whole access (`p[i]`, `*e`, `p->x`); `stmt` the statement around it.
    Access { dir: Dir, wrap: Span, depth: usize, element: Span, stmt: StmtSlot },
    /// `memcpy` with this pointer as destination (`Write`) or source (`Read`); `size` is its byte
    /// count argument.
    Memcpy { dir: Dir, size: Span, depth: usize },
    /// The pointer, or a pointer into its data, passed as argument `arg` (0-based) of a call to
    /// `callee` (the call-graph name, as in `Call::name`).
    Passed { callee: String, arg: usize },
    /// Data may move here but cannot be counted; the reason.
    Uncounted(String),
}

/// Fill `Function::maxi` of every function of `model`, which was built from `tree`. One walk per
/// body with pointer or array parameters; only `maxi` runs pay for it.
pub fn attach(model: &mut FileModel, tree: &Tree, text: &str) {
    let lines = Lines::new(text);
    let by_body: HashMap<usize, usize> = model.functions.iter().enumerate().map(|(i, f)| (f.body.start, i)).collect();
    // One cursor walk over the definitions (not into their bodies): `Node::parent` and
    // `descendant_for_byte_range` scan sibling lists, quadratic in a file of many functions.
    let mut cursor = tree.root_node().walk();
    loop {
        let node = cursor.node();
        if node.kind() == "function_definition" {
            let body = node.child_by_field_name("body");
            let f = body.and_then(|b| by_body.get(&b.start_byte()).map(|&i| (b, i)));
            if let Some((body, i)) = f.filter(|(b, i)| b.byte_range() == model.functions[*i].body) {
                let fdecl = node.child_by_field_name("declarator").and_then(function_declarator);
                if let Some(fdecl) = fdecl {
                    model.functions[i].maxi = scan(fdecl, body, text, &lines);
                }
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
        }
    }
}

/// The function declarator below `decl` (`*f(...)`, `S::f(...)`, `(f)(...)`); none for
/// conversion operators, whose parameters are never pointers worth counting.
fn function_declarator(mut decl: Node) -> Option<Node> {
    loop {
        match decl.kind() {
            "function_declarator" => return Some(decl),
            "pointer_declarator" | "reference_declarator" | "parenthesized_declarator" | "attributed_declarator" => {
                decl = decl
                    .child_by_field_name("declarator")
                    .or_else(|| decl.named_child(decl.named_child_count().saturating_sub(1)))?;
            }
            _ => return None,
        }
    }
}

/// Line starts of a text: 1-based line and character column of an offset by binary search.
struct Lines(Vec<usize>);

impl Lines {
    fn new(text: &str) -> Lines {
        Lines(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }
    fn at(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.0.partition_point(|&s| s <= offset);
        (line, text[self.0[line - 1]..offset].chars().count() + 1)
    }
}

/// Pointer and array parameters of `fdecl` and their uses in `body`.
fn scan(fdecl: Node, body: Node, text: &str, lines: &Lines) -> MaxiFacts {
    let mut params = pointer_params(fdecl, text, lines);
    if params.is_empty() {
        return MaxiFacts::default();
    }
    let mut shadowed: Vec<Option<(usize, usize)>> = vec![None; params.len()];
    // One cursor walk in source order, keeping the ancestors of the current node: expressions
    // nest as deep as the code is long (no recursion), and `Node::parent` costs a walk from the
    // root.
    let mut path: Vec<Node> = Vec::new();
    let mut cursor = body.walk();
    let mut locals = Vec::new();
    loop {
        let node = cursor.node();
        if is_declaration(node) {
            locals.extend(declared_locals(node, text));
        }
        if node.kind() == "identifier" {
            let name = node_text(node, text);
            if let Some(pi) = params.iter().position(|p| p.name == name) {
                let at = || lines.at(text, node.start_byte());
                match classify(node, &path, params[pi].rank, text) {
                    Found::Use(kind) => {
                        let (line, col) = at();
                        let run = match &kind {
                            UseKind::Access { dir: Dir::Read | Dir::ReadWrite, wrap, element, .. } => {
                                Some(read_run(&path, &params[pi], wrap, element, text, lines))
                            }
                            _ => None,
                        };
                        params[pi].uses.push(PtrUse { line, col, kind, run });
                    }
                    Found::Declared => {
                        shadowed[pi].get_or_insert_with(at);
                    }
                    Found::Nothing => {}
                }
            }
        } else if cursor.goto_first_child() {
            path.push(node);
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break;
            }
            path.pop();
        }
        if path.is_empty() {
            break; // back at the body, or the body itself had nothing below it
        }
    }
    for (p, shadow) in params.iter_mut().zip(shadowed) {
        if let Some((line, col)) = shadow {
            let reason = format!(
                "a local declaration reuses the name `{}`: its uses cannot be told apart, none is counted (rename the local)",
                p.name
            );
            p.uses = vec![PtrUse { line, col, kind: UseKind::Uncounted(reason), run: None }];
        }
    }
    MaxiFacts { params, locals }
}

/// The loops around a read (`path`: its ancestors, outermost first) and whether it may burst.
fn read_run(path: &[Node], param: &PtrParam, wrap: &Span, element: &Span, text: &str, lines: &Lines) -> ReadRun {
    const LOOPS: [&str; 4] = ["for_statement", "while_statement", "do_statement", "for_range_loop"];
    let around: Vec<Node> = path.iter().rev().filter(|n| LOOPS.contains(&n.kind())).copied().collect();
    let loops = around.iter().map(|n| lines.at(text, n.start_byte()).0).collect();
    let subscript = param.rank == 1
        && squash(&text[element.start..element.end])
            == format!("{}[{}]", param.name, squash(&text[wrap.start..wrap.end]));
    let may_burst = match (around.first(), subscript) {
        (Some(inner), true) => match loop_counter(*inner, text) {
            Some(v) => unit_stride(&text[wrap.start..wrap.end], &v).unwrap_or(true),
            None => true,
        },
        _ => true,
    };
    ReadRun { loops, may_burst }
}

/// The counter a `for` steps by one (`i++`, `++i`, `i += 1`, `i = i + 1`).
fn loop_counter(node: Node, text: &str) -> Option<String> {
    if node.kind() != "for_statement" {
        return None;
    }
    let update: String = node_text(node.child_by_field_name("update")?, text).split_whitespace().collect();
    let name = update
        .strip_suffix("++")
        .or_else(|| update.strip_prefix("++"))
        .or_else(|| update.strip_suffix("+=1"))
        .map(str::to_string)
        .or_else(|| {
            let (l, r) = update.split_once('=')?;
            (r == format!("{l}+1") || r == format!("1+{l}")).then(|| l.to_string())
        })?;
    let ident = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    ident.then_some(name)
}

/// Whether `index` adds `v` once, unscaled, to terms without it: `Some(true)` for `i`,
/// `base + i`, `(i + 1)`, `(r * W) + i`; `Some(false)` when `v` is absent, scaled (`i * n`,
/// `4 * (i + 1)`), under `/`, `%`, a bitwise operator or a shift (`(i * 5) & 63`), or
/// subtracted; `None` when the index holds what the check does not read (calls, casts,
/// conditionals, subscripts).
fn unit_stride(index: &str, v: &str) -> Option<bool> {
    let tokens = stride::tokens(&squash(index)).ok()?;
    let mut p = stride::Parser { tokens: &tokens, at: 0, v };
    let c = p.sum()?;
    (p.at == tokens.len()).then_some(c == stride::Coef::Const(1))
}

/// The coefficient of a loop counter in an index expression, for [`unit_stride`].
mod stride {
    /// How an expression depends on the counter: not at all, as `k × counter + ...` with `k`
    /// known, scaled by something not known (`n * i`), or not linearly (`i % 8`, `i * i`).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub(super) enum Coef {
        Const(i64),
        Scaled,
        NonLinear,
    }

    pub(super) use super::super::consts::{tokens, Tok};

    pub(super) struct Parser<'a> {
        pub tokens: &'a [Tok],
        pub at: usize,
        pub v: &'a str,
    }

    /// `Const(0)` is "no counter".
    fn add(a: Coef, b: Coef) -> Coef {
        match (a, b) {
            (Coef::NonLinear, _) | (_, Coef::NonLinear) => Coef::NonLinear,
            (Coef::Const(x), Coef::Const(y)) => Coef::Const(x.saturating_add(y)),
            _ => Coef::Scaled,
        }
    }

    fn neg(a: Coef) -> Coef {
        match a {
            Coef::Const(x) => Coef::Const(-x),
            other => other,
        }
    }

    impl Parser<'_> {
        fn peek(&self) -> Option<&Tok> {
            self.tokens.get(self.at)
        }

        fn op(&mut self, ops: &[&str]) -> Option<&'static str> {
            match self.peek() {
                Some(Tok::Op(o)) if ops.contains(o) => {
                    let o = *o;
                    self.at += 1;
                    Some(o)
                }
                _ => None,
            }
        }

        /// Bitwise and shift operators bind looser than `+` in C: an operand under one that
        /// holds the counter makes the whole non-linear.
        pub(super) fn sum(&mut self) -> Option<Coef> {
            let mut c = self.additive()?;
            while self.op(&["<<", ">>", "&", "|", "^"]).is_some() {
                let r = self.additive()?;
                c = if c == Coef::Const(0) && r == Coef::Const(0) { c } else { Coef::NonLinear };
            }
            Some(c)
        }

        fn additive(&mut self) -> Option<Coef> {
            let mut c = self.product()?.0;
            while let Some(o) = self.op(&["+", "-"]) {
                let r = self.product()?.0;
                c = add(c, if o == "-" { neg(r) } else { r });
            }
            Some(c)
        }

        /// The coefficient, and the value when the factor is a known constant.
        fn product(&mut self) -> Option<(Coef, Option<i64>)> {
            let (mut c, mut k) = self.unary()?;
            while let Some(o) = self.op(&["*", "/", "%"]) {
                let (rc, rk) = self.unary()?;
                (c, k) = match (o, c, rc) {
                    (_, Coef::Const(0), Coef::Const(0)) => (c, k.zip(rk).and_then(|(a, b)| fold(o, a, b))),
                    ("*", Coef::Const(x), Coef::Const(0)) => {
                        (rk.map_or(Coef::Scaled, |n| Coef::Const(x.saturating_mul(n))), None)
                    }
                    ("*", Coef::Const(0), Coef::Const(x)) => {
                        (k.map_or(Coef::Scaled, |n| Coef::Const(x.saturating_mul(n))), None)
                    }
                    ("*", Coef::Scaled, Coef::Const(0)) | ("*", Coef::Const(0), Coef::Scaled) => (Coef::Scaled, None),
                    _ => (Coef::NonLinear, None),
                };
            }
            Some((c, k))
        }

        fn unary(&mut self) -> Option<(Coef, Option<i64>)> {
            if self.op(&["-"]).is_some() {
                let (c, k) = self.unary()?;
                return Some((neg(c), k.map(|k| -k)));
            }
            if self.op(&["+"]).is_some() {
                return self.unary();
            }
            if self.op(&["~"]).is_some() {
                let (c, _) = self.unary()?;
                return Some((if c == Coef::Const(0) { c } else { Coef::NonLinear }, None));
            }
            match self.peek()?.clone() {
                Tok::Op("(") => {
                    self.at += 1;
                    let start = self.at;
                    let c = self.sum()?;
                    self.op(&[")"])?;
                    // A parenthesised constant keeps its value: `4 * (2)`.
                    let k = match &self.tokens[start..self.at - 1] {
                        [Tok::Num(n)] => i64::try_from(*n).ok(),
                        _ => None,
                    };
                    Some((c, k))
                }
                Tok::Name(n) => {
                    self.at += 1;
                    // A call, a member or a subscript: not read here.
                    if matches!(self.peek(), Some(Tok::Op("(")) | Some(Tok::Name(_)) | Some(Tok::Num(_))) {
                        return None;
                    }
                    Some((if n == self.v { Coef::Const(1) } else { Coef::Const(0) }, None))
                }
                Tok::Num(n) => {
                    self.at += 1;
                    Some((Coef::Const(0), i64::try_from(n).ok()))
                }
                Tok::Op(_) => None,
            }
        }
    }

    fn fold(op: &str, a: i64, b: i64) -> Option<i64> {
        match op {
            "*" => a.checked_mul(b),
            "/" => a.checked_div(b),
            _ => a.checked_rem(b),
        }
    }
}

fn is_declaration(node: Node) -> bool {
    node.kind() == "declaration"
}

/// The variables one declaration declares, with its type.
fn declared_locals(decl: Node, text: &str) -> Vec<Local> {
    let Some(ty) = decl.child_by_field_name("type") else { return Vec::new() };
    let type_text = squash(&text[decl.start_byte()..ty.end_byte()]);
    let mut out = Vec::new();
    let mut cursor = decl.walk();
    for d in decl.children_by_field_name("declarator", &mut cursor) {
        let plain_node = if d.kind() == "init_declarator" { d.child_by_field_name("declarator") } else { Some(d) };
        let plain = plain_node.is_some_and(|n| n.kind() == "identifier");
        if let Some(name) = super::innermost_identifier(d, text) {
            out.push(Local { name, type_text: type_text.clone(), plain, at: decl.start_byte() });
        }
    }
    out
}

fn pointer_params(fdecl: Node, text: &str, lines: &Lines) -> Vec<PtrParam> {
    let Some(list) = fdecl.child_by_field_name("parameters") else { return Vec::new() };
    let mut out = Vec::new();
    let entries = list.named_children(&mut list.walk()).filter(|c| c.kind() != "comment").collect::<Vec<_>>();
    for (index, p) in entries.into_iter().enumerate() {
        if !matches!(p.kind(), "parameter_declaration" | "optional_parameter_declaration") {
            continue;
        }
        let Some(declarator) = p.child_by_field_name("declarator") else { continue };
        let (mut rank, mut name, mut function) = (0, None, false);
        let mut d = Some(declarator);
        while let Some(n) = d {
            match n.kind() {
                "identifier" => {
                    name = Some(n);
                    break;
                }
                "pointer_declarator" | "array_declarator" => rank += 1,
                "function_declarator" => function = true,
                _ => {}
            }
            d = n.child_by_field_name("declarator").or_else(|| n.named_child(0));
        }
        let Some(name) = name.filter(|_| rank > 0 && !function) else { continue };
        let (line, col) = lines.at(text, name.start_byte());
        out.push(PtrParam {
            index,
            name: node_text(name, text).to_string(),
            rank,
            element_type: squash(&text[p.start_byte()..declarator.start_byte()]),
            line,
            col,
            uses: Vec::new(),
        });
    }
    out
}

enum Found {
    Use(UseKind),
    /// The name is declared again (a local, a range-for variable): the parameter is shadowed.
    Declared,
    /// Not a use that moves data (a comparison, `sizeof`, moving the pointer).
    Nothing,
}

fn uncounted(reason: impl Into<String>) -> Found {
    Found::Use(UseKind::Uncounted(reason.into()))
}

/// Node kinds whose operands are never evaluated.
const UNEVALUATED: &[&str] = &["sizeof_expression", "alignof_expression", "decltype", "static_assert_declaration"];

/// What the identifier `ident` (the parameter's name; `path` holds its ancestors) does.
fn classify<'t>(ident: Node<'t>, path: &[Node<'t>], rank: usize, text: &str) -> Found {
    let Some(&parent) = path.last() else { return Found::Nothing };
    if parent.child_by_field_name("declarator").is_some_and(|d| d.id() == ident.id()) {
        return Found::Declared;
    }
    if parent.kind() == "qualified_identifier" {
        return Found::Nothing; // `ns::p` names something else
    }
    for a in path.iter().rev() {
        match a.kind() {
            k if UNEVALUATED.contains(&k) => return Found::Nothing,
            "lambda_expression" => return uncounted("used inside a lambda; accesses there are not counted"),
            "class_specifier" | "struct_specifier" | "union_specifier" => {
                return uncounted("used inside a local class; accesses there are not counted")
            }
            _ => {}
        }
    }
    if let Some(array) = super::unread::feeds_only_unread_store(ident, path, text) {
        return uncounted(format!(
            "stored only into `{array}`, which nothing reads: Vitis removes the code, so it moves no DRAM data"
        ));
    }
    pointer_use(ident, path.len(), rank, false, path, text)
}

/// Follow a pointer value (`cur`, whose parent is `path[k - 1]`; `level` subscripts left to an
/// element; `cast`: converted to another pointer type on the way) up the expression until it is
/// dereferenced, passed on, or lost.
fn pointer_use<'t>(
    mut cur: Node<'t>,
    mut k: usize,
    mut level: usize,
    mut cast: bool,
    path: &[Node<'t>],
    text: &str,
) -> Found {
    loop {
        let Some(&parent) = k.checked_sub(1).and_then(|i| path.get(i)) else { return Found::Nothing };
        let in_field = |f: &str| parent.child_by_field_name(f).is_some_and(|c| c.id() == cur.id());
        let op = parent.child_by_field_name("operator").map(|o| node_text(o, text)).unwrap_or("");
        match parent.kind() {
            "parenthesized_expression" | "update_expression" => {} // `p++` still points into the data
            "cast_expression" => cast = true,
            "comma_expression" if in_field("left") => return Found::Nothing,
            "comma_expression" => {}
            "binary_expression" => match op {
                "+" | "-" => {} // pointer arithmetic (a difference of pointers is only a number)
                "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" => return Found::Nothing,
                _ => return uncounted(format!("operand of `{op}`")),
            },
            "unary_expression" if op == "!" => return Found::Nothing,
            "subscript_expression" if in_field("argument") => {
                if cast {
                    return uncounted("accessed through a pointer cast: the element size is not the port's");
                }
                level -= 1;
                if level == 0 {
                    // The depth of the index: one below the list in C++, beside the pointer in C.
                    let depth = if field(parent, "indices").is_some() { k + 1 } else { k };
                    return match subscript_index(parent).as_slice() {
                        [first, .., last] | [first @ last] => {
                            element(parent, k - 1, first.start_byte()..last.end_byte(), depth, path, text)
                        }
                        _ => uncounted("a subscript without an index"),
                    };
                }
            }
            // A pointer in an index expression is part of a pointer difference: a number.
            _ if is_index_of(parent, cur) => return Found::Nothing,
            "pointer_expression" if op == "*" => {
                if cast {
                    return uncounted("accessed through a pointer cast: the element size is not the port's");
                }
                level -= 1;
                if level == 0 {
                    return element(parent, k - 1, cur.byte_range(), k, path, text);
                }
            }
            "pointer_expression" => return uncounted("the address of the parameter itself is taken"),
            "field_expression" if op == "->" && in_field("argument") && level == 1 && !cast => {
                return element(parent, k - 1, cur.byte_range(), k, path, text);
            }
            "argument_list" => return passed(parent, k - 1, cur, level, path, text),
            "assignment_expression" if in_field("left") => {
                return match op {
                    "+=" | "-=" => Found::Nothing, // moves the pointer
                    _ => {
                        uncounted("the parameter is reassigned: later accesses count for this port wherever it points")
                    }
                };
            }
            "assignment_expression" => {
                let left = parent.child_by_field_name("left").map(|l| squash(node_text(l, text))).unwrap_or_default();
                return uncounted(format!("its address is stored in `{left}`; accesses through that are not counted"));
            }
            "init_declarator" => {
                let name = parent.child_by_field_name("declarator").and_then(|d| super::innermost_identifier(d, text));
                return uncounted(format!(
                    "its address is stored in `{}`; accesses through that are not counted",
                    name.unwrap_or_default()
                ));
            }
            "return_statement" => return uncounted("returned to the caller; accesses there are not counted"),
            "conditional_expression" if in_field("condition") => return Found::Nothing,
            "conditional_expression" => return uncounted("chosen by `?:`; accesses through it are not counted"),
            "expression_statement"
            | "condition_clause"
            | "for_statement"
            | "while_statement"
            | "do_statement"
            | "if_statement" => return Found::Nothing,
            other => return uncounted(format!("used in a `{other}`; not counted")),
        }
        cur = parent;
        k -= 1;
    }
}

/// An element reached through the parameter: `e` (at `path[k]`) is `p[i]`, `*p` or `p->x`, and a
/// macro around `wrap` will count it. Its surroundings say whether it is read, written or both.
fn element<'t>(e: Node<'t>, k: usize, wrap: Span, depth: usize, path: &[Node<'t>], text: &str) -> Found {
    let mut u = e;
    let mut j = k;
    let mut only_parens = true;
    let parent = loop {
        let Some(&parent) = j.checked_sub(1).and_then(|i| path.get(i)) else { break None };
        let is_argument = parent.child_by_field_name("argument").is_some_and(|c| c.id() == u.id());
        match parent.kind() {
            "parenthesized_expression" => {}
            // A member of a struct element, a row of an array element, a bit of an ap_int.
            "field_expression" | "subscript_expression" if is_argument => only_parens = false,
            _ => break Some(parent),
        }
        u = parent;
        j -= 1;
    };
    let op = parent.and_then(|p| p.child_by_field_name("operator")).map(|o| node_text(o, text)).unwrap_or("");
    let dir = match parent.map(|p| p.kind()) {
        Some("assignment_expression")
            if parent.and_then(|p| p.child_by_field_name("left")).is_some_and(|l| l.id() == u.id()) =>
        {
            if op == "=" {
                Dir::Write
            } else {
                Dir::ReadWrite
            }
        }
        Some("update_expression") => Dir::ReadWrite,
        // `&p[i]`: no access, a pointer into the data again.
        Some("pointer_expression") if op == "&" => {
            return match (only_parens, parent) {
                (true, Some(p)) => pointer_use(p, j - 1, 1, false, path, text),
                _ => uncounted("the address of a member of an element is taken; accesses through it are not counted"),
            };
        }
        _ => Dir::Read,
    };
    let stmt = statement_slot(path, k, text);
    Found::Use(UseKind::Access { dir, wrap, depth, element: e.byte_range(), stmt })
}

/// Where the statement holding the node at `path[k]` is, for probes placed around it.
fn statement_slot(path: &[Node], k: usize, text: &str) -> StmtSlot {
    let Some(j) = (0..=k.min(path.len().saturating_sub(1))).rev().find(|&j| is_statement(path[j])) else {
        return StmtSlot::Not("not inside a statement".into());
    };
    let stmt = path[j];
    let kind = stmt.kind();
    if !matches!(kind, "expression_statement" | "declaration") {
        let what = kind.trim_end_matches("_statement");
        let place = if what == "return" { "value" } else { "header or condition" };
        return StmtSlot::Not(format!("in the {place} of `{what}`"));
    }
    match j.checked_sub(1).map(|i| path[i]) {
        Some(parent) if is_statement_list(parent) => {
            StmtSlot::Block { span: stmt.byte_range(), assigns: assigned_variable(stmt, text) }
        }
        Some(parent) => StmtSlot::Not(format!(
            "in a statement that is not in a `{{}}` block (the unbraced body of `{}`)",
            parent.kind().trim_end_matches("_statement").trim_end_matches("_clause")
        )),
        None => StmtSlot::Not("not inside a statement".into()),
    }
}

fn is_statement(node: Node) -> bool {
    node.kind().ends_with("_statement") || node.kind() == "declaration"
}

/// A node whose statements are a list, so a statement can be inserted before or after one.
fn is_statement_list(node: Node) -> bool {
    matches!(node.kind(), "compound_statement" | "case_statement")
}

/// The one variable `stmt` declares (`T x = e;`) or assigns (`x = e;`, `x += e;`).
fn assigned_variable(stmt: Node, text: &str) -> Option<String> {
    if is_declaration(stmt) {
        let mut cursor = stmt.walk();
        let decls: Vec<Node> = stmt.children_by_field_name("declarator", &mut cursor).collect();
        return match decls.as_slice() {
            [d] => super::innermost_identifier(*d, text),
            _ => None,
        };
    }
    let e = stmt.named_child(0)?;
    if e.kind() != "assignment_expression" {
        return None;
    }
    let left = e.child_by_field_name("left")?;
    (left.kind() == "identifier").then(|| node_text(left, text).to_string())
}

/// The pointer (`arg`) is an argument of the call whose argument list is `path[k]`.
fn passed<'t>(list: Node<'t>, k: usize, arg: Node<'t>, level: usize, path: &[Node<'t>], text: &str) -> Found {
    let call = k.checked_sub(1).and_then(|i| path.get(i)).copied();
    let Some(call) = call.filter(|c| c.kind() == "call_expression") else {
        return uncounted("passed to a constructor; accesses there are not counted");
    };
    let Some(func) = call.child_by_field_name("function") else { return Found::Nothing };
    let args: Vec<Node> = list.named_children(&mut list.walk()).filter(|c| c.kind() != "comment").collect();
    let Some(index) = args.iter().position(|a| a.id() == arg.id()) else { return Found::Nothing };
    let written: String = node_text(func, text).split_whitespace().collect();
    let name = callee_name(func, text);
    // A named cast changes the element type like a C cast does.
    if matches!(name.as_str(), "static_cast" | "reinterpret_cast" | "const_cast") && args.len() == 1 {
        return pointer_use(call, k - 1, level, true, path, text);
    }
    if matches!(written.as_str(), "memcpy" | "std::memcpy" | "::memcpy" | "::std::memcpy" | "__builtin_memcpy") {
        let dir = match index {
            0 => Dir::Write,
            1 => Dir::Read,
            _ => return uncounted("used in the size of a memcpy"),
        };
        if let Some(buffer) = unread_buffer(dir, call, &args, path, text) {
            return uncounted(format!(
                "a memcpy into `{buffer}`, which nothing reads: Vitis removes the copy, so it moves no DRAM data"
            ));
        }
        return match args.get(2) {
            Some(size) => Found::Use(UseKind::Memcpy { dir, size: size.byte_range(), depth: k + 1 }),
            None => uncounted("memcpy without a size"),
        };
    }
    if name.is_empty() {
        return uncounted("passed to a call through an expression; not counted");
    }
    Found::Use(UseKind::Passed { callee: name, arg: index })
}

/// The local array a `memcpy` from the port (`dir` Read) fills when nothing else in the body
/// names it: synthesis removes such a copy (no one observes the buffer), so its bytes are not
/// DRAM traffic, though C simulation moves them. `path[0]` is the function body.
fn unread_buffer(dir: Dir, call: Node, args: &[Node], path: &[Node], text: &str) -> Option<String> {
    let buffer = args.first().filter(|a| a.kind() == "identifier" && dir == Dir::Read)?;
    let name = node_text(*buffer, text);
    let body = *path.first()?;
    if !super::table::declares_local_array(body, name, text) {
        return None;
    }
    // Names of `name` outside the call: its declaration is one; any other is a use.
    let mut named = 0;
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        if n.id() == call.id() {
            continue;
        }
        if n.kind() == "identifier" && node_text(n, text) == name {
            named += 1;
        }
        todo.extend(n.named_children(&mut n.walk()));
    }
    (named == 1).then(|| name.to_string())
}

/// The call-graph name of a call's function: the same rule as `Call::name` (last component,
/// template arguments dropped).
fn callee_name(func: Node, text: &str) -> String {
    let name_node = match func.kind() {
        "field_expression" => func.child_by_field_name("field"),
        "qualified_identifier" => {
            let mut n = func;
            while let Some(next) = n.child_by_field_name("name") {
                n = next;
            }
            Some(n)
        }
        _ => Some(func),
    };
    let mut name = name_node.map(|n| node_text(n, text)).unwrap_or("").to_string();
    if let Some(i) = name.find('<') {
        name.truncate(i);
    }
    name.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::build;
    use crate::parse::{cpp_language, parse, Lang};

    fn model_in(lang: Lang, src: &str) -> FileModel {
        let tree = parse(lang, src, None);
        let mut m = build(&tree, src);
        attach(&mut m, &tree, src);
        m
    }

    fn model(src: &str) -> FileModel {
        model_in(Lang::Cpp, src)
    }

    /// The read runs of the first function's first parameter, in source order.
    fn runs(src: &str) -> Vec<(Vec<usize>, bool)> {
        let m = model(src);
        m.functions[0].maxi.params[0]
            .uses
            .iter()
            .filter_map(|u| u.run.as_ref())
            .map(|r| (r.loops.clone(), r.may_burst))
            .collect()
    }

    #[test]
    fn a_read_may_burst_when_it_adds_its_innermost_loops_counter_once() {
        let src = "void f(const int *w, int *o, int n) {\n\
                   \x20 for (int i = 0; i < n; i++) {\n\
                   \x20   o[i] = w[i] + w[i + 1] + w[n * 2 + i] + w[i * 4] + w[4 * i] + w[n] + w[n - i] + w[(i)];\n\
                   \x20   for (int j = 0; j < 4; j += 1) o[j] += w[j * n + i] + w[i * n + j];\n\
                   \x20 }\n\
                   \x20 int k = 0;\n  while (k < n) { o[k] = w[k]; k++; }\n  o[0] = w[3];\n}\n";
        let got = runs(src);
        let flags: Vec<bool> = got.iter().map(|r| r.1).collect();
        // w[i], w[i + 1], w[n*2 + i]: forward runs; w[i*4], w[4*i], w[n], w[n - i]: not; w[(i)]
        // is past what the check reads, so it may; in j's loop `j * n + i` scales j, `i * n + j`
        // adds it; a `while` and a read outside loops may.
        assert_eq!(flags, [true, true, true, false, false, false, false, true, false, true, true, true]);
        assert_eq!(got[0].0, [2]);
        assert_eq!(got[8].0, [4, 2], "innermost loop first");
        assert_eq!(got[11].0, Vec::<usize>::new());
    }

    /// Indices with parentheses and operators are read for the counter's coefficient: a forward
    /// run only when it is 1.
    #[test]
    fn the_counters_coefficient_is_read_through_parentheses_and_operators() {
        for (index, want) in [
            ("(r * n) + i", Some(true)),
            ("(i + 1)", Some(true)),
            ("2 * (i + 1) - i", Some(true)),
            ("(i * 5) & 63", Some(false)),
            ("i % 8", Some(false)),
            ("4 * (i + 1)", Some(false)),
            ("(n) * i", Some(false)),
            ("i * i", Some(false)),
            ("i >> 1", Some(false)),
            ("(n - i)", Some(false)),
            ("(base << 2) + i", Some(true)),
            ("j * 3", Some(false)),
            ("f(i)", None),
            ("(int)i", None),
            ("a[i]", None),
            ("c ? i : 0", None),
        ] {
            assert_eq!(unit_stride(index, "i"), want, "{index}");
        }
    }

    /// `(param, line:col, what)` of every use in the first function of `src`; accesses show the
    /// wrapped text.
    fn uses(src: &str) -> Vec<(String, String, String)> {
        uses_in(Lang::Cpp, src)
    }

    fn uses_in(lang: Lang, src: &str) -> Vec<(String, String, String)> {
        let m = model_in(lang, src);
        let f = &m.functions[0];
        let mut out = Vec::new();
        for p in &f.maxi.params {
            for u in &p.uses {
                let what = match &u.kind {
                    UseKind::Access { dir, wrap, .. } => format!("{dir:?} {}", &src[wrap.clone()]),
                    UseKind::Memcpy { dir, size, .. } => format!("memcpy {dir:?} {}", &src[size.clone()]),
                    UseKind::Passed { callee, arg } => format!("passed {callee} {arg}"),
                    UseKind::Uncounted(r) => format!("uncounted {r}"),
                };
                out.push((p.name.clone(), format!("{}:{}", u.line, u.col), what));
            }
        }
        out
    }

    fn whats(src: &str) -> Vec<String> {
        uses(src).into_iter().map(|(p, _, w)| format!("{p}: {w}")).collect()
    }

    #[test]
    fn parameters_rank_index_and_element_type() {
        let src =
            "void f(int, const int *a, short m[4][8], ap_uint<512> *const w, int (&r)[3], int (*cb)(int), int n) {}";
        let m = model(src);
        let got: Vec<_> = m.functions[0]
            .maxi
            .params
            .iter()
            .map(|p| (p.index, p.name.as_str(), p.rank, p.element_type.as_str(), p.col))
            .collect();
        assert_eq!(
            got,
            [
                (1, "a", 1, "const int", 24),
                (2, "m", 2, "short", 33),
                (3, "w", 1, "ap_uint<512>", 62),
                (4, "r", 1, "int", 71),
            ]
        );
    }

    #[test]
    fn reads_writes_and_read_modify_writes() {
        let src = "void f(int *p, int i) {\n  p[i] = 1; p[i] += 2; p[i]++; --p[i]; x = p[i]; g(p[i]); (p[i]) = 3; p[i].f = 4; p[i].f |= 5;\n}";
        assert_eq!(
            whats(src),
            [
                "p: Write i",
                "p: ReadWrite i",
                "p: ReadWrite i",
                "p: ReadWrite i",
                "p: Read i",
                "p: Read i",
                "p: Write i",
                "p: Write i",
                "p: ReadWrite i",
            ]
        );
    }

    #[test]
    fn dereferences_arrows_and_pointer_arithmetic() {
        let src = "void f(int *p, S *s, int k) {\n  *p = 1; x = *(p + k); y = *p++; ++*p; s->v = 2; z = (s + 1)->v; p += 2; if (p != 0 && !p) {}\n}";
        assert_eq!(
            whats(src),
            ["p: Write p", "p: Read (p + k)", "p: Read p++", "p: ReadWrite p", "s: Write s", "s: Read (s + 1)"]
        );
    }

    #[test]
    fn a_copy_into_a_buffer_nothing_reads_moves_no_dram_data() {
        let dead =
            "void f(const int *p, int *q) {\n  int unused[64];\n  memcpy(unused, p, sizeof(unused));\n  q[0] = 1;\n}";
        let read =
            "void f(const int *p, int *q) {\n  int buf[64];\n  memcpy(buf, p, sizeof(buf));\n  q[0] = buf[3];\n}";
        let dead_uses = whats(dead);
        assert_eq!(dead_uses[0], "p: uncounted a memcpy into `unused`, which nothing reads: Vitis removes the copy, so it moves no DRAM data");
        assert_eq!(whats(read)[0], "p: memcpy Read sizeof(buf)");
        // A copy out of the port into a parameter, or out to the port, is never dropped.
        let out = "void f(int *p, int *q) {\n  int buf[64];\n  memcpy(p, buf, 256);\n}";
        assert_eq!(whats(out), ["p: memcpy Write 256"]);
    }

    #[test]
    fn a_copy_loop_into_a_buffer_nothing_reads_moves_no_dram_data() {
        let dead = "void f(const int *p, int *q, int n) {\n  int shadow[64];\n  for (int i = 0; i < n; i++) shadow[i] = p[i];\n  q[0] = 1;\n}";
        assert_eq!(
            whats(dead)[0],
            "p: uncounted stored only into `shadow`, which nothing reads: Vitis removes the code, so it moves no DRAM data"
        );
        let read = "void f(const int *p, int *q) {\n  int buf[64];\n  for (int i = 0; i < 64; i++) buf[i] = p[i];\n  q[0] = buf[3];\n}";
        assert_eq!(whats(read)[0], "p: Read i");
    }

    #[test]
    fn multi_dimensional_ports_count_elements() {
        let src = "void f(int m[4][8], int r) {\n  x = m[r][2]; y = (*m)[1]; g(m[r]); h(&m[1][2]);\n}";
        assert_eq!(whats(src), ["m: Read 2", "m: Read 1", "m: passed g 0", "m: passed h 0"]);
    }

    #[test]
    fn pointers_passed_on_and_memcpy() {
        let src = "void f(int *p, int *q, int n) {\n  load(p, n); ns::load(q + 4, n); obj.put<int>(n, &p[2]);\n  memcpy(q, p, n * 4); std::memcpy(buf, (const void *)p, 8);\n}";
        assert_eq!(
            whats(src),
            [
                "p: passed load 0",
                "p: passed put 1",
                "p: memcpy Read n * 4",
                "p: memcpy Read 8",
                "q: passed load 0",
                "q: memcpy Write n * 4",
            ]
        );
    }

    #[test]
    fn what_cannot_be_counted_says_why() {
        let src = "int *f(int *p, int i) {\n  int *q = p + 1; r = p; auto l = [&] { return p[0]; }; x = ((char *)p)[1]; x = c ? p : r; return p;\n}";
        let got = whats(src);
        let want = [
            "p: uncounted its address is stored in `q`",
            "p: uncounted its address is stored in `r`",
            "p: uncounted used inside a lambda",
            "p: uncounted accessed through a pointer cast",
            "p: uncounted chosen by `?:`",
            "p: uncounted returned to the caller",
        ];
        assert_eq!(got.len(), want.len(), "{got:?}");
        for (g, w) in got.iter().zip(want) {
            assert!(g.starts_with(w), "{g} does not start with {w}");
        }
    }

    #[test]
    fn unevaluated_operands_and_other_names_are_not_uses() {
        let src = "void f(int *p) {\n  x = sizeof(p[0]) + sizeof *p; decltype(p[0]) y = 0; s.p = 1; ns::p(); static_assert(sizeof(p) == 8, \"\");\n}";
        assert!(whats(src).is_empty(), "{:?}", whats(src));
    }

    #[test]
    fn a_local_of_the_same_name_makes_every_use_uncounted() {
        let src = "void f(int *p) {\n  p[0] = 1;\n  { int p = 2; x = p; }\n}";
        let got = uses(src);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].1, "3:9");
        assert!(got[0].2.contains("reuses the name `p`"), "{got:?}");
    }

    /// C code reads the same through the C grammar (OpenCL C) as through the C++ one, although
    /// the trees differ (`index` against `indices` of a subscript, no `condition_clause`).
    #[test]
    fn c_and_cpp_grammars_give_the_same_uses() {
        let src = "void f(int *p, const int *q, int n) {\n  p[n] = q[n + 1];\n  p[q - p] += 1; *p = p[*q];\n\
                   if (q[0] && p) { while (*q) q++; }\n  switch (p[1]) { case 1: (p)[2]++; }\n  g(p, q[3]);\n  \
                   memcpy(p, q, n);\n  int *r = p; x = n ? p : q;\n}";
        let cpp = uses_in(Lang::Cpp, src);
        assert!(cpp.len() >= 14, "{cpp:?}");
        assert_eq!(uses_in(Lang::OpenCl, src), cpp);
        // The nesting depth that orders wrappers ending at one offset (`p[*q]`) keeps its order.
        let depths = |lang| {
            let m = model_in(lang, "void f(int *p, int *q) { x = p[*q]; }");
            let mut d: Vec<(String, usize)> = m.functions[0]
                .maxi
                .params
                .iter()
                .flat_map(|p| p.uses.iter().map(move |u| (p.name.clone(), u)))
                .filter_map(|(n, u)| match u.kind {
                    UseKind::Access { depth, .. } => Some((n, depth)),
                    _ => None,
                })
                .collect();
            d.sort();
            d
        };
        for lang in [Lang::Cpp, Lang::OpenCl] {
            let d = depths(lang);
            assert!(d.len() == 2 && d[0].1 < d[1].1, "{lang:?}: {d:?}");
        }
    }

    #[test]
    fn statements_around_accesses_say_where_a_probe_can_follow() {
        let src = "void f(int *p, int n) {\n  int x = p[0]; n += p[1]; if (p[2]) n = p[3]; for (; p[4];) {}\n  switch (n) { case 1: p[5] = n; }\n  { p[6] = p[7]; } return p[8];\n}";
        let m = model(src);
        let got: Vec<String> = m.functions[0].maxi.params[0]
            .uses
            .iter()
            .map(|u| match &u.kind {
                UseKind::Access { element, stmt: StmtSlot::Block { span, assigns }, .. } => {
                    format!("{} in `{}` assigns {assigns:?}", &src[element.clone()], &src[span.clone()])
                }
                UseKind::Access { element, stmt: StmtSlot::Not(why), .. } => {
                    format!("{}: {why}", &src[element.clone()])
                }
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "p[0] in `int x = p[0];` assigns Some(\"x\")",
                "p[1] in `n += p[1];` assigns Some(\"n\")",
                "p[2]: in the header or condition of `if`",
                "p[3]: in a statement that is not in a `{}` block (the unbraced body of `if`)",
                "p[4]: in the header or condition of `for`",
                "p[5] in `p[5] = n;` assigns None",
                "p[6] in `p[6] = p[7];` assigns None",
                "p[7] in `p[6] = p[7];` assigns None",
                "p[8]: in the value of `return`",
            ]
        );
        let locals: Vec<(String, String, bool)> =
            m.functions[0].maxi.locals.iter().map(|l| (l.name.clone(), l.type_text.clone(), l.plain)).collect();
        assert_eq!(locals, [("x".to_string(), "int".to_string(), true)]);
    }

    #[test]
    fn node_kinds_used_here_exist_in_the_grammar() {
        let lang = cpp_language();
        let kinds = UNEVALUATED.iter().chain(&[
            "identifier",
            "parameter_declaration",
            "optional_parameter_declaration",
            "pointer_declarator",
            "array_declarator",
            "function_declarator",
            "qualified_identifier",
            "lambda_expression",
            "class_specifier",
            "struct_specifier",
            "union_specifier",
            "parenthesized_expression",
            "update_expression",
            "cast_expression",
            "comma_expression",
            "binary_expression",
            "unary_expression",
            "subscript_expression",
            "subscript_argument_list",
            "pointer_expression",
            "field_expression",
            "argument_list",
            "assignment_expression",
            "init_declarator",
            "return_statement",
            "conditional_expression",
            "expression_statement",
            "condition_clause",
            "for_statement",
            "while_statement",
            "do_statement",
            "if_statement",
            "call_expression",
            "declaration",
            "compound_statement",
            "case_statement",
        ]);
        // C++-only kinds simply never show in a C tree; every other one must exist in both.
        let cpp_only = ["decltype", "optional_parameter_declaration", "qualified_identifier", "lambda_expression"];
        let cpp_only = cpp_only.iter().chain(&[
            "class_specifier",
            "subscript_argument_list",
            "condition_clause",
            "static_assert_declaration",
        ]);
        let c = Lang::OpenCl.language();
        for k in kinds {
            assert_ne!(lang.id_for_node_kind(k, true), 0, "no node kind `{k}` in tree-sitter-cpp");
            let in_c = c.id_for_node_kind(k, true) != 0;
            assert_eq!(in_c, !cpp_only.clone().any(|o| o == k), "`{k}` in tree-sitter-c: {in_c}");
        }
    }
}
