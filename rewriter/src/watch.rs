//! Watchpoints (`--probes watch`): which accesses may touch the watched buffer (the may-alias
//! rule, one for OpenCL C and Vitis C++), and the Vitis C++ side: the watched buffer resolved
//! on the top, and the plan of each function the top reaches (C simulation; hls-lib
//! `watch.h`). The OpenCL C plan, one iBuffer unit per site, is [`crate::plan`]'s.

use crate::edit::{Edit, Rank};
use crate::error::{Error, ErrorKind, Result};
use crate::model::maxi::{Dir, PtrParam, StmtSlot, UseKind};
use crate::model::{FileModel, Function, Span};
use crate::plan::{
    element_type, FilePlan, PlannedProbe, WatchSite, EXPRESSION_LEVEL, FUNCTION_LEVEL, MAX_WATCH_SITES, STATEMENT_LEVEL,
};
use crate::select::WatchSpec;
use crate::source::SourceFile;

pub mod offsets;

/// One element access that may touch the watched buffer.
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Index in `Function::maxi.params`.
    pub param: usize,
    /// Index in that parameter's `uses`.
    pub use_index: usize,
    /// Not the watched buffer itself: another parameter that may point into it.
    pub alias: bool,
    pub dir: Dir,
    pub wrap: Span,
    pub depth: usize,
    pub stmt: StmtSlot,
}

/// The may-alias rule: every element access through the watched parameter `named` (if the
/// function has it) and through every other one-subscript pointer or array parameter whose
/// element type is `elem` up to `const`/`volatile` and that `in_memory` accepts (OpenCL C: a
/// `__global` pointer; C++: any), since it may point into the watched buffer.
pub fn may_touch(
    params: &[PtrParam],
    named: Option<usize>,
    elem: &str,
    in_memory: impl Fn(&PtrParam) -> bool,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (pi, p) in params.iter().enumerate() {
        let alias = Some(pi) != named;
        if p.rank != 1 || (alias && (element_type(&p.element_type) != elem || !in_memory(p))) {
            continue;
        }
        for (ui, u) in p.uses.iter().enumerate() {
            if let UseKind::Access { dir, wrap, depth, stmt, .. } = &u.kind {
                out.push(Candidate {
                    param: pi,
                    use_index: ui,
                    alias,
                    dir: *dir,
                    wrap: wrap.clone(),
                    depth: *depth,
                    stmt: stmt.clone(),
                });
            }
        }
    }
    out
}

/// The watched buffer of a Vitis C++ run, resolved on the top: its element type and the spec
/// with the bound filled in (`--bounds BUF:N`, else the array's size `T buf[N]`, else the
/// INTERFACE pragma's `depth=N`; none when none is a number).
#[derive(Debug, Clone)]
pub struct CppWatch {
    pub spec: WatchSpec,
    pub elem: String,
    pub top: String,
    /// The in-FPGA build (`--target vitis`): each pointer parameter's known offset in the
    /// watched buffer ([`offsets`]); sites through other pointers are not watched there.
    pub hw: Option<offsets::Offsets>,
}

