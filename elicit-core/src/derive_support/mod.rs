//! What generated code uses, and nothing else. Not a public API: the module's name carries a
//! version, changed with any change to what is in it.

use std::fmt;

mod bounds;
mod cache;
mod names;

pub use bounds::{
    ElicitChoice, ElicitField, ElicitValue, HasDeserialize, HasJsonSchema, NeedsChrono, NeedsTime,
    NeedsUrl, TakesLength, TakesRange,
};
pub use cache::SchemaCache;
pub use schemars;
pub use serde;

use crate::custom::Invalid;
use crate::error::{Location, Rule, SchemaError, Violation};
use crate::schema::RequestedSchema;
use crate::schema::hints::title_untitled;
use crate::schema::lower::{FieldOrder, lower};
use crate::schema::wire::downlevel;
use crate::version::ProtocolVersion;

/// The variants of a field's choice enum, if it has one.
pub type VariantsFn = fn() -> Option<&'static [&'static str]>;

/// What the derive says of one field serde reads; a form lists one per field, in declaration
/// order.
#[derive(Clone, Copy)]
pub struct FieldHooks {
    /// The variants of its choice enum, if any.
    pub variants: VariantsFn,
    /// Whether its choices are written as `enum` with `enumNames`.
    pub enum_names: fn() -> bool,
    /// Whether it is an `Option`.
    pub option: fn() -> bool,
}

/// The wire names of an enum's variants in declaration order, as serde's derive lists them.
#[must_use]
pub fn variants_of<T: ElicitChoice>() -> &'static [&'static str] {
    names::names::<T>()
}

/// The wire names of a struct's fields in declaration order, as serde's derive lists them.
fn fields_of<T: HasDeserialize>() -> &'static [&'static str] {
    names::names::<T>()
}

/// The wire name of `T`'s `index`-th deserialized field, or `fallback` (its Rust name) where
/// serde's derive did not list the fields.
#[must_use]
pub fn field_name<T: HasDeserialize>(index: usize, fallback: &'static str) -> &'static str {
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
pub(crate) fn build<T: HasDeserialize + HasJsonSchema>(
    form: &FormTraits,
) -> Result<RequestedSchema, SchemaError> {
    let root = T::__elicit_root_schema(generator()).to_value();
    lower_fields(root, fields_of::<T>(), form)
}

/// The schemars generator every form's schema is built with: draft 2020-12, subschemas inline,
/// no `$schema`.
fn generator() -> schemars::generate::SchemaGenerator {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    settings.into_generator()
}

/// What the derive says of a form beyond its schemars schema.
pub(crate) struct FormTraits {
    pub(crate) fields: &'static [FieldHooks],
    pub(crate) auto_titles: bool,
    pub(crate) bound_hints: bool,
}

/// The part of [`build`] that does not depend on the type.
fn lower_fields(
    root: serde_json::Value,
    names: &'static [&'static str],
    form: &FormTraits,
) -> Result<RequestedSchema, SchemaError> {
    // serde's list and the derive's are of the same fields, unless serde's derive did not list
    // them (`names` is then empty, and the schemars schema's own order stands). A hand-written
    // `Deserialize` that lists other fields than the struct has would pair a field with
    // another's hooks.
    if !names.is_empty() && names.len() != form.fields.len() {
        return Err(SchemaError::root(format!(
            "the type's `Deserialize` reads {} fields and the derive saw {}: a hand-written \
             `Deserialize` must read the struct's own fields",
            names.len(),
            form.fields.len()
        )));
    }
    let hooks = (!names.is_empty()).then_some(form.fields);
    let order: Vec<FieldOrder> = names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let hook = hooks.map(|hooks| hooks[i]);
            FieldOrder {
                name,
                variants: hook.and_then(|h| (h.variants)()),
                enum_names: hook.is_some_and(|h| (h.enum_names)()),
            }
        })
        .collect();
    let mut schema = lower(root, &order)?;
    if let Some(hooks) = hooks {
        let options = names.iter().zip(hooks).filter(|(_, h)| (h.option)());
        schema.set_option_fields(options.map(|(name, _)| *name));
    }
    if form.auto_titles {
        title_untitled(&mut schema);
    }
    if form.bound_hints {
        schema.bound_hints = true;
    }
    Ok(schema)
}

/// The panic of [`Elicit::requested_schema`] for a type whose schema cannot be sent. Not
/// generic.
#[track_caller]
pub(crate) fn unsendable(type_name: &str, error: &SchemaError) -> ! {
    panic!("elicit: the schema of `{type_name}` cannot be sent: {error}")
}

/// `T`'s schema for `version` from `cache`, built by `build` on first use; older versions are
/// derived from the newest.
pub(crate) fn cached_schema(
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
        .get(version, || downlevel(latest, version))
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The panic names the type and says why its schema cannot be sent.
    #[test]
    fn an_unsendable_schema_panics_naming_the_type() {
        let error = RequestedSchema::from_json("[]").expect_err("not a schema");
        let panic =
            std::panic::catch_unwind(|| unsendable("my::Form", &error)).expect_err("it panics");
        let message = panic.downcast_ref::<String>().expect("a formatted message");
        assert_eq!(
            message,
            &format!("elicit: the schema of `my::Form` cannot be sent: {error}")
        );
    }

    /// A `Deserialize` that lists other fields than the derive saw is an error, never a
    /// schema with its fields' hooks paired wrongly.
    #[test]
    fn fields_that_do_not_pair_with_the_hooks_are_an_error() {
        let root = serde_json::json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": ["a", "b"]
        });
        const HOOK: FieldHooks = FieldHooks {
            variants: || None,
            enum_names: || false,
            option: || false,
        };
        const TWO: &[FieldHooks] = &[HOOK, HOOK];
        const ONE: &[FieldHooks] = &[HOOK];
        let form = |fields: &'static [FieldHooks]| FormTraits {
            fields,
            auto_titles: false,
            bound_hints: false,
        };
        let error = lower_fields(root.clone(), &["a", "b", "c"], &form(TWO))
            .expect_err("three names, two hooks");
        assert!(
            error
                .to_string()
                .contains("reads 3 fields and the derive saw 2"),
            "{error}"
        );
        assert!(lower_fields(root.clone(), &["a", "b"], &form(TWO)).is_ok());
        // serde's derive lists no fields: the schema's own order stands.
        assert!(lower_fields(root, &[], &form(ONE)).is_ok());
    }
}
