//! `hlsinstr rtl-probe`: probes on the RTL Vitis already generated, RealProbe's method without a
//! forked compiler (docs/rtl-probe.md). The user's C++ and the design's logic are untouched: the
//! edit only brings the handshake of selected function and loop-pipeline instances out to the top,
//! where a separate profiling IP timestamps each start and end.
//!
//! Pipeline: [`hierarchy::read`] (parse the RTL with [`verilog`], map instances to the source via
//! csynth.xml and the schedule) → select → [`edit::plan`] (insertions as data, applied once) →
//! [`ip`] (new top, IP files, scripts) → [`manifest`]. [`decode`] reads the IP's dump back.

pub mod compare;
pub mod decode;
pub mod edit;
pub mod fsm;
pub mod hierarchy;
pub mod ip;
pub mod manifest;
pub mod verilog;

use crate::emit::manifest::{Manifest, ProbeEntry, FILE_NAME, FORMAT, VERSION};
use crate::error::{Error, ErrorKind, Result};
use hierarchy::Solution;
use manifest::{RtlBuild, RtlInstance, RtlQueue};
use std::path::{Path, PathBuf};

/// Largest queue the default depth rule picks; give `--depth` for more.
pub const MAX_DEFAULT_DEPTH: u32 = 64;
/// Largest depth the IP takes (its DEPTHS parameter holds 8 bits per queue).
pub const MAX_DEPTH: u32 = 255;

#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Globs over instance names (`top/loop`) and RTL paths; a match selects the instance and
    /// everything below it. Empty: everything.
    pub select: Vec<String>,
    /// Depth of every queue; default: twice the expected events of one top call (2 per call),
    /// at least 4, at most [`MAX_DEFAULT_DEPTH`].
    pub depth: Option<u32>,
    /// Bits of each queue's call counter (0 to 32; 0: none, the cheapest IP: calls are then the
    /// starts the queue kept). `None`: 16.
    pub calls_width: Option<u32>,
    /// Bits of each stored timestamp (32 to 64: the counter's low bits, exact while the counter
    /// is below 2^bits). `None`: [`DEFAULT_TS_WIDTH`].
    pub ts_width: Option<u32>,
    /// Build the IP with its DRAM offload and give the new top its m_axi port.
    pub offload: bool,
}

/// Default [`Options::calls_width`].
pub const DEFAULT_CALLS_WIDTH: u32 = 16;
/// Default [`Options::ts_width`]: 2^48 cycles are 6.5 days at 500 MHz.
pub const DEFAULT_TS_WIDTH: u32 = 48;

/// What a run wrote.
#[derive(Debug)]
pub struct Summary {
    pub written: Vec<PathBuf>,
    pub probes: usize,
    pub warnings: Vec<String>,
}

/// Files of the output, relative to the output directory, and the manifest.
pub struct Outputs {
    pub files: Vec<(String, String)>,
    pub manifest: Manifest,
    pub warnings: Vec<String>,
}

/// Selects nodes: a glob matching a node's name, a suffix of it that starts at a `/`, or its RTL
/// path selects it and every node below it.
pub fn select(sol: &Solution, globs: &[String]) -> Result<Vec<usize>> {
    if globs.is_empty() {
        return Ok((0..sol.nodes.len()).collect());
    }
    let mut set = globset::GlobSetBuilder::new();
    for g in globs {
        let glob = globset::Glob::new(g).map_err(|e| Error::new(ErrorKind::Usage, format!("--select {g}: {e}")))?;
        set.add(glob);
    }
    let set = set.build().map_err(|e| Error::new(ErrorKind::Usage, e.to_string()))?;
    let mut chosen = vec![false; sol.nodes.len()];
    for (i, n) in sol.nodes.iter().enumerate() {
        let suffixes = n.name.match_indices('/').map(|(k, _)| &n.name[k + 1..]);
        let hit = set.is_match(&n.name) || set.is_match(&n.path) || suffixes.into_iter().any(|s| set.is_match(s));
        chosen[i] = hit || n.parent.is_some_and(|p| chosen[p]); // parents come first
    }
    let picked: Vec<usize> = (0..sol.nodes.len()).filter(|&i| chosen[i]).collect();
    if picked.is_empty() {
        let names: Vec<&str> = sol.nodes.iter().map(|n| n.name.as_str()).collect();
        return Err(Error::new(
            ErrorKind::Usage,
            format!("--select {} matches no instance; the instances are: {}", globs.join(" "), names.join(", ")),
        ));
    }
    Ok(picked)
}

