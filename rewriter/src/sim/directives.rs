//! Project directives (`set_directive_*`, `syn.directive.*`; [`crate::project::directive`])
//! applied to a manifest, so that the cycle model sees the loops and functions as Vitis
//! synthesizes them and not only as the source pragmas describe them.
//!
//! A directive replaces what the pragmas of its loop or function say about the same thing (see
//! docs/directives.md for why: UG1399 does not promise which one Vitis keeps). Every fact a
//! directive sets is named in `from_directive` of the loop's [`LoopFacts`] or the function's
//! [`ModuleInfo`], with the directive's origin. Directives apply in project order, so a later one
//! replaces an earlier one on the same loop.
//!
//! [`LoopFacts`]: crate::model::pragma::LoopFacts
//! [`ModuleInfo`]: crate::emit::manifest::ModuleInfo

use crate::emit::manifest::{Manifest, ProbeEntry};
use crate::model::pragma::{LoopFacts, Tripcount};
use crate::project::{Directive, DirectiveKind};

/// Origins listed in one "not used by the cycle model" warning before `and N more`.
const SHOWN_ORIGINS: usize = 3;

/// Put the directives into the matching probes' facts. Returns warnings, one per directive that
/// matches no probe or cannot be read, per directive that replaces a different source pragma,
/// and one per kind of directive the cycle model has no use for.
///
/// Cost: one pass over the probes per directive.
pub fn apply(manifest: &mut Manifest, directives: &[Directive]) -> Vec<String> {
    let mut out = Applier { warnings: Vec::new(), unused: Vec::new() };
    for d in directives {
        out.apply(manifest, d);
    }
    for (command, origins) in out.unused {
        let mut shown: Vec<&str> = origins.iter().take(SHOWN_ORIGINS).map(String::as_str).collect();
        let more = origins.len().saturating_sub(SHOWN_ORIGINS);
        let extra = format!("and {more} more");
        if more > 0 {
            shown.push(&extra);
        }
        out.warnings.push(format!("{command} ({}): not used by the cycle model", shown.join(", ")));
    }
    out.warnings
}

struct Applier {
    warnings: Vec<String>,
    /// `(command, origins)` of directives read but of no use to the cycle model, in first-seen order.
    unused: Vec<(String, Vec<String>)>,
}

/// What a directive's location names, for the cycle model.
enum Target<'a> {
    Loop(&'a str),
    Function,
}

