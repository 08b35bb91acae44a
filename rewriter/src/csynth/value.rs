//! Leaf values of csynth.xml: counts, `min ~ max` ranges and times, with the report's ways of
//! saying "unknown" (`undef`, `-`, `?`, empty).
//!
//! Every function here is total: text that is not a value gives `None`, never a panic. The
//! report reader uses [`is_undefined`] to tell "the tool said unknown" (silently `None`) from
//! "this is not a value" (`None` plus a warning).

use serde::Serialize;

/// An inclusive `min ..= max` range, as the reports give latencies, intervals and trip counts.
/// A single number is the range `n ~ n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range<T> {
    pub min: T,
    pub max: T,
}

impl<T: Copy + PartialOrd> Range<T> {
    /// A range of one value.
    pub fn single(v: T) -> Self {
        Range { min: v, max: v }
    }

    /// The range from two ends in either order.
    pub fn new(a: T, b: T) -> Self {
        if b < a {
            Range { min: b, max: a }
        } else {
            Range { min: a, max: b }
        }
    }

    /// True when min == max: the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.min == self.max
    }

    /// The value when the range is exact.
    pub fn exact(&self) -> Option<T> {
        self.is_exact().then_some(self.min)
    }
}

/// Tokens the tools write for "no value": `undef` (csynth.xml), `-` and `?` (the .rpt tables),
/// `N/A`, and empty text. Case-insensitive, surrounding whitespace ignored.
pub fn is_undefined(text: &str) -> bool {
    let t = text.trim();
    t.is_empty()
        || t == "-"
        || t == "?"
        || t.eq_ignore_ascii_case("undef")
        || t.eq_ignore_ascii_case("n/a")
        || t.eq_ignore_ascii_case("na")
}

