//! A synthesised solution as co-simulation needs it: where its Verilog is, the top module's
//! ports, and which HLS interface each port group is (read from the port names Vitis HLS and
//! Vivado HLS generate, plus the `*_s_axi.v` register map and `kernel.xml` when present).
//!
//! Port naming (both tools; Vivado HLS adds `_V` to arbitrary-precision argument names):
//! - block control: `ap_start ap_done ap_idle ap_ready` (`ap_ctrl_hs`), plus `ap_continue`
//!   (`ap_ctrl_chain`), none of them (`ap_ctrl_none`); under an s_axilite bundle they are bits
//!   of register 0x00 of that bundle's `<top>_<bundle>_s_axi` module instead of ports;
//! - `s_axi_<bundle>_*`: an s_axilite slave (Vitis default bundle `control`, Vivado HLS
//!   `AXILiteS`); its `ADDR_<ARG>_DATA_<k>` localparams are the argument offsets;
//! - `m_axi_<bundle>_*`: an AXI4 master (`gmem`, ...);
//! - `<arg>_address0/_ce0/_we0/_d0/_q0`: ap_memory (`_address1 ...`: a second RAM port);
//!   `<arg>_Addr_A/_EN_A/_WEN_A/_Din_A/_Dout_A`: the `bram` interface; a partitioned array has
//!   one group per bank, `<arg>_0_address0 ...` (see [`super::partition`]); `<arg>_dout/_empty_n/_read`,
//!   `<arg>_din/_full_n/_write`: ap_fifo; `<arg>_TDATA/_TVALID/_TREADY`: axis;
//!   `<arg>` with `<arg>_ap_vld` / `<arg>_ap_ack`: ap_vld / ap_ack scalars; `<arg>` alone: ap_none;
//! - `ap_return`: the return value (or register `ADDR_AP_RETURN_0` under s_axilite).

use super::verilog::{self, Dir, Module, Port};
use crate::error::{Error, ErrorKind, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where the solution's files are.
#[derive(Debug, Clone, Serialize)]
pub struct Solution {
    /// The solution directory (holding `syn/`).
    pub dir: PathBuf,
    /// The generated Verilog directory (`syn/verilog`, else `impl/verilog`).
    pub verilog_dir: PathBuf,
    /// Every `.v`/`.sv` file of it, sorted: what the simulators compile.
    pub rtl_files: Vec<PathBuf>,
    /// `kernel.xml` beside the solution or in it (Vitis kernels only).
    pub kernel_xml: Option<PathBuf>,
    /// The solution's `directives.tcl` (Vivado HLS / Vitis `set_directive_*` lines), when present.
    pub directives: Option<PathBuf>,
    /// The directory is `hlsinstr rtl-probe`'s output (`rtl/`, `hlsinstr-manifest.json`): the
    /// simulated top is the probed new top `<top>_rtlprobe`, its probe ports left idle.
    pub probed: bool,
}

/// Find the solution under `dir`: a solution (`dir/syn/verilog`), a Vitis unified component
/// (`dir/hls/syn/verilog`) or a project holding exactly one solution.
pub fn find(dir: &Path) -> Result<Solution> {
    if !dir.is_dir() {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "--solution {}: no such directory; give the solution directory that holds syn/verilog (written by \
                 csynth_design)",
                dir.display()
            ),
        ));
    }
    // Absolute: the simulators run in the build directory, where a relative path means nothing.
    let dir = &dir.canonicalize().map_err(|e| Error::io(dir, &e))?;
    let candidates = |d: &Path| [d.to_path_buf(), d.join("hls")];
    let mut found: Vec<PathBuf> = candidates(dir).into_iter().filter(|d| has_rtl(d)).collect();
    if found.is_empty() {
        let mut subs: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| Error::io(dir, &e))?
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        subs.sort();
        found = subs.iter().flat_map(|s| candidates(s)).filter(|d| has_rtl(d)).collect();
        if found.len() > 1 {
            let names: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
            return Err(Error::new(
                ErrorKind::Usage,
                format!("--solution {}: holds several solutions ({}); pick one", dir.display(), names.join(", ")),
            ));
        }
    }
    let Some(sol) = found.pop() else {
        return Err(Error::new(
            ErrorKind::Usage,
            format!(
                "--solution {}: no generated Verilog (looked for syn/verilog, hls/syn/verilog and impl/verilog, \
                 also one level down); run C synthesis first",
                dir.display()
            ),
        ));
    };
    let probed = is_probed(&sol);
    let verilog_dir = if probed {
        sol.join("rtl")
    } else {
        ["syn/verilog", "impl/verilog"].iter().map(|s| sol.join(s)).find(|d| d.is_dir()).unwrap()
    };
    let mut rtl_files: Vec<PathBuf> = std::fs::read_dir(&verilog_dir)
        .map_err(|e| Error::io(&verilog_dir, &e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("v" | "sv")))
        .collect();
    rtl_files.sort();
    let kernel_xml = [sol.join("kernel.xml"), sol.join("impl/kernel.xml")]
        .into_iter()
        .chain(sol.parent().map(|p| p.join("kernel.xml")))
        .find(|p| p.is_file());
    let directives = Some(sol.join("directives.tcl")).filter(|p| p.is_file());
    Ok(Solution { dir: sol, verilog_dir, rtl_files, kernel_xml, directives, probed })
}

