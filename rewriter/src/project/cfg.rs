//! The Vitis unified flow config file (`hls_config.cfg`): Boost.Program_options syntax.

use super::{parse_clock, parse_frequency, split_flags, FileSet, Project};
use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

/// `syn.file_cflags=<file>,<flags>` and friends, applied once every file is known.
struct FileFlags {
    set: FileSet,
    csim: bool,
    key: &'static str,
    file: String,
    flags: Vec<String>,
    at: (usize, usize),
}

/// Keys that belong under `[hls]` (warned about, but honored, elsewhere).
const HLS_KEYS: &[&str] = &[
    "syn.top",
    "syn.file",
    "syn.cflags",
    "syn.csimflags",
    "syn.file_cflags",
    "syn.file_csimflags",
    "syn.blackbox.file",
    "tb.file",
    "tb.cflags",
    "tb.file_cflags",
    "tb.file_csimflags",
    "clock",
    "clock_uncertainty",
    "flow_target",
    "csim.argv",
    "cosim.argv",
    "cosim.random_stall",
    "csim.ldflags",
    "csim.O",
    "syn.compile.pipeline_loops",
    "syn.dataflow.default_channel",
    "syn.interface.m_axi_latency",
];

/// Keys of the `[hls]` section (and general `v++` keys before any section) that Vitis knows but
/// `hlsinstr` does not interpret, after UG1399's "HLS Config File Commands" (2023.2 to 2025.1).
/// A key in neither list is most likely a typo: it gets a warning naming the nearest known key.
const OTHER_KNOWN_KEYS: &[&str] = &[
    "kernel_frequency",
    "relative_roots",
    "report_dir",
    "work_dir",
    "csim.clean",
    "csim.code_analyzer",
    "csim.mflags",
    "csim.profile",
    "csim.sanitize_address",
    "csim.sanitize_undefined",
    "csim.setup",
    "cosim.O",
    "cosim.compiled_library_dir",
    "cosim.coverage",
    "cosim.disable_binary_tv",
    "cosim.disable_deadlock_detection",
    "cosim.disable_dependency_check",
    "cosim.enable_dataflow_profiling",
    "cosim.enable_fifo_sizing",
    "cosim.enable_tasks_with_m_axi",
    "cosim.hwemu_trace_dir",
    "cosim.ldflags",
    "cosim.mflags",
    "cosim.rtl",
    "cosim.setup",
    "cosim.stable_axilite_update",
    "cosim.tool",
    "cosim.trace_level",
    "cosim.user_stall",
    "cosim.wave_debug",
    "package.output.file",
    "package.output.format",
    "package.output.syn",
    "syn.array_partition.complete_threshold",
    "syn.array_partition.throughput_driven",
    "syn.compile.design_size_maximum_warning",
    "syn.compile.enable_auto_rewind",
    "syn.compile.ignore_long_run_time",
    "syn.compile.name_max_length",
    "syn.compile.no_signed_zeros",
    "syn.compile.pipeline_flush_in_task",
    "syn.compile.pipeline_style",
    "syn.compile.pragma_strict_mode",
    "syn.compile.unsafe_math_optimizations",
    "syn.dataflow.disable_fifo_sizing_opt",
    "syn.dataflow.fifo_depth",
    "syn.dataflow.override_user_fifo_depth",
    "syn.dataflow.scalar_fifo_depth",
    "syn.dataflow.start_fifo_depth",
    "syn.dataflow.strict_mode",
    "syn.dataflow.strict_stable_sync",
    "syn.dataflow.task_level_fifo_depth",
    "syn.debug.directory",
    "syn.debug.enable",
    "syn.interface.clock_enable",
    "syn.interface.default_slave_interface",
    "syn.interface.m_axi_addr64",
    "syn.interface.m_axi_alignment_byte_size",
    "syn.interface.m_axi_auto_id_channel",
    "syn.interface.m_axi_auto_max_ports",
    "syn.interface.m_axi_buffer_impl",
    "syn.interface.m_axi_conservative_mode",
    "syn.interface.m_axi_flush_mode",
    "syn.interface.m_axi_max_bitwidth",
    "syn.interface.m_axi_max_read_burst_length",
    "syn.interface.m_axi_max_widen_bitwidth",
    "syn.interface.m_axi_max_write_burst_length",
    "syn.interface.m_axi_min_bitwidth",
    "syn.interface.m_axi_num_read_outstanding",
    "syn.interface.m_axi_num_write_outstanding",
    "syn.interface.m_axi_offset",
    "syn.interface.register_reverse_order",
    "syn.interface.s_axilite_auto_restart_counter",
    "syn.interface.s_axilite_data64",
    "syn.interface.s_axilite_interrupt_mode",
    "syn.interface.s_axilite_mailbox",
    "syn.interface.s_axilite_status_regs",
    "syn.interface.s_axilite_sw_reset",
    "syn.op",
    "syn.output.format",
    "syn.rtl.deadlock_detection",
    "syn.rtl.header",
    "syn.rtl.kernel_profile",
    "syn.rtl.module_auto_prefix",
    "syn.rtl.module_prefix",
    "syn.rtl.mult_keep_attribute",
    "syn.rtl.register_all_io",
    "syn.rtl.register_reset_num",
    "syn.rtl.reset",
    "syn.rtl.reset_async",
    "syn.rtl.reset_level",
    "syn.schedule.enable_dsp_full_reg",
    "syn.storage",
    "syn.unroll.tripcount_threshold",
];