/// A non-negative integer count (cycles, trip count, II, resources). `None` for undefined
/// markers and for anything that is not a plain decimal integer.
pub fn parse_count(text: &str) -> Option<u64> {
    let t = text.trim();
    if is_undefined(t) || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// A count or a `min ~ max` count range (`495 ~ 10197`). A single number gives `n ~ n`;
/// an undefined marker on either side gives `None`.
pub fn parse_count_range(text: &str) -> Option<Range<u64>> {
    match split_range(text) {
        (one, None) => parse_count(one).map(Range::single),
        (a, Some(b)) => Some(Range::new(parse_count(a)?, parse_count(b)?)),
    }
}

/// A time normalized to nanoseconds: `4.00 ns`, `1.020 us`, `1.057 ms`, `750 ps`, `2 s`
/// (also `µs`/`μs`). A bare number is taken in `default_unit` (the report's `<unit>`, `ns` in every
/// report seen; pass `"ns"` when unsure). Negative, non-finite or unit-less garbage gives `None`.
pub fn parse_time_ns(text: &str, default_unit: &str) -> Option<f64> {
    let t = text.trim();
    if is_undefined(t) {
        return None;
    }
    let (num, unit) = match UNITS.iter().find(|(u, _)| t.ends_with(u)) {
        Some((u, _)) => (t[..t.len() - u.len()].trim(), *u),
        None => (t, default_unit.trim()),
    };
    let scale = unit_scale_ns(unit)?;
    // f64's parser also takes "inf" and "NaN": only digits, sign, dot and an exponent pass.
    if num.contains(|c: char| c.is_alphabetic() && c != 'e' && c != 'E') {
        return None;
    }
    let v: f64 = num.parse().ok()?;
    let ns = v * scale;
    (ns.is_finite() && ns >= 0.0).then_some(ns)
}

/// A time or a `min ~ max` time range (`10.000 ns ~ 0.990 us`), normalized to nanoseconds.
pub fn parse_time_range_ns(text: &str, default_unit: &str) -> Option<Range<f64>> {
    match split_range(text) {
        (one, None) => parse_time_ns(one, default_unit).map(Range::single),
        (a, Some(b)) => Some(Range::new(parse_time_ns(a, default_unit)?, parse_time_ns(b, default_unit)?)),
    }
}

/// A plain decimal number such as a slack or clock uncertainty (`7.30`); no unit allowed.
pub fn parse_number(text: &str) -> Option<f64> {
    let t = text.trim();
    if is_undefined(t) || t.contains(|c: char| c.is_alphabetic()) {
        return None;
    }
    t.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Time units and their length in nanoseconds, longest suffix first so `ns` is not read as `s`.
const UNITS: &[(&str, f64)] =
    &[("sec", 1e9), ("ps", 1e-3), ("ns", 1.0), ("us", 1e3), ("µs", 1e3), ("μs", 1e3), ("ms", 1e6), ("s", 1e9)];

/// Nanoseconds per unit. Unknown units give `None`.
fn unit_scale_ns(unit: &str) -> Option<f64> {
    UNITS.iter().find(|(u, _)| *u == unit).map(|(_, scale)| *scale)
}

/// `"a ~ b"` → (`a`, Some(`b`)); text without `~` → (text, None). Only the first `~` splits:
/// `"1 ~ 2 ~ 3"` leaves `"2 ~ 3"` on the right, which then fails to parse as one value.
fn split_range(text: &str) -> (&str, Option<&str>) {
    match text.split_once('~') {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    }
}

/// `VITIS_LOOP_<line>_<ordinal>` → (line, ordinal): the name Vitis HLS gives an unlabeled loop,
/// from the source line of its `for`/`while` and its 1-based ordinal in the function. A `.N`
/// copy suffix (`VITIS_LOOP_35_2.2`) is not accepted here: see [`split_copy_suffix`].
pub fn parse_vitis_loop_name(name: &str) -> Option<(u32, u32)> {
    let rest = name.strip_prefix("VITIS_LOOP_")?;
    let (line, ordinal) = rest.split_once('_')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(line) || !digits(ordinal) {
        return None;
    }
    Some((line.parse().ok()?, ordinal.parse().ok()?))
}

/// The `(line, ordinal)` of each `VITIS_LOOP_<line>_<n>` in a name: one for a plain name, several
/// for a flattened loop nest (`VITIS_LOOP_10_1_VITIS_LOOP_11_2`: the outer loop first). Empty
/// unless the whole name is made of such parts.
pub fn parse_vitis_loop_names(name: &str) -> Vec<(u32, u32)> {
    let Some(rest) = name.strip_prefix("VITIS_LOOP_") else { return Vec::new() };
    let parts: Option<Vec<(u32, u32)>> =
        rest.split("_VITIS_LOOP_").map(|p| parse_vitis_loop_name(&format!("VITIS_LOOP_{p}"))).collect();
    parts.unwrap_or_default()
}

/// `NAME.N` → (`NAME`, Some(N)): the suffix HLS adds to a loop's copies (after inlining or
/// loop transformations, e.g. `VITIS_LOOP_35_2.13`). Names without such a suffix → (name, None).
pub fn split_copy_suffix(name: &str) -> (&str, Option<u32>) {
    if let Some((base, n)) = name.rsplit_once('.') {
        if !base.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
            if let Ok(n) = n.parse() {
                return (base, Some(n));
            }
        }
    }
    (name, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts() {
        assert_eq!(parse_count("102"), Some(102));
        assert_eq!(parse_count("  7 \n"), Some(7));
        assert_eq!(parse_count("0"), Some(0));
        for none in ["undef", "UNDEF", "-", "?", "", "  ", "N/A", "-1", "+5", "1.5", "1e3", "abc", "1 2"] {
            assert_eq!(parse_count(none), None, "{none:?}");
        }
        assert_eq!(parse_count("99999999999999999999999"), None, "overflow is not a value");
    }

    #[test]
    fn count_ranges() {
        assert_eq!(parse_count_range("495 ~ 10197"), Some(Range { min: 495, max: 10197 }));
        assert_eq!(parse_count_range("5~103"), Some(Range { min: 5, max: 103 }));
        assert_eq!(parse_count_range("1000"), Some(Range::single(1000)));
        assert_eq!(parse_count_range("9 ~ 3"), Some(Range { min: 3, max: 9 }), "ends in either order");
        assert_eq!(parse_count_range("undef"), None);
        assert_eq!(parse_count_range("3 ~ undef"), None);
        assert_eq!(parse_count_range("~"), None);
        assert_eq!(parse_count_range("1 ~ 2 ~ 3"), None);
        assert!(Range::single(4u64).is_exact());
        assert_eq!(Range::new(2u64, 5).exact(), None);
    }

    #[test]
    fn times() {
        let ns = |t| parse_time_ns(t, "ns");
        assert_eq!(ns("4.00 ns"), Some(4.0));
        assert_eq!(ns("10.00"), Some(10.0), "bare numbers are in the report unit");
        assert!((ns("1.020 us").unwrap() - 1020.0).abs() < 1e-9);
        assert!((ns("1.057 ms").unwrap() - 1_057_000.0).abs() < 1e-6);
        assert!((ns("750 ps").unwrap() - 0.75).abs() < 1e-12);
        assert!((ns("2 s").unwrap() - 2e9).abs() < 1e-3);
        assert!((ns("3 µs").unwrap() - 3000.0).abs() < 1e-9);
        assert_eq!(ns("1.154e+06"), Some(1.154e6), "the .rpt tables write exponents");
        assert!((parse_time_ns("2", "us").unwrap() - 2000.0).abs() < 1e-9);
        for none in ["undef", "-", "", "ns", "1.0 furlongs", "-3 ns", "inf", "NaN ns", "1..0 ns"] {
            assert_eq!(ns(none), None, "{none:?}");
        }
        let r = parse_time_range_ns("10.000 ns ~ 0.990 us", "ns").unwrap();
        assert!((r.min - 10.0).abs() < 1e-9 && (r.max - 990.0).abs() < 1e-9);
        let r = parse_time_range_ns("4.950 us ~ 0.102 ms", "ns").unwrap();
        assert!((r.min - 4950.0).abs() < 1e-6 && (r.max - 102_000.0).abs() < 1e-6);
        assert_eq!(parse_time_range_ns("1050000", "ns"), Some(Range::single(1_050_000.0)));
        assert_eq!(parse_time_range_ns("1 ns ~ undef", "ns"), None);
    }

    #[test]
    fn numbers() {
        assert_eq!(parse_number("7.30"), Some(7.3));
        assert_eq!(parse_number("-0.5"), Some(-0.5), "slack can be negative");
        assert_eq!(parse_number("undef"), None);
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("2 ns"), None);
    }

    #[test]
    fn undefined_markers() {
        for t in ["undef", " - ", "?", "", "N/A", "NA"] {
            assert!(is_undefined(t), "{t:?}");
        }
        for t in ["0", "none", "1 ~ 2"] {
            assert!(!is_undefined(t), "{t:?}");
        }
    }

    #[test]
    fn loop_names() {
        assert_eq!(parse_vitis_loop_name("VITIS_LOOP_57_4"), Some((57, 4)));
        assert_eq!(parse_vitis_loop_name("VITIS_LOOP_126_1"), Some((126, 1)));
        for none in ["VITIS_LOOP_35_2.2", "VITIS_LOOP_35", "VITIS_LOOP__1", "VITIS_LOOP_a_1", "outer", "LOOP_1_2"] {
            assert_eq!(parse_vitis_loop_name(none), None, "{none:?}");
        }
        assert_eq!(parse_vitis_loop_names("VITIS_LOOP_57_4"), [(57, 4)]);
        assert_eq!(parse_vitis_loop_names("VITIS_LOOP_10_1_VITIS_LOOP_11_2"), [(10, 1), (11, 2)]);
        assert!(parse_vitis_loop_names("VITIS_LOOP_10_1_inner").is_empty());
        assert!(parse_vitis_loop_names("VITIS_LOOP_10_1_VITIS_LOOP_").is_empty());
        assert!(parse_vitis_loop_names("rows_cols").is_empty());
        assert_eq!(split_copy_suffix("VITIS_LOOP_35_2.13"), ("VITIS_LOOP_35_2", Some(13)));
        assert_eq!(split_copy_suffix("VITIS_LOOP_35_2"), ("VITIS_LOOP_35_2", None));
        assert_eq!(split_copy_suffix("a.b"), ("a.b", None));
        assert_eq!(split_copy_suffix(".3"), (".3", None));
    }
}
