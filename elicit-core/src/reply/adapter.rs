//! serde adapters that put a form's rules between a deserializer and its target.
//!
//! - [`ContentSeed`] reads accepted `content` into any [`ReadContent`] target: `T`, the runtime's
//!   map, or [`Report`], which keeps nothing but the violations.
//! - [`ContentMap`] sees every key: it finds the key's property, refuses duplicates and unknown
//!   keys where the form asks, and at the end reports the required properties not sent.
//! - [`Checked`] wraps one property's value, so every value passes through [`Check`].
//!
//! Keys reach the target as the text the client sent; the target's own `Deserialize` decides
//! what each one means.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Value};

use super::check::{Seeded, Target, stop};
use super::sink::{Sink, refuse_others};
use crate::elicit::Elicit;
use crate::error::{Location, Rule};
use crate::schema::Blank;

/// Deserializes accepted content into `C` through the rules.
pub(crate) struct ContentSeed<'a, 's, C> {
    sink: &'a Sink<'s>,
    marker: PhantomData<fn() -> C>,
}

impl<'a, 's, C> ContentSeed<'a, 's, C> {
    pub(crate) fn new(sink: &'a Sink<'s>) -> Self {
        ContentSeed {
            sink,
            marker: PhantomData,
        }
    }
}

impl<'de, C: ReadContent> DeserializeSeed<'de> for ContentSeed<'_, '_, C> {
    type Value = C;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<C, D::Error> {
        C::read(self.sink, d)
    }
}

/// What accepted content can be read into: any `Deserialize` type through the rules, or
/// [`Report`], the pass that lists every violation.
pub(crate) trait ReadContent: Sized {
    /// Reads content from `d`, every value checked on its way.
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Self, D::Error>;

    /// Whether the reply, and its content, are asked for as any JSON value, so that what is
    /// not an object is named (the report pass). Else they are asked for as maps, the only
    /// shape that can succeed; anything else fails, and the report pass says what arrived.
    const ANY: bool = false;
}

/// A form's own type, which reads its `Option` fields as `Option`s; but serde reads a form
/// with `#[serde(flatten)]` parts as a map, holding each value it does not place as it came,
/// so there a blank is skipped as the runtime's map skips it.
impl<C: Elicit> ReadContent for C {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<C, D::Error> {
        let parts = C::__ELICIT_FIELDS.iter().any(|field| field.part.is_some());
        C::__elicit_deserialize(ContentDe::<_, false> {
            sink,
            inner: d,
            options: !parts,
        })
    }
}

/// The runtime's map, which reads every value as any JSON value.
impl ReadContent for Map<String, Value> {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Self, D::Error> {
        de::Deserialize::deserialize(ContentDe::<_, false> {
            sink,
            inner: d,
            options: false,
        })
    }
}

/// Content the envelope's pass leaves unread, for the target's own read afterwards: the
/// envelope of a reply held as JSON is then read by one reader for every target.
pub(crate) struct Skipped;

impl ReadContent for Skipped {
    fn read<'de, D: Deserializer<'de>>(_: &Sink<'_>, d: D) -> Result<Skipped, D::Error> {
        <de::IgnoredAny as de::Deserialize>::deserialize(d).map(|_| Skipped)
    }
}

/// The report pass: reads every value of any shape, records what each breaks, keeps nothing.
pub(crate) struct Report;

impl ReadContent for Report {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Report, D::Error> {
        let content = ContentDe::<_, true> {
            sink,
            inner: d,
            options: false,
        };
        <de::IgnoredAny as de::Deserialize>::deserialize(content).map(|_| Report)
    }

    const ANY: bool = true;
}

/// A deserializer of accepted content that puts the rules between `inner` and the target.
/// With `ANY` it asks `inner` for any value, so that what is not an object is named (the report
/// pass); else for an optional map, the only shapes content may have.
struct ContentDe<'a, 's, D, const ANY: bool> {
    sink: &'a Sink<'s>,
    inner: D,
    /// Whether the target reads the properties of [`Blank::None`] as `Option`s.
    options: bool,
}

impl<'de, D: Deserializer<'de>, const ANY: bool> Deserializer<'de> for ContentDe<'_, '_, D, ANY> {
    type Error = D::Error;

    /// Content is an object; the envelope reads `null` content as `{}`, and so does the report
    /// pass.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let visitor = ContentVisitor {
            sink: self.sink,
            visitor,
            options: self.options,
        };
        if ANY {
            self.inner.deserialize_any(visitor)
        } else {
            self.inner.deserialize_map(visitor)
        }
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
    options: bool,
}

impl<V> ContentVisitor<'_, '_, V> {
    fn not_object<E: de::Error>(&self, received: String) -> E {
        let received = Some(received);
        self.sink
            .push(Location::Content, Rule::ContentNotObject, received);
        stop()
    }
}

