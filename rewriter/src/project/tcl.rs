//! A small but real Tcl tokenizer: the parsing rules of the Tcl "dodekalogue", nothing more.
//!
//! Commands are separated by newlines and `;`; `#` starts a comment where a command would start;
//! a backslash-newline (and the blanks after it) is a word separator. Words are bare, `"quoted"`
//! (with substitutions) or `{braced}` (no substitution, nesting counted, backslash-newline becomes
//! a space); `{*}` expands a word into several. Substitutions — `$var`, `${var}`, `$arr(idx)`,
//! `[script]` and backslash escapes — happen while the words are read, in order, as in Tcl; what a
//! variable or a bracketed script is worth is up to the caller ([`Subst`]), which may decline and
//! keep the text as written.
//!
//! Positions are byte offsets into the script text, so a braced body (a `foreach` loop) can be
//! parsed again later from its own range and still report true lines and columns.

/// Bracket / body nesting allowed before giving up: keeps hostile input from overflowing the stack.
pub(crate) const MAX_DEPTH: usize = 64;
/// Longest word we build; anything longer is not a project description.
pub(crate) const MAX_WORD_BYTES: usize = 16 * 1024 * 1024;

/// A syntax error at a byte offset of the script being parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TclError {
    pub offset: usize,
    pub message: String,
}

impl TclError {
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        TclError { offset, message: message.into() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WordKind {
    Bare,
    Quoted,
    Braced,
}

/// One word of a command, after substitution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    pub kind: WordKind,
    /// Byte offset of the word's first character (of `{*}` when expanded).
    pub start: usize,
    /// For braced words: the byte range between the braces, to parse a body again.
    pub inner: Option<(usize, usize)>,
    /// `{*}word`: the caller splits it as a list.
    pub expand: bool,
    /// A `$var` or `[...]` in it was declined by the caller and kept as written.
    pub unresolved: bool,
}

/// One command: its words, already substituted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Command {
    pub words: Vec<Word>,
    pub start: usize,
}

/// What the parser asks its caller while reading words.
pub(crate) trait Subst {
    /// The value of `$name` (`name` is `arr(idx)` for array elements, `idx` substituted), or
    /// `None` to keep the text as written (the implementation reports why).
    fn var(&mut self, name: &str, at: usize) -> Option<String>;
    /// The value of a `[script]` given its parsed commands, or `None` to keep the text.
    fn bracket(&mut self, commands: Vec<Command>, at: usize) -> Result<Option<String>, TclError>;
}

/// Reads commands from `text[start..end]`.
pub(crate) struct Parser<'a> {
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    end: usize,
    depth: usize,
    /// Set when a substitution is declined; read and reset per word.
    declined: bool,
}

