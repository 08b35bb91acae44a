//! AXI4-Stream elements with side channels: the capture records a struct element (`ap_axiu`,
//! `ap_axis`, `hls::axis`) as its fields packed LSB first with their names and widths; the RTL
//! has one port per side channel it kept (Vitis leaves out zero-width ones, which C-simulation
//! models may still hold as 1-bit members). Elements are repacked by field name between the
//! C layout and the RTL's ports, so either header works.

use super::plan::Value;
use super::solution::Interfaces;

/// Field names and widths, LSB first.
pub type Layout = Vec<(String, u32)>;

/// The axis port suffixes in packing order, and the C field each carries.
const PORTS: [(&str, &str); 7] = [
    ("_TDATA", "data"),
    ("_TKEEP", "keep"),
    ("_TSTRB", "strb"),
    ("_TUSER", "user"),
    ("_TLAST", "last"),
    ("_TID", "id"),
    ("_TDEST", "dest"),
];

/// The fields the RTL's axis ports under `prefix` carry, in packing order.
pub fn rtl_layout(ifs: &Interfaces, prefix: &str) -> Layout {
    PORTS
        .iter()
        .filter_map(|(s, f)| {
            ifs.ports.iter().find(|p| p.name == format!("{prefix}{s}")).map(|p| (f.to_string(), p.width))
        })
        .collect()
}

/// `layout data:32,keep:4,...` text → fields.
pub fn parse(text: &str) -> Option<Layout> {
    text.split(',').map(|f| f.split_once(':').and_then(|(n, w)| Some((n.to_string(), w.parse().ok()?)))).collect()
}

pub fn bits(l: &Layout) -> u32 {
    l.iter().map(|(_, w)| w).sum()
}

/// The fields of `to` that `from` has too, with `to`'s widths.
pub fn common(from: &Layout, to: &Layout) -> Layout {
    to.iter().filter(|(n, _)| from.iter().any(|(m, _)| m == n)).cloned().collect()
}

fn bit(b: &[u8], i: usize) -> bool {
    b.get(i / 8).is_some_and(|x| (x >> (i % 8)) & 1 == 1)
}

/// One element from layout `from` to layout `to`: each field of `to` from the field of the
/// same name (cut or zero-extended to its width), zero when `from` has none.
pub fn repack(elem: &[u8], from: &Layout, to: &Layout) -> Vec<u8> {
    let mut out = vec![0u8; (bits(to) as usize).div_ceil(8)];
    let mut at = 0usize;
    for (name, w) in to {
        let mut src = None;
        let mut off = 0usize;
        for (n, fw) in from {
            if n == name {
                src = Some((off, *fw as usize));
            }
            off += *fw as usize;
        }
        for i in 0..*w as usize {
            if let Some((o, fw)) = src {
                if i < fw && bit(elem, o + i) {
                    out[(at + i) / 8] |= 1 << ((at + i) % 8);
                }
            }
        }
        at += *w as usize;
    }
    out
}

/// Every element of `v` (in layout `from`) in layout `to`.
pub fn repack_value(v: &Value, from: &Layout, to: &Layout) -> Value {
    let eb = v.elem_bytes.max(1);
    let mut out = v.clone();
    out.bytes = v.bytes.chunks(eb).flat_map(|e| repack(e, from, to)).collect();
    out.bits = bits(to);
    out.elem_bytes = (bits(to) as usize).div_ceil(8);
    out.fields = to.clone();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_move_by_name() {
        // data:8 keep:1 user:1 last:1 (a 1-bit placeholder `user` the RTL has no port for).
        let c = parse("data:8,keep:1,user:1,last:1").unwrap();
        let rtl: Layout = vec![("data".into(), 8), ("keep".into(), 1), ("last".into(), 1)];
        // data 0xa5, keep 1, user 1, last 1 → bits 0..7, 8, 9, 10.
        let e = [0xa5, 0b111];
        assert_eq!(repack(&e, &c, &rtl), [0xa5, 0b11]);
        assert_eq!(repack(&[0xa5, 0b11], &rtl, &c), [0xa5, 0b101]);
        assert_eq!(common(&c, &rtl), rtl);
        assert_eq!(parse("data:x"), None);
    }
}