impl<'de, V: Visitor<'de>> Visitor<'de> for ContentVisitor<'_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object of form values")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<V::Value, A::Error> {
        self.visitor
            .visit_map(ContentMap::new(self.sink, map, self.options))
    }

    /// `content: null`, which the report pass reads as `{}`: the required properties are
    /// missing.
    fn visit_unit<E: de::Error>(self) -> Result<V::Value, E> {
        Keys::new(self.sink).end();
        self.visitor.visit_unit()
    }

    refuse_others!(not_object: bool i64 u64 f64 str seq);
}

/// The properties of accepted content, each key matched to its property as it is read.
struct ContentMap<'a, 's, 'de, A> {
    inner: A,
    keys: Keys<'a, 's>,
    /// The value of the key just handed on, where it was read first to see whether it is a
    /// blank that reads as absent.
    peeked: Option<Peeked<'de>>,
    /// Whether the target reads the properties of [`Blank::None`] as `Option`s.
    options: bool,
    /// Whether some property's value is read ahead of its key; else each key goes to the
    /// target as it is read.
    ahead: bool,
}

impl<'a, 's, A> ContentMap<'a, 's, '_, A> {
    fn new(sink: &'a Sink<'s>, inner: A, options: bool) -> Self {
        let keys = Keys::new(sink);
        ContentMap {
            inner,
            keys,
            peeked: None,
            options,
            ahead: sink.schema.reads_ahead(options),
        }
    }

    /// Whether a blank for property `i` is looked for by reading its value ahead of its key.
    fn reads_ahead(&self, i: usize) -> bool {
        match self.keys.sink.schema.blank(i) {
            Blank::Value => false,
            Blank::Absent => true,
            Blank::None => !self.options,
        }
    }
}

/// What the keys read so far say.
struct Keys<'a, 's> {
    sink: &'a Sink<'s>,
    /// Which properties have had a key.
    seen: Seen,
    /// How many of them are required.
    required_seen: usize,
    /// The property whose key was read last, whose value comes next.
    found: Option<usize>,
    /// The property after the last one a key named: the next key's most likely.
    next: usize,
}

impl<'a, 's> Keys<'a, 's> {
    fn new(sink: &'a Sink<'s>) -> Self {
        let seen = Seen::new(sink.schema.properties().len());
        Keys {
            sink,
            seen,
            required_seen: 0,
            found: None,
            next: 0,
        }
    }

    /// Matches a key to its property, and records a second key for one or, where the form
    /// refuses them, a key that names none. Clients write a form's keys in its order, so the
    /// property after the last one found is tried first.
    fn find(&mut self, key: &str) {
        let schema = self.sink.schema;
        self.found = match schema.properties().get(self.next) {
            Some(prop) if prop.name == key => Some(self.next),
            _ => schema.position(key),
        };
        if let Some(i) = self.found {
            self.next = i + 1;
        }
        self.sink.set_current(self.found);
        match self.found {
            Some(i) if self.seen.insert(i) => self.broke(i, Rule::DuplicateKey),
            Some(i) => self.required_seen += usize::from(schema.properties()[i].required),
            None if schema.denies_unknown() => self.unknown(key),
            None => {}
        }
    }

    /// Records that property `i` broke `rule`.
    #[cold]
    #[inline(never)]
    fn broke(&self, i: usize, rule: Rule) {
        let location = Location::Property(self.sink.schema.properties()[i].name.clone());
        self.sink.push(location, rule, None);
    }

    /// A key that names no property, where the form refuses those.
    #[cold]
    #[inline(never)]
    fn unknown(&self, key: &str) {
        let location = Location::Property(key.to_owned());
        self.sink.push(location, Rule::UnknownProperty, None);
    }

    /// At the end of the content: reports the required properties that were not sent.
    fn end(&mut self) {
        self.found = None;
        self.sink.set_current(None);
        if self.required_seen == self.sink.schema.required_count() {
            return;
        }
        for (i, prop) in self.sink.schema.properties().iter().enumerate() {
            if prop.required && !self.seen.contains(i) {
                self.broke(i, Rule::Required);
            }
        }
    }
}

/// A set of property positions: a bit each, the first 64 in one word, so that the common
/// form's read allocates nothing for it.
struct Seen {
    first: u64,
    more: Vec<bool>,
}

impl Seen {
    fn new(properties: usize) -> Self {
        Seen {
            first: 0,
            more: vec![false; properties.saturating_sub(64)],
        }
    }

