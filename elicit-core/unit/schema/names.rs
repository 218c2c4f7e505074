//! Unit tests of `schema::names`, beside the crate's sources so that they reach its private items.

use super::same;

/// Every length either side of the word sizes, with one letter's case changed at every
/// position.
#[test]
fn same_sees_every_byte() {
    for len in 0..=20u8 {
        let a: String = (0..len).map(|i| char::from(b'a' + i)).collect();
        assert!(same(&a, &a.clone()), "{len} bytes");
        if len > 0 {
            assert!(!same(&a, &a[1..]), "{len} bytes and one fewer");
        }
        for at in 0..a.len() {
            let mut b = a.clone().into_bytes();
            b[at] = b[at].to_ascii_uppercase();
            let b = String::from_utf8(b).unwrap();
            assert!(!same(&a, &b), "{len} bytes, byte {at} changed");
        }
    }
}
