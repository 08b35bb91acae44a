//! The fixed-width text tables of the HLS text reports (`csynth.rpt`, `<module>_csynth.rpt`,
//! `<top>_cosim.rpt`):
//!
//! ```text
//! +---------+---------+-----+
//! |  Latency (cycles) | Pipe|      header rows: a cell may span several columns
//! |   min   |   max   | Type|      the last header row has one cell per column
//! +---------+---------+-----+
//! |      260|      260|   no|      data rows, split at `|`
//! +---------+---------+-----+
//! ```
//!
//! Column labels join the header texts above each column (`Latency (cycles) min`), so callers
//! find columns by what they say, not by position: versions add and reorder columns.

/// A table: labelled columns and the data rows as written.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// One label per column: the header rows' texts above it, joined by spaces.
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
    /// Index of the first line after the table.
    pub end: usize,
    /// The table stops without its closing border: the file was cut short.
    pub unclosed: bool,
}

/// A data row: its cells between `|` (untrimmed: the tree tables indent names).
#[derive(Debug, Clone)]
pub(crate) struct Row {
    /// 1-based line number in the file.
    pub line: usize,
    pub cells: Vec<String>,
}

impl Table {
    /// The first column whose lowercased label satisfies `pred`.
    pub fn col(&self, pred: impl Fn(&str) -> bool) -> Option<usize> {
        self.columns.iter().position(|c| pred(&c.to_ascii_lowercase()))
    }
}

impl Row {
    /// The trimmed text of cell `i` (empty when the row is short).
    pub fn cell(&self, i: Option<usize>) -> &str {
        i.and_then(|i| self.cells.get(i)).map_or("", |c| c.trim())
    }
}

/// `+----+---+` (any indentation).
pub(crate) fn is_border(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 2 && t.starts_with('+') && t.bytes().all(|b| b == b'+' || b == b'-')
}

/// The table whose top border is `lines[start]`; `None` when that line is not a border or no
/// header row follows.
pub(crate) fn read_table(lines: &[&str], start: usize) -> Option<Table> {
    if !lines.get(start).is_some_and(|l| is_border(l)) {
        return None;
    }
    let mut i = start + 1;
    let mut header: Vec<&str> = Vec::new();
    while let Some(line) = lines.get(i) {
        let t = line.trim_start();
        if is_border(line) {
            break;
        }
        if !(t.starts_with('|') || t.starts_with('+')) {
            return None;
        }
        header.push(line);
        i += 1;
    }
    if header.is_empty() || i >= lines.len() {
        return None;
    }
    i += 1;
    let mut rows = Vec::new();
    let mut last_border = true;
    while let Some(line) = lines.get(i) {
        if is_border(line) {
            last_border = true;
        } else if line.trim_start().starts_with('|') {
            last_border = false;
            rows.push(Row { line: i + 1, cells: split_row(line) });
        } else {
            break;
        }
        i += 1;
    }
    Some(Table { columns: labels(&header), rows, end: i, unclosed: !last_border })
}

/// The first table after `lines[from]`, before `limit`: blank lines and notes (`PS: ...`) are
/// skipped; a heading (`* X:`, `+ X:`, `== X`) or `N/A` first means there is none.
pub(crate) fn table_after(lines: &[&str], from: usize, limit: usize) -> Option<Table> {
    let limit = limit.min(lines.len());
    for i in from + 1..limit {
        let t = lines[i].trim();
        if is_border(t) {
            return read_table(lines, i);
        }
        if t.starts_with("* ") || t.starts_with("+ ") || t.starts_with("==") || t.eq_ignore_ascii_case("N/A") {
            return None;
        }
    }
    None
}

fn split_row(line: &str) -> Vec<String> {
    let t = line.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    t.split('|').map(str::to_string).collect()
}

/// Column labels from the header rows: the columns are the cells of the last row; each label
/// joins, top to bottom, the text of the cell covering the column's first character.
fn labels(header: &[&str]) -> Vec<String> {
    let rows: Vec<Vec<char>> = header.iter().map(|l| l.chars().collect()).collect();
    let Some(last) = rows.last() else { return Vec::new() };
    let seps: Vec<usize> = last.iter().enumerate().filter(|(_, c)| is_sep(**c)).map(|(i, _)| i).collect();
    let mut out = Vec::new();
    for w in seps.windows(2) {
        let at = w[0] + 1;
        let mut parts: Vec<String> = Vec::new();
        for row in &rows {
            let text = covering_cell(row, at);
            if !text.is_empty() && !text.bytes().all(|b| b == b'-') {
                parts.push(text);
            }
        }
        out.push(parts.join(" "));
    }
    out
}

fn is_sep(c: char) -> bool {
    c == '|' || c == '+'
}

/// The trimmed text between the separators around position `at` of `row`.
fn covering_cell(row: &[char], at: usize) -> String {
    if at >= row.len() {
        return String::new();
    }
    let start = row[..at].iter().rposition(|c| is_sep(*c)).map_or(0, |p| p + 1);
    let end = row[at..].iter().position(|c| is_sep(*c)).map_or(row.len(), |p| at + p);
    row[start..end].iter().collect::<String>().trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spanning_header_cells_label_each_column() {
        let text = "  +-----+-----+----+\n  | Latency   |Pipe|\n  | min | max |Type|\n  +-----+-----+----+\n  |    1|    2|  no|\n  +-----+-----+----+\nafter";
        let lines: Vec<&str> = text.lines().collect();
        let t = read_table(&lines, 0).unwrap();
        assert_eq!(t.columns, ["Latency min", "Latency max", "Pipe Type"]);
        assert_eq!(t.rows.len(), 1);
        assert_eq!((t.rows[0].line, t.rows[0].cell(Some(1))), (5, "2"));
        assert_eq!((t.end, t.unclosed), (6, false));
        assert_eq!(t.col(|c| c.contains("type")), Some(2));
    }

    #[test]
    fn header_rows_with_text_in_borders_and_cut_tables() {
        // The co-simulation report writes labels into its middle header border.
        let text = "+---+---+\n|   | L |\n+ R +---+\n|   |min|\n+---+---+\n|  V|  3|";
        let lines: Vec<&str> = text.lines().collect();
        let t = read_table(&lines, 0).unwrap();
        assert_eq!(t.columns, ["R", "L min"]);
        assert!(t.unclosed);
        for cut in 0..lines.len() {
            let _ = read_table(&lines[..cut], 0);
        }
        assert!(read_table(&["+--+", "|a|"], 0).is_none(), "no border after the header");
        assert!(table_after(&["* Loop:", "    N/A", "+--+"], 0, 3).is_none());
        assert!(table_after(&["x", "PS: note", "+--+", "|a|", "+--+", "|1|"], 0, 6).is_some());
    }
}
