//! Vitis / Vivado HLS schedule reports (`<module>.verbose.sched.rpt` in `solution/.autopilot/db`):
//! FSM states, the operations scheduled in each, their `[file:line]` tags and predicates, and
//! the pipelines (which states are the stages of one iteration, and the II).
//!
//! Lines the parser does not know are skipped: versions add sections. A file with neither the
//! report title nor a `State N` section is refused, with what to give instead.

use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::path::Path;

const NOT_A_SCHEDULE: &str = "not a schedule report: give the `<module>.verbose.sched.rpt` files Vitis HLS writes \
    in <solution>/.autopilot/db (csynth with the default `config_export`/verbose reports)";

/// One module's schedule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Schedule {
    /// The module name the report is for (`multiplier_Pipeline_1`): the RTL module is this,
    /// possibly prefixed by the top's name (`multiplier_multiplier_Pipeline_1`).
    pub module: String,
    /// The report says it is the top (`IsTopModel: 1`).
    pub is_top: bool,
    /// States in report order, numbered from 1.
    pub states: Vec<State>,
    /// Pipelines, in report order (`Pipeline-0`, ...).
    pub pipelines: Vec<Pipeline>,
    /// `* FSM state transitions`: each state's successors as the report lists them (a loop is a
    /// cycle of these; reports without the section: empty).
    pub transitions: Vec<(u32, Vec<u32>)>,
}

/// One FSM state and what is scheduled in it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct State {
    pub id: u32,
    pub ops: Vec<Op>,
}

/// One scheduled operation (a multi-cycle one appears in each state it spans).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Op {
    /// The report's operation number.
    pub id: u32,
    /// `load`, `store`, `call`, `icmp`, ...
    pub opcode: String,
    /// The value the operation defines (`icmp_ln4`), the RTL signals' prefix.
    pub name: String,
    /// The `[file:line]` tag, when the report has one.
    pub loc: Option<Loc>,
    /// When the operation takes effect.
    pub predicate: Predicate,
}

/// A source position as the report writes it (the path relative to the project as Vitis saw it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct Loc {
    pub file: String,
    pub line: u32,
}

/// A predicate in disjunctive normal form: the op runs when any term holds; a term holds when
/// all its literals do. `<Predicate = true>` is one empty term.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Predicate {
    Dnf(Vec<Vec<Lit>>),
    /// A form this parser does not read (kept as written): evaluation is not attempted.
    Unparsed(String),
}

/// `v`, `!v` or `v == N` on an operation's value `v`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Lit {
    pub var: String,
    /// `None`: the value is tested as a boolean (non-zero); `Some(n)`: equality with n.
    pub equals: Option<u64>,
    /// The literal is negated.
    pub negated: bool,
}

impl Predicate {
    /// Always true (no condition).
    pub fn is_true(&self) -> bool {
        matches!(self, Predicate::Dnf(t) if t.iter().any(|t| t.is_empty()))
    }

    fn parse(text: &str) -> Predicate {
        let t = text.trim();
        if t == "true" {
            return Predicate::Dnf(vec![vec![]]);
        }
        let mut terms = Vec::new();
        for term in split_top(t, '|') {
            let term = strip_parens(term.trim());
            let mut lits = Vec::new();
            for lit in split_top(term, '&') {
                match parse_lit(strip_parens(lit.trim())) {
                    Some(l) => lits.push(l),
                    None => return Predicate::Unparsed(text.to_string()),
                }
            }
            terms.push(lits);
        }
        Predicate::Dnf(terms)
    }
}

