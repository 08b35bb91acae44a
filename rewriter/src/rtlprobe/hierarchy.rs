//! Model: the instance tree of a Vitis solution, from the top module down through every instance
//! of a synthesized function or pipelined-loop module, each mapped to its source function or loop.
//!
//! Three sources, each for what it knows: the RTL says which instance of which module sits where
//! and which control ports it has; `csynth.xml` says which RTL modules are HLS functions or loop
//! pipelines (`<top>_<module>` in the RTL), their latency and the loops that call them; the
//! schedule report (`.autopilot/db/<module>.verbose.sched.rpt`) says where a pipelined loop is in
//! the source (the `[file:line]` of its `specloopname` operation).

use super::verilog::{VFile, VInstance, VModule};
use crate::csynth::{self, Report, SourceLoc};
use crate::error::{Error, ErrorKind, Result};
use std::collections::BTreeMap;
use std::path::Path;

/// The block-level control ports a probe threads to the new top, in this order.
pub const CONTROL_PORTS: [&str; 4] = ["ap_start", "ap_done", "ap_idle", "ap_continue"];

/// One function or loop-pipeline instance (or the top itself).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// RTL instance path from the top module, `/`-separated (`multiplier/grp_..._fu_2080`).
    pub path: String,
    /// Source-level path: the top function, then function or loop names (`multiplier/systolic1`).
    pub name: String,
    /// `None` for the top.
    pub instance: Option<String>,
    /// RTL module.
    pub module: String,
    /// csynth.xml module.
    pub hls_module: String,
    pub parent: Option<usize>,
    /// `function` or `loop`.
    pub kind: &'static str,
    pub function: String,
    pub loop_name: Option<String>,
    pub source: Option<SourceLoc>,
    pub latency: Option<(u64, u64)>,
    /// Calls per call of the top, from the trip counts of the loops around each call; `None`
    /// when a trip count is unknown.
    pub expected_calls: Option<u64>,
    /// Which of [`CONTROL_PORTS`] the instance has (the top: which signals its module has).
    pub ports: [bool; 4],
    /// A loop of its function's FSM (not an instance): its states and decoder. Its parent is the
    /// function or the FSM loop around it; the RTL it is decoded in is `module`'s.
    pub fsm: Option<super::fsm::FsmLoop>,
}

/// The solution as read.
#[derive(Debug)]
pub struct Solution {
    pub report: Report,
    pub files: Vec<VFile>,
    /// Module name → (file index, module index).
    pub modules: BTreeMap<String, (usize, usize)>,
    pub top: String,
    pub nodes: Vec<Node>,
    pub warnings: Vec<String>,
}

impl Solution {
    pub fn module(&self, name: &str) -> Option<&VModule> {
        self.modules.get(name).map(|&(f, m)| &self.files[f].modules[m])
    }
}

/// Reads `solution/syn/report/csynth.xml`, `solution/syn/verilog/*.v` and, when present, the
/// schedule reports; builds the tree.
pub fn read(solution: &Path) -> Result<Solution> {
    let report_path = solution.join("syn/report/csynth.xml");
    if !report_path.is_file() {
        return Err(Error::new(
            ErrorKind::Usage,
            "no syn/report/csynth.xml here: give a Vitis HLS solution folder (the one holding syn/ after csynth_design)",
        )
        .at(solution));
    }
    let report = csynth::parse_file(&report_path)?;
    let rtl = solution.join("syn/verilog");
    let mut names: Vec<_> = std::fs::read_dir(&rtl)
        .map_err(|e| Error::io(&rtl, &e))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".v"))
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(Error::new(ErrorKind::Usage, "no .v files: run csynth_design with Verilog output").at(&rtl));
    }
    let mut files = Vec::new();
    for n in &names {
        let p = rtl.join(n);
        let text = std::fs::read_to_string(&p).map_err(|e| Error::io(&p, &e))?;
        files.push(super::verilog::parse(n, text)?);
    }
    let sched = solution.join(".autopilot/db");
    build(report, files, |m| std::fs::read_to_string(sched.join(format!("{m}.verbose.sched.rpt"))).ok())
}

