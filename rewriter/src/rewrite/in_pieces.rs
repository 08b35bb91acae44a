//! The whole pipeline of one large file a piece at a time: parse → model → select → plan → edit →
//! check, and the manifest's entries, piece after piece, each piece's tree, model and plan
//! dropped before the next is parsed.
//!
//! Why: a syntax tree takes ~55 bytes per byte of dense C++ and the model ~18; held for a 40 MB
//! file they pass 1 GB. The parse and the model already went a piece at a time (see
//! [`super::model_in_pieces`]), but the joined model, the plan and the check of the output were
//! still the whole file's. Here only one piece's are alive, and the check re-parses each piece's
//! output incrementally from that piece's input tree, still at hand, instead of parsing the whole
//! output afresh.
//!
//! Why the result is the whole file's: the pieces are whole top-level items (see
//! [`crate::top_level`]); a piece is refused (the file goes the whole-file way) when it has a
//! syntax error or a macro hiding a `return`, as in [`model::build_in_pieces`]. With no `--top`,
//! marks, m_axi ports, watch or stall ([`super::streamable`]) what is probed in a function
//! depends on that function alone, ids are handed out in source order, and every edit lies
//! inside its function, so the plans of the pieces are the plan of the whole less its include
//! line (added here once the file is known to have probes). The edits of a piece are applied
//! with the whole text around them ([`apply_within`]), so the outputs joined are the whole
//! output. The diagnostics keep the whole file's order (every skip, then every dropped function,
//! then the warnings by kind). The unit test `a_file_rewritten_in_pieces_gets_the_outcome_of_the_whole`
//! compares outputs, manifests and diagnostics of every golden input cut after every item.

use super::*;
use crate::edit::apply_within;
use crate::emit::manifest::{BranchTrace, ProbeEntry};
use crate::model::PieceModels;
use crate::parse::parse_piece;
use crate::plan::include_edit;

/// How a file went.
pub(super) enum Piecewise {
    Done(SourceFile, Box<Pieced>),
    /// Not cut, or a piece refused, or something that needs the whole file's view (an edit
    /// outside its piece, a check that failed: the whole-file path gives the verdict and its
    /// message): rewrite it the whole-file way. Nothing of it was kept.
    Whole(SourceFile),
}

/// What a file rewritten in pieces adds to the outcome and the manifest.
pub(super) struct Pieced {
    pub output: String,
    /// Probes and record sites, as [`FileOutcome::probes`] counts them.
    pub counted: usize,
    pub mfile: ManifestFile,
    pub entries: Vec<ProbeEntry>,
    pub branches: Option<BranchTrace>,
    pub skipped: Vec<(String, Skipped)>,
    pub warnings: Vec<String>,
    pub next_id: u32,
}

/// Whether `source` goes this way: a C++ file too large to keep its tree (OpenCL C is blanked
/// and checked as a whole; it goes the other way). `streamable` is the caller's condition.
pub(super) fn wanted(source: &SourceFile, scale: Scale) -> bool {
    source.text.len() > scale.keep_trees_up_to && !opencl::is_opencl_path(&source.path)
}

/// Rewrite `source` in pieces of about `scale.piece` bytes, ids from `next_id` on.
pub(super) fn rewrite(
    source: SourceFile,
    opts: &RewriteOptions,
    detail: LoopDetail,
    next_id: u32,
    scale: Scale,
) -> Piecewise {
    match run(&source, opts, detail, next_id, scale) {
        Some(pieced) => Piecewise::Done(source, Box::new(pieced)),
        None => Piecewise::Whole(source),
    }
}

/// The skips and warnings of the pieces, by kind, so that they join in the whole file's order
/// (see [`diagnose`]).
#[derive(Default)]
struct Diagnostics {
    skipped: Vec<(String, Skipped)>,
    dropped: Vec<(String, Skipped)>,
    model_warnings: Vec<String>,
    plan_warnings: Vec<String>,
}

