//! Reading a Vitis HLS Tcl script into a [`Project`]: the tokenizer of [`super::tcl`] plus just
//! enough of an interpreter for the commands that describe a project. Nothing is executed.

use super::tcl::{self, Command, Parser, Subst, TclError, Word, WordKind, MAX_DEPTH, MAX_WORD_BYTES};
use super::{parse_clock, resolve, split_flags, FileSet, Project, Select};
use crate::error::{Error, ErrorKind, Result};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Commands run before giving up: loops this long are not a project description.
const MAX_STEPS: usize = 200_000;

/// Commands evaluated for their value, in brackets or on their own.
const VALUE_COMMANDS: &[&str] =
    &["set", "append", "lappend", "unset", "list", "concat", "join", "file", "info", "pwd", "string", "glob"];

/// Commands that change nothing we read.
const IGNORED: &[&str] = &[
    "puts",
    "close_project",
    "close_solution",
    "csynth_design",
    "export_design",
    "set_param",
    "common::set_param",
    "package",
    "close_component",
    "delete_project",
    "delete_solution",
];

/// Tcl control flow we do not interpret.
const CONTROL: &[&str] =
    &["if", "while", "for", "proc", "switch", "eval", "uplevel", "namespace", "return", "break", "continue", "expr"];

struct Script {
    path: PathBuf,
    text: String,
    /// Byte offset of each line's start.
    lines: Vec<usize>,
}

impl Script {
    fn new(path: PathBuf, text: String) -> Self {
        let lines = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Script { path, text, lines }
    }

    fn line_col(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let idx = self.lines.partition_point(|&s| s <= offset).saturating_sub(1);
        let start = self.lines.get(idx).copied().unwrap_or(0).min(offset);
        (idx + 1, self.text[start..offset].chars().count() + 1)
    }
}

struct Interp<'p> {
    p: &'p mut Project,
    vars: HashMap<String, String>,
    scripts: Vec<Rc<Script>>,
    depth: usize,
    steps: usize,
    exited: bool,
    /// The directory Vitis would resolve relative paths against: the script's, until a `cd`.
    cwd: PathBuf,
    select: Select,
    /// In a project or component other than the one read: its commands are skipped.
    other_component: bool,
    /// In a solution other than the one read: its solution settings are skipped.
    other_solution: bool,
}

/// Commands that set what one solution builds (part, clock, directives, csim and config
/// settings); skipped in a solution not read. Files and the top belong to the project.
fn solution_level(name: &str) -> bool {
    matches!(name, "set_part" | "create_clock" | "set_clock_uncertainty" | "csim_design" | "cosim_design")
        || name.starts_with("set_directive_")
        || name.starts_with("config_")
}

/// Commands that run in every block: they open blocks, or keep the script's own state.
fn block_neutral(name: &str) -> bool {
    VALUE_COMMANDS.contains(&name)
        || IGNORED.contains(&name)
        || matches!(
            name,
            "open_project"
                | "open_component"
                | "open_solution"
                | "exit"
                | "quit"
                | "cd"
                | "source"
                | "foreach"
                | "catch"
        )
}

/// Options of one command: flags seen, `(option, value)` pairs, and the other words.
struct Args {
    flags: Vec<String>,
    values: Vec<(String, Word)>,
    pos: Vec<Word>,
}

impl Args {
    fn has(&self, flag: &str) -> bool {
        self.flags.iter().any(|f| f == flag)
    }
    fn last(&self, opt: &str) -> Option<&Word> {
        self.values.iter().rev().find(|(o, _)| o == opt).map(|(_, w)| w)
    }
    fn all<'a>(&'a self, opt: &'a str) -> impl Iterator<Item = &'a Word> + 'a {
        self.values.iter().filter(move |(o, _)| o == opt).map(|(_, w)| w)
    }
}