fn split_top(s: &str, sep: char) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0usize, Vec::new());
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&s[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

fn strip_parens(mut s: &str) -> &str {
    while s.starts_with('(') && s.ends_with(')') && split_top(&s[1..s.len() - 1], ')').len() == 1 {
        s = s[1..s.len() - 1].trim();
    }
    s
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

fn parse_lit(s: &str) -> Option<Lit> {
    let (negated, rest) = match s.strip_prefix('!') {
        Some(r) => (true, r.trim()),
        None => (false, s),
    };
    if let Some((v, n)) = rest.split_once("==") {
        let (v, n) = (v.trim(), n.trim());
        return (is_ident(v) && !negated)
            .then_some(Lit { var: v.into(), equals: Some(n.parse().ok()?), negated })?
            .into();
    }
    if let Some((v, n)) = rest.split_once("!=") {
        let (v, n) = (v.trim(), n.trim());
        return (is_ident(v) && !negated).then_some(Lit {
            var: v.into(),
            equals: Some(n.parse().ok()?),
            negated: true,
        });
    }
    is_ident(rest).then(|| Lit { var: rest.into(), equals: None, negated })
}

/// A pipeline: its stages are `states` in order; a new iteration may start every `ii` states.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pipeline {
    pub ii: u32,
    pub depth: u32,
    pub states: Vec<u32>,
}

impl Schedule {
    /// The state numbered `id`, if the report has it.
    pub fn state(&self, id: u32) -> Option<&State> {
        self.states
            .get((id as usize).checked_sub(1)?)
            .filter(|s| s.id == id)
            .or_else(|| self.states.iter().find(|s| s.id == id))
    }

    /// The state that defines value `name` (its first state, for a multi-cycle op).
    pub fn defining_state(&self, name: &str) -> Option<u32> {
        self.states.iter().find(|s| s.ops.iter().any(|o| o.name == name)).map(|s| s.id)
    }

    /// Reads one report file.
    pub fn read(path: &Path) -> Result<Schedule> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
        Schedule::parse(&text).map_err(|e| e.at(path))
    }

    /// Parses a report's text.
    pub fn parse(text: &str) -> Result<Schedule> {
        let mut module = None;
        let mut is_top = false;
        let mut states: Vec<State> = Vec::new();
        let mut pipelines = Vec::new();
        let mut transitions = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim();
            if let Some(tr) = parse_transition(t) {
                transitions.push(tr);
            } else if let Some(rest) = t.strip_prefix("== ").filter(|r| r.contains("Report for '")) {
                module = rest.split('\'').nth(1).map(str::to_string);
            } else if let Some(v) = t.strip_prefix("IsTopModel:") {
                is_top = v.trim() == "1";
            } else if let Some(p) = t.strip_prefix("Pipeline-").filter(|p| p.contains("States = {")) {
                pipelines.push(parse_pipeline(p).ok_or_else(|| bad_line(n, "a pipeline line it cannot read"))?);
            } else if let Some(rest) = t.strip_prefix("State ") {
                if let Some(id) = rest.split_whitespace().next().and_then(|w| w.parse::<u32>().ok()) {
                    // `State N <SV = ..> <Delay = ..>` opens a state's operations; later sections
                    // (timing, FSMD analysis) name states again without them.
                    if (rest.contains("<SV") || rest.contains("<Delay")) && !states.iter().any(|s| s.id == id) {
                        states.push(State { id, ops: Vec::new() });
                    }
                }
            } else if t.starts_with("ST_") && t.contains("Operation") {
                let op = parse_op(t).ok_or_else(|| bad_line(n, "an operation line it cannot read"))?;
                let (sid, op) = op;
                match states.last_mut() {
                    Some(s) if s.id == sid => s.ops.push(op),
                    _ => match states.iter_mut().find(|s| s.id == sid) {
                        Some(s) => s.ops.push(op),
                        None => states.push(State { id: sid, ops: vec![op] }),
                    },
                }
            }
        }
        let module = match module {
            Some(m) if !states.is_empty() => m,
            Some(m) => {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!("the report for '{m}' has no `State N` sections: {NOT_A_SCHEDULE}"),
                ))
            }
            None => return Err(Error::new(ErrorKind::BadInput, NOT_A_SCHEDULE)),
        };
        Ok(Schedule { module, is_top, states, pipelines, transitions })
    }
}

fn bad_line(n: usize, what: &str) -> Error {
    Error::new(ErrorKind::BadInput, format!("{what}; is the report truncated or hand-edited?")).at_line(n + 1, 1)
}

/// `2 --> 4 3` (a state and its successors; the last state has none).
fn parse_transition(t: &str) -> Option<(u32, Vec<u32>)> {
    let (from, to) = t.split_once("-->")?;
    let from = from.trim().parse().ok()?;
    let to = to.split_whitespace().map(|s| s.parse().ok()).collect::<Option<Vec<u32>>>()?;
    Some((from, to))
}

/// `0 : II = 1, D = 3, States = { 1 2 3 }` (after `Pipeline-`).
fn parse_pipeline(p: &str) -> Option<Pipeline> {
    let field = |key: &str| -> Option<u32> {
        let at = p.find(key)? + key.len();
        p[at..].trim_start().split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
    };
    let ii = field("II =")?;
    let depth = field("D =")?;
    let inside = p.split_once('{')?.1.split_once('}')?.0;
    let states = inside.split_whitespace().map(|s| s.parse().ok()).collect::<Option<Vec<u32>>>()?;
    Some(Pipeline { ii, depth, states })
}

