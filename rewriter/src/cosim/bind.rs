//! Which RTL ports carry each argument of the top: an s_axilite register (a value, or an m_axi
//! buffer's address), scalar ports (ap_none / ap_vld / ap_ack / ap_hs, in or out), an ap_memory
//! RAM, or a stream (ap_fifo / axis). Decided once per co-simulation from the C signature and
//! the RTL's port groups; the plan then writes each call's values through these bindings.

use super::capture::{ArgKind, ArgSpec, TopSignature};
use super::solution::{ArgPorts, Interfaces};
use super::verilog::Dir;
use crate::error::{Error, ErrorKind, Result};

/// One way an argument reaches the RTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// An s_axilite register: the value, or the base address of an m_axi buffer.
    Register,
    /// An input data port, with its handshake ports when it has them.
    WireIn { port: String, vld: Option<String>, ack: Option<String> },
    /// An output data port (ap_none: sampled at ap_done; with `_ap_vld`: when it is high).
    WireOut { port: String, vld: Option<String>, ack: Option<String> },
    /// An array on ap_memory ports `<prefix>_address0 ...`, `ports` RAM ports.
    Ram { prefix: String, ports: u32 },
    /// A stream the design reads (`in`) or writes, on ap_fifo or axis ports under `prefix`.
    Stream { prefix: String, axis: bool, input: bool },
}

pub fn unsupported(what: &str) -> Error {
    Error::new(
        ErrorKind::Usage,
        format!(
            "{what}: not supported by cosim yet (supported: s_axilite, m_axi, ap_memory, ap_none/ap_vld/ap_ack/ap_hs \
             scalars, ap_fifo and axis streams, ap_ctrl_none/hs/chain; docs/cosim.md)"
        ),
    )
}

/// The bindings of every argument of `sig`, in order.
pub fn bind(ifs: &Interfaces, sig: &TopSignature) -> Result<Vec<Vec<Binding>>> {
    sig.args.iter().map(|a| bind_one(ifs, sig, a)).collect()
}

fn bind_one(ifs: &Interfaces, sig: &TopSignature, a: &ArgSpec) -> Result<Vec<Binding>> {
    let groups = ifs.arg_groups(&a.name);
    if ifs.register_of(&a.name).is_some() {
        if matches!(a.kind, ArgKind::Buffer { .. }) && ifs.maxi.is_empty() {
            return Err(unsupported(&format!("array argument `{}` in s_axilite registers without m_axi", a.name)));
        }
        if a.kind == ArgKind::Reference {
            return Err(unsupported(&format!("reference argument `{}` in s_axilite registers", a.name)));
        }
        return Ok(vec![Binding::Register]);
    }
    if groups.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "argument `{}` of {}: neither an s_axilite register nor a port group of that name in the RTL (looked \
                 for `{0}`, `{0}_V`, `{0}_r`, `{0}_i`/`{0}_o` and their `_address0`, `_dout`, `_din`, `_TDATA` ports); \
                 is the solution synthesised from these sources? (partitioned arrays and the `bram` interface are not \
                 supported)",
                a.name, sig.name
            ),
        ));
    }
    let mut out = Vec::new();
    for (prefix, g) in groups {
        let b = match (g, &a.kind) {
            (ArgPorts::Wire { port, dir: Dir::Input, vld, ack, .. }, ArgKind::Scalar | ArgKind::Reference)
            | (ArgPorts::Wire { port, dir: Dir::Input, vld, ack, .. }, ArgKind::Buffer { .. }) => {
                Binding::WireIn { port: port.clone(), vld: vld.clone(), ack: ack.clone() }
            }
            (ArgPorts::Wire { port, dir: Dir::Output, vld, ack, .. }, ArgKind::Reference | ArgKind::Buffer { .. }) => {
                Binding::WireOut { port: port.clone(), vld: vld.clone(), ack: ack.clone() }
            }
            (ArgPorts::Memory { ports }, ArgKind::Buffer { .. }) => {
                Binding::Ram { prefix: prefix.to_string(), ports: *ports }
            }
            (ArgPorts::Fifo { input }, ArgKind::Stream) => {
                Binding::Stream { prefix: prefix.to_string(), axis: false, input: *input }
            }
            (ArgPorts::Axis { input }, ArgKind::Stream) => {
                Binding::Stream { prefix: prefix.to_string(), axis: true, input: *input }
            }
            (g, k) => {
                return Err(unsupported(&format!(
                    "argument `{}` ({}) on RTL ports {g:?}",
                    a.name,
                    match k {
                        ArgKind::Scalar => "a value",
                        ArgKind::Reference => "a reference",
                        ArgKind::Buffer { .. } => "an array or pointer",
                        ArgKind::Stream => "a stream",
                    }
                )))
            }
        };
        out.push(b);
    }
    Ok(out)
}
