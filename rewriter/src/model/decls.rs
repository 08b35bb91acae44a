//! What a function body declares, worked out once per function and asked by the analyses of
//! each of its loops ([`super::body::add_loop_details`]). Each of those analyses used to walk
//! the whole function body for its declarations, once per loop: a function of n loops was walked
//! ~6n times, so a function of 400 small loops took 40 s to rewrite (issue 18: time must scale
//! with the input). Every answer is computed by the same walk as before, on first use, so the
//! model is the same; only the repeats are gone.

use super::ports::ArrayDecl;
use super::Param;
use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use tree_sitter::Node;

/// The declarations of one function body (with its final parameters: `arrays` leaves m_axi
/// ones out, so build it after the interfaces are marked).
pub(super) struct Decls<'a, 't> {
    pub(super) body: Node<'t>,
    pub(super) params: &'a [Param],
    pub(super) text: &'a str,
    arrays: OnceCell<Vec<ArrayDecl>>,
    local_arrays: OnceCell<Vec<ArrayDecl>>,
    names: OnceCell<Vec<String>>,
    streams: OnceCell<Vec<String>>,
    types: OnceCell<HashMap<String, String>>,
    memories: OnceCell<HashSet<String>>,
    array_names: OnceCell<HashSet<String>>,
    const_lines: OnceCell<Vec<&'a str>>,
    only_stored: RefCell<HashMap<String, bool>>,
}

impl<'a, 't> Decls<'a, 't> {
    pub(super) fn new(body: Node<'t>, params: &'a [Param], text: &'a str) -> Self {
        Decls {
            body,
            params,
            text,
            arrays: OnceCell::new(),
            local_arrays: OnceCell::new(),
            names: OnceCell::new(),
            streams: OnceCell::new(),
            types: OnceCell::new(),
            memories: OnceCell::new(),
            array_names: OnceCell::new(),
            const_lines: OnceCell::new(),
            only_stored: RefCell::new(HashMap::new()),
        }
    }

    /// The arrays the function reaches: its array and pointer parameters (not m_axi) and its
    /// local arrays ([`super::ports::arrays_of`]).
    pub(super) fn arrays(&self) -> &[ArrayDecl] {
        self.arrays.get_or_init(|| super::ports::arrays_of(self.body, self.params, self.text))
    }

    /// The local arrays alone.
    pub(super) fn local_arrays(&self) -> &[ArrayDecl] {
        self.local_arrays.get_or_init(|| super::ports::arrays_of(self.body, &[], self.text))
    }

    /// Every name the function declares, parameters first ([`super::ports::declared_names`]).
    pub(super) fn names(&self) -> &[String] {
        self.names.get_or_init(|| super::ports::declared_names(self.body, self.params, self.text))
    }

    /// The names declared with a stream type, in source order ([`super::ports::stream_names`]).
    pub(super) fn streams(&self) -> &[String] {
        self.streams.get_or_init(|| super::ports::stream_names(self.body, self.text))
    }

    /// The declared base type of each parameter and local ([`super::opchain::declared_types`]).
    pub(super) fn types(&self) -> &HashMap<String, String> {
        self.types.get_or_init(|| super::opchain::declared_types(self.body, self.params, self.text))
    }

    /// The arrays held in memory, not registers ([`super::opchain::memories`]).
    pub(super) fn memories(&self) -> &HashSet<String> {
        self.memories.get_or_init(|| super::opchain::memories(self.body, self.params, self.text))
    }

    /// The body declares `name` as an array ([`super::table::declares_local_array`]).
    pub(super) fn declares_local_array(&self, name: &str) -> bool {
        self.array_names.get_or_init(|| super::table::local_array_names(self.body, self.text)).contains(name)
    }

    /// The body's lines that say `const` or `constexpr` ([`super::table::const_lines`]).
    pub(super) fn const_lines(&self) -> &[&'a str] {
        self.const_lines.get_or_init(|| super::table::const_lines(&self.text[self.body.byte_range()]))
    }

    /// `name` is a local array only ever stored into ([`super::unread::only_stored`]).
    pub(super) fn only_stored(&self, name: &str) -> bool {
        if let Some(&known) = self.only_stored.borrow().get(name) {
            return known;
        }
        let answer = self.declares_local_array(name) && super::unread::stored_only(self.body, name, self.text);
        self.only_stored.borrow_mut().insert(name.to_string(), answer);
        answer
    }
}
