//! How Vitis' C/RTL co-simulation testbench counts a call, so that `sim` can estimate the
//! figure users read in their co-sim report and `cosim` can give it beside the RTL's own
//! ap_start..ap_done.
//!
//! For a top whose block control sits on an s_axilite bundle, Vitis HLS up to 2022.2 drives the
//! bus from a testbench model that takes turns between processes, one turn at a time: a read of
//! the control register (the status poll), one process per argument (it writes that argument's
//! 32-bit words), and one that writes ap_start. The call's count starts one edge after the
//! testbench leaves reset and stops when a poll has seen ap_done; so it includes every
//! argument write, the start write, and the wait for the next poll after ap_done. On the
//! systolic fixture (2022.2) that is 321 cycles for a kernel whose schedule takes 260.
//!
//! The cycle figures below follow the AXI4-Lite handshakes of Vitis' `*_s_axi` adapter (AW, then
//! W, then B; AR, then R), which every version generates alike, and the turn taking of the
//! testbench model. Two points of that turn taking depend on the simulator's order of events at
//! one edge; the fixture decides both (see docs/cycle-model.md): after the status poll the next
//! process takes its turn at the edge where the read returns, and the start process finds its
//! flag still low on its first turn of a call (the flag is registered from the last argument's
//! finish), so the start is written one round later. With them the fixture's 321 comes out for
//! every run length from 255 to 264 cycles; the other readings give 312, 322 or 332.
//!
//! Vitis 2023.1 counts differently: the co-sim minus report differences of twenty 2023.1
//! designs (shared facts, rule 11) show no term of this size, so there, as for tops with block
//! control on ports, the call is the schedule's latency. 2023.2's testbench polls again
//! ([`polls`]). Where the call is the schedule's latency, co-sim counts ap_start..ap_done, which
//! the report's latency already spans (rule 10: a data-dependent ap_ctrl_hs top of
//! Vivado HLS 2019.1 reports 1 ~ 3221 and co-sim gives 436..3221 for n = 5..10, the report's
//! worst case at the largest n; a 2022.2 ap_ctrl_hs top of latency 3 gives 3).

use serde::Serialize;

/// The way a version of Vitis' testbench counts a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Window {
    /// ap_start..ap_done, the schedule's latency (rule 10; block control on ports, and Vitis 2023.1).
    Handshake,
    /// The s_axilite testbench of Vitis up to 2022.2: per call, the 32-bit words written per
    /// argument of the control bundle, in register order (an argument with 0 words still takes
    /// its turn).
    AxiLitePolled { words: Vec<u32> },
}

/// Status poll turn: AR accepted at +1 (the done bit is sampled there), R at +2, data taken at
/// +3, the read returns at +4, where the next process takes its turn.
const POLL: u64 = 4;
/// One register write: AW accepted at +1, W at +2, B at +3, the write returns at +4.
const WORD: u64 = 4;
/// An argument process that had work hands over two edges after its last write returned.
const HANDOFF: u64 = 2;
/// Edge of the start write's W handshake after its turn begins; the kernel sees ap_start
/// at the next edge.
const START_SEEN: u64 = 3;
/// From the poll that sees ap_done to the edge the testbench counts as the call's end: the
/// read returns (+4), the testbench's done flag is registered (+5) and sampled (+6).
const DONE_SEEN: u64 = 6;
/// The testbench takes the call's start one edge after its first poll began.
const START_TAKEN: u64 = 1;

impl Window {
    /// The window of a top: block control on an s_axilite bundle (`words` per argument of that
    /// bundle) or on ports, and the tool version that wrote the RTL or the report (`2022.2`).
    /// An unknown version counts as 2023.1+ (the rule measured on the most designs).
    pub fn for_top(version: Option<&str>, control_on_axilite: bool, words: Vec<u32>) -> Window {
        if control_on_axilite && version.and_then(year_minor).is_some_and(polls) {
            Window::AxiLitePolled { words }
        } else {
            Window::Handshake
        }
    }

    /// Cycles the co-simulation reports for a call whose ap_start..ap_done takes `run` cycles.
    pub fn cycles(&self, run: u64) -> u64 {
        match self {
            Window::Handshake => run,
            Window::AxiLitePolled { words } => polled(words, run),
        }
    }

    /// One line for reports: how the co-sim figure is derived.
    pub fn describe(&self) -> String {
        match self {
            Window::Handshake => "the schedule (ap_start..ap_done, as the co-sim testbench counts it)".into(),
            Window::AxiLitePolled { words } => {
                let n = words.iter().sum::<u32>();
                format!(
                    "Vitis' polled s_axilite testbench (≤ 2022.2, 2023.2+): {n} argument word{} written, ap_start, done seen by a \
                     status poll every {} cycles",
                    if n == 1 { "" } else { "s" },
                    POLL + words.len() as u64 + 1
                )
            }
        }
    }
}

