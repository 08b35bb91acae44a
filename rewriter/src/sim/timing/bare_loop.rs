//! Without a report: a function whose body is one pipelined loop is that loop's module.
//!
//! Vitis (2021.1 on) puts a pipelined loop into a `<func>_Pipeline_<loop>` module of its own,
//! 2 cycles around the loop (facts, rule 3), when the loop shares its function with other
//! work. A function kept as a module whose only loop is the pipeline needs no second module:
//! the public Vitis 2021.2 ASCON design's `LOADBYTES_1` holds its 8-trip pipeline directly
//! (loop 8, module 10: the module's own 2, no `_Pipeline_` module), as does the `PE_dotproduct`
//! module of another public report (loop 10034, module 10035). The top too when its ports are
//! plain ones: the public Vitis 2023.2 `divide_sum` (ap_memory inputs, ap_vld outputs zeroed
//! before its loop, ap_ctrl_hs) holds its 10-trip pipeline directly (loop 45, top 47). A top
//! with AXI interfaces (s_axilite, m_axi, axis) keeps it in a module of its own, beside the
//! adapters (the tops of facts rule 11, whose own cycles beyond their children are about 13).

use super::{Defaults, Source, Sourced, Timing};
use crate::emit::manifest::Manifest;
use std::collections::HashMap;

/// Takes the `_Pipeline_` module's cycles off the tail of the one loop of each function (not a
/// process, nor a top with AXI interfaces) that keeps a module, calls no function of the design, fills no initialiser and has that
/// pipelined loop, a default's or a pragma's, as its only probed child.
pub(super) fn apply(
    manifest: &Manifest,
    d: &Defaults,
    top: &str,
    processes: &std::collections::HashSet<&str>,
    timing: &mut HashMap<u32, Timing>,
) {
    if d.pipeline_wrapper == 0 {
        return;
    }
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind != "port") {
        if let Some(parent) = p.parent {
            children.entry(parent).or_default().push(p.id);
        }
    }
    let defined: std::collections::HashSet<&str> =
        manifest.probes.iter().filter(|p| p.kind == "function").map(|p| p.name.as_str()).collect();
    let axi_top = |p: &crate::emit::manifest::ProbeEntry| {
        p.name == top
            && p.module.as_ref().is_some_and(|m| m.control.as_deref() == Some("s_axilite") || m.has_axi_params())
    };
    let plain = |p: &&crate::emit::manifest::ProbeEntry| !processes.contains(p.name.as_str()) && !axi_top(p);
    for p in manifest.probes.iter().filter(|p| p.kind == "function").filter(plain) {
        let Some(info) = p.module.as_deref() else { continue };
        let kept = matches!(timing.get(&p.id), Some(Timing::Module(m))
            if !m.inlined && !m.pipelined && !m.dataflow && m.initialisers.is_none());
        let [only] = children.get(&p.id).map(Vec::as_slice).unwrap_or_default() else { continue };
        // A call of a function the design does not define (a library's, or a macro the source
        // parse takes for one) is logic of the loop, not a module beside it.
        let calls_modules = info.calls.iter().any(|c| defined.contains(c.name.as_str()));
        if !kept || calls_modules {
            continue;
        }
        let Some(Timing::Loop(l)) = timing.get_mut(only) else { continue };
        if !l.pipelined.value || l.pipelined.source == Source::Report || l.dataflow {
            continue;
        }
        if let Some(il) = l.il.as_mut() {
            *il = Sourced::new(il.value.saturating_sub(d.pipeline_wrapper), il.source);
        }
    }
}
