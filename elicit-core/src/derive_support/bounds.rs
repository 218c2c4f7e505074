//! The bounds generated code asks of a form and its fields, each with an error that says what to
//! add: the two derives a form needs besides `Elicit`, and the Rust types a field can have.
//!
//! `Elicit` could ask for `Deserialize` and `JsonSchema` directly, but the compiler would then
//! report a missing one through the other crate's trait, with a long list of its implementors.
//! These traits are implemented for every type that has the real one, and say what to add when
//! it is missing.

use serde::Deserializer;
use serde::de::DeserializeOwned;
use std::collections::{BTreeSet, HashSet};

/// A type that implements serde's `Deserialize` for every lifetime (`DeserializeOwned`).
///
/// A bound of [`Elicit`](crate::Elicit) and of `#[derive(Elicit)]` on an enum; implemented for
/// every `DeserializeOwned` type, never by hand. Generic code that deserializes a `T: Elicit`
/// itself asks for `T: DeserializeOwned` too.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `Deserialize`, which `#[derive(Elicit)]` needs to read the reply",
    label = "add `#[derive(serde::Deserialize)]` to `{Self}`",
    note = "a form or a choice enum derives `Deserialize`, `JsonSchema` and `Elicit`"
)]
pub trait HasDeserialize: Sized {
    #[doc(hidden)]
    fn __elicit_deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;
}

#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned> HasDeserialize for T {
    fn __elicit_deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(deserializer)
    }
}

/// A type that implements schemars' `JsonSchema`.
///
/// A bound of [`Elicit`](crate::Elicit) and of `#[derive(Elicit)]` on an enum; implemented for
/// every `JsonSchema` type, never by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not implement `JsonSchema`, which `#[derive(Elicit)]` builds the form from",
    label = "add `#[derive(schemars::JsonSchema)]` to `{Self}`",
    note = "a form or a choice enum derives `Deserialize`, `JsonSchema` and `Elicit`"
)]
pub trait HasJsonSchema {
    #[doc(hidden)]
    fn __elicit_root_schema(generator: schemars::SchemaGenerator) -> schemars::Schema;
}

#[diagnostic::do_not_recommend]
impl<T: schemars::JsonSchema + ?Sized> HasJsonSchema for T {
    fn __elicit_root_schema(generator: schemars::SchemaGenerator) -> schemars::Schema {
        generator.into_root_schema_for::<T>()
    }
}

/// A type that can be the field of an elicitation form: an [`ElicitValue`] or an `Option` of one.
///
/// An `Option` field is left out of `required`; its value type is sent as it is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an MCP elicitation form",
    label = "not a type an MCP form field can hold",
    note = "MCP forms are flat: a field is a String, bool, integer, f32/f64, a #[derive(Elicit)] unit enum, a Vec/BTreeSet/HashSet of such an enum (multi-select), or an Option of one of those",
    note = "a struct of your own joins the form flattened: derive `Elicit` on it and put `#[serde(flatten)]` on this field; an enum of your own with unit variants is a choice once it derives `Elicit`"
)]
pub trait ElicitField {
    #[doc(hidden)]
    fn __elicit_variants() -> Option<&'static [&'static str]>;
    #[doc(hidden)]
    fn __elicit_enum_names() -> bool;
    /// Whether the field is an `Option`, which serde reads through `deserialize_option`.
    #[doc(hidden)]
    fn __elicit_is_option() -> bool;
    /// Whether the field's type is a form of its own (`#[derive(Elicit)]` on a struct), which
    /// joins a form only flattened: the derive stops the build at a field that holds one
    /// otherwise.
    #[doc(hidden)]
    const __ELICIT_PART: bool = false;
}

/// Whether a field's type `T` is a form of its own ([`PartProbe::IS_PART`] where `T` is a
/// field type at all, else [`NotAPart::IS_PART`], `false`): a field that is no field type has
/// its error already, at its hooks.
pub struct PartProbe<T>(std::marker::PhantomData<T>);

impl<T: ElicitField> PartProbe<T> {
    pub const IS_PART: bool = T::__ELICIT_PART;
}

/// The answer of [`PartProbe`] for a type that is no field: generated code names it in scope.
pub trait NotAPart {
    const IS_PART: bool = false;
}

impl<T> NotAPart for PartProbe<T> {}

/// A form whose fields can join another's: the type of a `#[serde(flatten)]` field.
/// Implemented for every [`Elicit`](crate::Elicit) type, never by hand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is flattened into this form, but it is not a form of its own",
    label = "add `#[derive(Elicit)]` to `{Self}` (beside `Deserialize` and `JsonSchema`), so that its fields join this form",
    note = "a `#[serde(flatten)]` field puts the fields of a struct that derives `Elicit` into the form that holds it"
)]
pub trait ElicitPart: Sized {
    /// What the form holding the part needs of it.
    #[doc(hidden)]
    const PART: Part<Self>;
}

/// What a form needs of a part: its fields, and its own checks.
#[doc(hidden)]
pub struct Part<T> {
    pub fields: super::PartFn,
    pub validate: fn(&T, &mut Vec<crate::Violation>),
}

#[diagnostic::do_not_recommend]
impl<T: crate::Elicit> ElicitPart for T {
    const PART: Part<T> = Part {
        fields: super::form_fields::<T>,
        validate: T::__elicit_validate,
    };
}

