//! Structs on the top's ports: Vitis aggregates a struct on a stream or a scalar/memory port
//! into one wide port, its fields concatenated in declaration order, the first field at the
//! least significant bits, each as wide as its type (`compact=bit`; an array field is its
//! elements in order). C++ cannot list a struct's fields, so the capture learns them from the
//! source: every plain struct defined in the top's file and the headers it includes with
//! quotes (beside it) gets a packing function in the generated capture unit
//! (`hlsinstr_cap::Aggregate<S>`).
//!
//! Left out (their elements keep the compile-time "no bit layout" message): classes, templates,
//! unions, structs with access specifiers, bit-fields, references or pointers as fields, and
//! structs in function bodies.

use crate::parse::{self, Lang};
use std::path::{Path, PathBuf};
use tree_sitter::Node;

/// One struct the capture can pack: its qualified name and data members in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aggregate {
    pub name: String,
    pub fields: Vec<String>,
}

/// The plain structs of `file` and the local headers it includes (recursively, each once).
pub fn find(file: &Path) -> Vec<Aggregate> {
    let mut out = Vec::new();
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut todo = vec![file.to_path_buf()];
    while let Some(f) = todo.pop() {
        let key = f.canonicalize().unwrap_or_else(|_| f.clone());
        if seen.contains(&key) || seen.len() > 64 {
            continue;
        }
        seen.push(key);
        let Ok(text) = std::fs::read_to_string(&f) else { continue };
        let tree = parse::parse(Lang::Cpp, &text, None);
        collect(tree.root_node(), &text, &mut Vec::new(), &mut out);
        for line in text.lines() {
            let l = line.trim_start();
            let Some(rest) = l.strip_prefix('#').map(str::trim_start).and_then(|r| r.strip_prefix("include")) else {
                continue;
            };
            let rest = rest.trim();
            if let Some(name) = rest.strip_prefix('"').and_then(|r| r.split('"').next()) {
                if let Some(dir) = f.parent() {
                    let p = dir.join(name);
                    if p.is_file() {
                        todo.push(p);
                    }
                }
            }
        }
    }
    out.dedup_by(|a, b| a.name == b.name);
    out
}

fn collect(n: Node, text: &str, scope: &mut Vec<String>, out: &mut Vec<Aggregate>) {
    let mut c = n.walk();
    for child in n.children(&mut c) {
        match child.kind() {
            "namespace_definition" => {
                let name = child.child_by_field_name("name").map(|x| text[x.byte_range()].to_string());
                if let Some(body) = child.child_by_field_name("body") {
                    // An anonymous namespace's names are reachable unqualified from the same unit.
                    let pushed = name.is_some();
                    if let Some(nm) = name {
                        scope.push(nm);
                    }
                    collect(body, text, scope, out);
                    if pushed {
                        scope.pop();
                    }
                }
            }
            "linkage_specification" | "declaration_list" => collect(child, text, scope, out),
            "struct_specifier" => struct_at(child, text, scope, out, None),
            "declaration" | "type_definition" => {
                // `struct S {...};` parses as a declaration with the specifier as its type;
                // `typedef struct {...} S;` names an anonymous struct by its declarator.
                if let Some(t) = child.child_by_field_name("type") {
                    if t.kind() == "struct_specifier" {
                        let alias = (child.kind() == "type_definition")
                            .then(|| child.child_by_field_name("declarator"))
                            .flatten()
                            .filter(|d| d.kind() == "type_identifier")
                            .map(|d| text[d.byte_range()].to_string());
                        struct_at(t, text, scope, out, alias);
                    }
                }
            }
            _ => {}
        }
    }
}

