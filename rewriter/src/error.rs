//! Typed errors of the library. The CLI adds context and maps [`ErrorKind`] to exit codes.

use std::path::PathBuf;

/// What went wrong, independent of where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file could not be read or written.
    Io,
    /// Input is not text we can rewrite (binary, not UTF-8, too large).
    BadInput,
    /// Input already carries hlsinstr instrumentation.
    AlreadyInstrumented,
    /// A write would leave the output directory or clobber an input.
    UnsafePath,
    /// The options do not make sense together (unknown top, bad glob, ...).
    Usage,
    /// The rewriter produced something it refuses to write: a bug in hlsinstr.
    Internal,
    /// The run was cancelled (Ctrl-C, SIGTERM) before it finished; what it started was stopped.
    Interrupted,
    /// Another hlsinstr run holds the output directory's lock.
    Busy,
}

/// An error tied to a file (and, when known, a position inside it).
#[derive(Debug, Clone, thiserror::Error)]
#[error("{}{message}", location(.path, .line_col))]
pub struct Error {
    pub kind: ErrorKind,
    pub path: Option<PathBuf>,
    /// 1-based line and column.
    pub line_col: Option<(usize, usize)>,
    pub message: String,
}

fn location(path: &Option<PathBuf>, line_col: &Option<(usize, usize)>) -> String {
    match (path, line_col) {
        (Some(p), Some((l, c))) => format!("{}:{l}:{c}: ", p.display()),
        (Some(p), None) => format!("{}: ", p.display()),
        _ => String::new(),
    }
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error { kind, path: None, line_col: None, message: message.into() }
    }
    pub fn at(mut self, path: impl Into<PathBuf>) -> Self {
        self.path = Some(path.into());
        self
    }
    /// As [`Error::at`] for an error that names no file yet: one that does (a report read
    /// while a log was analysed, say) keeps its own.
    pub fn or_at(self, path: impl Into<PathBuf>) -> Self {
        if self.path.is_some() {
            self
        } else {
            self.at(path)
        }
    }
    pub fn at_line(mut self, line: usize, col: usize) -> Self {
        self.line_col = Some((line, col));
        self
    }
    pub fn io(path: impl Into<PathBuf>, err: &std::io::Error) -> Self {
        Error::new(ErrorKind::Io, err.to_string()).at(path)
    }
}

pub type Result<T> = std::result::Result<T, Error>;
