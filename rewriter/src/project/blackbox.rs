//! RTL blackboxes (`syn.blackbox.file`, `add_files -blackbox`): the JSON descriptor names the
//! Verilog module synthesis uses and the C model C simulation compiles instead (UG1399, "Adding
//! RTL Blackbox Functions"). Only the C side matters here: `c_files`, each with its `cflag`.

use super::{split_flags, Project};
use crate::error::{Error, ErrorKind, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Descriptor {
    #[serde(default)]
    c_function_name: Option<String>,
    #[serde(default)]
    c_files: Vec<CFile>,
}

#[derive(Deserialize)]
struct CFile {
    c_file: String,
    #[serde(default)]
    cflag: String,
}

/// A C model file of a blackbox, to compile into the C simulation as it is (not probed: in
/// hardware it is the RTL module, not HLS code).
#[derive(Debug, Clone, PartialEq)]
pub struct ModelFile {
    /// Resolved against the descriptor's directory.
    pub path: PathBuf,
    pub cflags: Vec<String>,
    /// The blackbox's function (`c_function_name`), for messages.
    pub function: String,
}

/// The C model files of every blackbox of `p`. A descriptor that cannot be read, is not the
/// JSON Vitis takes, or names a missing file is an error that says which.
pub fn model_files(p: &Project) -> Result<Vec<ModelFile>> {
    let mut out = Vec::new();
    for json in &p.blackbox {
        out.extend(read(json)?);
    }
    Ok(out)
}

fn read(json: &Path) -> Result<Vec<ModelFile>> {
    let text = std::fs::read_to_string(json).map_err(|e| Error::io(json, &e))?;
    let d: Descriptor = serde_json::from_str(&text).map_err(|e| {
        Error::new(
            ErrorKind::BadInput,
            format!(
                "not an RTL blackbox descriptor ({e}): `syn.blackbox.file` / `add_files -blackbox` take the JSON with \
                 `c_function_name`, `c_files` and `rtl_files`"
            ),
        )
        .at(json)
    })?;
    let function = d.c_function_name.unwrap_or_else(|| "?".into());
    if d.c_files.is_empty() {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("the blackbox `{function}` lists no `c_files`: C simulation needs its C model"),
        )
        .at(json));
    }
    let dir = json.parent().unwrap_or(Path::new("."));
    let mut out = Vec::new();
    for f in d.c_files {
        let path = super::resolve(dir, &f.c_file);
        if !path.is_file() {
            return Err(Error::new(
                ErrorKind::BadInput,
                format!(
                    "the blackbox `{function}` names the C model {}, which does not exist (paths are relative to the \
                     descriptor's directory)",
                    path.display()
                ),
            )
            .at(json));
        }
        let cflags = super::absolutize_flags(dir, &split_flags(&f.cflag).0);
        out.push(ModelFile { path, cflags, function: function.clone() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixture_descriptor_names_its_c_model() {
        let json = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures/vitis-blackbox/rtl_model.json");
        // The fixture holds the descriptor only, not the C model: that is the missing-file error.
        let e = read(&json).unwrap_err();
        assert!(e.message.contains("the blackbox `rtl_model` names the C model"), "{e}");
        assert!(e.message.contains("rtl_model.cpp"), "{e}");
    }
}
