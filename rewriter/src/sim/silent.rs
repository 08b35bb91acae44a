//! Probes that never fired although the code around them ran. A loop whose function ran, or a
//! function whose caller ran, and never a record of its own: either the branch around it was
//! never taken (the testbench's business), or the build compiled an uninstrumented copy of its
//! file (ours: a header reached around the copies). Either way the user should hear of it.

use super::events::{Event, Record};
use super::fastmap::{FastMap, FastSet};
use crate::emit::manifest::Manifest;
use std::collections::HashMap;

/// Which probes fired and how often each began, taken one record at a time (a streamed log).
#[derive(Debug, Default)]
pub struct Fired {
    begins: FastMap<u32, u64>,
    fired: FastSet<u32>,
}

impl Fired {
    pub fn add(&mut self, r: &Record) {
        self.fired.insert(r.probe);
        if r.event == Event::Begin {
            *self.begins.entry(r.probe).or_insert(0) += 1;
        }
    }

    /// One warning per silent probe, in manifest order. Only function and loop probes count:
    /// ports, watches and snapshots fire on data, not on control reaching them.
    pub fn warnings(&self, manifest: &Manifest) -> Vec<String> {
        silent_probes(&self.begins, &self.fired, manifest)
    }
}

fn silent_probes(begins: &FastMap<u32, u64>, fired: &FastSet<u32>, manifest: &Manifest) -> Vec<String> {
    let by_id: HashMap<u32, &crate::emit::manifest::ProbeEntry> = manifest.probes.iter().map(|p| (p.id, p)).collect();
    let last = |name: &str| name.rsplit("::").next().unwrap_or(name).to_string();
    let mut out = Vec::new();
    for p in &manifest.probes {
        if fired.contains(&p.id) || !matches!(p.kind.as_str(), "function" | "loop") {
            continue;
        }
        // The code around it: the enclosing loop or function, else (functions) a caller.
        let around = match p.parent.and_then(|q| by_id.get(&q)) {
            Some(q) => begins.get(&q.id).map(|n| (*n, describe(q))),
            None if p.kind == "function" => manifest
                .probes
                .iter()
                .filter(|c| c.kind == "function" && c.id != p.id)
                .filter(|c| {
                    c.module.as_ref().is_some_and(|m| m.calls.iter().any(|call| call.name == last(&p.function)))
                })
                .find_map(|c| begins.get(&c.id).map(|n| (*n, describe(c)))),
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
