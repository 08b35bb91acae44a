//! Stage 3a, select: which functions and loops get probes.
//!
//! Start from every defined function, or those reachable from `--top`. Source directives then
//! narrow it: when any `#pragma HLSINSTR probe` exists, only the marked functions (with what they
//! call) and marked loops (with their inner loops) stay. `--only GLOB` filters by function name;
//! `#pragma HLSINSTR off` removes a function or loop (and its inner loops) whatever else says.
//! With `maxi`, the m_axi ports of every probed function are selected too ([`ports`]).

pub mod ports;

use crate::error::{Error, ErrorKind, Result};
use crate::model::pragma::Directive;
use crate::model::{FileModel, Function};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// The probe kinds a run inserts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Kinds {
    pub modules: bool,
    pub loops: bool,
    pub timestamps: bool,
    pub seq: bool,
    /// Bytes each module invocation moves over each m_axi port.
    pub maxi: bool,
    /// Watchpoints on one buffer (`--watch`; `.cl` files, or C++ in C simulation): a check at every access
    /// that may touch it.
    pub watch: bool,
    /// Stall monitors (`.cl` files; `--at LINE`): snapshots before and after the statement that
    /// loads from a `__global` pointer on that line.
    pub stall: bool,
    /// Control-flow trace (`branches`): a record where the path taken is not implied (see
    /// [`crate::cfg`]).
    pub branches: bool,
}

impl Kinds {
    pub const NAMES: &'static [&'static str] =
        &["modules", "loops", "timestamps", "seq", "maxi", "watch", "stall", "branches"];

    /// Parse a comma list such as `modules,loops,seq`.
    pub fn parse(list: &str) -> Result<Kinds> {
        let mut k = Kinds::default();
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "modules" => k.modules = true,
                "loops" => k.loops = true,
                "timestamps" => k.timestamps = true,
                "seq" => k.seq = true,
                "maxi" => k.maxi = true,
                "watch" => k.watch = true,
                "stall" => k.stall = true,
                "branches" => k.branches = true,
                other => {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!("unknown probe kind `{other}`; choose from {}", Kinds::NAMES.join(", ")),
                    ))
                }
            }
        }
        if k.maxi && !k.modules {
            return Err(Error::new(
                ErrorKind::Usage,
                "maxi counts the bytes of each module invocation: add `modules` to --probes",
            ));
        }
        if k.branches && k.loops {
            return Err(Error::new(
                ErrorKind::Usage,
                "branches records every loop's exit with its trip count already: drop `loops` from --probes (or trace in a separate run)",
            ));
        }
        if !k.modules && !k.loops && !k.branches && (k.timestamps || k.seq || !(k.watch || k.stall)) {
            return Err(Error::new(
                ErrorKind::Usage,
                "timestamps and seq decorate module or loop events: add `modules` and/or `loops` to --probes",
            ));
        }
        Ok(k)
    }

    pub fn names(&self) -> Vec<&'static str> {
        let flags =
            [self.modules, self.loops, self.timestamps, self.seq, self.maxi, self.watch, self.stall, self.branches];
        Kinds::NAMES.iter().zip(flags).filter(|(_, on)| *on).map(|(n, _)| *n).collect()
    }
}

#[derive(Debug, Clone, Default)]
pub struct SelectOptions {
    pub top: Option<String>,
    pub only: Vec<String>,
    /// `--watch`/`--watch-range`, `--bounds`, `--invariant`: the watchpoints, for `watch` probes.
    pub watch: Option<WatchSpec>,
    /// `--at`: the source lines whose loads get a stall monitor, for `stall` probes.
    pub stall: Vec<StallLine>,
    /// The Vitis kernel flow's interfaces (`sim` of a `flow_target=vitis` project): the top's
    /// pointer and array parameters that no INTERFACE pragma names are m_axi ports of the
    /// bundle `gmem` (UG1399 "Default Settings of Vivado/Vitis Flows").
    pub kernel_flow: bool,
}

