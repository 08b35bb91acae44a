//! Without a report: Vitis inlines a function with loops that the design calls from one place.
//!
//! UG1399 (`set_directive_inline -off`): "By default, Vitis HLS performs inlining of smaller
//! functions". Which functions are small enough is the tool's choice; what the reports of the
//! public Vitis designs show (docs/cycle-model.md, "Without a report") is that a function called
//! from one call site, whose own calls are all inlined too, has no module of its own, loops or
//! not: the 2020.2 `HLS_CISR_spmv_accel` (five such functions), the 2023.2 `mem_streaming`
//! (three), the 2021.2 `Radix2wECC` (`m_n_parameters`), the 2022.2 `sr_fft` (`fft_8pt`); and
//! every function of those designs kept as a module is called from several places or calls a
//! kept module (`fft_32pt`). Vivado HLS decides otherwise (its 2016.4 `aes256cbc` keeps the
//! once-called `aes_mixColumns_inv` and `aes_expandDecKey`), so the rule is Vitis' only
//! ([`super::Defaults::inline_single_call`]).

use super::{initialiser_cost, Defaults, ModuleTiming, Source, Timing};
use crate::emit::manifest::Manifest;
use std::collections::{HashMap, HashSet};

/// Marks inlined every function with loops (`has_children`) that one call site in the design
/// calls and whose calls are all to inlined functions, repeated until nothing changes (a caller
/// of such functions may be one itself). Not the top, a pipelined function, a dataflow region,
/// a process of one or an `hls::task` body (`processes`), nor a function an INLINE pragma or
/// directive decides about.
pub(super) fn apply(
    manifest: &Manifest,
    d: &Defaults,
    top: &str,
    has_children: &HashSet<u32>,
    processes: &HashSet<&str>,
    timing: &mut HashMap<u32, Timing>,
) {
    let functions: Vec<_> = manifest.probes.iter().filter(|p| p.kind == "function").collect();
    let mut sites: HashMap<&str, usize> = HashMap::new();
    for c in functions.iter().flat_map(|p| p.module.iter().flat_map(|m| &m.calls)) {
        *sites.entry(c.name.as_str()).or_default() += 1;
    }
    let inlined = |timing: &HashMap<u32, Timing>, name: &str| {
        functions
            .iter()
            .filter(|q| q.name == name)
            .all(|q| matches!(timing.get(&q.id), Some(Timing::Module(m)) if m.inlined))
    };
    // Each round inlines one more level of callers; a chain is at most as long as there are functions.
    for _ in 0..functions.len() {
        let mut more = Vec::new();
        for p in &functions {
            let Some(info) = p.module.as_deref() else { continue };
            let decided = info.dataflow || info.pipeline_ii.is_some() || info.inline.is_some();
            let already = matches!(timing.get(&p.id), Some(Timing::Module(m)) if m.inlined);
            if p.name == top
                || decided
                || already
                || !has_children.contains(&p.id)
                || processes.contains(p.name.as_str())
                || sites.get(p.name.as_str()) != Some(&1)
            {
                continue;
            }
            // A call of a function the design does not define (a library's) has no module of
            // its own to keep.
            let calls_kept =
                info.calls.iter().any(|c| functions.iter().any(|q| q.name == c.name) && !inlined(timing, &c.name));
            if !calls_kept {
                more.push(p);
            }
        }
        if more.is_empty() {
            break;
        }
        for p in more {
            let (initialisers, initialiser_notes) = initialiser_cost(p.module.as_deref(), d);
            let t = ModuleTiming { initialisers, initialiser_notes, ..ModuleTiming::inlined(false, Source::Default) };
            timing.insert(p.id, Timing::Module(t));
        }
    }
}
