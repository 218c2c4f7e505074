//! The rules: what a property of each kind accepts. Every path that reads content goes through
//! the visitor here, so there is one copy of them.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::adapter::Checked;
use super::{BitSet, Sink, format};
use crate::error::{Location, Rule};
use crate::model::{Bound, Kind, Num, Pattern, Property};

/// What is being checked: a property's value, or one item of a multi-select. Two words, as it
/// is moved with every value.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    Prop(&'a Property),
    Item(&'a Item<'a>),
}

/// One item of a multi-select: its property, its position, and the choices seen before it.
pub(crate) struct Item<'a> {
    prop: &'a Property,
    index: usize,
    seen: &'a RefCell<BitSet>,
}

impl Target<'_> {
    fn location(&self) -> Location {
        match *self {
            Target::Prop(p) => Location::Property(p.name.clone()),
            Target::Item(item) => Location::Item(item.prop.name.clone(), item.index),
        }
    }

    fn expected(&self) -> &'static str {
        match *self {
            Target::Prop(p) => p.kind.json_type(),
            Target::Item(_) => "string",
        }
    }
}

/// What the target type asked the deserializer for, where it changes how a value is handed on.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hint {
    Any,
    /// A unit enum: a valid string is handed on as an enum variant.
    Enum,
}

/// Checks each value against its target's rules, records what it breaks, and hands the value on
/// to the wrapped visitor.
pub(crate) struct Check<'a, 's, V> {
    pub(crate) target: Target<'a>,
    pub(crate) sink: &'a Sink<'s>,
    pub(crate) hint: Hint,
    pub(crate) visitor: V,
}

fn quoted(s: &str) -> String {
    // Enough of the string to show, quoted as JSON; a long one is cut by `Violation::new`.
    let head: String = s.chars().take(80).collect();
    serde_json::to_string(&head).unwrap_or_default()
}