impl Applier {
    fn apply(&mut self, m: &mut Manifest, d: &Directive) {
        let target = match (&d.kind, d.label.as_deref()) {
            // Its variable is an array of the function: rows of a partitioned array are channels,
            // and its banks and ports bound a pipeline's II.
            (DirectiveKind::Other(k), _) if k == ARRAY_PARTITION => Target::Function,
            (DirectiveKind::Other(k), _) if STORAGE.contains(&k.as_str()) => Target::Function,
            // Its port is a parameter of the function (or `return`: the block control).
            (DirectiveKind::Other(k), _) if k == INTERFACE => Target::Function,
            (DirectiveKind::Other(_), _) => {
                // Its location may name a port, an array or a region: not matched against probes.
                self.not_used(d);
                return;
            }
            (DirectiveKind::Pipeline | DirectiveKind::Dataflow, Some(l)) => Target::Loop(l),
            (DirectiveKind::Pipeline | DirectiveKind::Dataflow, None) => Target::Function,
            (DirectiveKind::Unroll | DirectiveKind::LoopTripcount | DirectiveKind::LoopFlatten, Some(l)) => {
                Target::Loop(l)
            }
            (DirectiveKind::Unroll | DirectiveKind::LoopTripcount | DirectiveKind::LoopFlatten, None) => {
                let msg = format!("{}: names no loop (write `{}/<label>`); not used", d.describe(), d.function);
                self.warnings.push(msg);
                return;
            }
            (DirectiveKind::Inline | DirectiveKind::Stream, _) => Target::Function,
        };
        // Read the options first: a directive that cannot be read changes nothing.
        let Some(change) = self.change(d) else { return };
        let function = as_written(m, &d.function).to_string();
        let function = function.as_str();
        let ids: Vec<usize> =
            m.probes.iter().enumerate().filter(|(_, p)| matches(p, function, &target)).map(|(i, _)| i).collect();
        if ids.is_empty() {
            let has_function = m.probes.iter().any(|p| same_function(&p.function, function));
            let why = match (&target, has_function) {
                (Target::Loop(l), true) => format!("no loop labelled `{l}` in `{}`", d.function),
                (Target::Function, true) => format!("no probe of the function `{}` itself", d.function),
                (_, false) => format!("no function `{}` among the probes", d.function),
            };
            self.warnings.push(format!("{}: {why}; not used", d.describe()));
            return;
        }
        let mut replaced: Vec<String> = Vec::new();
        for i in ids {
            let p = &mut m.probes[i];
            match (&change, &target) {
                (Change::Unused, _) => {}
                (_, Target::Loop(_)) => {
                    if let Some(info) = p.loop_info.as_mut() {
                        replaced.extend(change.on_loop(&mut info.facts, &d.origin));
                    }
                }
                (_, Target::Function) => match p.module.as_mut() {
                    Some(module) => {
                        if let Some(why) = change.on_function(module, &d.origin) {
                            self.warnings.push(format!("{}: {why}; not used", d.describe()));
                        }
                    }
                    None => self.warnings.push(format!(
                        "{}: probe {} has no module facts to set; not used there",
                        d.describe(),
                        p.id
                    )),
                },
            }
        }
        // A partition or a storage binding also holds for the accesses of the function's loops.
        if let Change::Partition { ref var, .. } | Change::Storage { ref var, .. } = change {
            let loops = m.probes.iter_mut().filter(|p| p.kind == "loop" && same_function(&p.function, function));
            for p in loops {
                let Some(facts) = p.loop_info.as_mut().map(|l| &mut l.facts) else { continue };
                let Some(a) = facts.memory.as_mut().and_then(|m| m.arrays.iter_mut().find(|a| &a.name == var)) else {
                    continue;
                };
                let fact = match &change {
                    Change::Partition { partition: Some(part), .. } => {
                        a.partitions.push(part.clone());
                        format!("array_partition {var}")
                    }
                    Change::Storage { ports, .. } => {
                        a.ports = Some(*ports);
                        format!("storage {var}")
                    }
                    _ => continue,
                };
                set(&mut facts.from_directive, &fact, None, &d.origin);
            }
        }
        if matches!(change, Change::Unused) {
            self.not_used(d);
        }
        replaced.sort();
        replaced.dedup();
        if !replaced.is_empty() {
            self.warnings.push(format!(
                "{}: replaces what the source pragmas say ({}); directives are taken over pragmas (docs/directives.md)",
                d.describe(),
                replaced.join(", ")
            ));
        }
    }

    fn not_used(&mut self, d: &Directive) {
        let command = d.command();
        match self.unused.iter_mut().find(|(c, _)| *c == command) {
            Some((_, origins)) => origins.push(d.origin.clone()),
            None => self.unused.push((command, vec![d.origin.clone()])),
        }
    }

