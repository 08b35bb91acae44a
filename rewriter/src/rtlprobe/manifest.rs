//! The `rtl` section of the manifest: the instance tree of the solution and which queue of the
//! profiling IP times which instance. Probes themselves are ordinary manifest probes (kind
//! `function` or `loop`), so every flow names a function or loop the same way.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RtlBuild {
    /// The original top module.
    pub top: String,
    /// The new top: the edited design beside the profiling IP.
    pub wrapper: String,
    /// FNV-1a of the queues (`i:path:depth` lines) as 16 hex digits; the IP holds it in KEY, the
    /// dump carries it, so a dump is never decoded against another build's manifest.
    pub key: String,
    /// Every function and pipelined-loop instance found, probed or not, parents first.
    pub instances: Vec<RtlInstance>,
    /// Queue `i` of the IP (and of the dump) is `queues[i]`.
    pub queues: Vec<RtlQueue>,
    /// Bits of the IP's call counters; 0: none (calls are the starts a queue kept).
    #[serde(default = "default_calls_width")]
    pub calls_width: u32,
    /// Bits of each stored timestamp (the counter's low bits); manifests before it: 64.
    #[serde(default = "default_ts_width")]
    pub ts_width: u32,
    /// The IP writes half-full queues to DRAM through the new top's `m_axi_rtlprobe` port.
    #[serde(default)]
    pub offload: bool,
    /// RTL files changed by the edit (below `rtl/`), and files added.
    pub edited: Vec<String>,
    pub generated: Vec<String>,
}

fn default_calls_width() -> u32 {
    super::DEFAULT_CALLS_WIDTH
}

fn default_role() -> String {
    super::ip::ROLE_CALL.into()
}

fn is_call(role: &str) -> bool {
    role == super::ip::ROLE_CALL
}

fn default_ts_width() -> u32 {
    64
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RtlInstance {
    /// RTL instance path from the top module (`multiplier/grp_..._fu_2080`).
    pub path: String,
    /// Source path: the top function, then functions and loops (`multiplier/systolic1`).
    pub name: String,
    pub module: String,
    /// The csynth.xml module it implements.
    pub hls_module: String,
    /// `function` or `loop`.
    pub kind: String,
    pub parent: Option<usize>,
    /// csynth.xml's latency of one call, min and max.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub latency: Option<[u64; 2]>,
    /// Calls per top call, from the trip counts around each call.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub expected_calls: Option<u64>,
    /// The manifest probe that times it, when selected.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub probe: Option<u32>,
    /// A loop of its function's FSM (not an instance): the states the probe decodes.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fsm: Option<RtlFsm>,
}

/// An FSM loop as the probe decodes it (docs/rtl-probe.md#fsm-loops).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RtlFsm {
    /// Schedule states (`.verbose.sched.rpt`), the header first.
    pub states: Vec<u32>,
    /// Their `ap_ST_fsm_*` parameters in the RTL.
    pub rtl_states: Vec<String>,
    /// The decoder as generated (true while the loop runs).
    pub active: String,
    /// The header state, when its entries count iterations (then a header queue follows the
    /// loop's queue).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub header: Option<u32>,
    /// Every exit is from the header: iterations = header entries - loop entries.
    pub exits_at_header: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct RtlQueue {
    pub probe: u32,
    /// `call` (ap_start to ap_done), `loop` (an FSM loop's runs) or `header` (its header visits).
    #[serde(default = "default_role", skip_serializing_if = "is_call")]
    pub role: String,
    /// Index into `instances`.
    pub instance: usize,
    /// Timestamps the queue keeps (starts and ends alternate).
    pub depth: u32,
    /// The new top ports it reads.
    pub start: String,
    pub done: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub cont: Option<String>,
}

/// FNV-1a (64-bit) over one line per queue.
pub fn key(queues: &[RtlQueue], instances: &[RtlInstance]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, q) in queues.iter().enumerate() {
        let path = instances.get(q.instance).map_or("?", |n| n.path.as_str());
        for b in format!("{i}:{path}:{}\n", q.depth).bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}
