//! The interfaces Vitis gives the top's ports that no pragma names, by flow target (UG1399,
//! "Default Settings of Vivado/Vitis Flows"): the Vitis kernel flow (`-flow_target vitis`,
//! `flow_target=vitis`) puts the block control and the scalar arguments on an s_axilite bundle
//! and pointers and arrays on m_axi, their offsets on that bundle. What the cycle model reads of
//! them without a report: how the co-sim testbench counts a call (it polls the control register
//! and writes every argument's registers first: `vitis_tb`). The Vivado IP flow's defaults
//! (block control on ports) are what the model assumes where no pragma speaks.

use crate::emit::manifest::Manifest;
use crate::model::ParamKind;

/// The manifest with the kernel flow's interfaces on the top's unnamed ports; `None` where the
/// pragmas name them all (or no such top is probed).
pub fn kernel_flow_defaults(manifest: &Manifest, top: &str) -> Option<Manifest> {
    let is_top = |p: &crate::emit::manifest::ProbeEntry| p.kind == "function" && (p.name == top || p.function == top);
    let needs =
        manifest.probes.iter().filter(|p| is_top(p)).filter_map(|p| p.module.as_deref()).any(|m| {
            m.control.is_none() || m.params.iter().any(|q| q.interface.is_none() && default_of(q.kind).is_some())
        });
    if !needs {
        return None;
    }
    let mut m = manifest.clone();
    for p in m.probes.iter_mut().filter(|p| is_top(p)) {
        let Some(module) = p.module.as_deref_mut() else { continue };
        module.control.get_or_insert_with(|| "s_axilite".to_string());
        for q in module.params.iter_mut().filter(|q| q.interface.is_none()) {
            q.interface = default_of(q.kind).map(str::to_string);
        }
    }
    Some(m)
}

/// A port's interface in the kernel flow: references and streams keep what the model assumes.
fn default_of(kind: ParamKind) -> Option<&'static str> {
    match kind {
        ParamKind::Scalar => Some("s_axilite"),
        ParamKind::Pointer | ParamKind::Array => Some("m_axi"),
        ParamKind::Reference | ParamKind::Stream => None,
    }
}
