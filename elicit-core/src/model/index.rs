//! Finding a property by its wire name in a few instructions, whatever order keys arrive in:
//! [`KeyIndex`], an open-addressing table of property indices (and, for long choice lists, of
//! choice indices), keyed by a hash of every byte of the name, seeded once per process, so no
//! set of names can be chosen in advance to pile into one slot. Before it, a reader compares the
//! key with the property declared next ([`RequestedSchema::guess_after`]), then with the one
//! declared after that and the one whose name sorts next ([`RequestedSchema::find_after`]): the
//! orders clients write.
//!
//! [`RequestedSchema::guess_after`]: super::RequestedSchema::guess_after
//! [`RequestedSchema::find_after`]: super::RequestedSchema::find_after

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

/// Maps a name to its index in a list.
#[derive(Debug, Clone, Default)]
pub(crate) struct KeyIndex {
    /// Index + 1 per slot; 0 is empty. Length is a power of two, at least twice the names.
    slots: Box<[u32]>,
    /// How far the slot index is shifted down from the hash: the table takes the hash's top
    /// bits, which every byte of the key reaches.
    shift: u32,
}

/// The per-process seed of [`hash`].
fn seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    static SEED: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *SEED.get_or_init(|| RandomState::new().hash_one(0x656c_6963_6974u64))
}

/// Folds a 128-bit product: each bit of either side reaches every bit of the result.
#[inline]
fn mix(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// A hash of every byte of `key`, eight at a time, seeded per process.
#[inline]
pub(crate) fn hash(key: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = seed() ^ (key.len() as u64).wrapping_mul(K);
    let mut chunks = key.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        h = mix(h ^ word, K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut word = [0u8; 8];
        word[..rest.len()].copy_from_slice(rest);
        h = mix(h ^ u64::from_le_bytes(word), K);
    }
    mix(h, K ^ 0x2545_F491_4F6C_DD1D)
}

impl KeyIndex {
    pub(crate) fn new<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> Self {
        let len = names.len();
        let size = (len * 2).next_power_of_two().max(4);
        let mut slots = vec![0u32; size].into_boxed_slice();
        let shift = 64 - size.trailing_zeros();
        let mask = size - 1;
        for (i, name) in names.enumerate() {
            let mut slot = (hash(name.as_bytes()) >> shift) as usize;
            while slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            // More than u32::MAX - 1 names cannot be held in memory anyway.
            slots[slot] = u32::try_from(i + 1).unwrap_or(u32::MAX);
        }
        KeyIndex { slots, shift }
    }

    /// The index of `key`, checked with `name_of`; `None` when absent.
    #[inline]
    pub(crate) fn find<'a>(&self, key: &str, name_of: impl Fn(usize) -> &'a str) -> Option<usize> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = (hash(key.as_bytes()) >> self.shift) as usize;
        loop {
            match self.slots[slot] {
                0 => return None,
                entry => {
                    let i = (entry - 1) as usize;
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
    use super::{KeyIndex, hash, same_bytes};

    /// Names that differ only in their middle bytes, or share a long prefix, spread over the
    /// table: probes are as short as a random hash gives. (The old hash took its slot from bits
    /// only the length and the last chunk reached, so `p0000000…` names formed one cluster.)
    /// The seed differs per process, so the bounds hold for any seed: at half load, linear
    /// probing with a random hash averages 1.5 probes per name, and a run of 128 occupied slots
    /// has a chance of about 10^-7 per table.
    #[test]
    fn names_alike_spread_over_the_table() {
        for names in [
            (0..4096).map(|i| format!("p{i:07}x")).collect::<Vec<_>>(),
            (0..4096)
                .map(|i| format!("{}{i}", "a".repeat(40)))
                .collect(),
            (0..4096)
                .map(|i| format!("{i:04}{}", "z".repeat(20)))
                .collect(),
        ] {
            let index = KeyIndex::new(names.iter().map(String::as_str));
            let size = index.slots.len();
            let mask = size - 1;
            let probes: Vec<usize> = names
                .iter()
                .map(|name| {
                    let home = (hash(name.as_bytes()) >> index.shift) as usize;
                    let mut slot = home;
                    let mut probes = 1;
                    while names[(index.slots[slot] - 1) as usize] != *name {
                        slot = (slot + 1) & mask;
                        probes += 1;
                    }
                    probes
                })
                .collect();
            let longest = probes.iter().copied().max().unwrap_or(0);
            let mean = probes.iter().sum::<usize>() as f64 / probes.len() as f64;
            assert!(
                mean < 2.5 && longest < 128,
                "probes of {mean:.2} on average, {longest} at most, for {:?}",
                &names[..2]
            );
            for (i, name) in names.iter().enumerate() {
                assert_eq!(index.find(name, |j| names[j].as_str()), Some(i));
            }
            assert_eq!(index.find("absent", |j| names[j].as_str()), None);
        }
    }

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
