//! Which RTL ports carry each argument of the top: an s_axilite register (a value, or an m_axi
//! buffer's address), scalar ports (ap_none / ap_vld / ap_ack / ap_hs, in or out), an ap_memory
//! RAM, or a stream (ap_fifo / axis). Decided once per co-simulation from the C signature and
//! the RTL's port groups; the plan then writes each call's values through these bindings.

use super::capture::{ArgKind, ArgSpec, TopSignature};
use super::partition;
use super::plan::Captured;
use super::solution::{ArgPorts, Interfaces};
use super::verilog::Dir;
use crate::error::{Error, ErrorKind, Result};

/// One way an argument reaches the RTL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Binding {
    /// An s_axilite register: the value, or the base address of an m_axi buffer.
    Register,
    /// An input data port, with its handshake ports when it has them; `elem`: the array element
    /// it carries (a completely partitioned array), else the value itself.
    WireIn { port: String, vld: Option<String>, ack: Option<String>, elem: Option<usize> },
    /// An output data port (ap_none: sampled at ap_done; with `_ap_vld`: when it is high).
    WireOut { port: String, vld: Option<String>, ack: Option<String>, elem: Option<usize> },
    /// An array on RAM ports `<prefix>_address0 ...` (`bram`: `<prefix>_Addr_A ...`), `ports`
    /// RAM ports; `elems`: for a bank of a partitioned array, the C element at each address.
    Ram { prefix: String, ports: u32, bram: bool, elems: Option<Vec<Option<usize>>> },
    /// A stream the design reads (`in`) or writes, on ap_fifo or axis ports under `prefix`.
    Stream { prefix: String, axis: bool, input: bool },
}

pub fn unsupported(what: &str) -> Error {
    Error::new(
        ErrorKind::Usage,
        format!(
            "{what}: not supported by cosim yet (supported: s_axilite, m_axi, ap_memory and bram (partitioned too), \
             ap_none/ap_vld/ap_ack/ap_hs scalars, ap_fifo and axis streams, ap_ctrl_none/hs/chain; docs/cosim.md)"
        ),
    )
}

/// The bindings of every argument of `sig`, in order; `first` (the first captured call) gives
/// the dimensions of partitioned arrays.
pub fn bind(ifs: &Interfaces, sig: &TopSignature, first: Option<&Captured>) -> Result<Vec<Vec<Binding>>> {
    sig.args.iter().map(|a| bind_one(ifs, sig, a, first)).collect()
}

fn bind_one(ifs: &Interfaces, sig: &TopSignature, a: &ArgSpec, first: Option<&Captured>) -> Result<Vec<Binding>> {
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
        if let ArgKind::Buffer { .. } = a.kind {
            if let Some(b) = bind_banks(ifs, sig, a, first)? {
                return Ok(b);
            }
        }
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "argument `{}` of {}: neither an s_axilite register nor a port group of that name in the RTL (looked \
                 for `{0}`, `{0}_V`, `{0}_r`, `{0}_i`/`{0}_o` and their `_address0`, `_Addr_A`, `_dout`, `_din`, \
                 `_TDATA` ports, and banks `{0}_0 ...` of a partitioned array); is the solution synthesised from these \
                 sources?",
                a.name, sig.name
            ),
        ));
    }
    groups.into_iter().map(|(prefix, g)| group_binding(a, prefix, g, None)).collect()
}

