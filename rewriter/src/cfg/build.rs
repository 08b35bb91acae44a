//! The control-flow graph of one function body, from its syntax tree, with a candidate record
//! site at every successor of every decision and where each would go in the text.

use super::{Graph, Op};
use crate::model::{position, Span};
use crate::parse::{field, kind, named_children};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use tree_sitter::Node;

/// What a site marks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SiteKind {
    /// The function is called (always recorded: calls nest in the record stream).
    Entry,
    /// The function returns, on any path (always recorded).
    Return,
    Then,
    Else,
    Case,
    /// A loop's body is entered.
    Iteration,
    /// A loop is left; the record carries the trip count.
    LoopExit,
    /// A label a `goto` jumps to.
    Label,
    /// `c ? a : b` with calls or side effects: the arm evaluated (in an expression).
    TernaryTrue,
    TernaryFalse,
    /// `a && b` / `a || b` whose `b` has calls or side effects: `b` was evaluated.
    AndRight,
    OrRight,
}

impl SiteKind {
    pub fn name(self) -> &'static str {
        match self {
            SiteKind::Entry => "entry",
            SiteKind::Return => "return",
            SiteKind::Then => "then",
            SiteKind::Else => "else",
            SiteKind::Case => "case",
            SiteKind::Iteration => "iteration",
            SiteKind::LoopExit => "loop_exit",
            SiteKind::Label => "label",
            SiteKind::TernaryTrue => "ternary_true",
            SiteKind::TernaryFalse => "ternary_false",
            SiteKind::AndRight => "and_right",
            SiteKind::OrRight => "or_right",
        }
    }

    /// Sites inside expressions: recorded wherever they are met, not nodes of the graph.
    pub fn inline(self) -> bool {
        matches!(self, SiteKind::TernaryTrue | SiteKind::TernaryFalse | SiteKind::AndRight | SiteKind::OrRight)
    }
}

/// Where a site's record goes in the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A statement at this offset (after a `{` or a label's or case's colon).
    At(usize),
    /// The statement `span` is not in a list: braces around it, the record first.
    Wrap(Span),
    /// A loop's exit: the counter declared before the loop (`before`), counted at the body
    /// (`body`, braced when `body_is_block` is false), recorded after the loop (`unit.end`).
    Loop { before: usize, unit: Span, in_list: bool, body: Span, body_is_block: bool },
    /// An expression operand, wrapped; `depth` counts the wrapped operands around it.
    Operand { span: Span, depth: usize },
    /// The function's entry and return: one statement after the body's `{`.
    Function(usize),
}

#[derive(Debug, Clone)]
pub struct Candidate {
    pub kind: SiteKind,
    pub line: usize,
    pub col: usize,
    pub place: Place,
    /// The graph node (none for inline sites).
    pub node: Option<usize>,
    /// The candidate this one sits in (the function's entry at the top).
    pub parent: Option<usize>,
    /// Statement nesting depth (for edit ordering).
    pub depth: usize,
    /// For inline sites: why it is not probed (a pure operand: nothing to trace).
    pub pure: bool,
}

/// A function's graph and its candidates (site ids in the graph are candidate indices).
#[derive(Debug, Clone)]
pub struct FunctionCfg {
    pub graph: Graph,
    pub candidates: Vec<Candidate>,
    /// Every `return` statement: where a record before it goes ([`Place::At`] its start when it
    /// is in a statement list, else [`Place::Wrap`] it), and its statement depth. C++ records
    /// returns in a destructor; C and OpenCL C, which have none, record them here.
    pub returns: Vec<(Place, usize)>,
}

/// The order candidates are tried for dropping: the most frequent records first (a loop's
/// iteration, then arms, deepest first), loop exits (one record per loop) last. Entry and
/// return sites are never dropped.
pub fn prune_order(cands: &[Candidate]) -> Vec<usize> {
    let rank = |c: &Candidate| match c.kind {
        SiteKind::Iteration => 0,
        SiteKind::LoopExit => 2,
        _ => 1,
    };
    let mut order: Vec<&Candidate> =
        cands.iter().filter(|c| c.node.is_some() && !matches!(c.kind, SiteKind::Entry | SiteKind::Return)).collect();
    order.sort_by_key(|c| (rank(c), std::cmp::Reverse(c.depth)));
    order.iter().filter_map(|c| c.node).collect()
}

