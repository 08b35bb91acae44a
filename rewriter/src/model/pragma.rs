//! HLS and HLSINSTR pragmas: `#pragma HLS PIPELINE II=2`, `#pragma HLSINSTR probe`, ...

use serde::{Deserialize, Serialize};

/// One `#pragma HLS ...` line, split into its directive and options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HlsPragma {
    /// Directive name, upper case: PIPELINE, UNROLL, LOOP_TRIPCOUNT, DATAFLOW, INTERFACE, ...
    pub directive: String,
    /// `key=value` options, keys lower case, in source order.
    pub options: Vec<(String, String)>,
    /// Bare words (`off`, `m_axi`, `skip_exit_check`), lower case.
    pub flags: Vec<String>,
    /// 1-based line of the pragma.
    pub line: usize,
}

impl HlsPragma {
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
    pub fn has_flag(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
}

/// A `#pragma HLSINSTR ...` source directive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Directive {
    /// Opt this function (and what it calls) or this loop (and its inner loops) in.
    Probe,
    /// Never probe this function or loop.
    Off,
}

/// What a `#pragma` line is to us.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PragmaLine {
    Hls(HlsPragma),
    Hlsinstr(Directive),
    /// `#pragma HLSINSTR <unknown>`: reported as a warning.
    BadHlsinstr(String),
    Other,
}

/// Classify the text after `#pragma`.
pub fn classify(arg: &str, line: usize) -> PragmaLine {
    let mut words = arg.split_whitespace();
    match words.next() {
        Some(w) if w.eq_ignore_ascii_case("HLS") => PragmaLine::Hls(parse_hls(words, line)),
        Some("HLSINSTR") => match words.next() {
            Some("probe") => PragmaLine::Hlsinstr(Directive::Probe),
            Some("off") => PragmaLine::Hlsinstr(Directive::Off),
            other => PragmaLine::BadHlsinstr(other.unwrap_or("").to_string()),
        },
        _ => PragmaLine::Other,
    }
}

/// The words after `HLS`. `key = value` is one option: a word is glued to the one before when
/// either side of the gap between them is `=`.
fn parse_hls<'a>(words: impl Iterator<Item = &'a str>, line: usize) -> HlsPragma {
    let mut tokens: Vec<std::borrow::Cow<str>> = Vec::new();
    for w in words {
        match tokens.last_mut() {
            Some(t) if t.ends_with('=') || w.starts_with('=') => t.to_mut().push_str(w),
            _ => tokens.push(std::borrow::Cow::Borrowed(w)),
        }
    }
    let mut tokens = tokens.iter();
    let directive = tokens.next().map_or(String::new(), |d| d.to_ascii_uppercase());
    let mut options = Vec::new();
    let mut flags = Vec::new();
    for w in tokens {
        match w.split_once('=') {
            Some((k, v)) => options.push((k.to_ascii_lowercase(), v.to_string())),
            None => flags.push(w.to_ascii_lowercase()),
        }
    }
    HlsPragma { directive, options, flags, line }
}

/// Static facts about a loop gathered from the pragmas in its body.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LoopFacts {
    /// Requested initiation interval; `Some(1)` for a bare `PIPELINE`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline_ii: Option<u32>,
    /// `PIPELINE off`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pipeline_off: bool,
    /// Unroll factor; 0 means a full unroll (`UNROLL` without factor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unroll: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tripcount: Option<Tripcount>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub dataflow: bool,
    /// The facts a project directive set instead of the source, each as `<fact>: <origin>`
    /// (`pipeline_ii: directives.tcl:3`); facts not named come from the pragmas. Filled by
    /// `sim::directives::apply`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from_directive: Vec<String>,
    /// The loop only fills a constant table (`model::table`): Vitis folds it into a ROM.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant_table: Option<ConstantTable>,
    /// The loop only stores into these local arrays (`a, b`), which nothing in the function
    /// reads (`model::unread`): code Vitis removes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread_store: Option<String>,
    /// The steps of the body's dependence chains through multi-cycle operations
    /// (`model::opchain`), for the default iteration latency and pipeline depth.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub chain: Vec<ChainStep>,
    /// The loop-carried recurrences through operations (`model::recurrence`): per carried
    /// variable, the ops on its cycle, which bound the II of a pipeline.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recurrence: Vec<ChainStep>,
    /// The body reads and writes no memory, calls nothing and holds no loop
    /// (`model::registers`): not pipelined, an iteration is one state, not the default two.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub registers_only: bool,
    /// The memory accesses of an iteration (`model::ports`), for the II its memory ports allow
    /// when it is pipelined; none when no array is accessed more than once in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<Box<super::ports::LoopMemory>>,
    /// Per function the body calls on every path, the fewest calls of it on any path through an
    /// iteration (`model::best_path`): what a report's best-case iteration holds of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_path_calls: Vec<(String, u32)>,
    /// The function's own arrays and streams the body names (`model::ports::local_channels`);
    /// none when it names neither. Boxed: the facts sit in the frames of the body walk, which
    /// recurses as deep as loops nest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub local_channels: Option<Box<LocalChannels>>,
    /// The streams (parameters and locals) the body names (`model::stream_use`): their
    /// traffic happens while the loop runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<String>,
    /// The scalar parameters of the function its `for` bound names (`k < K`): in the top, a
    /// run-time argument, which Vitis cannot unroll the loop over.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub param_bound: Vec<String>,
}