    /// What `d` changes, or `None` (after a warning) when its options cannot be read.
    fn change(&mut self, d: &Directive) -> Option<Change> {
        let bad = |this: &mut Self, what: String| {
            this.warnings.push(format!("{}: {what}; not used", d.describe()));
            None
        };
        let change = match &d.kind {
            DirectiveKind::Pipeline if d.is_off() => Change::PipelineOff,
            DirectiveKind::Pipeline => match d.option("ii") {
                None => Change::Pipeline(1),
                Some(v) => match v.parse::<u32>() {
                    Ok(ii) if ii > 0 => Change::Pipeline(ii),
                    _ => return bad(self, format!("II `{v}` is not a positive whole number")),
                },
            },
            DirectiveKind::Unroll if d.is_off() => Change::Unroll(None),
            DirectiveKind::Unroll => match d.option("factor") {
                None => Change::Unroll(Some(0)),
                Some(v) => match v.parse::<u32>() {
                    Ok(f) if f > 0 => Change::Unroll(Some(f)),
                    _ => return bad(self, format!("factor `{v}` is not a positive whole number")),
                },
            },
            DirectiveKind::LoopTripcount => {
                let mut t = Tripcount::default();
                for (name, slot) in [("min", &mut t.min), ("max", &mut t.max), ("avg", &mut t.avg)] {
                    if let Some(v) = d.option(name) {
                        match v.parse::<u64>() {
                            Ok(n) => *slot = Some(n),
                            Err(_) => return bad(self, format!("{name} `{v}` is not a whole number")),
                        }
                    }
                }
                if t == Tripcount::default() {
                    return bad(self, "gives none of min, max and avg".into());
                }
                Change::Tripcount(t)
            }
            DirectiveKind::Dataflow => Change::Dataflow,
            DirectiveKind::Inline => Change::Inline(!d.is_off()),
            DirectiveKind::Stream => match d.option("variable") {
                Some(v) if !d.is_off() && !crate::model::ping_pong_stream(d.option("type")) => {
                    Change::Stream(v.to_string())
                }
                _ => Change::Unused,
            },
            DirectiveKind::Other(k) if k == ARRAY_PARTITION => match row_partition(d) {
                Ok(rows) if !d.is_off() => match d.option("variable") {
                    Some(var) => {
                        Change::Partition { var: var.to_string(), rows: rows.is_some(), partition: partition(d) }
                    }
                    None => Change::Unused,
                },
                Ok(_) => Change::Unused,
                Err(why) => return bad(self, why),
            },
            DirectiveKind::Other(k) if STORAGE.contains(&k.as_str()) => {
                let core = d.option("core").or(d.option("type")).or(d.option("storage_type"));
                match (d.option("variable"), core.and_then(crate::model::ports::storage_ports)) {
                    (Some(var), Some(ports)) => Change::Storage { var: var.to_string(), ports },
                    _ => Change::Unused,
                }
            }
            DirectiveKind::Other(k) if k == INTERFACE => match d.option("mode") {
                Some(mode) => Change::Interface {
                    port: d.option("port").or(d.option("variable")).map(str::to_string),
                    mode: mode.to_ascii_lowercase(),
                },
                None => return bad(self, "gives no mode (`-mode s_axilite`)".into()),
            },
            DirectiveKind::LoopFlatten | DirectiveKind::Other(_) => Change::Unused,
        };
        Some(change)
    }
}

/// One directive's effect, read from its options.
enum Change {
    Pipeline(u32),
    PipelineOff,
    /// `Some(0)`: full unroll; `None`: `unroll off`.
    Unroll(Option<u32>),
    Tripcount(Tripcount),
    Dataflow,
    Inline(bool),
    /// A variable made a FIFO: as a dataflow channel, its consumer overlaps its producer.
    Stream(String),
    /// An array partitioned: `rows` when a complete partition makes its rows (first dimension)
    /// memories of their own; `partition` its banks, as the pragma's (`model::ports`).
    Partition {
        var: String,
        rows: bool,
        partition: Option<crate::model::ports::Partition>,
    },
    /// An array bound to a storage of `ports` ports (`set_directive_resource -core RAM_1P`,
    /// `bind_storage -type ram_1p`).
    Storage {
        var: String,
        ports: u32,
    },
    /// A port's protocol (`None` or `return`: the block control's), as `#pragma HLS INTERFACE`:
    /// co-simulation's window counts the arguments and control on an s_axilite bundle.
    Interface {
        port: Option<String>,
        mode: String,
    },
    /// Matched, but nothing the cycle model reads.
    Unused,
}

impl Change {
    /// Set the loop's facts; returns the source-pragma facts it replaced with a different value.
    fn on_loop(&self, f: &mut LoopFacts, origin: &str) -> Vec<String> {
        let mut replaced = Vec::new();
        let from_source = |f: &LoopFacts, fact: &str| !f.from_directive.iter().any(|e| fact_of(e) == fact);
        match *self {
            Change::Pipeline(ii) => {
                if f.pipeline_off && from_source(f, "pipeline_off") {
                    replaced.push(format!("pipeline off → II {ii}"));
                } else if f.pipeline_ii.is_some_and(|old| old != ii) && from_source(f, "pipeline_ii") {
                    replaced.push(format!("II {} → {ii}", f.pipeline_ii.unwrap_or_default()));
                }
                f.pipeline_ii = Some(ii);
                f.pipeline_off = false;
                set(&mut f.from_directive, "pipeline_ii", Some("pipeline_off"), origin);
            }
            Change::PipelineOff => {
                if let Some(old) = f.pipeline_ii.filter(|_| from_source(f, "pipeline_ii")) {
                    replaced.push(format!("pipeline II={old} → off"));
                }
                f.pipeline_ii = None;
                f.pipeline_off = true;
                set(&mut f.from_directive, "pipeline_off", Some("pipeline_ii"), origin);
            }
            Change::Unroll(u) => {
                if f.unroll.is_some_and(|old| Some(old) != u) && from_source(f, "unroll") {
                    replaced.push(format!("unroll {} → {}", show_unroll(f.unroll), show_unroll(u)));
                }
                f.unroll = u;
                set(&mut f.from_directive, "unroll", None, origin);
            }
            Change::Tripcount(t) => {
                if f.tripcount.is_some_and(|old| old != t) && from_source(f, "tripcount") {
                    replaced.push("loop_tripcount".to_string());
                }
                f.tripcount = Some(t);
                set(&mut f.from_directive, "tripcount", None, origin);
            }
            Change::Dataflow => {
                f.dataflow = true;
                set(&mut f.from_directive, "dataflow", None, origin);
            }
            // Function-only kinds never target a loop.
            Change::Inline(_)
            | Change::Stream(_)
            | Change::Partition { .. }
            | Change::Storage { .. }
            | Change::Interface { .. }
            | Change::Unused => {}
        }
        replaced
    }

