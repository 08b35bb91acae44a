//! The C-simulation event log (hls-lib `event_log.h`, format `# hlsinstr events v1`) read back.
//!
//! One record per line: `order probe event thread seq timestamp_ns value`, `-` for an absent
//! field. Events: `B`/`E` (module or loop begin/end; a loop's `E` carries its trip count), `R`/`W`
//! (bytes read/written over an m_axi port during the invocation that just ended), `D` (a thread
//! found blocked by the deadlock watchdog). A corrupt line is an error naming the line, never a
//! guess.

use crate::error::{Error, ErrorKind, Result};
use std::path::Path;

pub const HEADER: &str = "# hlsinstr events v1";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    Begin,
    End,
    BytesRead,
    BytesWritten,
    Deadlock,
}

impl Event {
    fn from_letter(c: &str) -> Option<Event> {
        Some(match c {
            "B" => Event::Begin,
            "E" => Event::End,
            "R" => Event::BytesRead,
            "W" => Event::BytesWritten,
            "D" => Event::Deadlock,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Global order of the record (one atomic counter across threads).
    pub order: u64,
    pub probe: u32,
    pub event: Event,
    pub thread: u32,
    pub seq: Option<u64>,
    pub timestamp_ns: Option<u64>,
    pub value: Option<u64>,
}

/// Reads a log file. The error says which line is wrong and what was expected.
pub fn read(path: &Path) -> Result<Vec<Record>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read the event log: {e} (did the testbench exit before `main` returned?)"),
        )
        .at(path)
    })?;
    parse(&text).map_err(|e| e.at(path))
}

/// Parses a whole log; records come back sorted by `order`.
pub fn parse(text: &str) -> Result<Vec<Record>> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == HEADER => {}
        Some((_, first)) if first.starts_with("# hlsinstr events") => {
            return Err(bad(
                1,
                format!("unsupported event log version `{}`: this hlsinstr reads `{HEADER}`", first.trim()),
            ));
        }
        _ => return Err(bad(1, format!("not an hlsinstr event log: the first line must be `{HEADER}`"))),
    }
    let mut out = Vec::new();
    for (i, line) in lines {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_record(line).map_err(|msg| bad(i + 1, msg))?);
    }
    out.sort_by_key(|r| r.order);
    if let Some(w) = out.windows(2).find(|w| w[0].order == w[1].order) {
        return Err(Error::new(
            ErrorKind::BadInput,
            format!("two records share order {}: the log is corrupt", w[0].order),
        ));
    }
    Ok(out)
}

fn parse_record(line: &str) -> std::result::Result<Record, String> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    if fields.len() != 7 {
        return Err(format!(
            "expected 7 fields `order probe event thread seq timestamp_ns value`, found {}",
            fields.len()
        ));
    }
    let num = |name: &str, s: &str| s.parse::<u64>().map_err(|_| format!("{name} `{s}` is not a number"));
    let opt = |name: &str, s: &str| if s == "-" { Ok(None) } else { num(name, s).map(Some) };
    let probe =
        u32::try_from(num("probe", fields[1])?).map_err(|_| format!("probe `{}` is out of range", fields[1]))?;
    let thread =
        u32::try_from(num("thread", fields[3])?).map_err(|_| format!("thread `{}` is out of range", fields[3]))?;
    Ok(Record {
        order: num("order", fields[0])?,
        probe,
        event: Event::from_letter(fields[2])
            .ok_or_else(|| format!("unknown event `{}` (B, E, R, W or D)", fields[2]))?,
        thread,
        seq: opt("seq", fields[4])?,
        timestamp_ns: opt("timestamp", fields[5])?,
        value: opt("value", fields[6])?,
    })
}

fn bad(line: usize, msg: String) -> Error {
    Error::new(ErrorKind::BadInput, msg).at_line(line, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_event_kind_sorted_by_order() {
        let log = "# hlsinstr events v1\n# order probe event thread seq timestamp_ns value\n\
                   2 1 E 0 - - 64\n0 0 B 0 - - -\n1 1 B 0 - - -\n3 5 R 0 - - 256\n4 5 W 0 - - 4\n5 0 E 0 7 900 -\n6 2 D 1 - - -\n";
        let r = parse(log).unwrap();
        assert_eq!(r.iter().map(|r| r.order).collect::<Vec<_>>(), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(r[2].value, Some(64));
        assert_eq!(r[3].event, Event::BytesRead);
        assert_eq!(r[5].seq, Some(7));
        assert_eq!(r[5].timestamp_ns, Some(900));
        assert_eq!(r[6].event, Event::Deadlock);
        assert_eq!(r[6].thread, 1);
    }

    #[test]
    fn corrupt_logs_name_the_line() {
        let e = parse("").unwrap_err();
        assert!(e.message.contains("first line"), "{e}");
        let e = parse("# hlsinstr events v9\n").unwrap_err();
        assert!(e.message.contains("unsupported"), "{e}");
        let e = parse("# hlsinstr events v1\n0 0 B 0 - -\n").unwrap_err();
        assert_eq!(e.line_col, Some((2, 1)));
        let e = parse("# hlsinstr events v1\n0 0 Q 0 - - -\n").unwrap_err();
        assert!(e.message.contains("unknown event"), "{e}");
        let e = parse("# hlsinstr events v1\n0 x B 0 - - -\n").unwrap_err();
        assert!(e.message.contains("probe `x`"), "{e}");
        let e = parse("# hlsinstr events v1\n0 0 B 0 - - -\n0 0 E 0 - - -\n").unwrap_err();
        assert!(e.message.contains("share order"), "{e}");
        for junk in
            ["\u{0}\u{1}", "# hlsinstr events v1\n\u{ff}", "# hlsinstr events v1\n99999999999999999999 0 B 0 - - -"]
        {
            assert!(parse(junk).is_err());
        }
    }
}
