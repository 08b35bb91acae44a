//! Control-flow tracing (`--probes branches`): each probed function as a small control-flow
//! graph, the record sites on it, and the rule that decides which sites are needed.
//!
//! The graph is built from the syntax tree ([`build`]); the manifest keeps it; the decoder
//! ([`replay`]) walks it driven by the recorded site ids. A walk reaching a decision looks at
//! the next record: the successor whose *first records* ([`first`]) hold it is the one taken.
//! So a site is needed only where, without it, two successors of some decision could start with
//! the same record. Planning starts from a site at every successor of every decision (the
//! candidates) and drops each one whose removal keeps every decision decidable ([`prune`]):
//! the seed's rule ("a successor that ends in a conditional branch needs no record, the next
//! record implies it"), checked instead of assumed. Loops are counted: the loop's exit record
//! carries its trip count, so a loop with no decision inside records once, not per iteration.

pub mod build;
pub mod plan;
pub mod replay;

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a graph node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Node 0: the function is entered.
    Entry,
    /// Node 1: the function has returned.
    Exit,
    /// A statement starts at `line` (counted per visit).
    Stmt,
    /// A decision (`if`, `switch`): `next` are its outcomes.
    Branch,
    /// A loop is entered: its trip counter starts at 0.
    LoopEnter,
    /// A loop's test: `next[0]` iterates, `next[1]` (if any) leaves.
    LoopTest,
    /// A loop's body is entered: its trip counter counts it.
    LoopBody,
    /// A record site (`site` is its id once kept; a dropped candidate becomes [`Op::Nop`]).
    Site,
    /// A join or a dropped site: passes control on.
    Nop,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Node {
    pub op: Op,
    /// 1-based source line (0: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub line: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub next: Vec<usize>,
    /// For a site: its probe id (while planning: its candidate index).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<u32>,
    /// For loop nodes, and for the site that records a loop's exit: the loop (0, 1, ... in the function).
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "loop")]
    pub loop_: Option<usize>,
}

fn is_zero(v: &usize) -> bool {
    *v == 0
}

/// A function's graph: node 0 is [`Op::Entry`], node 1 [`Op::Exit`].
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Graph {
    pub nodes: Vec<Node>,
}

/// What the walk sees next: a site's record, or the end of the records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tok {
    Site(u32),
    End,
}

impl Graph {
    pub const ENTRY: usize = 0;
    pub const EXIT: usize = 1;

    pub fn new() -> Graph {
        let mut g = Graph::default();
        g.add(Op::Entry, 0);
        g.add(Op::Exit, 0);
        g
    }

    pub fn add(&mut self, op: Op, line: usize) -> usize {
        self.nodes.push(Node { op, line, next: Vec::new(), site: None, loop_: None });
        self.nodes.len() - 1
    }

    pub fn link(&mut self, from: usize, to: usize) {
        self.nodes[from].next.push(to);
    }

    /// The records a walk from `start` can meet first: the sites reachable without passing
    /// another site, and [`Tok::End`] when the exit is.
    pub fn first(&self, start: usize) -> BTreeSet<Tok> {
        let mut out = BTreeSet::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![start];
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            let node = &self.nodes[n];
            match (node.op, node.site) {
                (Op::Site, Some(s)) => {
                    out.insert(Tok::Site(s));
                }
                (Op::Exit, _) => {
                    out.insert(Tok::End);
                }
                _ => stack.extend(node.next.iter().copied()),
            }
        }
        out
    }

    /// The site a loop test's exit goes to first, when that site records the same loop's trip
    /// count: such a test is decided by the count.
    pub fn counted_exit(&self, test: usize) -> Option<u32> {
        let node = &self.nodes[test];
        let exit = &self.nodes[*node.next.get(1)?];
        (exit.op == Op::Site && exit.loop_.is_some() && exit.loop_ == node.loop_).then_some(exit.site).flatten()
    }

    /// The decisions whose successors the next record cannot tell apart, as node indices.
    pub fn undecidable(&self) -> Vec<usize> {
        let mut bad = Vec::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let decides = match n.op {
                Op::Branch => true,
                Op::LoopTest => self.counted_exit(i).is_none(),
                _ => false,
            };
            if decides && n.next.len() > 1 && !self.disjoint(&n.next) {
                bad.push(i);
            }
        }
        bad
    }

    fn disjoint(&self, succ: &[usize]) -> bool {
        let distinct: BTreeSet<usize> = succ.iter().copied().collect();
        let mut seen = BTreeSet::new();
        for s in distinct {
            for t in self.first(s) {
                if !seen.insert(t) {
                    return false;
                }
            }
        }
        true
    }
}