pub(crate) fn run(p: &mut Project, text: &str, select: &Select) -> Result<()> {
    let script = Rc::new(Script::new(p.file.clone(), text.to_string()));
    let cwd = p.root.clone();
    let mut it = Interp {
        p,
        vars: HashMap::new(),
        scripts: Vec::new(),
        depth: 0,
        steps: 0,
        exited: false,
        cwd,
        select: select.clone(),
        other_component: false,
        other_solution: false,
    };
    it.eval_script(script)
}

fn var_key(name: &str) -> &str {
    name.trim_start_matches("::")
}

impl Interp<'_> {
    fn current(&self) -> Rc<Script> {
        self.scripts.last().cloned().unwrap_or_else(|| Rc::new(Script::new(self.p.file.clone(), String::new())))
    }

    fn warn_at(&mut self, offset: usize, message: impl Into<String>) {
        let script = self.current();
        let at = script.line_col(offset);
        self.p.warn(&script.path, Some(at), message);
    }

    fn error(&self, e: TclError) -> Error {
        let script = self.current();
        let (l, c) = script.line_col(e.offset);
        Error::new(ErrorKind::BadInput, e.message).at(&script.path).at_line(l, c)
    }

    fn step(&mut self, at: usize) -> std::result::Result<(), TclError> {
        self.steps += 1;
        if self.steps > MAX_STEPS {
            return Err(TclError::new(
                at,
                format!(
                    "the script runs more than {MAX_STEPS} commands: loops this long are not a project description"
                ),
            ));
        }
        Ok(())
    }

    fn eval_script(&mut self, script: Rc<Script>) -> Result<()> {
        let len = script.text.len();
        self.scripts.push(script);
        let r = self.eval_range(0, len);
        self.scripts.pop();
        r
    }

    /// Run the commands of the current script's `start..end` (the whole text or a braced body).
    fn eval_range(&mut self, start: usize, end: usize) -> Result<()> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error(TclError::new(
                start,
                format!("scripts and loop bodies nested more than {MAX_DEPTH} deep (does a script source itself?)"),
            )));
        }
        let script = self.current();
        self.depth += 1;
        let mut parser = Parser::range(&script.text, start, end, self.depth);
        let r = loop {
            if self.exited {
                break Ok(());
            }
            match parser.next_command(self) {
                Ok(Some(cmd)) => {
                    if let Err(e) = self.exec(cmd) {
                        break Err(e);
                    }
                }
                Ok(None) => break Ok(()),
                Err(e) => break Err(self.error(e)),
            }
        };
        self.depth -= 1;
        r
    }

    /// `{*}` words split into their list elements.
    fn expand(&mut self, words: Vec<Word>) -> Vec<Word> {
        let mut out = Vec::with_capacity(words.len());
        for w in words {
            if !w.expand {
                out.push(w);
                continue;
            }
            match tcl::split_list(&w.text) {
                Ok(items) => out.extend(items.into_iter().map(|text| Word {
                    text,
                    kind: WordKind::Bare,
                    start: w.start,
                    inner: None,
                    expand: false,
                    unresolved: w.unresolved,
                })),
                Err(msg) => {
                    self.warn_at(w.start, format!("cannot expand `{{*}}`: {msg}; kept as one word"));
                    out.push(w);
                }
            }
        }
        out
    }

    fn options(&mut self, cmd: &str, args: &[Word], flags: &[&str], valued: &[&str]) -> Args {
        let mut out = Args { flags: Vec::new(), values: Vec::new(), pos: Vec::new() };
        let mut i = 0;
        while i < args.len() {
            let w = &args[i];
            let t = w.text.as_str();
            let is_option =
                t.len() > 1 && t.starts_with('-') && !t[1..].starts_with(|c: char| c.is_ascii_digit() || c == '.');
            if !is_option {
                out.pos.push(w.clone());
            } else if valued.contains(&t) {
                match args.get(i + 1) {
                    Some(v) => {
                        out.values.push((t.to_string(), v.clone()));
                        i += 1;
                    }
                    None => self.warn_at(w.start, format!("`{t}` of `{cmd}` needs a value; ignored")),
                }
            } else if flags.contains(&t) {
                out.flags.push(t.to_string());
            } else {
                self.warn_at(w.start, format!("unknown option `{t}` of `{cmd}` ignored"));
            }
            i += 1;
        }
        out
    }

    fn flags_of(&mut self, w: &Word) -> Vec<String> {
        let (words, open) = split_flags(&w.text);
        if open {
            self.warn_at(w.start, "unterminated quote in flags; the rest is taken as one word");
        }
        words
    }

    fn exec(&mut self, cmd: Command) -> Result<()> {
        self.step(cmd.start).map_err(|e| self.error(e))?;
        let words = self.expand(cmd.words);
        let Some(first) = words.first() else { return Ok(()) };
        let name = first.text.trim_start_matches("::").to_string();
        let args = &words[1..];
        let at = cmd.start;
        if (self.other_component && !block_neutral(&name)) || (self.other_solution && solution_level(&name)) {
            return Ok(());
        }
        match name.as_str() {
            n if VALUE_COMMANDS.contains(&n) => {
                self.value(n, args, at).map_err(|e| self.error(e))?;
            }
            n if IGNORED.contains(&n) => {}
            // Only its `-argv` and `-random_stall` matter here (the testbench's arguments when comparing with
            // co-simulation); its many other options are the RTL simulator's.
            "cosim_design" => {
                if let Some(w) = args.iter().position(|w| w.text == "-argv").and_then(|i| args.get(i + 1)) {
                    self.p.cosim_argv = Some(w.text.clone());
                }
                self.p.cosim_random_stall |= args.iter().any(|w| w.text == "-random_stall");
            }
            "exit" | "quit" => self.exited = true,
            "open_project" => {
                let a = self.options(&name, args, &["-reset", "-upgrade"], &["-ide"]);
                match a.pos.first() {
                    Some(w) => self.open_component(&w.text),
                    None => self.warn_at(at, "`open_project` without a project name"),
                }
            }
            "open_solution" => {
                let a = self.options(&name, args, &["-reset"], &["-flow_target"]);
                match a.pos.first() {
                    Some(w) => {
                        let (project, solution) = match w.text.rsplit_once('/') {
                            Some((p, s)) if !p.is_empty() && !s.is_empty() => (Some(p.to_string()), s.to_string()),
                            _ => (None, w.text.clone()),
                        };
                        if let Some(project) = project {
                            if self.p.name.as_deref() != Some(self.project_name(&project).as_str()) {
                                self.open_component(&project);
                            }
                        }
                        self.open_solution(solution);
                    }
                    None => self.warn_at(at, "`open_solution` without a solution name"),
                }
                if let (Some(ft), false) = (a.last("-flow_target"), self.other_component || self.other_solution) {
                    let ft = ft.clone();
                    self.flow_target(&ft);
                }
            }
            "open_component" => {
                let a = self.options(&name, args, &["-reset", "-write_ini"], &["-flow_target", "-config"]);
                match a.pos.first() {
                    Some(w) => self.open_component(&w.text),
                    None => self.warn_at(at, "`open_component` without a component name"),
                }
                if let (Some(ft), false) = (a.last("-flow_target"), self.other_component) {
                    let ft = ft.clone();
                    self.flow_target(&ft);
                }
            }
            "set_top" => {
                let a = self.options(&name, args, &[], &[]);
                match a.pos.as_slice() {
                    [w] => self.p.top = Some(w.text.clone()),
                    [w, ..] => {
                        self.warn_at(a.pos[1].start, "`set_top` takes one function name; the rest is ignored");
                        self.p.top = Some(w.text.clone());
                    }
                    [] => self.warn_at(at, "`set_top` without a function name"),
                }
            }
            // `add_file` is accepted by vitis_hls too (and found in real scripts).
            "add_files" | "add_file" => self.add_files(args, at),
            "cd" => match args {
                [dir] => self.cwd = super::normalize(&resolve(&self.cwd, &dir.text)),
                _ => self.warn_at(at, "`cd` is interpreted only with one directory; ignored"),
            },
            "set_part" => {
                let a = self.options(&name, args, &["-board"], &["-tool"]);
                match a.pos.first() {
                    Some(w) => self.p.part = Some(w.text.clone()),
                    None => self.warn_at(at, "`set_part` without a part name"),
                }
            }
            "create_clock" => {
                let a = self.options(&name, args, &[], &["-period", "-name"]);
                match a.last("-period") {
                    Some(w) => match parse_clock(&w.text) {
                        Some(ns) => self.p.clock_ns = Some(ns),
                        None => {
                            let msg = format!(
                                "cannot read clock period `{}`; write ns (`-period 4`) or a frequency (`-period 250MHz`)",
                                w.text
                            );
                            self.warn_at(w.start, msg);
                        }
                    },
                    None => self.warn_at(at, "`create_clock` without `-period`; Vitis uses 10 ns"),
                }
            }
            "set_clock_uncertainty" => match args.first() {
                Some(w) => self.p.clock_uncertainty = Some(w.text.clone()),
                None => self.warn_at(at, "`set_clock_uncertainty` without a value"),
            },
            "csim_design" | "config_csim" | "config_sim" => {
                let a = self.options(
                    &name,
                    args,
                    &["-O", "-clean", "-setup", "-profile", "-sanitize_address", "-sanitize_undefined", "-profile_tripcount"],
                    &["-argv", "-ldflags", "-mflags", "-clang_version", "-code_analyzer"],
                );
                if let Some(w) = a.last("-argv") {
                    self.p.csim_argv = Some(w.text.clone());
                }
                if a.has("-O") {
                    self.p.csim_optimize = true;
                }
                let ld: Vec<Word> = a.all("-ldflags").cloned().collect();
                if !ld.is_empty() {
                    let flags = ld.iter().flat_map(|w| self.flags_of(w)).collect();
                    self.p.csim_ldflags = flags;
                }
                if let Some(w) = a.pos.first() {
                    self.warn_at(w.start, format!("unexpected argument `{}` of `{name}` ignored", w.text));
                }
                if name != "csim_design" {
                    self.record(&name, args);
                }
            }
            "config_compile" => {
                let hint = "write a trip count such as 64 (0: no automatic pipelining)";
                if let Some(n) = self.count_option(&name, args, "-pipeline_loops", hint) {
                    self.p.pipeline_loops = Some(n);
                }
            }
            "config_interface" => {
                if let Some(n) = self.count_option(&name, args, "-m_axi_latency", "write a cycle count such as 64") {
                    self.p.m_axi_latency = Some(n);
                }
            }
            "config_dataflow" => {
                let (value, rest) = self.take_option(&name, args, "-default_channel");
                if let Some(w) = value {
                    match super::dataflow_channel(&w.text) {
                        Some(c) => self.p.dataflow_default_channel = Some(c),
                        None => {
                            let msg = format!(
                                "unknown `-default_channel {}` (expected `fifo` or `pingpong`); ignored",
                                w.text
                            );
                            self.warn_at(w.start, msg);
                        }
                    }
                }
                if !rest.is_empty() {
                    self.record(&name, &rest);
                }
            }
            n if n.starts_with("set_directive_") => self.directive(n, args, at),
            n if n.starts_with("config_") => self.record(n, args),
            "foreach" => self.foreach(args, at)?,
            "source" => self.source(args, at)?,
            "catch" => match args.first() {
                Some(Word { kind: WordKind::Braced, inner: Some((s, e)), .. }) => self.eval_range(*s, *e)?,
                _ => self.warn_at(at, "`catch` is interpreted only with a braced body"),
            },
            n if CONTROL.contains(&n) => self.warn_at(
                at,
                format!(
                    "`{n}` is not interpreted, so what it would do is ignored; keep add_files, set_top and the like at the \
                     top level of the script (or use a config file)"
                ),
            ),
            n => self.warn_at(at, format!("unknown command `{n}` ignored")),
        }
        Ok(())
    }

    /// `open_project` / `open_component NAME`: the block read is the selected one, else the first.
    fn open_component(&mut self, written: &str) {
        let name = self.project_name(written);
        if !self.p.components.contains(&name) {
            self.p.components.push(name.clone());
        }
        let chosen = match &self.select.component {
            Some(c) => c == written || *c == name,
            None => self.p.components.first() == Some(&name),
        };
        self.other_component = !chosen;
        self.other_solution = false;
        if chosen {
            self.p.name = Some(name);
        }
    }

    /// `open_solution NAME` in the block read: its settings are read when it is the selected
    /// solution, else the first.
    fn open_solution(&mut self, solution: String) {
        if self.other_component {
            return;
        }
        if !self.p.solutions.contains(&solution) {
            self.p.solutions.push(solution.clone());
        }
        let chosen = match &self.select.solution {
            Some(s) => *s == solution,
            None => self.p.solutions.first() == Some(&solution),
        };
        self.other_solution = !chosen;
        if chosen {
            self.p.solution = Some(solution);
        }
    }

    /// A project directory as written, or absolute once a `cd` moved away from the script's directory.
    fn project_name(&self, name: &str) -> String {
        if self.cwd == self.p.root {
            name.to_string()
        } else {
            resolve(&self.cwd, name).display().to_string()
        }
    }

    /// The value of `opt` (`-opt value` or `-opt=value`, the last one when repeated) and the
    /// other words.
    fn take_option(&mut self, cmd: &str, args: &[Word], opt: &str) -> (Option<Word>, Vec<Word>) {
        let mut value = None;
        let mut rest = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let w = &args[i];
            if let Some(v) = w.text.strip_prefix(opt).and_then(|r| r.strip_prefix('=')) {
                value = Some(Word { text: v.to_string(), ..w.clone() });
            } else if w.text == opt {
                match args.get(i + 1) {
                    Some(v) => {
                        value = Some(v.clone());
                        i += 1;
                    }
                    None => self.warn_at(w.start, format!("`{opt}` of `{cmd}` needs a value; ignored")),
                }
            } else {
                rest.push(w.clone());
            }
            i += 1;
        }
        (value, rest)
    }

    /// `set_directive_<kind> ...`: to [`Project::directives`], or a warning saying why not.
    fn directive(&mut self, name: &str, args: &[Word], at: usize) {
        let script = self.current();
        let (line, _) = script.line_col(at);
        let origin = format!("{}:{line}", super::file_name(&script.path));
        if let Some(w) = args.iter().find(|w| w.unresolved) {
            let msg = format!("`{name}` is ignored: `{}` holds a variable or command that is not evaluated", w.text);
            self.warn_at(w.start, msg);
            return;
        }
        let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        let kind = name.strip_prefix("set_directive_").unwrap_or_default();
        match super::directive::from_tcl(kind, &texts, origin) {
            Ok(d) => self.p.directives.push(d),
            Err(why) => self.warn_at(at, format!("`{name}` is ignored: {why}")),
        }
    }

    /// The whole number `opt` of command `name` gives (a warning with `hint` where it is not
    /// one); the command's other words are recorded.
    fn count_option(&mut self, name: &str, args: &[Word], opt: &str, hint: &str) -> Option<u64> {
        let (value, rest) = self.take_option(name, args, opt);
        if !rest.is_empty() {
            self.record(name, &rest);
        }
        let w = value?;
        let n = w.text.parse::<u64>().ok();
        if n.is_none() {
            self.warn_at(w.start, format!("cannot read `{opt} {}`: {hint}; ignored", w.text));
        }
        n
    }

    fn record(&mut self, name: &str, args: &[Word]) {
        let texts: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        self.p.other.push((name.to_string(), tcl::join_list(&texts)));
    }

    fn flow_target(&mut self, w: &Word) {
        if !matches!(w.text.as_str(), "vitis" | "vivado") {
            self.warn_at(w.start, format!("unknown flow target `{}` (expected `vitis` or `vivado`)", w.text));
        }
        self.p.flow_target = Some(w.text.clone());
    }

    fn add_files(&mut self, args: &[Word], at: usize) {
        let a = self.options("add_files", args, &["-tb", "-blackbox", "-appendflags"], &["-cflags", "-csimflags"]);
        let cflag_words: Vec<Word> = a.all("-cflags").cloned().collect();
        let csim_words: Vec<Word> = a.all("-csimflags").cloned().collect();
        let cflags: Vec<String> = cflag_words.iter().flat_map(|w| self.flags_of(w)).collect();
        let csimflags: Vec<String> = csim_words.iter().flat_map(|w| self.flags_of(w)).collect();
        let set = if a.has("-tb") { FileSet::Tb } else { FileSet::Syn };
        if a.pos.is_empty() {
            self.warn_at(at, "`add_files` without a file");
        }
        let script = self.current();
        for w in &a.pos {
            // The files argument is a Tcl list: `add_files "a.cpp b.cpp"` (or the list `glob`
            // gives) adds two files. Text kept as written (`[exec ls]`) is one entry: splitting
            // it would only add noise.
            let items = match tcl::split_list(&w.text) {
                _ if w.unresolved => vec![w.text.clone()],
                Ok(items) => items,
                Err(msg) => {
                    self.warn_at(w.start, format!("`{}` is not a well-formed list ({msg}); taken as one file", w.text));
                    vec![w.text.clone()]
                }
            };
            let lc = script.line_col(w.start);
            for item in items {
                let path = self.file_path(&item);
                if a.has("-blackbox") {
                    if !path.exists() {
                        self.warn_at(w.start, format!("file not found: {}", path.display()));
                    }
                    self.p.blackbox.push(path);
                } else {
                    let base = self.cwd.clone();
                    self.p.add_file(set, path, &base, cflags.clone(), csimflags.clone(), &script.path, Some(lc));
                }
            }
        }
    }

    /// Where a file of `add_files` is: against the directory the script runs in, or, when no
    /// file is there, against the project's directory. Vivado HLS writes a file that lives in the
    /// project's directory by its bare name (`open_project SHA` then `add_files fips202.c`, the
    /// file being `SHA/fips202.c`) and finds it there; one elsewhere by its path from the
    /// workspace (`add_files lab3_hls/core.cpp`).
    fn file_path(&self, item: &str) -> PathBuf {
        let path = resolve(&self.cwd, item);
        if path.exists() || Path::new(item).is_absolute() {
            return path;
        }
        let in_project = self.p.name.as_deref().map(|name| resolve(&resolve(&self.cwd, name), item));
        in_project.filter(|p| p.exists()).unwrap_or(path)
    }

    fn foreach(&mut self, args: &[Word], at: usize) -> Result<()> {
        let [vars, list, body] = args else {
            self.warn_at(at, "only `foreach var list {body}` is interpreted; this loop is ignored");
            return Ok(());
        };
        let (vars, items) = match (tcl::split_list(&vars.text), tcl::split_list(&list.text)) {
            (Ok(v), Ok(i)) if !v.is_empty() => (v, i),
            (_, Err(msg)) => {
                self.warn_at(list.start, format!("`foreach` over a malformed list ({msg}); the loop is ignored"));
                return Ok(());
            }
            _ => {
                self.warn_at(at, "`foreach` without a loop variable; the loop is ignored");
                return Ok(());
            }
        };
        let (WordKind::Braced, Some((s, e))) = (body.kind, body.inner) else {
            self.warn_at(body.start, "`foreach` is interpreted only with a braced body; the loop is ignored");
            return Ok(());
        };
        for chunk in items.chunks(vars.len()) {
            for (i, v) in vars.iter().enumerate() {
                let value = chunk.get(i).cloned().unwrap_or_default();
                self.vars.insert(var_key(v).to_string(), value);
            }
            self.eval_range(s, e)?;
            if self.exited {
                break;
            }
        }
        Ok(())
    }

    fn source(&mut self, args: &[Word], at: usize) -> Result<()> {
        let a = self.options("source", args, &[], &["-encoding"]);
        let Some(w) = a.pos.first() else {
            self.warn_at(at, "`source` without a file");
            return Ok(());
        };
        // Like add_files: relative to the directory vitis_hls runs in, assumed the main script's.
        let path = resolve(&self.cwd, &w.text);
        match super::read_text(&path) {
            Ok(text) => self.eval_script(Rc::new(Script::new(path, text))),
            Err(e) => {
                // Vitis writes `source directives.tcl` into every solution's script, and
                // repositories often leave the file out: say what is lost, not how to name a
                // project file (read_text's advice, for the main one).
                let why = match std::fs::metadata(&path) {
                    Err(m) if m.kind() == std::io::ErrorKind::NotFound => "no such file".to_string(),
                    _ => e.message,
                };
                let msg = format!(
                    "cannot source {}: {why}; its commands (directives such as set_directive_pipeline) were not \
                     read, so the estimate goes without them: put the file there if the solution used it",
                    path.display()
                );
                self.warn_at(w.start, msg);
                Ok(())
            }
        }
    }

    fn set_var(&mut self, name: &str, value: String, at: usize) -> std::result::Result<(), TclError> {
        if value.len() > MAX_WORD_BYTES {
            return Err(TclError::new(
                at,
                format!("variable `{name}` grows past 16 MiB: this is not a project script"),
            ));
        }
        self.vars.insert(var_key(name).to_string(), value);
        Ok(())
    }

    /// Evaluate a value command; `None` (after a warning) when it cannot be.
    fn value(&mut self, name: &str, args: &[Word], at: usize) -> std::result::Result<Option<String>, TclError> {
        let a: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
        let mut warned = false;
        let v = match (name, a.as_slice()) {
            ("set", [var]) => match self.vars.get(var_key(var)) {
                Some(v) => Some(v.clone()),
                None => {
                    self.warn_at(at, format!("variable `{var}` is read before it is set"));
                    warned = true;
                    None
                }
            },
            ("set", [var, value]) => {
                self.set_var(var, value.to_string(), at)?;
                Some(value.to_string())
            }
            ("append", [var, rest @ ..]) => {
                let mut v = self.vars.get(var_key(var)).cloned().unwrap_or_default();
                rest.iter().for_each(|r| v.push_str(r));
                self.set_var(var, v.clone(), at)?;
                Some(v)
            }
            ("lappend", [var, rest @ ..]) => {
                let mut v = self.vars.get(var_key(var)).cloned().unwrap_or_default();
                for r in rest {
                    if !v.trim().is_empty() {
                        v.push(' ');
                    }
                    v.push_str(&tcl::join_list(&[r]));
                }
                self.set_var(var, v.clone(), at)?;
                Some(v)
            }
            ("unset", names) => {
                for n in names.iter().filter(|n| !n.starts_with('-')) {
                    self.vars.remove(var_key(n));
                }
                Some(String::new())
            }
            ("list", items) => Some(tcl::join_list(items)),
            ("concat", items) => {
                Some(items.iter().map(|s| s.trim()).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(" "))
            }
            ("join", [list, sep @ ..]) if sep.len() <= 1 => {
                tcl::split_list(list).ok().map(|items| items.join(sep.first().copied().unwrap_or(" ")))
            }
            ("file", [sub, rest @ ..]) => self.file_command(sub, rest),
            ("glob", args) => match super::glob::Glob::parse(args) {
                Some(g) => {
                    let found = g.matches(&self.cwd);
                    if found.is_empty() && !g.nocomplain {
                        let msg = format!(
                            "`glob {}` matches no file (relative patterns are looked for in {}); it adds nothing",
                            args.join(" "),
                            self.cwd.display()
                        );
                        self.warn_at(at, msg);
                        warned = true;
                    }
                    Some(tcl::join_list(&found.iter().map(String::as_str).collect::<Vec<_>>()))
                }
                None => None,
            },
            ("info", ["script"]) => Some(self.current().path.display().to_string()),
            ("pwd", []) => Some(self.cwd.display().to_string()),
            ("string", ["tolower", s]) => Some(s.to_lowercase()),
            ("string", ["toupper", s]) => Some(s.to_uppercase()),
            ("string", ["trim", s]) => Some(s.trim().to_string()),
            _ => None,
        };
        if v.is_none() && !warned {
            let shown = std::iter::once(name).chain(a.iter().copied()).collect::<Vec<_>>().join(" ");
            let shown: String = shown.chars().take(60).collect();
            self.warn_at(at, format!("`{shown}` is not interpreted; its result is kept as written"));
        }
        Ok(v)
    }

    fn file_command(&self, sub: &str, rest: &[&str]) -> Option<String> {
        let show = |p: &Path| p.display().to_string();
        match (sub, rest) {
            ("dirname", [p]) => Some(match Path::new(p).parent() {
                Some(d) if !d.as_os_str().is_empty() => show(d),
                Some(_) => ".".to_string(),
                None => show(Path::new(p)),
            }),
            ("tail", [p]) => {
                Some(Path::new(p).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
            }
            ("join", parts) if !parts.is_empty() => Some(show(&parts.iter().collect::<PathBuf>())),
            ("rootname", [p]) => Some(match Path::new(p).extension() {
                Some(ext) => p[..p.len() - ext.len() - 1].to_string(),
                None => p.to_string(),
            }),
            ("extension", [p]) => {
                Some(Path::new(p).extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default())
            }
            ("normalize", [p]) => Some(show(&super::normalize(&resolve(&self.cwd, p)))),
            _ => None,
        }
    }
}