/// Build the graph of a function body (`body`: its compound statement), or say why it cannot be.
pub fn function(body: Node, text: &str) -> Result<FunctionCfg, String> {
    let mut b = Builder {
        text,
        g: Graph::new(),
        cands: Vec::new(),
        labels: HashMap::new(),
        gotos: Vec::new(),
        breaks: Vec::new(),
        continues: Vec::new(),
        parents: Vec::new(),
        depth: 0,
        loops: 0,
        ret: 0,
        targets: Vec::new(),
        returns: Vec::new(),
    };
    collect_goto_targets(body, text, &mut b.targets);
    let (line, col) = position(text, body.start_byte());
    let entry = b.site_node(SiteKind::Entry, line, col, Place::Function(body.start_byte() + 1));
    b.g.link(Graph::ENTRY, entry);
    b.ret = b.site_node(SiteKind::Return, line, col, Place::Function(body.start_byte() + 1));
    b.g.link(b.ret, Graph::EXIT);
    b.parents.push(0);
    let end = b.stmt(body, entry)?;
    b.g.link(end, b.ret);
    for (from, label, line) in std::mem::take(&mut b.gotos) {
        let to =
            *b.labels.get(&label).ok_or_else(|| format!("goto {label} at line {line}: no such label in the body"))?;
        b.g.link(from, to);
    }
    Ok(FunctionCfg { graph: b.g, candidates: b.cands, returns: b.returns })
}

struct Builder<'a> {
    text: &'a str,
    g: Graph,
    cands: Vec<Candidate>,
    labels: HashMap<String, usize>,
    gotos: Vec<(usize, String, usize)>,
    breaks: Vec<usize>,
    continues: Vec<usize>,
    /// Candidates enclosing the statement being built.
    parents: Vec<usize>,
    depth: usize,
    loops: usize,
    ret: usize,
    targets: Vec<String>,
    returns: Vec<(Place, usize)>,
}

