//! Stage 3a with `maxi`: which pointer parameters are m_axi ports, and which uses of them cannot
//! be counted.
//!
//! A parameter is a port when `#pragma HLS INTERFACE m_axi port=<p>` in its function says so, or,
//! through the call graph to a fixpoint, when a caller passes one of its ports (or a pointer into
//! one: `in + off`, `&in[k]`, the row `m[r]`) as that argument. Calls resolve by name, as in
//! selection. A top-level pointer without an INTERFACE pragma is not guessed to be a port,
//! unless the project is the Vitis kernel flow's, whose top has m_axi ports by default.

use super::FnSelection;
use crate::model::maxi::{PtrParam, UseKind};
use crate::model::{FileModel, Function};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// A top-level m_axi port: a parameter with an INTERFACE pragma.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct PortOrigin {
    /// Qualified name of the function whose pragma declares the port.
    pub function: String,
    pub port: String,
    /// `bundle=` of the pragma; `None` when not given (the tool's default applies).
    pub bundle: Option<String>,
}

/// A use of a port whose bytes are not counted, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Uncounted {
    pub line: usize,
    pub column: usize,
    pub reason: String,
}

/// An m_axi port of a probed function.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundPort {
    /// Index in the function's `maxi.params`.
    pub param: usize,
    /// The top-level ports it is bound to, sorted.
    pub origins: Vec<PortOrigin>,
    pub uncounted: Vec<Uncounted>,
}

/// Fill `ports` of every function selected for begin/end probes. `out[file][function]` is the
/// selection of `files`; `kernel_top`: the top of a Vitis kernel flow project, whose pointer and
/// array parameters no pragma names are m_axi ports.
pub fn bind(files: &[FileModel], out: &mut [Vec<FnSelection>], kernel_top: Option<&str>) {
    let index = super::FunctionIndex::new(files);
    let all = &index.all;
    let callees = |name: &str| index.named(name);

    // (function, parameter) -> the top-level ports it is bound to; grows to a fixpoint.
    let mut bound: HashMap<(usize, usize), BTreeSet<PortOrigin>> = HashMap::new();
    let mut queue = VecDeque::new();
    for (i, (_, _, f)) in all.iter().enumerate() {
        for (pi, p) in f.maxi.params.iter().enumerate() {
            let origin = declared_port(f, p).or_else(|| kernel_top.and_then(|top| kernel_flow_port(f, p, top)));
            if let Some(origin) = origin {
                bound.entry((i, pi)).or_default().insert(origin);
                queue.push_back((i, pi));
            }
        }
    }
    while let Some((i, pi)) = queue.pop_front() {
        let origins = bound[&(i, pi)].clone();
        for u in &all[i].2.maxi.params[pi].uses {
            let UseKind::Passed { callee, arg } = &u.kind else { continue };
            for &j in callees(callee) {
                let Some(qi) = all[j].2.maxi.params.iter().position(|q| q.index == *arg) else { continue };
                let set = bound.entry((j, qi)).or_default();
                let before = set.len();
                set.extend(origins.iter().cloned());
                if set.len() != before {
                    queue.push_back((j, qi));
                }
            }
        }
    }

    let probed: Vec<bool> = all.iter().map(|&(fi, ni, _)| out[fi][ni].function).collect();
    for (i, &(fi, ni, f)) in all.iter().enumerate() {
        if !probed[i] {
            continue;
        }
        let mut ports = Vec::new();
        for (pi, p) in f.maxi.params.iter().enumerate() {
            let Some(origins) = bound.get(&(i, pi)) else { continue };
            let uncounted = p
                .uses
                .iter()
                .filter_map(|u| {
                    let reason = match &u.kind {
                        UseKind::Uncounted(reason) => reason.clone(),
                        UseKind::Passed { callee, arg } => {
                            let targets: Vec<usize> = callees(callee)
                                .iter()
                                .copied()
                                .filter(|&j| all[j].2.maxi.params.iter().any(|q| q.index == *arg))
                                .collect();
                            if callees(callee).is_empty() {
                                format!("passed to `{callee}`, whose body hlsinstr does not see; its accesses are not counted")
                            } else if targets.is_empty() {
                                format!("passed as argument {} of `{callee}`, which takes no pointer or array there", arg + 1)
                            } else if !targets.iter().any(|&j| probed[j]) {
                                format!("passed to `{callee}`, which is not probed; its accesses are not counted")
                            } else {
                                return None; // counted in the callee
                            }
                        }
                        UseKind::Access { .. } | UseKind::Memcpy { .. } => return None,
                    };
                    Some(Uncounted { line: u.line, column: u.col, reason })
                })
                .collect();
            ports.push(BoundPort { param: pi, origins: origins.iter().cloned().collect(), uncounted });
        }
        out[fi][ni].ports = ports;
    }
}

/// The port the Vitis kernel flow makes of `p`, a pointer or array parameter of the top `f` that no
/// INTERFACE pragma names: m_axi on the bundle `gmem` (the public 2022.1 `accel`'s report: its
/// three arrays on `m_axi_gmem`, offsets on `s_axi_control`).
fn kernel_flow_port(f: &Function, p: &PtrParam, top: &str) -> Option<PortOrigin> {
    let param = f.params.iter().find(|q| q.name == p.name)?;
    let unnamed = param.interface.is_none()
        && matches!(param.kind, crate::model::ParamKind::Pointer | crate::model::ParamKind::Array);
    (unnamed && (f.name == top || f.qualified == top)).then(|| PortOrigin {
        function: f.qualified.clone(),
        port: p.name.clone(),
        bundle: Some("gmem".to_string()),
    })
}

