//! The visitor that holds each value to its property's rules on its way to the target.
//!
//! The rules themselves live with the schema ([`crate::schema::rules`]); this visitor reads a
//! value, hands it to them, and then to the target's own visitor.

use std::cell::RefCell;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::sink::Sink;
use crate::bound::Num;
use crate::error::{Location, Rule};
use crate::schema::rules::{self, Chosen, Found};
use crate::schema::{Blank, Kind};

/// What is being checked: the value of property `i`, or one item of multi-select `i`.
#[derive(Clone, Copy)]
pub(crate) enum Target<'a> {
    Prop(usize),
    Item(&'a Item<'a>),
}

/// One item of a multi-select: its property, its position, and the choices of the items before.
pub(crate) struct Item<'a> {
    prop: usize,
    index: usize,
    seen: &'a RefCell<Chosen>,
}

impl Target<'_> {
    fn prop(self) -> usize {
        match self {
            Target::Prop(i) => i,
            Target::Item(item) => item.prop,
        }
    }
}

/// A target in its sink: where the rules record what a value breaks.
struct Here<'a, 's> {
    target: Target<'a>,
    sink: &'a Sink<'s>,
}

impl Here<'_, '_> {
    /// `""` for property `i`. Where it is an `Option` field's blank that reached the rules, its
    /// target reads the field as text, not through `deserialize_option` (a hand-written
    /// `Deserialize`): the blank reads as not sent, so no rule judges it, and the target has it
    /// as it came.
    fn check_blank(&self, i: usize) {
        let schema = self.sink.schema;
        if schema.blank(i) != Blank::None {
            rules::check_str(schema, i, "", self);
        }
    }
}

impl Found for Here<'_, '_> {
    fn broke(&self, rule: Rule, received: String) {
        let name = self.sink.schema.properties()[self.target.prop()]
            .name
            .clone();
        let location = match self.target {
            Target::Prop(_) => Location::Property(name),
            Target::Item(item) => Location::Item(name, item.index),
        };
        self.sink.push(location, rule, Some(received));
    }

    fn spend_pattern_work(&self, work: u64) -> bool {
        self.sink.spend_pattern_work(work)
    }

