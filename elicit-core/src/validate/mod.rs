//! Validation of accepted content against a [`RequestedSchema`], done while the content is
//! deserialized.
//!
//! There is one implementation of the rules ([`check`]). The adapters in [`adapter`] wrap any
//! serde `Deserializer` so that every value passes through those rules on its way into the
//! target: a user's type `T` on the typed path, a [`Content`](crate::Content) on the runtime
//! path, or nothing but the list of violations on the report pass and in `validate_content`.
//!
//! A broken rule is recorded in a [`Sink`] and the value is still handed on, so one pass finds
//! every violation that does not stop the target's own deserializer.

pub(crate) mod adapter;
mod check;
pub(crate) mod envelope;
pub(crate) mod fast;
pub mod format;
pub(crate) mod run;
mod slots;
mod typed;

use std::cell::{Cell, RefCell};

use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::model::RequestedSchema;

/// Where violations found during one parse are collected.
pub(crate) struct Sink<'s> {
    pub(crate) schema: &'s RequestedSchema,
    pub(crate) max_string_bytes: usize,
    violations: RefCell<Vec<Violation>>,
    /// How many violations are kept; past it they are only counted.
    max_violations: usize,
    /// Violations found past `max_violations`.
    dropped: Cell<usize>,
    /// The pattern work left for this reply.
    pattern_work: Cell<u64>,
    /// The property whose value is being read, to name it in an error from the target type.
    current: Cell<Option<usize>>,
}

impl<'s> Sink<'s> {
    pub(crate) fn new(schema: &'s RequestedSchema) -> Self {
        Self::with_limits(schema, &Limits::DEFAULT)
    }

    pub(crate) fn with_limits(schema: &'s RequestedSchema, limits: &Limits) -> Self {
        Sink {
            schema,
            max_string_bytes: limits.max_string_bytes(),
            violations: RefCell::new(Vec::new()),
            max_violations: limits.max_violations(),
            dropped: Cell::new(0),
            pattern_work: Cell::new(limits.max_pattern_work()),
            current: Cell::new(None),
        }
    }

    pub(crate) fn push(&self, location: Location, rule: Rule, received: Option<String>) {
        let mut violations = self.violations.borrow_mut();
        if violations.len() < self.max_violations {
            violations.push(Violation::new(location, rule, received));
        } else {
            self.dropped.set(self.dropped.get() + 1);
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.violations.borrow().is_empty()
    }

    /// Takes `work` from what is left of the reply's pattern work; `false` when there is not
    /// enough, so the search must not run.
    pub(crate) fn spend_pattern_work(&self, work: u64) -> bool {
        let left = self.pattern_work.get();
        self.pattern_work.set(left.saturating_sub(work));
        work <= left
    }

    /// The property whose key was read last, if the schema names it.
    pub(crate) fn current(&self) -> Option<usize> {
        self.current.get()
    }

    pub(crate) fn set_current(&self, index: Option<usize>) {
        self.current.set(index);
    }

    /// Where an error the rules did not foresee happened: the property being read, if any.
    pub(crate) fn current_location(&self) -> Location {
        match self.current.get() {
            Some(i) => Location::Property(self.schema.properties[i].name.clone()),
            None => Location::Envelope,
        }
    }

    /// The violations, in form order: envelope first, then by property as declared, whatever
    /// order the client wrote the keys in; then how many more were found, if any.
    pub(crate) fn take(&self) -> Vec<Violation> {
        let mut violations = std::mem::take(&mut *self.violations.borrow_mut());
        in_form_order(self.schema, &mut violations);
        let dropped = self.dropped.replace(0);
        if dropped > 0 {
            violations.push(Violation::new(Location::Content, Rule::More(dropped), None));
        }
        violations
    }

    pub(crate) fn into_error(self) -> ElicitError {
        ElicitError::new(self.take())
    }
}

/// The rules `value` breaks as the value of property `index` alone: its own rules, not
/// `required` nor any other property's.
pub(crate) fn check_one(
    schema: &RequestedSchema,
    index: usize,
    value: &serde_json::Value,
) -> Vec<Violation> {
    use serde::Deserialize;

    let sink = Sink::new(schema);
    let Some(prop) = schema.properties.get(index) else {
        return Vec::new();
    };
    sink.set_current(Some(index));
    let read = serde::de::IgnoredAny::deserialize(adapter::Checked {
        target: check::Target::Prop(prop),
        sink: &sink,
        inner: value,
    });
    let mut violations = sink.take();
    if let Err(e) = read
        && violations.is_empty()
    {
        violations.push(Violation::new(
            Location::Property(prop.name.clone()),
            Rule::Deserialize(e.to_string()),
            None,
        ));
    }
    violations
}

/// Runs a form's server-side rules (`#[elicit(validate = ..)]`) through `validate`: the error
/// lists what they find in form order, `schema` being the form's. Not generic.
#[inline]
pub(crate) fn server_rules(
    schema: fn() -> &'static RequestedSchema,
    validate: &dyn Fn(&mut Vec<Violation>),
) -> Result<(), ElicitError> {
    let mut violations = Vec::new();
    validate(&mut violations);
    if violations.is_empty() {
        return Ok(());
    }
    in_form_order(schema(), &mut violations);
    Err(ElicitError::new(violations))
}

/// Sorts violations envelope first, then content-wide ones, then by property as declared.
pub(crate) fn in_form_order(schema: &RequestedSchema, violations: &mut [Violation]) {
    violations.sort_by_key(|v| match v.property() {
        None if *v.location() == Location::Content => 1,
        None => 0,
        Some(name) => schema.position(name).map_or(usize::MAX, |i| i + 2),
    });
}

/// A set of indices (properties of a form, choices of a multi-select). Up to 64 it is one word.
/// Past that, a multi-select's set holds only the indices inserted ([`BitSet::new`]), so that
/// each of many values costs its own items, not its choices; a form's set of properties, one per
/// reply, is a bitmap grown to the highest index inserted ([`BitSet::dense`]): a bit per
/// property, never more than the schema's size over 8 in bytes.
pub(crate) enum BitSet {
    Small(u64),
    /// Out of line, so that the common set is two words.
    Large(Box<Large>),
}

pub(crate) enum Large {
    Sparse(std::collections::HashSet<usize>),
    Dense(Vec<u64>),
}

impl BitSet {
    /// A set that holds only what is inserted, for the choices of one multi-select value.
    #[inline]
    pub(crate) fn new(size: usize) -> Self {
        if size <= 64 {
            BitSet::Small(0)
        } else {
            BitSet::Large(Box::new(Large::Sparse(std::collections::HashSet::new())))
        }
    }

