//! A waveform read as one sample per clock cycle: the values of the watched signals just before
//! each rising edge of the clock (what the registers see at that edge).
//!
//! VCD is streamed (the `vcd` crate): memory holds the header's signal table and the current
//! values of the watched signals, whatever the dump's length. FST is not read yet: convert it
//! with `fst2vcd` (GTKWave) or ask `cosim` for `--vcd`.

use super::rtl::Bits;
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use vcd::{Command, IdCode, ScopeItem, Value};

/// A scope of the waveform: its signals (name → code, width) and child scopes.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub name: String,
    pub vars: Vec<(String, IdCode, u32)>,
    pub children: Vec<Scope>,
}

impl Scope {
    pub fn var(&self, name: &str) -> Option<(IdCode, u32)> {
        self.vars.iter().find(|(n, ..)| n == name).map(|&(_, c, w)| (c, w))
    }
    pub fn child(&self, name: &str) -> Option<&Scope> {
        self.children.iter().find(|c| c.name == name)
    }
}

fn convert(items: &[ScopeItem], into: &mut Scope) {
    for item in items {
        match item {
            ScopeItem::Var(v) => into.vars.push((v.reference.clone(), v.code, v.size)),
            ScopeItem::Scope(s) => {
                let mut c = Scope { name: s.identifier.clone(), ..Scope::default() };
                convert(&s.items, &mut c);
                into.children.push(c);
            }
            _ => {}
        }
    }
}

/// A signal's value at a sample: `None` when any bit is x or z.
pub type Sample = Option<Bits>;

/// A VCD file read cycle by cycle.
pub struct VcdWave<R: BufRead> {
    path: PathBuf,
    parser: vcd::Parser<R>,
    /// The header's scopes under a nameless root.
    pub root: Scope,
    clock: Option<IdCode>,
    clock_now: Value,
    /// Watched code → slots.
    slots_of: HashMap<IdCode, Vec<usize>>,
    values: Vec<Sample>,
    /// Changes of the current timestamp, applied after its edge is sampled.
    pending: Vec<(usize, Sample)>,
    clock_next: Value,
    apply_pending: bool,
    done: bool,
    /// Rising edges seen so far.
    pub edges: u64,
}

impl VcdWave<std::io::BufReader<std::fs::File>> {
    /// Opens a VCD file and reads its header.
    pub fn open(path: &Path) -> Result<Self> {
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        VcdWave::new(std::io::BufReader::with_capacity(1 << 16, f), path)
    }
}

impl<R: BufRead> VcdWave<R> {
    pub fn new(reader: R, path: &Path) -> Result<Self> {
        let mut parser = vcd::Parser::new(reader);
        let header = parser.parse_header().map_err(|e| {
            Error::new(
                ErrorKind::BadInput,
                format!("not a VCD waveform ({e}); give the .vcd the simulator wrote (`--vcd` of cosim, $dumpvars)"),
            )
            .at(path)
        })?;
        let mut root = Scope::default();
        convert(&header.items, &mut root);
        Ok(VcdWave {
            path: path.to_path_buf(),
            parser,
            root,
            clock: None,
            clock_now: Value::X,
            slots_of: HashMap::new(),
            values: Vec::new(),
            pending: Vec::new(),
            clock_next: Value::X,
            apply_pending: false,
            done: false,
            edges: 0,
        })
    }

    /// Samples are taken at this signal's rising edges.
    pub fn set_clock(&mut self, code: IdCode) {
        self.clock = Some(code);
    }

    /// Watches a signal; its value is `self.value(slot)` at each sample.
    pub fn watch(&mut self, code: IdCode) -> usize {
        self.values.push(None);
        self.slots_of.entry(code).or_default().push(self.values.len() - 1);
        self.values.len() - 1
    }

    /// The value of a watched signal at the current sample.
    pub fn value(&self, slot: usize) -> Option<&Bits> {
        self.values[slot].as_ref()
    }

    /// Advances to the next rising edge; `false` at the end of the file.
    pub fn next_cycle(&mut self) -> Result<bool> {
        if self.apply_pending {
            self.apply();
        }
        while !self.done {
            let cmd = match self.parser.next() {
                None => {
                    self.done = true;
                    return Ok(self.end_block());
                }
                Some(c) => c.map_err(|e| {
                    Error::new(ErrorKind::BadInput, format!("VCD body near line {}: {e}", self.parser.line()))
                        .at(&self.path)
                })?,
            };
            match cmd {
                Command::Timestamp(_) => {
                    if self.end_block() {
                        return Ok(true);
                    }
                    self.apply();
                }
                Command::ChangeScalar(code, v) => self.change(code, std::slice::from_ref(&v)),
                Command::ChangeVector(code, v) => {
                    let bits: Vec<Value> = v.iter().collect();
                    self.change(code, &bits)
                }
                _ => {}
            }
        }
        Ok(false)
    }

    /// The timestamp's changes are complete: was it a rising edge? (The sample is the values
    /// before its changes, still in `values`.)
    fn end_block(&mut self) -> bool {
        let rising = self.clock_now == Value::V0 && self.clock_next == Value::V1;
        if rising {
            self.edges += 1;
            self.apply_pending = true;
        }
        rising
    }

    fn apply(&mut self) {
        for (slot, v) in self.pending.drain(..) {
            self.values[slot] = v;
        }
        self.clock_now = self.clock_next;
        self.apply_pending = false;
    }

    fn change(&mut self, code: IdCode, msb_first: &[Value]) {
        if Some(code) == self.clock {
            self.clock_next = msb_first.last().copied().unwrap_or(Value::X);
        }
        if let Some(slots) = self.slots_of.get(&code) {
            let v = to_bits(msb_first);
            for &s in slots {
                self.pending.push((s, v.clone()));
            }
        }
    }
}

/// VCD vectors are written most significant bit first and may be shorter than the signal
/// (left-extended with 0, or with x/z when the first digit is one).
fn to_bits(msb_first: &[Value]) -> Sample {
    let mut limbs = vec![0u64; msb_first.len().div_ceil(64).max(1)];
    for (i, v) in msb_first.iter().rev().enumerate() {
        match v {
            Value::V0 => {}
            Value::V1 => limbs[i / 64] |= 1 << (i % 64),
            _ => return None,
        }
    }
    Some(Bits(limbs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_values_before_each_rising_edge() {
        let vcd = "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! clk $end\n$var reg 3 \" st [2:0] $end\n\
            $upscope $end\n$enddefinitions $end\n#0\n$dumpvars\n0!\nb1 \"\n$end\n#5\n1!\nb10 \"\n#10\n0!\n#15\n1!\nb100 \"\n\
            #20\n0!\nbx \"\n#25\n1!\n";
        let mut w = VcdWave::new(vcd.as_bytes(), Path::new("t.vcd")).unwrap();
        let tb = w.root.child("tb").unwrap().clone();
        w.set_clock(tb.var("clk").unwrap().0);
        let s = w.watch(tb.var("st").unwrap().0);
        let mut seen = Vec::new();
        while w.next_cycle().unwrap() {
            seen.push(w.value(s).and_then(|b| b.as_u64()));
        }
        assert_eq!(seen, [Some(1), Some(2), None]);
    }
}