fn run(source: &SourceFile, opts: &RewriteOptions, detail: LoopDetail, next_id: u32, scale: Scale) -> Option<Pieced> {
    let text = source.text.as_str();
    let kinds = opts.kinds;
    // Stage 1, parse: the parser sees the blanked text (see `cpp_blank`), the rest the original.
    let cpp_blanked = crate::timings::time("analyze: cpp_blank", || crate::cpp_blank::blank(text));
    let parsed = cpp_blanked.as_ref().map_or(text, |b| b.text.as_str());
    let pieces = crate::timings::time("analyze: top-level scan", || crate::top_level::pieces(parsed, scale.piece));
    if pieces.len() < 2 {
        return None;
    }
    // The output of a piece is blanked for its check the way the whole output would be: with
    // the whole file's specifier macros (every other blanking rule reads within an item).
    let macros = cpp_blanked.is_some().then(|| crate::cpp_blank::specifier_macros(text));
    let lang = Lang::of_path(&source.path);
    let modeller = PieceModels::new(text, detail);
    let mut id = next_id;
    let mut output = String::with_capacity(text.len() + text.len() / 2);
    let (mut newlines, mut entries, mut diagnostics) = (Vec::new(), Vec::new(), Diagnostics::default());
    let mut branches = kinds.branches.then(BranchTrace::default);
    let (mut probes, mut counted) = (0, 0);
    let (mut edited, mut all_clean) = (false, true);
    for (i, piece) in pieces.iter().enumerate() {
        let range = piece.start_byte..piece.end_byte;
        let tree = crate::timings::time("analyze: parse piece", || parse_piece(lang, parsed, *piece));
        // Stage 2, model.
        let mut model = modeller.model(&tree, range.clone())?;
        if kinds.branches {
            crate::timings::time("analyze: attach + cuts", || crate::cfg::build::attach(&mut model, &tree, text));
        }
        // Stage 3, select and plan.
        let selection = crate::timings::time("select", || select(std::slice::from_ref(&model), kinds, &opts.select));
        let selection = selection.ok()?.pop()?;
        let target = PlanTarget { piece: true, ..PlanTarget::default() };
        let plan = crate::timings::time("plan", || plan_file(source, &model, &selection, kinds, target, &mut id));
        diagnostics.add(source, &model, &plan);
        // Stage 4, edit: every edit inside the piece (the last one ends with the text).
        let last = i + 1 == pieces.len();
        if plan
            .edits
            .iter()
            .any(|e| e.range.start < range.start || e.range.end > range.end || (!last && e.range.end == range.end))
        {
            return None;
        }
        if let Some(b) = &cpp_blanked {
            if plan.edits.iter().any(|e| b.inside(e.range.start).or(b.inside(e.range.end)).is_some()) {
                return None; // the whole-file path reports it
            }
        }
        let out_start = output.len();
        let changes =
            crate::timings::time("emit: apply", || apply_within(text, range.clone(), &plan.edits, &mut output)).ok()?;
        // Stage 5, check this piece's output (see `check_piece`).
        if !plan.edits.is_empty() {
            edited = true;
            let clean = crate::timings::time("emit: check piece (incremental)", || {
                check_piece(
                    lang,
                    tree,
                    piece,
                    &parsed[range.clone()],
                    &output[out_start..],
                    &changes,
                    out_start,
                    macros.as_deref(),
                )
            });
            all_clean &= clean;
        }
        newlines.extend(inserted_newlines(&plan));
        // Stage 6, the manifest's entries of the piece, while its model is alive.
        crate::timings::time("collect (manifest entries)", || {
            entries.extend(describe(&source.rel, &model, &plan, opts));
            if let Some(b) = &mut branches {
                b.add(&source.rel, &model, &plan);
            }
        });
        probes += plan.probes.len();
        counted += plan.probes.len() + plan.sites.len();
    }
    drop(modeller);
    if counted > 0 {
        // The include line the plans of the pieces left out (see `PlanTarget::piece`).
        let include = include_edit(source, PlanTarget::default());
        let Piece::Raw(line) = &include.piece else { unreachable!("the include is a raw line") };
        output.insert_str(include.range.start, line);
        newlines.push((include.range.start, line.matches('\n').count()));
    }
    if edited {
        // A piece that shows errors: the whole output is judged as `emit_file` judges it (the
        // whole-file path then, with its message, when that shows errors too).
        if !all_clean {
            let blanked = macros.is_some().then(|| crate::cpp_blank::blank(&output)).flatten();
            let whole = blanked.as_ref().map_or(output.as_str(), |b| b.text.as_str());
            let errors =
                crate::timings::time("emit: check reparse", || count_errors(parse(lang, whole, None).root_node()));
            if errors > 0 {
                return None;
            }
        }
        match crate::timings::time("emit: strip round trip", || strip(&output)) {
            Ok(back) if back == text => {}
            _ => return None,
        }
    }
    let mfile = crate::timings::time("emit: sha + line map", || ManifestFile {
        path: source.rel.clone(),
        original_sha256: manifest::sha256_hex(text.as_bytes()),
        instrumented_sha256: manifest::sha256_hex(output.as_bytes()),
        probes,
        line_map: manifest::line_map(text, &newlines),
    });
    let Diagnostics { mut skipped, dropped, mut model_warnings, plan_warnings } = diagnostics;
    skipped.extend(dropped);
    model_warnings.extend(plan_warnings);
    Some(Pieced { output, counted, mfile, entries, branches, skipped, warnings: model_warnings, next_id: id })
}