    /// Adds `i`, saying whether it was there already.
    fn insert(&mut self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => {
                let (bit, was) = (1 << i, self.first);
                self.first |= bit;
                was & bit != 0
            }
            Some(j) => std::mem::replace(&mut self.more[j], true),
        }
    }

    fn contains(&self, i: usize) -> bool {
        match i.checked_sub(64) {
            None => self.first & (1 << i) != 0,
            Some(j) => self.more[j],
        }
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for ContentMap<'_, '_, 'de, A> {
    type Error = A::Error;

    /// Hands the target the next key, skipping a key whose value is a blank that reads as
    /// absent (`rules::blank_is_absent`): for those properties the value is read first, and
    /// kept for the target, unless the target reads the property as an `Option`
    /// ([`Blank::None`]), which is handed `None` for a blank instead.
    ///
    /// Where the form has no such property, the key goes to the target as `inner` reads it,
    /// matched on its way ([`Named`]), rather than read as text and handed on again: the
    /// target's own match of it then runs where it would without this crate, which makes reading
    /// a 5- or 24-field form from text 5 to 7% cheaper by instructions
    /// (`benches/instructions.sh`).
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if !self.ahead {
            let keys = &mut self.keys;
            let key = self.inner.next_key_seed(Named { inner: seed, keys })?;
            if key.is_none() {
                self.keys.end();
            }
            return Ok(key);
        }
        loop {
            let Some(key) = self.inner.next_key_seed(KeyText)? else {
                self.keys.end();
                return Ok(None);
            };
            self.keys.find(&key);
            if let Some(i) = self.keys.found
                && self.reads_ahead(i)
            {
                let value = self.inner.next_value_seed(Peek)?;
                if value.is_blank() {
                    self.keys.found = None;
                    continue;
                }
                self.peeked = Some(value);
            }
            return seed.deserialize(key.into_deserializer()).map(Some);
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, A::Error> {
        let sink = self.keys.sink;
        let Some(i) = self.keys.found.take() else {
            return self.inner.next_value_seed(seed);
        };
        let seeded = Seeded {
            seed,
            target: Target::Prop(i),
            sink,
        };
        // Most values were not read ahead; the check spares them moving the empty slot.
        if self.peeked.is_some()
            && let Some(peeked) = self.peeked.take()
        {
            return peeked.read(seeded);
        }
        self.inner.next_value_seed(seeded)
    }
}

/// A key on its way to the target, with the match that sees it first: it wraps the target's
/// seed, then the deserializer the seed is given, then the visitor the target hands that, so
/// that the key's text reaches [`Keys`] just before the target's own visitor.
struct Named<'k, 'a, 's, T> {
    inner: T,
    keys: &'k mut Keys<'a, 's>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Named<'_, '_, '_, K> {
    type Value = K::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<K::Value, D::Error> {
        let keys = self.keys;
        self.inner.deserialize(Named { inner: d, keys })
    }
}

/// The key's deserializer: whatever the target asks for, it is given the key's text.
impl<'de, D: Deserializer<'de>> Deserializer<'de> for Named<'_, '_, '_, D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        let keys = self.keys;
        self.inner.deserialize_str(Named {
            inner: visitor,
            keys,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// The target's visitor of the key, called once [`Keys`] has matched the key's text.
impl<'de, V: Visitor<'de>> Visitor<'de> for Named<'_, '_, '_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<V::Value, E> {
        self.keys.find(v);
        self.inner.visit_borrowed_str(v)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<V::Value, E> {
        self.keys.find(v);
        self.inner.visit_str(v)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<V::Value, E> {
        self.keys.find(&v);
        self.inner.visit_string(v)
    }
}

/// Reads a key as its text, borrowed where the input allows.
struct KeyText;

impl<'de> DeserializeSeed<'de> for KeyText {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Cow<'de, str>, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for KeyText {
    type Value = Cow<'de, str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(v))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(v))
    }
}

/// A value read ahead of its target: a string as it came, anything else (which its string
/// property refuses) as JSON.
enum Peeked<'de> {
    Text(Cow<'de, str>),
    Other(Box<serde_json::Value>),
}

impl<'de> Peeked<'de> {
    fn is_blank(&self) -> bool {
        matches!(self, Peeked::Text(text) if text.is_empty())
    }

    /// Hands the value to `seed`, through the rules as any value goes.
    fn read<T: DeserializeSeed<'de>, E: de::Error>(self, seed: T) -> Result<T::Value, E> {
        match self {
            Peeked::Text(text) => seed.deserialize(text.into_deserializer()),
            Peeked::Other(value) => seed.deserialize(*value).map_err(E::custom),
        }
    }
}

/// Reads a value ahead of its target.
struct Peek;

impl<'de> DeserializeSeed<'de> for Peek {
    type Value = Peeked<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Peeked<'de>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Peek {
    type Value = Peeked<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a form value")
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Text(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Text(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Text(Cow::Owned(v)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::new(v.into())))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::new(v.into())))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::new(v.into())))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::new(v.into())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::default()))
    }

    fn visit_none<E: de::Error>(self) -> Result<Peeked<'de>, E> {
        Ok(Peeked::Other(Box::default()))
    }

    fn visit_seq<S: de::SeqAccess<'de>>(self, seq: S) -> Result<Peeked<'de>, S::Error> {
        let value = de::Deserialize::deserialize(de::value::SeqAccessDeserializer::new(seq))?;
        Ok(Peeked::Other(Box::new(value)))
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Peeked<'de>, M::Error> {
        let value = de::Deserialize::deserialize(de::value::MapAccessDeserializer::new(map))?;
        Ok(Peeked::Other(Box::new(value)))
    }
}
