//! The rewrite pipeline, in memory: parse → model → select → plan → edit → check.
//! Writing the results is `emit`'s job, so `diff` runs the very same pipeline and writes nothing.

use crate::edit::{apply, Edit, Piece};
use crate::emit::manifest::{self, HwBuild, Manifest, ManifestFile, SkipEntry};
use crate::error::{Error, ErrorKind, Result};
use crate::model::{self, FileModel, Skipped};
use crate::parse::{count_errors, parse_cpp};
use crate::plan::{plan_file, PlanTarget, ProbeKind};
use crate::select::{select, Kinds, SelectOptions};
use crate::source::{self, SourceFile};
use crate::strip::{find_marker, strip};
use crate::target::vitis::{self, generate::Generated};
use crate::target::Target;
use crate::walk::Input;
use rayon::prelude::*;

#[derive(Debug, Clone)]
pub struct RewriteOptions {
    pub kinds: Kinds,
    pub select: SelectOptions,
    pub target: Target,
}

/// One input file after the pipeline.
#[derive(Debug, Clone)]
pub struct FileOutcome {
    pub source: SourceFile,
    /// The instrumented text (equal to the source when nothing was probed).
    pub output: String,
    pub probes: usize,
}

/// Everything a rewrite produced. Per-file failures are in `errors`; the run went on without them.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub files: Vec<FileOutcome>,
    pub manifest: Manifest,
    pub errors: Vec<Error>,
    /// `(file, function skipped with its reason)`.
    pub skipped: Vec<(String, Skipped)>,
    pub warnings: Vec<String>,
    /// Files the target adds (`--target vitis`: new top, monitor, build files, hls-lib copy).
    pub generated: Vec<Generated>,
}

struct Analyzed {
    source: SourceFile,
    model: FileModel,
}

