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
#[path = "../unit/sort.rs"]
mod tests;
