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
//! control on ports, the call is the schedule's latency. 2023.2's testbench polls again, with
//! turns of its own, read from its code rather than fitted ([`turns_2023`]). Where the call is
//! the schedule's latency, co-sim counts ap_start..ap_done, which
//! the report's latency already spans (rule 10: a data-dependent ap_ctrl_hs top of
//! Vivado HLS 2019.1 reports 1 ~ 3221 and co-sim gives 436..3221 for n = 5..10, the report's
//! worst case at the largest n; a 2022.2 ap_ctrl_hs top of latency 3 gives 3).

use serde::Serialize;

mod turns_2019;
pub use turns_2019::Output as Output2019;

/// The way a version of Vitis' testbench counts a call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Window {
    /// ap_start..ap_done, the schedule's latency (rule 10; block control on ports, and Vitis 2023.1).
    Handshake,
    /// The s_axilite testbench of Vitis up to 2022.2: per call, the 32-bit words written per
    /// argument of the control bundle, in register order (an argument with 0 words still takes
    /// its turn), then the memories of array arguments on the bundle (each bank a process of its
    /// own) and the outputs it reads back after ap_done.
    AxiLitePolled {
        words: Vec<u32>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        writes: Vec<Bank>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        reads: Vec<ReadBack>,
    },
    /// The s_axilite testbench of Vitis 2023.2 and later, whose turn taking is read from its
    /// `AESL_axi_slave_<bundle>.v` and autotb ([`turns_2023`]): the 32-bit words written per
    /// scalar argument of the control bundle, in register order. Arrays on the bundle keep the
    /// `AxiLitePolled` model ([`Window::with_memories`]): their processes were not derived.
    AxiLitePolled2023 { words: Vec<u32> },
    /// The s_axilite testbench of Vivado HLS 2018 and 2019 ([`turns_2019`]): the inputs it
    /// writes before the start (scalar arguments, m_axi offsets, banks of input arrays), in
    /// argument order, and the outputs it reads (output scalars polled from the start, the return
    /// value and output arrays after done).
    AxiLite2019 { inputs: Vec<Bank>, outputs: Vec<Output2019> },
}

/// One bank of an array argument on the control bundle (an `ARRAY_PARTITION` of the argument
/// makes one per part): the testbench's process for it moves one element a turn, `words`
/// 32-bit words (elements of 8 or 16 bits packed four or two to a word, one word a turn), for
/// `turns` turns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bank {
    pub words: u32,
    pub turns: u32,
}

/// What the testbench reads back after ap_done, each a process of its own: a bank of an output
/// array (a memory read waits one edge more than a register's: the adapter reads the RAM first)
/// or an output scalar (its valid register, then its data words).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "of", rename_all = "snake_case")]
pub enum ReadBack {
    Memory(Bank),
    Scalar { words: u32 },
}

impl ReadBack {
    /// Edges of one turn with work, and the turns.
    fn turn(&self) -> (u64, u32) {
        match *self {
            ReadBack::Memory(b) => ((READ + RAM_READ) * b.words as u64 + HANDOFF, b.turns),
            ReadBack::Scalar { words } => (READ + READ * words as u64 + HANDOFF, 1),
        }
    }
}

impl Bank {
    /// The bank of `elements` elements of `bits` bits: Vitis' testbench packs elements of up to
    /// 8 bits four to a 32-bit word and of up to 16 bits two, and writes wider ones in
    /// `ceil(bits / 32)` words, one element (or one packed word) a turn.
    pub fn of(elements: u64, bits: u32) -> Bank {
        let per_word = match bits {
            0..=8 => 4,
            9..=16 => 2,
            _ => 1,
        };
        Bank { words: bits.div_ceil(32).max(1), turns: elements.div_ceil(per_word).min(u32::MAX as u64) as u32 }
    }
}

