//! Probes that never fired although the code around them ran. A loop whose function ran, or a
//! function whose caller ran, and never a record of its own: either the branch around it was
//! never taken (the testbench's business), or the build compiled an uninstrumented copy of its
//! file (ours: a header reached around the copies). Either way the user should hear of it.

use super::events::{Event, Record};
use super::fastmap::IdVec;
use crate::emit::manifest::Manifest;
use std::collections::HashMap;

/// Which probes fired and how often each began, taken one record at a time (a streamed log):
/// per probe id a count (begins + 1 once it fired), so a record costs one array update.
#[derive(Debug, Default)]
pub struct Fired {
    fired: IdVec<u64>,
}

impl Fired {
    /// For a manifest of `probes` probes (their ids are counted in an array).
    pub fn new(probes: usize) -> Self {
        Fired { fired: IdVec::with_bound(4 * probes + 1024) }
    }

    #[inline]
    pub fn add(&mut self, r: &Record) {
        let n = self.fired.get_mut(r.probe);
        *n = (*n).max(1)
            + match r.event {
                Event::Begin => 1,
                Event::Repeat { count } => count,
                _ => 0,
            };
    }

    /// One warning per silent probe, in manifest order. Only function and loop probes count:
    /// ports, watches and snapshots fire on data, not on control reaching them.
    pub fn warnings(&self, manifest: &Manifest) -> Vec<String> {
        silent_probes(&self.fired, manifest)
    }
}

fn silent_probes(fired: &IdVec<u64>, manifest: &Manifest) -> Vec<String> {
    let count = |id: u32| fired.get(id).copied().unwrap_or(0);
    let begins = |id: u32| Some(count(id).saturating_sub(1)).filter(|&n| n > 0);
    let by_id: HashMap<u32, &crate::emit::manifest::ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    let last = |name: &str| name.rsplit("::").next().unwrap_or(name).to_string();
    let mut out = Vec::new();
    for p in &manifest.probes {
        if count(p.id) > 0 || !matches!(p.kind.as_str(), "function" | "loop") {
            continue;
        }
        // The code around it: the enclosing loop or function, else (functions) a caller.
        let around = match p.parent.and_then(|q| by_id.get(&q)) {
            Some(q) => begins(q.id).map(|n| (n, describe(q))),
            None if p.kind == "function" => manifest
                .probes
                .iter()
                .filter(|c| c.kind == "function" && c.id != p.id)
                .filter(|c| {
                    c.module.as_ref().is_some_and(|m| m.calls.iter().any(|call| call.name == last(&p.function)))
                })
                .find_map(|c| begins(c.id).map(|n| (n, describe(c)))),
            None => None,
        };
        if let Some((n, what)) = around {
            out.push(format!(
                "{}:{}: {} never ran although {what} ran {n} time{}: the branch around it was never taken, or the \
                 build compiled an uninstrumented copy of {} (a header included around the instrumented one?)",
                p.file,
                p.line,
                describe(p),
                if n == 1 { "" } else { "s" },
                p.file
            ));
        }
    }
    out
}

fn describe(p: &crate::emit::manifest::ProbeEntry) -> String {
    match p.kind.as_str() {
        "loop" => format!("loop {} in {}", p.name, p.function),
        _ => format!("function {}", p.function),
    }
}
