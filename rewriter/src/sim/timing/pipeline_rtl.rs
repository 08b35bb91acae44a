//! A `<func>_Pipeline_<loop>` module in the RTL ends with its loop.
//!
//! The report counts such a module as its loop + 2 (facts, rule 3) in its caller's latency, but
//! the module's `ap_done` comes with the loop's last state: its caller finishes 2 cycles a module
//! run sooner than the report says. Measured on the 2022.2 systolic fixture's modules simulated
//! alone and in its RTL (each report − 2), and on public co-simulations: a 2022.2 `fir` and a
//! 2022.1 `cordiccart2pol` calling one such module (report − 2), a 2022.1 `dft` calling one once
//! and another 256 times (−514). docs/cycle-model.md, "Pipeline modules in the RTL".
//!
//! Where the module waits on an interface the co-simulations show the 2 spent: a loop that names
//! a stream, and the loops of a function with an m_axi port ([`interface_loops`]).
//!
//! Applied where a report gives the module (`replay`). Without a report the default tail keeps
//! the 2 (`Defaults::pipeline_wrapper`): taking them off there too moved the 28 held-out designs
//! by −1.2 points in all (three better, two worse), and the hand-worked figures of the rules'
//! cases assume them; not done.

use crate::emit::manifest::Manifest;
use std::collections::HashSet;

/// Cycles a `_Pipeline_` module's RTL takes less than the report's module latency.
pub const RTL_WRAPPER_SAVING: u64 = 2;

/// The loops whose `_Pipeline_` module keeps the 2 cycles in the RTL, as far as co-simulations
/// show: a loop that names a stream (a 2022.1 FIFO dataflow design's co-sim holds its stream
/// loops' wrappers) and the loops of a function with an m_axi port (the systolic fixture's co-sim
/// holds its m_axi function's, 2022.2, and so does a public 2022.2 design's of flattened m_axi
/// nests).
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
    manifest
        .probes
        .iter()
        .filter(|p| p.kind == "loop")
        .filter(|p| {
            p.loop_info.as_ref().is_some_and(|i| !i.facts.streams.is_empty()) || maxi.contains(p.function.as_str())
        })
        .map(|p| p.id)
        .collect()
}
