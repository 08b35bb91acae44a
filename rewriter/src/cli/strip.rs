//! `hlsinstr strip`.

use super::{EXIT_ERROR, EXIT_OK};
use clap::Args;
use hlsinstr::emit::{self, manifest};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::walk::discover;
use std::collections::HashMap;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct StripArgs {
    /// Instrumented files or directories (an output directory of `rewrite`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where to write the restored sources.
    #[arg(long, required_unless_present = "in_place", conflicts_with = "in_place")]
    pub out: Option<PathBuf>,
    /// Restore the files where they are.
    #[arg(long)]
    pub in_place: bool,
    /// Strip files whose markers hold code that is not probe text (added or edited by hand):
    /// that code stays where it is (a block keeps its braces) and each place is reported.
    /// Without it such a file is refused and nothing is written.
    #[arg(long)]
    pub force: bool,
}

pub fn run_strip(args: StripArgs) -> Result<i32, Error> {
    let mut notes = Vec::new();
    let exclude: Vec<PathBuf> = args.out.iter().cloned().collect();
    let inputs = discover(&args.inputs, &exclude, &mut notes)?;
    for n in &notes {
        eprintln!("{n}");
    }
    // Original hashes from any manifest found at the input roots, to confirm exact restores.
    let mut originals: HashMap<String, String> = HashMap::new();
    // Files an in-FPGA build generated (new top, monitor, hls-lib copy) or an OpenCL rewrite
    // (hlsinstr_ocl_host.h): not the user's, left out.
    let mut generated: std::collections::HashSet<String> = std::collections::HashSet::new();
    for root in args.inputs.iter().filter(|p| p.is_dir()) {
        if let Ok(text) = std::fs::read_to_string(root.join(manifest::FILE_NAME)) {
            match serde_json::from_str::<manifest::Manifest>(&text) {
                Ok(m) if m.version == manifest::VERSION => {
                    generated.extend(m.hw.iter().flat_map(|h| h.generated.iter().cloned()));
                    generated.extend(m.generated.iter().cloned());
                    originals.extend(m.files.into_iter().map(|f| (f.path, f.original_sha256)));
                }
                Ok(m) => eprintln!(
                    "{}: manifest version {} (this hlsinstr reads {}); restores are not cross-checked",
                    root.join(manifest::FILE_NAME).display(),
                    m.version,
                    manifest::VERSION
                ),
                Err(e) => eprintln!(
                    "{}: unreadable manifest ({e}); restores are not cross-checked",
                    root.join(manifest::FILE_NAME).display()
                ),
            }
        }
    }
    let inputs: Vec<_> = inputs.into_iter().filter(|i| !generated.contains(&i.rel)).collect();
    if let Some(out) = &args.out {
        let paths: Vec<&std::path::Path> = inputs.iter().map(|i| i.path.as_path()).collect();
        emit::refuse_inputs_inside(out, &paths)?;
    }
    let out_dir = match &args.out {
        Some(out) => Some(emit::OutputDir::open(out)?),
        None => None,
    };
    let mut failed = Vec::new();
    let mut restored = Vec::new();
    for input in &inputs {
        let result = hlsinstr::source::load(&input.path, &input.rel).and_then(|src| {
            let opts = hlsinstr::strip::StripOptions { force: args.force };
            let stripped = hlsinstr::strip::strip_with(&src.text, &opts).map_err(|e| {
                let (line, col) = hlsinstr::strip::line_col(&src.text, e.offset);
                Error::new(
                    ErrorKind::BadInput,
                    format!("cannot strip: {} (--force keeps such code in place)", e.message),
                )
                .at(&src.path)
                .at_line(line, col)
            })?;
            for k in &stripped.kept {
                let (line, col) = hlsinstr::strip::line_col(&src.text, k.offset);
                eprintln!("{}:{line}:{col}: --force: kept: {}", src.path.display(), k.message);
            }
            let text = stripped.text;
            if let Some(expected) = originals.get(&input.rel) {
                if &manifest::sha256_hex(text.as_bytes()) != expected {
                    eprintln!(
                        "{}: restored text differs from the original recorded in the manifest (edited after rewrite?)",
                        input.path.display()
                    );
                }
            }
            Ok((text, src.text))
        });
        match result {
            Ok((text, original)) => restored.push((input, text, original)),
            Err(e) => {
                eprintln!("hlsinstr: error: {e}");
                failed.push(input.path.display().to_string());
            }
        }
    }
    if !failed.is_empty() {
        // All or nothing: a half-stripped tree would build, and pass for the original.
        eprintln!(
            "hlsinstr: nothing written: {} of {} files cannot be stripped ({}); fix them (or pass --force)",
            failed.len(),
            inputs.len(),
            failed.join(", ")
        );
        return Ok(EXIT_ERROR);
    }
    let changed = restored.iter().filter(|(_, text, original)| text != original).count();
    match out_dir {
        Some(mut out) => {
            for (input, text, _) in &restored {
                out.add(&input.rel, text.as_bytes(), Some(&input.path))?;
            }
            out.commit()?;
        }
        None => {
            let mut staged = emit::InPlace::new();
            for (input, text, original) in &restored {
                if text != original {
                    staged.add(&input.path, text.as_bytes())?;
                }
            }
            staged.commit()?;
        }
    }
    eprintln!("hlsinstr: stripped {changed} of {} files", inputs.len());
    Ok(EXIT_OK)
}