fn has_rtl(d: &Path) -> bool {
    d.join("syn/verilog").is_dir() || d.join("impl/verilog").is_dir() || is_probed(d)
}

/// What `hlsinstr rtl-probe --out d` writes (and no solution does).
fn is_probed(d: &Path) -> bool {
    d.join("rtl").is_dir() && d.join("hlsinstr-manifest.json").is_file()
}

/// The probed new top of an `rtl-probe` output, as `cosim` instantiates it instead of the top.
#[derive(Debug, Clone, Serialize)]
pub struct ProbedTop {
    pub module: String,
    /// Its inputs beyond the top's (the probe's AXI4-Lite slave and, with `--offload`, the
    /// DRAM master's responses): tied low, so the probe is never read and never drains.
    pub idle_inputs: Vec<String>,
    /// The design's instance inside it, where the top's block control is.
    pub design: String,
}

/// `<top>_rtlprobe` from the probed RTL: every port of the top with the same direction and
/// width, and the probe's own ports.
fn probed_top(sol: &Solution, top: &Module) -> Result<ProbedTop> {
    let name = format!("{}_rtlprobe", top.name);
    let (file, m, _) = find_module(&sol.rtl_files, &name)?.ok_or_else(|| {
        Error::new(
            ErrorKind::BadInput,
            format!("no module `{name}` here: is this the output of `hlsinstr rtl-probe` for `{}`?", top.name),
        )
        .at(&sol.verilog_dir)
    })?;
    for p in &top.ports {
        if m.port(&p.name).map(|q| (q.dir, q.width)) != Some((p.dir, p.width)) {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("`{name}` does not have the top's port `{}` as the top does: run rtl-probe again", p.name),
            )
            .at(file));
        }
    }
    let idle_inputs =
        m.ports.iter().filter(|p| top.port(&p.name).is_none() && p.dir == Dir::Input).map(|p| p.name.clone()).collect();
    Ok(ProbedTop { module: name, idle_inputs, design: crate::rtlprobe::ip::DESIGN_INSTANCE.to_string() })
}

/// How the block is started and stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Control {
    /// No handshake: the block runs from reset (`ap_ctrl_none`).
    None,
    /// `ap_start`/`ap_done`/`ap_ready`/`ap_idle`.
    Hs,
    /// `ap_ctrl_hs` plus `ap_continue`.
    Chain,
}

/// An s_axilite slave and its register map.
#[derive(Debug, Clone, Serialize)]
pub struct AxiLite {
    pub bundle: String,
    pub addr_width: u32,
    /// Registers of arguments: RTL name → byte offsets of its 32-bit words, low word first.
    pub regs: BTreeMap<String, Reg>,
    /// The block-control register 0x00 exists (control goes through this bundle).
    pub has_ctrl: bool,
}