/// Status poll turn: AR accepted at +1 (the done bit is sampled there), R at +2, data taken at
/// +3, the read returns at +4, where the next process takes its turn.
const POLL: u64 = 4;
/// One register write: AW accepted at +1, W at +2, B at +3, the write returns at +4.
const WORD: u64 = 4;
/// One register read, as the status poll's: AR at +1, R at +2, data at +3, returns at +4.
const READ: u64 = 4;
/// A read of a memory on the bundle: the adapter holds RVALID a cycle while its RAM answers
/// (`RVALID` waits for `int_<mem>_read` to fall in Vitis' `*_s_axi`).
const RAM_READ: u64 = 1;
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
        let release = version.and_then(year_minor);
        if control_on_axilite && release.is_some_and(turns_of_2023) {
            Window::AxiLitePolled2023 { words }
        } else if control_on_axilite && release.is_some_and(polls) {
            Window::AxiLitePolled { words, writes: Vec::new(), reads: Vec::new() }
        } else {
            Window::Handshake
        }
    }

    /// The polled window with the memories of the bundle's array arguments (`writes`, after the
    /// scalar arguments) and what the testbench reads back after ap_done (`reads`); the
    /// handshake window has no bus to move them over and stays as it is.
    pub fn with_memories(self, writes: Vec<Bank>, reads: Vec<ReadBack>) -> Window {
        match self {
            Window::AxiLitePolled { words, .. } => Window::AxiLitePolled { words, writes, reads },
            Window::AxiLitePolled2023 { words } if writes.is_empty() && reads.is_empty() => {
                Window::AxiLitePolled2023 { words }
            }
            Window::AxiLitePolled2023 { words } => Window::AxiLitePolled { words, writes, reads },
            Window::Handshake => Window::Handshake,
            w @ Window::AxiLite2019 { .. } => w,
        }
    }

    /// Cycles the co-simulation reports for a call whose ap_start..ap_done takes `run` cycles.
    pub fn cycles(&self, run: u64) -> u64 {
        match self {
            Window::Handshake => run,
            Window::AxiLitePolled { words, writes, reads } => polled(words, writes, reads, run).cycles,
            Window::AxiLitePolled2023 { words } => turns_2023(words, run, false),
            Window::AxiLite2019 { inputs, outputs } => turns_2019::counts(inputs, outputs, &[run])[0],
        }
    }

    /// The same for a call that follows another (`prev_run`) in the testbench. With read-back,
    /// the testbench starts counting the next call at the poll that saw the previous one's
    /// ap_done (its ready bit), so the previous call's read-back falls in this call's count
    /// too: one public design's first call 517, every later one 544. Without read-back the
    /// call counts as the first, except in 2023.2's testbench, which counts a later call from
    /// the previous one's end and re-arms its start a round late ([`turns_2023`]: one public
    /// design's first call 70, every later one 71).
    pub fn cycles_after(&self, prev_run: Option<u64>, run: u64) -> u64 {
        match (self, prev_run) {
            (Window::AxiLitePolled { words, writes, reads }, Some(prev)) if !reads.is_empty() => {
                let tail = polled(words, writes, reads, prev).tail;
                polled(words, writes, reads, run).cycles + START_TAKEN + tail.saturating_sub(READY_TAKEN)
            }
            (Window::AxiLitePolled2023 { words }, Some(_)) => turns_2023(words, run, true),
            // The count of a later call depends on where the previous one left the ring.
            (Window::AxiLite2019 { inputs, outputs }, Some(prev)) => {
                turns_2019::counts(inputs, outputs, &[prev, run])[1]
            }
            _ => self.cycles(run),
        }
    }

    /// One line for reports: how the co-sim figure is derived.
    pub fn describe(&self) -> String {
        match self {
            Window::Handshake => "the schedule (ap_start..ap_done, as the co-sim testbench counts it)".into(),
            Window::AxiLitePolled { words, writes, reads } => {
                let n = words.iter().sum::<u32>();
                let mut s = format!(
                    "Vitis' polled s_axilite testbench (≤ 2022.2, 2023.2+): {n} argument word{} written",
                    if n == 1 { "" } else { "s" }
                );
                if !writes.is_empty() {
                    let w: u64 = writes.iter().map(|b| b.words as u64 * b.turns as u64).sum();
                    s += &format!(
                        ", {w} words into {} memor{}",
                        writes.len(),
                        if writes.len() == 1 { "y" } else { "ies" }
                    );
                }
                s += &format!(
                    ", ap_start, done seen by a status poll every {} cycles",
                    POLL + (words.len() + writes.len() + reads.len()) as u64 + 1
                );
                if !reads.is_empty() {
                    let w: u64 = reads
                        .iter()
                        .map(|r| match r {
                            ReadBack::Memory(b) => b.words as u64 * b.turns as u64,
                            ReadBack::Scalar { words } => *words as u64,
                        })
                        .sum();
                    s += &format!(", then {w} output words read back");
                }
                s
            }
            Window::AxiLite2019 { inputs, outputs } => {
                let w: u64 = inputs.iter().map(|b| b.words as u64 * b.turns as u64).sum();
                let polled = outputs.iter().filter(|o| matches!(o, Output2019::Valid { .. })).count();
                let after = outputs.len() - polled;
                format!(
                    "Vivado HLS 2018-2019's s_axilite testbench: {w} input word{} written, ap_start, {polled} output scalar{} polled from the start, {after} output{} read after done",
                    if w == 1 { "" } else { "s" },
                    if polled == 1 { "" } else { "s" },
                    if after == 1 { "" } else { "s" },
                )
            }
            Window::AxiLitePolled2023 { words } => {
                let n = words.iter().sum::<u32>();
                format!(
                    "Vitis' polled s_axilite testbench (2023.2+): {n} argument word{} written, ap_start, done seen by a status poll every {} cycles",
                    if n == 1 { "" } else { "s" },
                    POLL + 1 + words.len() as u64 + 1
                )
            }
        }
    }
}

