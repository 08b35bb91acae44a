//! `hlsinstr man`: man pages generated from the same clap definitions `--help` prints, so they
//! cannot disagree with the binary.

use super::EXIT_OK;
use clap::{Args, Command};
use hlsinstr::error::{Error, ErrorKind};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write `hlsinstr.1` and one `hlsinstr-<subcommand>.1` per subcommand into this directory
    /// (created if missing) instead of printing `hlsinstr.1` to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

pub fn run_man(args: ManArgs, cmd: Command) -> Result<i32, Error> {
    let cmd = cmd.name("hlsinstr");
    let Some(dir) = args.out else {
        let mut page = Vec::new();
        render(&cmd, &mut page)?;
        use std::io::Write;
        std::io::stdout().write_all(&page).map_err(|e| Error::new(ErrorKind::Io, format!("stdout: {e}")))?;
        return Ok(EXIT_OK);
    };
    // Render everything first: nothing is written when one page fails.
    let mut pages = Vec::new();
    let mut main = Vec::new();
    render(&cmd, &mut main)?;
    pages.push(("hlsinstr.1".to_string(), main));
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("hlsinstr-{}", sub.get_name());
        let mut page = Vec::new();
        render(&sub.clone().name(name.clone()), &mut page)?;
        pages.push((format!("{name}.1"), page));
    }
    let io = |e: std::io::Error, what: &std::path::Path| Error::new(ErrorKind::Io, format!("{}: {e}", what.display()));
    std::fs::create_dir_all(&dir).map_err(|e| io(e, &dir))?;
    for (file, page) in &pages {
        let path = dir.join(file);
        std::fs::write(&path, page).map_err(|e| io(e, &path))?;
    }
    println!("hlsinstr: {} man pages in {}", pages.len(), dir.display());
    Ok(EXIT_OK)
}

fn render(cmd: &Command, out: &mut Vec<u8>) -> Result<(), Error> {
    clap_mangen::Man::new(cmd.clone())
        .render(out)
        .map_err(|e| Error::new(ErrorKind::Io, format!("cannot render the man page of {}: {e}", cmd.get_name())))
}