/// The watchpoint options on one buffer: `--watch BUF[K]` or `--watch-range 'BUF[A:B]'`, `--bounds
/// BUF:N` and `--invariant 'BUF[I] OP C'`. Every access that may touch BUF is a site; each site's
/// unit watches [`WatchSpec::covered`] (hits only with `--watch`/`--watch-range`), checks the
/// invariant there and, for BUF's own sites, the bounds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchSpec {
    /// The `--watch`/`--watch-range` expression as given (none: `--invariant` alone).
    pub expr: Option<String>,
    pub buffer: String,
    /// The watched elements `[a, b)` (`--watch BUF[K]`: `[K, K + 1)`); none with `--invariant`
    /// alone, whose unit records violations only.
    pub range: Option<(u64, u64)>,
    pub bound: Option<u64>,
    pub invariant: Option<Invariant>,
}

/// `--invariant 'BUF[I] OP C'`: every value stored to or loaded from the covered elements
/// satisfies `OP C`, i.e. lies in `[vmin, vmax]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invariant {
    pub expr: String,
    pub op: String,
    pub value: i64,
    /// A constant index; none for a free one (every covered element).
    pub index: Option<u64>,
    pub vmin: i64,
    pub vmax: i64,
}

/// The option names, for messages.
const WATCH_USAGE: &str = "--watch BUF[K] | --watch-range 'BUF[A:B]', --bounds BUF:N, --invariant 'BUF[I] OP C'";

impl WatchSpec {
    /// Parse the watchpoint options; `None` when none of `--watch`, `--watch-range` and
    /// `--invariant` is given (then `--bounds` is an error).
    pub fn parse(
        watch: Option<&str>,
        watch_range: Option<&str>,
        invariant: Option<&str>,
        bounds: &[String],
    ) -> Result<Option<WatchSpec>> {
        let usage = |m: String| Error::new(ErrorKind::Usage, m);
        let watched = match (watch, watch_range) {
            (Some(_), Some(_)) => {
                return Err(usage(
                    "--watch and --watch-range both name the watched elements: give one of them (--watch-range 'BUF[K:K+1]' is --watch BUF[K])".into(),
                ))
            }
            (Some(e), None) => Some(parse_watch(e)?),
            (None, Some(e)) => Some(parse_watch_range(e)?),
            (None, None) => None,
        };
        let invariant = invariant.map(parse_invariant).transpose()?;
        let buffer = match (&watched, &invariant) {
            (Some((_, b, _)), Some((ib, inv))) if b != ib => {
                return Err(usage(format!(
                    "--invariant `{}` is on `{ib}` but the watched buffer is `{b}`: watchpoints take one buffer",
                    inv.expr
                )))
            }
            (Some((_, b, _)), _) => b.clone(),
            (None, Some((ib, _))) => ib.clone(),
            (None, None) => {
                if let Some(b) = bounds.first() {
                    return Err(usage(format!(
                        "--bounds `{b}` needs the watched buffer: add --watch, --watch-range or --invariant ({WATCH_USAGE})"
                    )));
                }
                return Ok(None);
            }
        };
        let mut bound = None;
        for b in bounds {
            let msg = |m: &str| usage(format!("--bounds `{b}`: {m}"));
            let (buf, n) = b.split_once(':').ok_or_else(|| msg("expected BUFFER:N (elements [0, N))"))?;
            if buf.trim() != buffer {
                return Err(msg(&format!("only the watched buffer `{buffer}` can have a bound")));
            }
            bound = Some(parse_uint(n.trim()).ok_or_else(|| msg("N is not a number"))?);
        }
        let invariant = invariant.map(|(_, i)| i);
        if let (Some(inv), None, None) = (&invariant, &watched, bound) {
            if inv.index.is_none() {
                return Err(usage(format!(
                    "--invariant `{}` covers every element of `{buffer}`: say which with --bounds {buffer}:N (elements [0, N)) or --watch-range '{buffer}[A:B]'",
                    inv.expr
                )));
            }
        }
        if let (Some(inv), Some((_, _, (a, b)))) = (&invariant, &watched) {
            if let Some(k) = inv.index.filter(|&k| (k, k + 1) != (*a, *b)) {
                return Err(usage(format!(
                    "--invariant `{}` is on element {k} but the unit watches elements [{a}, {b}) and checks the invariant there: write the invariant with a free index (`{buffer}[i] ...`) or watch only element {k}",
                    inv.expr
                )));
            }
        }
        let range = watched.as_ref().map(|w| w.2);
        Ok(Some(WatchSpec { expr: watched.map(|w| w.0), buffer, range, bound, invariant }))
    }