/// A loop's own arrays and streams: in a dataflow function, the channels between the processes
/// made of its loops (an array a ping-pong buffer, a stream a FIFO).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LocalChannels {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub arrays: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<String>,
}

/// One assignment of a loop body on a dependence chain: the type of what it assigns (a type
/// name, `float`/`double`/`int` once resolved), the multi-cycle ops on its expression's deepest
/// path, and the earlier steps (indices) whose results it reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainStep {
    pub ty: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deps: Vec<usize>,
}

/// The arrays a loop fills with constant expressions of its indices and nothing else writes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConstantTable {
    pub array: String,
    /// Further arrays the same loop fills (each local, nothing else writing it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
    /// The array is a parameter of the (inlined) function: the caller's table.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub through_parameter: bool,
    /// Through a parameter of a function with no INLINE pragma: a table only when a project
    /// directive (`set_directive_inline`) inlines the function (`sim::timing`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub if_inlined: bool,
}

impl ConstantTable {
    /// The arrays filled, as the reports name them: `a` or, for several, `a`, `b` (the caller
    /// quotes the first and the last).
    pub fn names(&self) -> String {
        std::iter::once(&self.array).chain(&self.also).cloned().collect::<Vec<_>>().join("`, `")
    }
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tripcount {
    pub min: Option<u64>,
    pub max: Option<u64>,
    pub avg: Option<u64>,
}

impl LoopFacts {
    /// True when a directive set the fact named `fact` (or one whose name starts with it).
    pub fn from_directive_has(&self, fact: &str) -> bool {
        self.from_directive.iter().any(|d| d.starts_with(fact))
    }

    pub fn from_pragmas<'a>(pragmas: impl IntoIterator<Item = &'a HlsPragma>) -> Self {
        let mut facts = LoopFacts::default();
        for p in pragmas {
            match p.directive.as_str() {
                "PIPELINE" => {
                    if p.has_flag("off") || p.option("off").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
                        facts.pipeline_off = true;
                    } else {
                        facts.pipeline_ii = Some(p.option("ii").and_then(|v| v.parse().ok()).unwrap_or(1));
                    }
                }
                "UNROLL" => facts.unroll = Some(p.option("factor").and_then(|v| v.parse().ok()).unwrap_or(0)),
                "LOOP_TRIPCOUNT" => {
                    let num = |k: &str| p.option(k).and_then(|v| v.parse().ok());
                    facts.tripcount = Some(Tripcount { min: num("min"), max: num("max"), avg: num("avg") });
                }
                "DATAFLOW" => facts.dataflow = true,
                _ => {}
            }
        }
        facts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hls(text: &str) -> HlsPragma {
        match classify(text, 1) {
            PragmaLine::Hls(p) => p,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parses_options_flags_and_spacing() {
        let p = hls("HLS pipeline II = 3 rewind");
        assert_eq!(p.directive, "PIPELINE");
        assert_eq!(p.option("ii"), Some("3"));
        assert!(p.has_flag("rewind"));
        let p = hls("hls INTERFACE m_axi port=a offset=slave bundle=gmem0");
        assert!(p.has_flag("m_axi"));
        assert_eq!(p.option("port"), Some("a"));
    }

    #[test]
    fn equals_signs_glue_words_wherever_the_blanks_are() {
        for text in ["HLS pipeline II=3", "HLS pipeline II =3", "HLS pipeline II= 3", "HLS\tpipeline  II \t=\t 3"] {
            let p = hls(text);
            assert_eq!((p.directive.as_str(), p.option("ii"), p.flags.len()), ("PIPELINE", Some("3"), 0), "{text}");
        }
        let p = hls("HLS interface = m_axi");
        assert_eq!(p.directive, "INTERFACE=M_AXI");
        let p = hls("HLS");
        assert_eq!((p.directive.as_str(), p.options.len()), ("", 0));
        let p = hls("HLS array_partition variable = buf  complete dim= 1");
        assert_eq!(p.option("variable"), Some("buf"));
        assert_eq!(p.option("dim"), Some("1"));
        assert!(p.has_flag("complete"));
    }

    #[test]
    fn loop_facts() {
        let ps = [hls("HLS PIPELINE"), hls("HLS UNROLL factor=4"), hls("HLS loop_tripcount min=1 max=64 avg=32")];
        let f = LoopFacts::from_pragmas(&ps);
        assert_eq!(f.pipeline_ii, Some(1));
        assert_eq!(f.unroll, Some(4));
        assert_eq!(f.tripcount, Some(Tripcount { min: Some(1), max: Some(64), avg: Some(32) }));
        let f = LoopFacts::from_pragmas(&[hls("HLS pipeline off"), hls("HLS unroll")]);
        assert!(f.pipeline_off && f.pipeline_ii.is_none());
        assert_eq!(f.unroll, Some(0));
    }

    #[test]
    fn hlsinstr_directives() {
        assert_eq!(classify("HLSINSTR probe", 1), PragmaLine::Hlsinstr(Directive::Probe));
        assert_eq!(classify("HLSINSTR off", 1), PragmaLine::Hlsinstr(Directive::Off));
        assert_eq!(classify("HLSINSTR of", 1), PragmaLine::BadHlsinstr("of".into()));
        assert_eq!(classify("once", 1), PragmaLine::Other);
    }
}