impl Builder<'_> {
    fn line(&self, n: Node) -> usize {
        n.start_position().row + 1
    }

    /// A candidate and its graph node; returns the node.
    fn site_node(&mut self, kind: SiteKind, line: usize, col: usize, place: Place) -> usize {
        let n = self.g.add(Op::Site, line);
        self.g.nodes[n].site = Some(self.cands.len() as u32);
        self.cands.push(Candidate {
            kind,
            line,
            col,
            place,
            node: Some(n),
            parent: self.parents.last().copied(),
            depth: self.depth,
            pure: false,
        });
        n
    }

    fn arm_site(&mut self, kind: SiteKind, arm: Node) -> usize {
        let place = if kind_of(arm) == "compound_statement" {
            Place::At(arm.start_byte() + 1)
        } else {
            Place::Wrap(arm.byte_range())
        };
        let (line, col) = position(self.text, arm.start_byte());
        self.site_node(kind, line, col, place)
    }

    fn nop(&mut self) -> usize {
        self.g.add(Op::Nop, 0)
    }

    /// Build statement `n` entered from node `cur`; returns the node control continues from
    /// (a fresh unreachable node after a jump).
    fn stmt(&mut self, n: Node, cur: usize) -> Result<usize, String> {
        let line = self.line(n);
        match kind_of(n) {
            "compound_statement" => {
                let mut cur = cur;
                for c in named_children(n) {
                    cur = self.stmt(c, cur)?;
                }
                Ok(cur)
            }
            "comment" | "preproc_call" => Ok(cur),
            "expression_statement" if n.named_child_count() == 0 => Ok(cur),
            "attributed_statement" => match n.named_child(n.named_child_count().saturating_sub(1)) {
                Some(inner) => self.stmt(inner, cur),
                None => Ok(cur),
            },
            "if_statement" => self.if_stmt(n, cur),
            "switch_statement" => self.switch_stmt(n, cur),
            "while_statement" | "for_statement" | "for_range_loop" | "do_statement" => self.loop_stmt(n, cur),
            "break_statement" => {
                let s = self.plain(n, cur);
                let to =
                    *self.breaks.last().ok_or_else(|| format!("`break` outside a loop or switch at line {line}"))?;
                self.g.link(s, to);
                Ok(self.nop())
            }
            "continue_statement" => {
                let s = self.plain(n, cur);
                let to = *self.continues.last().ok_or_else(|| format!("`continue` outside a loop at line {line}"))?;
                self.g.link(s, to);
                Ok(self.nop())
            }
            "return_statement" | "co_return_statement" => {
                let in_list = n.parent().is_some_and(|p| matches!(kind_of(p), "compound_statement" | "case_statement"));
                let place = if in_list { Place::At(n.start_byte()) } else { Place::Wrap(n.byte_range()) };
                self.returns.push((place, self.depth));
                let s = self.plain(n, cur);
                self.g.link(s, self.ret);
                Ok(self.nop())
            }
            "goto_statement" => {
                let s = self.plain(n, cur);
                let label = field(n, "label").map(|l| self.text[l.byte_range()].to_string()).unwrap_or_default();
                self.gotos.push((s, label, line));
                Ok(self.nop())
            }
            "labeled_statement" => self.labeled(n, cur),
            "try_statement" | "throw_statement" | "seh_try_statement" => {
                Err(format!("exceptions at line {line}: branch tracing follows no throw"))
            }
            "case_statement" => Err(format!("a `case` label outside its switch's own body at line {line}")),
            k if k.starts_with("preproc_") => Err(format!(
                "a statement-level `#if` at line {line}: branch tracing needs the body after preprocessing"
            )),
            _ => Ok(self.plain(n, cur)),
        }
    }

    /// A statement without control flow of its own (its operands may hold inline sites).
    fn plain(&mut self, n: Node, cur: usize) -> usize {
        // `int a[N];` runs no code (gcov counts no line for it either).
        let runs = kind_of(n) != "declaration" || named_children(n).any(|c| kind_of(c) == "init_declarator");
        let s = self.g.add(Op::Stmt, if runs { self.line(n) } else { 0 });
        self.g.link(cur, s);
        self.inline_sites(n, 0);
        s
    }

    fn if_stmt(&mut self, n: Node, cur: usize) -> Result<usize, String> {
        let b = self.g.add(Op::Branch, self.line(n));
        self.g.link(cur, b);
        if let Some(c) = field(n, "condition") {
            self.inline_sites(c, 0);
        }
        let join = self.nop();
        self.depth += 1;
        if let Some(then) = field(n, "consequence") {
            let t = self.arm_site(SiteKind::Then, then);
            self.g.link(b, t);
            let end = self.nested(t, |s| s.stmt(then, t))?;
            self.g.link(end, join);
        }
        match field(n, "alternative").and_then(|e| e.named_children(&mut e.walk()).find(|c| kind_of(*c) != "comment")) {
            Some(arm) => {
                let e = self.arm_site(SiteKind::Else, arm);
                self.g.link(b, e);
                let end = self.nested(e, |s| s.stmt(arm, e))?;
                self.g.link(end, join);
            }
            None => self.g.link(b, join),
        }
        self.depth -= 1;
        Ok(join)
    }

    /// Build with `site`'s candidate as the parent of what is inside.
    fn nested<T>(&mut self, site: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        let cand = self.g.nodes[site].site.expect("a site node") as usize;
        self.parents.push(cand);
        let out = f(self);
        self.parents.pop();
        out
    }

    fn switch_stmt(&mut self, n: Node, cur: usize) -> Result<usize, String> {
        let b = self.g.add(Op::Branch, self.line(n));
        self.g.link(cur, b);
        if let Some(c) = field(n, "condition") {
            self.inline_sites(c, 0);
        }
        let join = self.nop();
        self.breaks.push(join);
        self.depth += 1;
        let mut fall = self.nop(); // unreachable until the first case
        let mut has_default = false;
        let mut pending = false; // case labels without statements, waiting for the next case
        let body = field(n, "body").ok_or("a switch without a body")?;
        for c in named_children(body) {
            if kind_of(c) != "case_statement" {
                fall = self.stmt(c, fall)?;
                continue;
            }
            has_default |= field(c, "value").is_none();
            let colon = (0..c.child_count()).filter_map(|i| c.child(i)).find(|k| k.kind() == ":");
            let stmts: Vec<Node> = named_children(c)
                .filter(|s| Some(*s) != field(c, "value") && kind_of(*s) != "comment")
                .filter(|s| colon.is_some_and(|k| s.start_byte() >= k.end_byte()))
                .collect();
            if stmts.is_empty() {
                pending = true;
                continue;
            }
            let at = colon.map_or(c.start_byte(), |k| k.end_byte());
            let (line, col) = position(self.text, c.start_byte());
            let s = self.site_node(SiteKind::Case, line, col, Place::At(at));
            let _ = pending;
            pending = false;
            self.g.link(b, s);
            self.g.link(fall, s);
            let mut cur = s;
            self.parents.push(self.g.nodes[s].site.expect("site") as usize);
            for st in stmts {
                cur = self.stmt(st, cur)?;
            }
            self.parents.pop();
            fall = cur;
        }
        // Labels after the last statement (`case 3: }`) fall out of the switch.
        self.g.link(fall, join);
        if !has_default || pending {
            self.g.link(b, join);
        }
        self.depth -= 1;
        self.breaks.pop();
        // A decision's outcomes are distinct nodes.
        let next = &mut self.g.nodes[b].next;
        let mut seen = std::collections::BTreeSet::new();
        next.retain(|x| seen.insert(*x));
        Ok(join)
    }

    fn loop_stmt(&mut self, n: Node, cur: usize) -> Result<usize, String> {
        let line = self.line(n);
        let id = self.loops;
        self.loops += 1;
        let k = kind_of(n);
        let body = field(n, "body").ok_or_else(|| format!("a loop without a body at line {line}"))?;
        // A labeled loop keeps its label: the counter goes before the label.
        let mut unit = n;
        while let Some(p) = unit.parent().filter(|p| kind_of(*p) == "labeled_statement") {
            unit = p;
        }
        let in_list = unit.parent().is_some_and(|p| matches!(kind_of(p), "compound_statement" | "case_statement"));
        let before = pragmas_before(unit);
        let (xl, xc) = position(self.text, n.start_byte());
        let place = Place::Loop {
            before,
            unit: unit.byte_range(),
            in_list,
            body: body.byte_range(),
            body_is_block: kind_of(body) == "compound_statement",
        };
        let enter = self.g.add(Op::LoopEnter, 0);
        self.g.nodes[enter].loop_ = Some(id);
        self.g.link(cur, enter);
        let mut from = enter;
        if k == "for_statement" {
            if let Some(init) = field(n, "initializer") {
                from = self.plain(init, enter);
            }
        }
        let test_line = match (k, field(n, "condition")) {
            ("do_statement", Some(c)) => self.line(c),
            ("for_statement", None) => 0, // `for (;;)` tests nothing
            _ => line,
        };
        let test = self.g.add(Op::LoopTest, test_line);
        self.g.nodes[test].loop_ = Some(id);
        let lbody = self.g.add(Op::LoopBody, 0);
        self.g.nodes[lbody].loop_ = Some(id);
        let exit = self.site_node(SiteKind::LoopExit, xl, xc, place);
        self.g.nodes[exit].loop_ = Some(id);
        let (bl, bc) = position(self.text, body.start_byte());
        let body_place = if kind_of(body) == "compound_statement" {
            Place::At(body.start_byte() + 1)
        } else {
            Place::Wrap(body.byte_range())
        };
        let iter = self.site_node(SiteKind::Iteration, bl, bc, body_place);
        self.g.link(lbody, iter);
        // `for (;;)` and `while (true)`-like loops still get both outcomes: a `break` leaves.
        let cont = if k == "for_statement" {
            match field(n, "update") {
                Some(u) => {
                    let s = self.g.add(Op::Stmt, self.line(u));
                    self.inline_sites(u, 0);
                    self.g.link(s, test);
                    s
                }
                None => test,
            }
        } else {
            test
        };
        if let Some(c) = field(n, "condition") {
            self.inline_sites(c, 0);
        }
        if k == "do_statement" {
            self.g.link(from, lbody);
        } else {
            self.g.link(from, test);
        }
        self.g.link(test, lbody);
        self.g.link(test, exit);
        self.breaks.push(exit);
        self.continues.push(cont);
        self.depth += 1;
        let end = self.nested(iter, |s| s.stmt(body, iter))?;
        self.depth -= 1;
        self.g.link(end, cont);
        self.breaks.pop();
        self.continues.pop();
        let after = self.nop();
        self.g.link(exit, after);
        Ok(after)
    }

    fn labeled(&mut self, n: Node, cur: usize) -> Result<usize, String> {
        let name = field(n, "label").map(|l| self.text[l.byte_range()].to_string()).unwrap_or_default();
        let inner = n.named_children(&mut n.walk()).filter(|c| kind_of(*c) != "comment").last();
        let target = self.targets.contains(&name);
        let node = if target {
            if inner.is_some_and(|i| {
                matches!(kind_of(i), "while_statement" | "for_statement" | "for_range_loop" | "do_statement")
            }) {
                return Err(format!("goto {name}: a goto to a loop's own label is not traced"));
            }
            let colon = (0..n.child_count()).filter_map(|i| n.child(i)).find(|k| k.kind() == ":");
            let in_list = n.parent().is_some_and(|p| matches!(kind_of(p), "compound_statement" | "case_statement"));
            let place = match (in_list, colon, inner) {
                (true, Some(c), _) => Place::At(c.end_byte()),
                (_, _, Some(i)) => Place::Wrap(i.byte_range()),
                _ => return Err(format!("label {name} without a statement")),
            };
            let (line, col) = position(self.text, n.start_byte());
            self.site_node(SiteKind::Label, line, col, place)
        } else {
            self.nop()
        };
        self.g.link(cur, node);
        self.labels.insert(name, node);
        match inner {
            Some(i) => self.stmt(i, node),
            None => Ok(node),
        }
    }

    /// Candidates for `?:` arms and `&&`/`||` right operands inside `n`, not inside lambdas or
    /// nested statements.
    fn inline_sites(&mut self, n: Node, depth: usize) {
        let mut stack = vec![(n, depth)];
        while let Some((n, depth)) = stack.pop() {
            let k = kind_of(n);
            if matches!(k, "lambda_expression" | "compound_statement") {
                continue;
            }
            let mut inner = depth;
            if k == "conditional_expression" {
                if let (Some(a), Some(b)) = (field(n, "consequence"), field(n, "alternative")) {
                    let pure = !has_effects(a) && !has_effects(b);
                    for (arm, kind) in [(a, SiteKind::TernaryTrue), (b, SiteKind::TernaryFalse)] {
                        self.operand(kind, arm, depth, pure);
                    }
                    inner = depth + usize::from(!pure);
                }
            } else if k == "binary_expression" {
                let op = field(n, "operator").map(|o| &self.text[o.byte_range()]);
                let kind = match op {
                    Some("&&" | "and") => Some(SiteKind::AndRight),
                    Some("||" | "or") => Some(SiteKind::OrRight),
                    _ => None,
                };
                if let (Some(kind), Some(r)) = (kind, field(n, "right")) {
                    let pure = !has_effects(r);
                    self.operand(kind, r, depth, pure);
                    inner = depth + usize::from(!pure);
                }
            }
            for c in named_children(n).rev() {
                stack.push((c, inner));
            }
        }
    }

    fn operand(&mut self, kind: SiteKind, arm: Node, depth: usize, pure: bool) {
        let (line, col) = position(self.text, arm.start_byte());
        self.cands.push(Candidate {
            kind,
            line,
            col,
            place: Place::Operand { span: arm.byte_range(), depth },
            node: None,
            parent: self.parents.last().copied(),
            depth: self.depth,
            pure,
        });
    }
}