fn default_depth(expected_calls: Option<u64>) -> u32 {
    match expected_calls {
        Some(c) => u32::try_from(c.saturating_mul(4)).unwrap_or(u32::MAX).clamp(4, MAX_DEFAULT_DEPTH),
        None => 4,
    }
}

/// Plans everything in memory.
pub fn build(sol: &Solution, opts: &Options) -> Result<Outputs> {
    if let Some(d) = opts.depth {
        if !(2..=MAX_DEPTH).contains(&d) {
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--depth {d}: give 2 to {MAX_DEPTH} (one start and one end at least)"),
            ));
        }
    }
    let calls_width = opts.calls_width.unwrap_or(DEFAULT_CALLS_WIDTH);
    if calls_width > 32 {
        return Err(Error::new(ErrorKind::Usage, format!("--calls-width {calls_width}: give 0 to 32")));
    }
    let ts_width = opts.ts_width.unwrap_or(DEFAULT_TS_WIDTH);
    if !(32..=64).contains(&ts_width) {
        return Err(Error::new(ErrorKind::Usage, format!("--ts-width {ts_width}: give 32 to 64")));
    }
    if opts.offload && ts_width > 48 {
        return Err(Error::new(
            ErrorKind::Usage,
            format!("--offload with --ts-width {ts_width}: a DRAM record holds 48 timestamp bits; give --ts-width 48 or less"),
        ));
    }
    let mut warnings = sol.warnings.clone();
    let selected = select(sol, &opts.select)?;
    let plan = edit::plan(sol, &selected)?;
    // A header queue's call counter gives the iterations; its two entries time the first visit.
    let depth_of = |n: usize, role: &str| {
        opts.depth
            .unwrap_or_else(|| if role == ip::ROLE_HEADER { 2 } else { default_depth(sol.nodes[n].expected_calls) })
    };
    let queues = ip::queues(sol, &plan.top_signals, depth_of)?;
    for q in &queues {
        if opts.depth.is_none() && sol.nodes[q.node].expected_calls.is_none() && q.role != ip::ROLE_HEADER {
            warnings.push(format!(
                "{}: no trip count for its calls in csynth.xml; queue depth 4 (give --depth for more)",
                sol.nodes[q.node].name
            ));
        }
    }
    let mut probes = Vec::new();
    let mut instances: Vec<RtlInstance> = sol
        .nodes
        .iter()
        .map(|n| RtlInstance {
            path: n.path.clone(),
            name: n.name.clone(),
            module: n.module.clone(),
            hls_module: n.hls_module.clone(),
            kind: n.kind.to_string(),
            parent: n.parent,
            latency: n.latency.map(|(a, b)| [a, b]),
            expected_calls: n.expected_calls,
            probe: None,
            fsm: n.fsm.as_ref().map(|l| manifest::RtlFsm {
                states: l.states.clone(),
                rtl_states: l.rtl_states.clone(),
                active: l.active.clone(),
                header: l.header_expr.as_ref().map(|_| l.header),
                exits_at_header: l.exits_at_header,
            }),
        })
        .collect();
    let mut rtl_queues = Vec::new();
    for (i, q) in queues.iter().enumerate() {
        let n = &sol.nodes[q.node];
        // A loop's header queue belongs to the probe of its loop queue.
        let id = match queues[..i].iter().position(|x| x.node == q.node) {
            Some(first) => rtl_queues.iter().map(|r: &RtlQueue| r.probe).nth(first).unwrap_or(0),
            None => {
                let id = probes.len() as u32;
                instances[q.node].probe = Some(id);
                let parent_probe = n.parent.and_then(|p| instances[p].probe);
                probes.push(probe_entry(id, n, parent_probe));
                id
            }
        };
        rtl_queues.push(RtlQueue {
            role: q.role.to_string(),
            probe: id,
            instance: q.node,
            depth: q.depth,
            start: q.start.clone(),
            done: q.done.clone(),
            cont: q.cont.clone(),
        });
    }
    let key = manifest::key(&rtl_queues, &instances);
    let mut files = Vec::new();
    let mut edited = Vec::new();
    let mut rtl_files = Vec::new();
    for (fi, f) in sol.files.iter().enumerate() {
        let rel = format!("rtl/{}", f.rel);
        match plan.files.iter().find(|(i, _)| *i == fi) {
            Some((_, text)) => {
                edited.push(rel.clone());
                files.push((format!("rtl-probe.diff/{}", f.rel), crate::diff::unified(&f.rel, &f.text, text, false)));
                files.push((rel.clone(), text.clone()));
            }
            None => files.push((rel.clone(), f.text.clone())),
        }
        rtl_files.push(rel);
    }
    let wrapper_rel = format!("rtl/{}.v", ip::wrapper_name(&sol.top));
    let mut generated = vec![wrapper_rel.clone()];
    files.push((
        wrapper_rel.clone(),
        ip::wrapper(sol, &plan.top_signals, &queues, key, calls_width, ts_width, opts.offload)?,
    ));
    rtl_files.push(wrapper_rel);
    for (name, text) in ip::IP_FILES {
        let rel = format!("rtl/{name}");
        files.push((rel.clone(), text.to_string()));
        generated.push(rel.clone());
        rtl_files.push(rel);
    }
    files.push(("package.tcl".into(), ip::package_tcl(sol, &rtl_files, opts.offload)));
    files.push(("host/hlsinstr_rtlprobe_host.h".into(), ip::host_snippet(sol, queues.len(), key, opts.offload)));
    generated.extend(["package.tcl".to_string(), "host/hlsinstr_rtlprobe_host.h".to_string()]);
    // One diff file: the edits a reviewer reads.
    let mut diff = String::new();
    files.retain(|(rel, text)| {
        if rel.starts_with("rtl-probe.diff/") {
            diff.push_str(text);
            false
        } else {
            true
        }
    });
    files.push(("rtl-probe.diff".into(), diff));
    generated.push("rtl-probe.diff".into());
    let manifest = Manifest {
        format: FORMAT.into(),
        version: VERSION,
        tool: format!("hlsinstr {}", env!("CARGO_PKG_VERSION")),
        kinds: vec!["modules".into(), "loops".into()],
        top: Some(sol.top.clone()),
        files: Vec::new(),
        probes,
        skipped: Vec::new(),
        hw: None,
        generated: Vec::new(),
        branches: None,
        rtl: Some(RtlBuild {
            top: sol.top.clone(),
            wrapper: ip::wrapper_name(&sol.top),
            key: format!("{key:016x}"),
            instances,
            queues: rtl_queues,
            calls_width,
            ts_width,
            offload: opts.offload,
            edited,
            generated,
        }),
    };
    Ok(Outputs { files, manifest, warnings })
}