    fn max_string_bytes(&self) -> usize {
        self.sink.max_string_bytes
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

impl<V> Check<'_, '_, V> {
    fn here(&self) -> Here<'_, '_> {
        Here {
            target: self.target,
            sink: self.sink,
        }
    }

    #[inline]
    fn check_str(&self, s: &str) {
        let schema = self.sink.schema;
        match self.target {
            Target::Prop(i) if s.is_empty() => self.here().check_blank(i),
            Target::Prop(i) => rules::check_str(schema, i, s, &self.here()),
            Target::Item(item) => {
                let mut seen = item.seen.borrow_mut();
                rules::check_item(schema, item.prop, s, &mut seen, &self.here());
            }
        }
    }

    fn check_num(&self, n: Num) {
        match self.target {
            Target::Prop(i) => rules::check_num(self.sink.schema, i, n, &self.here()),
            Target::Item(_) => self.wrong_item(n.to_string()),
        }
    }

    /// A value of a type no property can hold here (`null`, an object, an array outside a
    /// multi-select, anything but a string as an item).
    fn check_other(&self, received: &str) {
        match self.target {
            Target::Prop(i) => rules::check_other(self.sink.schema, i, received, &self.here()),
            Target::Item(_) => self.wrong_item(received.to_owned()),
        }
    }

    fn wrong_item(&self, received: String) {
        self.here()
            .broke(Rule::Type { expected: "string" }, received);
    }

    fn is_integer_prop(&self) -> bool {
        let Target::Prop(i) = self.target else {
            return false;
        };
        matches!(&self.sink.schema.properties()[i].kind, Kind::Number(r) if r.integer)
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Check<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.visitor.expecting(f)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        match self.target {
            Target::Prop(i) => rules::check_bool(self.sink.schema, i, v, &self.here()),
            Target::Item(_) => self.wrong_item(v.to_string()),
        }
        self.visitor.visit_bool(v)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.check_num(Num::I(v));
        self.visitor.visit_i64(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.check_num(Num::U(v));
        self.visitor.visit_u64(v)
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.check_num(Num::F(v));
        // `30.0` is an integer in JSON Schema; hand it to integer types as one.
        if self.is_integer_prop() && v.fract() == 0.0 {
            if (0.0..18_446_744_073_709_551_616.0).contains(&v) {
                return self.visitor.visit_u64(v as u64);
            }
            if (-9_223_372_036_854_775_808.0..0.0).contains(&v) {
                return self.visitor.visit_i64(v as i64);
            }
        }
        self.visitor.visit_f64(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.check_str(v);
        match self.hint {
            Hint::Enum => self.visitor.visit_enum(StrDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_str(v),
        }
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.check_str(v);
        match self.hint {
            Hint::Enum => self
                .visitor
                .visit_enum(BorrowedStrDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_borrowed_str(v),
        }
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.check_str(&v);
        match self.hint {
            Hint::Enum => self.visitor.visit_enum(StringDeserializer::<E>::new(v)),
            Hint::Any => self.visitor.visit_string(v),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        self.check_other("null");
        self.visitor.visit_unit()
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.check_other("null");
        self.visitor.visit_none()
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.check_other("an object");
        self.visitor.visit_map(map)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<V::Value, A::Error> {
        let prop = match self.target {
            Target::Prop(i)
                if matches!(self.sink.schema.properties()[i].kind, Kind::MultiSelect(_)) =>
            {
                i
            }
            _ => {
                self.check_other("an array");
                return self.visitor.visit_seq(seq);
            }
        };
        let seen = RefCell::new(Chosen::default());
        let mut items = Items {
            inner: seq,
            prop,
            sink: self.sink,
            count: 0,
            seen: &seen,
        };
        let (sink, target) = (self.sink, self.target);
        let value = self.visitor.visit_seq(&mut items)?;
        rules::check_count(sink.schema, prop, items.count, &Here { target, sink });
        Ok(value)
    }
}

/// The items of a multi-select, each checked as it is read.
struct Items<'a, 's, A> {
    inner: A,
    prop: usize,
    sink: &'a Sink<'s>,
    count: usize,
    seen: &'a RefCell<Chosen>,
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Items<'_, '_, A> {
    type Error = A::Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, A::Error> {
        let item = Item {
            prop: self.prop,
            index: self.count,
            seen: self.seen,
        };
        let read = self.inner.next_element_seed(Seeded {
            seed,
            target: Target::Item(&item),
            sink: self.sink,
        })?;
        if read.is_some() {
            self.count += 1;
        }
        Ok(read)
    }
}

/// A seed whose value is read through [`Checked`] against `target`.
pub(crate) struct Seeded<'a, 's, T> {
    pub(crate) seed: T,
    pub(crate) target: Target<'a>,
    pub(crate) sink: &'a Sink<'s>,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for Seeded<'_, '_, T> {
    type Value = T::Value;

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

/// One value, checked against its target on its way through.
pub(crate) struct Checked<'a, 's, D> {
    pub(crate) target: Target<'a>,
    pub(crate) sink: &'a Sink<'s>,
    pub(crate) inner: D,
}

impl<'a, 's, D> Checked<'a, 's, D> {
    fn check<V>(self, hint: Hint, visitor: V) -> (D, Check<'a, 's, V>) {
        let check = Check {
            target: self.target,
            sink: self.sink,
            hint,
            visitor,
        };
        (self.inner, check)
    }
}

/// Requests for one JSON type, each passed down as the same request, so the deserializer parses
/// only that type. A value of another type fails the target there, and the report pass, which
/// asks for any type, names the rule it breaks.
macro_rules! forward_typed {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let (inner, check) = self.check(Hint::Any, visitor);
                inner.$method(check)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<'_, '_, D> {
    type Error = D::Error;

    forward_typed! {
        deserialize_any deserialize_bool deserialize_str deserialize_string deserialize_seq
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    /// A present value of an `Option` field is `Some`; `null` is not a legal content value, so
    /// it reaches the rules and is refused there. Where `""` reads as not sent, a blank is
    /// `None`.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        match self.target {
            Target::Prop(i) if self.sink.schema.blank(i) != Blank::Value => {
                let (inner, check) = self.check(Hint::Any, visitor);
                inner.deserialize_str(OrBlank(check))
            }
            _ => visitor.visit_some(self),
        }
    }

    /// Every enum a form holds is a choice, written as a string: read one, and hand a valid one
    /// on as the variant it names.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Enum, visitor);
        inner.deserialize_str(check)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        visitor.visit_newtype_struct(self)
    }

    forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// The text of an `Option` field whose `""` reads as not sent: `None` for a blank, else
/// `Some` of the text, once checked. Its `Check` holds the `Option`'s visitor.
struct OrBlank<'a, 's, V>(Check<'a, 's, V>);

impl<'de, V: Visitor<'de>> Visitor<'de> for OrBlank<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        if v.is_empty() {
            return self.0.visitor.visit_none();
        }
        self.0.check_str(v);
        self.0.visitor.visit_some(BorrowedStrDeserializer::new(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        if v.is_empty() {
            return self.0.visitor.visit_none();
        }
        self.0.check_str(v);
        self.0.visitor.visit_some(StrDeserializer::new(v))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        if v.is_empty() {
            return self.0.visitor.visit_none();
        }
        self.0.check_str(&v);
        self.0.visitor.visit_some(StringDeserializer::new(v))
    }
}
