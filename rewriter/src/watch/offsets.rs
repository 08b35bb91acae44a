//! Where each pointer parameter points in the watched buffer, for the in-FPGA build.
//!
//! C simulation checks a watch site by address (hls-lib `watch.h`); hardware has no addresses
//! to compare (an m_axi port's pointer, a BRAM array), so a site there needs its element's index
//! from the watched buffer's first element as a number: the subscript plus the accessed
//! pointer's offset in the buffer. That offset is worked out here, at rewrite time, from the call
//! arguments: the watched parameter of the top is offset 0; a callee's pointer parameter has
//! offset `o + c` when every call of it in the design passes `q`, `q + c`, `c + q`, `q - c` or
//! `&q[c]` (`c` an integer literal) for a parameter `q` of the caller with offset `o`, the same
//! at every call. Any other argument (another port of the top, a local array, an index that is
//! not a constant), or calls that disagree, leave the offset unknown: such a site is not watched
//! in the in-FPGA build, and the rewrite says so.

use crate::model::{FileModel, Function};
use crate::select::FunctionIndex;
use crate::source::SourceFile;
use std::collections::{BTreeSet, HashMap};

/// `(file, function index in its file, parameter name)` → offset in elements.
pub type Offsets = HashMap<(String, usize, String), i64>;

/// The offset of every pointer parameter of the design (the top and what it reaches) that is
/// known (see the module doc); parameters whose element type is not `elem` are left out.
pub fn offsets(files: &[(&SourceFile, &FileModel)], top: &str, buffer: &str, elem: &str) -> Offsets {
    let index = FunctionIndex::new(files.iter().map(|(_, m)| *m));
    let tops = index.named(top).to_vec();
    let design: BTreeSet<usize> = index.reach(tops.clone());
    let start = || -> HashMap<usize, HashMap<&str, i64>> {
        tops.iter().map(|&t| (t, HashMap::from([(buffer, 0i64)]))).collect()
    };
    let mut known = start();
    // The call graph is acyclic (recursion is refused by the plumbing), so each pass settles at
    // least one more level; one pass per function is enough.
    for _ in 0..=design.len() {
        let mut seen: HashMap<(usize, &str), Vec<Option<i64>>> = HashMap::new();
        for &g in &design {
            let env = known.get(&g);
            for call in &index.all[g].2.calls {
                for &j in index.named(&call.name).iter().filter(|j| design.contains(j) && !tops.contains(j)) {
                    for p in pointer_params(index.all[j].2, elem) {
                        let arg = call.args.get(p.0).map(String::as_str).unwrap_or("");
                        seen.entry((j, p.1)).or_default().push(env.and_then(|e| resolve(arg, e)));
                    }
                }
            }
        }
        let mut next = start();
        for ((j, name), values) in seen {
            if let [Some(first), rest @ ..] = values.as_slice() {
                if rest.iter().all(|v| *v == Some(*first)) {
                    next.entry(j).or_default().insert(name, *first);
                }
            }
        }
        if next == known {
            break;
        }
        known = next;
    }
    let mut out = Offsets::new();
    for (j, params) in known {
        let (file, fi, _) = index.all[j];
        for (name, off) in params {
            out.insert((files[file].0.rel.clone(), fi, name.to_string()), off);
        }
    }
    out
}

/// `(position in the parameter list, name)` of the one-subscript pointer or array parameters
/// of `f` whose element type is `elem`.
fn pointer_params<'a>(f: &'a Function, elem: &'a str) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    f.maxi
        .params
        .iter()
        .filter(move |p| p.rank == 1 && crate::plan::element_type(&p.element_type) == elem)
        .map(|p| (p.index, p.name.as_str()))
}

/// The offset an argument expression points at, given the caller's known offsets.
fn resolve(arg: &str, env: &HashMap<&str, i64>) -> Option<i64> {
    let text: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
    let mut t = text.as_str();
    while let Some(inner) = t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        t = inner;
    }
    let base = |name: &str| env.get(name).copied();
    let num = |s: &str| -> Option<i64> { s.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok() };
    if let Some(rest) = t.strip_prefix('&') {
        let (name, sub) = rest.strip_suffix(']')?.split_once('[')?;
        return base(name)?.checked_add(num(sub)?);
    }
    if let Some(v) = base(t) {
        return Some(v);
    }
    if let Some((a, b)) = t.split_once('+') {
        return match (base(a), num(b), num(a), base(b)) {
            (Some(o), Some(c), _, _) | (_, _, Some(c), Some(o)) => o.checked_add(c),
            _ => None,
        };
    }
    let (a, b) = t.split_once('-')?;
    base(a)?.checked_sub(num(b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_that_point_into_the_buffer() {
        let env = HashMap::from([("data", 0i64), ("acc", 4)]);
        for (arg, want) in [
            ("data", Some(0)),
            ("(data)", Some(0)),
            ("data + 2", Some(2)),
            ("3+acc", Some(7)),
            ("acc - 1", Some(3)),
            ("&data[5]", Some(5)),
            ("&acc[2u]", Some(6)),
            ("delta", None),
            ("data + n", None),
            ("&data[i]", None),
            ("data[2]", None),
            ("", None),
        ] {
            assert_eq!(resolve(arg, &env), want, "{arg}");
        }
    }
}