/// The port an INTERFACE pragma of `f` declares for `p`.
fn declared_port(f: &Function, p: &PtrParam) -> Option<PortOrigin> {
    let param = f.params.iter().find(|q| q.name == p.name)?;
    if param.interface.as_deref() != Some("m_axi") {
        return None;
    }
    let pragma = f.pragmas.iter().find(|g| {
        g.directive == "INTERFACE"
            && g.option("port") == Some(p.name.as_str())
            && (g.has_flag("m_axi") || g.option("mode").is_some_and(|m| m.eq_ignore_ascii_case("m_axi")))
    });
    Some(PortOrigin {
        function: f.qualified.clone(),
        port: p.name.clone(),
        bundle: pragma.and_then(|g| g.option("bundle")).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use crate::model::{build, maxi::attach};
    use crate::parse::parse_cpp;
    use crate::select::{select, Kinds, SelectOptions};

    /// `function: param <- origins [uncounted reasons]` for every bound port.
    fn ports(src: &str, opts: SelectOptions) -> Vec<String> {
        let tree = parse_cpp(src, None);
        let mut m = build(&tree, src);
        attach(&mut m, &tree, src);
        let sel = select(std::slice::from_ref(&m), Kinds::parse("modules,maxi").unwrap(), &opts).unwrap();
        let mut out = Vec::new();
        for (f, s) in m.functions.iter().zip(&sel[0]) {
            for p in &s.ports {
                let origins: Vec<String> = p
                    .origins
                    .iter()
                    .map(|o| format!("{}.{}@{}", o.function, o.port, o.bundle.as_deref().unwrap_or("-")))
                    .collect();
                let reasons: Vec<&str> = p.uncounted.iter().map(|u| u.reason.as_str()).collect();
                out.push(format!("{}: {} <- {} {reasons:?}", f.name, f.maxi.params[p.param].name, origins.join(",")));
            }
        }
        out
    }

    const SRC: &str = "\
static void leaf(const int *x, int *plain) { plain[0] = x[0]; }
static void mid(int k, const int *row) { leaf(row + k, 0); leaf(&row[1], 0); }
static void again(const int *r, int n) { if (n) again(r, n - 1); }
void top(const int *in, const int *lut, int *nopragma) {
#pragma HLS INTERFACE m_axi port=in bundle=gmem0
#pragma HLS INTERFACE mode=m_axi port=lut
  mid(0, in); mid(1, lut); again(in, 3); leaf(nopragma, 0);
}
";

    #[test]
    fn ports_propagate_through_calls_to_a_fixpoint() {
        assert_eq!(
            ports(SRC, SelectOptions::default()),
            [
                "leaf: x <- top.in@gmem0,top.lut@- []",
                "mid: row <- top.in@gmem0,top.lut@- []",
                "again: r <- top.in@gmem0 []",
                "top: in <- top.in@gmem0 []",
                "top: lut <- top.lut@- []",
            ],
            "a pointer parameter no port reaches (`plain`, `nopragma`) is not a port"
        );
    }

    #[test]
    fn in_the_kernel_flow_the_tops_unnamed_pointers_are_gmem_ports() {
        let kernel = SelectOptions { top: Some("top".into()), kernel_flow: true, ..Default::default() };
        let got = ports(SRC, kernel);
        assert!(got.contains(&"top: nopragma <- top.nopragma@gmem []".to_string()), "{got:?}");
        assert!(got.contains(&"leaf: x <- top.in@gmem0,top.lut@-,top.nopragma@gmem []".to_string()), "{got:?}");
        assert!(got.contains(&"top: in <- top.in@gmem0 []".to_string()), "a pragma's bundle stays: {got:?}");
        // Not the kernel flow, or no top named: nothing is guessed.
        let vivado = SelectOptions { top: Some("top".into()), ..Default::default() };
        assert!(!ports(SRC, vivado).iter().any(|p| p.contains("nopragma")));
        let no_top = SelectOptions { kernel_flow: true, ..Default::default() };
        assert!(!ports(SRC, no_top).iter().any(|p| p.contains("nopragma")));
    }

    #[test]
    fn only_probed_functions_get_ports_and_unprobed_callees_are_reported() {
        let got = ports(SRC, SelectOptions { only: vec!["top".into()], ..Default::default() });
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].contains("passed to `mid`, which is not probed"), "{got:?}");
        assert!(got[0].contains("passed to `again`, which is not probed"), "{got:?}");
    }

    #[test]
    fn calls_hlsinstr_cannot_follow_are_reported() {
        let src = "void f(int n) {}\nvoid top(int *p) {\n#pragma HLS INTERFACE m_axi port=p\n  std::copy(p, p + 4, q); f(p);\n}\n";
        let got = ports(src, SelectOptions::default());
        assert_eq!(got.len(), 1);
        assert!(got[0].contains("passed to `copy`, whose body hlsinstr does not see"), "{got:?}");
        assert!(got[0].contains("passed as argument 1 of `f`, which takes no pointer or array there"), "{got:?}");
    }
}