fn kind_of(n: Node) -> &'static str {
    kind(n)
}

/// Calls, assignments, increments, `new`/`delete`, `throw` or `co_await` anywhere in `n`.
fn has_effects(n: Node) -> bool {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        match kind_of(n) {
            "call_expression"
            | "assignment_expression"
            | "update_expression"
            | "new_expression"
            | "delete_expression"
            | "throw_expression"
            | "co_await_expression"
            | "co_yield_statement" => return true,
            "lambda_expression" => continue,
            _ => stack.extend(named_children(n)),
        }
    }
    false
}

/// Where "before the statement `unit`" is: its start, or, when `#pragma` lines sit right before
/// it (comments between), the end of what precedes them (a `{`, a statement): a probe inserted there stays on that
/// line, and the pragmas stay next to the loop they were written for.
fn pragmas_before(unit: Node) -> usize {
    let mut prev = unit.prev_sibling();
    let mut any = false;
    while let Some(p) = prev.filter(|p| matches!(kind_of(*p), "preproc_call" | "comment")) {
        any |= kind_of(p) == "preproc_call";
        prev = p.prev_sibling();
    }
    match prev {
        Some(p) if any => p.end_byte(),
        _ => unit.start_byte(),
    }
}

fn collect_goto_targets(n: Node, text: &str, out: &mut Vec<String>) {
    let mut stack = vec![n];
    while let Some(n) = stack.pop() {
        if kind_of(n) == "goto_statement" {
            if let Some(l) = field(n, "label") {
                out.push(text[l.byte_range()].to_string());
            }
        }
        stack.extend(named_children(n));
    }
}

/// The graph of every function of `model` (same order), or why a function cannot be traced.
pub fn attach(model: &mut crate::model::FileModel, tree: &tree_sitter::Tree, text: &str) {
    let by_body: HashMap<usize, usize> = model.functions.iter().enumerate().map(|(i, f)| (f.body.start, i)).collect();
    let mut cfgs: Vec<Result<FunctionCfg, String>> =
        vec![Err("its body was not found in the syntax tree".into()); model.functions.len()];
    let mut cursor = tree.root_node().walk();
    loop {
        let node = cursor.node();
        if node.kind() == "function_definition" {
            let body = node.child_by_field_name("body");
            if let Some((b, &i)) = body.and_then(|b| by_body.get(&b.start_byte()).map(|i| (b, i))) {
                if b.byte_range() == model.functions[i].body {
                    cfgs[i] = function(b, text);
                }
            }
        } else if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                model.cfgs = cfgs;
                return;
            }
        }
    }
}
