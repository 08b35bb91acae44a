//! Just enough of a Verilog reader for HLS-generated RTL, over the shared tokens of
//! [`crate::verilog_lex`]: a module's ports with their widths (non-ANSI and ANSI headers), and its
//! `parameter` / `localparam` values. Widths are constant expressions over parameters
//! (`C_M_AXI_GMEM1_DATA_WIDTH - 1`, `512 / 8`): a small evaluator resolves them.

use crate::verilog_lex::{tokenize, Tok};
use std::collections::HashMap;

/// The value of a decimal or sized/based number (`32`, `6'h10`, `149'd1`, `'b0`, `8 'd3`);
/// x/z digits read as 0.
fn number_value(text: &str) -> u128 {
    let compact: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    number(&compact).0
}

fn number(b: &[u8]) -> (u128, usize) {
    let mut i = 0;
    let mut v: u128 = 0;
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        if b[i] != b'_' {
            v = v.wrapping_mul(10).wrapping_add((b[i] - b'0') as u128);
        }
        i += 1;
    }
    if i < b.len() && b[i] == b'\'' {
        i += 1;
        if i < b.len() && (b[i] == b's' || b[i] == b'S') {
            i += 1;
        }
        let radix = match b.get(i).map(u8::to_ascii_lowercase) {
            Some(b'h') => 16,
            Some(b'b') => 2,
            Some(b'o') => 8,
            Some(b'd') => 10,
            _ => return (v, i),
        };
        i += 1;
        v = 0;
        while i < b.len() && (b[i].is_ascii_hexdigit() || matches!(b[i], b'_' | b'x' | b'X' | b'z' | b'Z')) {
            if let Some(d) = (b[i] as char).to_digit(radix) {
                v = v.wrapping_mul(radix as u128).wrapping_add(d as u128);
            } else if b[i] != b'_' {
                v = v.wrapping_mul(radix as u128);
            }
            i += 1;
        }
    }
    (v, i)
}

/// Direction of a port, as the module sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Input,
    Output,
    Inout,
}

/// One port of a module.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
}

/// A module's header: ports in declaration order and every parameter and localparam.
#[derive(Debug, Clone, Default)]
pub struct Module {
    pub name: String,
    pub ports: Vec<Port>,
    pub params: HashMap<String, u128>,
}

impl Module {
    pub fn port(&self, name: &str) -> Option<&Port> {
        self.ports.iter().find(|p| p.name == name)
    }
}

/// Read module `name` from `text`; `None` when the text does not define it. Ports whose width
/// does not evaluate (a width from an unknown macro) are reported as an error string.
pub fn read_module(text: &str, name: &str) -> Result<Option<Module>, String> {
    let toks = tokenize(text);
    let mut i = 0;
    while i + 1 < toks.len() {
        if toks[i] == Tok::Ident("module".into()) && toks[i + 1] == Tok::Ident(name.into()) {
            return module_at(&toks, i + 2, name).map(Some);
        }
        i += 1;
    }
    Ok(None)
}

/// The names of every module defined in `text`.
pub fn module_names(text: &str) -> Vec<String> {
    let toks = tokenize(text);
    toks.windows(2)
        .filter_map(|w| match (&w[0], &w[1]) {
            (Tok::Ident(m), Tok::Ident(n)) if m == "module" => Some(n.clone()),
            _ => None,
        })
        .collect()
}

fn is_ident(t: Option<&Tok>, s: &str) -> bool {
    matches!(t, Some(Tok::Ident(x)) if x == s)
}

fn module_at(toks: &[Tok], mut i: usize, name: &str) -> Result<Module, String> {
    let mut m = Module { name: name.to_string(), ..Module::default() };
    let end = (i..toks.len()).find(|&k| is_ident(toks.get(k), "endmodule")).unwrap_or(toks.len());
    let mut order: Vec<String> = Vec::new();
    let mut decls: HashMap<String, Port> = HashMap::new();
    // `#( parameter A = 1, B = 2 )`
    if toks.get(i) == Some(&Tok::Punct('#')) {
        i += 1;
        let close = matching(toks, i);
        read_assignments(&toks[i + 1..close], &mut m.params);
        i = close + 1;
    }
    // The port list: names only (non-ANSI), or full declarations (ANSI).
    if toks.get(i) == Some(&Tok::Punct('(')) {
        let close = matching(toks, i);
        let list = &toks[i + 1..close];
        if list.iter().any(|t| matches!(t, Tok::Ident(s) if s == "input" || s == "output" || s == "inout")) {
            read_declarations(list, &m.params, &mut order, &mut decls)?;
        } else {
            order.extend(list.iter().filter_map(|t| match t {
                Tok::Ident(s) => Some(s.clone()),
                _ => None,
            }));
        }
        i = close + 1;
    }
    // Body: parameters first (widths use them), then port declarations.
    let body = &toks[i.min(end)..end];
    for stmt in body.split(|t| *t == Tok::Punct(';')) {
        if is_ident(stmt.first(), "parameter") || is_ident(stmt.first(), "localparam") {
            read_assignments(&stmt[1..], &mut m.params);
        }
    }
    for stmt in body.split(|t| *t == Tok::Punct(';')) {
        if matches!(stmt.first(), Some(Tok::Ident(s)) if s == "input" || s == "output" || s == "inout") {
            let mut names = Vec::new();
            read_declarations(stmt, &m.params, &mut names, &mut decls)?;
        }
    }
    for n in order {
        if let Some(p) = decls.remove(&n) {
            m.ports.push(p);
        } else {
            return Err(format!("module {name}: port `{n}` has no input/output declaration"));
        }
    }
    Ok(m)
}

/// Index of the bracket closing the one at `open`.
fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t {
            Tok::Punct('(') | Tok::Punct('[') | Tok::Punct('{') => depth += 1,
            Tok::Punct(')') | Tok::Punct(']') | Tok::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len()
}