fn is_blank(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

impl<'a> Parser<'a> {
    pub fn new(text: &'a str) -> Self {
        Parser::range(text, 0, text.len(), 0)
    }

    /// A parser over part of `text` (a braced body), `depth` levels deep already.
    pub fn range(text: &'a str, start: usize, end: usize, depth: usize) -> Self {
        let end = end.min(text.len());
        Parser { text, b: text.as_bytes(), pos: start.min(end), end, depth, declined: false }
    }

    /// The next command, or `None` at the end of the range.
    pub fn next_command(&mut self, env: &mut dyn Subst) -> Result<Option<Command>, TclError> {
        self.command(env, false)
    }

    fn at(&self, i: usize) -> Option<u8> {
        if i < self.end {
            Some(self.b[i])
        } else {
            None
        }
    }

    /// Length of a backslash-newline at `i` (`\` `\n` or `\` `\r\n`), 0 if there is none.
    fn backslash_newline(&self, i: usize) -> usize {
        match (self.at(i), self.at(i + 1), self.at(i + 2)) {
            (Some(b'\\'), Some(b'\n'), _) => 2,
            (Some(b'\\'), Some(b'\r'), Some(b'\n')) => 3,
            _ => 0,
        }
    }

    /// Skip blanks and backslash-newlines (with the blanks that follow them) inside a command.
    fn skip_blanks(&mut self) {
        loop {
            match self.at(self.pos) {
                Some(c) if is_blank(c) => self.pos += 1,
                Some(b'\\') => {
                    let n = self.backslash_newline(self.pos);
                    if n == 0 {
                        return;
                    }
                    self.pos += n;
                }
                _ => return,
            }
        }
    }

    fn ends_word(&self, i: usize, nested: bool) -> bool {
        match self.at(i) {
            None => true,
            Some(c) if is_blank(c) || c == b'\n' || c == b';' => true,
            Some(b']') => nested,
            Some(b'\\') => self.backslash_newline(i) > 0,
            _ => false,
        }
    }

    fn command(&mut self, env: &mut dyn Subst, nested: bool) -> Result<Option<Command>, TclError> {
        // Separators and comments before the command.
        loop {
            self.skip_blanks();
            match self.at(self.pos) {
                None => return Ok(None),
                Some(b'\n' | b';') => self.pos += 1,
                Some(b']') if nested => return Ok(None),
                Some(b'#') => self.skip_comment(),
                Some(_) => break,
            }
        }
        let start = self.pos;
        let mut words = Vec::new();
        loop {
            self.skip_blanks();
            match self.at(self.pos) {
                None => break,
                Some(b'\n' | b';') => {
                    self.pos += 1;
                    break;
                }
                Some(b']') if nested => break,
                Some(_) => words.push(self.word(env, nested)?),
            }
        }
        Ok(Some(Command { words, start }))
    }

    /// A comment runs to the first newline not escaped by a backslash.
    fn skip_comment(&mut self) {
        while let Some(c) = self.at(self.pos) {
            match c {
                b'\n' => {
                    self.pos += 1;
                    return;
                }
                b'\\' => self.pos += 2,
                _ => self.pos += 1,
            }
        }
        self.pos = self.pos.min(self.end);
    }

    fn word(&mut self, env: &mut dyn Subst, nested: bool) -> Result<Word, TclError> {
        let start = self.pos;
        let mut expand = false;
        self.declined = false;
        if self.text[self.pos..self.end].starts_with("{*}") && !self.ends_word(self.pos + 3, nested) {
            expand = true;
            self.pos += 3;
        }
        let (text, kind, inner) = match self.at(self.pos) {
            Some(b'{') => {
                let (text, inner) = self.braced()?;
                if !self.ends_word(self.pos, nested) {
                    return Err(TclError::new(
                        self.pos,
                        "extra characters after close-brace: a braced word must be followed by a space, a newline or `;`",
                    ));
                }
                (text, WordKind::Braced, Some(inner))
            }
            Some(b'"') => {
                let text = self.quoted(env)?;
                if !self.ends_word(self.pos, nested) {
                    return Err(TclError::new(
                        self.pos,
                        "extra characters after close-quote: a quoted word must be followed by a space, a newline or `;`",
                    ));
                }
                (text, WordKind::Quoted, None)
            }
            _ => (self.bare(env, nested)?, WordKind::Bare, None),
        };
        let unresolved = std::mem::take(&mut self.declined);
        Ok(Word { text, kind, start, inner, expand, unresolved })
    }

    fn braced(&mut self) -> Result<(String, (usize, usize)), TclError> {
        let open = self.pos;
        self.pos += 1;
        let mut depth = 1usize;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            let Some(c) = self.at(self.pos) else {
                return Err(TclError::new(
                    open,
                    "unbalanced braces: this `{` is never closed (add the missing `}` or escape the brace as `\\{`)",
                ));
            };
            match c {
                b'\\' => {
                    let n = self.backslash_newline(self.pos);
                    if n > 0 {
                        out.push_str(&self.text[run..self.pos]);
                        self.pos += n;
                        while self.at(self.pos).is_some_and(|c| c == b' ' || c == b'\t') {
                            self.pos += 1;
                        }
                        out.push(' ');
                        run = self.pos;
                    } else {
                        // Keep the escape as written, but never let it close or open a level.
                        self.pos += 1;
                        if let Some(ch) = self.text[self.pos..self.end].chars().next() {
                            self.pos += ch.len_utf8();
                        }
                    }
                }
                b'{' => {
                    depth += 1;
                    self.pos += 1;
                }
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        out.push_str(&self.text[run..self.pos]);
                        let inner = (open + 1, self.pos);
                        self.pos += 1;
                        return Ok((out, inner));
                    }
                    self.pos += 1;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn quoted(&mut self, env: &mut dyn Subst) -> Result<String, TclError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            let Some(c) = self.at(self.pos) else {
                return Err(TclError::new(
                    open,
                    "unterminated string: this `\"` is never closed (add the missing `\"` or escape it as `\\\"`)",
                ));
            };
            match c {
                b'"' => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' | b'$' | b'[' => {
                    out.push_str(&self.text[run..self.pos]);
                    self.substitution(env, &mut out)?;
                    run = self.pos;
                }
                _ => self.pos += 1,
            }
        }
    }

    fn bare(&mut self, env: &mut dyn Subst, nested: bool) -> Result<String, TclError> {
        let mut out = String::new();
        let mut run = self.pos;
        while !self.ends_word(self.pos, nested) {
            match self.b[self.pos] {
                b'\\' | b'$' | b'[' => {
                    out.push_str(&self.text[run..self.pos]);
                    self.substitution(env, &mut out)?;
                    run = self.pos;
                }
                _ => self.pos += 1,
            }
        }
        out.push_str(&self.text[run..self.pos]);
        Ok(out)
    }

    /// One substitution at `self.pos` (on `\`, `$` or `[`), appended to `out`.
    fn substitution(&mut self, env: &mut dyn Subst, out: &mut String) -> Result<(), TclError> {
        let at = self.pos;
        match self.b[self.pos] {
            b'\\' => {
                let s = self.backslash();
                out.push_str(&s);
            }
            b'$' => self.variable(env, out)?,
            _ => self.bracket(env, out)?,
        }
        if out.len() > MAX_WORD_BYTES {
            return Err(TclError::new(at, "word grows past 16 MiB: this is not a project script"));
        }
        Ok(())
    }

    /// Backslash substitution at `self.pos`; returns the replacement.
    fn backslash(&mut self) -> String {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.at(self.pos) else {
            return "\\".to_string();
        };
        let simple = match c {
            b'a' => Some('\x07'),
            b'b' => Some('\x08'),
            b'f' => Some('\x0c'),
            b'n' => Some('\n'),
            b'r' if self.at(self.pos + 1) != Some(b'\n') => Some('\r'),
            b't' => Some('\t'),
            b'v' => Some('\x0b'),
            _ => None,
        };
        if let Some(ch) = simple {
            self.pos += 1;
            return ch.to_string();
        }
        let n = self.backslash_newline(start);
        if n > 0 {
            self.pos = start + n;
            while self.at(self.pos).is_some_and(|c| c == b' ' || c == b'\t') {
                self.pos += 1;
            }
            return " ".to_string();
        }
        match c {
            b'x' | b'u' | b'U' => {
                let max = match c {
                    b'x' => 2,
                    b'u' => 4,
                    _ => 8,
                };
                let digits = self.take_while(self.pos + 1, max, |c| c.is_ascii_hexdigit());
                if digits.is_empty() {
                    self.pos += 1;
                    return (c as char).to_string();
                }
                self.pos += 1 + digits.len();
                let v = u32::from_str_radix(digits, 16).unwrap_or(0xfffd);
                char::from_u32(v).unwrap_or('\u{fffd}').to_string()
            }
            b'0'..=b'7' => {
                let digits = self.take_while(self.pos, 3, |c| (b'0'..=b'7').contains(&c));
                self.pos += digits.len();
                let v = u32::from_str_radix(digits, 8).unwrap_or(0) & 0xff;
                char::from_u32(v).unwrap_or('\u{fffd}').to_string()
            }
            _ => {
                let ch = self.text[self.pos..self.end].chars().next().unwrap_or('\\');
                self.pos += ch.len_utf8();
                ch.to_string()
            }
        }
    }

    fn take_while(&self, from: usize, max: usize, ok: impl Fn(u8) -> bool) -> &'a str {
        let mut i = from;
        while i < self.end && i - from < max && ok(self.b[i]) {
            i += 1;
        }
        &self.text[from.min(i)..i]
    }

    /// `$name`, `${name}`, `$name(index)`, at `self.pos`.
    fn variable(&mut self, env: &mut dyn Subst, out: &mut String) -> Result<(), TclError> {
        let dollar = self.pos;
        let mut p = dollar + 1;
        let name = if self.at(p) == Some(b'{') {
            let close = (p + 1..self.end)
                .find(|&i| self.b[i] == b'}')
                .ok_or_else(|| TclError::new(dollar, "missing close-brace for variable name: write `${name}`"))?;
            let name = self.text[p + 1..close].to_string();
            self.pos = close + 1;
            name
        } else {
            loop {
                match self.at(p) {
                    Some(c) if c.is_ascii_alphanumeric() || c == b'_' => p += 1,
                    Some(b':') if self.at(p + 1) == Some(b':') => p += 2,
                    _ => break,
                }
            }
            if p == dollar + 1 {
                // A lone `$` is just a dollar sign.
                self.pos = dollar + 1;
                out.push('$');
                return Ok(());
            }
            let mut name = self.text[dollar + 1..p].to_string();
            self.pos = p;
            if self.at(self.pos) == Some(b'(') {
                let open = self.pos;
                self.pos += 1;
                let mut index = String::new();
                let mut run = self.pos;
                loop {
                    match self.at(self.pos) {
                        None => {
                            return Err(TclError::new(open, "missing `)` after an array index: write `$name(index)`"))
                        }
                        Some(b')') => break,
                        Some(b'\\' | b'$' | b'[') => {
                            index.push_str(&self.text[run..self.pos]);
                            self.substitution(env, &mut index)?;
                            run = self.pos;
                        }
                        Some(_) => self.pos += 1,
                    }
                }
                index.push_str(&self.text[run..self.pos]);
                self.pos += 1;
                name = format!("{name}({index})");
            }
            name
        };
        match env.var(&name, dollar) {
            Some(v) => out.push_str(&v),
            None => {
                self.declined = true;
                out.push_str(&self.text[dollar..self.pos]);
            }
        }
        Ok(())
    }

    /// `[script]` at `self.pos`.
    fn bracket(&mut self, env: &mut dyn Subst, out: &mut String) -> Result<(), TclError> {
        let open = self.pos;
        if self.depth >= MAX_DEPTH {
            return Err(TclError::new(open, format!("brackets nested more than {MAX_DEPTH} deep")));
        }
        self.depth += 1;
        self.pos += 1;
        let mut commands = Vec::new();
        while let Some(c) = self.command(env, true)? {
            commands.push(c);
        }
        self.depth -= 1;
        if self.at(self.pos) != Some(b']') {
            return Err(TclError::new(
                open,
                "unterminated command substitution: this `[` has no matching `]` (escape a literal bracket as `\\[`)",
            ));
        }
        self.pos += 1;
        match env.bracket(commands, open)? {
            Some(v) => out.push_str(&v),
            None => {
                self.declined = true;
                out.push_str(&self.text[open..self.pos]);
            }
        }
        Ok(())
    }
}

