//! Data relations between the modules one scope calls: which callees exchange data (an
//! `hls::stream`, an array, a pointer or a reference passed as the same variable), from the calls
//! the manifest lists. They decide whether a stall is a dependency (waiting on a producer or
//! consumer) or a synchronisation (waiting on a module it shares nothing with), and, inside a
//! dataflow region, whether two processes overlap (a stream) or follow each other (a buffer).

use crate::emit::manifest::Manifest;
use crate::model::ParamKind;
use std::collections::HashMap;

/// How two callees exchange data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// An `hls::stream` on both sides: producer and consumer overlap.
    Stream,
    /// An array, pointer or reference: in a dataflow region a ping-pong buffer, so the consumer
    /// starts when the producer is done.
    Buffer,
}

/// The variables a call passes as data channels, each with how it is passed.
type Vars = Vec<(String, Channel)>;

/// The calls of one callee by one caller: (line, [(stream parameter, caller's stream)]).
type StreamCalls = Vec<(usize, Vec<(String, String)>)>;

/// Per calling function: callee name → the variables it receives as data channels.
#[derive(Debug, Default, Clone)]
pub struct Relations {
    by_caller: HashMap<String, HashMap<String, Vars>>,
    /// The same per call: caller → (callee, line of the call) → variables. Two calls of one
    /// function can pass different channels (rows of a partitioned array, other streams).
    by_call: HashMap<String, HashMap<(String, usize), Vars>>,
    /// Per caller and callee, per call (its line, in order): each stream parameter of the callee
    /// and the caller's stream it is passed, to say in the caller's names when a callee used its
    /// streams.
    stream_args: HashMap<String, HashMap<String, StreamCalls>>,
}

impl Relations {
    /// Arrays are ping-pong buffers unless a STREAM pragma or directive makes them FIFOs.
    pub fn from_manifest(m: &Manifest) -> Self {
        Self::with_default_channel(m, false)
    }

    /// `fifo_arrays`: the project's `syn.dataflow.default_channel=fifo` (`config_dataflow
    /// -default_channel fifo`): every array between processes is a FIFO (UG1399 config_dataflow).
    pub fn with_default_channel(m: &Manifest, fifo_arrays: bool) -> Self {
        let params: HashMap<&str, &Vec<crate::model::Param>> = m
            .probes
            .iter()
            .filter(|p| p.kind == "function")
            .filter_map(|p| p.module.as_ref().map(|mi| (p.name.as_str(), &mi.params)))
            .collect();
        let mut by_caller: HashMap<String, HashMap<String, Vars>> = HashMap::new();
        let mut by_call: HashMap<String, HashMap<(String, usize), Vars>> = HashMap::new();
        let mut stream_args: HashMap<String, HashMap<String, StreamCalls>> = HashMap::new();
        for p in m.probes.iter().filter(|p| p.kind == "function") {
            let Some(mi) = &p.module else { continue };
            let fifo = |var: &str| fifo_arrays || mi.streamed.iter().any(|s| s == var);
            let callees = by_caller.entry(p.function.clone()).or_default();
            let calls = by_call.entry(p.function.clone()).or_default();
            for call in &mi.calls {
                let Some(cparams) = params.get(call.name.as_str()) else { continue };
                let entry = callees.entry(call.name.clone()).or_default();
                let at_call = calls.entry((call.name.clone(), call.line)).or_default();
                for (arg, param) in call.args.iter().zip(cparams.iter()) {
                    if let (ParamKind::Stream, Some(var)) = (param.kind, base_identifier(arg)) {
                        let calls = stream_args.entry(p.function.clone()).or_default();
                        let calls = calls.entry(call.name.clone()).or_default();
                        match calls.iter_mut().find(|(l, _)| *l == call.line) {
                            Some((_, args)) => args.push((param.name.clone(), var)),
                            None => calls.push((call.line, vec![(param.name.clone(), var)])),
                        }
                    }
                    let channel = match param.kind {
                        ParamKind::Scalar => continue,
                        ParamKind::Stream => Channel::Stream,
                        ParamKind::Pointer | ParamKind::Array | ParamKind::Reference => Channel::Buffer,
                    };
                    if let Some(var) = channel_variable(arg, &mi.row_partitioned) {
                        let channel = if channel == Channel::Buffer && fifo(&var) { Channel::Stream } else { channel };
                        if !at_call.iter().any(|(v, _)| v == &var) {
                            at_call.push((var.clone(), channel));
                        }
                        if !entry.iter().any(|(v, _)| v == &var) {
                            entry.push((var, channel));
                        }
                    }
                }
            }
        }
        Relations { by_caller, by_call, stream_args }
    }

    /// The streams a call of `callee` by `caller` passes (the call at `line`; when that is not
    /// known, the first call in `caller`'s calls): each callee parameter and the caller's stream.
    pub fn stream_args(&self, caller: &str, callee: &str, line: Option<usize>) -> &[(String, String)] {
        let Some(calls) = self.stream_args.get(caller).and_then(|c| c.get(callee)) else { return &[] };
        let found = match line {
            Some(l) => calls.iter().find(|(at, _)| *at == l),
            None => calls.iter().min_by_key(|(at, _)| *at),
        };
        found.map_or(&[], |(_, args)| args.as_slice())
    }

    /// How callees `a` and `b` of `caller` exchange data, if they do: a shared stream counts as
    /// a stream, anything else shared as a buffer.
    pub fn between(&self, caller: &str, a: &str, b: &str) -> Option<Channel> {
        let callees = self.by_caller.get(caller)?;
        shared(callees.get(a)?, callees.get(b)?)
    }

