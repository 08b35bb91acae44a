//! `hlsinstr rewrite`.

use super::{report, with_jobs, SelectArgs, EXIT_ERROR, EXIT_OK};
use clap::Args;
use hlsinstr::emit::{self, manifest};
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::target::opencl::{HOST_HEADER, MARKER};
use hlsinstr::walk::discover;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct RewriteArgs {
    #[command(flatten)]
    pub select: SelectArgs,
    /// Output directory; the relative layout of the inputs is kept.
    #[arg(long, default_value = "hlsinstr-out", conflicts_with = "in_place")]
    pub out: PathBuf,
    /// Modify the input files themselves (the manifest goes beside them).
    #[arg(long)]
    pub in_place: bool,
    /// Where to write the manifest (default: `<out>/hlsinstr-manifest.json`).
    #[arg(long)]
    pub manifest: Option<PathBuf>,
    /// Treat a skipped function as an error: write nothing, exit 1.
    #[arg(long)]
    pub strict: bool,
    /// Print the tree-sitter syntax tree of each input and exit (for debugging).
    #[arg(long)]
    pub dump_tree: bool,
    /// No summary line.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run_rewrite(args: RewriteArgs) -> Result<i32, Error> {
    let options = args.select.options()?;
    let mut notes = Vec::new();
    let exclude = if args.in_place { vec![] } else { vec![args.out.clone()] };
    let inputs = discover(&args.select.inputs, &exclude, &mut notes)?;
    for n in &notes {
        eprintln!("{n}");
    }
    if inputs.is_empty() {
        return Err(Error::new(ErrorKind::Usage, "no C/C++ or OpenCL C (.cl) files found in the inputs"));
    }
    if args.dump_tree {
        for input in &inputs {
            let mut src = hlsinstr::source::load(&input.path, &input.rel)?;
            if hlsinstr::opencl::is_opencl_path(&input.path) {
                // The tree the rewrite works on: OpenCL-only syntax blanked.
                src.text = hlsinstr::opencl::blank(&src.text).text;
            }
            // C++ for C/C++ files, C for OpenCL C.
            let tree = hlsinstr::parse::parse(hlsinstr::parse::Lang::of_path(&input.path), &src.text, None);
            println!("== {}", input.path.display());
            print!("{}", hlsinstr::parse::dump_tree(&tree, &src.text));
        }
        return Ok(EXIT_OK);
    }
    let mut outcome = with_jobs(args.select.jobs, || hlsinstr::rewrite::rewrite(&inputs, &options))??;
    let code = report(&outcome, args.strict);
    if args.strict && code == EXIT_ERROR {
        eprintln!("hlsinstr: --strict: nothing written");
        return Ok(code);
    }

    let mut write_errors = 0;
    let manifest_path;
    if args.in_place && outcome.manifest.hw.is_some() {
        return Err(Error::new(
            ErrorKind::Usage,
            "--target vitis generates a build (new top, monitor, build files): write it to --out, not --in-place",
        ));
    }
    if args.in_place && !outcome.generated.is_empty() {
        // Generated files in the user's source tree would be taken for inputs next time.
        eprintln!("hlsinstr: --in-place: {} not written (rewrite with --out to get it)", HOST_HEADER);
        outcome.generated.clear();
        outcome.manifest.generated.clear();
    }
    if args.in_place {
        for f in outcome.files.iter().filter(|f| f.output != f.source.text) {
            if let Err(e) = emit::atomic_write(&f.source.path, f.output.as_bytes()) {
                eprintln!("hlsinstr: error: {e}");
                write_errors += 1;
            }
        }
        manifest_path = args.manifest.clone().unwrap_or_else(|| in_place_manifest(&args.select.inputs[0]));
        emit::atomic_write(&manifest_path, manifest_json(&outcome.manifest)?.as_bytes())?;
    } else {
        let root = emit::prepare_dir(&args.out)?;
        for g in outcome.generated.iter().filter(|g| g.path == HOST_HEADER) {
            refuse_user_file(&root.join(&g.path))?;
        }
        for f in &outcome.files {
            if let Err(e) = emit::write_below(&root, &f.source.rel, f.output.as_bytes(), Some(&f.source.path)) {
                eprintln!("hlsinstr: error: {e}");
                write_errors += 1;
            }
        }
        for g in &outcome.generated {
            if let Err(e) = emit::write_below(&root, &g.path, g.text.as_bytes(), None) {
                eprintln!("hlsinstr: error: {e}");
                write_errors += 1;
            }
        }
        let json = manifest_json(&outcome.manifest)?;
        manifest_path = match &args.manifest {
            Some(p) => {
                emit::atomic_write(p, json.as_bytes())?;
                p.clone()
            }
            None => emit::write_below(&root, manifest::FILE_NAME, json.as_bytes(), None)?,
        };
    }
    if !args.quiet && !outcome.generated.is_empty() {
        if let Some(hw) = &outcome.manifest.hw {
            eprintln!(
                "hlsinstr: in-FPGA build: new top {} with a monitor of {} probes; {} generated files (hls_config.cfg, run_hls.tcl, host/hlsinstr_host.cpp, ...)",
                hw.instr_top,
                hw.slots.len(),
                outcome.generated.len()
            );
        } else {
            eprintln!(
                "hlsinstr: OpenCL host helper {HOST_HEADER} for {} iBuffer units (build the kernels with -DHLSINSTR_OPENCL_IBUFFER -DHLSINSTR_NUM_IBUFFERS={})",
                outcome.manifest.probes.len(),
                outcome.manifest.probes.len()
            );
        }
    }
    if !args.quiet {
        let probed = outcome.files.iter().filter(|f| f.probes > 0).count();
        eprintln!(
            "hlsinstr: {} probes in {} of {} files; manifest {}",
            outcome.manifest.probes.len(),
            probed,
            outcome.files.len(),
            manifest_path.display()
        );
    }
    Ok(if write_errors > 0 { EXIT_ERROR } else { code })
}

/// A file of the generated header's name that this tool did not write is the user's: never
/// overwrite it.
fn refuse_user_file(path: &Path) -> Result<(), Error> {
    let first = std::fs::read(path).ok().map(|b| String::from_utf8_lossy(&b).lines().next().unwrap_or("").to_string());
    match first {
        Some(line) if !line.starts_with(MARKER) => Err(Error::new(
            ErrorKind::UnsafePath,
            format!(
                "exists and was not generated by hlsinstr; a rewrite of .cl kernels writes {HOST_HEADER} here: move \
                 the file or choose another --out"
            ),
        )
        .at(path)),
        _ => Ok(()),
    }
}

fn manifest_json(m: &manifest::Manifest) -> Result<String, Error> {
    serde_json::to_string_pretty(m)
        .map(|s| s + "\n")
        .map_err(|e| Error::new(ErrorKind::Internal, format!("cannot serialise the manifest: {e}")))
}

fn in_place_manifest(first_input: &Path) -> PathBuf {
    let dir = if first_input.is_dir() { first_input } else { first_input.parent().unwrap_or(Path::new(".")) };
    dir.join(manifest::FILE_NAME)
}
