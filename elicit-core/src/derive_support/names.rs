//! The wire names a type's `Deserialize` reads: what serde's derive passes to
//! `deserialize_struct` (a struct's fields) or `deserialize_enum` (an enum's variants), asked of
//! it with a deserializer that reads nothing.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::forward_to_deserialize_any;

use super::bounds::HasDeserialize;

/// The names `T`'s `Deserialize` lists: a struct's fields or an enum's variants, in declaration
/// order; empty where it lists none.
pub(crate) fn names<T: HasDeserialize>() -> &'static [&'static str] {
    match T::__elicit_deserialize(Probe) {
        Err(Found::Names(names)) => names,
        _ => &[],
    }
}

/// A deserializer that stops at the first request, with the names a struct or enum request
/// carries. It never calls the visitor, so it adds no copy of the type's reader.
struct Probe;

/// Why the probe stopped.
#[derive(Debug)]
enum Found {
    Names(&'static [&'static str]),
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
        Err(Found::Names(fields))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found::Names(variants))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier ignored_any
    }
}