// The rules are methods of `Target`, not of the generic visitor: compiled once, not once per
// visitor type of every form.
impl Target<'_> {
    #[cold]
    fn violation(&self, sink: &Sink<'_>, rule: Rule, received: String) {
        sink.push(self.location(), rule, Some(received));
    }

    #[cold]
    #[inline(never)]
    fn wrong_type(&self, sink: &Sink<'_>, received: String) {
        let expected = self.expected();
        self.violation(sink, Rule::Type { expected }, received);
    }

    #[inline(never)]
    fn check_str(&self, sink: &Sink<'_>, s: &str) {
        if s.len() > sink.max_string_bytes {
            let limit = sink.max_string_bytes;
            return self.violation(sink, Rule::TooLong(limit), quoted(s));
        }
        let prop = match *self {
            Target::Prop(p) => p,
            Target::Item(&Item { prop, seen, .. }) => {
                let Kind::MultiSelect(rules) = &prop.kind else {
                    return;
                };
                match sink.schema.choice_position(prop, s) {
                    None => self.violation(sink, Rule::NotAChoice, quoted(s)),
                    Some(i) => {
                        if seen.borrow_mut().insert(i) && rules.unique {
                            self.violation(sink, Rule::UniqueItems, quoted(s));
                        }
                    }
                }
                return;
            }
        };
        match &prop.kind {
            Kind::String(rules) => {
                if let Some(min) = rules.min_length
                    && (s.len() as u64) < min.saturating_mul(4)
                    && (s.chars().count() as u64) < min
                {
                    self.violation(sink, Rule::MinLength(min), quoted(s));
                }
                if let Some(max) = rules.max_length
                    && s.len() as u64 > max
                    && s.chars().count() as u64 > max
                {
                    self.violation(sink, Rule::MaxLength(max), quoted(s));
                }
                if let Some(f) = rules.format
                    && !format::is_valid(f, s)
                {
                    self.violation(sink, Rule::Format(f), quoted(s));
                }
                if let Some(p) = &rules.pattern {
                    self.check_pattern(sink, p, s);
                }
            }
            Kind::Select(_) => {
                if sink.schema.choice_position(prop, s).is_none() {
                    self.violation(sink, Rule::NotAChoice, quoted(s));
                }
            }
            _ => self.wrong_type(sink, quoted(s)),
        }
    }

    /// Searches `s` for `pattern`, if the reply's pattern work allows it.
    #[inline(never)]
    fn check_pattern(&self, sink: &Sink<'_>, pattern: &Pattern, s: &str) {
        let work = (s.len() as u64 + 1).saturating_mul(pattern.size() as u64);
        if !sink.spend_pattern_work(work) {
            self.violation(sink, Rule::PatternBudget, quoted(s));
        } else if !pattern.is_match(s) {
            self.violation(sink, Rule::Pattern(pattern.shared()), quoted(s));
        }
    }

    /// An integer, `n` as `wide`: the common case, a number property whose bounds hold it, inline
    /// where the value is read; the rest through [`check_num`](Self::check_num).
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn check_int(&self, sink: &Sink<'_>, n: Num, wide: i128) {
        if let Target::Prop(
            prop @ Property {
                kind: Kind::Number(_),
                ..
            },
        ) = *self
            && sink.schema.int_window(prop).contains(wide)
        {
            return;
        }
        self.check_num(sink, n);
    }

    /// Any number: records what it breaks, if anything.
    #[inline(never)]
    fn check_num(&self, sink: &Sink<'_>, n: Num) {
        if let Target::Prop(
            prop @ Property {
                kind: Kind::Number(rules),
                ..
            },
        ) = *self
        {
            let allowed = match n {
                // An integer: two comparisons against the range its bounds allow.
                Num::U(i) => sink.schema.int_window(prop).contains(i.into()),
                Num::I(i) => sink.schema.int_window(prop).contains(i.into()),
                Num::F(_) => {
                    (!rules.integer || n.is_integer())
                        && rules.minimum.is_none_or(|m| n.cmp_bound(m).is_ge())
                        && rules.maximum.is_none_or(|m| n.cmp_bound(m).is_le())
                        && rules
                            .exclusive_minimum
                            .is_none_or(|m| n.cmp_bound(m).is_gt())
                        && rules
                            .exclusive_maximum
                            .is_none_or(|m| n.cmp_bound(m).is_lt())
                }
            };
            if allowed {
                return;
            }
        }
        self.number_violations(sink, n);
    }

    /// Records what a number breaks.
    #[cold]
    #[inline(never)]
    fn number_violations(&self, sink: &Sink<'_>, n: Num) {
        let Target::Prop(Property {
            kind: Kind::Number(rules),
            ..
        }) = *self
        else {
            return self.wrong_type(sink, n.to_string());
        };
        if rules.integer && !n.is_integer() {
            return self.wrong_type(sink, n.to_string());
        }
        let check =
            |bound: Option<Bound>, broken: fn(Ordering) -> bool, rule: fn(Bound) -> Rule| {
                if let Some(bound) = bound
                    && broken(n.cmp_bound(bound))
                {
                    self.violation(sink, rule(bound), n.to_string());
                }
            };
        check(rules.minimum, Ordering::is_lt, Rule::Minimum);
        check(rules.maximum, Ordering::is_gt, Rule::Maximum);
        check(
            rules.exclusive_minimum,
            Ordering::is_le,
            Rule::ExclusiveMinimum,
        );
        check(
            rules.exclusive_maximum,
            Ordering::is_ge,
            Rule::ExclusiveMaximum,
        );
    }

    #[inline]
    fn check_bool(&self, sink: &Sink<'_>, v: bool) {
        if !matches!(
            self,
            Target::Prop(Property {
                kind: Kind::Boolean(_),
                ..
            })
        ) {
            self.wrong_type(sink, v.to_string());
        }
    }

    fn is_integer_prop(&self) -> bool {
        matches!(self, Target::Prop(Property { kind: Kind::Number(r), .. }) if r.integer)
    }

    /// The multi-select property this target is, if it is one.
    fn multi_select(&self) -> Option<&Property> {
        match *self {
            Target::Prop(
                p @ Property {
                    kind: Kind::MultiSelect(_),
                    ..
                },
            ) => Some(p),
            _ => None,
        }
    }
}