/// [`read`] on data in memory; `sched(module)` gives a module's schedule report if there is one.
pub fn build(report: Report, files: Vec<VFile>, sched: impl Fn(&str) -> Option<String>) -> Result<Solution> {
    let mut modules = BTreeMap::new();
    for (fi, f) in files.iter().enumerate() {
        for (mi, m) in f.modules.iter().enumerate() {
            modules.entry(m.name.clone()).or_insert((fi, mi));
        }
    }
    let top = report.top.clone();
    let mut sol = Solution { report, files, modules, top: top.clone(), nodes: Vec::new(), warnings: Vec::new() };
    let Some(top_mod) = sol.module(&top) else {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("csynth.xml names the top `{top}` but no syn/verilog file declares `module {top}`"),
        ));
    };
    let ports = CONTROL_PORTS.map(|p| top_mod.idents.contains(p));
    let hls_top = sol.report.top_module().map(|m| m.name.clone()).unwrap_or_else(|| top.clone());
    let latency = hls_latency(&sol.report, &hls_top);
    sol.nodes.push(Node {
        path: top.clone(),
        name: top.clone(),
        instance: None,
        module: top.clone(),
        hls_module: hls_top,
        parent: None,
        kind: "function",
        function: top.clone(),
        loop_name: None,
        source: None,
        latency,
        expected_calls: Some(1),
        ports,
        fsm: None,
    });
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        let module = sol.nodes[i].module.clone();
        let Some(vm) = sol.module(&module) else { continue };
        let children: Vec<VInstance> = vm.instances.clone();
        let mut added = Vec::new();
        for inst in children {
            let Some(hls) = hls_module_of(&sol.report, &top, &inst.module) else { continue };
            if inst.conn("ap_start").is_none() {
                continue;
            }
            if sol.module(&inst.module).is_none() {
                sol.warnings.push(format!(
                    "module {} (instance {}) was not parsed: instances below it are not probed",
                    inst.module, inst.name
                ));
            }
            let node = child_node(&sol, i, &inst, &hls, &sched);
            added.push(node);
        }
        // Two instances of one function under one parent get their instance name appended.
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for n in &added {
            *seen.entry(n.name.clone()).or_default() += 1;
        }
        for mut n in added {
            if seen[&n.name] > 1 {
                n.name = format!("{}@{}", n.name, n.instance.as_deref().unwrap_or(""));
            }
            sol.nodes.push(n);
            stack.push(sol.nodes.len() - 1);
        }
    }
    add_fsm_loops(&mut sol, &sched)?;
    // Parents before children, siblings in RTL order: the order probes are numbered in.
    let order = preorder(&sol.nodes);
    let remap: BTreeMap<usize, usize> = order.iter().enumerate().map(|(new, &old)| (old, new)).collect();
    let mut nodes: Vec<Node> = order.iter().map(|&o| sol.nodes[o].clone()).collect();
    for n in &mut nodes {
        n.parent = n.parent.map(|p| remap[&p]);
    }
    sol.nodes = nodes;
    Ok(sol)
}

fn preorder(nodes: &[Node]) -> Vec<usize> {
    let mut out = Vec::new();
    fn visit(nodes: &[Node], i: usize, out: &mut Vec<usize>) {
        out.push(i);
        for (c, n) in nodes.iter().enumerate() {
            if n.parent == Some(i) {
                visit(nodes, c, out);
            }
        }
    }
    if !nodes.is_empty() {
        visit(nodes, 0, &mut out);
    }
    out
}

/// The csynth module an RTL module implements: `<top>_<module>` (Vitis prefixes every submodule
/// with the top's name) or the name itself.
fn hls_module_of(report: &Report, top: &str, rtl: &str) -> Option<String> {
    let stripped = rtl.strip_prefix(top).and_then(|r| r.strip_prefix('_'));
    for cand in [stripped, Some(rtl)].into_iter().flatten() {
        if report.module(cand).is_some() && cand != top {
            return Some(cand.to_string());
        }
    }
    None
}

fn hls_latency(report: &Report, module: &str) -> Option<(u64, u64)> {
    report.module(module).and_then(|m| m.latency.as_ref()).map(|r| (r.min, r.max))
}

fn child_node(
    sol: &Solution,
    parent: usize,
    inst: &VInstance,
    hls: &str,
    sched: &impl Fn(&str) -> Option<String>,
) -> Node {
    let p = &sol.nodes[parent];
    let m = sol.report.module(hls);
    let (kind, function, loop_name) = match m.and_then(|m| m.pipeline_of.as_ref()) {
        Some(po) => ("loop", po.function.clone(), Some(po.loop_name.clone())),
        None => ("function", hls.to_string(), None),
    };
    let source = m.and_then(|m| m.source.clone()).or_else(|| sched(hls).and_then(|t| loop_line(&t)));
    // Vitis calls loops it made itself (burst copies) `Loop 1`: the module's own suffix
    // (`Pipeline_1`) tells them apart.
    let short = match &loop_name {
        Some(l) if l.contains(' ') => hls.strip_prefix(&format!("{function}_")).unwrap_or(hls).to_string(),
        Some(l) => l.clone(),
        None => function.clone(),
    };
    let per_parent_call = calls_in_parent(&sol.report, &p.hls_module, &inst.name);
    let expected_calls = match (p.expected_calls, per_parent_call) {
        (Some(a), Some(b)) => a.checked_mul(b),
        _ => None,
    };
    Node {
        path: format!("{}/{}", p.path, inst.name),
        name: format!("{}/{}", p.name, short),
        instance: Some(inst.name.clone()),
        module: inst.module.clone(),
        hls_module: hls.to_string(),
        parent: Some(parent),
        kind,
        function,
        loop_name,
        source,
        latency: hls_latency(&sol.report, hls),
        expected_calls,
        ports: CONTROL_PORTS.map(|port| inst.conn(port).is_some()),
        fsm: None,
    }
}

