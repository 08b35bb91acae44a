//! Plan and edit: the selected instances' control signals threaded up to the top as new output
//! ports, by insertions only (a reviewer reads the diff; the design's logic is untouched).
//!
//! In the module that instantiates a probed instance `u`, each of its connected control ports
//! `.ap_done(x)` becomes a new output `hlsinstr_u__ap_done` driven by `assign ... = x;`. Each
//! module above it gets an output of its own for it, connected to the instance below by name
//! (`.hlsinstr_u__ap_done(hlsinstr_v__u__ap_done)`). Port names are relative to the module they
//! are on, so every instance of a module carries the same new ports; an instance that is not on a
//! probed path leaves them unconnected.

use super::hierarchy::{Solution, CONTROL_PORTS};
use crate::edit::{apply, Edit, Rank};
use crate::error::{Error, ErrorKind, Result};
use crate::source::line_col;
use std::collections::BTreeMap;

/// Prefix of every name the edit adds.
pub const PREFIX: &str = "hlsinstr_";

/// One probed signal as it appears on the edited top.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopSignal {
    /// Index of the node in [`Solution::nodes`].
    pub node: usize,
    /// `ap_start`, `ap_done`, `ap_idle` or `ap_continue`.
    pub signal: &'static str,
    /// The new port of the top.
    pub port: String,
}

/// The edit of a solution: new text per changed file, and the top's new ports.
#[derive(Debug, Clone)]
pub struct Plan {
    /// `(file index, new text)` for every file that changes.
    pub files: Vec<(usize, String)>,
    pub top_signals: Vec<TopSignal>,
}

/// Port name inside a module for a signal of the instance at `rel` (instance names below that
/// module); the top's own signals have an empty `rel`.
fn port_name(rel: &[&str], signal: &str) -> String {
    if rel.is_empty() {
        return format!("{PREFIX}_{signal}");
    }
    format!("{PREFIX}{}__{signal}", rel.join("__"))
}

#[derive(Default)]
struct ModuleEdits {
    /// New output ports, in order.
    ports: Vec<String>,
    /// `(port, expression)` assignments.
    assigns: Vec<(String, String)>,
    /// Instance name → `(child port, own port)` connections to add.
    conns: BTreeMap<String, Vec<(String, String)>>,
}

/// The signal of an FSM loop probe: `ap_CS_fsm` is in one of the loop's states.
pub const LOOP_ACTIVE: &str = "loop_active";
/// The signal of an FSM loop's iteration count: `ap_CS_fsm` is in the loop's header state.
pub const LOOP_HEADER: &str = "loop_header";

/// Nodes from the top down to `ni`.
fn chain_to(sol: &Solution, ni: usize) -> Vec<usize> {
    let mut chain = vec![ni];
    while let Some(p) = sol.nodes[*chain.last().unwrap()].parent {
        chain.push(p);
    }
    chain.reverse();
    chain
}

/// The name an FSM loop goes by in port names: `L` and its name, made an identifier.
fn loop_leaf(name: &str) -> String {
    let id: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    format!("L{id}")
}

/// Threads `signal` of node `ni`, whose value is `expr` in the module that holds it (the
/// instance's parent, or an FSM loop's function), up to the top.
fn thread(
    sol: &Solution,
    per_module: &mut BTreeMap<String, ModuleEdits>,
    top_signals: &mut Vec<TopSignal>,
    ni: usize,
    signal: &'static str,
    expr: String,
) -> Result<()> {
    // Instances from the top down to the module holding the signal, then the node's own leaf
    // (its instance name, or an FSM loop's `L` name); FSM loops inside FSM loops are skipped,
    // all of them live in their function's module.
    let chain: Vec<usize> = chain_to(sol, ni)
        .into_iter()
        .enumerate()
        .filter(|&(k, c)| k == 0 || c == ni || sol.nodes[c].fsm.is_none())
        .map(|(_, c)| c)
        .collect();
    let leaf = |c: usize| -> String {
        let n = &sol.nodes[c];
        match &n.fsm {
            Some(l) => loop_leaf(&l.name),
            None => n.instance.clone().unwrap_or_default(),
        }
    };
    let names: Vec<String> = chain[1..].iter().map(|&c| leaf(c)).collect();
    let insts: Vec<&str> = names.iter().map(String::as_str).collect();
    let holder = &sol.nodes[chain[chain.len() - 2]];
    let own = port_name(&insts[insts.len() - 1..], signal);
    let e = per_module.entry(holder.module.clone()).or_default();
    if !e.ports.contains(&own) {
        e.ports.push(own.clone());
        e.assigns.push((own.clone(), expr));
    }
    // Every module above: its port, connected to the instance below.
    for depth in (0..chain.len() - 2).rev() {
        let m = &sol.nodes[chain[depth]];
        let below = &insts[depth..];
        let child_port = port_name(&below[1..], signal);
        let port = port_name(below, signal);
        let e = per_module.entry(m.module.clone()).or_default();
        if !e.ports.contains(&port) {
            e.ports.push(port.clone());
            e.conns.entry(below[0].to_string()).or_default().push((child_port, port.clone()));
        }
    }
    top_signals.push(TopSignal { node: ni, signal, port: port_name(&insts, signal) });
    Ok(())
}

