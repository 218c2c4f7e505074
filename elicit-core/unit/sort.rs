//! Unit tests of `sort`, beside the crate's sources so that they reach its private items.

#[test]
fn equal_items_keep_their_order() {
    let keys = [3u8, 1, 3, 0, 1, 3, 2, 0];
    let mut items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
    let mut expected = items.clone();
    expected.sort_by_key(|&(key, _)| key);
    super::stable(&mut items, &|a, b| a.0.cmp(&b.0));
    assert_eq!(items, expected);
}