/// One argument's registers in an s_axilite map.
#[derive(Debug, Clone, Serialize)]
pub struct Reg {
    pub offsets: Vec<u32>,
    /// Width of the argument in bits (the s_axi module's output port), when known.
    pub width: u32,
}

/// An AXI4 master bundle.
#[derive(Debug, Clone, Serialize)]
pub struct Maxi {
    pub bundle: String,
    pub data_width: u32,
    pub addr_width: u32,
    pub id_width: u32,
}

/// How one argument's port group looks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArgPorts {
    /// A plain data port (input or output), with an optional `_ap_vld` / `_ap_ack`.
    Wire {
        port: String,
        dir: Dir,
        width: u32,
        vld: Option<String>,
        ack: Option<String>,
    },
    /// RAM ports, per RAM port index: address, ce, we, d, q (ap_memory: `<a>_address0 ...`);
    /// with `bram`, Vivado's BRAM-controller names `<a>_Addr_A _EN_A _WEN_A _Din_A _Dout_A`
    /// (port B: `_B`), a byte address and byte write enables.
    Memory {
        ports: u32,
        bram: bool,
    },
    Fifo {
        input: bool,
    },
    Axis {
        input: bool,
    },
}

/// The interfaces of the top, as the RTL shows them.
#[derive(Debug, Clone, Serialize)]
pub struct Interfaces {
    pub top: String,
    pub clock: String,
    /// The reset port and whether it is active low (`ap_rst_n`, s_axilite designs).
    pub reset: Option<(String, bool)>,
    pub control: Control,
    /// The s_axilite bundle holding the control register, when control goes through one.
    pub control_bundle: Option<String>,
    pub axilite: Vec<AxiLite>,
    pub maxi: Vec<Maxi>,
    /// Port groups named after an argument (RTL name → ports).
    pub args: BTreeMap<String, ArgPorts>,
    /// `ap_return` width, when the top returns a value through a port.
    pub ap_return: Option<u32>,
    /// Every port of the top, in order.
    pub ports: Vec<Port>,
    /// The tool that wrote the RTL, from its header comment.
    pub generator: String,
    /// Its version (`2022.2`), from the same comment, when it gives one.
    pub version: Option<String>,
    pub notes: Vec<String>,
    /// Simulate this new top of `rtl-probe` around the top (see [`Solution::probed`]).
    pub probed: Option<ProbedTop>,
}

impl Interfaces {
    /// Where an argument `name` (its C name) is: its RTL name, and the bundle holding its
    /// register when it is passed through s_axilite. Vivado HLS appends `_V` to ap_int names.
    pub fn register_of(&self, name: &str) -> Option<(&AxiLite, &Reg)> {
        for a in &self.axilite {
            for n in rtl_names(name) {
                if let Some(r) = a.regs.get(&n) {
                    return Some((a, r));
                }
            }
        }
        None
    }

    pub fn arg_ports(&self, name: &str) -> Option<(&str, &ArgPorts)> {
        rtl_names(name).into_iter().find_map(|n| self.args.get_key_value(&n).map(|(k, v)| (k.as_str(), v)))
    }

    /// Every port group of argument `name`: its group under one of the names the tools give it,
    /// else the `<name>_i` / `<name>_o` pair of a value that is read and written (an inout
    /// scalar on ap_none/ap_vld ports).
    pub fn arg_groups(&self, name: &str) -> Vec<(&str, &ArgPorts)> {
        if let Some(g) = self.arg_ports(name) {
            return vec![g];
        }
        [format!("{name}_i"), format!("{name}_o")]
            .iter()
            .filter_map(|n| self.args.get_key_value(n).map(|(k, v)| (k.as_str(), v)))
            .collect()
    }
}