fn struct_at(s: Node, text: &str, scope: &mut Vec<String>, out: &mut Vec<Aggregate>, alias: Option<String>) {
    let Some(body) = s.child_by_field_name("body") else { return };
    let name = match s.child_by_field_name("name") {
        Some(n) if n.kind() == "type_identifier" => text[n.byte_range()].to_string(),
        Some(_) => return,
        None => match alias {
            Some(a) => a,
            None => return,
        },
    };
    let mut fields = Vec::new();
    let mut plain = true;
    let mut c = body.walk();
    for f in body.children(&mut c) {
        // `private:`/`protected:` members would be out of the packing function's reach.
        if f.kind() == "access_specifier" {
            plain = false;
        }
        if f.kind() != "field_declaration" {
            continue;
        }
        let ftext = &text[f.byte_range()];
        if ftext.trim_start().starts_with("static")
            || ftext.contains("typedef")
            || ftext.trim_start().starts_with("using")
        {
            continue;
        }
        let mut fc = f.walk();
        for d in f.children_by_field_name("declarator", &mut fc) {
            match declared_name(d, text) {
                Some(Decl::Field(n)) => fields.push(n),
                Some(Decl::Method) => {}
                None => plain = false,
            }
        }
        // A bit-field (`int a : 3`) has no declarator field but a bitfield_clause.
        let mut bc = f.walk();
        if f.children(&mut bc).any(|x| x.kind() == "bitfield_clause") {
            plain = false;
        }
    }
    // Nested structs: qualified by the outer one.
    scope.push(name.clone());
    let mut c = body.walk();
    for f in body.children(&mut c) {
        if f.kind() == "field_declaration" {
            if let Some(t) = f.child_by_field_name("type") {
                if t.kind() == "struct_specifier" {
                    struct_at(t, text, scope, out, None);
                }
            }
        }
    }
    scope.pop();
    if plain && !fields.is_empty() {
        let qualified = scope.iter().chain(std::iter::once(&name)).cloned().collect::<Vec<_>>().join("::");
        out.push(Aggregate { name: qualified, fields });
    }
}

enum Decl {
    Field(String),
    Method,
}

fn declared_name(d: Node, text: &str) -> Option<Decl> {
    match d.kind() {
        "field_identifier" => Some(Decl::Field(text[d.byte_range()].to_string())),
        "array_declarator" => declared_name(d.child_by_field_name("declarator")?, text),
        "function_declarator" => Some(Decl::Method),
        // References and pointers: not data Vitis can put on a port.
        _ => None,
    }
}

/// The C++ of the packing specializations for `aggs` (inside the generated capture unit, after
/// the top's source and the capture header).
pub fn cpp(aggs: &[Aggregate]) -> String {
    let mut s = String::new();
    if aggs.is_empty() {
        return s;
    }
    s.push_str("namespace hlsinstr_cap {\n");
    // `pack` is a member template: compiled only for the structs a call passes, so a struct
    // with fields that have no bit layout (a stream, a class) costs nothing unless it is on a port.
    for a in aggs {
        s.push_str(&format!(
            "template <> struct Aggregate<::{}> {{\n    static const bool known = true;\n    template <class V>\n    \
             static Bits pack(const V& v) {{\n        Bits b;\n",
            a.name
        ));
        for f in &a.fields {
            s.push_str(&format!("        pack_field(b, v.{f});\n"));
        }
        s.push_str("        return b;\n    }\n};\n");
    }
    s.push_str("}  // namespace hlsinstr_cap\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_structs_in_namespaces_and_what_is_left_out() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("t.h"),
            "namespace ns { struct Pix { ap_uint<5> r, g; char tag[2]; bool ok; int f() const; static int z; }; }\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("top.cpp"),
            "#include \"t.h\"\n#include <hls_stream.h>\nstruct Bits3 { int a : 3; };\ntemplate <class T> struct Box { T x; };\n\
             typedef struct { int q; } Anon;\nclass C { int h; };\nstruct Priv { private: int p; };\nstruct Outer { struct In { short s; } in; int *p; };\nstruct Pair { int a; ns::Pix p; };\n",
        )
        .unwrap();
        let got = find(&dir.path().join("top.cpp"));
        let names: Vec<(&str, Vec<&str>)> =
            got.iter().map(|a| (a.name.as_str(), a.fields.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            names,
            [
                ("Anon", vec!["q"]),
                ("Outer::In", vec!["s"]),
                ("Pair", vec!["a", "p"]),
                ("ns::Pix", vec!["r", "g", "tag", "ok"])
            ]
        );
        let c = cpp(&got[2..3]);
        assert!(c.contains("template <> struct Aggregate<::Pair>") && c.contains("pack_field(b, v.p);"), "{c}");
    }
}