/// Run the pipeline over the given files. Only option errors (unknown top, bad glob) fail the
/// whole run; a bad file is reported in `Outcome::errors` and left out.
pub fn rewrite(inputs: &[Input], opts: &RewriteOptions) -> Result<Outcome> {
    let analyzed: Vec<std::result::Result<Analyzed, Error>> =
        inputs.par_iter().map(|i| analyze(i, opts.kinds)).collect();
    let mut errors = Vec::new();
    let mut files = Vec::new();
    let mut warnings = Vec::new();
    for a in analyzed {
        match a {
            Ok(a) => files.push(a),
            Err(e) => errors.push(e),
        }
    }
    let models: Vec<FileModel> = files.iter().map(|a| a.model.clone()).collect();
    let selection = select(&models, opts.kinds, &opts.select)?;

    // Ids are handed out in file order, then source order: the same whatever the thread count.
    let mut next_id = 0u32;
    let mut plans = Vec::with_capacity(files.len());
    let vitis_opts = match &opts.target {
        Target::Vitis(v) => Some(v),
        Target::Csim => None,
    };
    let top = opts.select.top.as_deref();
    if vitis_opts.is_some() && top.is_none() {
        return Err(Error::new(ErrorKind::Usage, "--target vitis needs --top: the new top wraps it"));
    }
    let plan_target = PlanTarget { vitis: vitis_opts.is_some(), top };
    let mut skipped = Vec::new();
    for (a, sel) in files.iter().zip(&selection) {
        let plan = plan_file(&a.source, &a.model, sel, opts.kinds, plan_target, &mut next_id);
        for s in a.model.skipped.iter() {
            skipped.push((a.source.rel.clone(), s.clone()));
        }
        for (fi, reason) in &plan.dropped {
            let f = &a.model.functions[*fi];
            let s = Skipped { function: f.qualified.clone(), line: f.line, col: f.col, reason: reason.clone() };
            skipped.push((a.source.rel.clone(), s));
        }
        for w in &a.model.warnings {
            warnings.push(format!("{}:{}:{}: warning: {}", a.source.path.display(), w.line, w.col, w.reason));
        }
        warnings.extend(uncounted_warnings(&a.source, &a.model, &plan));
        if a.source.text.is_empty() {
            warnings.push(format!("{}: empty file, copied unchanged", a.source.path.display()));
        }
        plans.push(plan);
    }
    let design = match (vitis_opts, top) {
        (Some(v), Some(top)) => {
            let pairs: Vec<(&SourceFile, &FileModel)> = files.iter().map(|a| (&a.source, &a.model)).collect();
            Some(vitis::plumb(&pairs, &mut plans, opts.kinds, top, v)?)
        }
        _ => None,
    };

    let emitted: Vec<std::result::Result<(FileOutcome, ManifestFile), Error>> =
        files.par_iter().zip(plans.par_iter()).map(|(a, plan)| emit_file(a, plan)).collect();

    let mut manifest = Manifest {
        format: manifest::FORMAT.into(),
        version: manifest::VERSION,
        tool: format!("hlsinstr {}", env!("CARGO_PKG_VERSION")),
        kinds: opts.kinds.names().iter().map(|s| s.to_string()).collect(),
        top: opts.select.top.clone(),
        files: Vec::new(),
        probes: Vec::new(),
        skipped: skipped.iter().map(|(f, s)| SkipEntry::new(f, s)).collect(),
        hw: None,
    };
    let mut generated = Vec::new();
    let mut outcomes = Vec::new();
    for ((result, a), plan) in emitted.into_iter().zip(&files).zip(&plans) {
        match result {
            Ok((outcome, mfile)) => {
                manifest.probes.extend(manifest::describe(&a.source.rel, &a.model, plan));
                manifest.files.push(mfile);
                outcomes.push(outcome);
            }
            Err(e) => errors.push(e),
        }
    }
    if let (Some(d), Some(v)) = (&design, vitis_opts) {
        if !errors.is_empty() {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!("{} (the in-FPGA build needs every file of the design)", errors[0]),
            ));
        }
        let key = manifest::hw_key(&d.slots, &manifest.probes);
        manifest.hw = Some(HwBuild {
            target: "vitis".into(),
            top: d.top.name.clone(),
            instr_top: d.instr_top.clone(),
            key: format!("{key:016x}"),
            fifo_depth: d.fifo_depth,
            timestamps: d.timestamps,
            slots: d.slots.clone(),
            derived: d.derived.clone(),
            generated: Vec::new(),
        });
        let top_params = files
            .iter()
            .flat_map(|a| a.model.functions.iter().map(move |f| (a, f)))
            .find(|(a, f)| a.source.rel == d.top.file && f.name == d.top.name)
            .map(|(_, f)| f.params.clone())
            .unwrap_or_default();
        generated = vitis::generate::generate(d, key, &manifest.probes, &top_params, v)?;
        if let Some(hw) = manifest.hw.as_mut() {
            hw.generated = generated.iter().map(|g| g.path.clone()).collect();
        }
    }
    Ok(Outcome { files: outcomes, manifest, errors, skipped, warnings, generated })
}

/// One warning per function whose m_axi ports have uses that are not counted (each is listed,
/// with its reason, under `uncounted` in the port's manifest entry).
fn uncounted_warnings(src: &SourceFile, model: &FileModel, plan: &crate::plan::FilePlan) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    let ports: Vec<_> = plan.probes.iter().filter_map(|p| Some((p.function, p.port.as_ref()?))).collect();
    while i < ports.len() {
        let fi = ports[i].0;
        let f = &model.functions[fi];
        let mut uses = Vec::new();
        while i < ports.len() && ports[i].0 == fi {
            let name = &f.maxi.params[ports[i].1.param].name;
            uses.extend(ports[i].1.uncounted.iter().map(|u| (u.line, u.column, name)));
            i += 1;
        }
        uses.sort();
        let uses: Vec<String> = uses.iter().map(|(l, c, name)| format!("`{name}` at {l}:{c}")).collect();
        if !uses.is_empty() {
            out.push(format!(
                "{}:{}:{}: warning: {}: {} m_axi {} not counted ({}); reasons under `uncounted` in the manifest",
                src.path.display(),
                f.line,
                f.col,
                f.qualified,
                uses.len(),
                if uses.len() == 1 { "use is" } else { "uses are" },
                uses.join(", ")
            ));
        }
    }
    out
}

