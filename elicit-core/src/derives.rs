//! The two derives a form needs besides `Elicit`, as bounds whose errors name the derive to add.
//!
//! `Elicit` could ask for `Deserialize` and `JsonSchema` directly, but the compiler would then
//! report a missing one through the other crate's trait, with a long list of its implementors.
//! These traits are implemented for every type that has the real one, and say what to add when
//! it is missing.

use serde::Deserializer;
use serde::de::DeserializeOwned;

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
    #[inline]
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
