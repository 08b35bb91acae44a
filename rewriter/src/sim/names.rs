//! Functions under the names Vitis knows them by. A function whose name is a macro for another
//! identifier (`#define sha3_256 pqcrystals_fips202_ref_sha3_256`, [`crate::model::aliases`])
//! is probed under the name it is written with; Vitis sees the expansion, and so do the report's
//! modules, the script's `set_top` and the directives. The analysis renames such functions in a
//! copy of the manifest before it looks anything up, so every comparison of a probe's function
//! with a module, the top or another probe sees one name.

use crate::emit::manifest::Manifest;
use std::collections::HashMap;

/// The manifest with every aliased function renamed (its probe's `name`, the `function` of its
/// probes and of its loops, the calls of it), and `top` as Vitis names it (a function written
/// `sha3_256` given as `--top sha3_256` is the expansion; any other name is kept); `None` when
/// no function is renamed (the common case: no copy).
pub fn vitis_named(manifest: &Manifest, top: &str) -> Option<(Manifest, String)> {
    let renames = renames(manifest);
    if renames.is_empty() {
        return None;
    }
    let top = renames.get(top).map_or(top, |(_, qualified)| qualified.as_str()).to_string();
    // Calls name their callee by its last component, as written.
    let callees: HashMap<&str, &str> = manifest
        .probes
        .iter()
        .filter(|p| p.kind == "function" && renames.contains_key(p.function.as_str()))
        .map(|p| (p.name.as_str(), renames[p.function.as_str()].0.as_str()))
        .collect();
    let mut m = manifest.clone();
    for p in &mut m.probes {
        if let Some((name, qualified)) = renames.get(p.function.as_str()) {
            if p.kind == "function" && p.name != *name {
                p.name = name.clone();
            }
            p.function = qualified.clone();
        }
        for c in p.module.iter_mut().flat_map(|m| m.calls.iter_mut()) {
            if let Some(to) = callees.get(c.name.as_str()) {
                c.name = to.to_string();
            }
        }
    }
    Some((m, top))
}

/// Qualified name as written → (the name, qualified) as Vitis sees them, for the functions whose
/// probe carries a `vitis_name` other than its name. A qualified name is renamed in its last
/// component (`ns::f` with `f` a macro for `g` is `ns::g`).
fn renames(manifest: &Manifest) -> HashMap<&str, (String, String)> {
    let mut out = HashMap::new();
    for p in manifest.probes.iter().filter(|p| p.kind == "function") {
        let Some(to) = p.vitis_name.as_deref().filter(|v| *v != p.name) else { continue };
        let Some(scope) = p.function.strip_suffix(p.name.as_str()) else { continue };
        if scope.is_empty() || scope.ends_with("::") {
            out.insert(p.function.as_str(), (to.to_string(), format!("{scope}{to}")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::emit::manifest::ProbeEntry;

    fn manifest() -> Manifest {
        let mut m: Manifest = serde_json::from_str(
            r#"{"format":"hlsinstr-manifest","version":1,"tool":"t","kinds":[],"files":[],"probes":[],"skipped":[]}"#,
        )
        .unwrap();
        let mut top = ProbeEntry::new(0, "function", "k.c", (3, 6), "sha3_256", "sha3_256");
        top.vitis_name = Some("pq_sha3_256".into());
        let mut inner = ProbeEntry::new(1, "loop", "k.c", (5, 3), "sha3_256", "VITIS_LOOP_5_1");
        inner.vitis_name = Some("VITIS_LOOP_5_1".into());
        let mut member = ProbeEntry::new(2, "function", "k.c", (9, 6), "ns::absorb", "absorb");
        member.vitis_name = Some("pq_absorb".into());
        let plain = ProbeEntry::new(3, "function", "k.c", (12, 6), "leaf", "leaf");
        m.probes = vec![top, inner, member, plain];
        m
    }

    #[test]
    fn aliased_functions_and_their_loops_take_the_expanded_name() {
        let (m, top) = vitis_named(&manifest(), "sha3_256").expect("two functions are aliased");
        assert_eq!(top, "pq_sha3_256");
        let names: Vec<(&str, &str)> = m.probes.iter().map(|p| (p.function.as_str(), p.name.as_str())).collect();
        assert_eq!(
            names,
            [
                ("pq_sha3_256", "pq_sha3_256"),
                ("pq_sha3_256", "VITIS_LOOP_5_1"),
                ("ns::pq_absorb", "pq_absorb"),
                ("leaf", "leaf")
            ]
        );
        assert!(vitis_named(&m, "pq_sha3_256").is_none(), "renamed once: nothing left to rename");
        let top = |name: &str| vitis_named(&manifest(), name).unwrap().1;
        assert_eq!(top("pq_sha3_256"), "pq_sha3_256");
        assert_eq!(top("leaf"), "leaf");
    }
}
