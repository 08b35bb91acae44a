//! Optimization directives kept in the project instead of the source: `syn.directive.<kind>=...`
//! lines of a config file and `set_directive_<kind> ...` commands of a Tcl script (often in a
//! `directives.tcl` the script `source`s). They say what a `#pragma HLS <kind>` would say, for a
//! place named `function[/label]`. Reading them only records them; `sim::directives::apply`
//! puts what the cycle model uses into a manifest's probes. Syntax: docs/directives.md.

use serde::{Deserialize, Serialize};

/// What a directive does; the kinds the cycle model reads have a name of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DirectiveKind {
    Pipeline,
    Unroll,
    LoopFlatten,
    Dataflow,
    Inline,
    LoopTripcount,
    Stream,
    /// Any other kind (`interface`, `array_partition`, ...), lower case as written.
    Other(String),
}

impl DirectiveKind {
    /// The kind named `name` (`pipeline`, `loop_tripcount`, ...), case-insensitive.
    pub fn from_name(name: &str) -> DirectiveKind {
        match name.to_ascii_lowercase().as_str() {
            "pipeline" => DirectiveKind::Pipeline,
            "unroll" => DirectiveKind::Unroll,
            "loop_flatten" => DirectiveKind::LoopFlatten,
            "dataflow" => DirectiveKind::Dataflow,
            "inline" => DirectiveKind::Inline,
            "loop_tripcount" => DirectiveKind::LoopTripcount,
            "stream" => DirectiveKind::Stream,
            other => DirectiveKind::Other(other.to_string()),
        }
    }

    /// The lower-case name, as in `set_directive_<name>`.
    pub fn name(&self) -> &str {
        match self {
            DirectiveKind::Pipeline => "pipeline",
            DirectiveKind::Unroll => "unroll",
            DirectiveKind::LoopFlatten => "loop_flatten",
            DirectiveKind::Dataflow => "dataflow",
            DirectiveKind::Inline => "inline",
            DirectiveKind::LoopTripcount => "loop_tripcount",
            DirectiveKind::Stream => "stream",
            DirectiveKind::Other(name) => name,
        }
    }

    /// Options written without a value (`off`, `rewind`): in a config line they are bare words
    /// like the location, so they must be known to tell the two apart.
    fn flags(&self) -> &'static [&'static str] {
        match self {
            DirectiveKind::Pipeline => &["off", "rewind", "enable_flush"],
            DirectiveKind::Unroll => &["off", "skip_exit_check"],
            DirectiveKind::LoopFlatten => &["off"],
            DirectiveKind::Dataflow => &["disable_start_propagation"],
            DirectiveKind::Inline => &["off", "recursive", "region"],
            DirectiveKind::Stream => &["off"],
            DirectiveKind::LoopTripcount | DirectiveKind::Other(_) => &[],
        }
    }

    /// Tcl options that take a value (`-II 2`). Unknown options of other kinds are guessed.
    fn valued(&self) -> &'static [&'static str] {
        match self {
            DirectiveKind::Pipeline => &["ii", "style"],
            DirectiveKind::Unroll => &["factor"],
            DirectiveKind::LoopTripcount => &["min", "max", "avg"],
            DirectiveKind::Stream => &["depth", "type", "dim", "variable"],
            _ => &[],
        }
    }

    /// Kinds whose location is followed by a variable (`set_directive_stream -depth 8 f s`).
    fn takes_variable(&self) -> bool {
        matches!(self, DirectiveKind::Stream | DirectiveKind::Other(_))
    }
}

/// One directive, as read from the project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directive {
    pub kind: DirectiveKind,
    /// The function of the location, as written (may be qualified: `ns::f`).
    pub function: String,
    /// The loop or region label of the location (`function/label`), if any.
    pub label: Option<String>,
    /// `(name, value)`, names lower case without `-` (`ii`, `factor`, `min`, `depth`); a second
    /// bare word after the location (the variable of `stream`, `array_partition`, ...) is
    /// `("variable", word)`.
    pub options: Vec<(String, String)>,
    /// Options without a value, lower case without `-` (`off`, `rewind`, `skip_exit_check`).
    pub flags: Vec<String>,
    /// Where it was written: `file name:line`.
    pub origin: String,
}

impl Directive {
    pub fn option(&self, name: &str) -> Option<&str> {
        self.options.iter().rev().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }

    /// `off`, or `off=true` (the form newer config files use).
    pub fn is_off(&self) -> bool {
        self.has_flag("off")
            || self.option("off").is_some_and(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "1" | "yes"))
    }

    /// The location as written: `function` or `function/label`.
    pub fn location(&self) -> String {
        match &self.label {
            Some(l) => format!("{}/{l}", self.function),
            None => self.function.clone(),
        }
    }

    /// How it was written: `syn.directive.<kind>` in a config file, `set_directive_<kind>` in Tcl.
    pub fn command(&self) -> String {
        let file = self.origin.rsplit_once(':').map_or(self.origin.as_str(), |(f, _)| f);
        if file.to_ascii_lowercase().ends_with(".cfg") {
            format!("syn.directive.{}", self.kind.name())
        } else {
            format!("set_directive_{}", self.kind.name())
        }
    }

    /// `set_directive_pipeline top/loop (run_hls.tcl:7)`: how messages name it.
    pub fn describe(&self) -> String {
        format!("{} {} ({})", self.command(), self.location(), self.origin)
    }
}

/// A config line `syn.directive.<kind>=<value>`: options `name=value`, flags and the location in
/// any order (Vitis writes the location first, UG1399 shows the options first). `Err` says why
/// the line cannot be used.
pub(crate) fn from_cfg(kind: &str, value: &str, origin: String) -> Result<Directive, String> {
    if kind.is_empty() {
        return Err("no directive kind after `syn.directive.` (write e.g. `syn.directive.pipeline=f/L II=2`)".into());
    }
    let kind = DirectiveKind::from_name(kind);
    let (words, open) = super::split_flags(value);
    if open {
        return Err("unterminated quote".into());
    }
    // `II = 2` is one option, as in a pragma.
    let mut tokens: Vec<String> = Vec::new();
    for w in words {
        match tokens.last_mut() {
            Some(t) if t.ends_with('=') || w.starts_with('=') => t.push_str(&w),
            _ => tokens.push(w),
        }
    }
    let mut options = Vec::new();
    let mut bare = Vec::new();
    for t in tokens {
        match t.split_once('=') {
            Some(("", _)) => return Err(format!("`{t}` has no option name before `=`")),
            Some((k, v)) => options.push((k.to_ascii_lowercase(), v.to_string())),
            None => bare.push(t),
        }
    }
    let known = kind.flags();
    let at = bare.iter().position(|w| !known.contains(&w.to_ascii_lowercase().as_str()));
    let Some(at) = at else {
        return Err(format!("no location (write `syn.directive.{}=<function>[/<label>] [options]`)", kind.name()));
    };
    let location = bare.remove(at);
    finish(kind, &location, options, Vec::new(), bare, origin)
}

/// A Tcl command `set_directive_<kind> [-option value | -flag]... <location> [variable]`, its
/// words already substituted. `Err` says why it cannot be used.
pub(crate) fn from_tcl(kind: &str, args: &[&str], origin: String) -> Result<Directive, String> {
    if kind.is_empty() {
        return Err("no directive kind after `set_directive_`".into());
    }
    let kind = DirectiveKind::from_name(kind);
    let is_option = |t: &str| t.len() > 1 && t.starts_with('-') && !t[1..].starts_with(|c: char| c.is_ascii_digit());
    let mut options = Vec::new();
    let mut flags = Vec::new();
    let mut positional: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let t = args[i];
        if !is_option(t) {
            positional.push(t.to_string());
            i += 1;
            continue;
        }
        if let Some((k, v)) = t[1..].split_once('=') {
            options.push((k.to_ascii_lowercase(), v.to_string()));
            i += 1;
            continue;
        }
        let name = t[1..].to_ascii_lowercase();
        let next = args.get(i + 1).copied().filter(|n| !is_option(n));
        // A known flag takes no value. A known valued option takes the next word. An unknown
        // option takes it only when a word is left for the location after it.
        let valued = !kind.flags().contains(&name.as_str())
            && next.is_some()
            && (kind.valued().contains(&name.as_str()) || args[i + 2..].iter().any(|w| !is_option(w)));
        match (valued, next) {
            (true, Some(v)) => {
                options.push((name, v.to_string()));
                i += 2;
            }
            _ if kind.valued().contains(&name.as_str()) => return Err(format!("`{t}` needs a value")),
            _ => {
                flags.push(name);
                i += 1;
            }
        }
    }
    if positional.is_empty() {
        return Err(format!("no location (write `set_directive_{} [options] <function>[/<label>]`)", kind.name()));
    }
    let location = positional.remove(0);
    finish(kind, &location, options, flags, positional, origin)
}

