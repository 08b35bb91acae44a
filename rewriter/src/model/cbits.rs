//! The width in bits of a C/C++ type as Vitis lays it out on an interface: the built-in types,
//! `ap_int`/`ap_uint`/`ap_fixed`/`ap_ufixed` (their width argument), `typedef` and `using`
//! aliases, and structs as their fields packed one after the other (Vitis' `c_bitwidth` of a
//! struct argument: a struct of two `ap_fixed<32,16>` is 64 bits). What is not one of these
//! (a template, a class with methods, a width no constant of the sources gives) has no width.

use super::consts::Constants;
use std::collections::HashMap;

/// Aliases and struct fields of some texts (sources and headers).
pub struct TypeWidths<'c> {
    /// Alias name → the type it names, as written.
    aliases: HashMap<String, String>,
    /// Struct name → its fields' types and element counts (`T a[4];` is 4 × T).
    structs: HashMap<String, Vec<(String, String)>>,
    consts: &'c Constants,
}

/// Aliases and structs nest at most this deep.
const MAX_DEPTH: usize = 16;

impl<'c> TypeWidths<'c> {
    pub fn scan(texts: &[&str], consts: &'c Constants) -> TypeWidths<'c> {
        let mut aliases = HashMap::new();
        let mut structs = HashMap::new();
        for text in texts {
            let text = strip_comments(text);
            for stmt in text.split(';') {
                if let Some((name, aliased)) = alias(stmt.trim()) {
                    aliases.entry(name).or_insert(aliased);
                }
            }
            for (name, body) in struct_bodies(&text) {
                if !body.contains('(') {
                    // Methods or constructors: not a plain aggregate.
                    structs.entry(name).or_insert_with(|| fields(body));
                }
            }
        }
        TypeWidths { aliases, structs, consts }
    }

    /// Bits of `ty` (`const complex_t`, `ap_fixed<32,16>`, `unsigned char`), if known.
    pub fn bits(&self, ty: &str) -> Option<u32> {
        self.bits_depth(ty, 0)
    }

    fn bits_depth(&self, ty: &str, depth: usize) -> Option<u32> {
        if depth > MAX_DEPTH {
            return None;
        }
        let ty = clean(ty);
        if let Some((name, args)) = ty.split_once('<') {
            let name = name.trim().rsplit("::").next().unwrap_or("").trim();
            let first = args.split([',', '>']).next()?.trim();
            return match name {
                "ap_int" | "ap_uint" | "ap_fixed" | "ap_ufixed" | "ap_int_base" => {
                    u32::try_from(self.consts.eval(first).ok()?).ok().filter(|&w| w > 0)
                }
                // `std::complex<T>`: its real and imaginary parts.
                "complex" => self.bits_depth(first, depth + 1)?.checked_mul(2),
                _ => None,
            };
        }
        if let Some(w) = builtin(&ty) {
            return Some(w);
        }
        let name = ty.rsplit("::").next().unwrap_or(&ty);
        if let Some(aliased) = self.aliases.get(name) {
            return self.bits_depth(aliased, depth + 1);
        }
        let fields = self.structs.get(name)?;
        let mut sum: u32 = 0;
        for (fty, count) in fields {
            let n = if count.is_empty() { 1 } else { u32::try_from(self.consts.eval(count).ok()?).ok()? };
            sum = sum.checked_add(self.bits_depth(fty, depth + 1)?.checked_mul(n)?)?;
        }
        (sum > 0).then_some(sum)
    }
}

/// Without `const`, `volatile`, `struct`, pointers and references, spaces squashed.
fn clean(ty: &str) -> String {
    ty.split(|c: char| c.is_whitespace() || c == '*' || c == '&')
        .filter(|w| !w.is_empty() && !matches!(*w, "const" | "volatile" | "struct" | "typename"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The built-in arithmetic types and the `<cstdint>` ones (LP64, as Vitis compiles).
fn builtin(ty: &str) -> Option<u32> {
    let t = ty.trim_start_matches("std::");
    Some(match t {
        "bool" | "char" | "signed char" | "unsigned char" | "int8_t" | "uint8_t" => 8,
        "short" | "short int" | "unsigned short" | "unsigned short int" | "signed short" | "int16_t" | "uint16_t"
        | "half" => 16,
        "int" | "signed" | "unsigned" | "signed int" | "unsigned int" | "int32_t" | "uint32_t" | "float" => 32,
        "long"
        | "long int"
        | "unsigned long"
        | "unsigned long int"
        | "signed long"
        | "long long"
        | "long long int"
        | "unsigned long long"
        | "unsigned long long int"
        | "int64_t"
        | "uint64_t"
        | "size_t"
        | "double" => 64,
        _ => return None,
    })
}

/// `typedef T name` or `using name = T` (one statement, without its `;`).
fn alias(stmt: &str) -> Option<(String, String)> {
    // The statement may follow a preprocessor line or a brace in the same `;`-piece.
    let stmt = stmt.rsplit(['{', '}', '\n']).find(|l| !l.trim().is_empty()).unwrap_or(stmt).trim();
    if let Some(rest) = stmt.strip_prefix("typedef ") {
        let rest = rest.trim();
        let cut = rest.rfind(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        let (ty, name) = (rest[..=cut].trim(), rest[cut + 1..].trim());
        return (!name.is_empty() && !ty.is_empty() && !ty.contains('(')).then(|| (name.to_string(), ty.to_string()));
    }
    let (lhs, rhs) = stmt.strip_prefix("using ")?.split_once('=')?;
    let name = lhs.trim();
    (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .then(|| (name.to_string(), rhs.trim().to_string()))
}

/// `struct name { body }` and `typedef struct { body } name` of a text, with their bodies
/// (nested braces kept inside).
fn struct_bodies(text: &str) -> Vec<(String, &str)> {
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find("struct").map(|i| from + i) {
        from = at + "struct".len();
        let word_start = at == 0 || !text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if !word_start || !text[from..].starts_with(char::is_whitespace) {
            continue;
        }
        let named = ident(text[from..].trim_start());
        let after_name = text[from..].trim_start()[named.len()..].trim_start();
        if !after_name.starts_with('{') {
            continue; // a declaration `struct s x;` or a forward declaration
        }
        let open = text.len() - after_name.len();
        let mut depth = 0;
        let Some(close) = text[open..].char_indices().find_map(|(i, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(open + i)
        }) else {
            break;
        };
        let typedef = text[..at].trim_end().ends_with("typedef");
        let name = if typedef { ident(text[close + 1..].trim_start()) } else { named };
        if !name.is_empty() {
            out.push((name, &text[open + 1..close]));
        }
        from = close;
    }
    out
}

/// The fields of a struct body: `T a, b; U c[4];` → (T, ""), (T, ""), (U, "4").
fn fields(body: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for decl in body.split(';').map(str::trim).filter(|d| !d.is_empty()) {
        let first_name = decl.split(',').next().unwrap_or(decl).trim();
        let cut = match first_name.find('[') {
            Some(b) => first_name[..b].trim_end().rfind(|c: char| !(c.is_alphanumeric() || c == '_')),
            None => first_name.rfind(|c: char| !(c.is_alphanumeric() || c == '_')),
        };
        let Some(cut) = cut else { continue };
        let ty = first_name[..=cut].trim().to_string();
        for var in std::iter::once(&first_name[cut + 1..]).chain(decl.split(',').skip(1)) {
            let count =
                var.split_once('[').map(|(_, c)| c.trim_end_matches(']').trim().to_string()).unwrap_or_default();
            out.push((ty.clone(), count));
        }
    }
    out
}

/// The text with `//` and `/* */` comments blanked (string literals are rare in type
/// definitions and do not matter here).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
            out.push(' ');
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn widths<'c>(text: &str, consts: &'c Constants) -> TypeWidths<'c> {
        TypeWidths::scan(&[text], consts)
    }

    #[test]
    fn builtins_ap_types_aliases_and_structs() {
        let src = "#define W 24\ntypedef ap_fixed<32,16> fixed_t; // a comment\nusing wide = ap_uint<W>;\n\
                   struct complex_t {\n    fixed_t real;\n    fixed_t imag;\n};\n\
                   typedef struct { short a, b; char tag[4]; } packet;\ntypedef unsigned char INPUT;";
        let consts = Constants::scan([src]);
        let w = widths(src, &consts);
        assert_eq!(w.bits("float"), Some(32));
        assert_eq!(w.bits("const unsigned char *"), Some(8));
        assert_eq!(w.bits("INPUT"), Some(8));
        assert_eq!(w.bits("ap_uint<12>"), Some(12));
        assert_eq!(w.bits("wide"), Some(24), "the width from a #define");
        assert_eq!(w.bits("complex_t"), Some(64), "two ap_fixed<32,16> fields");
        assert_eq!(w.bits("packet"), Some(16 + 16 + 4 * 8));
        assert_eq!(w.bits("std::complex<fixed_t>"), Some(64), "real and imaginary parts");
        assert_eq!(w.bits("complex<float>"), Some(64));
        assert_eq!(w.bits("std::complex<ap_fixed<16, 8> >"), Some(32));
        assert_eq!(w.bits("hls::vector<int, 4>"), None);
        assert_eq!(w.bits("unknown_t"), None);
    }

    #[test]
    fn a_struct_with_methods_has_no_width() {
        let src = "struct acc { int v; int get() const { return v; } };";
        let consts = Constants::scan([src]);
        assert_eq!(widths(src, &consts).bits("acc"), None);
    }
}
