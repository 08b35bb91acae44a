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
    /// Watchpoints on one buffer (`.cl` files; `--watch`): a `monitor_address` at every access
    /// that may touch it.
    pub watch: bool,
}

impl Kinds {
    pub const NAMES: &'static [&'static str] = &["modules", "loops", "timestamps", "seq", "maxi", "watch"];

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
        if !k.modules && !k.loops && (k.timestamps || k.seq || !k.watch) {
            return Err(Error::new(
                ErrorKind::Usage,
                "timestamps and seq decorate module or loop events: add `modules` and/or `loops` to --probes",
            ));
        }
        Ok(k)
    }

    pub fn names(&self) -> Vec<&'static str> {
        let flags = [self.modules, self.loops, self.timestamps, self.seq, self.maxi, self.watch];
        Kinds::NAMES.iter().zip(flags).filter(|(_, on)| *on).map(|(n, _)| *n).collect()
    }
}

#[derive(Debug, Clone, Default)]
pub struct SelectOptions {
    pub top: Option<String>,
    pub only: Vec<String>,
    /// `--watch` (with `--bounds`): the watched element, for `watch` probes.
    pub watch: Option<WatchSpec>,
}

/// `--watch BUF[INDEX]` and `--bounds BUF:N`: watch element `INDEX` of pointer parameter `BUF`;
/// with a bound, accesses through `BUF` outside elements `[0, N)` are reported too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WatchSpec {
    /// The expression as given.
    pub expr: String,
    pub buffer: String,
    pub index: u64,
    pub bound: Option<u64>,
}

impl WatchSpec {
    /// Parse `--watch` and the `--bounds` list.
    pub fn parse(expr: &str, bounds: &[String]) -> Result<WatchSpec> {
        let bad = || {
            Error::new(
                ErrorKind::Usage,
                format!("--watch `{expr}`: expected BUFFER[INDEX], a pointer parameter and a constant index, e.g. `data_a[0]`"),
            )
        };
        let e = expr.trim();
        let (name, rest) = e.split_once('[').ok_or_else(bad)?;
        let name = name.trim();
        let index = rest.strip_suffix(']').ok_or_else(bad)?.trim();
        if !is_ident(name) {
            return Err(bad());
        }
        let index = parse_uint(index).ok_or_else(bad)?;
        let mut bound = None;
        for b in bounds {
            let msg = |m: &str| Error::new(ErrorKind::Usage, format!("--bounds `{b}`: {m}"));
            let (buf, n) = b.split_once(':').ok_or_else(|| msg("expected BUFFER:N (elements [0, N))"))?;
            if buf.trim() != name {
                return Err(msg(&format!("only the watched buffer `{name}` can have a bound")));
            }
            bound = Some(parse_uint(n.trim()).ok_or_else(|| msg("N is not a number"))?);
        }
        Ok(WatchSpec { expr: e.to_string(), buffer: name.to_string(), index, bound })
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
            if starts.is_empty() {
                let mut names: Vec<&str> = all.iter().map(|(_, _, f)| f.qualified.as_str()).collect();
                names.sort();
                names.dedup();
                return Err(Error::new(
                    ErrorKind::Usage,
                    format!("--top {top}: no such function defined in the inputs; defined: {}", names.join(", ")),
                ));
            }
            reach(starts)
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
        out[fi][ni] = FnSelection { function, loops, ports: Vec::new() };
    }
    if kinds.maxi {
        ports::bind(files, &mut out);
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
        let w = WatchSpec::parse(" data_a[ 0x10u ] ", &["data_a:4096".into()]).unwrap();
        assert_eq!(
            (w.buffer.as_str(), w.index, w.bound, w.expr.as_str()),
            ("data_a", 16, Some(4096), "data_a[ 0x10u ]")
        );
        assert_eq!(WatchSpec::parse("b[3]", &[]).unwrap().bound, None);
        for bad in ["data_a", "data_a[i]", "a.b[0]", "[0]", "d[0", "d[-1]"] {
            assert!(WatchSpec::parse(bad, &[]).is_err(), "{bad}");
        }
        assert!(WatchSpec::parse("a[0]", &["b:4".into()]).is_err(), "a bound on another buffer");
        assert!(WatchSpec::parse("a[0]", &["a:x".into()]).is_err());
        assert!(Kinds::parse("watch").unwrap().watch);
        assert!(Kinds::parse("watch,seq").is_err(), "seq decorates module or loop events");
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
    fn kinds_parse() {
        assert!(Kinds::parse("modules,bogus").is_err());
        assert!(Kinds::parse("seq").is_err());
        assert_eq!(Kinds::parse("loops, seq").unwrap().names(), ["loops", "seq"]);
        assert_eq!(Kinds::parse("maxi,modules").unwrap().names(), ["modules", "maxi"]);
        let e = Kinds::parse("loops,maxi").unwrap_err();
        assert!(e.message.contains("add `modules`"), "{e}");
    }
}