    /// The elements `[a, b)` each unit watches: the watched range, or what the invariant covers
    /// (its element, or the bounds).
    pub fn covered(&self) -> (u64, u64) {
        match (self.range, &self.invariant) {
            (Some(r), _) => r,
            (None, Some(Invariant { index: Some(k), .. })) => (*k, k + 1),
            _ => (0, self.bound.unwrap_or(0)),
        }
    }

    /// Plain hits are recorded (a watched range was given); else only violations.
    pub fn hits(&self) -> bool {
        self.range.is_some()
    }
}

/// `BUF[K]`: (expression, buffer, [K, K + 1)).
fn parse_watch(expr: &str) -> Result<(String, String, (u64, u64))> {
    let bad = || {
        Error::new(
            ErrorKind::Usage,
            format!(
                "--watch `{expr}`: expected BUFFER[INDEX], a pointer parameter and a constant index, e.g. `data_a[0]`"
            ),
        )
    };
    let (name, index) = subscript(expr).ok_or_else(bad)?;
    let k = parse_uint(index).ok_or_else(bad)?;
    Ok((expr.trim().to_string(), name.to_string(), (k, k.checked_add(1).ok_or_else(bad)?)))
}

/// `BUF[A:B]` with constants A < B: (expression, buffer, [A, B)).
fn parse_watch_range(expr: &str) -> Result<(String, String, (u64, u64))> {
    let bad = |why: &str| {
        Error::new(
            ErrorKind::Usage,
            format!("--watch-range `{expr}`: expected BUFFER[A:B], a pointer parameter and constants A < B (elements A .. B-1), e.g. `data[0:16]`{why}"),
        )
    };
    let (name, index) = subscript(expr).ok_or_else(|| bad(""))?;
    let (a, b) = index.split_once(':').ok_or_else(|| bad(""))?;
    let (a, b) = (parse_uint(a.trim()).ok_or_else(|| bad(""))?, parse_uint(b.trim()).ok_or_else(|| bad(""))?);
    if a >= b {
        return Err(bad(&format!(" ({a} is not below {b})")));
    }
    Ok((expr.trim().to_string(), name.to_string(), (a, b)))
}

/// `BUF[I] OP C`: (buffer, invariant).
fn parse_invariant(expr: &str) -> Result<(String, Invariant)> {
    let bad = |why: &str| {
        Error::new(
            ErrorKind::Usage,
            format!("--invariant `{expr}`: expected 'BUFFER[I] OP C' with I a name (every covered element) or a constant, OP one of < <= > >= ==, C an integer, e.g. 'data[i] >= 0'{why}"),
        )
    };
    let e = expr.trim();
    let close = e.find(']').ok_or_else(|| bad(""))?;
    let (name, index) = subscript(&e[..=close]).ok_or_else(|| bad(""))?;
    let rest = e[close + 1..].trim();
    let op = ["<=", ">=", "==", "<", ">"].into_iter().find(|op| rest.starts_with(op)).ok_or_else(|| bad(""))?;
    let c = rest[op.len()..].trim();
    let value = parse_int(c).ok_or_else(|| bad(&format!(" (`{c}` is not an integer)")))?;
    let index = if is_ident(index) { None } else { Some(parse_uint(index).ok_or_else(|| bad(""))?) };
    let never = || bad(" (no value satisfies it)");
    let (vmin, vmax) = match op {
        "<" => (i64::MIN, value.checked_sub(1).ok_or_else(never)?),
        "<=" => (i64::MIN, value),
        ">" => (value.checked_add(1).ok_or_else(never)?, i64::MAX),
        ">=" => (value, i64::MAX),
        _ => (value, value),
    };
    let inv = Invariant { expr: e.to_string(), op: op.to_string(), value, index, vmin, vmax };
    Ok((name.to_string(), inv))
}