/// Split a Tcl list into its elements (braces group without substitution, quotes and bare
/// elements take backslash escapes). `Err` carries a message for a malformed list.
pub(crate) fn split_list(s: &str) -> Result<Vec<String>, String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let is_space = |c: u8| is_blank(c) || c == b'\n';
    loop {
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        if i >= b.len() {
            return Ok(out);
        }
        let mut elem = String::new();
        match b[i] {
            b'{' => {
                let mut depth = 1;
                let start = i + 1;
                i += 1;
                while i < b.len() {
                    match b[i] {
                        b'\\' => i += 1,
                        b'{' => depth += 1,
                        b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                if i >= b.len() {
                    return Err("unmatched open brace in list".to_string());
                }
                elem.push_str(&s[start..i]);
                i += 1;
                if i < b.len() && !is_space(b[i]) {
                    return Err("list element in braces followed by other characters".to_string());
                }
            }
            b'"' => {
                i += 1;
                loop {
                    if i >= b.len() {
                        return Err("unmatched open quote in list".to_string());
                    }
                    match b[i] {
                        b'"' => break,
                        b'\\' => i = unescape_into(s, i, &mut elem),
                        _ => {
                            let ch = s[i..].chars().next().unwrap_or(' ');
                            elem.push(ch);
                            i += ch.len_utf8();
                        }
                    }
                }
                i += 1;
                if i < b.len() && !is_space(b[i]) {
                    return Err("list element in quotes followed by other characters".to_string());
                }
            }
            _ => {
                while i < b.len() && !is_space(b[i]) {
                    if b[i] == b'\\' {
                        i = unescape_into(s, i, &mut elem);
                    } else {
                        let ch = s[i..].chars().next().unwrap_or(' ');
                        elem.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
        }
        out.push(elem);
    }
}

/// Backslash escape at `s[i]` (a `\`) into `out`; returns the index after it.
fn unescape_into(s: &str, i: usize, out: &mut String) -> usize {
    let mut p = Parser::new(s);
    p.pos = i;
    out.push_str(&p.backslash());
    p.pos
}

/// Format elements as a Tcl list (the inverse of [`split_list`]).
pub(crate) fn join_list<S: AsRef<str>>(items: &[S]) -> String {
    items.iter().map(|s| quote_element(s.as_ref())).collect::<Vec<_>>().join(" ")
}

fn quote_element(s: &str) -> String {
    if s.is_empty() {
        return "{}".to_string();
    }
    let special = |c: char| c.is_whitespace() || "{}[]$\";\\".contains(c);
    if !s.chars().any(special) && !s.starts_with('#') {
        return s.to_string();
    }
    let mut depth = 0i64;
    let mut balanced = true;
    for c in s.chars() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth < 0 {
                    balanced = false;
                }
            }
            _ => {}
        }
    }
    if balanced && depth == 0 && !s.contains('\\') {
        return format!("{{{s}}}");
    }
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if special(c) || c == '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Resolves `$var` from a map and `[set name]`; records what it declined.
    #[derive(Default)]
    struct Env {
        vars: HashMap<String, String>,
        declined: Vec<String>,
    }

    impl Subst for Env {
        fn var(&mut self, name: &str, _at: usize) -> Option<String> {
            let v = self.vars.get(name).cloned();
            if v.is_none() {
                self.declined.push(format!("${name}"));
            }
            v
        }
        fn bracket(&mut self, commands: Vec<Command>, _at: usize) -> Result<Option<String>, TclError> {
            match commands.last().map(|c| c.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>()) {
                Some(w) if w.len() == 2 && w[0] == "set" => Ok(self.vars.get(w[1]).cloned()),
                _ => {
                    self.declined.push("[]".into());
                    Ok(None)
                }
            }
        }
    }

    fn parse_with(text: &str, env: &mut Env) -> Result<Vec<Vec<String>>, TclError> {
        let mut p = Parser::new(text);
        let mut out = Vec::new();
        while let Some(c) = p.next_command(env)? {
            out.push(c.words.into_iter().map(|w| w.text).collect());
        }
        Ok(out)
    }

    fn parse(text: &str) -> Vec<Vec<String>> {
        parse_with(text, &mut Env::default()).unwrap()
    }

    fn words(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn commands_split_on_newlines_and_semicolons() {
        assert_eq!(
            parse("a b\nc d; e\n\n;;f"),
            vec![words(&["a", "b"]), words(&["c", "d"]), words(&["e"]), words(&["f"])]
        );
    }

    #[test]
    fn comments_only_at_command_start_and_continue_with_backslash() {
        let cmds = parse("# one \\\n still comment\nset x #notcomment ; # two\nz");
        assert_eq!(cmds, vec![words(&["set", "x", "#notcomment"]), words(&["z"])]);
    }

    #[test]
    fn backslash_newline_continues_a_command() {
        assert_eq!(
            parse("add_files \\\n    a.cpp \\\r\n\tb.cpp\nnext"),
            vec![words(&["add_files", "a.cpp", "b.cpp"]), words(&["next"])]
        );
    }

    #[test]
    fn braces_nest_and_do_not_substitute() {
        let cmds = parse("set_part {xcvu9p-{x}-$y [z]}\nset a {multi\nline}");
        assert_eq!(cmds[0], words(&["set_part", "xcvu9p-{x}-$y [z]"]));
        assert_eq!(cmds[1], words(&["set", "a", "multi\nline"]));
    }

    #[test]
    fn braces_turn_backslash_newline_into_a_space_and_keep_other_escapes() {
        assert_eq!(parse("x {a\\\n    b \\} \\{ c}")[0], words(&["x", "a b \\} \\{ c"]));
    }

    #[test]
    fn braced_word_remembers_its_inner_range() {
        let text = "foreach f {a b} {\n  add_files $f\n}";
        let mut p = Parser::new(text);
        let c = p.next_command(&mut Env::default()).unwrap().unwrap();
        let (s, e) = c.words[3].inner.unwrap();
        assert_eq!(&text[s..e], "\n  add_files $f\n");
        assert_eq!(c.words[3].kind, WordKind::Braced);
        assert_eq!(c.words[0].start, 0);
        assert_eq!(c.words[1].start, 8);
    }

    #[test]
    fn quotes_substitute_and_may_span_lines() {
        let mut env = Env::default();
        env.vars.insert("inc".into(), "/opt/inc".into());
        let cmds = parse_with("add_files -cflags \"-I$inc -DX=\\\"1\\\"\n -O2\" k.cpp", &mut env).unwrap();
        assert_eq!(cmds[0], words(&["add_files", "-cflags", "-I/opt/inc -DX=\"1\"\n -O2", "k.cpp"]));
    }

    #[test]
    fn variables_forms() {
        let mut env = Env::default();
        env.vars.insert("a".into(), "A".into());
        env.vars.insert("long name".into(), "L".into());
        env.vars.insert("arr(A)".into(), "E".into());
        env.vars.insert("::ns::v".into(), "N".into());
        let cmds = parse_with("x $a/b ${long name}.c $arr($a) $::ns::v $ a$ $missing", &mut env).unwrap();
        assert_eq!(cmds[0], words(&["x", "A/b", "L.c", "E", "N", "$", "a$", "$missing"]));
        assert_eq!(env.declined, vec!["$missing"]);
        let mut p = Parser::new("x $a [pwd] $missing");
        let c = p.next_command(&mut env).unwrap().unwrap();
        assert_eq!(c.words.iter().map(|w| w.unresolved).collect::<Vec<_>>(), [false, false, true, true]);
    }

    #[test]
    fn brackets_are_evaluated_by_the_caller_or_kept() {
        let mut env = Env::default();
        env.vars.insert("d".into(), "src".into());
        let cmds = parse_with("add_files [set d]/k.cpp [pwd]/x.cpp \"[set d]\" [a [b] {]}]", &mut env).unwrap();
        assert_eq!(cmds[0], words(&["add_files", "src/k.cpp", "[pwd]/x.cpp", "src", "[a [b] {]}]"]));
    }

    #[test]
    fn backslash_escapes() {
        assert_eq!(parse(r"x \x41\u00e9\101\t\$\[\q\\")[0], words(&["x", "AéA\t$[q\\"]));
        assert_eq!(parse("x a\\ b")[0], words(&["x", "a b"]));
    }

    #[test]
    fn expansion_marks_the_word() {
        let mut p = Parser::new("cmd {*}{a b} {*} {*}");
        let c = p.next_command(&mut Env::default()).unwrap().unwrap();
        assert!(c.words[1].expand);
        assert_eq!(c.words[1].text, "a b");
        assert!(!c.words[2].expand, "a lone {{*}} is a plain braced word");
        assert_eq!(c.words[2].text, "*");
    }

    #[test]
    fn syntax_errors_point_at_the_opening_character() {
        let err = |t: &str| parse_with(t, &mut Env::default()).unwrap_err();
        assert_eq!(err("set a {b\nc").offset, 6);
        assert!(err("set a {b").message.contains("never closed"));
        assert_eq!(err("x \"abc").offset, 2);
        assert_eq!(err("x [set a").offset, 2);
        assert!(err("x {a}b").message.contains("extra characters after close-brace"));
        assert!(err("x \"a\"b").message.contains("extra characters after close-quote"));
        assert!(err("x ${a").message.contains("variable name"));
        assert!(err("x $a(b").message.contains("`)`"));
    }

    #[test]
    fn deep_brackets_are_refused_not_overflowed() {
        let text = format!("x {}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert!(parse_with(&text, &mut Env::default()).unwrap_err().message.contains("nested"));
    }

    #[test]
    fn garbage_never_panics() {
        let samples =
            ["\\", "{", "}", "\"", "[", "]", "$", "${", "$a(", "\\x", "\\u12", "{*}", "é\\é{é}", "#\\", "[\\"];
        for a in samples {
            for b in samples {
                for c in samples {
                    let t = format!("{a}{b} {c}");
                    let _ = parse_with(&t, &mut Env::default());
                }
            }
        }
    }

    #[test]
    fn lists_split_and_join() {
        assert_eq!(split_list(" a {b c} \"d e\" f\\ g {} ").unwrap(), words(&["a", "b c", "d e", "f g", ""]));
        assert_eq!(split_list("{a {b}} c").unwrap(), words(&["a {b}", "c"]));
        assert!(split_list("{a").is_err());
        assert!(split_list("\"a").is_err());
        let items = ["plain", "two words", "", "br{ace", "a$b", "#x"];
        assert_eq!(split_list(&join_list(&items)).unwrap(), words(&items));
    }
}
