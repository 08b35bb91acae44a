//! Loading source files: the checks that turn bad input into clear errors before parsing; and
//! the literal scanner every stage shares (`literals`).

mod literals;

pub use literals::literal_ranges;

use crate::error::{Error, ErrorKind, Result};
use std::path::{Path, PathBuf};

/// Files larger than this are refused: tree-sitter would cope, but no kernel is this big and a
/// mistaken input (a generated dump, a binary) should fail fast with a clear message.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Extensions walked in directories: C and C++ sources and headers.
pub const CXX_EXTENSIONS: &[&str] =
    &["c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tpp"];

/// A source file as read from disk.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Path as given or found while walking (used in messages).
    pub path: PathBuf,
    /// Path relative to the input root, with `/` separators (used in output layout and manifest).
    pub rel: String,
    pub text: String,
}

impl SourceFile {
    /// Line ending used by the file: the first one found, `\n` when none.
    pub fn eol(&self) -> &'static str {
        match self.text.find('\n') {
            Some(i) if i > 0 && self.text.as_bytes()[i - 1] == b'\r' => "\r\n",
            _ => "\n",
        }
    }

    /// Byte length of a leading UTF-8 byte order mark (0 or 3).
    pub fn bom_len(&self) -> usize {
        if self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        }
    }
}

/// A file `rewrite` takes: C/C++ (`CXX_EXTENSIONS`) or OpenCL C (`.cl`).
pub fn is_source_path(path: &Path) -> bool {
    is_cxx_path(path) || crate::opencl::is_opencl_path(path)
}

pub fn is_cxx_path(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .map(|e| CXX_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        .unwrap_or(false)
}

/// Read a file, refusing what we cannot rewrite safely.
pub fn load(path: &Path, rel: &str) -> Result<SourceFile> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, &e))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!(
                "file is {} MiB, over the {} MiB limit; is this really kernel source? pass the source files only",
                meta.len() / (1024 * 1024),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        )
        .at(path));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, &e))?;
    from_bytes(path, rel, bytes)
}

/// The checks of [`load`] on bytes already in memory.
pub fn from_bytes(path: &Path, rel: &str, bytes: Vec<u8>) -> Result<SourceFile> {
    if let Some(pos) = bytes.iter().position(|&b| b == 0) {
        let (line, col) = line_col_of_bytes(&bytes, pos);
        return Err(Error::new(
            ErrorKind::BadInput,
            "binary file (NUL byte); only C/C++ source text can be instrumented".to_string(),
        )
        .at(path)
        .at_line(line, col));
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(SourceFile { path: path.to_path_buf(), rel: rel.to_string(), text }),
        Err(e) => {
            let pos = e.utf8_error().valid_up_to();
            let (line, col) = line_col_of_bytes(e.as_bytes(), pos);
            Err(Error::new(
                ErrorKind::BadInput,
                "not valid UTF-8; convert the file to UTF-8 (e.g. `iconv -f latin1 -t utf-8`) and run again",
            )
            .at(path)
            .at_line(line, col))
        }
    }
}

fn line_col_of_bytes(bytes: &[u8], pos: usize) -> (usize, usize) {
    let before = &bytes[..pos];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col = pos - before.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0) + 1;
    (line, col)
}

/// 1-based line and column (in bytes) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    line_col_of_bytes(text.as_bytes(), offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_non_utf8_are_refused_with_position() {
        let err = from_bytes(Path::new("a.cpp"), "a.cpp", b"int x;\n\0".to_vec()).unwrap_err();
        assert_eq!(err.kind, ErrorKind::BadInput);
        assert_eq!(err.line_col, Some((2, 1)));
        let err = from_bytes(Path::new("a.cpp"), "a.cpp", b"int \xe9;".to_vec()).unwrap_err();
        assert!(err.to_string().starts_with("a.cpp:1:5: not valid UTF-8"), "{err}");
    }

    #[test]
    fn eol_and_bom() {
        let f = from_bytes(Path::new("a"), "a", "\u{feff}x;\r\ny;".as_bytes().to_vec()).unwrap();
        assert_eq!(f.eol(), "\r\n");
        assert_eq!(f.bom_len(), 3);
        let f = from_bytes(Path::new("a"), "a", b"x;".to_vec()).unwrap();
        assert_eq!(f.eol(), "\n");
    }
}
