//! Vivado HLS 2018–2019's s_axilite co-sim testbench, turn by turn.
//!
//! Read from the testbench Vivado HLS 2019.2 writes (`AESL_axi_slave_<bundle>.v` and the autotb
//! of two public designs) and checked against a transcription of its control logic around a
//! stub kernel in Icarus Verilog: 220 random bundles (0–3 inputs of 1–3 elements and 1–2 words,
//! 0–3 outputs of each kind, runs of 1–60 cycles, three calls each) come out edge for edge, as
//! do the two designs' co-sim figures (`cordic`: 85, then 89; `matrixmul`: 299087) and a 2018.3
//! design's (`doGain`: 1030).
//!
//! The processes take turns in a ring: the status poll, one process per input (a scalar
//! argument, an m_axi offset, a bank of an input array), the start, one per output. A process
//! hands over when its turn is done; one without work passes in an edge. Unlike Vitis'
//! later testbench, an output scalar's process polls its valid register on every turn from the
//! start write on, so while the kernel runs the ring is longer by its reads.
//!
//! Edges below count from the first poll's turn (edge 0); a call's count starts one edge after
//! it (the first call) or six edges after the poll that saw the previous call's ap_done (the
//! testbench's ready), and ends six edges after the poll that sees this call's ap_done or when
//! the last output has been read, whichever is later.

use super::Bank;
use serde::Serialize;

/// What the testbench reads of one output on the bundle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "of", rename_all = "snake_case")]
pub enum Output {
    /// An output scalar (a written pointer or reference argument): its valid register read on
    /// every turn from the start write on, its data words once it is set.
    Valid { words: u32 },
    /// The return value's register, read once the status poll has seen ap_done.
    Return { words: u32 },
    /// A bank of an output array, one element a turn once the poll has seen ap_done (the
    /// adapter reads its RAM an edge before it answers).
    Memory(Bank),
}

impl Output {
    fn turns(&self) -> u32 {
        match self {
            Output::Memory(b) => b.turns,
            _ => 1,
        }
    }
}

/// A status poll: the read returns and the next process starts five edges on. It sees ap_done
/// when ap_done rose at or before the edge its turn began.
const POLL: u64 = 5;
/// One 32-bit register write (AW, W, B, return), and two edges of hand-over after the last.
const WORD: u64 = 4;
const HANDOFF: u64 = 2;
/// The start write: the kernel sees ap_start three edges into the turn.
const START: u64 = WORD + HANDOFF;
const START_SEEN: u64 = 3;
/// One register read; a read of a memory waits an edge more for the RAM.
const READ: u64 = 4;
const RAM_READ: u64 = 1;
/// A valid register read that finds nothing: the read and one edge of hand-over.
const NOT_VALID: u64 = READ + 1;
/// From the poll that saw ap_done to the testbench's done (and to the next call's start).
const DONE_SEEN: u64 = 6;
/// When the flags rise, from the edges of the previous call: inputs 3 edges after its done
/// (the done is delayed a cycle, the ready pulse a cycle more), the start (without inputs) 2;
/// with inputs, the start an edge after the last input's finish. The first call: inputs from
/// edge 2 (the testbench's initial ready), the start without inputs from edge 0.
const INPUTS_AFTER_DONE: u64 = 3;
const START_AFTER_DONE: u64 = 2;
const FIRST_INPUTS: u64 = 2;
/// An output scalar's process polls from the edge the start write finishes; the outputs read
/// after done start from the testbench's ready pulse.
const VALID_POLLS_FROM: u64 = 5;

