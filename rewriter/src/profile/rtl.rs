//! What the profile needs from the generated Verilog (`solution/syn/verilog/*.v`): per module,
//! its FSM state encodings (`parameter ap_ST_fsm_... = ...;`) and its instances of other modules
//! (`multiplier_multiplier_Pipeline_1 grp_multiplier_Pipeline_1_fu_2080(...)`).
//!
//! A reader of module items over the shared tokens of [`crate::verilog_lex`]: enough for Vitis'
//! and Vivado HLS' output, which declares one module per file with these two constructs at module
//! level. Everything else is skipped token by token.

use crate::error::{Error, ErrorKind, Result};
use crate::verilog_lex::{tokenize, Tok};
use std::path::Path;

/// A Verilog module as the profile sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    pub name: String,
    /// `(parameter name, value)` for every `ap_ST_fsm_*` parameter, in declaration order.
    pub fsm_states: Vec<(String, Bits)>,
    /// `(module type, instance name)` of every instantiation.
    pub instances: Vec<(String, String)>,
}

/// An unsigned constant of any width, little-endian 64-bit limbs.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bits(pub Vec<u64>);

impl Bits {
    /// The index of the single set bit, if exactly one is set.
    pub fn one_hot(&self) -> Option<u32> {
        let mut found = None;
        for (i, &l) in self.0.iter().enumerate() {
            if l != 0 {
                if found.is_some() || l.count_ones() != 1 {
                    return None;
                }
                found = Some(i as u32 * 64 + l.trailing_zeros());
            }
        }
        found
    }

    /// The value, if it fits 64 bits.
    pub fn as_u64(&self) -> Option<u64> {
        match self.0.iter().rposition(|&l| l != 0) {
            None => Some(0),
            Some(0) => Some(self.0[0]),
            Some(_) => None,
        }
    }

    fn mul_add(&mut self, mul: u64, add: u64) {
        let mut carry = add as u128;
        for l in self.0.iter_mut() {
            let v = (*l as u128) * mul as u128 + carry;
            *l = v as u64;
            carry = v >> 64;
        }
        if carry != 0 {
            self.0.push(carry as u64);
        }
    }

    /// A Verilog number: `149'd356...`, `3'b001`, `'h1F`, `12`. `None` for x/z digits.
    pub fn parse_verilog(text: &str) -> Option<Bits> {
        let t: String = text.chars().filter(|c| !c.is_whitespace() && *c != '_').collect();
        let (base, digits) = match t.split_once('\'') {
            None => (10, t.as_str()),
            Some((_, r)) => {
                let r = r.strip_prefix(['s', 'S']).unwrap_or(r);
                let mut cs = r.chars();
                let b = match cs.next()?.to_ascii_lowercase() {
                    'd' => 10,
                    'h' => 16,
                    'b' => 2,
                    'o' => 8,
                    _ => return None,
                };
                (b, cs.as_str())
            }
        };
        if digits.is_empty() {
            return None;
        }
        let mut v = Bits(vec![0]);
        for c in digits.chars() {
            v.mul_add(base, c.to_digit(base as u32)? as u64);
        }
        Some(v)
    }
}

const KEYWORDS: &[&str] = &[
    "module",
    "endmodule",
    "input",
    "output",
    "inout",
    "wire",
    "reg",
    "logic",
    "integer",
    "genvar",
    "assign",
    "always",
    "always_ff",
    "always_comb",
    "initial",
    "if",
    "else",
    "case",
    "casez",
    "casex",
    "endcase",
    "begin",
    "end",
    "parameter",
    "localparam",
    "function",
    "endfunction",
    "task",
    "endtask",
    "generate",
    "endgenerate",
    "for",
    "while",
    "default",
    "signed",
    "unsigned",
    "posedge",
    "negedge",
    "or",
    "and",
    "not",
    "defparam",
];

