//! Partitioned array arguments: `#pragma HLS ARRAY_PARTITION` (or `set_directive_array_partition`
//! in the solution's `directives.tcl`) splits an array argument of the top into banks, each its
//! own RTL port group named `<arg>_<k>` (`<arg>_<k>_<j>` when several dimensions are split;
//! Vivado HLS adds `_V` to arbitrary-precision names: `<arg>_<k>_V`). A bank is an ap_memory RAM
//! of the dimensions left, or one element on scalar ports once every dimension is split
//! completely. This module maps each C element (row-major index) to its bank and the address
//! in it, from the partition type, factor and dimension.
//!
//! Per split dimension of size N: `cyclic F` puts index i in bank i % F at i / F; `block F` in
//! bank i / ⌈N/F⌉ at i % ⌈N/F⌉; `complete` in bank i, and the dimension leaves the address. A
//! bank's address is row-major over the dimensions as the banks have them (each ⌈N/F⌉ long), so
//! an uneven split leaves holes at the ends of rows, which the RTL never addresses.

use crate::model::pragma::HlsPragma;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Complete,
    Cyclic,
    Block,
}

/// One partition directive of one array.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    pub kind: Kind,
    /// Banks per split dimension (cyclic, block); unused for complete.
    pub factor: usize,
    /// 1-based dimension; 0: every dimension.
    pub dim: usize,
}

/// A bank: its indices (one per split dimension, outermost first) and, per address, the C
/// element it holds (`None`: a hole of an uneven split).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bank {
    pub key: Vec<usize>,
    pub elems: Vec<Option<usize>>,
}

impl Bank {
    /// `_0`, `_1_2`: what the tools append to the argument's name.
    pub fn suffix(&self) -> String {
        self.key.iter().map(|k| format!("_{k}")).collect()
    }
}

fn spec_from(kind: Option<&str>, factor: Option<&str>, dim: Option<&str>) -> Result<Spec, String> {
    let kind = match kind.map(str::to_ascii_lowercase).as_deref() {
        None | Some("complete") => Kind::Complete,
        Some("cyclic") => Kind::Cyclic,
        Some("block") => Kind::Block,
        Some(k) => return Err(format!("partition type `{k}` (expected complete, cyclic or block)")),
    };
    let num = |what: &str, v: Option<&str>, default: usize| -> Result<usize, String> {
        match v {
            None => Ok(default),
            Some(t) => t.trim().parse().map_err(|_| {
                format!("{what} `{t}` is not a number (cosim reads integer literals in partition directives)")
            }),
        }
    };
    let factor = num("factor", factor, 0)?;
    if kind != Kind::Complete && factor == 0 {
        return Err("a cyclic or block partition without `factor=`".into());
    }
    Ok(Spec { kind, factor, dim: num("dim", dim, 1)? })
}

/// `#pragma HLS ARRAY_PARTITION variable=a type=cyclic factor=2 dim=1` (Vitis) or
/// `... variable=a cyclic factor=2` (Vivado HLS): the variable and its spec.
pub fn from_pragma(p: &HlsPragma) -> Option<(String, Result<Spec, String>)> {
    if p.directive != "ARRAY_PARTITION" {
        return None;
    }
    let var = p.option("variable")?.to_string();
    let kind = p
        .option("type")
        .or_else(|| p.flags.iter().find(|f| matches!(f.as_str(), "complete" | "cyclic" | "block")).map(String::as_str));
    Some((var, spec_from(kind, p.option("factor"), p.option("dim"))))
}

/// `set_directive_array_partition -type cyclic -factor 2 -dim 1 "top" a` lines of a
/// `directives.tcl` that name function `top`.
pub fn from_directives_tcl(text: &str, top: &str) -> Vec<(String, Result<Spec, String>)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let words: Vec<String> = line.split_whitespace().map(|w| w.trim_matches('"').to_string()).collect();
        if words.first().map(String::as_str) != Some("set_directive_array_partition") {
            continue;
        }
        let mut opts: BTreeMap<&str, &str> = BTreeMap::new();
        let mut plain = Vec::new();
        let mut k = 1;
        while k < words.len() {
            if let Some(o) = words[k].strip_prefix('-') {
                opts.insert(o, words.get(k + 1).map_or("", String::as_str));
                k += 2;
            } else {
                plain.push(words[k].as_str());
                k += 1;
            }
        }
        // The location is `top` (or `top/label`), then the variable.
        if let [loc, var] = plain[..] {
            if loc == top {
                let spec = spec_from(opts.get("type").copied(), opts.get("factor").copied(), opts.get("dim").copied());
                out.push((var.to_string(), spec));
            }
        }
    }
    out
}

