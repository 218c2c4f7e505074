//! serde adapters that put the rules of [`super::check`] between a deserializer and its target.
//!
//! - [`ContentSeed`] reads accepted `content` into any [`ReadContent`] target (`T`, the runtime's
//!   [`Content`](crate::Content), or [`Report`], which keeps nothing but the violations).
//! - [`ContentMap`] sees every key: it finds the property, refuses duplicates and unknown keys
//!   where the form asks, and at the end reports missing required properties.
//! - [`Checked`] wraps one property's value so every scalar passes through [`Check`].
//!
//! A target whose serde derive reads a field's index as well as its name (see
//! [`RequestedSchema::index_keys_for`](crate::model::RequestedSchema::index_keys_for)) is handed
//! each key the schema names as that index: the key's text is compared once, here.
//!
//! In an optimized build the per-key and per-value adapters are always inlined, so a form's
//! reader over serde_json is one function, as serde's own derive is; a debug build leaves them
//! to the compiler, so a crate of many forms compiles as fast as before.

use std::any::TypeId;
use std::fmt;
use std::marker::PhantomData;

use crate::HasDeserialize;
use serde::de::value::{
    BorrowedStrDeserializer, StrDeserializer, StringDeserializer, U64Deserializer,
};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;

use super::check::{Check, Hint, Number, Target};
use super::envelope::Envelope;
use super::fast::{GiveUp, Object};
use super::{BitSet, Sink};
use crate::error::{Location, Rule};
use crate::result::ElicitResult;

/// Deserializes accepted content into `C` through the rules.
pub(crate) struct ContentSeed<'a, 's, C> {
    pub(crate) sink: &'a Sink<'s>,
    pub(crate) marker: PhantomData<fn() -> C>,
}

impl<'a, 's, C> ContentSeed<'a, 's, C> {
    pub(crate) fn new(sink: &'a Sink<'s>) -> Self {
        ContentSeed {
            sink,
            marker: PhantomData,
        }
    }
}

/// What accepted content can be read into: any `Deserialize` type, through the rules; the
/// runtime's [`Content`](crate::Content), which writes each value into its buffer; or [`Report`], the
/// pass that lists every violation.
pub(crate) trait ReadContent: Sized {
    /// Reads content from `d`, every value checked on its way.
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Self, D::Error>;

    /// Asks `d` for the reply. A fast pass asks for a map, the only shape that can succeed, so
    /// its deserializer holds only the code for maps; anything else fails it, and the report
    /// pass says what arrived.
    fn envelope<'de, D: Deserializer<'de>>(
        envelope: Envelope<'_, '_, Self>,
        d: D,
    ) -> Result<ElicitResult<Self>, D::Error> {
        d.deserialize_map(envelope)
    }

    /// Reads content in the fast pass over reply text, or gives up on it (the report pass
    /// always does: it must see every violation).
    fn fast(_sink: &Sink<'_>, _content: Object<'_, '_, '_, '_>) -> Result<Self, GiveUp> {
        Err(GiveUp::SHAPE)
    }
}

impl<C: HasDeserialize + 'static> ReadContent for C {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<C, D::Error> {
        let index_keys = sink.schema.index_keys_for(TypeId::of::<C>());
        C::__elicit_deserialize(ContentDe {
            sink,
            inner: d,
            index_keys,
        })
    }

    fn fast(sink: &Sink<'_>, content: Object<'_, '_, '_, '_>) -> Result<C, GiveUp> {
        let index_keys = sink.schema.index_keys_for(TypeId::of::<C>());
        C::__elicit_deserialize(content.with_index_keys(index_keys))
    }
}

/// The report pass: reads every value of any shape, records what each breaks, keeps nothing.
pub(crate) struct Report;

impl ReadContent for Report {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Report, D::Error> {
        <de::IgnoredAny as de::Deserialize>::deserialize(ReportDe { sink, inner: d })
            .map(|_| Report)
    }

