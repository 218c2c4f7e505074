//! One stable sort for the whole crate, of positions. Each element type sorted directly
//! becomes its own copy of the standard library's sort in every binary, several KiB each;
//! sorting positions by a comparator keeps one copy however many types are sorted.

use std::cmp::Ordering;

/// Sorts `items` by `cmp`; equal items keep their order.
pub(crate) fn stable<T>(items: &mut Vec<T>, cmp: &dyn Fn(&T, &T) -> Ordering) {
    let order = positions(items.len(), &|a, b| cmp(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// The positions `0..len`, sorted by `cmp`; equal positions keep their order.
fn positions(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

#[cfg(test)]
mod tests {
    #[test]
    fn equal_items_keep_their_order() {
        let keys = [3u8, 1, 3, 0, 1, 3, 2, 0];
        let mut items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&(key, _)| key);
        super::stable(&mut items, &|a, b| a.0.cmp(&b.0));
        assert_eq!(items, expected);
    }
}