    /// A bitmap, for the properties of one reply.
    #[inline]
    pub(crate) fn dense(size: usize) -> Self {
        if size <= 64 {
            BitSet::Small(0)
        } else {
            BitSet::Large(Box::new(Large::Dense(Vec::new())))
        }
    }

    /// Inserts `i`; returns whether it was already present. The word inline, the set out of
    /// line: every key of a reply comes here.
    #[inline]
    pub(crate) fn insert(&mut self, i: usize) -> bool {
        match self {
            BitSet::Small(bits) => {
                let mask = 1u64 << i;
                let had = *bits & mask != 0;
                *bits |= mask;
                had
            }
            BitSet::Large(set) => set.insert(i),
        }
    }

    /// Whether every index set in `mask` is present, for a set of up to 64 indices; `false` for
    /// a larger one, whose form has no required mask (callers then check one by one).
    pub(crate) fn covers(&self, mask: u64) -> bool {
        match self {
            BitSet::Small(bits) => bits & mask == mask,
            BitSet::Large(_) => false,
        }
    }

    pub(crate) fn contains(&self, i: usize) -> bool {
        match self {
            BitSet::Small(bits) => bits & (1u64 << i) != 0,
            BitSet::Large(set) => match &**set {
                Large::Sparse(set) => set.contains(&i),
                Large::Dense(words) => words.get(i / 64).is_some_and(|w| w & (1 << (i % 64)) != 0),
            },
        }
    }
}

impl Large {
    #[inline(never)]
    fn insert(&mut self, i: usize) -> bool {
        match self {
            Large::Sparse(set) => !set.insert(i),
            Large::Dense(words) => {
                let word = i / 64;
                if word >= words.len() {
                    words.resize(word + 1, 0);
                }
                let mask = 1u64 << (i % 64);
                let had = words[word] & mask != 0;
                words[word] |= mask;
                had
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BitSet;

    /// Both kinds of large set, and the one word, answer alike: a first insert is new, a second
    /// is not, and membership follows.
    #[test]
    fn every_kind_of_set_holds_what_was_inserted() {
        for (size, mut set) in [
            (64, BitSet::new(64)),
            (70_000, BitSet::new(70_000)),
            (70_000, BitSet::dense(70_000)),
        ] {
            let picks: Vec<usize> = [0, 1, 63, 64, 65, 127, 128, 69_999]
                .into_iter()
                .filter(|&i| i < size)
                .collect();
            for &i in &picks {
                assert!(!set.contains(i), "{size}: {i}");
                assert!(!set.insert(i), "{size}: {i} was new");
                assert!(set.insert(i), "{size}: {i} was there");
                assert!(set.contains(i), "{size}: {i}");
            }
            let absent = [2, 62, 66, 129, 69_998].into_iter().filter(|&i| i < size);
            for i in absent {
                assert!(!set.contains(i), "{size}: {i}");
            }
        }
        let mut dense = BitSet::dense(1_000);
        dense.insert(5);
        assert!(!dense.covers(1 << 5), "past 64, callers check one by one");
    }
}
