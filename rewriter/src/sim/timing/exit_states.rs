//! Without a report, under Vivado HLS: a loop's exit test is a state of its own.
//!
//! Vivado HLS keeps every loop in its function's state machine (no `_Pipeline_` module): a loop
//! that is not pipelined tests its exit in its first state, so after the last iteration that
//! state runs once more; a pipeline takes two states after its last iteration (the flush and
//! the exit). The reports of the public Vivado HLS designs (2016.4 to 2020.1) show it in every
//! function made of loops: a loop costs its latency + 1 in its function, + 2 for a pipeline,
//! and the function adds nothing beyond them (its first state is the first loop's, its done the
//! last loop's exit). `mlp` (2019.1, four loops not pipelined): 35295 + 384 + 600 + 750 = 37029,
//! function 37033; `do_convolution` (2018.1, four pipelines): 2 + 5 + 4 + 28 = 39, function 47;
//! `fibonacci` (2017.2, one 10-cycle loop): 11; `matrixmul` (2016.4, one 110-cycle pipeline):
//! 112; `doGain` (2018.3, pipeline 1001): 1003; `cordic` (2019.2): 64 → 65, pipelined 32 → 34;
//! `aes_addRoundKey` (2016.4): 32 → 33. A loop around a loop takes one state of its own plus
//! its inner loops' latencies and exits: `multiply_matrices` (2019.1) `Column_Loop` 17 =
//! `Sum_Loop` 15 + 1 + 1, `Line_Loop` 87 = 85 + 1 + 1; `matrixmul` (2019.2) `col` 258 = 256 + 1 +
//! 1, `row` 8258 = 8256 + 1 + 1; `blockmatmul`'s `partialsum` (2020.1) 21 = a pipeline of 18 +
//! 2 + 1. The model's 2 states of an iteration (an address, its data) and 2 of a handshake
//! stood for these in a loop nest and a function of one loop, not for several loops in a row.

use super::{Defaults, NestRole, Source, Sourced, Timing};
use crate::emit::manifest::Manifest;
use std::collections::HashMap;

/// Gives each loop that runs in a state machine (not inside a pipeline, not unrolled, removed,
/// folded or a member of a flattened nest) its exit states; then a loop around such a loop
/// takes one state of its own instead of two, and a function with such a loop at its level (its
/// own, or one of a function inlined into it) no handshake.
pub(super) fn apply(manifest: &Manifest, d: &Defaults, timing: &mut HashMap<u32, Timing>) {
    if !d.loop_exit_states {
        return;
    }
    let parent: HashMap<u32, u32> =
        manifest.probes.iter().filter(|p| p.kind != "port").filter_map(|p| Some((p.id, p.parent?))).collect();
    let pipelined = |t: Option<&Timing>| match t {
        Some(Timing::Loop(l)) => l.pipelined.value,
        Some(Timing::Module(m)) => m.pipelined || m.body.is_some(),
        _ => false,
    };
    let in_pipeline = |id: u32| {
        let mut at = parent.get(&id).copied();
        while let Some(a) = at {
            if pipelined(timing.get(&a)) {
                return true;
            }
            at = parent.get(&a).copied();
        }
        false
    };
    let exits: Vec<(u32, u64)> = manifest
        .probes
        .iter()
        .filter(|p| p.kind == "loop" && !in_pipeline(p.id))
        .filter_map(|p| match timing.get(&p.id) {
            Some(Timing::Loop(l))
                if l.report.is_none()
                    && !l.absent
                    && !l.dataflow
                    && l.unroll != Some(0)
                    && !matches!(l.nest, Some(NestRole::Member { .. })) =>
            {
                Some((p.id, if l.pipelined.value { 2 } else { 1 }))
            }
            _ => None,
        })
        .collect();
    // The probe whose states a loop's exit runs in: its parent, through inlined functions.
    let level = |timing: &HashMap<u32, Timing>, id: u32| {
        let mut at = parent.get(&id).copied();
        while let Some(a) = at {
            match timing.get(&a) {
                Some(Timing::Module(m)) if m.inlined => at = parent.get(&a).copied(),
                _ => return Some(a),
            }
        }
        None
    };
    let mut holders = std::collections::HashSet::new();
    for &(id, n) in &exits {
        if let Some(Timing::Loop(l)) = timing.get_mut(&id) {
            l.exit = Some(Sourced::new(n, Source::Default));
        }
        holders.extend(level(timing, id));
    }
    for id in holders {
        match timing.get_mut(&id) {
            Some(Timing::Loop(l)) if !l.pipelined.value => {
                if let Some(own) = l.own.as_mut().filter(|o| o.source == Source::Default && o.value > 1) {
                    own.value -= 1;
                }
            }
            Some(Timing::Module(m))
                if !m.inlined
                    && !m.pipelined
                    && !m.dataflow
                    && m.fixed.is_none()
                    && m.overhead.source == Source::Default =>
            {
                m.overhead.value = 0;
            }
            _ => {}
        }
    }
}
