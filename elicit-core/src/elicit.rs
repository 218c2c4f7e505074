//! The [`Elicit`] trait: a type asked of the user as a form.

use crate::derive_support::{self as support, FieldHooks, FormTraits, SchemaCache};
use crate::derive_support::{HasDeserialize, HasJsonSchema};
use crate::error::{SchemaError, Violation};
use crate::schema::RequestedSchema;
use crate::schema::request::FormRequest;
use crate::version::ProtocolVersion;

/// A type that can be asked of the user as an elicitation form.
///
/// Implement it with `#[derive(Elicit)]`, next to `Deserialize` and `JsonSchema`. Generic code
/// that deserializes a `T: Elicit` itself, or asks schemars for its schema, names those bounds
/// too: `T: Elicit + DeserializeOwned`.
pub trait Elicit: HasDeserialize + HasJsonSchema + 'static {
    #[doc(hidden)]
    const __ELICIT_MESSAGE: &'static str;
    #[doc(hidden)]
    const __ELICIT_FIELDS: &'static [FieldHooks];
    #[doc(hidden)]
    const __ELICIT_AUTO_TITLES: bool = true;
    #[doc(hidden)]
    const __ELICIT_BOUND_HINTS: bool = true;
    #[doc(hidden)]
    fn __elicit_cache() -> &'static SchemaCache;
    /// The wire names of the form's own fields, in declaration order, as serde's derive lists
    /// them: a form with `#[serde(flatten)]` parts, which serde reads as a map, lists them
    /// through a probe of its own fields.
    #[doc(hidden)]
    #[must_use]
    fn __elicit_own_names() -> &'static [&'static str] {
        support::fields_of::<Self>()
    }
    #[doc(hidden)]
    fn __elicit_validate(&self, _violations: &mut Vec<Violation>) {}

    /// The `requestedSchema` for the newest protocol version, built once and cached.
    ///
    /// # Panics
    ///
    /// Only if schemars produces a schema the derive's compile-time checks did not foresee; such
    /// a type fails the same way on the first call, in its first test.
    #[must_use]
    fn requested_schema() -> &'static RequestedSchema {
        match Self::requested_schema_for(ProtocolVersion::LATEST) {
            Ok(schema) => schema,
            Err(e) => support::unsendable(std::any::type_name::<Self>(), &e),
        }
    }

    /// The `requestedSchema` for `version`, built once per version and cached. Fails, naming
    /// the field, when the type needs something the version cannot express (a multi-select on
    /// 2025-06-18).
    fn requested_schema_for(
        version: ProtocolVersion,
    ) -> Result<&'static RequestedSchema, SchemaError> {
        support::cached_schema(Self::__elicit_cache(), version, || {
            support::build::<Self>(&FormTraits {
                auto_titles: Self::__ELICIT_AUTO_TITLES,
                bound_hints: Self::__ELICIT_BOUND_HINTS,
            })
        })
    }

    /// The message shown with the form: `#[elicit(message = "..")]`, else the type's doc comment.
    #[must_use]
    fn message() -> &'static str {
        Self::__ELICIT_MESSAGE
    }

    /// The `elicitation/create` params for the newest protocol version.
    #[must_use]
    fn form_request() -> FormRequest<'static> {
        FormRequest::new(Self::message(), Self::requested_schema())
    }

    /// The `elicitation/create` params for `version`.
    fn form_request_for(version: ProtocolVersion) -> Result<FormRequest<'static>, SchemaError> {
        let schema = Self::requested_schema_for(version)?;
        FormRequest::new(Self::message(), schema).with_version(version)
    }
}