impl Subst for Interp<'_> {
    fn var(&mut self, name: &str, at: usize) -> Option<String> {
        let key = var_key(name);
        if let Some(v) = self.vars.get(key) {
            return Some(v.clone());
        }
        if let Some(env) = key.strip_prefix("env(").and_then(|s| s.strip_suffix(')')) {
            if let Ok(v) = std::env::var(env) {
                return Some(v);
            }
            self.warn_at(at, format!("environment variable `{env}` is not set; `${name}` is kept as written"));
            return None;
        }
        self.warn_at(at, format!("`${name}` is not set by a plain `set` earlier in the script; it is kept as written"));
        None
    }

    fn bracket(&mut self, commands: Vec<Command>, at: usize) -> std::result::Result<Option<String>, TclError> {
        let mut last = Some(String::new());
        for c in commands {
            self.step(c.start)?;
            let words = self.expand(c.words);
            let Some(first) = words.first() else {
                last = Some(String::new());
                continue;
            };
            let name = first.text.trim_start_matches("::").to_string();
            if !VALUE_COMMANDS.contains(&name.as_str()) {
                self.warn_at(
                    at,
                    format!(
                        "`[{name} ...]` is not evaluated (only `set`, `list`, `file ...`, `glob`, `info script`, `pwd` and \
                         a few more are); it is kept as written"
                    ),
                );
                return Ok(None);
            }
            last = self.value(&name, &words[1..], c.start)?;
            if last.is_none() {
                return Ok(None);
            }
        }
        Ok(last)
    }
}
