//! The `<module>_csynth.rpt` files beside a `csynth.rpt`: the modules of the 2020.1 layout,
//! and what the 2022+ summary table leaves out.

use super::{parse, Layout, Parsed, MAX_NESTING};
use crate::csynth::{read_report, Instance, Loop, Module, Report};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Read the `<module>_csynth.rpt` files beside a `csynth.rpt`. Per-module layout (2020.1): add
/// their modules. Summary layout: refine each module of the tree from its own file (best-case
/// latencies, loop ranges, instance names, clocks), and submodules without a file from their
/// caller's instance table. A sibling that cannot be read or is from another version is
/// skipped with a warning.
pub(in crate::csynth) fn add_siblings(report: &mut Report, layout: Layout, top_path: &Path) {
    let dir = match top_path.parent() {
        Some(d) if d.as_os_str().is_empty() => Path::new("."),
        Some(d) => d,
        None => return,
    };
    let candidates: Vec<PathBuf> = match layout {
        Layout::PerModule => {
            let Ok(entries) = std::fs::read_dir(dir) else { return };
            let mut v: Vec<PathBuf> = entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    p.is_file() && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with("_csynth.rpt"))
                })
                .collect();
            v.sort();
            // The top's own file when it is the one given (a Vivado HLS solution kept without
            // csynth.rpt) is already read.
            v.retain(|p| p.file_name() != top_path.file_name());
            v
        }
        Layout::Summary => {
            report.modules.iter().map(|m| dir.join(format!("{}_csynth.rpt", m.name))).filter(|p| p.is_file()).collect()
        }
    };
    let mut siblings: Vec<Parsed> = Vec::new();
    for sib in candidates {
        match read_report(&sib).and_then(|text| parse(&text, &sib)) {
            Ok(p) if p.layout != Layout::PerModule => {
                report.warnings.push(format!("skipped {}: not a per-module report", sib.display()))
            }
            Ok(p) if p.report.version != report.version => report.warnings.push(format!(
                "skipped {}: version {} differs from {} in {} (left over from another run?)",
                sib.display(),
                p.report.version,
                report.version,
                top_path.display()
            )),
            Ok(p) => siblings.push(p),
            Err(e) => report.warnings.push(format!("skipped {e}")),
        }
    }
    for sib in siblings {
        report.files.extend(sib.report.files.iter().cloned());
        for w in &sib.report.warnings {
            if !report.warnings.contains(w) {
                report.warnings.push(w.clone());
            }
        }
        match layout {
            Layout::PerModule => {
                for m in sib.report.modules {
                    // The top's own `<top>_csynth.rpt` repeats what csynth.rpt already says.
                    if report.module(&m.name).is_none() {
                        report.modules.push(m);
                    }
                }
            }
            Layout::Summary => refine(report, sib),
        }
    }
}

/// Merge a module's own report into the summary's view of it.
fn refine(report: &mut Report, sib: Parsed) {
    let Some(own) = sib.report.modules.into_iter().next() else { return };
    if own.name == report.top {
        (report.target_clock_ns, report.estimated_clock_ns, report.clock_uncertainty_ns) =
            (sib.report.target_clock_ns, sib.report.estimated_clock_ns, sib.report.clock_uncertainty_ns);
        report.available = sib.report.available;
    }
    // Callees without a file of their own: their latency as this caller's instance table gives it.
    let has_file: Vec<String> = report.files.iter().filter_map(|f| module_of_file(f)).collect();
    for row in &sib.instance_rows {
        let Some(callee) = row.instance.module.as_deref() else { continue };
        if has_file.iter().any(|n| n == callee) {
            continue;
        }
        if let Some(m) = report.modules.iter_mut().find(|m| m.name == callee) {
            m.latency = row.latency.or(m.latency);
            m.latency_ns = row.latency_ns.or(m.latency_ns);
            m.interval = row.interval.or(m.interval);
        }
    }
    let Some(m) = report.modules.iter_mut().find(|m| m.name == own.name) else { return };
    m.latency = own.latency.or(m.latency);
    m.latency_ns = own.latency_ns.or(m.latency_ns);
    m.interval = own.interval.or(m.interval);
    m.target_clock_ns = own.target_clock_ns;
    m.estimated_clock_ns = own.estimated_clock_ns;
    if !own.resources.is_empty() {
        m.resources = own.resources;
    }
    m.pipeline_ii = if m.is_pipelined() { m.interval.map(|i| i.min) } else { None };
    refine_loops(&mut m.loops, &own.loops, 0);
    name_instances(m, &own.instances);
}

/// `dir/<module>_csynth.rpt` → module.
fn module_of_file(path: &Path) -> Option<String> {
    path.file_name()?.to_str()?.strip_suffix("_csynth.rpt").map(str::to_string)
}

/// Take ranges from the per-module loop table, matched by name in order (the same loop tree).
fn refine_loops(loops: &mut [Loop], own: &[Loop], depth: usize) {
    if depth >= MAX_NESTING {
        return;
    }
    let mut used = vec![false; own.len()];
    for (i, lp) in loops.iter_mut().enumerate() {
        let pick = if own.get(i).is_some_and(|o| !used[i] && o.name == lp.name) {
            Some(i)
        } else {
            (0..own.len()).find(|&j| !used[j] && own[j].name == lp.name)
        };
        let Some(j) = pick else { continue };
        used[j] = true;
        let o = &own[j];
        lp.latency = o.latency.or(lp.latency);
        lp.iteration_latency = o.iteration_latency.or(lp.iteration_latency);
        lp.trip_count = o.trip_count.or(lp.trip_count);
        lp.ii = o.ii.or(lp.ii);
        if lp.pipelined {
            lp.pipeline_depth = lp.iteration_latency;
        }
        refine_loops(&mut lp.children, &o.children, depth + 1);
    }
}

/// Give the tree's instances (named after their module) the RTL names of the module's instance
/// table: one instance of a module takes every call of it (one RTL instance serves them all);
/// several are handed out in order.
fn name_instances(m: &mut Module, table: &[Instance]) {
    let mut by_module: HashMap<&str, Vec<&str>> = HashMap::new();
    for i in table {
        if let Some(module) = i.module.as_deref() {
            by_module.entry(module).or_default().push(&i.name);
        }
    }
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut rename = |inst: &mut Instance| {
        let Some(module) = inst.module.clone() else { return };
        if inst.name != module {
            return;
        }
        let Some(names) = by_module.get(module.as_str()) else { return };
        let k = next.entry(module).or_default();
        if let Some(name) = names.get((*k).min(names.len() - 1)) {
            inst.name = name.to_string();
        }
        *k += 1;
    };
    for inst in &mut m.instances {
        rename(inst);
    }
    let mut seen: Vec<String> = Vec::new();
    m.instances.retain(|i| {
        let dup = seen.contains(&i.name);
        seen.push(i.name.clone());
        !dup
    });
    // Loop instances are the same calls: name them by the same rule, counted afresh.
    let mut next: HashMap<String, usize> = HashMap::new();
    let mut todo: Vec<&mut Loop> = m.loops.iter_mut().rev().collect();
    while let Some(lp) = todo.pop() {
        for inst in &mut lp.instances {
            let Some(module) = inst.module.clone() else { continue };
            let Some(names) = by_module.get(module.as_str()) else { continue };
            if inst.name != module {
                continue;
            }
            let k = next.entry(module).or_default();
            if let Some(name) = names.get((*k).min(names.len() - 1)) {
                inst.name = name.to_string();
            }
            *k += 1;
        }
        todo.extend(lp.children.iter_mut().rev());
    }
}
