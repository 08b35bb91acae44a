//! Planning a function's branch trace: drop the candidate sites the others imply, number the
//! rest, and the edits that record them (macros of hls-lib `hlsinstr/branches.h`):
//!
//! | site | inserted |
//! |---|---|
//! | entry and return | `HLSINSTR_BR_FUNC(entry, return, O);` after the body's `{` |
//! | an arm, case, label or loop body | `HLSINSTR_BR(id, O);` first in it (braces `{/*hlsinstr*/ ... }/*hlsinstr*/` around a statement that is not in a list) |
//! | a loop's exit | `HLSINSTR_BR_LOOP(id);` before the loop, `HLSINSTR_BR_ITER(id);` first in its body, `HLSINSTR_BR_EXIT(id, O);` after it (the record carries the trip count) |
//! | a `?:` arm, `&&`/`||` right operand with calls or side effects | `HLSINSTR_BR_V(id, O, operand)` |
//!
//! OpenCL C has no destructors: there the entry is `HLSINSTR_BR_UNIT(unit, entry, O);` (the
//! function's iBuffer unit, then the entry's record), and the return is recorded by
//! `HLSINSTR_BR_END(return, O);` before every `return` (braced with it when not in a list) and
//! where the body falls off its end (opencl-lib `hlsinstr_probe.cl`).

use super::build::{prune_order, FunctionCfg, Place, SiteKind};
use super::{Graph, Op};
use crate::edit::{Edit, Rank};
use crate::plan::{CLOSE_BRACE, OPEN_BRACE};

/// A kept site, numbered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedSite {
    pub id: u32,
    pub kind: SiteKind,
    /// Index of the function in the file model.
    pub function: usize,
    pub line: usize,
    pub col: usize,
    /// The site it sits in (none for a function's entry).
    pub parent: Option<u32>,
}

/// A traced function: its graph with site ids, and the operands left unprobed because pure.
#[derive(Debug, Clone)]
pub struct TracedPlan {
    pub function: usize,
    pub entry: u32,
    pub ret: u32,
    pub graph: Graph,
    /// (kind, line, column) of `?:`/`&&`/`||` operands without calls or side effects.
    pub pure: Vec<(SiteKind, usize, usize)>,
    /// OpenCL C: the iBuffer unit the function's records go to (its site ids count from 0).
    pub unit: Option<u32>,
}

/// How a function without destructors (OpenCL C) records: its unit, and where its body falls
/// off its end (`Function::falls_off_at`), if it can.
#[derive(Debug, Clone, Copy)]
pub struct NoDestructor {
    pub unit: u32,
    pub open_at: usize,
    pub falls_off_at: Option<usize>,
}

/// Work bound of the search for droppable sites (candidates × decisions × nodes): past it every
/// candidate is kept, which is exact but records more.
const PRUNE_WORK: usize = 400_000_000;

/// Nesting levels of the edits: statements at depth `d` use `2d + 1` (loops; arms and labels
/// wrap at `2d`, loop bodies at `2d + 2`), above the function level of the module probes.
fn level(depth: usize) -> i32 {
    2 * depth as i32 + 1
}
/// Operand wrappers: inside every statement, outside the m_axi wrappers.
const OPERAND_LEVEL: i32 = (1 << 20) - 4096;