/// The location split, and the words after it sorted into the variable and flags.
fn finish(
    kind: DirectiveKind,
    location: &str,
    mut options: Vec<(String, String)>,
    mut flags: Vec<String>,
    rest: Vec<String>,
    origin: String,
) -> Result<Directive, String> {
    let location = location.trim();
    let (function, label) = match location.split_once('/') {
        Some((f, l)) => (f.trim(), Some(l.trim()).filter(|l| !l.is_empty())),
        None => (location, None),
    };
    if function.is_empty() {
        return Err(format!("location `{location}` has no function (write `<function>[/<label>]`)"));
    }
    for w in rest {
        let lower = w.to_ascii_lowercase();
        if kind.flags().contains(&lower.as_str()) {
            flags.push(lower);
        } else if kind.takes_variable() && !options.iter().any(|(k, _)| k == "variable") {
            options.push(("variable".to_string(), w));
        } else if matches!(kind, DirectiveKind::Other(_)) && !w.contains('/') {
            // The flags of kinds not modelled are not known: a bare word after the port is one
            // (`syn.directive.interface=top in_val register`, Vitis' unified config).
            flags.push(lower);
        } else {
            return Err(format!("unexpected word `{w}` after the location `{location}`"));
        }
    }
    Ok(Directive { kind, function: function.to_string(), label: label.map(str::to_string), options, flags, origin })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(kind: &str, value: &str) -> Directive {
        from_cfg(kind, value, "hls_config.cfg:3".into()).unwrap()
    }

    fn tcl(kind: &str, args: &[&str]) -> Directive {
        from_tcl(kind, args, "directives.tcl:1".into()).unwrap()
    }

    fn opts(d: &Directive) -> Vec<(&str, &str)> {
        d.options.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect()
    }

    #[test]
    fn cfg_location_first_or_last() {
        let d = cfg("pipeline", "top/loop1 II=2");
        assert_eq!(
            (d.kind.clone(), d.function.as_str(), d.label.as_deref()),
            (DirectiveKind::Pipeline, "top", Some("loop1"))
        );
        assert_eq!(opts(&d), [("ii", "2")]);
        assert_eq!(d.command(), "syn.directive.pipeline");
        assert_eq!(d.describe(), "syn.directive.pipeline top/loop1 (hls_config.cfg:3)");
        // UG1399 order: options first.
        let d = cfg("unroll", "skip_exit_check factor=4 foo/L2");
        assert_eq!((d.function.as_str(), d.label.as_deref()), ("foo", Some("L2")));
        assert_eq!(opts(&d), [("factor", "4")]);
        assert_eq!(d.flags, ["skip_exit_check"]);
        let d = cfg("loop_tripcount", "min=1 avg=2 max=4 dut/L1");
        assert_eq!(opts(&d), [("min", "1"), ("avg", "2"), ("max", "4")]);
        let d = cfg("loop_tripcount", "f/L min = 1 max= 64 avg =32");
        assert_eq!(opts(&d), [("min", "1"), ("max", "64"), ("avg", "32")]);
    }

    #[test]
    fn cfg_flags_functions_and_variables() {
        let d = cfg("dataflow", "top");
        assert_eq!((d.kind.clone(), d.function.as_str(), d.label.clone()), (DirectiveKind::Dataflow, "top", None));
        let d = cfg("inline", "f off");
        assert!(d.is_off() && d.label.is_none());
        let d = cfg("inline", "off f");
        assert_eq!(d.function, "f");
        assert!(d.is_off());
        let d = cfg("loop_flatten", "f/L off");
        assert_eq!(d.kind, DirectiveKind::LoopFlatten);
        assert!(d.is_off());
        let d = cfg("unroll", "f/L off=true");
        assert!(d.is_off() && d.flags.is_empty());
        let d = cfg("stream", "depth=4 type=fifo dut fifo");
        assert_eq!((d.kind.clone(), d.function.as_str()), (DirectiveKind::Stream, "dut"));
        assert_eq!(opts(&d), [("depth", "4"), ("type", "fifo"), ("variable", "fifo")]);
        let d = cfg("interface", "cpp_ap_fixed in_val mode=s_axilite");
        assert_eq!(d.kind, DirectiveKind::Other("interface".into()));
        assert_eq!(d.option("variable"), Some("in_val"));
        // Vitis' unified config writes an interface's bare flags after the port.
        let d = cfg("interface", "fxp_log2_top mode=ap_ctrl_hs return register");
        assert_eq!((d.option("mode"), d.option("variable")), (Some("ap_ctrl_hs"), Some("return")));
        assert_eq!(d.flags, ["register".to_string()]);
        let d = cfg("pipeline", "\"ns::top/loop 1\" II=3");
        assert_eq!((d.function.as_str(), d.label.as_deref()), ("ns::top", Some("loop 1")));
        assert_eq!(DirectiveKind::from_name("LOOP_TRIPCOUNT"), DirectiveKind::LoopTripcount);
    }

    #[test]
    fn cfg_refusals_say_why() {
        let err = |kind: &str, v: &str| from_cfg(kind, v, "c.cfg:1".into()).unwrap_err();
        assert!(err("pipeline", "II=2").contains("no location"));
        assert!(err("pipeline", "off").contains("no location"), "a flag is not a location");
        assert!(err("pipeline", "f/L \"II=2").contains("unterminated quote"));
        assert!(err("pipeline", "/L II=2").contains("has no function"));
        assert!(err("pipeline", "f/L g/M").contains("unexpected word `g/M`"));
        assert!(err("", "f").contains("no directive kind"));
        assert!(err("unroll", "=4 f/L").contains("no option name"));
    }

    #[test]
    fn tcl_options_flags_and_locations() {
        let d = tcl("pipeline", &["-II", "2", "top/loop1"]);
        assert_eq!((d.function.as_str(), d.label.as_deref()), ("top", Some("loop1")));
        assert_eq!(opts(&d), [("ii", "2")]);
        assert_eq!(d.command(), "set_directive_pipeline");
        let d = tcl("pipeline", &["-off", "f/L"]);
        assert!(d.is_off() && d.options.is_empty());
        let d = tcl("pipeline", &["-rewind", "f/L"]);
        assert_eq!((d.flags.as_slice(), d.label.as_deref()), (["rewind".to_string()].as_slice(), Some("L")));
        let d = tcl("unroll", &["-factor", "4", "f/L"]);
        assert_eq!(opts(&d), [("factor", "4")]);
        let d = tcl("unroll", &["-skip_exit_check", "-factor", "4", "foo/L2"]);
        assert_eq!((d.flags.len(), d.option("factor")), (1, Some("4")));
        let d = tcl("loop_tripcount", &["-min", "1", "-max", "480", "-avg", "480", "display/row"]);
        assert_eq!(opts(&d), [("min", "1"), ("max", "480"), ("avg", "480")]);
        let d = tcl("inline", &["-off", "getXandY"]);
        assert!(d.is_off() && d.label.is_none());
        let d = tcl("stream", &["-depth", "16", "matvecmul", "stream_a[0]"]);
        assert_eq!(opts(&d), [("depth", "16"), ("variable", "stream_a[0]")]);
        let d = tcl("pipeline", &["-II", "2", "SURF::HessianDetector/HessianDetector_octave"]);
        assert_eq!(d.function, "SURF::HessianDetector");
        // Unknown kinds: an unknown option takes a value only when a location is left after it.
        let d = tcl("interface", &["-register", "-register_mode", "both", "convolve", "str_out"]);
        assert_eq!(d.flags, ["register"]);
        assert_eq!(opts(&d), [("register_mode", "both"), ("variable", "str_out")]);
        let d = tcl("top", &["-name", "patblt", "patblt"]);
        assert_eq!((d.function.as_str(), d.option("name")), ("patblt", Some("patblt")));
        let d = tcl("pipeline", &["-II=3", "f/L"]);
        assert_eq!(d.option("ii"), Some("3"));
    }

    #[test]
    fn tcl_refusals_say_why() {
        let err = |args: &[&str]| from_tcl("pipeline", args, "d.tcl:2".into()).unwrap_err();
        assert!(err(&[]).contains("no location"));
        assert!(err(&["-off"]).contains("no location"));
        assert!(err(&["f/L", "-II"]).contains("`-II` needs a value"));
        assert!(err(&["f/L", "g/M"]).contains("unexpected word"));
        assert!(from_tcl("", &["f"], "d.tcl:2".into()).unwrap_err().contains("no directive kind"));
    }
}
