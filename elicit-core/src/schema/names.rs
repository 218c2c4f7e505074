//! A schema's names, found by a reply's keys and values.

/// Names and their positions, sorted for a search by halves. A sorted list needs no hash seed:
/// it holds only the schema's own names, and a reply's keys are only looked up in it, never
/// added. Shorter names sort first, so most comparisons stop at the length.
#[derive(Debug, Clone, Default)]
pub(super) struct Names(Vec<(Box<str>, usize)>);

impl Names {
    /// The positions of `names`; a repeated name keeps its first.
    pub(super) fn new<'a>(names: impl Iterator<Item = &'a str>) -> Names {
        let mut sorted: Vec<(Box<str>, usize)> =
            names.enumerate().map(|(i, n)| (n.into(), i)).collect();
        crate::sort::stable(&mut sorted, &|(a, _), (b, _)| order(a, b));
        sorted.dedup_by(|(later, _), (first, _)| later == first);
        Names(sorted)
    }

    /// The position of `key`. A few names are read in turn, which is cheaper than halving
    /// for a form's usual handful of choices.
    pub(super) fn find(&self, key: &str) -> Option<usize> {
        if self.0.len() <= 8 {
            return self.0.iter().find(|(n, _)| &**n == key).map(|&(_, i)| i);
        }
        let at = self.0.binary_search_by(|(n, _)| order(n, key)).ok()?;
        Some(self.0[at].1)
    }
}

/// Shorter first, then by bytes.
fn order(a: &str, b: &str) -> std::cmp::Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}