    /// Set the function's facts; returns why nothing was set, for a directive naming what the
    /// function does not have (an interface on a port that is not its parameter).
    fn on_function(&self, m: &mut crate::emit::manifest::ModuleInfo, origin: &str) -> Option<String> {
        match *self {
            Change::Pipeline(ii) => {
                m.pipeline_ii = Some(ii);
                set(&mut m.from_directive, "pipeline_ii", Some("pipeline_off"), origin);
            }
            Change::PipelineOff => {
                m.pipeline_ii = None;
                set(&mut m.from_directive, "pipeline_off", Some("pipeline_ii"), origin);
            }
            Change::Dataflow => {
                m.dataflow = true;
                set(&mut m.from_directive, "dataflow", None, origin);
            }
            Change::Inline(on) => {
                m.inline = Some(on);
                set(&mut m.from_directive, "inline", None, origin);
            }
            Change::Stream(ref var) => {
                if !m.streamed.contains(var) {
                    m.streamed.push(var.clone());
                }
                set(&mut m.from_directive, &format!("stream {var}"), None, origin);
            }
            Change::Partition { ref var, rows, .. } => {
                if rows && !m.row_partitioned.contains(var) {
                    m.row_partitioned.push(var.clone());
                }
                set(&mut m.from_directive, &format!("array_partition {var}"), None, origin);
            }
            Change::Storage { ref var, .. } => set(&mut m.from_directive, &format!("storage {var}"), None, origin),
            Change::Interface { ref port, ref mode } => {
                // No port: the function's own interface, its block control (Vivado HLS writes
                // `set_directive_interface -mode s_axilite "top"` for `port=return`).
                let port = port.as_deref().unwrap_or("return");
                if port == "return" {
                    m.control = Some(mode.clone());
                } else if let Some(param) = m.params.iter_mut().find(|q| q.name == port) {
                    // As the pragma (`model::functions::mark_interfaces`): an m_axi port's
                    // s_axilite offset register keeps it an m_axi port.
                    let offset_register = mode == "s_axilite" && param.interface.as_deref() == Some("m_axi");
                    if !offset_register && !crate::model::ignored_interface(mode, param.kind) {
                        param.interface = Some(mode.clone());
                    }
                } else {
                    return Some(format!("`{port}` is not a parameter of the function"));
                }
                set(&mut m.from_directive, &format!("interface {port}"), None, origin);
            }
            // Loop-only kinds never target a function.
            Change::Unroll(_) | Change::Tripcount(_) | Change::Unused => {}
        }
        None
    }
}

/// The kind name of `set_directive_array_partition` / `syn.directive.array_partition`.
const ARRAY_PARTITION: &str = "array_partition";

/// The kind names of the directives that bind an array to a storage (`set_directive_resource
/// -core`, `set_directive_bind_storage -type`).
const STORAGE: [&str; 2] = ["resource", "bind_storage"];

