//! What a type's `Deserialize` reads, asked of it with a deserializer that reads nothing: the
//! names serde's derive lists for a struct's fields or an enum's variants, and whether it reads a
//! field from its index.
//!
//! An optimized build asks the second question of every derived form (see
//! [`RequestedSchema::index_keys_for`](crate::model::RequestedSchema::index_keys_for)); a debug
//! build does not, so there the index probe is unused.
#![cfg_attr(debug_assertions, allow(dead_code))]

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::forward_to_deserialize_any;

use crate::HasDeserialize;

/// The names `T`'s derive lists: a struct's fields or an enum's variants, in declaration order;
/// empty where it lists none.
pub(crate) fn names<T: HasDeserialize>() -> &'static [&'static str] {
    match T::__elicit_deserialize(Probe::Names) {
        Err(Found::Names(names)) => names,
        _ => &[],
    }
}

/// A deserializer that reads nothing: it stops at the first request with what the request says.
/// It never calls the visitor, so it adds no copy of the type's reader.
#[derive(Clone, Copy)]
enum Probe {
    /// Stops at `deserialize_struct` or `deserialize_enum`, with the names they are given.
    Names,
    /// A value of the entry [`PastLast`] reads: only serde's `IgnoredAny` asks for `ignored_any`.
    Value,
}

/// At `deserialize_struct` with this many names, reads one map entry, [`PastLast`]. Its own
/// type, so that the names probe compiles no map reader: this one adds a copy of the form's.
struct IndexProbe(usize);

/// Why a probe stopped.
#[derive(Debug)]
enum Found {
    Names(&'static [&'static str]),
    /// The key one past the last field was read as serde's derive reads it.
    Indexes,
    Nothing,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Found::Nothing
    }

    /// serde's derive refuses an index past its fields, where it denies unknown fields, with
    /// exactly this error.
    fn invalid_value(unexpected: de::Unexpected<'_>, expected: &dyn de::Expected) -> Self {
        match unexpected {
            de::Unexpected::Unsigned(n)
                if expected.to_string() == format!("field index 0 <= i < {n}") =>
            {
                Found::Indexes
            }
            _ => Found::Nothing,
        }
    }
}

/// Whether `T`'s `Deserialize` reads field `i` from the key `i`, where `fields` are the names
/// it lists. serde's derive does (a struct form cannot hold the `alias` or `flatten` that would
/// shift the numbers): past the last field, it skips the entry, or refuses it where it denies
/// unknown fields, each in a way the probe checks. A hand-written impl that reads names only
/// fails the probe, and its keys are handed to it as names.
pub(crate) fn reads_field_indexes<T: HasDeserialize>(fields: &[&str]) -> bool {
    matches!(
        T::__elicit_deserialize(IndexProbe(fields.len())),
        Err(Found::Indexes)
    )
}

/// The one entry [`IndexProbe`] reads: the key one past the last field.
struct PastLast {
    key: Option<u64>,
}

impl<'de> de::MapAccess<'de> for PastLast {
    type Error = Found;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Found> {
        match self.key.take() {
            Some(key) => seed
                .deserialize(de::value::U64Deserializer::new(key))
                .map(Some),
            None => Err(Found::Nothing),
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Found> {
        seed.deserialize(Probe::Value)
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Nothing)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        match self {
            Probe::Names => Err(Found::Names(fields)),
            Probe::Value => Err(Found::Nothing),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        match self {
            Probe::Names => Err(Found::Names(variants)),
            Probe::Value => Err(Found::Nothing),
        }
    }

    /// Only serde's `IgnoredAny` asks for this: the entry past the last field was skipped.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        match self {
            Probe::Value => Err(Found::Indexes),
            Probe::Names => Err(Found::Nothing),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier
    }
}

impl<'de> Deserializer<'de> for IndexProbe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found::Nothing)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Found> {
        if fields.len() != self.0 {
            return Err(Found::Nothing);
        }
        visitor.visit_map(PastLast {
            key: Some(self.0 as u64),
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::{names, reads_field_indexes};

    /// Fields serde skips are not numbered; a renamed one is numbered under its wire name.
    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Plain {
        a: String,
        #[serde(skip)]
        skipped: u8,
        #[serde(rename = "B")]
        b: Option<u8>,
    }

    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Denying {
        a: String,
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Empty {}

    #[test]
    fn serde_s_derive_reads_field_indexes() {
        assert_eq!(names::<Plain>(), ["a", "B"]);
        assert!(reads_field_indexes::<Plain>(names::<Plain>()));
        assert!(reads_field_indexes::<Denying>(names::<Denying>()));
        assert!(reads_field_indexes::<Empty>(names::<Empty>()));
    }

    #[test]
    fn the_probe_needs_every_field_named() {
        // A count of names other than the derive's own: no key is read.
        assert!(!reads_field_indexes::<Plain>(&["a"]));
        assert!(!reads_field_indexes::<Plain>(&["a", "B", "c"]));
    }

    #[test]
    fn other_types_do_not_read_field_indexes() {
        assert!(!reads_field_indexes::<String>(&[]));
        assert!(!reads_field_indexes::<serde_json::Value>(&[]));
        assert!(!reads_field_indexes::<std::collections::BTreeMap<String, u8>>(&[]));
    }
}
