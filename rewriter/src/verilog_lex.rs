//! The tokens of Verilog text, for the readers of HLS-generated RTL (`cosim::verilog`: ports and
//! parameters; `profile::rtl`: FSM encodings and instances). Generated RTL is regular, but it is
//! still Verilog: reading tokens, not lines, makes layout, comments and attributes not matter.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// An identifier or keyword; an escaped identifier (`\\name `) without its backslash.
    Ident(String),
    /// A number as written (`32`, `6'h10`, `8 'd3`): readers choose its width.
    Number(String),
    Punct(char),
}

/// Tokens of Verilog text; strings, comments, attributes (`(* ... *)`) and compiler directives
/// (`` `timescale``, `` `default_nettype``: the rest of their line) are dropped.
pub fn tokenize(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let (mut i, mut out) = (0usize, Vec::new());
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if src[i..].starts_with("//") || c == b'`' {
            i = src[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if src[i..].starts_with("/*") {
            i = src[i + 2..].find("*/").map_or(b.len(), |n| i + n + 4);
        } else if src[i..].starts_with("(*") && !src[i..].starts_with("(*)") {
            i = src[i + 2..].find("*)").map_or(b.len(), |n| i + n + 4);
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
                i += 1;
            }
            out.push(Tok::Ident(src[s..i].to_string()));
        } else if c == b'\\' {
            let s = i + 1;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            out.push(Tok::Ident(src[s..i].to_string()));
        } else if c.is_ascii_digit() || c == b'\'' {
            let s = i;
            let mut seen_quote = false;
            loop {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'?') {
                    i += 1;
                }
                // `8 'd3`, `8' hFF`: a size, its quote and its base may be spaced apart.
                let mut j = i;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if !seen_quote && j < b.len() && b[j] == b'\'' {
                    seen_quote = true;
                    i = j + 1;
                    while i < b.len() && b[i] == b' ' {
                        i += 1;
                    }
                    continue;
                }
                break;
            }
            if i == s {
                i += 1; // a lone quote
            }
            out.push(Tok::Number(src[s..i].to_string()));
        } else {
            out.push(Tok::Punct(c as char));
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_attributes_directives_and_strings_go_numbers_stay_as_written() {
        let t =
            tokenize("`timescale 1 ns / 1 ps\n(* x = 1 *) wire /* c */ [8 'd3:0] \\esc$ ; // end\nassign a = \"s;\";");
        let ident = |s: &str| Tok::Ident(s.into());
        assert_eq!(
            t,
            [
                ident("wire"),
                Tok::Punct('['),
                Tok::Number("8 'd3".into()),
                Tok::Punct(':'),
                Tok::Number("0".into()),
                Tok::Punct(']'),
                ident("esc$"),
                Tok::Punct(';'),
                ident("assign"),
                ident("a"),
                Tok::Punct('='),
                Tok::Punct(';'),
            ]
        );
    }
}