/// The banks an `array_partition` directive makes (`-type block -factor 5 -dim 1`, or
/// `type=cyclic factor=2 dim=1`), as the pragma's; `None` when it does not say enough.
fn partition(d: &Directive) -> Option<crate::model::ports::Partition> {
    let mut words: Vec<String> = d.flags.iter().map(|f| f.to_ascii_lowercase()).collect();
    for key in ["type", "factor", "dim"] {
        if let Some(v) = d.option(key) {
            words.push(format!("{key}={}", v.trim().to_ascii_lowercase()));
        }
    }
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    crate::model::ports::partition(&refs)
}

/// The kind name of `set_directive_interface` / `syn.directive.interface`.
const INTERFACE: &str = "interface";

/// The array an `array_partition` directive splits into rows (`type=complete` / `-type complete`
/// on `dim=1`, or `dim=0`: every dimension), as the pragma in `Function::row_partitioned_vars`;
/// `None` for partitions the cycle model does not use (cyclic, block, other dimensions); `Err`
/// without a variable.
fn row_partition(d: &Directive) -> Result<Option<String>, String> {
    let Some(var) = d.option("variable") else {
        return Err("names no array (write `<function> <array>` as its location and variable)".into());
    };
    let complete = d.has_flag("complete") || d.option("type").is_some_and(|t| t.eq_ignore_ascii_case("complete"));
    let rows = matches!(d.option("dim").map(str::trim), Some("1" | "0"));
    Ok((complete && rows && !d.is_off()).then(|| var.to_string()))
}

fn show_unroll(u: Option<u32>) -> String {
    match u {
        None => "off".into(),
        Some(0) => "full".into(),
        Some(n) => format!("factor {n}"),
    }
}

/// The fact an entry of `from_directive` names.
fn fact_of(entry: &str) -> &str {
    entry.split_once(": ").map_or(entry, |(f, _)| f)
}

/// Record `fact: origin`, dropping an earlier entry for it (a later directive wins) and for
/// `cancels` (the fact it switches off: pipeline II and pipeline off exclude each other).
fn set(entries: &mut Vec<String>, fact: &str, cancels: Option<&str>, origin: &str) {
    entries.retain(|e| fact_of(e) != fact && Some(fact_of(e)) != cancels);
    entries.push(format!("{fact}: {origin}"));
}

/// The function of a probe and a directive's are the same: equal, or one qualifies the other
/// (`ns::top` and `top`), since a directive may name the function either way.
fn same_function(probe: &str, directive: &str) -> bool {
    probe == directive
        || probe.strip_suffix(directive).is_some_and(|p| p.ends_with("::"))
        || directive.strip_suffix(probe).is_some_and(|d| d.ends_with("::"))
}

/// The function a directive names, as the sources write it: Vitis' name of a function whose name
/// is a macro (a function probe's `vitis_name`, [`crate::model::aliases`]) is the probes'
/// function; any other name is kept.
fn as_written<'m>(m: &'m Manifest, function: &'m str) -> &'m str {
    let aliased = m.probes.iter().filter(|p| p.kind == "function" && p.vitis_name.as_deref() != Some(&p.name));
    aliased
        .filter(|p| p.vitis_name.as_deref() == Some(function))
        .map(|p| p.function.as_str())
        .next()
        .unwrap_or(function)
}

fn matches(p: &ProbeEntry, function: &str, target: &Target) -> bool {
    match target {
        Target::Loop(l) => {
            p.kind == "loop"
                && same_function(&p.function, function)
                && (p.label.as_deref() == Some(l) || p.name == *l || p.vitis_name.as_deref() == Some(l))
        }
        Target::Function => p.kind == "function" && (same_function(&p.function, function) || p.name == function),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_match_qualified_or_not() {
        assert!(same_function("top", "top"));
        assert!(same_function("ns::top", "top"));
        assert!(same_function("top", "ns::top"));
        assert!(!same_function("stop", "top"));
        assert!(!same_function("ns::stop", "top"));
    }

    #[test]
    fn a_later_fact_replaces_the_earlier_and_its_opposite() {
        let mut e = vec!["pipeline_ii: a.tcl:1".to_string(), "unroll: a.tcl:2".to_string()];
        set(&mut e, "pipeline_off", Some("pipeline_ii"), "a.tcl:3");
        assert_eq!(e, ["unroll: a.tcl:2", "pipeline_off: a.tcl:3"]);
        set(&mut e, "unroll", None, "a.tcl:4");
        assert_eq!(e, ["pipeline_off: a.tcl:3", "unroll: a.tcl:4"]);
    }
}
