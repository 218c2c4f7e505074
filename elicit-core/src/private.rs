//! What generated code uses, and nothing else. Not a public API: the module's name carries a
//! version, changed with any change to what is in it.

use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::forward_to_deserialize_any;

pub use crate::cache::SchemaCache;
pub use schemars;
pub use serde;

use crate::custom::Invalid;
use crate::error::{Location, Rule, SchemaError, Violation};
use crate::model::{FieldOrder, RequestedSchema, lower};
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
    match T::__elicit_deserialize(Probe) {
        Err(Found(Some(names))) => names,
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
    let mut schema = lower_fields(
        root,
        fields_of::<T>(),
        T::__ELICIT_FIELDS,
        T::__ELICIT_ENUM_NAMES,
    )?;
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

/// A deserializer that only asks serde's derive for its list of field or variant names.
struct Probe;

#[derive(Debug)]
struct Found(Option<&'static [&'static str]>);

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("probe")
    }
}

impl std::error::Error for Found {}

impl de::Error for Found {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Found(None)
    }
}

impl<'de> Deserializer<'de> for Probe {
    type Error = Found;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
        Err(Found(None))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found(Some(fields)))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Found> {
        Err(Found(Some(variants)))
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map identifier ignored_any
    }
}