/// The RTL names of a C argument: as written; Vivado HLS appends `_V` to arbitrary-precision
/// types and to streams (`_V_V` for a stream of them); Vitis HLS appends `_r` to a name that is
/// a Verilog keyword (`in`, `out`).
fn rtl_names(name: &str) -> Vec<String> {
    vec![name.to_string(), format!("{name}_V"), format!("{name}_V_V"), format!("{name}_r")]
}

/// Read the top module `top` from the solution and classify its ports.
pub fn interfaces(sol: &Solution, top: &str) -> Result<Interfaces> {
    let (file, module, text) = find_module(&sol.rtl_files, top)?.ok_or_else(|| {
        let mut names: Vec<String> = Vec::new();
        for f in &sol.rtl_files {
            if let Ok(t) = std::fs::read_to_string(f) {
                names.extend(verilog::module_names(&t));
            }
        }
        names.sort();
        Error::new(
            ErrorKind::Usage,
            format!(
                "{}: no module `{top}` in the generated Verilog (modules there: {}); is --top the synthesised top?",
                sol.verilog_dir.display(),
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            ),
        )
    })?;
    let generator = if text.contains("Vitis HLS") {
        "Vitis HLS".to_string()
    } else if text.contains("Vivado HLS") || text.contains("Vivado(TM) HLS") {
        "Vivado HLS".to_string()
    } else {
        "unknown".to_string()
    };
    let version = header_version(&text);
    let (module, probed) = if sol.probed {
        // The probed RTL's top has the probe's `hlsinstr_*` outputs besides the original ports.
        let ports = module.ports.iter().filter(|p| !p.name.starts_with("hlsinstr_")).cloned().collect();
        let module = Module { ports, ..module };
        let pt = probed_top(sol, &module)?;
        (module, Some(pt))
    } else {
        (module, None)
    };
    classify(top, &module, sol, generator)
        .map(|mut i| {
            if let Some(p) = &probed {
                i.notes.push(format!("rtl-probe output: simulating `{}` (the probe's ports idle)", p.module));
            }
            Interfaces { version, probed, ..i }
        })
        .map_err(|m| Error::new(ErrorKind::BadInput, m).at(file))
}

/// The tool version in the RTL's header comment: `... from C, C++ and OpenCL v2022.2 (64-bit)`,
/// or with a patch release, `Generated by Vitis HLS v2023.2.1` (2023.2 and later write that).
fn header_version(text: &str) -> Option<String> {
    let head = text.lines().take_while(|l| l.trim_start().starts_with("//") || l.trim().is_empty()).take(20);
    head.flat_map(str::split_whitespace).find_map(|w| crate::vitis_tb::release_in_word(w).map(str::to_string))
}

fn find_module(files: &[PathBuf], name: &str) -> Result<Option<(PathBuf, Module, String)>> {
    // The top's own file first: the file of the same name.
    let mut order: Vec<&PathBuf> = files.iter().collect();
    order.sort_by_key(|f| f.file_stem().and_then(|s| s.to_str()) != Some(name));
    for f in order {
        let text = std::fs::read_to_string(f).map_err(|e| Error::io(f, &e))?;
        if !text.contains(name) {
            continue;
        }
        match verilog::read_module(&text, name) {
            Ok(Some(m)) => return Ok(Some((f.clone(), m, text))),
            Ok(None) => {}
            Err(e) => return Err(Error::new(ErrorKind::BadInput, e).at(f)),
        }
    }
    Ok(None)
}