/// Checks a multi-select's item count once its items are read.
#[inline(never)]
fn check_count(sink: &Sink<'_>, prop: &Property, count: usize) {
    let Kind::MultiSelect(rules) = &prop.kind else {
        return;
    };
    let n = count as u64;
    let location = || Location::Property(prop.name.clone());
    if let Some(min) = rules.min_items
        && n < min
    {
        sink.push(location(), Rule::MinItems(min), Some(format!("{n} items")));
    }
    if let Some(max) = rules.max_items
        && n > max
    {
        sink.push(location(), Rule::MaxItems(max), Some(format!("{n} items")));
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Check<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.target.check_bool(self.sink, v);
        self.visitor.visit_bool(v)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.target.check_int(self.sink, Num::I(v), v.into());
        self.visitor.visit_i64(v)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.target.check_int(self.sink, Num::U(v), v.into());
        self.visitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.target.check_num(self.sink, Num::F(v));
        // `30.0` is an integer in JSON Schema; hand it to integer types as one.
        if self.target.is_integer_prop() && v.fract() == 0.0 {
            if (0.0..18_446_744_073_709_551_616.0).contains(&v) {
                return self.visitor.visit_u64(v as u64);
            }
            if (-9_223_372_036_854_775_808.0..0.0).contains(&v) {
                return self.visitor.visit_i64(v as i64);
            }
        }
        self.visitor.visit_f64(v)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.target.check_str(self.sink, v);
        match self.hint {
            Hint::Enum => self.visitor.visit_enum(StrDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_str(v),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.target.check_str(self.sink, v);
        match self.hint {
            Hint::Enum => self
                .visitor
                .visit_enum(BorrowedStrDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_borrowed_str(v),
        }
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.target.check_str(self.sink, &v);
        match self.hint {
            Hint::Enum => self.visitor.visit_enum(StringDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_string(v),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.target.wrong_type(self.sink, "null".into());
        self.visitor.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.target.wrong_type(self.sink, "null".into());
        self.visitor.visit_none()
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.target.wrong_type(self.sink, "an object".into());
        self.visitor.visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let Some(prop) = self.target.multi_select() else {
            self.target.wrong_type(self.sink, "an array".into());
            return self.visitor.visit_seq(seq);
        };
        let choices = match &prop.kind {
            Kind::MultiSelect(rules) => rules.choices.len(),
            _ => 0,
        };
        let count = Cell::new(0usize);
        let seen = RefCell::new(BitSet::new(choices));
        let value = self.visitor.visit_seq(Items {
            inner: seq,
            prop,
            sink: self.sink,
            count: &count,
            seen: &seen,
        })?;
        check_count(self.sink, prop, count.get());
        Ok(value)
    }
}

/// Reads any JSON number as it is written: an integer as `u64` or `i64`, anything else as
/// `f64`. What it expects, in an error, is what the target's visitor expects.
pub(crate) struct Number<'v>(pub(crate) &'v dyn de::Expected);

impl<'de> Visitor<'de> for Number<'_> {
    type Value = Num;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
        Ok(Num::U(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
        Ok(Num::I(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
        Ok(Num::F(v))
    }
}

impl<'de, V: Visitor<'de>> Check<'_, '_, V> {
    /// Checks a number read by [`Number`] and hands it on, as if it had been visited here.
    #[cfg_attr(not(debug_assertions), inline(always))]
    pub(crate) fn number<E: de::Error>(self, n: Num) -> Result<V::Value, E> {
        match n {
            Num::U(v) => self.visit_u64(v),
            Num::I(v) => self.visit_i64(v),
            Num::F(v) => self.visit_f64(v),
        }
    }
}

/// The items of a multi-select, each checked as it is read.
struct Items<'a, 's, A> {
    inner: A,
    prop: &'a Property,
    sink: &'a Sink<'s>,
    count: &'a Cell<usize>,
    seen: &'a RefCell<BitSet>,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, '_, A> {
    type Error = A::Error;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let index = self.count.get();
        let at = Item {
            prop: self.prop,
            index,
            seen: self.seen,
        };
        let item = self.inner.next_element_seed(ItemSeed {
            seed,
            target: Target::Item(&at),
            sink: self.sink,
        })?;
        if item.is_some() {
            self.count.set(index + 1);
        }
        Ok(item)
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

struct ItemSeed<'a, 's, T> {
    seed: T,
    target: Target<'a>,
    sink: &'a Sink<'s>,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for ItemSeed<'_, '_, T> {
    type Value = T::Value;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(Checked {
            target: self.target,
            sink: self.sink,
            inner: d,
        })
    }
}

/// An error that stops the target after a violation was recorded; the sink says what it was.
pub(crate) fn stop<E: de::Error>() -> E {
    E::custom("the reply breaks the requested schema")
}
