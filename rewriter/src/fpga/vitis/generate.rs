//! Stage 5b for `--target vitis`: the files generated beside the rewritten code, from handlebars
//! templates (`rewriter/templates/vitis/`): the monitor for N probes, the new top, the testbench
//! shim, the build files (`hls_config.cfg`, `run_hls.tcl`, `hlsinstr_vpp.cfg`), the XRT host
//! program, and copies of the hls-lib headers and the counter's blackbox files.

use super::HwDesign;
use crate::emit::manifest::{HwTrace, ProbeEntry};
use crate::error::{Error, ErrorKind, Result};
use crate::model::ParamKind;
use handlebars::Handlebars;
use serde_json::{json, Value};

/// Directory (below the output root) the hls-lib headers are copied to.
pub const LIB_DIR: &str = "hlsinstr-lib/include";

const TEMPLATES: &[(&str, &str)] = &[
    ("monitor", include_str!("../../../templates/vitis/monitor.h.hbs")),
    ("top_h", include_str!("../../../templates/vitis/top.h.hbs")),
    ("top_cpp", include_str!("../../../templates/vitis/top.cpp.hbs")),
    ("hls_config", include_str!("../../../templates/vitis/hls_config.cfg.hbs")),
    ("run_hls", include_str!("../../../templates/vitis/run_hls.tcl.hbs")),
    ("vpp", include_str!("../../../templates/vitis/vpp.cfg.hbs")),
    ("host", include_str!("../../../templates/vitis/host.cpp.hbs")),
    ("tracer", include_str!("../../../templates/vitis/tracer.h.hbs")),
];

/// A generated file: path below the output root, contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub path: String,
    pub text: String,
}

/// Every generated file of the build.
pub fn generate(
    d: &HwDesign,
    key: u64,
    probes: &[ProbeEntry],
    opts: &super::VitisOptions,
    trace: Option<&HwTrace>,
) -> Result<Vec<Generated>> {
    let mut hb = Handlebars::new();
    hb.set_strict_mode(true);
    hb.register_escape_fn(handlebars::no_escape);
    for (name, text) in TEMPLATES {
        hb.register_template_string(name, *text)
            .map_err(|e| Error::new(ErrorKind::Internal, format!("template {name}: {e}")))?;
    }
    let dir = match d.top.file.rfind('/') {
        Some(i) => format!("{}/", &d.top.file[..i]),
        None => String::new(),
    };
    let data = model(d, key, probes, opts, &dir, trace);
    let render = |name: &str| -> Result<String> {
        hb.render(name, &data).map_err(|e| Error::new(ErrorKind::Internal, format!("template {name}: {e}")))
    };
    let mut out = Vec::new();
    if !d.slots.is_empty() {
        out.push(Generated { path: format!("{dir}hlsinstr_monitor.h"), text: render("monitor")? });
    }
    if trace.is_some() {
        out.push(Generated { path: format!("{dir}hlsinstr_tracer.h"), text: render("tracer")? });
    }
    out.extend([
        Generated { path: format!("{dir}hlsinstr_top.h"), text: render("top_h")? },
        Generated { path: format!("{dir}hlsinstr_top.cpp"), text: render("top_cpp")? },
        Generated { path: "hls_config.cfg".into(), text: render("hls_config")? },
        Generated { path: "run_hls.tcl".into(), text: render("run_hls")? },
        Generated { path: "hlsinstr_vpp.cfg".into(), text: render("vpp")? },
        Generated { path: "host/hlsinstr_host.cpp".into(), text: render("host")? },
    ]);
    for (rel, text) in crate::hls_lib::HLS_LIB {
        out.push(Generated { path: format!("{LIB_DIR}/{rel}"), text: text.to_string() });
    }
    for (rel, text) in crate::hls_lib::BLACKBOX {
        // The counter's C model includes hlsinstr/hw/counter.h: from the copy of hls-lib.
        let text = if rel.ends_with(".json") {
            text.replace("\"cflag\": \"\"", &format!("\"cflag\": \"-I{LIB_DIR}\""))
        } else {
            text.to_string()
        };
        out.push(Generated { path: rel.to_string(), text });
    }
    Ok(out)
}

fn is_header(path: &str) -> bool {
    let ext = path.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    matches!(ext.as_str(), "h" | "hh" | "hpp" | "hxx" | "inc" | "ipp" | "tpp")
}