/// Plan the trace of function `fi` whose graph is `cfg`; `o` is the options (`P`, `T`, `S`, `TS`).
pub fn plan_function(
    fi: usize,
    cfg: &FunctionCfg,
    o: &str,
    cl: Option<NoDestructor>,
    next_id: &mut u32,
    edits: &mut Vec<Edit>,
    sites: &mut Vec<PlannedSite>,
) -> Result<TracedPlan, String> {
    let mut graph = cfg.graph.clone();
    if let Some(&bad) = graph.undecidable().first() {
        return Err(format!(
            "its trace could not be decoded exactly at line {} (please report this function)",
            graph.nodes[bad].line
        ));
    }
    let order = prune_order(&cfg.candidates);
    let decisions = graph.nodes.iter().filter(|n| matches!(n.op, Op::Branch | Op::LoopTest)).count();
    if order.len().saturating_mul(decisions).saturating_mul(graph.nodes.len()) <= PRUNE_WORK {
        super::prune(&mut graph, &order);
    }
    // Number the kept candidates in source order of their candidates.
    let mut ids: Vec<Option<u32>> = vec![None; cfg.candidates.len()];
    let kept = |i: usize| match cfg.candidates[i].node {
        Some(n) => graph.nodes[n].op == Op::Site,
        None => !cfg.candidates[i].pure,
    };
    for (i, id) in ids.iter_mut().enumerate() {
        if kept(i) {
            *id = Some(*next_id);
            *next_id += 1;
        }
    }
    for n in &mut graph.nodes {
        if n.op == Op::Site {
            n.site = n.site.and_then(|c| ids[c as usize]);
        }
    }
    let entry = ids[0].ok_or("no entry site")?;
    let ret = ids[1].ok_or("no return site")?;
    let mut pure = Vec::new();
    for (i, c) in cfg.candidates.iter().enumerate() {
        let Some(id) = ids[i] else {
            if c.pure {
                pure.push((c.kind, c.line, c.col));
            }
            continue;
        };
        // The nearest enclosing kept site.
        let mut parent = c.parent;
        while let Some(p) = parent.filter(|&p| ids[p].is_none()) {
            parent = cfg.candidates[p].parent;
        }
        let parent = if i == 0 { None } else { parent.and_then(|p| ids[p]) };
        sites.push(PlannedSite { id, kind: c.kind, function: fi, line: c.line, col: c.col, parent });
        let d = c.depth;
        match (&c.place, c.kind) {
            (Place::Function(at), SiteKind::Entry) => {
                let text = match cl {
                    Some(cl) => format!("HLSINSTR_BR_UNIT({}, {entry}, {o});", cl.unit),
                    None => format!("HLSINSTR_BR_FUNC({entry}, {ret}, {o});"),
                };
                edits.push(Edit::token(*at, text, Rank::open(-1, 250)))
            }
            (Place::Function(_), _) | (Place::At(_), SiteKind::Iteration) => {}
            (Place::At(at), _) => {
                edits.push(Edit::token(*at, format!("HLSINSTR_BR({id}, {o});"), Rank::open(2 * d as i32, 1)))
            }
            (Place::Wrap(span), SiteKind::Iteration) => {
                // The loop's own body: the exit's counter (if any) is inserted with it.
                let _ = span;
            }
            (Place::Wrap(span), _) => {
                let l = 2 * d as i32;
                edits.push(Edit::token(span.start, OPEN_BRACE, Rank::open(l, 0)));
                edits.push(Edit::token(span.start, format!("HLSINSTR_BR({id}, {o});"), Rank::open(l, 1)));
                edits.push(Edit::token(span.end, CLOSE_BRACE, Rank::close(l, 1)));
            }
            (Place::Loop { before, unit, in_list, .. }, _) => {
                let l = level(d);
                if !in_list {
                    edits.push(Edit::token(unit.start, OPEN_BRACE, Rank::open(l, 0)));
                    edits.push(Edit::token(unit.end, CLOSE_BRACE, Rank::close(l, 1)));
                }
                edits.push(Edit::token(*before, format!("HLSINSTR_BR_LOOP({id});"), Rank::open(l, 1)));
                edits.push(Edit::token(unit.end, format!("HLSINSTR_BR_EXIT({id}, {o});"), Rank::close(l, 0)));
            }
            (Place::Operand { span, depth }, _) => {
                let l = OPERAND_LEVEL + 2 * *depth as i32;
                edits.push(Edit::raw(span.start, format!("HLSINSTR_BR_V({id}, {o}, "), Rank::open(l, 0)));
                edits.push(Edit::raw(span.end, ")", Rank::close(l, 0)));
            }
        }
    }
    // Loop bodies: the exit's counter and the iteration's record, braced together if needed.
    for (i, c) in cfg.candidates.iter().enumerate() {
        let Place::Loop { body, body_is_block, .. } = &c.place else { continue };
        // The iteration candidate follows its loop's exit candidate.
        let iter = ids.get(i + 1).copied().flatten().filter(|_| cfg.candidates[i + 1].kind == SiteKind::Iteration);
        let mut inside = Vec::new();
        if let Some(x) = ids[i] {
            inside.push(format!("HLSINSTR_BR_ITER({x});"));
        }
        if let Some(it) = iter {
            inside.push(format!("HLSINSTR_BR({it}, {o});"));
        }
        if inside.is_empty() {
            continue;
        }
        let l = level(c.depth) + 1;
        let at = if *body_is_block { body.start + 1 } else { body.start };
        if !body_is_block {
            edits.push(Edit::token(body.start, OPEN_BRACE, Rank::open(l, 0)));
            edits.push(Edit::token(body.end, CLOSE_BRACE, Rank::close(l, 1)));
        }
        for (k, t) in inside.into_iter().enumerate() {
            edits.push(Edit::token(at, t, Rank::open(l, 1 + k as u8)));
        }
    }
    if let Some(cl) = cl {
        return_edits(cfg, cl, ret, o, edits);
    }
    Ok(TracedPlan { function: fi, entry, ret, graph, pure, unit: cl.map(|c| c.unit) })
}

/// Without destructors: the return's record before every `return` and at the fall-off end.
fn return_edits(cfg: &FunctionCfg, cl: NoDestructor, ret: u32, o: &str, edits: &mut Vec<Edit>) {
    let record = format!("HLSINSTR_BR_END({ret}, {o});");
    for (place, depth) in &cfg.returns {
        let l = level(*depth);
        match place {
            Place::At(at) => edits.push(Edit::token(*at, record.clone(), Rank::open(l, 1))),
            Place::Wrap(span) => {
                edits.push(Edit::token(span.start, OPEN_BRACE, Rank::open(l, 0)));
                edits.push(Edit::token(span.start, record.clone(), Rank::open(l, 1)));
                edits.push(Edit::token(span.end, CLOSE_BRACE, Rank::close(l, 1)));
            }
            _ => {}
        }
    }
    if let Some(at) = cl.falls_off_at {
        // After every loop's exit record; in an empty body after the entry.
        let rank = if at == cl.open_at { Rank::open(-1, 251) } else { Rank::close(-1, 2) };
        edits.push(Edit::token(at, record, rank));
    }
}
