//! Capture: run the user's C testbench with every call of the top going through a generated
//! wrapper that records the call's inputs (scalars, the contents of every array and pointer
//! argument) and, after the C model ran, its outputs. One `call-NNNN.cap` file per call, in the
//! work directory.
//!
//! How the calls are redirected without touching the user's files: the file that defines the
//! top is not compiled on its own; a generated translation unit includes it with the top renamed
//! by a macro (`#define top hlsinstr_kernel_top`) and then defines the top itself, with the
//! parameter list as written and the linkage of the original (`extern "C"` or not). The
//! testbench links against that definition and is compiled as it is, so its calls, wherever
//! and however written, are captured. The rest of the build is `sim`'s ([`crate::sim::run`]).
//!
//! Sizes: an array parameter's element count is its declared dimensions (the compiler
//! evaluates them, macros included); a pointer's is the `depth=` of its INTERFACE pragma (Vitis
//! co-simulation needs the same). Values are stored as their bits, little endian: arithmetic
//! types as in memory, `ap_int`/`ap_uint`/`ap_fixed` as their `W` bits padded to whole bytes
//! (in m_axi memory, to a power of two bytes, as Vitis lays them out).

use crate::error::{Error, ErrorKind, Result};
use crate::model::{self, Function, ParamKind};
use crate::parse::{self, Lang};
use crate::sim::run::{self, RunOptions, RunSpec};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The wrapper's runtime: value → bits, the per-call file writer.
const CAPTURE_HEADER: &str = include_str!("harness/hlsinstr_capture.h");

/// What one argument of the top is, as the capture records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArgSpec {
    pub name: String,
    pub kind: ArgKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ArgKind {
    /// Passed by value.
    Scalar,
    /// A reference to one value: read before and written back after the call.
    Reference,
    /// An array or pointer: `count` elements (a C++ expression, evaluated by the compiler).
    Buffer { count: String },
    /// An `hls::stream`: its contents before and after the call (what the call read from an
    /// input stream, what it wrote to an output stream).
    Stream,
}

/// The top as the capture sees it.
#[derive(Debug, Clone, Serialize)]
pub struct TopSignature {
    pub name: String,
    pub file: PathBuf,
    pub returns_void: bool,
    pub extern_c: bool,
    pub args: Vec<ArgSpec>,
    /// The INTERFACE mode the source gives each argument (`m_axi`, `s_axilite`, `ap_memory`, ...).
    pub modes: Vec<(String, String)>,
    /// The top's ARRAY_PARTITION pragmas: variable and spec (or why it cannot be read).
    #[serde(skip)]
    pub partitions: Vec<(String, std::result::Result<super::partition::Spec, String>)>,
}

/// Find the top's definition in `sources` and read its signature.
pub fn top_signature(sources: &[PathBuf], top: &str) -> Result<TopSignature> {
    for path in sources {
        if !crate::source::is_cxx_path(path) || is_header(path) {
            continue;
        }
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, &e))?;
        if !text.contains(top) {
            continue;
        }
        let lang = Lang::of_path(path);
        if lang != Lang::Cpp {
            return Err(Error::new(
                ErrorKind::Usage,
                "cosim captures calls through a C++ wrapper: a top defined in a C file is not supported yet; \
                 rename the file to .cpp",
            )
            .at(path));
        }
        let tree = parse::parse(lang, &text, None);
        let m = model::build(&tree, &text);
        let Some(f) = m.functions.iter().find(|f| f.name == top && f.qualified == top) else { continue };
        return signature_of(f, path, &text, &tree);
    }
    Err(Error::new(
        ErrorKind::Usage,
        format!("no definition of the top `{top}` (at namespace scope) in the synthesis sources"),
    ))
}

fn is_header(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("h" | "hpp" | "hh" | "hxx"))
}

