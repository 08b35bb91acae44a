//! A waveform read as one sample per clock cycle: the values of the watched signals just before
//! each rising edge of the clock (what the registers see at that edge).
//!
//! VCD and FST are both streamed, told apart by their first byte (an FST starts with its binary
//! header block, a VCD with text): memory holds the signal table and the current values of the
//! watched signals, whatever the dump's length. VCD is read with the `vcd` crate; FST with
//! `fst-reader` ([`super::fst`]), asked for the watched signals only.

use super::rtl::Bits;
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};
use vcd::{Command, IdCode, ScopeItem, Value};

/// A signal of the waveform, the same for all its aliases (a VCD code, an FST handle).
pub type SigId = u32;

/// A scope of the waveform: its signals (name → id, width) and child scopes.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub name: String,
    pub vars: Vec<(String, SigId, u32)>,
    pub children: Vec<Scope>,
}

impl Scope {
    pub fn var(&self, name: &str) -> Option<(SigId, u32)> {
        self.vars.iter().find(|(n, ..)| n == name).map(|&(_, c, w)| (c, w))
    }
    pub fn child(&self, name: &str) -> Option<&Scope> {
        self.children.iter().find(|c| c.name == name)
    }
}

fn convert(items: &[ScopeItem], into: &mut Scope, ids: &mut HashMap<IdCode, SigId>) {
    for item in items {
        match item {
            ScopeItem::Var(v) => {
                let n = ids.len() as SigId;
                let id = *ids.entry(v.code).or_insert(n);
                into.vars.push((v.reference.clone(), id, v.size))
            }
            ScopeItem::Scope(s) => {
                let mut c = Scope { name: s.identifier.clone(), ..Scope::default() };
                convert(&s.items, &mut c, ids);
                into.children.push(c);
            }
            _ => {}
        }
    }
}

/// A signal's value at a sample: `None` when any bit is x or z.
pub type Sample = Option<Bits>;

/// A waveform file read cycle by cycle.
pub struct Wave {
    path: PathBuf,
    source: Source,
    /// The header's scopes under a nameless root.
    pub root: Scope,
    clock: Option<SigId>,
    clock_now: Value,
    /// Watched id → slots.
    slots_of: HashMap<SigId, Vec<usize>>,
    values: Vec<Sample>,
    /// Changes of the current timestamp, applied after its edge is sampled.
    pending: Vec<(usize, Sample)>,
    clock_next: Value,
    apply_pending: bool,
    done: bool,
    /// Rising edges seen so far.
    pub edges: u64,
}

enum Source {
    Vcd { parser: vcd::Parser<Box<dyn BufRead>>, ids: HashMap<IdCode, SigId> },
    Fst(super::fst::FstStream),
}

/// What a source yields, in file order.
pub(super) enum Event {
    /// A new timestamp begins.
    Time,
    /// A signal's new value, most significant bit first.
    Change(SigId, Vec<Value>),
}

impl Wave {
    /// Opens a VCD or FST file (told apart by content, not by name) and reads its header.
    pub fn open(path: &Path) -> Result<Self> {
        let mut f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        let mut first = [0u8; 1];
        let n = f.read(&mut first).map_err(|e| Error::io(path, &e))?;
        // An FST begins with its header block (type 0) or a gzip wrapper block (254); a VCD is text.
        if n == 1 && (first[0] == 0 || first[0] == 254) {
            drop(f);
            let (root, stream) = super::fst::FstStream::open(path)?;
            return Ok(Wave::with_source(path, Source::Fst(stream), root));
        }
        let f = std::fs::File::open(path).map_err(|e| Error::io(path, &e))?;
        Wave::from_vcd(std::io::BufReader::with_capacity(1 << 16, f), path)
    }

    /// A VCD read from `reader`.
    pub fn from_vcd(reader: impl BufRead + 'static, path: &Path) -> Result<Self> {
        let mut parser = vcd::Parser::new(Box::new(reader) as Box<dyn BufRead>);
        let header = parser.parse_header().map_err(|e| {
            Error::new(
                ErrorKind::BadInput,
                format!(
                    "not a VCD waveform ({e}) nor an FST; give the .vcd or .fst the simulator wrote \
                     (`--vcd`/`--fst` of cosim, $dumpvars)"
                ),
            )
            .at(path)
        })?;
        let mut root = Scope::default();
        let mut ids = HashMap::new();
        convert(&header.items, &mut root, &mut ids);
        Ok(Wave::with_source(path, Source::Vcd { parser, ids }, root))
    }

    fn with_source(path: &Path, source: Source, root: Scope) -> Self {
        Wave {
            path: path.to_path_buf(),
            source,
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
        }
    }

    /// Samples are taken at this signal's rising edges.
    pub fn set_clock(&mut self, id: SigId) {
        self.clock = Some(id);
    }

    /// Watches a signal; its value is `self.value(slot)` at each sample.
    pub fn watch(&mut self, id: SigId) -> usize {
        self.values.push(None);
        self.slots_of.entry(id).or_default().push(self.values.len() - 1);
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
            match self.next_event()? {
                None => {
                    self.done = true;
                    return Ok(self.end_block());
                }
                Some(Event::Time) => {
                    if self.end_block() {
                        return Ok(true);
                    }
                    self.apply();
                }
                Some(Event::Change(id, bits)) => self.change(id, &bits),
            }
        }
        Ok(false)
    }

    fn next_event(&mut self) -> Result<Option<Event>> {
        match &mut self.source {
            Source::Vcd { parser, ids } => loop {
                let cmd = match parser.next() {
                    None => return Ok(None),
                    Some(c) => c.map_err(|e| {
                        Error::new(ErrorKind::BadInput, format!("VCD body near line {}: {e}", parser.line()))
                            .at(&self.path)
                    })?,
                };
                match cmd {
                    Command::Timestamp(_) => return Ok(Some(Event::Time)),
                    Command::ChangeScalar(code, v) => {
                        if let Some(&id) = ids.get(&code) {
                            return Ok(Some(Event::Change(id, vec![v])));
                        }
                    }
                    Command::ChangeVector(code, v) => {
                        if let Some(&id) = ids.get(&code) {
                            return Ok(Some(Event::Change(id, v.iter().collect())));
                        }
                    }
                    _ => {}
                }
            },
            Source::Fst(s) => {
                if !s.started() {
                    let mut ids: Vec<SigId> = self.slots_of.keys().copied().chain(self.clock).collect();
                    ids.sort_unstable();
                    ids.dedup();
                    s.start(ids);
                }
                s.next_event()
            }
        }
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

    fn change(&mut self, id: SigId, msb_first: &[Value]) {
        if Some(id) == self.clock {
            self.clock_next = msb_first.last().copied().unwrap_or(Value::X);
        }
        if let Some(slots) = self.slots_of.get(&id) {
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
        let mut w = Wave::from_vcd(vcd.as_bytes(), Path::new("t.vcd")).unwrap();
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
