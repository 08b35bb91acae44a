//! The `hlsinstr` command: flags and exit codes only; the work happens in the library.

mod cli;

fn main() {
    std::process::exit(cli::run(std::env::args_os()));
}