/// `NAME[INSIDE]` → (NAME, INSIDE), both trimmed; NAME an identifier.
fn subscript(expr: &str) -> Option<(&str, &str)> {
    let (name, rest) = expr.trim().split_once('[')?;
    let inside = rest.strip_suffix(']')?.trim();
    let name = name.trim();
    is_ident(name).then_some((name, inside))
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d.trim_start()),
        None => (false, s),
    };
    let m = i128::from(parse_uint(digits)?);
    i64::try_from(if neg { -m } else { m }).ok()
}

/// `--at FILE:LINE` or `--at LINE`: a stall monitor on the loads of the statement on that line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StallLine {
    /// As given.
    pub expr: String,
    /// The file (matched against the input's path or its file name); none: the only `.cl` file.
    pub file: Option<String>,
    pub line: usize,
}

impl StallLine {
    pub fn parse(expr: &str) -> Result<StallLine> {
        let bad = || {
            Error::new(
                ErrorKind::Usage,
                format!("--at `{expr}`: expected LINE or FILE:LINE (a 1-based line of a .cl file), e.g. `mm.cl:12`"),
            )
        };
        let e = expr.trim();
        let (file, line) = match e.rsplit_once(':') {
            Some((f, l)) => (Some(f.trim().to_string()).filter(|f| !f.is_empty()), l),
            None => (None, e),
        };
        let line: usize = line.trim().parse().map_err(|_| bad())?;
        if line == 0 {
            return Err(bad());
        }
        Ok(StallLine { expr: e.to_string(), file, line })
    }
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn parse_uint(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// Selection for one function.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FnSelection {
    /// The function gets begin/end probes.
    pub function: bool,
    /// Per loop of the function: gets loop probes.
    pub loops: Vec<bool>,
    /// With `maxi`, in a function that gets begin/end probes: its m_axi ports.
    pub ports: Vec<ports::BoundPort>,
    /// With `branches`: the function's control flow is traced.
    pub branches: bool,
    /// With `watch` (C++): the function is reachable from the top, so its accesses may touch
    /// the watched buffer.
    pub watch: bool,
}

impl FnSelection {
    pub fn any(&self) -> bool {
        self.function || self.loops.iter().any(|&l| l)
    }
}

/// Every function definition of a set of files, numbered, with call sites resolved by name
/// (the last name component: overloads and same-named functions all match).
pub struct FunctionIndex<'a> {
    /// `(file, function in the file, function)`, in file then source order.
    pub all: Vec<(usize, usize, &'a Function)>,
    by_name: HashMap<&'a str, Vec<usize>>,
}

impl<'a> FunctionIndex<'a> {
    pub fn new(files: impl IntoIterator<Item = &'a FileModel>) -> Self {
        let all: Vec<(usize, usize, &Function)> = files
            .into_iter()
            .enumerate()
            .flat_map(|(fi, m)| m.functions.iter().enumerate().map(move |(ni, f)| (fi, ni, f)))
            .collect();
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, (_, _, f)) in all.iter().enumerate() {
            by_name.entry(f.name.as_str()).or_default().push(i);
        }
        FunctionIndex { all, by_name }
    }

    /// Functions a call of `name` may reach.
    pub fn named(&self, name: &str) -> &[usize] {
        self.by_name.get(name).map(|v| v.as_slice()).unwrap_or(&[])
    }

    /// `starts` and every function reachable from them through calls.
    pub fn reach(&self, starts: Vec<usize>) -> BTreeSet<usize> {
        let mut seen: BTreeSet<usize> = starts.iter().copied().collect();
        let mut queue: VecDeque<usize> = starts.into();
        while let Some(i) = queue.pop_front() {
            for call in &self.all[i].2.calls {
                for &j in self.named(&call.name) {
                    if seen.insert(j) {
                        queue.push_back(j);
                    }
                }
            }
        }
        seen
    }
}

