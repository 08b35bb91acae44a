//! The in-FPGA builds and what they generate (this module was `target`, a name cargo uses for
//! its build folder). The default target is C simulation (hls-lib `hlsinstr/probe.h`: an event log);
//! `vitis` is the in-FPGA build: probes post into FIFOs passed down from a generated new top that
//! runs the design next to a monitor ([`vitis`]). A rewrite of OpenCL C kernels also generates
//! the host side of their iBuffer units ([`opencl`]).

pub mod opencl;
pub mod vitis;

/// What the rewritten code is for.
#[derive(Debug, Clone, Default)]
pub enum Target {
    #[default]
    Csim,
    Vitis(vitis::VitisOptions),
}
