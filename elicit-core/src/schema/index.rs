//! Finding a property by its wire name in a few instructions, whatever order keys arrive in.
//!
//! Two parts, built once per schema:
//! - [`KeyIndex`], a small open-addressing table of property indices, keyed by a multiplicative
//!   hash of the name's length and bytes;
//! - [`Successors`], which remembers, for each property, the one that followed it in the last
//!   reply. A client sends its keys in the same order every time, so after the first reply the
//!   guess is right and a lookup is one comparison.

use std::sync::atomic::{AtomicU16, Ordering};

/// For each property (and the start of a reply), the property that followed it last time.
#[derive(Debug, Default)]
pub(crate) struct Successors {
    /// Slot 0 is the start of a reply; slot `i + 1` follows property `i`. Holds an index.
    next: Box<[AtomicU16]>,
}

impl Successors {
    pub(crate) fn new(len: usize) -> Self {
        // Before any reply, guess declaration order: property i is followed by i + 1.
        let next = (0..=len)
            .map(|slot| AtomicU16::new(u16::try_from(slot).unwrap_or(0)))
            .collect();
        Successors { next }
    }

    /// The property expected after `previous` (`None`: the first key of a reply).
    #[inline]
    pub(crate) fn guess(&self, previous: Option<usize>) -> usize {
        let slot = previous.map_or(0, |p| p + 1);
        self.next
            .get(slot)
            .map_or(usize::MAX, |n| usize::from(n.load(Ordering::Relaxed)))
    }

    /// Remembers that `found` followed `previous`.
    #[inline]
    pub(crate) fn learn(&self, previous: Option<usize>, found: usize) {
        let slot = previous.map_or(0, |p| p + 1);
        if let (Some(n), Ok(found)) = (self.next.get(slot), u16::try_from(found)) {
            n.store(found, Ordering::Relaxed);
        }
    }
}

impl Clone for Successors {
    fn clone(&self) -> Self {
        Successors::new(self.next.len().saturating_sub(1))
    }
}

/// Whether two byte strings are equal. Keys are short, so up to 16 bytes this is at most three
/// byte or two overlapping word compares, with no call and no loop.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], at: usize| u64::from_ne_bytes(s[at..at + 8].try_into().unwrap_or([0; 8]));
    let half = |s: &[u8], at: usize| u32::from_ne_bytes(s[at..at + 4].try_into().unwrap_or([0; 4]));
    match n {
        0 => true,
        // The first, middle and last bytes cover every byte of a string of up to three.
        1..4 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..8 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

/// Maps a property name to its index.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyIndex {
    /// Property index + 1 per slot; 0 is empty. Length is a power of two.
    slots: Box<[u16]>,
}

fn hash(key: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = (key.len() as u64).wrapping_mul(K);
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    h
}

impl KeyIndex {
    pub(crate) fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Self {
        let len = names.len();
        // Past u16 properties the table stays empty and lookups scan instead.
        if len >= usize::from(u16::MAX) {
            return KeyIndex::default();
        }
        let size = (len * 2).next_power_of_two().max(4);
        let mut slots = vec![0u16; size].into_boxed_slice();
        let mask = size - 1;
        for (i, name) in names.enumerate() {
            let mut slot = hash(name.as_bytes()) as usize & mask;
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            slots[slot] = (i + 1) as u16;
        }
        KeyIndex { slots }
    }

    /// Whether the table holds nothing (no properties, or more than it can index).
    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The index of `key`, checked with `name_of`; `None` when absent.
    #[inline]
    pub(crate) fn find<'a>(&self, key: &str, name_of: impl Fn(usize) -> &'a str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = hash(key.as_bytes()) as usize & mask;
        loop {
            match self.slots[slot] {
                0 => return None,
                entry => {
                    let i = usize::from(entry - 1);
                    if name_of(i) == key {
                        return Some(i);
                    }
                }
            }
            slot = (slot + 1) & mask;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::same_bytes;

    /// Every length up to 24, against an equal string and against one byte changed at every
    /// position, and against a string one byte longer.
    #[test]
    fn same_bytes_is_equality() {
        for n in 0..24 {
            let a: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(same_bytes(&a, &a.clone()), "{n}");
            for at in 0..n {
                let mut b = a.clone();
                b[at] ^= 0x20;
                assert!(!same_bytes(&a, &b), "{n} bytes, differing at {at}");
            }
            let mut longer = a.clone();
            longer.push(b'z');
            assert!(!same_bytes(&a, &longer), "{n}");
        }
    }
}