    fn envelope<'de, D: Deserializer<'de>>(
        envelope: Envelope<'_, '_, Report>,
        d: D,
    ) -> Result<ElicitResult<Report>, D::Error> {
        d.deserialize_any(envelope)
    }
}

/// Content of any JSON type, for the report pass: what is not an object is named.
struct ReportDe<'a, 's, D> {
    sink: &'a Sink<'s>,
    inner: D,
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ReportDe<'_, '_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_any(ContentVisitor {
            sink: self.sink,
            visitor,
            index_keys: false,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

impl<'de, C: ReadContent> DeserializeSeed<'de> for ContentSeed<'_, '_, C> {
    type Value = C;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<C, D::Error> {
        C::read(self.sink, d)
    }
}

/// A deserializer of accepted content that puts the rules between `inner` and the target.
pub(crate) struct ContentDe<'a, 's, D> {
    sink: &'a Sink<'s>,
    inner: D,
    /// The target takes a key that names a property as the property's index
    /// ([`RequestedSchema::index_keys_for`](crate::model::RequestedSchema::index_keys_for)).
    index_keys: bool,
}

impl<'a, 's, D> ContentDe<'a, 's, D> {
    /// Content for a target that takes every key as text.
    pub(crate) fn new(sink: &'a Sink<'s>, inner: D) -> Self {
        ContentDe {
            sink,
            inner,
            index_keys: false,
        }
    }
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ContentDe<'_, '_, D> {
    type Error = D::Error;

    /// Content is an object, or `null` (read as `{}`): asked for as an option of a map, so the
    /// deserializer holds only that code. Anything else fails here, and the report pass names it.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.inner.deserialize_option(ContentVisitor {
            sink: self.sink,
            visitor,
            index_keys: self.index_keys,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct ContentVisitor<'a, 's, V> {
    sink: &'a Sink<'s>,
    visitor: V,
    index_keys: bool,
}

impl<'a, 's, V> ContentVisitor<'a, 's, V> {
    fn not_object(&self, received: &str) {
        self.sink.push(
            Location::Content,
            Rule::ContentNotObject,
            Some(received.into()),
        );
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ContentVisitor<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object of form values")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        let keys = Keys::new(self.sink, self.index_keys);
        self.visitor.visit_map(ContentMap { inner: map, keys })
    }

    /// Accept with `content: null` is read as `{}`: optional forms accept, required fields are
    /// reported missing.
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        let keys = Keys::new(self.sink, self.index_keys);
        self.visitor.visit_map(ContentMap {
            inner: EmptyMap(PhantomData),
            keys,
        })
    }

    fn visit_none<E: de::Error>(self) -> Result<V::Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<V::Value, D::Error> {
        d.deserialize_map(self)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<V::Value, E> {
        self.not_object(&v.to_string());
        Err(super::check::stop())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<V::Value, E> {
        self.not_object(&v.to_string());
        Err(super::check::stop())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<V::Value, E> {
        self.not_object(&v.to_string());
        Err(super::check::stop())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<V::Value, E> {
        self.not_object(&v.to_string());
        Err(super::check::stop())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<V::Value, E> {
        self.not_object("a string");
        Err(super::check::stop())
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<V::Value, A::Error> {
        self.not_object("an array");
        Err(super::check::stop())
    }
}

/// A map with no entries, read in place of `content: null` or absent content.
pub(crate) struct EmptyMap<E>(pub(crate) PhantomData<E>);

impl<'de, E: de::Error> MapAccess<'de> for EmptyMap<E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, _: K) -> Result<Option<K::Value>, E> {
        Ok(None)
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, _: T) -> Result<T::Value, E> {
        Err(E::custom("an empty map has no values"))
    }
}

/// Records every required property not in `seen`. Not generic: compiled once.
#[inline(never)]
fn report_missing(sink: &Sink<'_>, seen: &BitSet) {
    for (i, prop) in sink.schema.properties.iter().enumerate() {
        if prop.required && !seen.contains(i) {
            sink.push(Location::Property(prop.name.clone()), Rule::Required, None);
        }
    }
}

/// The properties of accepted content, each key matched to its property as it is read.
struct ContentMap<'a, 's, A> {
    inner: A,
    keys: Keys<'a, 's>,
}

/// What the keys read so far say: which properties were seen, and where the next ones are.
struct Keys<'a, 's> {
    sink: &'a Sink<'s>,
    seen: BitSet,
    /// The property whose key was read last, whose value comes next.
    found: Option<usize>,
    /// The last property read, from which the next key's position is guessed.
    previous: Option<usize>,
    /// A key that names a property goes to the target as the property's index.
    index_keys: bool,
}

impl<'a, 's> Keys<'a, 's> {
    fn new(sink: &'a Sink<'s>, index_keys: bool) -> Self {
        Keys {
            sink,
            seen: BitSet::dense(sink.schema.properties.len()),
            found: None,
            previous: None,
            index_keys,
        }
    }

    /// The index to hand the target in place of the key just matched, if it takes one.
    #[inline(always)]
    fn index_key(&self) -> Option<u64> {
        self.found.filter(|_| self.index_keys).map(|i| i as u64)
    }

    /// Matches a key to its property: the property declared next first, then
    /// [`find_key`].
    #[inline(always)]
    fn find(&mut self, key: &str) {
        let sink = self.sink;
        self.found = match sink.schema.guess_after(key, self.previous) {
            Some(i) => Some(i),
            None => find_key(sink, key, self.previous),
        };
        match self.found {
            Some(i) => {
                if self.seen.insert(i) {
                    duplicate(sink, i);
                }
                self.previous = Some(i);
                sink.set_current(Some(i));
            }
            None => sink.set_current(None),
        }
    }

    /// At the end of the content: reports the required properties that were not sent.
    fn end(&mut self) {
        self.found = None;
        self.sink.set_current(None);
        let all_seen = self
            .sink
            .schema
            .required_mask()
            .is_some_and(|mask| self.seen.covers(mask));
        if !all_seen {
            report_missing(self.sink, &self.seen);
        }
    }
}

/// Finds the property a key names, past the guess. Not generic: compiled once.
#[inline(never)]
fn find_key(sink: &Sink<'_>, key: &str, previous: Option<usize>) -> Option<usize> {
    let schema = sink.schema;
    let found = schema.find_after(key, previous);
    if found.is_none() && schema.deny_unknown {
        sink.push(
            Location::Property(key.to_owned()),
            Rule::UnknownProperty,
            None,
        );
    }
    found
}

/// Records a second key for property `i`. Not generic: compiled once.
#[cold]
#[inline(never)]
fn duplicate(sink: &Sink<'_>, i: usize) {
    sink.push(
        Location::Property(sink.schema.properties[i].name.clone()),
        Rule::DuplicateKey,
        None,
    );
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ContentMap<'_, '_, A> {
    type Error = A::Error;

    /// Reads the key as text, matches it to its property, then hands it to the target.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        let key = self.inner.next_key_seed(KeySeed {
            seed,
            keys: &mut self.keys,
        })?;
        if key.is_none() {
            self.keys.end();
        }
        Ok(key)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        match self.keys.found.take() {
            Some(i) => self.inner.next_value_seed(PropSeed {
                seed,
                target: Target::Prop(&self.keys.sink.schema.properties[i]),
                sink: self.keys.sink,
            }),
            None => unchecked(&mut self.inner, seed),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

/// The value of a key that names no property, read by the target as it is. Rare, so out of
/// line: the checked read of each field stays together with the other hot code of the form.
#[cold]
#[inline(never)]
fn unchecked<'de, A: MapAccess<'de>, T: DeserializeSeed<'de>>(
    inner: &mut A,
    seed: T,
) -> Result<T::Value, A::Error> {
    inner.next_value_seed(seed)
}

/// Reads a key as text, matches it to its property, and hands the target's key seed the
/// property's index where the target takes one, else the same text; from inside the
/// deserializer's visit, so the text is not carried back out first.
struct KeySeed<'k, 'a, 's, K> {
    seed: K,
    keys: &'k mut Keys<'a, 's>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for KeySeed<'_, '_, '_, K> {
    type Value = K::Value;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for KeySeed<'_, '_, '_, K> {
    type Value = K::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<K::Value, E> {
        self.keys.find(v);
        match self.keys.index_key() {
            Some(i) => self.seed.deserialize(U64Deserializer::new(i)),
            None => self.seed.deserialize(BorrowedStrDeserializer::new(v)),
        }
    }

    // A key with an escape in it, unescaped into a buffer: rare, so out of line.
    #[cold]
    #[inline(never)]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<K::Value, E> {
        self.keys.find(v);
        match self.keys.index_key() {
            Some(i) => self.seed.deserialize(U64Deserializer::new(i)),
            None => self.seed.deserialize(StrDeserializer::new(v)),
        }
    }

    #[cold]
    #[inline(never)]
    fn visit_string<E: de::Error>(self, v: String) -> Result<K::Value, E> {
        self.keys.find(&v);
        match self.keys.index_key() {
            Some(i) => self.seed.deserialize(U64Deserializer::new(i)),
            None => self.seed.deserialize(StringDeserializer::new(v)),
        }
    }
}

struct PropSeed<'a, 's, T> {
    seed: T,
    target: Target<'a>,
    sink: &'a Sink<'s>,
}

impl<'de, T: DeserializeSeed<'de>> DeserializeSeed<'de> for PropSeed<'_, '_, T> {
    type Value = T::Value;

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T::Value, D::Error> {
        self.seed.deserialize(Checked {
            target: self.target,
            sink: self.sink,
            inner: d,
        })
    }
}

/// One value, checked against its target on its way through.
pub(crate) struct Checked<'a, 's, D> {
    pub(crate) target: Target<'a>,
    pub(crate) sink: &'a Sink<'s>,
    pub(crate) inner: D,
}

impl<'a, 's, D> Checked<'a, 's, D> {
    #[cfg_attr(not(debug_assertions), inline(always))]
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

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Checked<'_, '_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Any, visitor);
        inner.deserialize_any(check)
    }

    /// A present value of an `Option` field is `Some`; `null` is not a legal content value, so
    /// it reaches the rules and is refused there.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        visitor.visit_some(self)
    }

    /// Every enum a form holds is a choice, written as a string: read one, and hand a valid one
    /// on as the variant it names.
    #[cfg_attr(not(debug_assertions), inline(always))]
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

    // A request for one JSON type goes to the same request below, so the deserializer parses
    // only that type. A value of another type fails the target there, and the report pass,
    // which asks for any type, names the rule it breaks.
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Any, visitor);
        inner.deserialize_bool(check)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Any, visitor);
        inner.deserialize_str(check)
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Any, visitor);
        inner.deserialize_string(check)
    }

    forward_numbers! {
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64
    }

    #[cfg_attr(not(debug_assertions), inline(always))]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let (inner, check) = self.check(Hint::Any, visitor);
        inner.deserialize_seq(check)
    }

    forward_to_deserialize_any! {
        i128 u128 char bytes byte_buf unit unit_struct tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// Number requests, each passed down as the same request, read by the one [`Number`] visitor,
/// then checked and handed to the target's visitor. The deserializer holds one copy of its
/// number reader for every number type of every form, not one per type.
macro_rules! forward_numbers {
    ($($method:ident)*) => {
        $(
            #[cfg_attr(not(debug_assertions), inline(always))]
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
                let Checked { target, sink, inner } = self;
                let n = inner.$method(Number(&visitor))?;
                Check { target, sink, hint: Hint::Any, visitor }.number(n)
            }
        )*
    };
}
use forward_numbers;