/// Selection for every function of every file: `result[file][function]`.
pub fn select(files: &[FileModel], kinds: Kinds, opts: &SelectOptions) -> Result<Vec<Vec<FnSelection>>> {
    let index = FunctionIndex::new(files);
    let all = &index.all;
    let reach = |starts: Vec<usize>| index.reach(starts);

    let mut base: BTreeSet<usize> = match &opts.top {
        Some(top) => {
            let starts: Vec<usize> =
                (0..all.len()).filter(|&i| all[i].2.name == *top || all[i].2.qualified == *top).collect();
            // A top left untouched (reported with its reason) still leads to what it calls.
            let skipped_top: Vec<&Vec<String>> = files
                .iter()
                .flat_map(|m| &m.skipped_calls)
                .filter(|(q, _)| q == top || q.rsplit("::").next() == Some(top.as_str()))
                .map(|(_, calls)| calls)
                .collect();
            if starts.is_empty() && !skipped_top.is_empty() {
                let called =
                    skipped_top.iter().flat_map(|c| c.iter()).flat_map(|name| index.named(name).iter().copied());
                let mut starts: Vec<usize> = called.collect();
                starts.sort_unstable();
                starts.dedup();
                reach(starts)
            } else if starts.is_empty() {
                let mut names: Vec<&str> = all.iter().map(|(_, _, f)| f.qualified.as_str()).collect();
                names.sort();
                names.dedup();
                let defined = if names.is_empty() {
                    "the inputs define no function that could be read".to_string()
                } else {
                    format!("defined: {}", names.join(", "))
                };
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--top {top}: no such function defined in the inputs; {defined}"),
                ));
            } else {
                reach(starts)
            }
        }
        None => (0..all.len()).collect(),
    };
    let globs = compile_globs(&opts.only)?;
    if let Some(g) = &globs {
        base.retain(|&i| g.is_match(&all[i].2.qualified) || g.is_match(&all[i].2.name));
    }

    let marked_fns: Vec<usize> = (0..all.len()).filter(|&i| all[i].2.directive == Some(Directive::Probe)).collect();
    let any_marked_loop = all.iter().any(|(_, _, f)| f.loops.iter().any(|l| l.directive == Some(Directive::Probe)));
    let directed = !marked_fns.is_empty() || any_marked_loop;
    let marked_reach = reach(marked_fns);

    let mut out: Vec<Vec<FnSelection>> =
        files.iter().map(|m| vec![FnSelection::default(); m.functions.len()]).collect();
    for (i, &(fi, ni, f)) in all.iter().enumerate() {
        if !base.contains(&i) || f.directive == Some(Directive::Off) {
            continue;
        }
        let whole = !directed || marked_reach.contains(&i);
        let mut loops = vec![false; f.loops.len()];
        for (li, l) in f.loops.iter().enumerate() {
            let chain = f.loop_chain(li);
            let off = chain.iter().any(|&c| f.loops[c].directive == Some(Directive::Off));
            let marked = chain.iter().any(|&c| f.loops[c].directive == Some(Directive::Probe));
            let _ = l;
            loops[li] = !off && (kinds.loops && whole || marked);
        }
        // A function with probed loops but `function == false` still gets a frame probe (plan).
        let function = whole && kinds.modules;
        out[fi][ni] =
            FnSelection { function, loops, ports: Vec::new(), branches: whole && kinds.branches, watch: kinds.watch };
    }
    if kinds.maxi {
        ports::bind(files, &mut out, opts.top.as_deref().filter(|_| opts.kernel_flow));
    }
    Ok(out)
}

