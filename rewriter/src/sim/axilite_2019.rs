//! What Vivado HLS 2018–2019's co-sim testbench moves over a top's s_axilite bundle
//! ([`crate::vitis_tb::Window::AxiLite2019`]), from the top's parameters and what its body does
//! with them; the same with a report or without (reports of those releases list no registers).

use super::estimate::{scalar_words, BundleMemory};
use crate::emit::manifest::ModuleInfo;
use crate::model::{Param, ParamKind};
use crate::vitis_tb::{Bank, Output2019, Window};

/// The bundle in argument order: an m_axi pointer's offset register (one 32-bit word: the
/// addresses of these releases are 32-bit); a scalar argument written before the start; a
/// pointer or reference argument written when the body reads it and polled when it writes it;
/// an array's banks (its `ARRAY_PARTITION`) written when the body reads it (or does not say) and
/// read back when it writes it; the return value read back. An array whose size or element
/// type the sources do not give is left out.
pub(super) fn window(params: &[Param], top: Option<&ModuleInfo>) -> Window {
    let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
    for p in params {
        match (p.interface.as_deref(), p.kind) {
            (Some("m_axi"), _) => inputs.push(Bank { words: 1, turns: 1 }),
            (Some("s_axilite"), ParamKind::Array) => {
                let Some(mem) = BundleMemory::of(p, top) else { continue };
                if mem.input {
                    inputs.extend(std::iter::repeat_n(mem.bank, mem.banks));
                }
                if mem.output {
                    outputs.extend(std::iter::repeat_n(Output2019::Memory(mem.bank), mem.banks));
                }
            }
            (Some("s_axilite"), ParamKind::Pointer | ParamKind::Reference) => {
                let words = scalar_words(p.type_text.trim_end_matches(['*', '&', ' ']));
                let uses = top.and_then(|m| m.scalar_uses.iter().find(|u| u.param == p.name));
                let written = uses.is_some_and(|u| u.write);
                if uses.is_none_or(|u| u.read || !u.write) {
                    inputs.push(Bank { words, turns: 1 });
                }
                if written {
                    outputs.push(Output2019::Valid { words });
                }
            }
            (Some("s_axilite"), _) => inputs.push(Bank { words: scalar_words(&p.type_text), turns: 1 }),
            _ => {}
        }
    }
    if top.is_some_and(|m| !m.returns_void) {
        outputs.push(Output2019::Return { words: 1 });
    }
    Window::AxiLite2019 { inputs, outputs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::fnbody::{Access, PortUse, ScalarUse};

    fn param(name: &str, ty: &str, kind: ParamKind, interface: Option<&str>) -> Param {
        Param {
            name: name.into(),
            type_text: ty.into(),
            kind,
            interface: interface.map(Into::into),
            dims: Vec::new(),
            elements: None,
            elem_bits: None,
        }
    }

    /// MSOC's `cordic(theta, &s, &c)` with its arguments on the bundle: theta written, s and c
    /// polled; its co-sim (schedule 34): 85, then 89.
    #[test]
    fn written_references_are_polled_outputs() {
        let params = [
            param("theta", "theta_type", ParamKind::Scalar, Some("s_axilite")),
            param("s", "cos_sin_type &", ParamKind::Reference, Some("s_axilite")),
            param("c", "cos_sin_type &", ParamKind::Reference, Some("s_axilite")),
        ];
        let top = ModuleInfo {
            returns_void: true,
            scalar_uses: ["s", "c"]
                .iter()
                .map(|n| ScalarUse { param: n.to_string(), read: false, write: true })
                .collect(),
            ..ModuleInfo::default()
        };
        let w = window(&params, Some(&top));
        let valid = Output2019::Valid { words: 1 };
        assert_eq!(w, Window::AxiLite2019 { inputs: vec![Bank { words: 1, turns: 1 }], outputs: vec![valid, valid] });
        assert_eq!((w.cycles(34), w.cycles_after(Some(34), 34)), (85, 89));
    }

    /// MSOC's `matrixmul(A, B, AB)`, three 32 × 32 int arrays on the bundle: A and B read, AB
    /// written; its co-sim (schedule 264257): 299087.
    #[test]
    fn arrays_are_written_or_read_back_as_the_body_uses_them() {
        let array = |n: &str| Param {
            elements: Some(1024),
            elem_bits: Some(32),
            ..param(n, "int", ParamKind::Array, Some("s_axilite"))
        };
        let params = [array("A"), array("B"), array("AB")];
        let uses = |n: &str, write| PortUse {
            param: n.into(),
            banks: 1,
            reshape_words: 0,
            accesses: vec![Access { write, loops: vec![] }],
        };
        let top = ModuleInfo {
            returns_void: true,
            port_uses: vec![uses("A", false), uses("B", false), uses("AB", true)],
            ..ModuleInfo::default()
        };
        assert_eq!(window(&params, Some(&top)).cycles(264257), 299087);
    }

    /// An int return value is read back after done; m_axi offsets are input words; a pointer the
    /// body reads and writes is written and polled.
    #[test]
    fn returns_offsets_and_inout_pointers() {
        let params = [
            param("x", "int *", ParamKind::Pointer, Some("m_axi")),
            param("acc", "long long *", ParamKind::Pointer, Some("s_axilite")),
            param("n", "int", ParamKind::Scalar, None),
        ];
        let top = ModuleInfo {
            returns_void: false,
            scalar_uses: vec![ScalarUse { param: "acc".into(), read: true, write: true }],
            ..ModuleInfo::default()
        };
        assert_eq!(
            window(&params, Some(&top)),
            Window::AxiLite2019 {
                inputs: vec![Bank { words: 1, turns: 1 }, Bank { words: 2, turns: 1 }],
                outputs: vec![Output2019::Valid { words: 2 }, Output2019::Return { words: 1 }],
            }
        );
    }
}