/// A type that can be a required field of a form: a primitive, a `#[derive(Elicit)]` unit enum,
/// or a list or set of such an enum.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a field of an MCP elicitation form",
    label = "not a type an MCP form field can hold",
    note = "MCP forms are flat: a field is a String, bool, integer, f32/f64, a #[derive(Elicit)] unit enum, a Vec/BTreeSet/HashSet of such an enum (multi-select), or an Option of one of those",
    note = "a struct of your own joins the form flattened: derive `Elicit` on it and put `#[serde(flatten)]` on this field; an enum of your own with unit variants is a choice once it derives `Elicit`; tuples, nested Options and lists of anything but a choice cannot be expressed"
)]
pub trait ElicitValue {
    #[doc(hidden)]
    #[must_use]
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        None
    }

    /// Whether a titled choice enum writes its titles as `enum` + `enumNames`.
    #[doc(hidden)]
    #[must_use]
    fn __elicit_enum_names() -> bool {
        false
    }
}

/// A unit enum that can be a single-select field, or the item of a multi-select.
/// Implemented by `#[derive(Elicit)]` on an enum, which also needs `Deserialize` and
/// `JsonSchema`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a choice enum, so it cannot be the item of a multi-select",
    label = "not a #[derive(Elicit)] unit enum",
    note = "a multi-select is a Vec, BTreeSet or HashSet of a unit enum with #[derive(Elicit)]; MCP cannot express a list of free text or numbers"
)]
pub trait ElicitChoice: ElicitValue + HasDeserialize + HasJsonSchema {
    /// The variants' wire values, in declaration order.
    fn variants() -> &'static [&'static str];
}

impl<T: ElicitValue> ElicitField for T {
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        T::__elicit_variants()
    }

    fn __elicit_enum_names() -> bool {
        T::__elicit_enum_names()
    }

    fn __elicit_is_option() -> bool {
        false
    }
}

impl<T: ElicitValue> ElicitField for Option<T> {
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        T::__elicit_variants()
    }

    fn __elicit_enum_names() -> bool {
        T::__elicit_enum_names()
    }

    fn __elicit_is_option() -> bool {
        true
    }
}

macro_rules! primitives {
    ($($t:ty),*) => { $(impl ElicitValue for $t {})* };
}

primitives!(
    String, bool, i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

impl<E: ElicitChoice> ElicitValue for Vec<E> {
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        Some(E::variants())
    }
}

impl<E: ElicitChoice> ElicitValue for BTreeSet<E> {
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        Some(E::variants())
    }
}

impl<E: ElicitChoice, S> ElicitValue for HashSet<E, S> {
    fn __elicit_variants() -> Option<&'static [&'static str]> {
        Some(E::variants())
    }
}

// Each names a feature a field's type needs. The derive asks it of a field whose type is named
// as one of the feature's types, so that with the feature off the error says which to turn on.

#[diagnostic::on_unimplemented(
    message = "`{Self}` is a chrono date or date-time, which needs elicit-core's `chrono` feature",
    label = "turn on elicit-core's `chrono` feature",
    note = "add \"chrono\" to the `features` of elicit-core in Cargo.toml"
)]
/// Implemented for every type when the `chrono` feature is on.
pub trait NeedsChrono {}
#[cfg(feature = "chrono")]
impl<T: ?Sized> NeedsChrono for T {}

#[diagnostic::on_unimplemented(
    message = "`{Self}` is a date or date-time of the time crate, which needs elicit-core's `time` feature and its `elicit_core::time` types",
    label = "turn on elicit-core's `time` feature",
    note = "add \"time\" to the `features` of elicit-core in Cargo.toml"
)]
/// Implemented for every type when the `time` feature is on.
pub trait NeedsTime {}
#[cfg(feature = "time")]
impl<T: ?Sized> NeedsTime for T {}

#[diagnostic::on_unimplemented(
    message = "`{Self}` is a URL, which needs elicit-core's `url` feature",
    label = "turn on elicit-core's `url` feature",
    note = "add \"url\" to the `features` of elicit-core in Cargo.toml"
)]
/// Implemented for every type when the `url` feature is on.
pub trait NeedsUrl {}
#[cfg(feature = "url")]
impl<T: ?Sized> NeedsUrl for T {}

// What a field's bounding keys ask of its type: the derive asks `TakesRange` of a field with
// `range` and `TakesLength` of one with `length`, so that a bound the property cannot carry
// is an error at the key instead of a bound dropped from the form.

#[diagnostic::on_unimplemented(
    message = "`range` bounds a number, and a `{Self}` field is not one",
    label = "`range` on a field of type `{Self}`",
    note = "a string's length is bounded with `length(min = .., max = ..)`, as is a multi-select's count of choices"
)]
/// A field type whose value `range` bounds: a number, or an `Option` of one.
pub trait TakesRange {}

#[diagnostic::on_unimplemented(
    message = "`length` bounds a string or a multi-select, and a `{Self}` field is neither",
    label = "`length` on a field of type `{Self}`",
    note = "a number is bounded with `range(min = .., max = ..)`; a choice, a boolean and a date take no bound"
)]
/// A field type whose value `length` bounds: a string (of characters), a multi-select (of
/// choices), or an `Option` of one.
pub trait TakesLength {}

macro_rules! takes {
    ($bound:ident: $($t:ty),*) => { $(impl $bound for $t {})* };
}

takes!(TakesRange: i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64);
takes!(TakesLength: String, crate::Email);

impl<T: TakesRange> TakesRange for Option<T> {}
impl<T: TakesLength> TakesLength for Option<T> {}
impl<E: ElicitChoice> TakesLength for Vec<E> {}
impl<E: ElicitChoice> TakesLength for BTreeSet<E> {}
impl<E: ElicitChoice, S> TakesLength for HashSet<E, S> {}