fn classify(top: &str, m: &Module, sol: &Solution, generator: String) -> std::result::Result<Interfaces, String> {
    let has = |n: &str| m.port(n).is_some();
    let mut claimed: Vec<bool> = vec![false; m.ports.len()];
    let mut claim = |pred: &dyn Fn(&str) -> bool| {
        for (k, p) in m.ports.iter().enumerate() {
            if pred(&p.name) {
                claimed[k] = true;
            }
        }
    };
    let clock = ["ap_clk", "aclk", "ap_clk_0"]
        .into_iter()
        .find(|c| has(c))
        .ok_or_else(|| format!("module {top} has no clock port (ap_clk): not an HLS-generated top"))?
        .to_string();
    claim(&|n| n == clock);
    let reset = if has("ap_rst_n") {
        Some(("ap_rst_n".to_string(), true))
    } else if has("ap_rst") {
        Some(("ap_rst".to_string(), false))
    } else {
        None
    };
    claim(&|n| n == "ap_rst_n" || n == "ap_rst" || n == "interrupt");
    let mut notes = Vec::new();
    // Bus bundles from the prefixes.
    let bundles = |prefix: &str, probe: &str| -> Vec<String> {
        let mut v: Vec<String> = m
            .ports
            .iter()
            .filter_map(|p| p.name.strip_prefix(prefix).and_then(|r| r.strip_suffix(probe)).map(String::from))
            .collect();
        v.dedup();
        v
    };
    let mut maxi = Vec::new();
    for b in bundles("m_axi_", "_AWVALID") {
        let pre = format!("m_axi_{b}_");
        let w = |s: &str| m.port(&format!("{pre}{s}")).map(|p| p.width);
        let data_width = w("WDATA").ok_or_else(|| format!("m_axi bundle {b} has no WDATA port"))?;
        if data_width % 8 != 0 || data_width > 1024 {
            return Err(format!("m_axi bundle {b}: data width {data_width} is not a whole number of bytes ≤ 1024"));
        }
        maxi.push(Maxi {
            bundle: b.clone(),
            data_width,
            addr_width: w("AWADDR").unwrap_or(32),
            id_width: w("AWID").unwrap_or(0),
        });
        claim(&|n| n.starts_with(&pre));
    }
    let mut axilite = Vec::new();
    for b in bundles("s_axi_", "_AWVALID") {
        let pre = format!("s_axi_{b}_");
        claim(&|n| n.starts_with(&pre));
        axilite.push(read_axilite(top, &b, m.port(&format!("{pre}AWADDR")).map_or(32, |p| p.width), sol)?);
    }
    // Block control.
    let ctrl_ports = has("ap_start") && has("ap_done");
    let control_bundle = axilite.iter().find(|a| a.has_ctrl).map(|a| a.bundle.clone());
    let control = if ctrl_ports {
        claim(&|n| matches!(n, "ap_start" | "ap_done" | "ap_idle" | "ap_ready" | "ap_continue"));
        if has("ap_continue") {
            Control::Chain
        } else {
            Control::Hs
        }
    } else if let Some(b) = &control_bundle {
        let chain = control_chain(top, b, sol);
        if chain {
            Control::Chain
        } else {
            Control::Hs
        }
    } else {
        Control::None
    };
    let ap_return = m.port("ap_return").map(|p| p.width);
    claim(&|n| n == "ap_return");
    // Argument port groups.
    let mut args = BTreeMap::new();
    let names: Vec<String> = m.ports.iter().map(|p| p.name.clone()).collect();
    for (k, p) in m.ports.iter().enumerate() {
        if claimed[k] {
            continue;
        }
        let n = &p.name;
        let strip = |s: &str| n.strip_suffix(s).map(String::from);
        if let Some(a) = strip("_address0") {
            let ports = (0..4).filter(|i| names.contains(&format!("{a}_address{i}"))).count() as u32;
            args.insert(a, ArgPorts::Memory { ports, bram: false });
        } else if let Some(a) = strip("_Addr_A") {
            let ports = 1 + u32::from(names.contains(&format!("{a}_Addr_B")));
            args.insert(a, ArgPorts::Memory { ports, bram: true });
        } else if let Some(a) = strip("_empty_n") {
            args.insert(a, ArgPorts::Fifo { input: true });
        } else if let Some(a) = strip("_full_n") {
            args.insert(a, ArgPorts::Fifo { input: false });
        } else if let Some(a) = strip("_TVALID") {
            args.insert(a, ArgPorts::Axis { input: p.dir == Dir::Input });
        }
    }
    let in_group = |n: &str, args: &BTreeMap<String, ArgPorts>| {
        args.keys().any(|a| n.strip_prefix(a.as_str()).is_some_and(|r| r.starts_with('_')))
    };
    for (k, p) in m.ports.iter().enumerate() {
        if claimed[k] || in_group(&p.name, &args) {
            continue;
        }
        let n = &p.name;
        if n.ends_with("_ap_vld") || n.ends_with("_ap_ack") {
            continue;
        }
        let vld = format!("{n}_ap_vld");
        let ack = format!("{n}_ap_ack");
        args.insert(
            n.clone(),
            ArgPorts::Wire {
                port: n.clone(),
                dir: p.dir,
                width: p.width,
                vld: has(&vld).then_some(vld),
                ack: has(&ack).then_some(ack),
            },
        );
    }
    if let (Control::None, true) = (control, axilite.is_empty() && !ctrl_ports) {
        notes.push(
            "no block-level handshake (ap_ctrl_none): a call runs from its inputs offered to its last output \
             handshake (the C simulation's element counts)"
                .into(),
        );
    }
    Ok(Interfaces {
        top: top.to_string(),
        clock,
        reset,
        control,
        control_bundle,
        axilite,
        maxi,
        args,
        ap_return,
        ports: m.ports.clone(),
        generator,
        version: None,
        notes,
        probed: None,
    })
}

