//! The watch options `rewrite` and `sim` share (docs/watch.md), and their check against
//! `--probes`: one definition, so both commands take and refuse the same things.

use clap::Args;
use hlsinstr::error::{Error, ErrorKind};
use hlsinstr::select::{Kinds, WatchSpec};

#[derive(Args, Debug, Clone, Default)]
pub struct WatchArgs {
    /// `watch` probes: the watched element, `BUFFER[INDEX]` with BUFFER a pointer parameter
    /// (C++: a pointer or array parameter of --top) and INDEX a constant (e.g. `data_a[0]`).
    #[arg(long, value_name = "EXPR")]
    pub watch: Option<String>,
    /// `watch` probes: watch elements A .. B-1 of a pointer parameter, `BUFFER[A:B]`.
    #[arg(long, value_name = "EXPR")]
    pub watch_range: Option<String>,
    /// `BUFFER:N` also reports accesses through BUFFER outside elements [0, N) (C++: default
    /// the array size or the INTERFACE depth=).
    #[arg(long, value_name = "BUFFER:N")]
    pub bounds: Vec<String>,
    /// `watch` probes: every value stored to or loaded from the watched elements (or,
    /// with a free index such as `i`, the elements [0, N) of --bounds) must satisfy
    /// `BUFFER[I] OP C` (OP: < <= > >= ==); implies `--probes watch`.
    #[arg(long, value_name = "EXPR")]
    pub invariant: Option<String>,
}

impl WatchArgs {
    /// The probe kinds of `probes` (`--probes`) with these options: an invariant implies
    /// `watch`, and `watch` without watched elements (or elements without `watch`) is refused.
    pub fn kinds(&self, probes: &str) -> Result<(Kinds, Option<WatchSpec>), Error> {
        let mut kinds = Kinds::parse(probes)?;
        let watch = WatchSpec::parse(
            self.watch.as_deref(),
            self.watch_range.as_deref(),
            self.invariant.as_deref(),
            &self.bounds,
        )?;
        if self.invariant.is_some() {
            kinds.watch = true; // an invariant is checked at the watch sites
        }
        if kinds.watch != watch.is_some() {
            let msg = if kinds.watch {
                "`--probes watch` needs the watched elements: add --watch BUF[K], --watch-range 'BUF[A:B]' or --invariant 'BUF[I] OP C'"
            } else {
                "--watch and --watch-range go with `--probes watch`: add `watch` to --probes"
            };
            return Err(Error::new(ErrorKind::Usage, msg));
        }
        Ok((kinds, watch))
    }
}