/// Key families with open-ended names (IP packaging, the Vivado run).
const KNOWN_PREFIXES: &[&str] = &["package.ip.", "vivado.", "syn.directive."];

/// A warning for a key no Vitis release documents, naming the nearest one that exists.
fn unknown_key_warning(key: &str) -> Option<String> {
    let known = || HLS_KEYS.iter().chain(OTHER_KNOWN_KEYS).chain(&["part", "platform", "freqhz"]);
    if known().any(|k| *k == key) || KNOWN_PREFIXES.iter().any(|p| key.starts_with(p)) {
        return None;
    }
    let nearest =
        known().min_by_key(|k| (edit_distance(&key.to_ascii_lowercase(), &k.to_ascii_lowercase()), k.len()))?;
    Some(format!("unknown key `{key}` is ignored (Vitis HLS documents no such key); did you mean `{nearest}`?"))
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

pub(crate) fn parse(p: &mut Project, text: &str) -> Result<()> {
    let path = p.file.clone();
    let mut section = String::new();
    let mut pending: Vec<FileFlags> = Vec::new();
    let mut freq: Option<(f64, (usize, usize))> = None;
    let mut seen_single: Vec<&'static str> = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let lineno = i + 1;
        let content = line.find('#').map_or(line, |h| &line[..h]);
        let trimmed = content.trim();
        if trimmed.is_empty() {
            continue;
        }
        let col_of = |byte: usize| line[..byte].chars().count() + 1;
        let lead = content.len() - content.trim_start().len();
        if trimmed.starts_with('[') {
            if !trimmed.ends_with(']') {
                return Err(syntax(
                    &path,
                    lineno,
                    col_of(lead),
                    format!("section header `{trimmed}` is missing its `]`"),
                ));
            }
            section = trimmed[1..trimmed.len() - 1].trim().to_ascii_lowercase();
            if section.is_empty() {
                return Err(syntax(
                    &path,
                    lineno,
                    col_of(lead),
                    "empty section header `[]`: write `[hls]`".to_string(),
                ));
            }
            continue;
        }
        let Some(eq) = content.find('=') else {
            return Err(syntax(
                &path,
                lineno,
                col_of(lead),
                format!("expected `key=value` or a `[section]` header, found `{trimmed}` (comments start with `#`)"),
            ));
        };
        let key = content[..eq].trim();
        if key.is_empty() {
            return Err(syntax(&path, lineno, col_of(lead), "`=` without a key before it".to_string()));
        }
        let value = content[eq + 1..].trim();
        let vstart = eq + 1 + (content[eq + 1..].len() - content[eq + 1..].trim_start().len());
        let at = (lineno, col_of(vstart));
        let full = if section.is_empty() { key.to_string() } else { format!("{section}.{key}") };
        let (in_hls, k) = match full.strip_prefix("hls.") {
            Some(rest) => (true, rest.to_string()),
            None => (false, full.clone()),
        };
        let hls_key = HLS_KEYS.iter().copied().find(|h| *h == k);
        if let Some(h) = hls_key {
            if !in_hls {
                p.warn(&path, Some(at), format!("`{h}` belongs under the [hls] section; v++ may not see it here"));
            }
        }
        if let Some(kind) = k.strip_prefix("syn.directive.") {
            if !in_hls {
                p.warn(&path, Some(at), format!("`{k}` belongs under the [hls] section; v++ may not see it here"));
            }
            let origin = format!("{}:{lineno}", super::file_name(&path));
            match super::directive::from_cfg(kind, value, origin) {
                Ok(d) => p.directives.push(d),
                Err(why) => p.warn(&path, Some(at), format!("`{k}={value}` is ignored: {why}")),
            }
            continue;
        }
        let single = match k.as_str() {
            "syn.top" => Some("syn.top"),
            "clock" => Some("clock"),
            "clock_uncertainty" => Some("clock_uncertainty"),
            "flow_target" => Some("flow_target"),
            "csim.argv" => Some("csim.argv"),
            "cosim.argv" => Some("cosim.argv"),
            "part" => Some("part"),
            "syn.compile.pipeline_loops" => Some("syn.compile.pipeline_loops"),
            "syn.interface.m_axi_latency" => Some("syn.interface.m_axi_latency"),
            "syn.dataflow.default_channel" => Some("syn.dataflow.default_channel"),
            "platform" => Some("platform"),
            "freqhz" => Some("freqhz"),
            _ => None,
        };
        if let Some(s) = single {
            if seen_single.contains(&s) {
                p.warn(&path, Some(at), format!("`{s}` is set more than once; the last value, `{value}`, is used"));
            }
            seen_single.push(s);
        }
        let flags = |p: &mut Project, v: &str| -> Vec<String> {
            let (words, open) = split_flags(v);
            if open {
                p.warn(&path, Some(at), "unterminated quote in flags; the rest of the line is taken as one word");
            }
            words
        };
        // A whole number, or a warning with `hint` (the key is then ignored).
        let count = |p: &mut Project, hint: &str| -> Option<u64> {
            let n = value.parse::<u64>().ok();
            if n.is_none() {
                p.warn(&path, Some(at), format!("cannot read `{k}={value}`: {hint}; ignored"));
            }
            n
        };
        match k.as_str() {
            "part" => p.part = Some(value.to_string()),
            "platform" => p.platform = Some(value.to_string()),
            "freqhz" => match parse_frequency(value) {
                Some(ns) => freq = Some((ns, at)),
                None => p.warn(&path, Some(at), format!("cannot read frequency `{value}`; write e.g. `freqhz=300000000`")),
            },
            "syn.top" => p.top = Some(unquote(value).to_string()),
            "syn.file" | "tb.file" => {
                let set = if k == "tb.file" { FileSet::Tb } else { FileSet::Syn };
                let (file, root) = (super::resolve(&p.root, unquote(value)), p.root.clone());
                p.add_file(set, file, &root, Vec::new(), Vec::new(), &path, Some(at));
            }
            "syn.blackbox.file" => {
                let file = super::resolve(&p.root, unquote(value));
                if !file.exists() {
                    p.warn(&path, Some(at), format!("file not found: {}", file.display()));
                }
                p.blackbox.push(file);
            }
            "syn.cflags" => {
                let f = flags(p, value);
                p.cflags.extend(f);
            }
            "syn.csimflags" => {
                let f = flags(p, value);
                p.csimflags.extend(f);
            }
            "tb.cflags" => {
                let f = flags(p, value);
                p.tb_cflags.extend(f);
            }
            "csim.ldflags" => {
                let f = flags(p, value);
                p.csim_ldflags.extend(f);
            }
            "syn.file_cflags" | "syn.file_csimflags" | "tb.file_cflags" | "tb.file_csimflags" => {
                let key = HLS_KEYS.iter().copied().find(|h| *h == k).unwrap_or("syn.file_cflags");
                match value.split_once(',') {
                    Some((file, f)) => {
                        let f = flags(p, f);
                        pending.push(FileFlags {
                            set: if k.starts_with("tb.") { FileSet::Tb } else { FileSet::Syn },
                            csim: k.ends_with("csimflags"),
                            key,
                            file: unquote(file.trim()).to_string(),
                            flags: f,
                            at,
                        });
                    }
                    None => p.warn(&path, Some(at), format!("`{key}` needs `<file>,<flags>`; no comma in `{value}`")),
                }
            }
            "clock" => match parse_clock(value) {
                Some(ns) => p.clock_ns = Some(ns),
                None => p.warn(
                    &path,
                    Some(at),
                    format!("cannot read clock `{value}`; write a period such as `clock=4ns` or a frequency such as `clock=250MHz`"),
                ),
            },
            "clock_uncertainty" => p.clock_uncertainty = Some(value.to_string()),
            "flow_target" => {
                if !matches!(value, "vitis" | "vivado") {
                    p.warn(&path, Some(at), format!("unknown flow_target `{value}` (expected `vitis` or `vivado`)"));
                }
                p.flow_target = Some(value.to_string());
            }
            "csim.argv" => p.csim_argv = Some(value.to_string()),
            "cosim.argv" => p.cosim_argv = Some(value.to_string()),
            "cosim.random_stall" => p.cosim_random_stall = matches!(value.to_ascii_lowercase().as_str(), "1" | "true"),
            "syn.compile.pipeline_loops" => {
                if let Some(n) = count(p, "write a trip count such as 64 (0: no automatic pipelining)") {
                    p.pipeline_loops = Some(n);
                }
            }
            "syn.interface.m_axi_latency" => {
                if let Some(n) = count(p, "write a cycle count such as 64") {
                    p.m_axi_latency = Some(n);
                }
            }
            "syn.dataflow.default_channel" => match super::dataflow_channel(value) {
                Some(c) => p.dataflow_default_channel = Some(c),
                None => p.warn(
                    &path,
                    Some(at),
                    format!("unknown `syn.dataflow.default_channel={value}` (expected `fifo` or `pingpong`); ignored"),
                ),
            },
            "csim.O" => match value.to_ascii_lowercase().as_str() {
                "true" | "1" | "yes" | "on" => p.csim_optimize = true,
                "false" | "0" | "no" | "off" => p.csim_optimize = false,
                _ => p.warn(&path, Some(at), format!("`csim.O={value}`: expected `true` or `false`; ignored")),
            },
            _ => {
                // Only the HLS keys are checked: other sections belong to other v++ steps.
                if in_hls || section.is_empty() {
                    if let Some(msg) = unknown_key_warning(&k) {
                        p.warn(&path, Some((lineno, col_of(lead))), msg);
                    }
                }
                if k == "relative_roots" {
                    p.warn(
                        &path,
                        Some(at),
                        "`relative_roots` is not interpreted: relative paths are resolved against the config file's directory",
                    );
                }
                p.other.push((k, value.to_string()));
            }
        }
    }
    if let Some((ns, at)) = freq {
        if p.clock_ns.is_none() {
            p.clock_ns = Some(ns);
        } else {
            p.warn(&path, Some(at), "both `clock` and `freqhz` are set; `clock` is used");
        }
    }
    for ff in pending {
        apply_file_flags(p, &path, ff);
    }
    Ok(())
}

fn apply_file_flags(p: &mut Project, path: &Path, ff: FileFlags) {
    let target = super::normalize(&super::resolve(&p.root, &ff.file));
    let list = match ff.set {
        FileSet::Syn => &mut p.sources,
        FileSet::Tb => &mut p.testbench,
    };
    match list.iter_mut().find(|f| super::normalize(&f.path) == target) {
        Some(f) if ff.csim => f.csimflags.extend(ff.flags),
        Some(f) => f.cflags.extend(ff.flags),
        None => {
            let file_key = if ff.set == FileSet::Tb { "tb.file" } else { "syn.file" };
            p.warn(
                path,
                Some(ff.at),
                format!(
                    "`{}` names `{}`, which is not a `{file_key}`: add `{file_key}={}` or fix the path; its flags are ignored",
                    ff.key, ff.file, ff.file
                ),
            );
        }
    }
}

/// A value wrapped in double quotes, without them.
fn unquote(v: &str) -> &str {
    v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v)
}

fn syntax(path: &Path, line: usize, col: usize, message: String) -> Error {
    Error::new(ErrorKind::BadInput, message).at(path).at_line(line, col)
}