/// The year and release of a version string: `2022.2` → (2022, 2), `v2019.1` → (2019, 1), `2023`
/// → (2023, 0).
fn year_minor(version: &str) -> Option<(u32, u32)> {
    let v = version.trim().trim_start_matches(['v', 'V']);
    let mut parts = v.split(['.', ' ']);
    let year = parts.next()?.parse().ok().filter(|y| (2000..3000).contains(y))?;
    let minor = parts.next().and_then(|m| m.parse().ok()).unwrap_or(0);
    Some((year, minor))
}

/// Whether that version's s_axilite testbench counts a call by its polls. Up to 2022.2: the
/// fixture. 2023.1: the twenty designs of rule 11 show no such term, so the schedule. 2023.2
/// ships the polling model again: its `AESL_axi_slave_<bundle>.v` takes turns between an
/// `update_status` read of the control register and a `write_start` process, and its autotb
/// takes a call's end from that read's done bit (a public 2023.2 design with AXI streams and no
/// argument registers: 53 in the report, 70 and 71 in co-sim). Later releases are taken to keep
/// the 2023.2 testbench.
fn polls((year, minor): (u32, u32)) -> bool {
    year < 2023 || (year, minor) >= (2023, 2)
}

/// Edges are counted from the testbench's first turn (a status poll) at edge 0.
fn polled(words: &[u32], run: u64) -> u64 {
    let n = words.len() as u64;
    let mut turn = POLL;
    for &w in words {
        turn += WORD * w as u64 + HANDOFF;
    }
    if !words.is_empty() {
        // The start process passes once, then a poll and every argument process (idle now).
        turn += 1 + POLL + n;
    }
    let start_seen = turn + START_SEEN;
    let done = start_seen + run;
    turn += WORD + HANDOFF;
    // Polls from `turn` on, one per round of every process; the first that begins at or after
    // the edge where ap_done is high samples the done bit set.
    let round = POLL + n + 1;
    let poll = turn + done.saturating_sub(turn).div_ceil(round) * round;
    poll + DONE_SEEN - START_TAKEN
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The systolic fixture's control bundle: three 64-bit buffer addresses and one `unsigned`.
    /// Its schedule (260) and its co-sim report (321).
    #[test]
    fn the_systolic_fixture() {
        let w = Window::for_top(Some("2022.2"), true, vec![2, 2, 2, 1]);
        // Turns: poll 0-3, the four arguments 4-39 (10, 10, 10, 6 edges), the start process
        // idle at 40, poll 41-44, idle arguments 45-48, start written at 49 (ap_start seen at
        // 52), polls every 9 edges from 55: ap_done at 312, seen by the poll at 316, counted
        // at 322 from edge 1.
        assert_eq!(w.cycles(260), 321);
        // The RTL's 264 (fixtures README) lands in the same poll; 252 (cosim's memory) a round earlier.
        assert_eq!(w.cycles(264), 321);
        assert_eq!(w.cycles(252), 312);
    }

    /// The poll quantises: a run one cycle longer than a poll boundary waits a whole round.
    #[test]
    fn done_waits_for_the_next_poll() {
        let w = Window::AxiLitePolled { words: vec![1] };
        // Turns: poll 0-3, argument 4-9, start idle 10, poll 11-14, argument idle 15, start
        // write 16 (ap_start seen at 19), polls every 6 edges from 22.
        assert_eq!(w.cycles(3), 22 + 5); // done at 22: the poll at 22 sees it
        assert_eq!(w.cycles(4), 28 + 5); // done at 23: the next poll
        assert_eq!(w.cycles(9), 28 + 5);
        assert_eq!(w.cycles(10), 34 + 5);
    }

    #[test]
    fn a_top_without_arguments_writes_only_the_start() {
        // Poll 0-3, start written at 4 (ap_start seen at 7), polls every 5 edges from 10.
        let w = Window::AxiLitePolled { words: vec![] };
        assert_eq!(w.cycles(3), 10 + 5);
        assert_eq!(w.cycles(4), 15 + 5);
    }

    #[test]
    fn the_version_and_the_protocol_choose_the_window() {
        assert_eq!(Window::for_top(Some("2023.1"), true, vec![1]), Window::Handshake);
        assert_eq!(Window::for_top(Some("2023.2"), true, vec![]), Window::AxiLitePolled { words: vec![] });
        assert_eq!(Window::for_top(Some("2024.1"), true, vec![2]), Window::AxiLitePolled { words: vec![2] });
        assert_eq!(Window::for_top(Some("2023.2"), false, vec![]), Window::Handshake);
        assert_eq!(Window::for_top(Some("2022.2"), false, vec![1]), Window::Handshake);
        assert_eq!(Window::for_top(None, true, vec![1]), Window::Handshake);
        assert_eq!(Window::for_top(Some("v2019.2"), true, vec![]), Window::AxiLitePolled { words: vec![] });
        assert_eq!(Window::Handshake.cycles(260), 260);
    }
}
