//! What the decoder needs to know of each probe of a `.cl` rewrite: the manifest entry, and the
//! details of its watch or snapshot entry the report uses. Each detail is optional here, so a
//! report is built with less detail where one is missing (byte offsets instead of element
//! indices when the element size is unknown, ...).

use crate::emit::manifest::{Manifest, ProbeEntry, WatchInfo};
use crate::error::{Error, ErrorKind, Result};
use serde::Deserialize;

/// `watch.invariant`: the value of the watched element must lie in `[vmin, vmax]`.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
pub struct Invariant {
    #[serde(default)]
    pub expr: Option<String>,
    #[serde(default)]
    pub op: Option<String>,
    #[serde(default)]
    pub value: Option<serde_json::Value>,
    #[serde(default)]
    pub vmin: Option<i64>,
    #[serde(default)]
    pub vmax: Option<i64>,
}

impl Invariant {
    /// The violated condition as the user wrote it: `expr`, with `op value` when `expr` is only
    /// the left-hand side.
    pub fn text(&self) -> String {
        let expr = self.expr.clone().unwrap_or_default();
        match (&self.op, &self.value) {
            (Some(op), Some(v)) if !expr.contains(op.as_str()) => {
                let v = v.as_str().map_or_else(|| v.to_string(), str::to_string);
                format!("{expr} {op} {v}").trim().to_string()
            }
            _ if !expr.is_empty() => expr,
            _ => format!("value in [{}, {}]", opt(self.vmin), opt(self.vmax)),
        }
    }
}

fn opt(v: Option<i64>) -> String {
    v.map_or_else(|| "?".to_string(), |x| x.to_string())
}

/// The optional parts of `watch`.
#[derive(Debug, Clone, PartialEq, Deserialize, Default)]
pub struct WatchExtra {
    /// `--watch-range`: elements `[a, b]` of the buffer (the watched range).
    #[serde(default)]
    pub range: Option<[i64; 2]>,
    #[serde(default)]
    pub invariant: Option<Invariant>,
    /// What a record's value is: `element` (the element's value) or `index` (its index from the
    /// accessed pointer; also when absent, as the first watch rewrites recorded).
    #[serde(default)]
    pub value: Option<String>,
    /// Bytes per element of the buffer.
    #[serde(default)]
    pub elem_size: Option<u64>,
}

/// A `snapshot` probe: one side of a latency measurement around an access.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Snapshot {
    /// `before` or `after`.
    pub role: String,
    /// The probe id of the other side.
    pub pair: u32,
    #[serde(default)]
    pub access: Option<String>,
}

/// One probe = one iBuffer unit.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub probe: ProbeEntry,
    pub watch: Option<WatchExtra>,
    pub snapshot: Option<Snapshot>,
}

impl Site {
    /// `mxv.cl:5:5`.
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.probe.file, self.probe.line, self.probe.column)
    }

    /// `function dot`, `loop VITIS_LOOP_7_1 in dot`, `watch data (write) in chase`.
    pub fn label(&self) -> String {
        let p = &self.probe;
        match p.kind.as_str() {
            "function" => format!("function {}", p.name),
            "loop" if !p.nest_unit().is_empty() => format!("loop nest {} in {}", p.name, p.function),
            "loop" => format!("loop {} in {}", p.name, p.function),
            "watch" => {
                let access = p.watch.as_ref().map_or("access", |w| w.access.as_str());
                format!("watch {} ({access}) in {}", p.name, p.function)
            }
            "snapshot" => match &self.snapshot {
                Some(s) => format!("snapshot {} {} in {}", s.role, s.access.as_deref().unwrap_or(&p.name), p.function),
                None => format!("snapshot {} in {}", p.name, p.function),
            },
            k => format!("{k} {} in {}", p.name, p.function),
        }
    }
}

/// The sites of `manifest` in unit order. Unit `u` must be probe `u`: `.cl` rewrites number their
/// probes 0 .. N-1.
pub fn sites(manifest: &Manifest) -> Result<Vec<Site>> {
    let mut out = Vec::new();
    for (u, p) in manifest.probes.iter().enumerate() {
        if p.id as usize != u {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "probe {} of the manifest has id {}: iBuffer unit u is probe u, so the ids must be 0 .. N-1 in \
                     order; pass the manifest of the .cl rewrite",
                    u, p.id
                ),
            ));
        }
        out.push(Site {
            probe: p.clone(),
            watch: p.watch.as_deref().map(watch_extra),
            snapshot: p.snapshot.as_ref().map(|s| Snapshot {
                role: s.role.clone(),
                pair: s.pair,
                access: Some(s.access.clone()),
            }),
        });
    }
    Ok(out)
}

fn watch_extra(w: &WatchInfo) -> WatchExtra {
    WatchExtra {
        range: Some([w.range[0] as i64, w.range[1] as i64]),
        invariant: w.invariant.as_ref().map(|i| Invariant {
            expr: Some(i.expr.clone()),
            op: Some(i.op.clone()),
            value: Some(serde_json::json!(i.value)),
            vmin: Some(i.vmin),
            vmax: Some(i.vmax),
        }),
        value: Some(w.value.clone()),
        elem_size: w.elem_size.map(u64::from),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariant_text_adds_the_operator_only_when_missing() {
        let mut i = Invariant {
            expr: Some("data[0]".into()),
            op: Some(">=".into()),
            value: Some(serde_json::json!(0)),
            vmin: Some(0),
            vmax: Some(i64::MAX),
        };
        assert_eq!(i.text(), "data[0] >= 0");
        i.expr = Some("data[0] >= 0".into());
        assert_eq!(i.text(), "data[0] >= 0");
        let bare = Invariant { vmin: Some(-3), ..Default::default() };
        assert_eq!(bare.text(), "value in [-3, ?]");
    }
}
