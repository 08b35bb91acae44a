//! Integer constants of the source set, for array sizes: `#define NAME <int expr>` and
//! `const`/`constexpr` integer variables, evaluated with a small evaluator of integer
//! expressions (`+ - * / % << >>`, parentheses, unary minus, literals with `u`/`l` suffixes, hex,
//! octal and binary; and the comparisons and logic of `#if` conditions, `< <= > >= == != && || !`,
//! which give 1 or 0 as the preprocessor's do). Without a report, `sim` needs an initialised array's element count (the
//! trips of the module Vitis makes of the initialiser, facts rule 1); a size it cannot evaluate is
//! said so, never guessed.
//!
//! The scan is textual (one line per definition), which is what array sizes are written with;
//! a name defined twice with different values is dropped (it depends on the preprocessor).

use std::collections::HashMap;

/// Names with their values; `None` for a name defined with different values.
#[derive(Debug, Clone, Default)]
pub struct Constants {
    defs: HashMap<String, Option<String>>,
}

impl Constants {
    /// The definitions in `texts` (sources and headers).
    pub fn scan<'a>(texts: impl IntoIterator<Item = &'a str>) -> Constants {
        let mut c = Constants::default();
        for t in texts {
            c.add(t);
        }
        c
    }

    /// Adds the definitions of one file.
    pub fn add(&mut self, text: &str) {
        for line in text.lines() {
            if let Some((name, expr)) = define(line).or_else(|| const_var(line)) {
                let slot = self.defs.entry(name).or_insert_with(|| Some(expr.clone()));
                if slot.as_deref().is_some_and(|e| e.trim() != expr.trim()) {
                    *slot = None;
                }
            }
        }
    }

    /// The value of `expr`, or why it has none.
    pub fn eval(&self, expr: &str) -> Result<i128, String> {
        self.eval_depth(expr, 0)
    }

    fn eval_depth(&self, expr: &str, depth: usize) -> Result<i128, String> {
        let tokens = tokens(expr)?;
        let mut p = Parser { toks: &tokens, at: 0, consts: self, depth };
        let v = p.or()?;
        if p.at != tokens.len() {
            return Err(format!("`{}` is not an integer expression", expr.trim()));
        }
        Ok(v)
    }

    fn lookup(&self, name: &str, depth: usize) -> Result<i128, String> {
        match self.defs.get(name) {
            None => Err(format!("`{name}` is not a `#define` or `const` integer of the sources")),
            Some(None) => Err(format!("`{name}` is defined with different values")),
            Some(Some(_)) if depth > 32 => Err(format!("`{name}` is defined in terms of itself")),
            Some(Some(e)) => self.eval_depth(e, depth + 1),
        }
    }
}

/// `#define NAME body` (not a function-like macro).
fn define(line: &str) -> Option<(String, String)> {
    let (name, body) = named_directive(line, "define")?;
    (!body.is_empty()).then(|| (name.to_string(), body.to_string()))
}

/// `#<keyword> NAME rest` (`define`, `undef`): NAME and the rest without a `//` comment, trimmed
/// (empty for `#define NAME` or `#undef NAME`); `None` for another line or a function-like
/// macro (`#define F(x) ...`). Shared with `aliases`, which reads the same lines.
pub(super) fn named_directive<'a>(line: &'a str, keyword: &str) -> Option<(&'a str, &'a str)> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start().strip_prefix(keyword)?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    let (name, body) = rest.split_at(end);
    if name.is_empty() || body.starts_with('(') {
        return None;
    }
    Some((name, body.split("//").next().unwrap_or("").trim()))
}

/// `[static] const[expr] <integer type> NAME = expr;` on one line.
fn const_var(line: &str) -> Option<(String, String)> {
    let line = line.split("//").next()?.trim();
    let (lhs, rhs) = line.split_once('=')?;
    let rhs = rhs.trim().strip_suffix(';')?.trim();
    let words: Vec<&str> = lhs.split_whitespace().collect();
    let (&name, ty) = words.split_last()?;
    if !ty.iter().any(|w| *w == "const" || *w == "constexpr") {
        return None;
    }
    let integer = [
        "int", "unsigned", "signed", "long", "short", "char", "size_t", "int8_t", "int16_t", "int32_t", "int64_t",
        "uint8_t", "uint16_t", "uint32_t", "uint64_t",
    ];
    let ok_word = |w: &&str| {
        ["const", "constexpr", "static", "inline"].contains(w) || integer.contains(&w.trim_start_matches("std::"))
    };
    let valid = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && ty.iter().all(ok_word)
        && ty.iter().any(|w| integer.contains(&w.trim_start_matches("std::")));
    valid.then(|| (name.to_string(), rhs.to_string()))
}