/// Check the options against the top (`--top` names it; `sim` passes the project's): the
/// watched buffer must be a one-subscript pointer or array parameter of it, in a C++ file.
/// `vitis`: work out the offsets the in-FPGA build's sites need.
pub fn resolve(files: &[(&SourceFile, &FileModel)], w: &WatchSpec, top: Option<&str>, vitis: bool) -> Result<CppWatch> {
    let usage = |m: String| Error::new(ErrorKind::Usage, m);
    let Some(top) = top else {
        return Err(usage(format!(
            "--probes watch on C++ needs --top: the watch on `{}` is set up at every call of the top (C simulation)",
            w.buffer
        )));
    };
    let found = files
        .iter()
        .flat_map(|(s, m)| m.functions.iter().map(move |f| (*s, f)))
        .find(|(_, f)| f.name == top || f.qualified == top);
    let Some((src, f)) = found else {
        return Err(usage(format!("--top {top}: no such function defined in the inputs")));
    };
    if src.path.extension().is_some_and(|e| e == "c") {
        return Err(usage(format!(
            "{}: watchpoints need C++ (hls-lib watch.h): rename the file to .cpp or watch an OpenCL C kernel",
            src.rel
        )));
    }
    let params = &f.maxi.params;
    let Some(p) = params.iter().find(|p| p.name == w.buffer && p.rank == 1) else {
        let list: Vec<String> = params
            .iter()
            .filter(|p| p.rank == 1)
            .map(|p| format!("{} ({}:{}:{})", p.name, src.rel, p.line, p.col))
            .collect();
        let list = if list.is_empty() {
            format!("{top} has no pointer or one-dimensional array parameter")
        } else {
            format!("candidates: {}", list.join(", "))
        };
        return Err(usage(format!(
            "the watched buffer `{}` is no pointer or one-dimensional array parameter of the top {top}; {list}",
            w.buffer
        )));
    };
    let mut spec = w.clone();
    if spec.bound.is_none() {
        spec.bound = declared_size(&src.text, p).or_else(|| interface_depth(f, &p.name));
    }
    if spec.range.is_none() && spec.invariant.as_ref().is_some_and(|i| i.index.is_none()) && spec.bound.is_none() {
        let i = spec.invariant.as_ref().map(|i| i.expr.as_str()).unwrap_or_default();
        return Err(usage(format!(
            "--invariant `{i}` covers every element of `{}`, whose size is not known (no array size, no INTERFACE depth=): add --bounds {}:N or --watch-range '{}[A:B]'",
            w.buffer, w.buffer, w.buffer
        )));
    }
    let elem = element_type(&p.element_type);
    let hw = vitis.then(|| offsets::offsets(files, &f.name, &w.buffer, &elem));
    Ok(CppWatch { spec, elem, top: f.name.clone(), hw })
}

/// `N` of a parameter declared `T name[N]` with N a number.
fn declared_size(text: &str, p: &PtrParam) -> Option<u64> {
    let line = text.split('\n').nth(p.line.checked_sub(1)?)?;
    let at: usize = line.char_indices().nth(p.col.checked_sub(1)?)?.0;
    let rest = line[at + p.name.len()..].trim_start().strip_prefix('[')?;
    let size = rest[..rest.find(']')?].trim();
    parse_number(size)
}

/// `depth=N` of the INTERFACE pragma of `port`.
fn interface_depth(f: &Function, port: &str) -> Option<u64> {
    f.pragmas
        .iter()
        .filter(|p| p.directive == "INTERFACE" && p.option("port") == Some(port))
        .find_map(|p| p.option("depth").and_then(parse_number))
}

fn parse_number(s: &str) -> Option<u64> {
    s.trim().trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()
}