/// Drop every candidate site (node indices of [`Op::Site`] nodes, tried in the given order)
/// whose removal leaves every decision decidable. `keep` are never dropped. Returns the
/// nodes dropped. The graph must be decidable with every candidate in place.
pub fn prune(g: &mut Graph, order: &[usize]) -> Vec<usize> {
    let mut dropped = Vec::new();
    for &n in order {
        let site = g.nodes[n].site.take();
        g.nodes[n].op = Op::Nop;
        if g.undecidable().is_empty() {
            dropped.push(n);
        } else {
            g.nodes[n].op = Op::Site;
            g.nodes[n].site = site;
        }
    }
    dropped
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `while (c) { if (a) X; }` with candidates at the arm (1), the body (2) and the exit (3).
    fn loop_with_if() -> (Graph, [usize; 3]) {
        let mut g = Graph::new();
        let enter = g.add(Op::LoopEnter, 1);
        let test = g.add(Op::LoopTest, 1);
        let body = g.add(Op::LoopBody, 1);
        let iter = g.add(Op::Site, 1);
        let br = g.add(Op::Branch, 2);
        let arm = g.add(Op::Site, 2);
        let x = g.add(Op::Stmt, 2);
        let exit = g.add(Op::Site, 3);
        for (n, s) in [(arm, 1), (iter, 2), (exit, 3)] {
            g.nodes[n].site = Some(s);
        }
        for n in [enter, test, body, exit] {
            g.nodes[n].loop_ = Some(0);
        }
        for (a, b) in [(Graph::ENTRY, enter), (enter, test), (test, body), (test, exit), (body, iter), (iter, br)] {
            g.link(a, b);
        }
        for (a, b) in [(br, arm), (br, test), (arm, x), (x, test), (exit, Graph::EXIT)] {
            g.link(a, b);
        }
        (g, [arm, iter, exit])
    }

    #[test]
    fn an_if_without_else_in_a_loop_needs_the_iteration_site() {
        let (mut g, [arm, iter, exit]) = loop_with_if();
        assert!(g.undecidable().is_empty());
        let dropped = prune(&mut g, &[iter, arm, exit]);
        // Without the iteration site, "not taken, then taken next time" starts with the arm's
        // record just like "taken now"; the exit is implied by the function's end.
        assert_eq!(dropped, vec![exit]);
    }

    #[test]
    fn a_loop_without_decisions_keeps_only_its_counted_exit() {
        let mut g = Graph::new();
        let enter = g.add(Op::LoopEnter, 1);
        let test = g.add(Op::LoopTest, 1);
        let body = g.add(Op::LoopBody, 1);
        let iter = g.add(Op::Site, 1);
        let s = g.add(Op::Stmt, 2);
        let exit = g.add(Op::Site, 3);
        g.nodes[iter].site = Some(1);
        g.nodes[exit].site = Some(2);
        for n in [enter, test, body, exit] {
            g.nodes[n].loop_ = Some(0);
        }
        for (a, b) in [(Graph::ENTRY, enter), (enter, test), (test, body), (test, exit), (body, iter), (iter, s)] {
            g.link(a, b);
        }
        g.link(s, test);
        g.link(exit, Graph::EXIT);
        assert_eq!(prune(&mut g, &[iter, exit]), vec![iter]);
        assert_eq!(g.counted_exit(test), Some(2));
    }
}
