//! What generated code uses, and nothing else. Not a public API: the module's name carries a
//! version, changed with any change to what is in it.

use std::any::TypeId;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::forward_to_deserialize_any;

pub use crate::cache::SchemaCache;
pub use schemars;
pub use serde;

use crate::custom::Invalid;
use crate::error::{Location, Rule, SchemaError, Violation};
use crate::model::{FieldOrder, RequestedSchema, SerdeFields, lower};
use crate::version::ProtocolVersion;
use crate::{Elicit, ElicitChoice, HasDeserialize};

/// For each field serde reads, in declaration order: the variants of its choice enum, if any.
pub type VariantsFn = fn() -> Option<&'static [&'static str]>;

/// The wire names of an enum's variants in declaration order, as serde's derive lists them.
#[must_use]
pub fn variants_of<T: ElicitChoice>() -> &'static [&'static str] {
    probe::<T>()
}

/// The wire names of a struct's fields in declaration order, as serde's derive lists them.
fn fields_of<T: HasDeserialize>() -> &'static [&'static str] {
    probe::<T>()
}

fn probe<T: HasDeserialize>() -> &'static [&'static str] {
    match T::__elicit_deserialize(Probe::Names) {
        Err(Found::Names(names)) => names,
        _ => &[],
    }
}

/// The wire name of `T`'s `index`-th deserialized field, or `fallback` (its Rust name) where
/// serde's derive did not list the fields.
#[must_use]
pub fn field_name<T: Elicit>(index: usize, fallback: &'static str) -> &'static str {
    fields_of::<T>().get(index).copied().unwrap_or(fallback)
}

/// Records a field validator's failure.
pub fn check_field<E: fmt::Display>(
    out: &mut Vec<Violation>,
    property: &str,
    result: Result<(), E>,
) {
    if let Err(e) = result {
        out.push(Violation::new(
            Location::Property(property.to_owned()),
            Rule::Custom(e.to_string()),
            None,
        ));
    }
}

/// Records a struct validator's failures.
pub fn check_form(out: &mut Vec<Violation>, result: Result<(), Invalid>) {
    if let Err(invalid) = result {
        let entries = invalid.into_entries();
        if entries.is_empty() {
            out.push(Violation::new(
                Location::Content,
                Rule::Custom("the form was refused".into()),
                None,
            ));
        }
        for (property, message) in entries {
            let location = property.map_or(Location::Content, Location::Property);
            out.push(Violation::new(location, Rule::Custom(message), None));
        }
    }
}

/// Builds `T`'s schema for the newest protocol from its schemars schema.
pub(crate) fn build<T: Elicit>() -> Result<RequestedSchema, SchemaError> {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let root = T::__elicit_root_schema(generator).to_value();
    let names = fields_of::<T>();
    let mut schema = lower_fields(root, names, T::__ELICIT_FIELDS, T::__ELICIT_ENUM_NAMES)?;
    if reads_field_indexes::<T>(names) {
        schema.set_serde_fields(SerdeFields {
            ty: TypeId::of::<T>(),
            names,
        });
    }
    if T::__ELICIT_AUTO_TITLES {
        crate::model::title_untitled(&mut schema);
    }
    if T::__ELICIT_BOUND_HINTS {
        crate::model::hint_bounds(&mut schema);
    }
    Ok(schema)
}

/// The part of [`build`] that does not depend on the type: compiled once.
fn lower_fields(
    root: serde_json::Value,
    names: &'static [&'static str],
    hooks: &[VariantsFn],
    enum_names: &[fn() -> bool],
) -> Result<RequestedSchema, SchemaError> {
    let order: Vec<FieldOrder> = names
        .iter()
        .enumerate()
        .map(|(i, name)| FieldOrder {
            name,
            variants: if names.len() == hooks.len() {
                hooks[i]()
            } else {
                None
            },
            enum_names: names.len() == enum_names.len() && enum_names[i](),
        })
        .collect();
    lower(root, &order)
}

/// `T`'s schema for `version` from `cache`, built by `build` on first use; older versions are
/// derived from the newest. A built schema is returned inline; building is not generic, so one
/// copy serves every type.
#[inline]
pub(crate) fn cached_schema(
    cache: &'static SchemaCache,
    version: ProtocolVersion,
    build: fn() -> Result<RequestedSchema, SchemaError>,
) -> Result<&'static RequestedSchema, SchemaError> {
    match cache.built(version) {
        Some(Ok(schema)) => Ok(schema),
        _ => build_schema(cache, version, build),
    }
}

#[inline(never)]
fn build_schema(
    cache: &'static SchemaCache,
    version: ProtocolVersion,
    build: fn() -> Result<RequestedSchema, SchemaError>,
) -> Result<&'static RequestedSchema, SchemaError> {
    let latest = cache
        .get(ProtocolVersion::LATEST, build)
        .map_err(Clone::clone)?;
    if version == ProtocolVersion::LATEST {
        return Ok(latest);
    }
    cache
        .get(version, || crate::version::downlevel(latest, version))
        .map_err(Clone::clone)
}

/// A deserializer that asks serde's derive what it reads: its list of field or variant names,
/// or (for a struct's fields) whether it reads a field from the field's index.
#[derive(Clone, Copy)]
enum Probe {
    /// Stops at `deserialize_struct` or `deserialize_enum`, with the names they are given.
    Names,
    /// At `deserialize_struct` with this many names, reads one map entry whose key is that
    /// number: one past the last field's index.
    Indexes(usize),
    /// A value in that entry: only serde's `IgnoredAny` asks for `ignored_any`.
    Value,
}

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
fn reads_field_indexes<T: HasDeserialize>(fields: &[&str]) -> bool {
    matches!(
        T::__elicit_deserialize(Probe::Indexes(fields.len())),
        Err(Found::Indexes)
    )
}

/// The one entry [`Probe::Indexes`] reads: the key one past the last field.
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
        visitor: V,
    ) -> Result<V::Value, Found> {
        match self {
            Probe::Names => Err(Found::Names(fields)),
            Probe::Indexes(n) if n == fields.len() => visitor.visit_map(PastLast {
                key: Some(n as u64),
            }),
            _ => Err(Found::Nothing),
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
            _ => Err(Found::Nothing),
        }
    }

    /// Only serde's `IgnoredAny` asks for this: the entry past the last field was skipped.
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        match self {
            Probe::Value => Err(Found::Indexes),
            _ => Err(Found::Nothing),
        }
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier
    }
}

#[cfg(test)]
mod tests {
    use super::{fields_of, reads_field_indexes};

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
        assert_eq!(fields_of::<Plain>(), ["a", "B"]);
        assert!(reads_field_indexes::<Plain>(fields_of::<Plain>()));
        assert!(reads_field_indexes::<Denying>(fields_of::<Denying>()));
        assert!(reads_field_indexes::<Empty>(fields_of::<Empty>()));
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