/// Adds the loops of every function's FSM (from its schedule report) below the function.
fn add_fsm_loops(sol: &mut Solution, sched: &impl Fn(&str) -> Option<String>) -> Result<()> {
    let functions: Vec<usize> = (0..sol.nodes.len()).filter(|&i| sol.nodes[i].kind == "function").collect();
    for host in functions {
        let h = sol.nodes[host].clone();
        let Some(&(fi, mi)) = sol.modules.get(&h.module) else { continue };
        let vm = &sol.files[fi].modules[mi];
        let named = sol.report.module(&h.hls_module).map(|m| m.loops.clone()).unwrap_or_default();
        let Some(text) = sched(&h.hls_module) else {
            if !named.is_empty() {
                sol.warnings.push(format!(
                    "{}: no schedule report (.autopilot/db/{}.verbose.sched.rpt): the loops in its FSM are not probed",
                    h.name, h.hls_module
                ));
            }
            continue;
        };
        let schedule = crate::profile::sched::Schedule::parse(&text)
            .map_err(|e| Error::new(e.kind, format!("{}.verbose.sched.rpt: {}", h.hls_module, e.message)))?;
        if !vm.idents.contains(super::fsm::STATE_REG) {
            continue; // no FSM register (a pipeline-only or combinational module)
        }
        let rtl_text = &sol.files[fi].text[vm.range.clone()];
        let fsm_states =
            crate::profile::rtl::parse(rtl_text).into_iter().next().map(|m| m.fsm_states).unwrap_or_default();
        let (loops, warnings) = super::fsm::loops(&h.module, &schedule, &fsm_states, &named);
        sol.warnings.extend(warnings);
        let base = sol.nodes.len();
        for l in loops {
            let parent = l.parent.map_or(host, |p| base + p);
            let p = &sol.nodes[parent];
            let expected_calls = match (p.expected_calls, p.fsm.as_ref().map(|f| f.trip)) {
                (c, None) => c,
                (Some(c), Some(Some(t))) => c.checked_mul(t),
                _ => None,
            };
            sol.nodes.push(Node {
                path: format!("{}/{}", p.path, l.name),
                name: format!("{}/{}", p.name, l.name),
                instance: None,
                module: h.module.clone(),
                hls_module: h.hls_module.clone(),
                parent: Some(parent),
                kind: "loop",
                function: h.function.clone(),
                loop_name: Some(l.name.clone()),
                source: l.source.clone(),
                latency: None,
                expected_calls,
                ports: [false; 4],
                fsm: Some(l),
            });
        }
    }
    Ok(())
}

/// Calls of `instance` per call of `parent`: the product of the (maximum) trip counts of the
/// loops whose body lists it; 1 when no loop does; `None` when one of them has no trip count.
fn calls_in_parent(report: &Report, parent: &str, instance: &str) -> Option<u64> {
    let Some(m) = report.module(parent) else { return Some(1) };
    for l in m.all_loops() {
        if l.node.instances.iter().any(|i| i.name == instance) {
            // The chain of loops around it: every loop whose subtree contains this one.
            let mut product = 1u64;
            for outer in m.all_loops() {
                let contains = outer.node.walk().iter().any(|(_, x)| std::ptr::eq(*x, l.node));
                if contains {
                    product = product.checked_mul(outer.node.trip_count.as_ref()?.max)?;
                }
            }
            return Some(product);
        }
    }
    Some(1)
}

/// The `[file:line]` of the first `specloopname` operation in a schedule report.
fn loop_line(sched: &str) -> Option<SourceLoc> {
    let line = sched.lines().find(|l| l.contains("specloopname") && l.contains("= specloopname"))?;
    let open = line.find("\" [")? + 3;
    let close = open + line[open..].find(']')?;
    SourceLoc::parse(&line[open..close])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_line_reads_the_specloopname_tag() {
        let l = "ST_2 : Operation 98 [1/1] (0.00ns)   --->   \"%specloopname_ln142 = specloopname void \
                 @_ssdm_op_SpecLoopName, void @empty_13\" [S/design.cpp:142]   --->   Operation 98";
        assert_eq!(loop_line(l), Some(SourceLoc { file: "S/design.cpp".into(), line: 142 }));
        assert_eq!(loop_line("no loop here"), None);
    }
}
