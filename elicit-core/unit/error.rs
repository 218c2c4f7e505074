//! Unit tests of `error`, beside the crate's sources so that they reach its private items.

use super::Size;

#[test]
fn sizes_read_as_a_person_reads_them() {
    let said = |n| Size(n).to_string();
    assert_eq!(said(1 << 20), "1 MiB");
    assert_eq!(said(64 << 10), "64 KiB");
    assert_eq!(said(65_537), "65,537 bytes");
    assert_eq!(said(999), "999 bytes");
    assert_eq!(said(0), "0 bytes");
}