fn model(
    d: &HwDesign,
    key: u64,
    probes: &[ProbeEntry],
    opts: &super::VitisOptions,
    dir: &str,
    trace: Option<&HwTrace>,
) -> Value {
    let params = &d.top.model_params;
    let slots: Vec<Value> = d
        .slots
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let what = probes
                .iter()
                .find(|p| p.id == *id)
                .map(|p| format!("{} {} ({}:{})", p.kind, p.name, p.file, p.line))
                .unwrap_or_default();
            json!({"index": i, "probe": id, "what": what})
        })
        .collect();
    let dump_words = 6 + 8 * d.slots.len();
    let mut syn_files: Vec<String> = d.kernel_files.iter().filter(|f| !is_header(f)).cloned().collect();
    syn_files.push(format!("{dir}hlsinstr_top.cpp"));
    let top_dir = if dir.is_empty() { ".".to_string() } else { dir.trim_end_matches('/').to_string() };
    let mut cflags = format!("-I{LIB_DIR} -I{top_dir}");
    if let Some(t) = trace {
        cflags
            .push_str(&format!(" -DHLSINSTR_TRACE_ID_BITS={} -DHLSINSTR_TRACE_VALUE_BITS={}", t.id_bits, t.value_bits));
        if let Some(w) = &t.watch {
            cflags.push_str(&watch_defines(w));
        }
    }
    let mut args: Vec<Value> = Vec::new();
    for (i, (p, decl)) in params.iter().zip(&d.top.params).enumerate() {
        let elem = element_type(&p.type_text);
        let buffer = matches!(p.kind, ParamKind::Pointer | ParamKind::Array | ParamKind::Reference);
        let count = match p.kind {
            ParamKind::Array => extent(decl, &p.name).map(|e| format!("static_cast<std::size_t>({e})")),
            ParamKind::Reference => Some("1".to_string()),
            _ => None,
        }
        .unwrap_or_else(|| "0".into());
        args.push(json!({"index": i, "name": p.name, "decl": decl, "elem": elem, "buffer": buffer, "count": count}));
    }
    if !d.top.returns_void {
        args.push(json!({"index": params.len(), "name": "hlsinstr_return", "decl": format!("{}& hlsinstr_return", d.top.return_type),
                         "elem": d.top.return_type, "buffer": true, "count": "1"}));
    }
    let options = if d.timestamps { "HLSINSTR_OPT_T" } else { "HLSINSTR_OPT_P" };
    let monitor = !d.slots.is_empty();
    let trace_words = trace.map_or(0, |t| super::TRACE_HEADER_WORDS + t.records);
    // The debug ports after the top's own parameters (and its result): the monitor's, the trace's.
    let mut ports = Vec::new();
    let mut port_args = Vec::new();
    let mut host_args = Vec::new();
    let first_port = params.len() + usize::from(!d.top.returns_void);
    if monitor {
        ports.push(format!("::hlsinstr::hw::dump_word hlsinstr_dbg[{dump_words}]"));
        port_args.push("dbg");
        host_args.push("dbg");
    }
    if trace.is_some() {
        ports.push(format!("::hlsinstr::hw::dump_word hlsinstr_trace[{trace_words}]"));
        port_args.push("trace");
        host_args.push("trace");
    }
    let top_streams: Vec<Value> = d
        .top_streams
        .iter()
        .map(|&id| {
            if id == super::TRACE_STREAM {
                json!({"param": super::TRACE_PARAM, "name": "hlsinstr_tr"})
            } else {
                json!({"param": format!("HLSINSTR_PROBE& hlsinstr_p{id}"), "name": format!("hlsinstr_p{id}")})
            }
        })
        .collect();
    let trace_fields = json!({
        "monitor": monitor,
        "trace": trace.is_some(),
        "debug_ports": ports.join(", "),
        "debug_args": port_args.join(", "),
        "debug_host_args": host_args.join(", "),
        "trace_index": first_port + usize::from(monitor),
        "trace_words": trace_words,
        "trace_suffix": if monitor { "-trace" } else { "" },
        "trace_key": trace.map(|t| t.key.clone()).unwrap_or_default(),
        "trace_depth": trace.map_or(0, |t| t.depth),
        "trace_burst": trace.map_or(0, |t| (t.depth / 2).clamp(2, 256)),
        "trace_records": trace.map_or(0, |t| t.records),
        "trace_mode": trace.map(|t| t.mode.clone()).unwrap_or_default(),
        "trace_wrap": trace.is_some_and(|t| t.mode == "wrap"),
        "id_bits": trace.map_or(0, |t| t.id_bits),
        "value_bits": trace.map_or(0, |t| t.value_bits),
        "delta_bits": trace.map_or(0, |t| t.delta_bits),
    });
    let mut v = json!({
        "top": d.top.name,
        "instr_top": d.instr_top,
        "key": format!("{key:016x}"),
        "slot_count": d.slots.len(),
        "slots": slots,
        "event_time": d.timestamps,
        "longest": opts.longest,
        "dump_words": dump_words,
        "fifo_depth": d.fifo_depth,
        "includes": d.top.includes,
        "params": d.top.params,
        "param_names": params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        "return_type": d.top.return_type,
        "returns_void": d.top.returns_void,
        "top_streams": top_streams,
        "top_probe": d.top.probe,
        "options": options,
        "dep": d.top.dep.clone().unwrap_or_else(|| "0".into()),
        // The end's timestamp depends on the top's result when it has one, so the read cannot
        // move above the call; a void top leaves the order to the scheduler (documented).
        "end_dep": if d.top.returns_void { d.top.dep.clone().unwrap_or_else(|| "0".into()) } else { "hlsinstr_return".into() },
        "interface_pragmas": d.top.interface_pragmas,
        "syn_files": syn_files,
        "tb_files": d.tb_files,
        "cflags": cflags,
        "clock": opts.clock,
        "part": opts.part,
        "args": args,
        "dbg_index": first_port,
        "include_dirs": [if dir.is_empty() { "..".to_string() } else { format!("../{top_dir}") }],
    });
    if let (Some(o), Some(t)) = (v.as_object_mut(), trace_fields.as_object()) {
        o.extend(t.clone());
    }
    v
}