/// A token of a constant expression (also read by `maxi`'s index check).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Num(i128),
    Name(String),
    Op(&'static str),
}

pub(super) fn tokens(s: &str) -> Result<Vec<Tok>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'\'') {
                i += 1;
            }
            out.push(Tok::Num(number(&s[start..i])?));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b':') {
                i += 1;
            }
            out.push(Tok::Name(s[start..i].trim_start_matches("::").to_string()));
        } else {
            let op = [
                "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "&",
                "|", "^", "~",
            ]
            .into_iter()
            .find(|op| s[i..].starts_with(op))
            .ok_or_else(|| format!("`{}`: `{c}` is not an operator the size evaluator knows", s.trim()))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Ok(out)
}

/// An integer literal with its suffixes (`16`, `0x10u`, `1'024`, `0b101`, `020`).
fn number(lit: &str) -> Result<i128, String> {
    let t = lit.replace('\'', "").to_ascii_lowercase();
    let t = t.trim_end_matches(['u', 'l', 'z']);
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x") {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b") {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t, 10)
    };
    i128::from_str_radix(digits, radix).map_err(|_| format!("`{lit}` is not an integer literal"))
}

/// Precedence climbing: `||` < `&&` < equality < relational < shift < additive < multiplicative
/// < unary.
struct Parser<'a> {
    toks: &'a [Tok],
    at: usize,
    consts: &'a Constants,
    depth: usize,
}

