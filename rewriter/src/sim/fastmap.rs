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
}