/// `A = expr, B = expr` (after `parameter`/`localparam`, with an optional type and range).
fn read_assignments(toks: &[Tok], params: &mut HashMap<String, u128>) {
    let mut k = 0;
    while k < toks.len() {
        if let (Tok::Ident(n), Some(Tok::Punct('='))) = (&toks[k], toks.get(k + 1)) {
            let start = k + 2;
            let mut e = start;
            let mut depth = 0;
            while e < toks.len() {
                match &toks[e] {
                    Tok::Punct('(') | Tok::Punct('[') | Tok::Punct('{') => depth += 1,
                    Tok::Punct(')') | Tok::Punct(']') | Tok::Punct('}') => depth -= 1,
                    Tok::Punct(',') if depth == 0 => break,
                    _ => {}
                }
                e += 1;
            }
            if let Some(v) = eval(&toks[start..e], params) {
                params.insert(n.clone(), v);
            }
            k = e + 1;
        } else {
            k += 1;
        }
    }
}

/// `input wire [W-1:0] a, b` and ANSI lists of such declarations.
fn read_declarations(
    toks: &[Tok],
    params: &HashMap<String, u128>,
    order: &mut Vec<String>,
    decls: &mut HashMap<String, Port>,
) -> Result<(), String> {
    let mut dir = None;
    let mut width = 1u32;
    let mut k = 0;
    while k < toks.len() {
        match &toks[k] {
            Tok::Ident(s) if s == "input" || s == "output" || s == "inout" => {
                dir = Some(match s.as_str() {
                    "input" => Dir::Input,
                    "output" => Dir::Output,
                    _ => Dir::Inout,
                });
                width = 1;
            }
            Tok::Ident(s) if matches!(s.as_str(), "wire" | "reg" | "logic" | "signed" | "unsigned" | "var") => {}
            Tok::Punct('[') => {
                let close = matching(toks, k);
                let inner = &toks[k + 1..close];
                let colon = inner.iter().position(|t| *t == Tok::Punct(':'));
                let (hi, lo) = match colon {
                    Some(c) => (eval(&inner[..c], params), eval(&inner[c + 1..], params)),
                    None => (None, None),
                };
                match (hi, lo) {
                    (Some(h), Some(l)) => width = (h.abs_diff(l) + 1) as u32,
                    _ => return Err(format!("cannot evaluate the port range [{}]", show(inner))),
                }
                k = close;
            }
            Tok::Ident(n) => {
                if let Some(d) = dir {
                    order.push(n.clone());
                    decls.insert(n.clone(), Port { name: n.clone(), dir: d, width });
                }
            }
            _ => {}
        }
        k += 1;
    }
    Ok(())
}

fn show(toks: &[Tok]) -> String {
    toks.iter()
        .map(|t| match t {
            Tok::Ident(s) => s.clone(),
            Tok::Number(n) => number_value(n).to_string(),
            Tok::Punct(c) => c.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A constant expression: numbers, parameters, + - * / % and parentheses.
fn eval(toks: &[Tok], params: &HashMap<String, u128>) -> Option<u128> {
    let mut p = Parser { toks, pos: 0, params };
    let v = p.sum()?;
    (p.pos == toks.len()).then_some(v)
}

struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    params: &'a HashMap<String, u128>,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }
    fn sum(&mut self) -> Option<u128> {
        let mut v = self.product()?;
        while let Some(Tok::Punct(c @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let r = self.product()?;
            v = if c == '+' { v.checked_add(r)? } else { v.wrapping_sub(r) };
        }
        Some(v)
    }
    fn product(&mut self) -> Option<u128> {
        let mut v = self.atom()?;
        while let Some(Tok::Punct(c @ ('*' | '/' | '%'))) = self.peek().cloned() {
            self.pos += 1;
            let r = self.atom()?;
            v = match c {
                '*' => v.checked_mul(r)?,
                '/' => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
        }
        Some(v)
    }
    fn atom(&mut self) -> Option<u128> {
        let t = self.peek()?.clone();
        self.pos += 1;
        match t {
            Tok::Number(n) => Some(number_value(&n)),
            Tok::Ident(s) => self.params.get(&s).copied(),
            Tok::Punct('(') => {
                let v = self.sum()?;
                (self.peek() == Some(&Tok::Punct(')'))).then(|| self.pos += 1)?;
                Some(v)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_ansi_ports_with_parameter_widths() {
        let v = "(* X=\"y\" *) module top (ap_clk, d, q);\nparameter W = 512; // c\nlocalparam A = 6'h1c, B = W / 8;\n\
                 input ap_clk;\ninput [W - 1:0] d;\noutput [B-1:0] q;\nendmodule";
        let m = read_module(v, "top").unwrap().unwrap();
        assert_eq!(
            m.ports.iter().map(|p| (p.name.as_str(), p.width)).collect::<Vec<_>>(),
            [("ap_clk", 1), ("d", 512), ("q", 64)]
        );
        assert_eq!(m.params["A"], 0x1c);
        assert_eq!(m.ports[2].dir, Dir::Output);
    }

    #[test]
    fn ansi_ports() {
        let v = "module s #(parameter C = 6, D = 32)(input wire ACLK, input wire [C-1:0] AWADDR,\n\
                 output wire [D/8-1:0] WSTRB, output wire [63:0] a);\nendmodule";
        let m = read_module(v, "s").unwrap().unwrap();
        assert_eq!(m.port("AWADDR").unwrap().width, 6);
        assert_eq!(m.port("WSTRB").unwrap().width, 4);
        assert_eq!(m.port("a").unwrap().width, 64);
        assert!(read_module(v, "other").unwrap().is_none());
    }
}
