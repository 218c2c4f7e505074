//! What generated code uses, and nothing else. Not a public API: the module's name carries a
//! version, changed with any change to what is in it.

use std::fmt;

mod bounds;
mod cache;
mod names;

pub use bounds::{
    ElicitChoice, ElicitField, ElicitPart, ElicitValue, HasDeserialize, HasJsonSchema, NeedsChrono,
    NeedsTime, NeedsUrl, NotAPart, Part, PartProbe, TakesLength, TakesRange,
};
pub use cache::SchemaCache;
pub use schemars;
pub use serde;

use crate::custom::Invalid;
use crate::elicit::Elicit;
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
    /// For a `#[serde(flatten)]` part, its own fields, which join the form in its place.
    pub part: Option<PartFn>,
}

/// The fields of a part, as [`form_fields`] lists them.
pub type PartFn = fn() -> Result<Vec<FormField>, SchemaError>;

impl FieldHooks {
    /// The hooks of a `#[serde(flatten)]` field whose type is a form of its own, with these
    /// `fields`.
    #[must_use]
    pub const fn part(fields: PartFn) -> Self {
        FieldHooks {
            variants: || None,
            enum_names: || false,
            option: || false,
            part: Some(fields),
        }
    }
}

/// One property of a form: its wire name, the field it comes from, and what the derive says
/// of it.
#[derive(Clone, Copy)]
pub struct FormField {
    pub(crate) name: &'static str,
    /// The Rust type whose field it is: the form's own, or a part's.
    pub(crate) owner: &'static str,
    pub(crate) hooks: FieldHooks,
}

/// Every property of `T`'s form in order: its own fields, and each `#[serde(flatten)]` part's
/// in the part's place. Empty where serde's derive did not list `T`'s fields (a hand-written
/// `Deserialize`), so that the schema's own order stands. Two of one name are an error.
pub fn form_fields<T: Elicit>() -> Result<Vec<FormField>, SchemaError> {
    let owner = std::any::type_name::<T>();
    fields_in(T::__elicit_own_names(), owner, T::__ELICIT_FIELDS)
}

/// The part of [`form_fields`] that does not depend on the type: `owner`'s own fields are
/// `names`, with their hooks and its parts' in `hooks`.
fn fields_in(
    names: &'static [&'static str],
    owner: &'static str,
    hooks: &'static [FieldHooks],
) -> Result<Vec<FormField>, SchemaError> {
    let own = hooks.iter().filter(|h| h.part.is_none()).count();
    let parts = hooks.len() - own;
    if names.is_empty() && parts == 0 {
        return Ok(Vec::new());
    }
    // serde's list and the derive's are of the same fields. A hand-written `Deserialize` that
    // lists other fields than the struct has would pair a field with another's hooks.
    if names.len() != own {
        return Err(SchemaError::root(format!(
            "the `Deserialize` of `{owner}` reads {} fields and the derive saw {own}: a \
             hand-written `Deserialize` must read the struct's own fields",
            names.len(),
        )));
    }
    let mut names = names.iter();
    let mut fields: Vec<FormField> = Vec::new();
    for hooks in hooks {
        let joined = match hooks.part {
            Some(part) => part()?,
            // As many names as own fields: checked above.
            None => (names.next().iter())
                .map(|name| FormField {
                    name,
                    owner,
                    hooks: *hooks,
                })
                .collect(),
        };
        if joined.is_empty() {
            return Err(SchemaError::root(format!(
                "a part of `{owner}` lists no fields: a form's parts derive `Deserialize`"
            )));
        }
        for field in joined {
            if let Some(first) = fields.iter().find(|f| f.name == field.name) {
                return Err(SchemaError::property(
                    field.name,
                    format!(
                        "two fields of the form are named `{}`, one of `{}` and one of `{}`: \
                         content would fill only one of them; rename one with \
                         `#[serde(rename = \"..\")]`",
                        field.name, first.owner, field.owner
                    ),
                ));
            }
            fields.push(field);
        }
    }
    Ok(fields)
}

/// The wire names of an enum's variants in declaration order, as serde's derive lists them.
#[must_use]
pub fn variants_of<T: ElicitChoice>() -> &'static [&'static str] {
    names::names::<T>()
}

/// The wire names of a struct's fields in declaration order, as serde's derive lists them;
/// empty where it lists none (a hand-written `Deserialize`, or a struct with a flattened field,
/// which serde reads as a map).
#[must_use]
pub fn fields_of<T: HasDeserialize>() -> &'static [&'static str] {
    names::names::<T>()
}

/// The wire name of a form's `index`-th own field among `names` (its
/// [own names](Elicit::__elicit_own_names)), or `fallback` (its Rust name) where serde's
/// derive did not list them.
#[must_use]
pub fn field_name(names: &[&'static str], index: usize, fallback: &'static str) -> &'static str {
    names.get(index).copied().unwrap_or(fallback)
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
pub(crate) fn build<T: Elicit>(form: &FormTraits) -> Result<RequestedSchema, SchemaError> {
    let root = T::__elicit_root_schema(generator()).to_value();
    lower_fields(root, &form_fields::<T>()?, form)
}

/// The schemars generator every form's schema is built with: draft 2020-12, subschemas inline,
/// no `$schema`.
fn generator() -> schemars::generate::SchemaGenerator {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    settings.into_generator()
}

/// What the derive says of a form beyond its schemars schema and its fields.
pub(crate) struct FormTraits {
    pub(crate) auto_titles: bool,
    pub(crate) bound_hints: bool,
}

/// The part of [`build`] that does not depend on the type: `fields` in order, or empty where
/// the schema's own order stands.
fn lower_fields(
    root: serde_json::Value,
    fields: &[FormField],
    form: &FormTraits,
) -> Result<RequestedSchema, SchemaError> {
    let order: Vec<FieldOrder> = (fields.iter())
        .map(|field| FieldOrder {
            name: field.name,
            variants: (field.hooks.variants)(),
            enum_names: (field.hooks.enum_names)(),
        })
        .collect();
    let mut schema = lower(root, &order)?;
    if !fields.is_empty() {
        let options = fields.iter().filter(|f| (f.hooks.option)());
        schema.set_option_fields(options.map(|f| f.name));
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
#[path = "../../unit/derive_support/mod.rs"]
mod tests;
