//! Maps keyed by probe ids, thread numbers and site indexes, which the analysis looks up
//! several times per record of a log that may hold 10^8 of them: SipHash was a fifth of the
//! replay's time, and a lookup in an array is cheaper still.

use std::collections::HashMap;

/// A hash map with [`IdHasher`].
pub type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<IdHasher>>;
/// A hash set with [`IdHasher`].
pub type FastSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<IdHasher>>;

/// Multiply-rotate hashing of small integers (as rustc's FxHasher); not for untrusted keys
/// that an attacker picks to collide, which probe ids and indexes are not worth doing.
#[derive(Default, Clone, Copy)]
pub struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    fn write_isize(&mut self, v: isize) {
        self.write_u64(v as u64);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
}

/// Values by probe id: an array for the ids below a bound that grows with the entries (the
/// rewriter numbers probes from 0, so all of them), a hash map for any others (a hand-edited
/// manifest's id 4 000 000 000 must not make a 4-billion-entry array).
#[derive(Debug, Clone)]
pub struct IdTable<T> {
    dense: Vec<Option<T>>,
    sparse: FastMap<u32, T>,
}

impl<T> Default for IdTable<T> {
    fn default() -> Self {
        IdTable { dense: Vec::new(), sparse: FastMap::default() }
    }
}

impl<T: Copy> IdTable<T> {
    /// The table of `entries` (a repeated id keeps its last value, as collecting a map does).
    pub fn new(entries: impl IntoIterator<Item = (u32, T)>) -> Self {
        let entries: Vec<(u32, T)> = entries.into_iter().collect();
        let bound = 4 * entries.len() + 1024;
        let mut t = IdTable::default();
        for (id, v) in entries {
            let i = id as usize;
            if i < bound {
                if t.dense.len() <= i {
                    t.dense.resize(i + 1, None);
                }
                t.dense[i] = Some(v);
            } else {
                t.sparse.insert(id, v);
            }
        }
        t
    }

    #[inline]
    pub fn get(&self, id: u32) -> Option<T> {
        match self.dense.get(id as usize) {
            Some(v) => *v,
            None if self.sparse.is_empty() => None,
            None => self.sparse.get(&id).copied(),
        }
    }
}

/// Values by an id that a log names (probe ids): an array for ids below a bound, grown as they
/// come, a map above it (an id from a corrupt log must not make a huge array). Every id reads
/// as `T::default()` until set, so counts and flags need no `Option`.
#[derive(Debug, Clone)]
pub struct IdVec<T> {
    dense: Vec<T>,
    sparse: FastMap<u32, T>,
    bound: usize,
}

impl<T: Default> Default for IdVec<T> {
    fn default() -> Self {
        IdVec::with_bound(1024)
    }
}

impl<T: Default> IdVec<T> {
    /// Ids below `bound` go to the array (`4 × probes + 1024`, as [`IdTable`] takes).
    pub fn with_bound(bound: usize) -> Self {
        IdVec { dense: Vec::new(), sparse: FastMap::default(), bound }
    }

    #[inline]
    pub fn get_mut(&mut self, id: u32) -> &mut T {
        let i = id as usize;
        if i < self.dense.len() {
            return &mut self.dense[i];
        }
        self.grow(id)
    }

    #[cold]
    fn grow(&mut self, id: u32) -> &mut T {
        let i = id as usize;
        if i < self.bound {
            self.dense.resize_with(i + 1, T::default);
            return &mut self.dense[i];
        }
        self.sparse.entry(id).or_default()
    }

    /// The value of `id`, `None` when it was never set.
    pub fn get(&self, id: u32) -> Option<&T> {
        match self.dense.get(id as usize) {
            Some(v) => Some(v),
            None => self.sparse.get(&id),
        }
    }

    /// Every id set (and, below the largest set in the array, unset ones as defaults).
    pub fn iter(&self) -> impl Iterator<Item = (u32, &T)> {
        self.dense.iter().enumerate().map(|(i, v)| (i as u32, v)).chain(self.sparse.iter().map(|(&k, v)| (k, v)))
    }
}

/// A stack [`ThreadStacks`] keeps per thread (a `Vec`, or one that reuses its slots).
pub trait Stack: Default {
    fn is_empty(&self) -> bool;
}

impl<T> Stack for Vec<T> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

/// Per-thread stacks with the current thread's at hand: a log's records come in runs of one
/// thread, so the lookup per record is a compare. A thread's stack that is empty when another
/// thread's records come goes (testbenches may start a thread per call).
#[derive(Debug)]
pub struct ThreadStacks<S> {
    thread: u32,
    current: S,
    others: FastMap<u32, S>,
}

impl<S: Stack> Default for ThreadStacks<S> {
    fn default() -> Self {
        ThreadStacks { thread: 0, current: S::default(), others: FastMap::default() }
    }
}

impl<S: Stack> ThreadStacks<S> {
    #[inline]
    pub fn get(&mut self, thread: u32) -> &mut S {
        if thread != self.thread {
            self.switch(thread);
        }
        &mut self.current
    }

    #[cold]
    fn switch(&mut self, thread: u32) {
        let next = self.others.remove(&thread).unwrap_or_default();
        let previous = std::mem::replace(&mut self.current, next);
        if !previous.is_empty() {
            self.others.insert(self.thread, previous);
        }
        self.thread = thread;
    }

    /// Every thread's non-empty stack, in no order.
    pub fn into_stacks(self) -> impl Iterator<Item = (u32, S)> {
        std::iter::once((self.thread, self.current)).chain(self.others).filter(|(_, s)| !s.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_table_finds_dense_and_far_ids_and_keeps_the_last_of_a_repeat() {
        let t = IdTable::new([(0, 'a'), (3, 'b'), (3, 'c'), (4_000_000_000, 'd')]);
        assert_eq!(
            [t.get(0), t.get(1), t.get(3), t.get(4_000_000_000), t.get(7)],
            [Some('a'), None, Some('c'), Some('d'), None]
        );
        assert!(t.dense.len() < 10, "a far id goes to the map");
    }

    #[test]
    fn an_id_vec_reads_unset_ids_as_default_and_keeps_far_ids_in_its_map() {
        let mut v: IdVec<u64> = IdVec::with_bound(16);
        *v.get_mut(3) += 2;
        *v.get_mut(4_000_000_000) += 5;
        assert_eq!((v.get(3), v.get(1), v.get(9), v.get(4_000_000_000)), (Some(&2), Some(&0), None, Some(&5)));
        assert!(v.dense.len() <= 16);
        assert_eq!(v.iter().filter(|(_, &n)| n > 0).count(), 2);
    }

    #[test]
    fn thread_stacks_keep_each_threads_stack_and_drop_empty_ones() {
        let mut s: ThreadStacks<Vec<u32>> = ThreadStacks::default();
        s.get(0).push(1);
        s.get(7).push(2);
        s.get(7).push(3);
        assert_eq!(s.get(0).pop(), Some(1));
        s.get(9).push(4); // thread 0's empty stack goes
        assert!(!s.others.contains_key(&0));
        let mut all: Vec<_> = s.into_stacks().collect();
        all.sort();
        assert_eq!(all, vec![(7, vec![2, 3]), (9, vec![4])]);
    }
}