/// The counts of consecutive calls whose ap_start..ap_done take `runs` cycles each.
pub(super) fn counts(inputs: &[Bank], outputs: &[Output], runs: &[u64]) -> Vec<u64> {
    // A process with nothing to move never runs (an empty array).
    let inputs: Vec<Bank> = inputs.iter().copied().filter(|b| b.turns > 0).collect();
    let outputs: Vec<Output> = outputs.iter().copied().filter(|o| o.turns() > 0).collect();
    let (n, m) = (inputs.len(), outputs.len());
    let ring = n + m + 2;
    let mut counts = Vec::with_capacity(runs.len());
    let Some(&first) = runs.first() else { return counts };
    let mut call = Call::new(&inputs, &outputs, first, vec![FIRST_INPUTS; n], (n == 0).then_some(0));
    let mut counted_from = 1;
    let (mut t, mut k) = (0u64, 0usize);
    loop {
        if k == 0 {
            call.skip_idle_rounds(&mut t, &inputs, &outputs);
            if call.seen.is_none() && call.done.is_some_and(|d| d <= t) {
                call.seen = Some(t);
                for (o, flag) in outputs.iter().zip(call.out_flag.iter_mut()) {
                    if !matches!(o, Output::Valid { .. }) {
                        *flag = Some(t + DONE_SEEN);
                    }
                }
            }
            t += POLL;
        } else if k <= n {
            let j = k - 1;
            if call.in_left[j] > 0 && t >= call.in_flag[j] {
                t += WORD * inputs[j].words as u64 + HANDOFF;
                call.in_left[j] -= 1;
                if call.in_left[j] == 0 {
                    call.in_finished[j] = Some(t);
                    if call.in_finished.iter().all(Option::is_some) {
                        let armed = call.in_finished.iter().flatten().max().map_or(t, |&f| f) + 1;
                        call.start_flag = Some(call.start_flag.map_or(armed, |s| s.max(armed)));
                    }
                }
            } else {
                t += 1;
            }
        } else if k == n + 1 {
            if call.done.is_none() && call.start_flag.is_some_and(|s| t >= s) {
                // No run is near 2^50 cycles; the cap keeps the edges far from overflowing.
                call.done = Some(t + START_SEEN + call.run.min(1 << 50));
                for (o, flag) in outputs.iter().zip(call.out_flag.iter_mut()) {
                    if matches!(o, Output::Valid { .. }) {
                        *flag = Some(t + VALID_POLLS_FROM);
                    }
                }
                t += START;
            } else {
                t += 1;
            }
        } else {
            let i = k - n - 2;
            if call.out_left[i] > 0 && call.out_flag[i].is_some_and(|f| t >= f) {
                match outputs[i] {
                    Output::Valid { words } if call.done.is_some_and(|d| d <= t) => {
                        t += NOT_VALID + READ * words as u64 + 1;
                        call.out_left[i] = 0;
                    }
                    Output::Valid { .. } => t += NOT_VALID,
                    Output::Return { words } => {
                        t += READ * words as u64 + HANDOFF;
                        call.out_left[i] = 0;
                    }
                    Output::Memory(b) => {
                        t += (READ + RAM_READ) * b.words as u64 + HANDOFF;
                        call.out_left[i] -= 1;
                    }
                }
                if call.out_left[i] == 0 {
                    call.out_finished = call.out_finished.max(t);
                }
            } else {
                t += 1;
            }
        }
        k = (k + 1) % ring;
        let Some(seen) = call.seen else { continue };
        if call.out_left.iter().any(|&l| l > 0) {
            continue;
        }
        let end = (seen + DONE_SEEN).max(call.out_finished);
        counts.push(end - counted_from);
        let Some(&run) = runs.get(counts.len()) else { return counts };
        counted_from = seen + DONE_SEEN;
        let start_flag = (n == 0).then_some(end + START_AFTER_DONE);
        call = Call::new(&inputs, &outputs, run, vec![end + INPUTS_AFTER_DONE; n], start_flag);
    }
}

/// The state of one call's turns.
struct Call {
    run: u64,
    /// Edge from which each input's process has work, and its elements left.
    in_flag: Vec<u64>,
    in_left: Vec<u32>,
    in_finished: Vec<Option<u64>>,
    start_flag: Option<u64>,
    /// The edge ap_done rises, once the start is written, and the poll that saw it.
    done: Option<u64>,
    seen: Option<u64>,
    out_flag: Vec<Option<u64>>,
    out_left: Vec<u32>,
    out_finished: u64,
}

impl Call {
    fn new(inputs: &[Bank], outputs: &[Output], run: u64, in_flag: Vec<u64>, start_flag: Option<u64>) -> Call {
        Call {
            run,
            in_flag,
            in_left: inputs.iter().map(|b| b.turns).collect(),
            in_finished: vec![None; inputs.len()],
            start_flag,
            done: None,
            seen: None,
            out_flag: vec![None; outputs.len()],
            out_left: outputs.iter().map(Output::turns).collect(),
            out_finished: 0,
        }
    }