/// The register map of bundle `b` from `<top>_<b>_s_axi.v`, else from kernel.xml.
fn read_axilite(top: &str, b: &str, addr_width: u32, sol: &Solution) -> std::result::Result<AxiLite, String> {
    let module = format!("{top}_{b}_s_axi");
    let file = sol.rtl_files.iter().find(|f| f.file_stem().and_then(|s| s.to_str()) == Some(module.as_str()));
    if let Some(f) = file {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        let m = verilog::read_module(&text, &module)
            .map_err(|e| format!("{}: {e}", f.display()))?
            .ok_or_else(|| format!("{}: no module {module}", f.display()))?;
        let mut regs: BTreeMap<String, Reg> = BTreeMap::new();
        let mut words: BTreeMap<String, Vec<(u32, u32)>> = BTreeMap::new();
        for (name, &v) in &m.params {
            let Some(rest) = name.strip_prefix("ADDR_") else { continue };
            // `ADDR_<ARG>_DATA_<k>`, and the return value's `ADDR_AP_RETURN_<k>`.
            let Some((arg, k)) =
                rest.rsplit_once("_DATA_").or_else(|| rest.rsplit_once('_').filter(|(a, _)| *a == "AP_RETURN"))
            else {
                continue;
            };
            let Ok(k) = k.parse::<u32>() else { continue };
            words.entry(arg.to_string()).or_default().push((k, v as u32));
        }
        for (upper, mut w) in words {
            w.sort();
            // The RTL name is the s_axi module's output port of that name (any case).
            let port = m
                .ports
                .iter()
                .find(|p| p.dir == Dir::Output && p.name.to_ascii_uppercase() == upper)
                .or_else(|| m.ports.iter().find(|p| p.name.to_ascii_uppercase() == upper));
            let (name, width) = match port {
                Some(p) => (p.name.clone(), p.width),
                None => (upper.to_ascii_lowercase(), 32 * w.len() as u32),
            };
            regs.insert(name, Reg { offsets: w.into_iter().map(|(_, o)| o).collect(), width });
        }
        let has_ctrl = m.params.contains_key("ADDR_AP_CTRL");
        return Ok(AxiLite { bundle: b.to_string(), addr_width, regs, has_ctrl });
    }
    if let Some(x) = &sol.kernel_xml {
        return kernel_xml_map(x, b, addr_width);
    }
    Err(format!(
        "s_axilite bundle {b}: neither {module}.v in {} nor a kernel.xml gives its register map",
        sol.verilog_dir.display()
    ))
}