fn signature_of(f: &Function, path: &Path, text: &str, tree: &tree_sitter::Tree) -> Result<TopSignature> {
    let lines: Vec<&str> = text.lines().collect();
    let mut modes = Vec::new();
    let mut depths: Vec<(String, String)> = Vec::new();
    for p in f.pragmas.iter().filter(|p| p.directive == "INTERFACE") {
        let mode = p.option("mode").map(str::to_ascii_lowercase).or_else(|| p.flags.first().cloned());
        if let (Some(port), Some(mode)) = (p.option("port"), mode) {
            modes.push((port.to_string(), mode));
            if let Some(d) = lines.get(p.line.wrapping_sub(1)).and_then(|l| depth_expr(l)) {
                depths.push((port.to_string(), d));
            }
        }
    }
    let mut args = Vec::new();
    for (p, decl) in f.params.iter().zip(&f.signature.params) {
        let kind = match p.kind {
            ParamKind::Scalar => ArgKind::Scalar,
            ParamKind::Reference => ArgKind::Reference,
            ParamKind::Array => {
                let first = first_dimension(decl, &p.name).ok_or_else(|| {
                    Error::new(ErrorKind::BadInput, format!("cannot read the first dimension of parameter `{decl}`"))
                        .at(path)
                        .at_line(f.line, f.col)
                })?;
                ArgKind::Buffer {
                    count: format!("({first}) * (sizeof(*{0}) / sizeof(hlsinstr_cap::elem_t<decltype({0})>))", p.name),
                }
            }
            ParamKind::Pointer => match depths.iter().find(|(n, _)| *n == p.name) {
                Some((_, d)) => ArgKind::Buffer { count: format!("({d})") },
                // A pointer to one value on scalar ports (ap_none/ap_vld/ap_ack/ap_hs/ap_ovld, the
                // default for a pointer without a bus or memory interface).
                None if scalar_mode(modes.iter().find(|(n, _)| *n == p.name).map(|(_, m)| m.as_str())) => {
                    ArgKind::Buffer { count: "1".into() }
                }
                None => {
                    return Err(Error::new(
                        ErrorKind::Usage,
                        format!(
                            "pointer parameter `{}` of the top has no size: add `depth=N` (its element count) to its \
                             `#pragma HLS INTERFACE`, as Vitis co-simulation also needs",
                            p.name
                        ),
                    )
                    .at(path)
                    .at_line(f.line, f.col))
                }
            },
            ParamKind::Stream => ArgKind::Stream,
        };
        args.push(ArgSpec { name: p.name.clone(), kind });
    }
    Ok(TopSignature {
        name: f.name.clone(),
        file: path.to_path_buf(),
        returns_void: f.returns_void,
        extern_c: in_extern_c(tree, text, &f.name),
        args,
        modes,
        partitions: f.pragmas.iter().filter_map(super::partition::from_pragma).collect(),
    })
}

/// Whether a pointer with INTERFACE mode `mode` (none: no pragma) is one value on ports.
fn scalar_mode(mode: Option<&str>) -> bool {
    matches!(mode, None | Some("ap_none" | "ap_vld" | "ap_ack" | "ap_hs" | "ap_ovld" | "ap_stable"))
}

/// The text of `depth = <expr>` in a pragma line, up to the next `key=` option.
fn depth_expr(line: &str) -> Option<String> {
    let lower = line.to_ascii_lowercase();
    let at = lower.find("depth")?;
    let rest = line[at + 5..].trim_start().strip_prefix('=')?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    let mut out = Vec::new();
    for (k, w) in words.iter().enumerate() {
        let next_is_eq = words.get(k + 1).is_some_and(|n| n.starts_with('='));
        if w.contains('=') || next_is_eq || w.starts_with("//") {
            break;
        }
        out.push(*w);
    }
    (!out.is_empty()).then(|| out.join(" "))
}

/// `int a[N][M]` → `N`.
fn first_dimension(decl: &str, name: &str) -> Option<String> {
    let at = decl.rfind(name)? + name.len();
    let rest = decl[at..].trim_start().strip_prefix('[')?;
    let close = rest.find(']')?;
    let d = rest[..close].trim();
    (!d.is_empty()).then(|| d.to_string())
}

/// Is the definition of `name` inside an `extern "C"` block or declaration?
fn in_extern_c(tree: &tree_sitter::Tree, text: &str, name: &str) -> bool {
    let mut stack = vec![(tree.root_node(), false)];
    while let Some((n, ext)) = stack.pop() {
        let ext = ext || n.kind() == "linkage_specification";
        if n.kind() == "function_definition" {
            let mut d = n.child_by_field_name("declarator");
            while let Some(x) = d {
                if x.kind() == "identifier" {
                    if &text[x.byte_range()] == name {
                        return ext;
                    }
                    break;
                }
                d = x.child_by_field_name("declarator");
            }
            continue;
        }
        for i in 0..n.child_count() {
            if let Some(c) = n.child(i) {
                stack.push((c, ext));
            }
        }
    }
    false
}

