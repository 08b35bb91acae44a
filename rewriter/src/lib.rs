//! hlsinstr: a source-to-source rewriter that inserts profiling probes into HLS C++ kernels.
//!
//! The pipeline, one module per stage: [`parse`] → [`model`] → [`select`] / [`plan`] → [`edit`] →
//! [`emit`]. [`rewrite`] runs it in memory; [`strip`] is its exact inverse; [`diff`] shows it.
//! The `hlsinstr` binary is a thin layer over this library.

pub mod cfg;
pub mod cosim;
pub mod cpp_blank;
pub mod csynth;
pub mod decode;
pub mod diff;
pub mod edit;
pub mod emit;
pub mod emulate;
pub mod error;
pub mod fpga;
pub mod hls_lib;
pub mod leaf_loop;
pub mod model;
pub mod opencl;
pub mod parse;
pub mod plan;
pub mod proc;
pub mod profile;
pub mod project;
pub mod rewrite;
pub mod rtlprobe;
pub mod select;
pub mod sim;
pub mod source;
pub mod strip;
pub mod timings;
pub mod top_level;

pub mod verilog_lex;
pub mod vitis_tb;
pub mod walk;
pub mod watch;

pub use error::{Error, ErrorKind, Result};