/// Reads the modules of one Verilog text.
pub fn parse(src: &str) -> Vec<Module> {
    let toks = tokenize(src);
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident(s)) => Some(s.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| toks.get(k) == Some(&Tok::Punct(c));
    // Index past the balanced group that opens at `k` with `open`.
    let skip_group = |mut k: usize, open: char, close: char| {
        let mut depth = 0i32;
        while k < toks.len() {
            if punct(k, open) {
                depth += 1;
            } else if punct(k, close) {
                depth -= 1;
                if depth == 0 {
                    return k + 1;
                }
            }
            k += 1;
        }
        k
    };
    let mut modules = Vec::new();
    let mut k = 0;
    let mut current: Option<Module> = None;
    let mut stmt_start = true;
    while k < toks.len() {
        match ident(k) {
            Some("module") => {
                if let Some(name) = ident(k + 1) {
                    current = Some(Module { name: name.to_string(), fsm_states: vec![], instances: vec![] });
                }
                k += 2;
                stmt_start = false;
                continue;
            }
            Some("endmodule") => {
                modules.extend(current.take());
                k += 1;
                stmt_start = true;
                continue;
            }
            Some("parameter") | Some("localparam") if current.is_some() => {
                let mut j = k + 1;
                while matches!(ident(j), Some("signed" | "unsigned" | "integer")) {
                    j += 1;
                }
                if punct(j, '[') {
                    j = skip_group(j, '[', ']');
                }
                if let (Some(name), true, Some(Tok::Number(n))) = (ident(j), punct(j + 1, '='), toks.get(j + 2)) {
                    if name.starts_with("ap_ST_") && punct(j + 3, ';') {
                        if let (Some(m), Some(v)) = (current.as_mut(), Bits::parse_verilog(n)) {
                            m.fsm_states.push((name.to_string(), v));
                        }
                    }
                }
                k = j;
                stmt_start = false;
                continue;
            }
            Some(ty) if stmt_start && current.is_some() && !KEYWORDS.contains(&ty) => {
                // `TYPE [#(...)] NAME (` at the start of a module item.
                let mut j = k + 1;
                if punct(j, '#') && punct(j + 1, '(') {
                    j = skip_group(j + 1, '(', ')');
                }
                if let (Some(inst), true) = (ident(j), punct(j + 1, '(')) {
                    if let Some(m) = current.as_mut() {
                        m.instances.push((ty.to_string(), inst.to_string()));
                    }
                    k = skip_group(j + 1, '(', ')');
                    stmt_start = false;
                    continue;
                }
            }
            _ => {}
        }
        stmt_start = matches!(toks.get(k), Some(Tok::Punct(';')))
            || matches!(ident(k), Some("begin" | "end" | "endcase" | "endgenerate" | "endfunction" | "endtask"));
        k += 1;
    }
    modules
}

/// Reads every `*.v` file of a directory (sorted by name).
pub fn read_dir(dir: &Path) -> Result<Vec<Module>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "v" || e == "sv"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            "no Verilog (*.v) here: give the solution folder whose syn/verilog holds the RTL csynth wrote",
        )
        .at(dir));
    }
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| Error::io(&f, &e))?;
        out.extend(parse(&String::from_utf8_lossy(&bytes)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_fsm_parameters_and_instances() {
        let src = "`timescale 1 ns / 1 ps\n(* CORE=\"x\" *)\nmodule top (ap_clk, x);\n\
            parameter    ap_ST_fsm_state1 = 3'd1;\nparameter ap_ST_fsm_state3 = 3'b100;\n\
            parameter [1:0] ap_ST_fsm_pp0_stage0 = 'h2 ;\nparameter W = 4;\n\
            // sub_m fake(x);\n/* sub_m fake2(x); */\n\
            always @ (posedge ap_clk) begin\n  if (a) begin foo(x); end\nend\n\
            sub_m #(\n  .ID( 1 ))\ngrp_sub_fu_10(\n  .ap_clk(ap_clk), .x(f(x)) );\n\
            other u_other (.a(1'b0));\nendmodule\nmodule sub_m(x); endmodule\n";
        let m = parse(src);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].name, "top");
        let enc: Vec<_> = m[0].fsm_states.iter().map(|(n, b)| (n.as_str(), b.as_u64().unwrap())).collect();
        assert_eq!(enc, [("ap_ST_fsm_state1", 1), ("ap_ST_fsm_state3", 4), ("ap_ST_fsm_pp0_stage0", 2)]);
        assert_eq!(
            m[0].instances,
            [("sub_m".to_string(), "grp_sub_fu_10".to_string()), ("other".to_string(), "u_other".to_string())]
        );
    }

    #[test]
    fn wide_one_hot_constants() {
        let b = Bits::parse_verilog("149'd356811923176489970264571492362373784095686656").unwrap();
        assert_eq!(b.one_hot(), Some(148));
        assert_eq!(b.as_u64(), None);
        assert_eq!(Bits::parse_verilog("3'd5").unwrap().one_hot(), None);
        assert_eq!(Bits::parse_verilog("1'bx"), None);
    }
}