/// Whether the control bundle's s_axi module has an `ap_continue` output (ap_ctrl_chain).
fn control_chain(top: &str, b: &str, sol: &Solution) -> bool {
    let module = format!("{top}_{b}_s_axi");
    let from_rtl = sol
        .rtl_files
        .iter()
        .find(|f| f.file_stem().and_then(|s| s.to_str()) == Some(module.as_str()))
        .and_then(|f| std::fs::read_to_string(f).ok())
        .and_then(|t| verilog::read_module(&t, &module).ok().flatten())
        .map(|m| m.port("ap_continue").is_some_and(|p| p.dir == Dir::Output));
    from_rtl.unwrap_or_else(|| {
        sol.kernel_xml
            .as_ref()
            .and_then(|x| std::fs::read_to_string(x).ok())
            .is_some_and(|t| t.contains("hwControlProtocol=\"ap_ctrl_chain\""))
    })
}

/// Offsets of the `<arg>`s of kernel.xml that live on port `S_AXI_<BUNDLE>`.
fn kernel_xml_map(path: &Path, b: &str, addr_width: u32) -> std::result::Result<AxiLite, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| format!("{}: not XML: {e}", path.display()))?;
    let want = format!("S_AXI_{}", b.to_ascii_uppercase());
    let num = |s: &str| {
        let s = s.trim();
        s.strip_prefix("0x")
            .or_else(|| s.strip_prefix("0X"))
            .map_or_else(|| s.parse().ok(), |h| u32::from_str_radix(h, 16).ok())
    };
    let mut regs = BTreeMap::new();
    for a in doc.descendants().filter(|n| n.has_tag_name("arg")) {
        let (Some(name), Some(off), Some(size)) =
            (a.attribute("name"), a.attribute("offset").and_then(num), a.attribute("size").and_then(num))
        else {
            continue;
        };
        // m_axi pointers sit on the master port but their address register is on the control bundle.
        let on_bundle = a.attribute("port") == Some(want.as_str()) || a.attribute("addressQualifier") == Some("1");
        if !on_bundle {
            continue;
        }
        let words = size.div_ceil(4).max(1);
        regs.insert(name.to_string(), Reg { offsets: (0..words).map(|k| off + 4 * k).collect(), width: size * 8 });
    }
    Ok(AxiLite { bundle: b.to_string(), addr_width, regs, has_ctrl: true })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures/vitis-solution/2022.2-systolic-mm")
    }

    #[test]
    fn systolic_solution_interfaces() {
        let f = fixture();
        assert!(f.is_dir(), "fixtures not found at {}: shared/ must sit beside the repository", f.display());
        let sol = find(&f).unwrap();
        assert!(sol.verilog_dir.ends_with("solution/syn/verilog"));
        let i = interfaces(&sol, "multiplier").unwrap();
        assert_eq!(i.control, Control::Chain);
        assert_eq!(i.control_bundle.as_deref(), Some("control"));
        assert_eq!(i.reset, Some(("ap_rst_n".into(), true)));
        assert_eq!(
            i.maxi.iter().map(|m| (m.bundle.as_str(), m.data_width)).collect::<Vec<_>>(),
            [("gmem1", 512), ("gmem2", 512), ("gmem3", 512)]
        );
        let (a, r) = i.register_of("vec_b").unwrap();
        assert_eq!(a.bundle, "control");
        assert_eq!((r.offsets.as_slice(), r.width), (&[0x1c, 0x20][..], 64));
        assert_eq!(i.register_of("vector_len").unwrap().1.offsets, [0x34]);
        assert!(i.args.is_empty(), "{:?}", i.args);
        assert_eq!(i.generator, "Vitis HLS");
        assert_eq!(i.version.as_deref(), Some("2022.2"));
        assert_eq!(
            header_version("// Vivado(TM) HLS - High-Level Synthesis from C, C++ and SystemC v2018.3 (64-bit)\nmodule"),
            Some("2018.3".into())
        );
        assert_eq!(header_version("module m; // v2022.2\n"), None, "only the header comment");
        // 2023.2's header names the patch release; without it the polled window was not chosen.
        assert_eq!(header_version("// Generated by Vitis HLS v2023.2.1\nmodule"), Some("2023.2.1".into()));
        assert_eq!(header_version("// Generated by Vitis HLS v2023.2.x\nmodule"), None);
    }
}