/// Watch sites of one C++ function the top reaches: every access [`may_touch`] finds (with
/// `named` the watched parameter in the top only, so a callee's parameters are all aliases),
/// wrapped as in OpenCL C; a value site (an access in a statement of a `{}` block) also gets
/// `HLSINSTR_WATCH_DECL` at the body's start and `HLSINSTR_WATCH_POST` after its statement.
/// The top starts with `HLSINSTR_WATCH_TOP`, which sets the watch for that call.
///
/// The in-FPGA build (`w.hw`): no `HLSINSTR_WATCH_TOP` (the watch is constants of the build,
/// hls-lib `hw/watch.h`), `HLSINSTR_WATCH_SITE(id, O, offset);` first in the function for every
/// site (the pointer's offset in the watched buffer, [`offsets`]) and `HLSINSTR_WATCH_POST(id,
/// p);` (the element is read again through `p`); a site whose pointer has no known offset is left
/// alone, with a warning.
pub fn plan_cpp(
    src: &SourceFile,
    f: &Function,
    fi: usize,
    w: &CppWatch,
    o: &str,
    next_id: &mut u32,
    plan: &mut FilePlan,
) {
    let is_top = f.name == w.top;
    let params = &f.maxi.params;
    let named = if is_top { params.iter().position(|p| p.name == w.spec.buffer) } else { None };
    let sites = may_touch(params, named, &w.elem, |_| true);
    if sites.len() > MAX_WATCH_SITES {
        let why = format!(
            "{} accesses may touch `{}`: watch probes take at most {MAX_WATCH_SITES} per function",
            sites.len(),
            w.spec.buffer
        );
        plan.dropped.push((fi, why));
        return;
    }
    if is_top && w.hw.is_none() {
        let spec = &w.spec;
        let (a, b) = spec.covered();
        let (vmin, vmax) = spec.invariant.as_ref().map_or((i64::MIN, i64::MAX), |i| (i.vmin, i.vmax));
        let text = format!(
            "HLSINSTR_WATCH_TOP({}, {a}, {b}, {}, {}, {}, {});",
            spec.buffer,
            spec.bound.unwrap_or(0),
            long_long(vmin),
            long_long(vmax),
            u8::from(spec.hits())
        );
        plan.edits.push(Edit::token(f.body.start + 1, text, Rank::open(FUNCTION_LEVEL, 4)));
    }
    let mut unwatched: Vec<&str> = Vec::new();
    for (k, c) in sites.into_iter().enumerate() {
        let p = &params[c.param];
        let offset = match &w.hw {
            None => None,
            Some(hw) => match hw.get(&(src.rel.clone(), fi, p.name.clone())) {
                Some(&off) => Some(off),
                None => {
                    if !unwatched.contains(&p.name.as_str()) {
                        unwatched.push(&p.name);
                        let why = format!(
                            "`{}` of {}: not watched in the in-FPGA build: no call passes it `{}` of the top plus a constant offset, so its elements have no index in the watched buffer (C simulation watches it by address)",
                            p.name, f.qualified, w.spec.buffer
                        );
                        plan.warnings.push((p.line, p.col, why));
                    }
                    continue;
                }
            },
        };
        let id = *next_id;
        *next_id += 1;
        let index =
            src.text[..c.wrap.start].trim_end().ends_with('[') && src.text[c.wrap.end..].trim_start().starts_with(']');
        let value_at = match &c.stmt {
            StmtSlot::Block { span, .. } => Ok(span.end),
            StmtSlot::Not(why) => Err(format!("the access is {why}: no probe can follow its statement")),
        };
        let mac = match (&value_at, index, c.dir) {
            (Ok(_), true, _) => "HLSINSTR_WATCH_V",
            (Ok(_), false, _) => "HLSINSTR_WATCH_PV",
            (Err(_), true, Dir::Read) => "HLSINSTR_WATCH_R",
            (Err(_), true, Dir::Write) => "HLSINSTR_WATCH_W",
            (Err(_), true, Dir::ReadWrite) => "HLSINSTR_WATCH_RW",
            (Err(_), false, Dir::Read) => "HLSINSTR_WATCH_PR",
            (Err(_), false, Dir::Write) => "HLSINSTR_WATCH_PW",
            (Err(_), false, Dir::ReadWrite) => "HLSINSTR_WATCH_PRW",
        };
        let level = EXPRESSION_LEVEL + 2 * c.depth as i32;
        plan.edits.push(Edit::raw(c.wrap.start, format!("{mac}({id}, {}, ", p.name), Rank::open(level, 0)));
        plan.edits.push(Edit::raw(c.wrap.end, ")", Rank::close(level, 0)));
        let post = if offset.is_some() { format!("{id}, {}", p.name) } else { id.to_string() };
        if let Ok(end) = value_at {
            plan.edits.push(Edit::token(
                end,
                format!("HLSINSTR_WATCH_POST({post});"),
                Rank::close(STATEMENT_LEVEL, k as u8),
            ));
        }
        let decl = match (offset, &value_at) {
            (Some(off), _) => Some(format!("HLSINSTR_WATCH_SITE({id}, {o}, {off});")),
            (None, Ok(_)) => Some(format!("HLSINSTR_WATCH_DECL({id}, {});", p.name)),
            (None, Err(_)) => None,
        };
        if let Some(decl) = decl {
            plan.edits.push(Edit::token(f.body.start + 1, decl, Rank::open(FUNCTION_LEVEL, 5 + k as u8)));
        }
        plan.probes.push(PlannedProbe::watch(
            id,
            fi,
            WatchSite {
                param: c.param,
                use_index: c.use_index,
                alias: c.alias,
                index_reason: value_at.err(),
                by_address: true,
                offset,
            },
        ));
    }
}

/// A `long long` bound as C++ source (`LLONG_MIN`, `LLONG_MAX` from `<climits>`).
fn long_long(v: i64) -> String {
    match v {
        i64::MIN => "LLONG_MIN".into(),
        i64::MAX => "LLONG_MAX".into(),
        v => v.to_string(),
    }
}
