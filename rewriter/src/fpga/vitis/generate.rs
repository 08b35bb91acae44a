//! Stage 5b for `--target vitis`: the files generated beside the rewritten code, from handlebars
//! templates (`rewriter/templates/vitis/`): the monitor for N probes, the new top, the testbench
//! shim, the build files (`hls_config.cfg`, `run_hls.tcl`, `hlsinstr_vpp.cfg`), the XRT host
//! program, and copies of the hls-lib headers and the counter's blackbox files.

use super::HwDesign;
use crate::emit::manifest::ProbeEntry;
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
];

/// A generated file: path below the output root, contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    pub path: String,
    pub text: String,
}

/// Every generated file of the build.
pub fn generate(d: &HwDesign, key: u64, probes: &[ProbeEntry], opts: &super::VitisOptions) -> Result<Vec<Generated>> {
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
    let data = model(d, key, probes, opts, &dir);
    let render = |name: &str| -> Result<String> {
        hb.render(name, &data).map_err(|e| Error::new(ErrorKind::Internal, format!("template {name}: {e}")))
    };
    let mut out = vec![
        Generated { path: format!("{dir}hlsinstr_monitor.h"), text: render("monitor")? },
        Generated { path: format!("{dir}hlsinstr_top.h"), text: render("top_h")? },
        Generated { path: format!("{dir}hlsinstr_top.cpp"), text: render("top_cpp")? },
        Generated { path: "hls_config.cfg".into(), text: render("hls_config")? },
        Generated { path: "run_hls.tcl".into(), text: render("run_hls")? },
        Generated { path: "hlsinstr_vpp.cfg".into(), text: render("vpp")? },
        Generated { path: "host/hlsinstr_host.cpp".into(), text: render("host")? },
    ];
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

fn model(d: &HwDesign, key: u64, probes: &[ProbeEntry], opts: &super::VitisOptions, dir: &str) -> Value {
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
    let cflags = format!("-I{LIB_DIR} -I{top_dir}");
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
    json!({
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
        "top_streams": d.top_streams,
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
        "dbg_index": params.len() + usize::from(!d.top.returns_void),
        "include_dirs": [if dir.is_empty() { "..".to_string() } else { format!("../{top_dir}") }],
    })
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