/// `ST_1 : Operation 9 [1/1] (0.81ns)   --->   "%x = icmp ..." [f.cpp:4]   --->   Operation 9 'icmp' 'x' <Predicate = ...> ...`
fn parse_op(t: &str) -> Option<(u32, Op)> {
    let mut parts = t.split("--->");
    let head = parts.next()?;
    let ir = parts.next()?;
    let tail = parts.next()?;
    let sid: u32 = head.strip_prefix("ST_")?.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()?;
    let id: u32 = head.split_once("Operation")?.1.split_whitespace().next()?.parse().ok()?;
    // The tag follows the IR text's closing quote.
    let after_ir = &ir[ir.rfind('"').map_or(0, |q| q + 1)..];
    let loc = after_ir.trim().strip_prefix('[').and_then(|r| r.split_once(']')).and_then(|(tag, _)| {
        let (file, line) = tag.rsplit_once(':')?;
        Some(Loc { file: file.to_string(), line: line.trim().parse().ok()? })
    });
    let mut quoted = tail.split('\'').skip(1).step_by(2);
    let opcode = quoted.next()?.to_string();
    let name = quoted.next().unwrap_or("").to_string();
    let predicate = match tail.split_once("<Predicate =") {
        Some((_, p)) => Predicate::parse(p.split_once('>')?.0),
        None => Predicate::Dnf(vec![vec![]]),
    };
    Some((sid, Op { id, opcode, name, loc, predicate }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINI: &str = "== Vitis HLS Report for 'k'\nIsTopModel: 1\n  Pipeline-0 : II = 2, D = 4, States = { 2 3 4 5 }\n\
        * FSM state transitions: \n1 --> 2 \n2 --> 3 1 \n3 --> \n\
        State 1 <SV = 0> <Delay = 1.00>\n\
        ST_1 : Operation 3 [1/1] (0.81ns)   --->   \"%c = icmp_eq i7 %p, i7 64\" [a/k.cpp:4]   --->   Operation 3 'icmp' 'c' <Predicate = true> <Delay = 0.81>\n\
        ST_1 : Operation 4 [1/1] (0.00ns)   --->   \"%s = store i32 0, i3 %a\" [a/k.cpp:5]   --->   Operation 4 'store' 's' <Predicate = (!c & p_cast1 == 6)> <Delay = 0.6>\n\
        some line a newer version adds\n\
        State 1\n\
        ST_1 : Operation 5 [1/1] (0.00ns)   --->   \"%r = ret\"   --->   Operation 5 'ret' 'r' <Predicate = (c)> <Delay = 0.00>\n";

    #[test]
    fn reads_states_ops_tags_and_predicates() {
        let s = Schedule::parse(MINI).unwrap();
        assert_eq!(s.module, "k");
        assert!(s.is_top);
        assert_eq!(s.pipelines, vec![Pipeline { ii: 2, depth: 4, states: vec![2, 3, 4, 5] }]);
        assert_eq!(s.transitions, vec![(1, vec![2]), (2, vec![3, 1]), (3, vec![])]);
        let ops = &s.state(1).unwrap().ops;
        assert_eq!(ops.len(), 3);
        assert_eq!(s.states.len(), 1, "`State 1` of a later section is no new state");
        assert_eq!(ops[0].loc, Some(Loc { file: "a/k.cpp".into(), line: 4 }));
        assert!(ops[0].predicate.is_true());
        assert_eq!(
            ops[1].predicate,
            Predicate::Dnf(vec![vec![
                Lit { var: "c".into(), equals: None, negated: true },
                Lit { var: "p_cast1".into(), equals: Some(6), negated: false }
            ]])
        );
        assert_eq!(ops[2].loc, None);
        assert_eq!(ops[2].opcode, "ret");
    }

    #[test]
    fn disjunctions_and_unknown_forms() {
        let p = Predicate::parse("(a & !b) | (c == 2)");
        assert_eq!(
            p,
            Predicate::Dnf(vec![
                vec![
                    Lit { var: "a".into(), equals: None, negated: false },
                    Lit { var: "b".into(), equals: None, negated: true }
                ],
                vec![Lit { var: "c".into(), equals: Some(2), negated: false }],
            ])
        );
        assert!(matches!(Predicate::parse("a < 3"), Predicate::Unparsed(_)));
    }

    #[test]
    fn refuses_what_is_not_a_schedule() {
        let e = Schedule::parse("== Vitis HLS Report for 'k'\n+ Latency:\n").unwrap_err();
        assert!(e.message.contains("no `State N`"), "{e}");
        let e = Schedule::parse("hello\n").unwrap_err();
        assert!(e.message.contains("verbose.sched.rpt"), "{e}");
    }
}