/// The release a word of a tool's banner or header names: `v2022.2` → `2022.2`, `v2023.2.1` →
/// `2023.2.1` (a patch release, as 2023.2 writes in its RTL headers); anything else (`v2.cpp`,
/// `v2023.x`) names none. Shared by the RTL headers (`cosim`) and the solution logs (`project`).
pub(crate) fn release_in_word(word: &str) -> Option<&str> {
    let v = word.strip_prefix('v')?;
    let parts: Vec<&str> = v.split('.').collect();
    let digits = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
    (parts.len() >= 2 && parts[0].len() == 4 && parts.iter().all(digits)).then_some(v)
}

/// The year and release of a version string: `2022.2` → (2022, 2), `v2019.1` → (2019, 1), `2023`
/// → (2023, 0).
fn year_minor(version: &str) -> Option<(u32, u32)> {
    release_of(version)
}

/// The year and minor release a version string names (`2020.2 (Build 3064766 ...)` → (2020, 2)).
pub fn release_of(version: &str) -> Option<(u32, u32)> {
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
/// argument registers: 53 in the report, 70 and 71 in co-sim), with its own turn counts
/// ([`turns_2023`]; this model stays for its arrays on the bundle). Later releases are taken to
/// keep the 2023.2 testbench.
fn polls((year, minor): (u32, u32)) -> bool {
    year < 2023 || (year, minor) >= (2023, 2)
}

/// Whether that version's co-sim testbench is Vivado HLS 2018–2019's ([`Window::AxiLite2019`]):
/// measured on 2018.3 and 2019.2 designs. Vivado HLS 2015.2's is another (a public m_axi design
/// co-simulates in 52 cycles where this testbench would take 68 or more); 2020 and later keep
/// the model fitted on 2022.2.
pub fn testbench_of_2019(version: &str) -> bool {
    year_minor(version).is_some_and(|(year, _)| (2018..=2019).contains(&year))
}

/// Whether that version ships the 2023.2 testbench model ([`turns_2023`]). Later releases are
/// taken to keep it.
fn turns_of_2023(release: (u32, u32)) -> bool {
    release >= (2023, 2)
}

/// A status poll of the 2023.2 testbench and its hand-over: the read's AR is accepted at +1
/// (the done bit is sampled there), it returns at +4, and the next process, which sees its turn
/// through a register the poll's finish updates, starts at +5.
const POLL_2023: u64 = 5;
/// One register write of the 2023.2 testbench: it returns at +4 and the process pulses its
/// write-done flag for one more edge.
const WORD_2023: u64 = 5;
/// The start write's turn: the write returns at +4, the start-finish pulse takes +5, the next
/// process starts at +6.
const START_2023: u64 = 6;
/// A process whose flag is low passes its turn in one edge.
const IDLE: u64 = 1;
/// From the poll that sees ap_done to the edge the autotb counts as the call's end: the read
/// returns (+4), the done pulse is registered (+5) and sampled (+6).
const DONE_SEEN_2023: u64 = 6;

/// Vitis 2023.2's s_axilite testbench, turn by turn, for a call whose ap_start..ap_done takes
/// `run` cycles; `later`: a call after another (counted from the previous one's end).
///
/// Read from the testbench Vitis 2023.2 writes (`AESL_axi_slave_<bundle>.v`, the autotb): the
/// processes (status poll, one per scalar argument, the start) take turns through a turn
/// register each process's finish updates with a non-blocking assignment, so the next process
/// starts one edge after the previous one returned. Edges count from the first poll (edge 0).
///
/// - Argument flags: set from the testbench's ready pulse, seen from edge 2 on the first call
///   and from 9 edges after the previous call's done poll began on later ones; an argument
///   with its flag up writes its words (5 edges each) and hands over one edge later.
/// - The start flag: without arguments, up from reset (first call) or from 8 edges after the
///   done poll (the done pulse re-arms it through two registers); with arguments, 2 edges after
///   the last argument's finish flag, which comes an edge after its last write's pulse, so the
///   start always misses the turn right after the arguments (as up to 2022.2).
/// - The kernel sees ap_start at the third edge of the start write (W at +2); ap_done at
///   ap_start + `run` sets the adapter's done bit, which the first poll beginning at or after
///   that edge samples; the call ends 6 edges after that poll began.
/// - The count starts one edge after the first poll began (edge 1); a later call's at the edge
///   its previous call ended (the testbench's start follows the ready bit of that poll).
///
/// A public 2023.2 design (`AES_Encrypt_axi`, two AXI streams, no argument register, 53 cycles
/// of schedule, 30 calls) checks it: done at 71 edges after its first poll, then every 71 (its
/// `xsim.log`: 845 ns, 1555 ns, ... with the first poll at 135 ns), 70 then 71 cycles counted.
fn turns_2023(words: &[u32], run: u64, later: bool) -> u64 {
    const NEVER: u64 = u64::MAX;
    let n = words.len();
    // (edge, process): process 0 is the poll, 1..=n the arguments, n + 1 the start.
    let (mut t, mut k, counted_from, args_from, start_armed) = if later {
        // The previous call's done poll began at edge 0 and returned at 4.
        (POLL_2023, 1, DONE_SEEN_2023, 9, 8)
    } else {
        (0, 0, 1, 2, 0)
    };
    let mut written = vec![false; n];
    let mut last_finish: Option<u64> = None;
    let mut done = NEVER;
    loop {
        if k == 0 {
            if done <= t {
                return t + DONE_SEEN_2023 - counted_from;
            }
            t += POLL_2023;
        } else if k <= n {
            let i = k - 1;
            if !written[i] && t >= args_from {
                written[i] = true;
                // An argument without words (nothing changed) finishes without writing.
                let end = t + WORD_2023 * words[i] as u64;
                last_finish = Some(last_finish.map_or(end + 1, |f: u64| f.max(end + 1)));
                t = if words[i] == 0 { t + IDLE } else { end + 1 };
            } else {
                t += IDLE;
            }
        } else {
            let armed = if n == 0 {
                start_armed
            } else if written.iter().all(|&w| w) {
                last_finish.map_or(NEVER, |f| f + 2).max(start_armed)
            } else {
                NEVER
            };
            if done == NEVER && t >= armed {
                done = t + 3 + run;
                t += START_2023;
            } else {
                t += IDLE;
            }
        }
        k = (k + 1) % (n + 2);
    }
}

/// Where a polled call ends: the cycles counted, and the edges from the start of the poll that
/// saw ap_done to the end of the read-back (0 without read-back).
struct Polled {
    cycles: u64,
    tail: u64,
}

/// The next call's count starts 5 edges after the poll that saw ap_done began: the read
/// returns at +4 with the ready bit, which the testbench samples a cycle later.
const READY_TAKEN: u64 = 5;

/// Edges are counted from the testbench's first turn (a status poll) at edge 0. The processes
/// take turns in a fixed round: the poll, the writers (scalar arguments, then memory banks),
/// the start, the read-back; a process without work passes in one edge.
fn polled(words: &[u32], writes: &[Bank], reads: &[ReadBack], run: u64) -> Polled {
    let cost: Vec<u64> = words
        .iter()
        .map(|&w| WORD * w as u64 + HANDOFF)
        .chain(writes.iter().map(|b| WORD * b.words as u64 + HANDOFF))
        .collect();
    let mut left: Vec<u32> = words.iter().map(|_| 1).chain(writes.iter().map(|b| b.turns)).collect();
    let n = cost.len() as u64;
    let r = reads.len() as u64;
    // Rounds of argument writes, one turn of each writer with work a round.
    let mut turn = 0;
    loop {
        turn += POLL;
        for (c, l) in cost.iter().zip(left.iter_mut()) {
            if *l > 0 {
                turn += c;
                *l -= 1;
            } else {
                turn += 1;
            }
        }
        if left.iter().all(|&l| l == 0) {
            break;
        }
        turn += 1 + r;
    }
    if n > 0 {
        // The start process passes once, then a poll and every writer (idle now).
        turn += 1 + r + POLL + n;
    }
    let start_seen = turn + START_SEEN;
    let done = start_seen + run;
    turn += WORD + HANDOFF + r;
    // Polls from `turn` on, one per round of every process; the first that begins at or after
    // the edge where ap_done is high samples the done bit set.
    let round = POLL + n + 1 + r;
    let poll = turn + done.saturating_sub(turn).div_ceil(round) * round;
    if reads.is_empty() {
        return Polled { cycles: poll + DONE_SEEN - START_TAKEN, tail: 0 };
    }
    // The read-back: from the round of that poll, each reader one turn a round; the call ends
    // when the last read has returned (the testbench's done is ap_done and every output read).
    let mut left: Vec<u32> = reads.iter().map(|rb| rb.turn().1).collect();
    let mut at = poll + POLL + n + 1;
    loop {
        for (rb, l) in reads.iter().zip(left.iter_mut()) {
            if *l > 0 {
                at += rb.turn().0;
                *l -= 1;
            } else {
                at += 1;
            }
        }
        if left.iter().all(|&l| l == 0) {
            break;
        }
        at += POLL + n + 1;
    }
    Polled { cycles: at - START_TAKEN, tail: at - poll }
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
        let w = Window::AxiLitePolled { words: vec![1], writes: vec![], reads: vec![] };
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
        let w = Window::AxiLitePolled { words: vec![], writes: vec![], reads: vec![] };
        assert_eq!(w.cycles(3), 10 + 5);
        assert_eq!(w.cycles(4), 15 + 5);
    }

    /// Vitis 2023.2's testbench, traced edge by edge from its code on the public AES design
    /// (no argument register, schedule 53): poll 0-4, start written at 5 (ap_start seen at 8,
    /// ap_done at 61), polls every 5 + 1 edges from 11; the poll at 65 sees it, the call ends at
    /// 71, counted from 1: 70, as its co-sim says. The next call: the start flag is re-armed 8
    /// edges after that poll, so the start passes at 5, the poll at 6, the start writes at 11
    /// (ap_done at 67), polls from 17: 71 sees it, ends at 77, counted from 6: 71, as co-sim.
    #[test]
    fn the_2023_2_testbench_on_a_top_without_arguments() {
        let w = Window::for_top(Some("2023.2"), true, vec![]);
        assert_eq!(w, Window::AxiLitePolled2023 { words: vec![] });
        assert_eq!(w.cycles(53), 70);
        assert_eq!(w.cycles_after(Some(53), 53), 71);
        assert_eq!(w.cycles_after(None, 53), 70);
        // The poll quantum is 6 edges: the poll at 65 sees the runs of 52 to 57.
        assert_eq!(w.cycles(51), 64);
        assert_eq!(w.cycles(52), 70);
        assert_eq!(w.cycles(57), 70);
        assert_eq!(w.cycles(58), 76);
        // The ≤ 2022.2 model gave 65 for the same run (a round of 5, the start seen at 7).
        let old = Window::AxiLitePolled { words: vec![], writes: vec![], reads: vec![] };
        assert_eq!(old.cycles(53), 65);
    }

    /// With argument registers (read from 2023.2.1's testbench, not checked against a co-sim):
    /// one 32-bit argument, poll 0-4, the argument written 5-10 (its finish flag an edge after
    /// its write pulse, at 11: the start is armed from 13), the start passes at 11, poll 12-16,
    /// the argument idle at 17, the start written at 18 (ap_start seen at 21), polls every 7
    /// edges from 24.
    #[test]
    fn the_2023_2_testbench_writes_arguments_before_a_start_a_round_later() {
        let w = Window::for_top(Some("2024.1"), true, vec![1]);
        assert_eq!(w.cycles(3), 24 + 6 - 1, "done at 24: the poll at 24 sees it");
        assert_eq!(w.cycles(4), 31 + 6 - 1);
        // A later call: the done poll at 0 returns at 4, the argument and the start pass at 5
        // and 6 (the argument's flag is up from 9), poll 7-11, the argument writes 12-17 (finish
        // 18, the start armed from 20), the start passes at 18, poll 19-23, the argument idles
        // at 24, the start writes at 25 (ap_start seen at 28), polls every 7 from 31; counted
        // from 6.
        assert_eq!(w.cycles_after(Some(3), 3), 31 + 6 - 6);
        // Two 64-bit pointers (words 2, 2): 11 edges each.
        let w = Window::for_top(Some("2023.2"), true, vec![2, 2]);
        // Poll 0-4, arguments 5-15 and 16-26, start idle 27, poll 28-32, arguments idle 33-34,
        // start written at 35 (ap_start seen at 38), polls every 8 from 41.
        assert_eq!(w.cycles(3), 41 + 6 - 1);
        // Arrays on the bundle keep the ≤ 2022.2 model.
        let with_memory = w.clone().with_memories(vec![Bank::of(4, 32)], vec![]);
        assert!(matches!(with_memory, Window::AxiLitePolled { .. }));
    }

    #[test]
    fn banks_pack_narrow_elements_and_split_wide_ones() {
        assert_eq!(Bank::of(16, 8), Bank { words: 1, turns: 4 }, "four bytes a word");
        assert_eq!(Bank::of(16, 16), Bank { words: 1, turns: 8 }, "two shorts a word");
        assert_eq!(Bank::of(5, 32), Bank { words: 1, turns: 5 });
        assert_eq!(Bank::of(8, 64), Bank { words: 2, turns: 8 }, "a 64-bit element in two words a turn");
        assert_eq!(Bank::of(3, 8), Bank { words: 1, turns: 1 });
    }

    /// tests/cycle/23_axilite_arrays, worked out in its expected.json: a scalar `k`, two int
    /// memories and one of shorts written, two int memories read back; the schedule 32.
    #[test]
    fn memories_are_written_before_the_start_and_read_back_after_done() {
        let int8 = Bank::of(8, 32);
        let w = Window::for_top(Some("2022.2"), true, vec![1])
            .with_memories(vec![int8, int8, Bank::of(16, 16)], vec![ReadBack::Memory(int8), ReadBack::Memory(int8)]);
        assert_eq!(w.cycles(32), 445);
        assert_eq!(w.cycles_after(Some(32), 32), 625, "the previous call's read-back is counted too");
        assert_eq!(w.cycles_after(None, 32), 445);
        // The registers alone: poll 0-3, k 4-9, start idle 10, poll 11-14, k idle 15, start 16
        // (ap_start seen at 19, ap_done at 51), polls every 6 edges from 22: 52 sees it.
        let registers = Window::for_top(Some("2022.2"), true, vec![1]);
        assert_eq!(registers.cycles(32), 52 + 5);
        assert_eq!(registers.cycles_after(Some(32), 32), 57, "no read-back: each call as the first");
        // The handshake window has no bus: memories change nothing.
        let hs = Window::for_top(Some("2023.1"), true, vec![1]).with_memories(vec![int8], vec![]);
        assert_eq!(hs, Window::Handshake);
    }

    /// An output scalar on the bundle is read back with its valid register: two reads and the
    /// hand-over, 4 + 4 + 2 edges after the poll round that saw ap_done.
    #[test]
    fn an_output_scalar_is_read_back_after_done() {
        let w =
            Window::for_top(Some("2021.1"), true, vec![]).with_memories(vec![], vec![ReadBack::Scalar { words: 1 }]);
        // Poll 0-3, start written at 4 (ap_start seen at 7, its turn ends at 10), reader idle 10;
        // polls every 4 + 1 + 1 = 6 edges from 11. Run 3: ap_done at 10, the poll at 11 sees it;
        // the start idles at 15, the reader reads valid and data from 16: 16 + 10 = 26, counted
        // from edge 1.
        assert_eq!(w.cycles(3), 25);
    }

    #[test]
    fn the_version_and_the_protocol_choose_the_window() {
        assert_eq!(Window::for_top(Some("2023.1"), true, vec![1]), Window::Handshake);
        assert_eq!(Window::for_top(Some("2023.2"), true, vec![]), Window::AxiLitePolled2023 { words: vec![] });
        assert_eq!(Window::for_top(Some("2024.1"), true, vec![2]), Window::AxiLitePolled2023 { words: vec![2] });
        assert_eq!(
            Window::for_top(Some("2023.2.1"), true, vec![2, 2]),
            Window::AxiLitePolled2023 { words: vec![2, 2] }
        );
        assert_eq!(Window::for_top(Some("2023.2"), false, vec![]), Window::Handshake);
        assert_eq!(Window::for_top(Some("2022.2"), false, vec![1]), Window::Handshake);
        assert_eq!(Window::for_top(None, true, vec![1]), Window::Handshake);
        assert_eq!(
            Window::for_top(Some("v2019.2"), true, vec![]),
            Window::AxiLitePolled { words: vec![], writes: vec![], reads: vec![] }
        );
        assert_eq!(Window::Handshake.cycles(260), 260);
    }
}
