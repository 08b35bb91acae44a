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
    let root = match &args.out {
        Some(out) => Some(emit::prepare_dir(out)?),
        None => None,
    };
    let mut failed = 0;
    let mut restored = 0;
    let inputs: Vec<_> = inputs.into_iter().filter(|i| !generated.contains(&i.rel)).collect();
    for input in &inputs {
        let result = hlsinstr::source::load(&input.path, &input.rel).and_then(|src| {
            let text = hlsinstr::strip::strip(&src.text)
                .map_err(|e| Error::new(ErrorKind::BadInput, format!("cannot strip: {e}")).at(&src.path))?;
            if let Some(expected) = originals.get(&input.rel) {
                if &manifest::sha256_hex(text.as_bytes()) != expected {
                    eprintln!(
                        "{}: restored text differs from the original recorded in the manifest (edited after rewrite?)",
                        input.path.display()
                    );
                }
            }
            if text != src.text {
                restored += 1;
            }
            match &root {
                Some(root) => emit::write_below(root, &input.rel, text.as_bytes(), Some(&input.path)).map(|_| ()),
                None if text != src.text => emit::atomic_write(&input.path, text.as_bytes()),
                None => Ok(()),
            }
        });
        if let Err(e) = result {
            eprintln!("hlsinstr: error: {e}");
            failed += 1;
        }
    }
    eprintln!("hlsinstr: stripped {restored} of {} files", inputs.len());
    Ok(if failed > 0 { EXIT_ERROR } else { EXIT_OK })
}
