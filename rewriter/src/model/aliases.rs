//! Function names that are macros: `#define sha3_256 pqcrystals_fips202_ref_sha3_256` (the
//! pqcrystals reference code names every function through such a macro). The source defines and
//! calls `sha3_256`; the preprocessor hands the compiler, and so Vitis, the expansion: the
//! script's `set_top`, the report's module names and the directives' function names are the
//! expanded name. The rewriter keeps the name as written (probes, calls, messages point at the
//! source) and records the expansion beside it (a function probe's `vitis_name` in the
//! manifest), where `sim` meets Vitis' names.
//!
//! Only object-like macros whose replacement is one identifier count, followed through chains
//! (`#define A B`, `#define B C`: `A` is `C`). The scan is textual, over every input (sources and
//! the headers rewritten with them), one line per definition, as `consts` reads array sizes: a
//! name defined twice with different replacements, or `#undef`ined anywhere, depends on where
//! the preprocessor is and is dropped, never guessed.

use std::collections::HashMap;

/// Steps followed through a chain of aliases before giving up (a cycle, `#define A B` and
/// `#define B A`, never expands in the preprocessor either).
const MAX_CHAIN: usize = 32;

/// Macro name → the identifier it is defined as; `None` where the sources disagree.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Aliases {
    defs: HashMap<String, Option<String>>,
}

impl Aliases {
    /// The aliases defined in `texts`.
    pub fn scan<'a>(texts: impl IntoIterator<Item = &'a str>) -> Aliases {
        let mut a = Aliases::default();
        for t in texts {
            a.add(t);
        }
        a
    }

    /// Adds the definitions of one file.
    pub fn add(&mut self, text: &str) {
        if !text.contains("define") && !text.contains("undef") {
            return; // most files: one search instead of a look at every line
        }
        for line in text.lines() {
            match directive(line) {
                Some(Line::Alias(name, to)) => {
                    let slot = self.defs.entry(name.to_string()).or_insert_with(|| Some(to.to_string()));
                    if slot.as_deref() != Some(to) {
                        *slot = None;
                    }
                }
                Some(Line::Other(name)) => {
                    self.defs.insert(name.to_string(), None);
                }
                None => {}
            }
        }
    }

    /// Joins another scan's definitions (a name the two define differently is dropped).
    pub fn merge(&mut self, other: Aliases) {
        for (name, to) in other.defs {
            let slot = self.defs.entry(name).or_insert_with(|| to.clone());
            if *slot != to {
                *slot = None;
            }
        }
    }

    /// True when no alias is known (the common case: nothing to look up).
    pub fn is_empty(&self) -> bool {
        self.defs.values().all(Option::is_none)
    }

    /// The identifier `name` expands to when it is an alias (chains followed), else `None`.
    pub fn expand(&self, name: &str) -> Option<&str> {
        let mut at: Option<&str> = None;
        for _ in 0..MAX_CHAIN {
            match self.defs.get(at.unwrap_or(name)) {
                Some(Some(to)) => at = Some(to),
                Some(None) => return None,
                None => return at.filter(|a| *a != name),
            }
        }
        None
    }
}

/// What a preprocessor line says about a name.
enum Line<'a> {
    /// `#define NAME OTHER`, OTHER one identifier.
    Alias(&'a str, &'a str),
    /// `#define NAME` anything else, or `#undef NAME`: NAME is not (only) an alias.
    Other(&'a str),
}

/// `#define NAME REPLACEMENT` or `#undef NAME` (function-like macros are neither: their name
/// is not a function's).
fn directive(line: &str) -> Option<Line<'_>> {
    if let Some((name, _)) = super::consts::named_directive(line, "undef") {
        return is_ident(name).then_some(Line::Other(name));
    }
    let (name, body) = super::consts::named_directive(line, "define")?;
    if !is_ident(name) {
        return None;
    }
    let body = match body.find("/*") {
        Some(at) if body[at..].contains("*/") => &body[..at],
        _ => body,
    };
    let body = body.trim();
    Some(if is_ident(body) { Line::Alias(name, body) } else { Line::Other(name) })
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(is_ident_char) && !s.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn object_like_aliases_and_their_chains() {
        let a = Aliases::scan([
            "#define sha3_256 pqcrystals_fips202_ref_sha3_256\n#  define A B // note\n",
            "#define B C /* the real one */\n#define N 8\n#define F(x) g(x)\n#define TWO a b\n#define EMPTY\n",
        ]);
        assert_eq!(a.expand("sha3_256"), Some("pqcrystals_fips202_ref_sha3_256"));
        assert_eq!(a.expand("A"), Some("C"), "a chain is followed to its end");
        assert_eq!(a.expand("B"), Some("C"));
        assert_eq!(a.expand("C"), None, "not a macro");
        for not_alias in ["N", "F", "TWO", "EMPTY", "pqcrystals_fips202_ref_sha3_256"] {
            assert_eq!(a.expand(not_alias), None, "{not_alias}");
        }
        assert!(!a.is_empty());
    }

    #[test]
    fn disagreeing_undefined_and_cyclic_names_are_dropped() {
        let a = Aliases::scan(["#define f g\n#define h k\n#undef h\n#define p q\n#define q p\n", "#define f other\n"]);
        assert_eq!(a.expand("f"), None, "two replacements: depends on the preprocessor's place");
        assert_eq!(a.expand("h"), None, "undefined somewhere");
        assert_eq!(a.expand("p"), None, "a cycle never expands");
        let mut b = Aliases::scan(["#define x y\n"]);
        b.merge(Aliases::scan(["#define x z\n#define u v\n"]));
        assert_eq!((b.expand("x"), b.expand("u")), (None, Some("v")));
        assert!(Aliases::scan(["int f();\n"]).is_empty());
    }
}