    /// [`Self::between`] for two calls, each a callee and, when known, the line of its call:
    /// the variables that call passes (every call's of the callee when the line is unknown).
    pub fn between_calls(&self, caller: &str, a: (&str, Option<usize>), b: (&str, Option<usize>)) -> Option<Channel> {
        let vars = |(name, line): (&str, Option<usize>)| {
            line.and_then(|l| self.by_call.get(caller)?.get(&(name.to_string(), l)))
                .or_else(|| self.by_caller.get(caller)?.get(name))
        };
        shared(vars(a)?, vars(b)?)
    }

    /// Are `a` and `b`, two of the callees `names` of `caller` (the processes of one dataflow
    /// region), connected through a chain of shared channels among `names`?
    pub fn connected(&self, caller: &str, names: &[&str], a: &str, b: &str) -> bool {
        let mut seen = vec![a];
        let mut frontier = vec![a];
        while let Some(x) = frontier.pop() {
            if x == b {
                return true;
            }
            for &y in names {
                if !seen.contains(&y) && self.between(caller, x, y).is_some() {
                    seen.push(y);
                    frontier.push(y);
                }
            }
        }
        false
    }

    /// True when `caller` passes data to `name` at all (it is known to the relation table).
    pub fn knows(&self, caller: &str, name: &str) -> bool {
        self.by_caller.get(caller).is_some_and(|c| c.contains_key(name))
    }
}

/// The channel two variable lists share: a stream when both pass it as one, else a buffer. A
/// row of a partitioned array (`mid[0]`) and the whole array (`mid`, also a row chosen at run
/// time) share a memory: the whole array holds every row.
fn shared(va: &[(String, Channel)], vb: &[(String, Channel)]) -> Option<Channel> {
    let mut found = None;
    for (x, cx) in va {
        for (y, cy) in vb {
            if x == y || row_of(x, y) || row_of(y, x) {
                if *cx == Channel::Stream && *cy == Channel::Stream {
                    return Some(Channel::Stream);
                }
                found = Some(Channel::Buffer);
            }
        }
    }
    found
}

/// `row` is a constant row `var[K]` of the array `var`.
fn row_of(row: &str, var: &str) -> bool {
    row.strip_prefix(var).is_some_and(|r| r.starts_with('['))
}

/// The variable an argument expression passes: `buf` for `buf`, `&buf[3]`, `buf + off`,
/// `(buf)`, `s.x` → `s`; `None` for literals and calls.
pub fn base_identifier(arg: &str) -> Option<String> {
    let t = arg.trim_start_matches(|c: char| c == '&' || c == '*' || c == '(' || c.is_whitespace());
    let ident: String = t.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':').collect();
    let ident = ident.trim_start_matches("::").to_string();
    let first = ident.chars().next()?;
    if first.is_ascii_digit() || t[ident.len()..].trim_start().starts_with('(') {
        return None;
    }
    Some(ident)
}

/// The channel an argument passes: its base variable, or `buf[K]` for a constant row `K` of an
/// array in `row_partitioned` (a row of a partitioned array is a memory of its own). A row
/// chosen at run time is the whole array: any row may be meant.
pub fn channel_variable(arg: &str, row_partitioned: &[String]) -> Option<String> {
    let var = base_identifier(arg)?;
    if !row_partitioned.contains(&var) {
        return Some(var);
    }
    let rest = arg.trim_start_matches(|c: char| c == '&' || c == '(' || c.is_whitespace());
    let index = rest.strip_prefix(var.as_str()).and_then(|r| r.trim_start().strip_prefix('['));
    let Some(index) = index.and_then(|r| r.split(']').next()) else { return Some(var) };
    match index.trim().parse::<u64>() {
        Ok(k) => Some(format!("{var}[{k}]")),
        Err(_) => Some(var),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_of_a_partitioned_array_are_channels_of_their_own() {
        let rows = vec!["mid".to_string()];
        assert_eq!(channel_variable("mid[0]", &rows).as_deref(), Some("mid[0]"));
        assert_eq!(channel_variable("&mid[1][0]", &rows).as_deref(), Some("mid[1]"));
        assert_eq!(channel_variable("mid[i]", &rows).as_deref(), Some("mid"), "a run-time row: any row");
        assert_eq!(channel_variable("mid", &rows).as_deref(), Some("mid"));
        assert_eq!(channel_variable("buf[0]", &rows).as_deref(), Some("buf"), "not partitioned: one memory");
    }

    #[test]
    fn a_row_shares_its_memory_with_the_whole_array_but_not_with_other_rows() {
        let v = |names: &[&str]| -> Vars { names.iter().map(|n| (n.to_string(), Channel::Buffer)).collect() };
        assert_eq!(shared(&v(&["mid[0]"]), &v(&["mid[1]"])), None);
        assert_eq!(shared(&v(&["mid[0]"]), &v(&["mid[0]"])), Some(Channel::Buffer));
        assert_eq!(shared(&v(&["mid"]), &v(&["mid[1]"])), Some(Channel::Buffer), "the whole array holds row 1");
        assert_eq!(shared(&v(&["mid[1]"]), &v(&["mid"])), Some(Channel::Buffer));
        assert_eq!(shared(&v(&["mid2"]), &v(&["mid[1]"])), None, "another array");
    }

    #[test]
    fn base_identifiers() {
        assert_eq!(base_identifier("buf").as_deref(), Some("buf"));
        assert_eq!(base_identifier("&buf[3]").as_deref(), Some("buf"));
        assert_eq!(base_identifier("in + b * 4").as_deref(), Some("in"));
        assert_eq!(base_identifier("(lmem)").as_deref(), Some("lmem"));
        assert_eq!(base_identifier("42"), None);
        assert_eq!(base_identifier("f(x)"), None);
    }
}