impl Diagnostics {
    /// One piece's, in the order [`diagnose`] reports a file's.
    fn add(&mut self, source: &SourceFile, model: &FileModel, plan: &crate::plan::FilePlan) {
        let (mut skipped, mut warnings) = (Vec::new(), Vec::new());
        let model_skips = model.skipped.len();
        let model_warnings = model.warnings.len();
        diagnose(source, model, plan, None, &mut skipped, &mut warnings);
        self.dropped.extend(skipped.split_off(model_skips));
        self.skipped.extend(skipped);
        self.plan_warnings.extend(warnings.split_off(model_warnings));
        self.model_warnings.extend(warnings);
    }
}

/// Whether the output of one piece parses without errors, re-parsed incrementally from the
/// piece's input `tree`: the tree is moved to the piece's own coordinates (the text before it
/// deleted), edited with the piece's changes, and the piece's output (`out`, starting at
/// `out_start` of the whole output) parsed with it; tree-sitter re-uses what the edits left
/// intact and yields the tree a fresh parse would. Error recovery is where the two may differ,
/// so on errors the piece is parsed afresh too. Pieces of whole top-level items that each parse
/// cleanly make a text that does (see `pieces_parse_clean`).
#[allow(clippy::too_many_arguments)]
fn check_piece(
    lang: Lang,
    mut tree: Tree,
    piece: &tree_sitter::Range,
    parsed_in: &str,
    out: &str,
    changes: &[Change],
    out_start: usize,
    macros: Option<&[String]>,
) -> bool {
    // C++ whose input was blanked is judged blanked (see `emit_file`); `macros` then holds the
    // whole file's specifier macros.
    let blanked = macros.and_then(|m| crate::cpp_blank::blank_with(out, m));
    let out = blanked.as_ref().map_or(out, |b| b.text.as_str());
    let origin = Point { row: 0, column: 0 };
    if piece.start_byte > 0 {
        tree.edit(&InputEdit {
            start_byte: 0,
            old_end_byte: piece.start_byte,
            new_end_byte: 0,
            start_position: origin,
            old_end_position: piece.start_point,
            new_end_position: origin,
        });
    }
    let local: Vec<Change> = changes
        .iter()
        .map(|c| Change {
            old: c.old.start - piece.start_byte..c.old.end - piece.start_byte,
            new: c.new.start - out_start..c.new.end - out_start,
        })
        .collect();
    for edit in input_edits(parsed_in, out, &local) {
        tree.edit(&edit);
    }
    if count_errors(parse(lang, out, Some(&tree)).root_node()) == 0 {
        return true;
    }
    count_errors(parse(lang, out, None).root_node()) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::Rank;

    #[test]
    fn a_piece_is_checked_from_its_own_tree_moved_to_its_own_coordinates() {
        let src = "int f(int x) { return x; }\n// between\nint g(int y) {\n  return y;\n}\n";
        let pieces = crate::top_level::pieces(src, 1);
        let piece = *pieces.last().unwrap();
        assert!(src[piece.start_byte..].starts_with("int g"), "{pieces:?}");
        let range = piece.start_byte..piece.end_byte;
        let body = src.find("{\n  return y").unwrap() + 1;
        let check = |edits: Vec<Edit>| {
            // The output so far holds the first piece, as in a run.
            let mut out = src[..range.start].to_string();
            let out_start = out.len();
            let changes = apply_within(src, range.clone(), &edits, &mut out).unwrap();
            let tree = parse_piece(Lang::Cpp, src, piece);
            check_piece(Lang::Cpp, tree, &piece, &src[range.clone()], &out[out_start..], &changes, out_start, None)
        };
        assert!(check(vec![Edit::token(body, "HLSINSTR_FUNC_BEGIN(1, P);", Rank::open(0, 1))]));
        assert!(!check(vec![Edit::raw(body, "{", Rank::open(0, 1))]), "an unbalanced brace is an error");
        let ret = src.find("return y").unwrap() + "return ".len();
        let wrapped = vec![Edit::raw(ret, "R(", Rank::open(0, 0)), Edit::raw(ret + 1, ")", Rank::close(0, 0))];
        assert!(check(wrapped));
        assert!(!check(vec![Edit::raw(ret, "(", Rank::open(0, 0))]));
    }
}
