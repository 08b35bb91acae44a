//! `hlsinstr diff`.

use super::{report, with_jobs, SelectArgs};
use clap::{Args, ValueEnum};
use hlsinstr::error::Error;
use hlsinstr::walk::discover;
use std::io::IsTerminal;

#[derive(Args, Debug)]
pub struct DiffArgs {
    #[command(flatten)]
    pub select: SelectArgs,
    /// Only a per-file summary of added and removed lines.
    #[arg(long)]
    pub stat: bool,
    #[arg(long, value_enum, default_value = "auto")]
    pub color: Color,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Color {
    Auto,
    Always,
    Never,
}

pub fn run_diff(args: DiffArgs) -> Result<i32, Error> {
    let options = args.select.options()?;
    let mut notes = Vec::new();
    let inputs = discover(&args.select.inputs, &[], &mut notes)?;
    for n in &notes {
        eprintln!("{n}");
    }
    let outcome = with_jobs(args.select.jobs, || hlsinstr::rewrite::rewrite(&inputs, &options))??;
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal(),
    };
    let mut total = (0, 0, 0);
    for f in &outcome.files {
        if args.stat {
            let (add, del) = hlsinstr::diff::stat(&f.source.text, &f.output);
            if add + del > 0 {
                println!("{} | +{add} -{del}", f.source.rel);
                total = (total.0 + 1, total.1 + add, total.2 + del);
            }
        } else {
            print!("{}", hlsinstr::diff::unified(&f.source.rel, &f.source.text, &f.output, color));
        }
    }
    if args.stat {
        println!("{} files changed, {} insertions(+), {} deletions(-)", total.0, total.1, total.2);
    }
    Ok(report(&outcome, false))
}