/// The wrapper translation unit for `sig`, writing into `calls_dir`.
pub fn wrapper_source(sig: &TopSignature, calls_dir: &Path) -> String {
    let top = &sig.name;
    let kernel = format!("hlsinstr_kernel_{top}");
    let mut s = String::new();
    s.push_str("// Generated by hlsinstr cosim: records every call of the top (see cosim/capture.rs).\n");
    s.push_str(&format!(
        "#define {top} {kernel}\n#include {}\n#undef {top}\n",
        c_string(&sig.file.display().to_string())
    ));
    s.push_str("#include \"hlsinstr_capture.h\"\n\n");
    s.push_str(&super::aggregate::cpp(&super::aggregate::find(&sig.file)));
    s.push_str(&format!("static auto* const hlsinstr_kernel = &{kernel};\n\n"));
    let params = declaration_params(sig);
    let linkage = if sig.extern_c { "extern \"C\" " } else { "" };
    s.push_str(&format!("{linkage}auto {top}({params}) -> decltype(hlsinstr_kernel({})) {{\n", arg_list(sig)));
    s.push_str(&format!("    hlsinstr_cap::Call call({});\n", c_string(&calls_dir.display().to_string())));
    for a in &sig.args {
        let n = &a.name;
        match &a.kind {
            ArgKind::Scalar | ArgKind::Reference => s.push_str(&format!("    call.value(\"in\", \"{n}\", {n});\n")),
            ArgKind::Buffer { count } => {
                s.push_str(&format!("    call.buffer(\"in\", \"{n}\", {n}, (unsigned long)({count}));\n"))
            }
            ArgKind::Stream => s.push_str(&format!("    call.stream(\"in\", \"{n}\", {n});\n")),
        }
    }
    if sig.returns_void {
        s.push_str(&format!("    hlsinstr_kernel({});\n", arg_list(sig)));
    } else {
        s.push_str(&format!("    auto hlsinstr_ret = hlsinstr_kernel({});\n", arg_list(sig)));
        s.push_str("    call.value(\"out\", \"return\", hlsinstr_ret);\n");
    }
    for a in &sig.args {
        let n = &a.name;
        match &a.kind {
            ArgKind::Scalar => {}
            ArgKind::Reference => s.push_str(&format!("    call.value(\"out\", \"{n}\", {n});\n")),
            ArgKind::Buffer { count } => {
                s.push_str(&format!("    call.buffer(\"out\", \"{n}\", {n}, (unsigned long)({count}));\n"))
            }
            ArgKind::Stream => s.push_str(&format!("    call.stream(\"out\", \"{n}\", {n});\n")),
        }
    }
    s.push_str("    call.finish();\n");
    if !sig.returns_void {
        s.push_str("    return hlsinstr_ret;\n");
    }
    s.push_str("}\n");
    s
}

/// The parameter list as written in the source, re-read from the definition.
fn declaration_params(sig: &TopSignature) -> String {
    let text = std::fs::read_to_string(&sig.file).unwrap_or_default();
    let tree = parse::parse(Lang::Cpp, &text, None);
    let m = model::build(&tree, &text);
    m.functions
        .iter()
        .find(|f| f.name == sig.name && f.qualified == sig.name)
        .map(|f| f.signature.params.join(", "))
        .unwrap_or_default()
}

fn arg_list(sig: &TopSignature) -> String {
    sig.args.iter().map(|a| a.name.as_str()).collect::<Vec<_>>().join(", ")
}

fn c_string(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            _ => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Run the testbench with the wrapper; the calls land in `work/calls`. Returns the call files.
pub fn capture(spec: &RunSpec, opts: &RunOptions, sig: &TopSignature, work: &Path) -> Result<Vec<PathBuf>> {
    let calls = work.join("calls");
    if calls.exists() {
        std::fs::remove_dir_all(&calls).map_err(|e| Error::io(&calls, &e))?;
    }
    std::fs::create_dir_all(&calls).map_err(|e| Error::io(&calls, &e))?;
    let gen = work.join("capture");
    std::fs::create_dir_all(&gen).map_err(|e| Error::io(&gen, &e))?;
    let wrapper = gen.join(format!("hlsinstr_capture_{}.cpp", sig.name));
    write(&wrapper, &wrapper_source(sig, &calls))?;
    write(&gen.join("hlsinstr_capture.h"), CAPTURE_HEADER)?;
    let mut spec = spec.clone();
    let flags = spec.sources.iter().find(|(p, _)| *p == sig.file).map(|(_, f)| f.clone()).unwrap_or_default();
    spec.sources.retain(|(p, _)| *p != sig.file);
    spec.testbench.push((wrapper, flags));
    let mut opts = opts.clone();
    opts.uninstrumented = true;
    opts.work_dir = Some(work.join("csim"));
    run::run(&spec, &opts)?;
    let files = call_files(&calls)?;
    if files.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("the testbench ran but never called the top `{}`: nothing to co-simulate", sig.name),
        ));
    }
    Ok(files)
}

fn write(p: &Path, text: &str) -> Result<()> {
    std::fs::write(p, text).map_err(|e| Error::io(p, &e))
}

/// The captured calls in `dir` (`call-NNNNNN.cap`), in call order.
pub fn call_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, &e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cap"))
        .collect();
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_expressions_and_dimensions() {
        assert_eq!(
            depth_expr("#pragma HLS INTERFACE m_axi port = a offset = slave depth = 8 * 8 bundle = g").as_deref(),
            Some("8 * 8")
        );
        assert_eq!(depth_expr("#pragma HLS INTERFACE m_axi port=a depth=N").as_deref(), Some("N"));
        assert_eq!(depth_expr("#pragma HLS INTERFACE m_axi port=a"), None);
        assert_eq!(first_dimension("int a[MAX_SIZE][MAX_SIZE]", "a").as_deref(), Some("MAX_SIZE"));
        assert_eq!(first_dimension("int *a", "a"), None);
    }

    #[test]
    fn linkage_of_the_top() {
        let text = "extern \"C\" {\nvoid top(int *a) {}\n}\nvoid other(int b) {}\n";
        let tree = parse::parse(Lang::Cpp, text, None);
        assert!(in_extern_c(&tree, text, "top"));
        assert!(!in_extern_c(&tree, text, "other"));
    }
}