fn probe_entry(id: u32, n: &hierarchy::Node, parent: Option<u32>) -> ProbeEntry {
    let (file, line) = n.source.as_ref().map_or(("", 0), |s| (s.file.as_str(), s.line as usize));
    let name = n.loop_name.as_deref().unwrap_or(&n.function);
    ProbeEntry {
        vitis_name: Some(n.hls_module.clone()),
        parent,
        ..ProbeEntry::new(id, n.kind, file, (line, 0), &n.function, name)
    }
}

/// Reads `solution`, plans, and writes everything below `out` (all or nothing).
pub fn run(solution: &Path, out: &Path, opts: &Options) -> Result<Summary> {
    let sol = hierarchy::read(solution)?;
    crate::emit::refuse_inputs_inside(out, &[solution])?;
    let outputs = build(&sol, opts)?;
    let mut dir = crate::emit::OutputDir::open(out)?;
    for (rel, text) in &outputs.files {
        dir.add(rel, text.as_bytes(), None)?;
    }
    let json = serde_json::to_string_pretty(&outputs.manifest)
        .map_err(|e| Error::new(ErrorKind::Internal, format!("manifest: {e}")))?;
    dir.add(FILE_NAME, format!("{json}\n").as_bytes(), None)?;
    let written = dir.commit()?;
    Ok(Summary { written, probes: outputs.manifest.probes.len(), warnings: outputs.warnings })
}