/// The banks of an array of dimensions `dims` (outermost first) under `specs`; a dimension
/// split twice is an error.
pub fn banks(dims: &[usize], specs: &[Spec]) -> Result<Vec<Bank>, String> {
    // Per dimension: how it is split (None: kept whole).
    let mut split: Vec<Option<(Kind, usize)>> = vec![None; dims.len()];
    for s in specs {
        let targets: Vec<usize> = if s.dim == 0 { (0..dims.len()).collect() } else { vec![s.dim - 1] };
        for d in targets {
            if d >= dims.len() {
                return Err(format!("partition of dimension {} of an array of {} dimension(s)", s.dim, dims.len()));
            }
            if split[d].is_some() {
                return Err(format!("dimension {} is partitioned twice", d + 1));
            }
            let f = if s.kind == Kind::Complete { dims[d] } else { s.factor.min(dims[d]).max(1) };
            split[d] = Some((s.kind, f));
        }
    }
    // Each dimension's length inside a bank (complete: gone).
    let inner: Vec<Option<usize>> = dims
        .iter()
        .zip(&split)
        .map(|(&n, s)| match s {
            None => Some(n),
            Some((Kind::Complete, _)) => None,
            Some((_, f)) => Some(n.div_ceil(*f)),
        })
        .collect();
    let depth: usize = inner.iter().flatten().product();
    let total: usize = dims.iter().product();
    let mut map: BTreeMap<Vec<usize>, Vec<Option<usize>>> = BTreeMap::new();
    for flat in 0..total {
        // Row-major index → per-dimension indices.
        let mut idx = vec![0; dims.len()];
        let mut r = flat;
        for d in (0..dims.len()).rev() {
            idx[d] = r % dims[d];
            r /= dims[d];
        }
        let mut key = Vec::new();
        let mut addr = 0;
        for d in 0..dims.len() {
            let (bank, at) = match split[d] {
                None => (None, idx[d]),
                Some((Kind::Complete, _)) => (Some(idx[d]), 0),
                Some((Kind::Cyclic, f)) => (Some(idx[d] % f), idx[d] / f),
                Some((Kind::Block, f)) => {
                    let len = dims[d].div_ceil(f);
                    (Some(idx[d] / len), idx[d] % len)
                }
            };
            key.extend(bank);
            if let Some(len) = inner[d] {
                addr = addr * len + at;
            }
        }
        map.entry(key).or_insert_with(|| vec![None; depth])[addr] = Some(flat);
    }
    Ok(map.into_iter().map(|(key, elems)| Bank { key, elems }).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(kind: Kind, factor: usize, dim: usize) -> Spec {
        Spec { kind, factor, dim }
    }

    fn flat(b: &Bank) -> Vec<Option<usize>> {
        b.elems.clone()
    }

    #[test]
    fn cyclic_block_and_complete_of_one_dimension() {
        let c = banks(&[8], &[spec(Kind::Cyclic, 2, 1)]).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].suffix(), "_1");
        assert_eq!(flat(&c[1]), [Some(1), Some(3), Some(5), Some(7)]);
        let b = banks(&[10], &[spec(Kind::Block, 4, 1)]).unwrap();
        assert_eq!(b.len(), 4);
        assert_eq!(flat(&b[3]), [Some(9), None, None]);
        let all = banks(&[3], &[spec(Kind::Complete, 0, 1)]).unwrap();
        assert_eq!(
            all.iter().map(|b| (b.suffix(), flat(b))).collect::<Vec<_>>(),
            [("_0".to_string(), vec![Some(0)]), ("_1".to_string(), vec![Some(1)]), ("_2".to_string(), vec![Some(2)])]
        );
    }

    #[test]
    fn inner_dimensions_and_uneven_rows() {
        // a[2][4], dim 1 complete: two banks of one row each.
        let r = banks(&[2, 4], &[spec(Kind::Complete, 0, 1)]).unwrap();
        assert_eq!(flat(&r[1]), [Some(4), Some(5), Some(6), Some(7)]);
        // a[2][5], dim 2 cyclic 2: bank 1 holds columns 1, 3 of each row, rows 3 long.
        let c = banks(&[2, 5], &[spec(Kind::Cyclic, 2, 2)]).unwrap();
        assert_eq!(flat(&c[1]), [Some(1), Some(3), None, Some(6), Some(8), None]);
        // dim 0: every dimension completely → one bank per element, two indices.
        let e = banks(&[2, 2], &[spec(Kind::Complete, 0, 0)]).unwrap();
        assert_eq!(e[2].suffix(), "_1_0");
        assert_eq!(flat(&e[2]), [Some(2)]);
        assert!(banks(&[4], &[spec(Kind::Cyclic, 2, 2)]).is_err());
    }

    #[test]
    fn directives_of_both_tools() {
        let p = crate::model::pragma::classify("HLS ARRAY_PARTITION variable=a cyclic factor=4", 3);
        let crate::model::pragma::PragmaLine::Hls(p) = p else { panic!() };
        assert_eq!(from_pragma(&p), Some(("a".into(), Ok(spec(Kind::Cyclic, 4, 1)))));
        let t = "set_directive_array_partition -type block -factor 2 -dim 2 \"top\" m\n\
                 set_directive_array_partition -type complete -dim 1 \"other\" m\n";
        assert_eq!(from_directives_tcl(t, "top"), [("m".to_string(), Ok(spec(Kind::Block, 2, 2)))]);
    }
}