fn analyze(input: &Input, kinds: Kinds) -> std::result::Result<Analyzed, Error> {
    let source = source::load(&input.path, &input.rel)?;
    if let Some((offset, marker)) = find_marker(&source.text) {
        let (line, col) = model::position(&source.text, offset);
        return Err(Error::new(
            ErrorKind::AlreadyInstrumented,
            format!(
                "already instrumented (found `{marker}`); run `hlsinstr strip` on it first instead of rewriting twice"
            ),
        )
        .at(&source.path)
        .at_line(line, col));
    }
    let tree = parse_cpp(&source.text, None);
    let mut model = model::build(&tree, &source.text);
    if kinds.maxi {
        model::maxi::attach(&mut model, &tree, &source.text);
    }
    Ok(Analyzed { source, model })
}

/// Apply a plan and check the result: it must parse no worse than the input, and stripping it
/// must give the input back byte for byte. Either failure is our bug: refuse to write.
fn emit_file(a: &Analyzed, plan: &crate::plan::FilePlan) -> std::result::Result<(FileOutcome, ManifestFile), Error> {
    let src = &a.source;
    let internal = |msg: String| {
        Error::new(
            ErrorKind::Internal,
            format!(
                "{msg}; nothing written for this file. Please report it with `hlsinstr rewrite --dump-tree` output"
            ),
        )
        .at(&src.path)
    };
    let output =
        apply(&src.text, plan.edits.clone()).map_err(|e| internal(format!("planned edits are inconsistent: {e}")))?;
    if !plan.edits.is_empty() {
        let before = a.model.error_count;
        let tree = parse_cpp(&output, None);
        let after = count_errors(tree.root_node());
        // When the input already has errors (`extern "C" {` opened under `#ifdef __cplusplus`),
        // tree-sitter's recovery around them may change with any edit elsewhere. What must hold
        // then is that every probed body still parses, cleanly, as a function body.
        let functions = plan.probes.iter().filter(|p| p.kind == ProbeKind::Function).count();
        if after > before && (before == 0 || clean_probed_bodies(tree.root_node(), &output) != functions) {
            return Err(internal(format!("rewritten file has {after} parse errors, the input had {before}")));
        }
        match strip(&output) {
            Ok(back) if back == src.text => {}
            _ => return Err(internal("stripping the rewritten file does not give the input back".into())),
        }
    }
    let newlines: Vec<(usize, usize)> = plan
        .edits
        .iter()
        .filter_map(|e: &Edit| match &e.piece {
            Piece::Raw(t) | Piece::Token(t) if t.contains('\n') => Some((e.range.start, t.matches('\n').count())),
            _ => None,
        })
        .collect();
    let mfile = ManifestFile {
        path: src.rel.clone(),
        original_sha256: manifest::sha256_hex(src.text.as_bytes()),
        instrumented_sha256: manifest::sha256_hex(output.as_bytes()),
        probes: plan.probes.len(),
        line_map: manifest::line_map(&src.text, &newlines),
    };
    Ok((FileOutcome { source: src.clone(), output, probes: plan.probes.len() }, mfile))
}

/// Function definitions whose body starts with a function probe and parses without errors.
pub fn clean_probed_bodies(node: tree_sitter::Node, text: &str) -> usize {
    let mut count = 0;
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "function_definition" {
            if let Some(body) = n.child_by_field_name("body") {
                let inner = text[body.byte_range()].get(1..).unwrap_or("").trim_start();
                if inner.starts_with("HLSINSTR_FUNC_BEGIN(") && !body.has_error() {
                    count += 1;
                }
            }
        }
        stack.extend(n.children(&mut n.walk()));
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::select::Kinds;

    #[test]
    fn input_parse_errors_outside_probed_bodies_do_not_block_the_rewrite() {
        // `extern "C" {` opened under `#ifdef __cplusplus`: the input parses with one error, and
        // tree-sitter recovers from it differently once the bodies are probed (two errors).
        let src = include_str!("../../tests/robustness/extern_c.cpp");
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.cpp");
        std::fs::write(&path, src).unwrap();
        let opts = RewriteOptions {
            kinds: Kinds::parse("modules").unwrap(),
            select: SelectOptions::default(),
            target: Target::Csim,
        };
        let out = rewrite(&[Input { path, rel: "k.cpp".into() }], &opts).unwrap();
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        let text = &out.files[0].output;
        let tree = parse_cpp(text, None);
        assert!(count_errors(tree.root_node()) > count_errors(parse_cpp(src, None).root_node()), "still the hard case");
        assert_eq!(clean_probed_bodies(tree.root_node(), text), out.files[0].probes);
        assert_eq!(strip(text).unwrap(), src);
    }
}