/// Plans the edit for the nodes `selected` (indices into `sol.nodes`).
pub fn plan(sol: &Solution, selected: &[usize]) -> Result<Plan> {
    let mut per_module: BTreeMap<String, ModuleEdits> = BTreeMap::new();
    let mut top_signals = Vec::new();
    for &ni in selected {
        let node = &sol.nodes[ni];
        if let Some(l) = &node.fsm {
            let mut signals = vec![(LOOP_ACTIVE, l.active.clone())];
            signals.extend(l.header_expr.clone().map(|h| (LOOP_HEADER, h)));
            for (signal, expr) in signals {
                thread(sol, &mut per_module, &mut top_signals, ni, signal, expr)?;
            }
            continue;
        }
        // Chain from the top down to the node: (module, instance name) pairs.
        let chain = chain_to(sol, ni);
        for (k, signal) in CONTROL_PORTS.iter().enumerate() {
            if !node.ports[k] {
                continue;
            }
            if chain.len() == 1 {
                // The top's own signal.
                let port = port_name(&[], signal);
                let e = per_module.entry(node.module.clone()).or_default();
                e.ports.push(port.clone());
                e.assigns.push((port.clone(), signal.to_string()));
                top_signals.push(TopSignal { node: ni, signal, port });
                continue;
            }
            // The parent of the node: a port driven by the connection's expression.
            let parent = &sol.nodes[chain[chain.len() - 2]];
            let inst_name = node.instance.as_deref().unwrap_or("");
            let vm = sol.module(&parent.module).ok_or_else(|| {
                Error::new(
                    ErrorKind::BadInput,
                    format!("module {} was not parsed; cannot probe below it", parent.module),
                )
            })?;
            let inst = vm.instances.iter().find(|i| i.name == inst_name).expect("the tree came from these instances");
            let Some(expr) = inst.conn(signal).and_then(|c| c.expr.clone()) else {
                if *signal == "ap_start" || *signal == "ap_done" {
                    return Err(Error::new(
                        ErrorKind::BadInput,
                        format!(
                            "instance {inst_name} in {} leaves {signal} unconnected: it cannot be timed",
                            parent.module
                        ),
                    ));
                }
                continue; // `.ap_idle()`: nothing to thread
            };
            thread(sol, &mut per_module, &mut top_signals, ni, signal, expr)?;
        }
    }
    let mut by_file: BTreeMap<usize, Vec<Edit>> = BTreeMap::new();
    for (module, me) in &per_module {
        let &(fi, mi) = sol.modules.get(module).expect("edited modules were parsed");
        let file = &sol.files[fi];
        let vm = &file.modules[mi];
        let at = |pos: usize| {
            let (l, c) = line_col(&file.text, pos);
            format!("{}:{l}:{c}", file.rel)
        };
        if let Some(pos) = vm.header_error {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("{}: the header of module {module} does not parse; it cannot get new ports", at(pos)),
            ));
        }
        for p in &me.ports {
            if vm.idents.contains(p) {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!("module {module} already has a `{p}`: it was probed before; give the original solution"),
                ));
            }
        }
        let edits = by_file.entry(fi).or_default();
        let list: String = me
            .ports
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let sep = if i == 0 && vm.ports_empty { "" } else { "," };
                if vm.ansi {
                    format!("{sep}\n    output wire {p}")
                } else {
                    format!("{sep}\n        {p}")
                }
            })
            .collect();
        edits.push(Edit::raw(vm.ports_last_end, list, Rank::open(0, 0)));
        if !vm.ansi {
            let decls: String = me.ports.iter().map(|p| format!("\noutput {p};")).collect();
            edits.push(Edit::raw(vm.header_end, decls, Rank::open(0, 0)));
        }
        let mut tail = String::new();
        for (p, expr) in &me.assigns {
            tail.push_str(&format!("assign {p} = {expr};\n"));
        }
        for (inst_name, conns) in &me.conns {
            let inst = vm.instances.iter().find(|i| &i.name == inst_name).expect("chain instance");
            if let Some(pos) = inst.error {
                return Err(Error::new(
                    ErrorKind::BadInput,
                    format!("{}: instance {inst_name} does not parse; it cannot get new connections", at(pos)),
                ));
            }
            let text: String = conns
                .iter()
                .enumerate()
                .map(|(i, (child, own))| {
                    let sep = if i == 0 && inst.conns_empty { "" } else { "," };
                    format!("{sep}\n    .{child}({own})")
                })
                .collect();
            edits.push(Edit::raw(inst.conns_last_end, text, Rank::open(0, 0)));
        }
        if !tail.is_empty() {
            edits.push(Edit::raw(vm.endmodule, tail, Rank::open(0, 0)));
        }
    }
    let mut files = Vec::new();
    for (fi, edits) in by_file {
        let f = &sol.files[fi];
        let text = apply(&f.text, edits)
            .map_err(|e| Error::new(ErrorKind::Internal, format!("{}: {e} (a bug in hlsinstr rtl-probe)", f.rel)))?;
        // Check the rewrite: no parse error the original did not have.
        let after = super::verilog::error_count(&text);
        if after > f.errors {
            return Err(Error::new(
                ErrorKind::Internal,
                format!(
                    "{}: the edited file has {after} parse errors, the original {} (a bug in hlsinstr rtl-probe)",
                    f.rel, f.errors
                ),
            ));
        }
        files.push((fi, text));
    }
    Ok(Plan { files, top_signals })
}