    /// While the kernel runs, every round is alike: the poll, idle inputs and start, and each
    /// output scalar's valid read. Whole rounds that end before ap_done rises change nothing
    /// but the edge: skip them (a long run is then a few turns, not one per round).
    fn skip_idle_rounds(&self, t: &mut u64, inputs: &[Bank], outputs: &[Output]) {
        let Some(done) = self.done else { return };
        if self.seen.is_some() || self.in_left.iter().any(|&l| l > 0) {
            return;
        }
        let steady = outputs.iter().zip(&self.out_flag).all(|(o, f)| match o {
            Output::Valid { .. } => f.is_some_and(|f| f <= *t),
            _ => f.is_none(),
        });
        if !steady {
            return;
        }
        let round = POLL
            + inputs.len() as u64
            + 1
            + outputs.iter().map(|o| if matches!(o, Output::Valid { .. }) { NOT_VALID } else { 1 }).sum::<u64>();
        if done > *t {
            *t += (done - *t) / round * round;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar() -> Bank {
        Bank { words: 1, turns: 1 }
    }

    /// schuang23/MSOC `cordic`, solution `Improved` (Vivado HLS 2019.2): one input scalar, two
    /// output scalars with valid registers, a schedule of 34; its co-sim: 85, then 89 every call.
    /// Poll 0-4, the input written 5-10, the start passes (its flag rises at 12 from the input's
    /// finish at 11), the outputs pass, poll 14-18, the input passes, the start written 20-25
    /// (ap_start seen at 23, ap_done at 57); each output reads a clear valid (5 edges) a round,
    /// the poll at 53 misses ap_done, both outputs read valid and data from 60 (10 edges each),
    /// the poll at 80 sees it: the call ends at 86, counted from 1.
    #[test]
    fn a_public_2019_2_design_with_output_scalars() {
        let outs = [Output::Valid { words: 1 }, Output::Valid { words: 1 }];
        assert_eq!(counts(&[scalar()], &outs, &[34, 34, 34]), vec![85, 89, 89]);
    }

    /// schuang23/MSOC `matrixmul` (Vivado HLS 2019.2): two 1024-word input arrays and one output
    /// array on the bundle, a schedule of 264257; its co-sim: 299087.
    #[test]
    fn a_public_2019_2_design_with_arrays_on_the_bundle() {
        let bank = Bank::of(1024, 32);
        assert_eq!(counts(&[bank, bank], &[Output::Memory(bank)], &[264257]), vec![299087]);
    }

    /// smosanu/axi_stream_tutorial `doGain` (Vivado HLS 2018.3): one input scalar, AXI streams,
    /// a schedule of 1003; its co-sim: 1030.
    #[test]
    fn a_public_2018_3_design_with_one_argument() {
        assert_eq!(counts(&[scalar()], &[], &[1003]), vec![1030]);
    }

    /// Cases of the Icarus transcription (see the module's comment), each three calls.
    #[test]
    fn the_transcription_of_the_testbench() {
        let two = Bank { words: 2, turns: 1 };
        let mem = |turns| Output::Memory(Bank { words: 1, turns });
        let ret = Output::Return { words: 1 };
        let valid = Output::Valid { words: 1 };
        assert_eq!(counts(&[], &[], &[5, 5]), vec![22, 23]);
        // A later call counts the previous one's read-back: its count starts at the ready.
        assert_eq!(counts(&[Bank { words: 1, turns: 3 }], &[mem(2)], &[5, 5]), vec![87, 110]);
        assert_eq!(counts(&[scalar(), scalar()], &[ret], &[28, 28, 28]), vec![73, 82, 82]);
        assert_eq!(counts(&[scalar(), two], &[valid, mem(3)], &[17, 17, 17]), vec![109, 152, 152]);
        assert_eq!(counts(&[scalar()], &[valid, ret], &[34, 34, 34]), vec![80, 98, 98]);
    }

    /// A long run is skipped over in whole rounds, to the same edge as the transcription walks
    /// to (100003 cycles of schedule: 100050, then 100068).
    #[test]
    fn long_runs_are_skipped_in_whole_rounds() {
        let outs = [Output::Valid { words: 1 }, Output::Return { words: 1 }];
        assert_eq!(counts(&[scalar()], &outs, &[100_003, 100_003]), vec![100_050, 100_068]);
        let long = counts(&[scalar()], &outs, &[1 << 40])[0];
        assert!((1 << 40) < long && long < (1 << 40) + 100);
        // A run past any real one is capped, not overflowed.
        assert!(counts(&[scalar()], &outs, &[u64::MAX])[0] > 1 << 50);
    }
}