/// The watch of the build as the constants hls-lib `hw/watch.h` reads (an invariant bound at the
/// end of the range is left out: the header's default).
fn watch_defines(w: &crate::emit::manifest::HwWatch) -> String {
    let mut s = format!(
        " -DHLSINSTR_WATCH_VALUE_ID={} -DHLSINSTR_WATCH_A={} -DHLSINSTR_WATCH_B={} -DHLSINSTR_WATCH_N={} -DHLSINSTR_WATCH_HITS={}",
        w.value_id,
        w.range[0],
        w.range[1],
        w.bound,
        u8::from(w.hits)
    );
    if w.vmin != i64::MIN {
        s.push_str(&format!(" -DHLSINSTR_WATCH_VMIN={}LL", w.vmin));
    }
    if w.vmax != i64::MAX {
        s.push_str(&format!(" -DHLSINSTR_WATCH_VMAX={}LL", w.vmax));
    }
    s
}

/// `const int` → `int`: the host's buffer element.
fn element_type(type_text: &str) -> String {
    type_text.split_whitespace().filter(|w| *w != "const" && *w != "volatile").collect::<Vec<_>>().join(" ")
}

/// The first array extent of parameter `name` in its declaration: `in[QS_MAX_N]` → `QS_MAX_N`.
fn extent(decl: &str, name: &str) -> Option<String> {
    let at = decl.rfind(name)? + name.len();
    let rest = decl[at..].trim_start();
    let inner = rest.strip_prefix('[')?;
    let mut depth = 1;
    for (i, c) in inner.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => {
                depth -= 1;
                if depth == 0 {
                    let e = inner[..i].trim();
                    return (!e.is_empty()).then(|| e.to_string());
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_and_element_types() {
        assert_eq!(extent("const int in[QS_MAX_N]", "in").as_deref(), Some("QS_MAX_N"));
        assert_eq!(extent("int m[R][C]", "m").as_deref(), Some("R"));
        assert_eq!(extent("int a[N * (M[0])]", "a").as_deref(), Some("N * (M[0])"));
        assert_eq!(extent("int *p", "p"), None);
        assert_eq!(extent("int a[]", "a"), None);
        assert_eq!(element_type("const volatile mm_in_t"), "mm_in_t");
    }

    #[test]
    fn every_template_compiles() {
        let mut hb = Handlebars::new();
        for (name, text) in TEMPLATES {
            hb.register_template_string(name, *text).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}
