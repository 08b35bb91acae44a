//! `hlsinstr rewrite`.

use super::{report, with_jobs, SelectArgs, EXIT_ERROR, EXIT_OK};
use clap::Args;
use hlsinstr::emit;
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::fpga::opencl::HOST_HEADER;
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
    // Checked before any work: nothing is written when the output would land among the inputs,
    // and a second run into the same directory is refused while this one holds its lock.
    let input_paths: Vec<&Path> = inputs.iter().map(|i| i.path.as_path()).collect();
    if !args.in_place {
        emit::refuse_inputs_inside(&args.out, &input_paths)?;
    }
    if let Some(m) = &args.manifest {
        if input_paths.iter().any(|p| same_path(p, m)) {
            return Err(Error::new(ErrorKind::Usage, "--manifest names an input file; choose another path").at(m));
        }
    }
    let out_dir = if args.in_place { None } else { Some(emit::OutputDir::open(&args.out)?) };
    let mut outcome = with_jobs(args.select.jobs, || hlsinstr::rewrite::rewrite(&inputs, &options))??;
    let code = report(&outcome, args.strict);
    if !outcome.errors.is_empty() {
        // All or nothing: a partial tree (or a manifest without the failed files) would pass
        // for a complete rewrite.
        let failed: std::collections::BTreeSet<String> = outcome
            .errors
            .iter()
            .map(|e| e.path.as_ref().map_or_else(String::new, |p| p.display().to_string()))
            .collect();
        eprintln!(
            "hlsinstr: nothing written: {} of {} input files failed ({}); fix them, or leave them out of the inputs",
            failed.len(),
            inputs.len(),
            failed.into_iter().filter(|f| !f.is_empty()).collect::<Vec<_>>().join(", ")
        );
        return Ok(EXIT_ERROR);
    }
    if args.strict && code == EXIT_ERROR {
        eprintln!("hlsinstr: --strict: nothing written");
        return Ok(code);
    }

    let dest = match out_dir {
        // The kernels' own headers go with them, so that the output builds on its own.
        Some(dir) => emit::Destination::Dir {
            dir,
            manifest: args.manifest.clone(),
            copies: hlsinstr::emulate::carried_headers(&inputs),
        },
        None => emit::Destination::InPlace {
            manifest: args.manifest.clone().unwrap_or_else(|| emit::in_place_manifest(&args.select.inputs[0])),
        },
    };
    let written = hlsinstr::timings::time("write", || emit::write(&mut outcome, dest))?;
    hlsinstr::timings::report();
    for n in &written.notes {
        eprintln!("{n}");
    }
    let manifest_path = written.manifest;
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
    Ok(code)
}

fn same_path(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(a), Ok(b)) if a == b)
}