impl Parser<'_> {
    fn peek_op(&self, ops: &[&str]) -> Option<&'static str> {
        match self.toks.get(self.at) {
            Some(Tok::Op(o)) if ops.contains(o) => Some(o),
            _ => None,
        }
    }

    fn or(&mut self) -> Result<i128, String> {
        let mut v = self.and()?;
        while self.peek_op(&["||"]).is_some() {
            self.at += 1;
            let r = self.and()?;
            v = i128::from(v != 0 || r != 0);
        }
        Ok(v)
    }

    fn and(&mut self) -> Result<i128, String> {
        let mut v = self.equality()?;
        while self.peek_op(&["&&"]).is_some() {
            self.at += 1;
            let r = self.equality()?;
            v = i128::from(v != 0 && r != 0);
        }
        Ok(v)
    }

    fn equality(&mut self) -> Result<i128, String> {
        let mut v = self.relational()?;
        while let Some(op) = self.peek_op(&["==", "!="]) {
            self.at += 1;
            let r = self.relational()?;
            v = i128::from((v == r) == (op == "=="));
        }
        Ok(v)
    }

    fn relational(&mut self) -> Result<i128, String> {
        let mut v = self.shift()?;
        while let Some(op) = self.peek_op(&["<", "<=", ">", ">="]) {
            self.at += 1;
            let r = self.shift()?;
            v = i128::from(match op {
                "<" => v < r,
                "<=" => v <= r,
                ">" => v > r,
                _ => v >= r,
            });
        }
        Ok(v)
    }

    fn shift(&mut self) -> Result<i128, String> {
        let mut v = self.additive()?;
        while let Some(op) = self.peek_op(&["<<", ">>"]) {
            self.at += 1;
            let r = self.additive()?;
            let by = u32::try_from(r).ok().filter(|&n| n < 127).ok_or("a shift out of range")?;
            v = if op == "<<" { v.checked_shl(by).ok_or("an overflow")? } else { v >> by };
        }
        Ok(v)
    }

    fn additive(&mut self) -> Result<i128, String> {
        let mut v = self.multiplicative()?;
        while let Some(op) = self.peek_op(&["+", "-"]) {
            self.at += 1;
            let r = self.multiplicative()?;
            v = if op == "+" { v.checked_add(r) } else { v.checked_sub(r) }.ok_or("an overflow")?;
        }
        Ok(v)
    }

    fn multiplicative(&mut self) -> Result<i128, String> {
        let mut v = self.unary()?;
        while let Some(op) = self.peek_op(&["*", "/", "%"]) {
            self.at += 1;
            let r = self.unary()?;
            v = match op {
                "*" => v.checked_mul(r).ok_or("an overflow")?,
                _ if r == 0 => return Err("a division by zero".into()),
                "/" => v / r,
                _ => v % r,
            };
        }
        Ok(v)
    }

    fn unary(&mut self) -> Result<i128, String> {
        let tok = self.toks.get(self.at).cloned().ok_or("an expression that ends too early")?;
        self.at += 1;
        match tok {
            Tok::Num(n) => Ok(n),
            Tok::Name(n) => self.consts.lookup(&n, self.depth),
            Tok::Op("-") => Ok(-self.unary()?),
            Tok::Op("+") => self.unary(),
            Tok::Op("!") => Ok(i128::from(self.unary()? == 0)),
            Tok::Op("(") => {
                let v = self.or()?;
                if self.peek_op(&[")"]).is_none() {
                    return Err("a `(` without its `)`".into());
                }
                self.at += 1;
                Ok(v)
            }
            Tok::Op(o) => Err(format!("`{o}` where a value was expected")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_operators_and_precedence() {
        let c = Constants::default();
        assert_eq!(c.eval("16"), Ok(16));
        assert_eq!(c.eval("0x10u + 010 + 0b11 + 2UL + 1'000"), Ok(16 + 8 + 3 + 2 + 1000));
        assert_eq!(c.eval("2 + 3 * 4"), Ok(14));
        assert_eq!(c.eval("(2 + 3) * 4"), Ok(20));
        assert_eq!(c.eval("1 << 4 + 1"), Ok(32));
        assert_eq!(c.eval("100 / 7 % 4 - -1"), Ok(3));
        assert_eq!(c.eval("256 >> 2"), Ok(64));
    }

    #[test]
    fn conditions_of_if_directives() {
        let c = Constants::scan(["#define STATE_CHECK -1\n#define N 8\n"]);
        assert_eq!(c.eval("STATE_CHECK == 0"), Ok(0));
        assert_eq!(c.eval("STATE_CHECK == -1"), Ok(1));
        assert_eq!(c.eval("STATE_CHECK != 2 && N >= 8"), Ok(1));
        assert_eq!(c.eval("N < 4 || !(N > 8)"), Ok(1));
        assert_eq!(c.eval("1 << 3 == N"), Ok(1), "shift binds tighter than ==");
        assert_eq!(c.eval("2 + 1 > 3"), Ok(0));
        assert!(c.eval("defined(N)").is_err(), "`defined` is not evaluated");
        assert!(c.eval("OTHER == 0").is_err(), "a name the sources do not define has no value");
    }

    #[test]
    fn names_from_defines_and_const_variables() {
        let c = Constants::scan([
            "#define N 8 // rows\n#define M (N * 2)\n#define F(x) x\nconst int K = M + 1;\n",
            "static constexpr unsigned S = K << 1;\nconst float X = 2;\nconst int N2 = 4;\nconst int N2 = 5;\n",
        ]);
        assert_eq!(c.eval("N * M"), Ok(128));
        assert_eq!(c.eval("K"), Ok(17));
        assert_eq!(c.eval("S"), Ok(34));
        assert!(c.eval("X").is_err(), "a float constant is not an integer");
        assert!(c.eval("F(2)").is_err(), "a function-like macro is not evaluated");
        assert_eq!(c.eval("N2"), Err("`N2` is defined with different values".to_string()));
    }

    #[test]
    fn what_it_cannot_evaluate_is_said() {
        let c = Constants::scan(["#define LOOP LOOP + 1\n"]);
        assert_eq!(c.eval("Q + 1"), Err("`Q` is not a `#define` or `const` integer of the sources".to_string()));
        assert!(c.eval("LOOP").unwrap_err().contains("itself"));
        assert!(c.eval("4 / 0").unwrap_err().contains("division by zero"));
        assert!(c.eval("sizeof(int)").is_err());
        assert!(c.eval("(4").is_err());
        assert!(c.eval("4 4").is_err());
    }
}