fn compile_globs(patterns: &[String]) -> Result<Option<globset::GlobSet>> {
    if patterns.is_empty() {
        return Ok(None);
    }
    let mut b = globset::GlobSetBuilder::new();
    for p in patterns {
        let g = globset::Glob::new(p)
            .map_err(|e| Error::new(ErrorKind::Usage, format!("--only {p}: not a valid glob ({e})")))?;
        b.add(g);
    }
    b.build().map(Some).map_err(|e| Error::new(ErrorKind::Usage, format!("--only: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::build;
    use crate::parse::parse_cpp;

    #[test]
    fn watch_spec_takes_a_buffer_a_constant_index_and_its_bound() {
        let parse = |w: &str, b: &[&str]| {
            WatchSpec::parse(Some(w), None, None, &b.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        let w = parse(" data_a[ 0x10u ] ", &["data_a:4096"]).unwrap().unwrap();
        assert_eq!(
            (w.buffer.as_str(), w.range, w.bound, w.expr.as_deref(), w.hits()),
            ("data_a", Some((16, 17)), Some(4096), Some("data_a[ 0x10u ]"), true)
        );
        assert_eq!(parse("b[3]", &[]).unwrap().unwrap().bound, None);
        for bad in ["data_a", "data_a[i]", "a.b[0]", "[0]", "d[0", "d[-1]"] {
            assert!(parse(bad, &[]).is_err(), "{bad}");
        }
        assert!(parse("a[0]", &["b:4"]).is_err(), "a bound on another buffer");
        assert!(parse("a[0]", &["a:x"]).is_err());
        assert!(Kinds::parse("watch").unwrap().watch);
        assert!(Kinds::parse("stall").unwrap().stall);
        assert!(Kinds::parse("watch,seq").is_err(), "seq decorates module or loop events");
    }

    #[test]
    fn watch_range_and_invariants() {
        let spec = |w: Option<&str>, r: Option<&str>, i: Option<&str>, b: &[&str]| {
            WatchSpec::parse(w, r, i, &b.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        let w = spec(None, Some("d[2:6]"), None, &[]).unwrap().unwrap();
        assert_eq!((w.range, w.covered(), w.hits()), (Some((2, 6)), (2, 6), true));
        for bad in ["d[6:2]", "d[3:3]", "d[1]", "d[a:4]"] {
            assert!(spec(None, Some(bad), None, &[]).is_err(), "{bad}");
        }
        let e = spec(Some("d[0]"), Some("d[0:1]"), None, &[]).unwrap_err();
        assert!(e.message.contains("give one of them"), "{e}");
        let w = spec(None, None, Some("data[i] >= 0"), &["data:8"]).unwrap().unwrap();
        let inv = w.invariant.clone().unwrap();
        assert_eq!((inv.op.as_str(), inv.value, inv.index, inv.vmin, inv.vmax), (">=", 0, None, 0, i64::MAX));
        assert_eq!((w.covered(), w.hits(), w.expr), ((0, 8), false, None));
        let inv = |i: &str| spec(None, None, Some(i), &[]).unwrap().unwrap().invariant.unwrap();
        assert_eq!((inv("d[3] < -5").vmin, inv("d[3] < -5").vmax), (i64::MIN, -6));
        assert_eq!((inv("d[3]>7").vmin, inv("d[3]==7").vmax, inv("d[3] <= 0x10").vmax), (8, 7, 16));
        let e = spec(None, None, Some("d[i] >= 0"), &[]).unwrap_err();
        assert!(e.message.contains("--bounds d:N") && e.message.contains("--watch-range"), "{e}");
        assert_eq!(spec(None, Some("d[2:6]"), Some("d[i] >= 0"), &[]).unwrap().unwrap().covered(), (2, 6));
        assert!(spec(Some("d[2]"), None, Some("d[3] >= 0"), &[]).is_err(), "the unit checks its watched range");
        assert!(spec(Some("d[2]"), None, Some("e[2] >= 0"), &[]).is_err(), "one buffer");
        for bad in ["d[i] != 0", "d[i] >= x", "d[i+1] > 0", "d[i] > 9223372036854775807", "d[i] < -9223372036854775808"]
        {
            assert!(spec(None, None, Some(bad), &["d:4"]).is_err(), "{bad}");
        }
        let e = spec(None, None, None, &["d:4"]).unwrap_err();
        assert!(e.message.contains("add --watch"), "{e}");
        assert_eq!(spec(None, None, None, &[]).unwrap(), None);
        assert_eq!(
            StallLine::parse("mm.cl:12").unwrap(),
            StallLine { expr: "mm.cl:12".into(), file: Some("mm.cl".into()), line: 12 }
        );
        assert_eq!(StallLine::parse("7").unwrap().file, None);
        assert!(StallLine::parse("mm.cl:x").is_err() && StallLine::parse("0").is_err());
    }

    fn sel(src: &str, kinds: &str, opts: SelectOptions) -> Vec<FnSelection> {
        let m = build(&parse_cpp(src, None), src);
        select(&[m], Kinds::parse(kinds).unwrap(), &opts).unwrap().remove(0)
    }

    const SRC: &str = "void leaf() { for(;;) {} }\nvoid mid() { leaf(); }\nvoid top() { mid(); }\nvoid other() {}\n";

    #[test]
    fn top_reachability_and_only() {
        let s = sel(SRC, "modules", SelectOptions { top: Some("mid".into()), ..Default::default() });
        assert_eq!(s.iter().map(|f| f.function).collect::<Vec<_>>(), [true, true, false, false]);
        let s = sel(SRC, "modules,loops", SelectOptions { only: vec!["l*".into()], ..Default::default() });
        assert_eq!(s.iter().map(|f| f.any()).collect::<Vec<_>>(), [true, false, false, false]);
        assert_eq!(s[0].loops, [true]);
    }

    #[test]
    fn pragmas_opt_in_and_out() {
        let src = "void a() { b(); }\nvoid b() {\n#pragma HLSINSTR probe\n c(); }\nvoid c() { for(;;) {\n#pragma HLSINSTR off\n } }\nvoid d() {}\n";
        let s = sel(src, "modules,loops", SelectOptions::default());
        assert_eq!(s.iter().map(|f| f.function).collect::<Vec<_>>(), [false, true, true, false]);
        assert_eq!(s[2].loops, [false]);
        let src = "void a() { for(;;) {} for(;;) {\n#pragma HLSINSTR probe\n for(;;) {} } }\n";
        let s = sel(src, "modules", SelectOptions::default());
        assert_eq!(s[0].loops, [false, true, true]);
        assert!(s[0].any() && !s[0].function, "a marked loop alone does not probe its function");
    }

    #[test]
    fn unknown_top_lists_candidates() {
        let m = build(&parse_cpp(SRC, None), SRC);
        let e = select(
            &[m],
            Kinds::parse("modules").unwrap(),
            &SelectOptions { top: Some("nope".into()), ..Default::default() },
        )
        .unwrap_err();
        assert!(e.message.contains("defined: leaf, mid, other, top"), "{e}");
    }

    #[test]
    fn a_skipped_top_leads_to_what_it_calls() {
        // The top splits a statement with `#ifdef`: skipped, but `mid` and `leaf` are probed.
        let src = format!("{SRC}void broken() {{\n  int s = 0\n#ifdef X\n  + 1\n#endif\n  ;\n  mid();\n}}\n");
        let m = build(&parse_cpp(&src, None), &src);
        assert_eq!(m.skipped[0].function, "broken");
        let s = select(
            &[m],
            Kinds::parse("modules").unwrap(),
            &SelectOptions { top: Some("broken".into()), ..Default::default() },
        )
        .unwrap()
        .remove(0);
        assert_eq!(s.iter().map(|f| f.function).collect::<Vec<_>>(), [true, true, false, false]);
        let m = build(&parse_cpp("", None), "");
        let e = select(
            &[m],
            Kinds::parse("modules").unwrap(),
            &SelectOptions { top: Some("t".into()), ..Default::default() },
        )
        .unwrap_err();
        assert!(e.message.ends_with("the inputs define no function that could be read"), "{e}");
    }

    #[test]
    fn kinds_parse() {
        assert!(Kinds::parse("modules,bogus").is_err());
        assert!(Kinds::parse("seq").is_err());
        assert_eq!(Kinds::parse("loops, seq").unwrap().names(), ["loops", "seq"]);
        assert_eq!(Kinds::parse("maxi,modules").unwrap().names(), ["modules", "maxi"]);
        let e = Kinds::parse("loops,maxi").unwrap_err();
        assert!(e.message.contains("add `modules`"), "{e}");
        // The trace stands alone, takes timestamps and seq, and replaces `loops`.
        assert_eq!(Kinds::parse("branches,timestamps").unwrap().names(), ["timestamps", "branches"]);
        let e = Kinds::parse("loops,branches").unwrap_err();
        assert!(e.message.contains("drop `loops`"), "{e}");
    }
}