/// How argument `a` reaches port group `g`; `bank`: the C elements of a partition bank.
fn group_binding(a: &ArgSpec, prefix: &str, g: &ArgPorts, bank: Option<&[Option<usize>]>) -> Result<Binding> {
    let elem = bank.and_then(|b| b.first().copied().flatten());
    Ok(match (g, &a.kind) {
        (ArgPorts::Wire { port, dir: Dir::Input, vld, ack, .. }, ArgKind::Scalar | ArgKind::Reference)
        | (ArgPorts::Wire { port, dir: Dir::Input, vld, ack, .. }, ArgKind::Buffer { .. }) => {
            Binding::WireIn { port: port.clone(), vld: vld.clone(), ack: ack.clone(), elem }
        }
        (ArgPorts::Wire { port, dir: Dir::Output, vld, ack, .. }, ArgKind::Reference | ArgKind::Buffer { .. }) => {
            Binding::WireOut { port: port.clone(), vld: vld.clone(), ack: ack.clone(), elem }
        }
        (ArgPorts::Memory { ports, bram }, ArgKind::Buffer { .. }) => {
            Binding::Ram { prefix: prefix.to_string(), ports: *ports, bram: *bram, elems: bank.map(<[_]>::to_vec) }
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
    })
}

/// Port groups that look like banks of array `name`: `<name>_<digit>...` or `<name>_V_<digit>...`.
fn bank_groups<'a>(ifs: &'a Interfaces, name: &str) -> Vec<&'a str> {
    let is_bank = |g: &str| {
        [format!("{name}_"), format!("{name}_V_")]
            .iter()
            .any(|p| g.strip_prefix(p.as_str()).is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())))
    };
    ifs.args.keys().map(String::as_str).filter(|g| is_bank(g)).collect()
}

/// A partitioned array: one binding per bank, from the partition directives of `a` and its
/// dimensions; `None` when the array is neither partitioned nor split in the RTL.
fn bind_banks(
    ifs: &Interfaces,
    sig: &TopSignature,
    a: &ArgSpec,
    first: Option<&Captured>,
) -> Result<Option<Vec<Binding>>> {
    let mut specs = Vec::new();
    for (var, s) in sig.partitions.iter().filter(|(v, _)| *v == a.name) {
        match s {
            Ok(s) => specs.push(s.clone()),
            Err(e) => {
                return Err(Error::new(ErrorKind::BadInput, format!("ARRAY_PARTITION of `{var}`: {e}")).at(&sig.file))
            }
        }
    }
    let in_rtl = bank_groups(ifs, &a.name);
    if specs.is_empty() {
        if in_rtl.is_empty() {
            return Ok(None);
        }
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "argument `{}` is split into banks in the RTL ({}) but neither an ARRAY_PARTITION pragma in the top \
                 nor a set_directive_array_partition line in the solution's directives.tcl says how; add the pragma \
                 the solution was synthesised with",
                a.name,
                in_rtl.join(", ")
            ),
        ));
    }
    let Some(v) = first.and_then(|c| c.inputs.iter().find(|v| v.name == a.name)) else {
        return Err(Error::new(ErrorKind::BadInput, format!("the capture has no value of `{}`", a.name)));
    };
    let banks = partition::banks(&v.dims(), &specs).map_err(|e| {
        Error::new(ErrorKind::BadInput, format!("ARRAY_PARTITION of `{}` ({:?}): {e}", a.name, v.dims())).at(&sig.file)
    })?;
    let mut out = Vec::new();
    let mut used = Vec::new();
    for b in &banks {
        let sfx = b.suffix();
        let mut groups = ifs.arg_groups(&format!("{}{sfx}", a.name));
        if groups.is_empty() {
            groups = ifs.arg_groups(&format!("{}_V{sfx}", a.name));
        }
        if groups.is_empty() {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "argument `{0}`: the partition gives {1} bank(s) but the RTL has no port group `{0}{sfx}` (banks in \
                     the RTL: {2}); do the partition directives match the synthesised solution?",
                    a.name,
                    banks.len(),
                    if in_rtl.is_empty() { "none".to_string() } else { in_rtl.join(", ") }
                ),
            ));
        }
        for (prefix, g) in groups {
            used.push(prefix.to_string());
            out.push(group_binding(a, prefix, g, Some(&b.elems))?);
        }
    }
    let extra: Vec<&str> = in_rtl.iter().filter(|g| !used.iter().any(|u| u == *g)).copied().collect();
    if !extra.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "argument `{}`: the RTL has banks the partition directives do not give ({}): a different factor or \
                 dimension?",
                a.name,
                extra.join(", ")
            ),
        ));
    }
    Ok(Some(out))
}
