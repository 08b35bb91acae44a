//! A `<func>_Pipeline_<loop>` module in the RTL ends with its loop.
//!
//! The report counts such a module as its loop + 2 (facts, rule 3) in its caller's latency, but
//! the module's `ap_done` comes with the loop's last state: its caller finishes 2 cycles a module
//! run sooner than the report says. Measured on the 2022.2 systolic fixture's modules simulated
//! alone and in its RTL (each report − 2), and on public co-simulations: a 2022.2 `fir` and a
//! 2022.1 `cordiccart2pol` calling one such module (report − 2), a 2022.1 `dft` calling one once
//! and another 256 times (−514). docs/cycle-model.md, "Pipeline modules in the RTL".
//!
//! Where the module waits on an interface or on other processes the co-simulations show the 2
//! spent: the loops of a function with an m_axi port, and loops that run inside a dataflow region
//! ([`interface_loops`]). A loop that writes the top's own stream port outside dataflow does not:
//! a public 2022.2 AXIS design (`dut`, two such modules) runs report − 4.
//!
//! Applied where a report gives the module (`replay`). Without a report the default tail keeps
//! the 2 (`Defaults::pipeline_wrapper`): taking them off there too moved the 28 held-out designs
//! by −1.2 points in all (three better, two worse), and the hand-worked figures of the rules'
//! cases assume them; not done.

use crate::emit::manifest::Manifest;
use std::collections::{HashMap, HashSet};

/// Cycles a `_Pipeline_` module's RTL takes less than the report's module latency.
pub const RTL_WRAPPER_SAVING: u64 = 2;

/// The loops whose `_Pipeline_` module keeps the 2 cycles in the RTL, as far as co-simulations
/// show: the loops of a function with an m_axi port (the systolic fixture's co-sim holds its m_axi
/// function's, 2022.2, and so does a public 2022.2 design's of flattened m_axi nests), and the
/// loops of a dataflow region: a dataflow function's own and those of every function it calls, at
/// any depth (a public 2022.1 FIFO dataflow design's co-sim holds its processes' stream loops'
/// wrappers, where the processes start and stop on each other's FIFOs).
pub fn interface_loops(manifest: &Manifest) -> HashSet<u32> {
    // A port probe stands for an m_axi-bound parameter (the top's or one passed down); without
    // port probes (`--probes` without them) the INTERFACE pragmas on the parameters still say.
    let own_maxi = |p: &&crate::emit::manifest::ProbeEntry| {
        p.module.as_ref().is_some_and(|m| {
            m.params.iter().any(|q| q.interface.as_deref().is_some_and(|i| i.eq_ignore_ascii_case("m_axi")))
        })
    };
    let maxi: HashSet<&str> = manifest
        .probes
        .iter()
        .filter(|p| p.kind == "port" || (p.kind == "function" && own_maxi(p)))
        .map(|p| p.function.as_str())
        .collect();
    let dataflow = in_dataflow(manifest);
    manifest
        .probes
        .iter()
        .filter(|p| p.kind == "loop")
        .filter(|p| maxi.contains(p.function.as_str()) || dataflow.contains(p.function.as_str()))
        .map(|p| p.id)
        .collect()
}

/// The functions that run inside a dataflow region: each dataflow function, its processes
/// ([`super::processes`]: also `hls::task` bodies) and, at any depth, what they call.
fn in_dataflow(manifest: &Manifest) -> HashSet<&str> {
    // Each function's calls, by its name (one pass; a name defined twice keeps both lists).
    let mut calls: HashMap<&str, Vec<&str>> = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "function") {
        if let Some(m) = p.module.as_deref() {
            calls.entry(p.function.as_str()).or_default().extend(m.calls.iter().map(|c| c.name.as_str()));
        }
    }
    let mut inside = super::processes(manifest);
    inside.extend(
        manifest
            .probes
            .iter()
            .filter(|p| p.kind == "function" && p.module.as_ref().is_some_and(|m| m.dataflow))
            .map(|p| p.function.as_str()),
    );
    let mut todo: Vec<&str> = inside.iter().copied().collect();
    while let Some(f) = todo.pop() {
        for &callee in calls.get(f).into_iter().flatten() {
            // Only functions the design defines (a library call has no loops to keep).
            if calls.contains_key(callee) && inside.insert(callee) {
                todo.push(callee);
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dataflow top `k` calls `p`, which calls `h`; `s` is a top outside dataflow whose loop
    /// writes its stream port; `m` has an m_axi port.
    const DESIGN: &str = r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":["modules","loops"],
      "files":[],"skipped":[],"probes":[
      {"id":0,"kind":"function","file":"k.cpp","line":1,"column":1,"function":"k","name":"k",
       "module":{"dataflow":true,"returns_void":true,"params":[],"exits":1,
       "calls":[{"callee":"p","name":"p","line":2,"args":[]}]}},
      {"id":1,"kind":"function","file":"k.cpp","line":5,"column":1,"function":"p","name":"p",
       "module":{"dataflow":false,"returns_void":true,"params":[],"exits":1,
       "calls":[{"callee":"h","name":"h","line":6,"args":[]}]}},
      {"id":2,"kind":"loop","file":"k.cpp","line":7,"column":1,"function":"p","name":"L","parent":1,
       "loop":{"kind":"for","depth":0,"streams":["x"]}},
      {"id":3,"kind":"function","file":"k.cpp","line":10,"column":1,"function":"h","name":"h",
       "module":{"dataflow":false,"returns_void":true,"params":[],"exits":1}},
      {"id":4,"kind":"loop","file":"k.cpp","line":11,"column":1,"function":"h","name":"M","parent":3,
       "loop":{"kind":"for","depth":0}},
      {"id":5,"kind":"function","file":"k.cpp","line":20,"column":1,"function":"s","name":"s",
       "module":{"dataflow":false,"returns_void":true,"params":[{"name":"out","type":"int","kind":"reference","interface":"axis"}],"exits":1}},
      {"id":6,"kind":"loop","file":"k.cpp","line":21,"column":1,"function":"s","name":"N","parent":5,
       "loop":{"kind":"for","depth":0,"streams":["out"]}},
      {"id":7,"kind":"function","file":"k.cpp","line":30,"column":1,"function":"m","name":"m",
       "module":{"dataflow":false,"returns_void":true,"params":[{"name":"a","type":"int","kind":"pointer","interface":"m_axi"}],"exits":1}},
      {"id":8,"kind":"loop","file":"k.cpp","line":31,"column":1,"function":"m","name":"O","parent":7,
       "loop":{"kind":"for","depth":0}}]}"#;

    /// The loops of a dataflow region at any depth and of an m_axi function keep the 2; a loop
    /// writing a stream port outside dataflow does not.
    #[test]
    fn dataflow_regions_and_m_axi_functions_keep_the_wrapper() {
        let manifest: Manifest = serde_json::from_str(DESIGN).unwrap();
        let mut kept: Vec<u32> = interface_loops(&manifest).into_iter().collect();
        kept.sort();
        assert_eq!(kept, [2, 4, 8]);
    }
}
