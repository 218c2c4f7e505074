#![doc = include_str!("guide.md")]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly) labels each item gated behind a feature with that feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod cache;
pub mod client;
mod confirm;
mod content;
mod custom;
mod derives;
mod error;
mod field;
mod form;
mod jsonrpc;
mod limits;
mod model;
pub mod prelude;
mod probe;
mod request;
mod result;
pub mod retry;
#[cfg(feature = "rmcp")]
pub mod rmcp;
mod round_trip;
mod runtime;
mod types;
mod url_mode;
mod user_text;
mod validate;
mod version;

/// What generated code uses. Not a public API: the name changes with any change to it.
#[doc(hidden)]
#[path = "private.rs"]
pub mod __private_v1;

/// Hooks for this crate's own tests (feature `testing`). Not a public API.
#[cfg(feature = "testing")]
#[doc(hidden)]
#[path = "testing.rs"]
pub mod __testing;

/// The properties of a [`RequestedSchema`]: what each holds, with its rules.
pub mod schema {
    pub use crate::model::{
        BooleanField, Bound, Choice, Field, Format, Kind, MultiSelectField, MultiSelectRules,
        NumberField, NumberRules, Pattern, Property, SchemaBuilder, SelectField, SelectRules,
        SelectStyle, StringField, StringRules,
    };
}

pub use confirm::Confirm;
pub use content::{Content, Strings, ValueRef};
pub use custom::Invalid;
pub use derives::{HasDeserialize, HasJsonSchema};
pub use error::{ElicitError, Location, Rule, SchemaError, Violation};
pub use field::{ElicitChoice, ElicitField, ElicitValue};
pub use form::Form;
pub use jsonrpc::RequestId;
pub use limits::Limits;
pub use model::{Lint, RequestedSchema};
pub use request::FormRequest;
pub use result::{ElicitAction, ElicitResult};
pub use round_trip::{InputRequests, InputRequired, InputResponse, InputResponses};
#[cfg(feature = "time")]
pub use types::time;
pub use types::{Email, InvalidFormat};
pub use url_mode::{
    ElicitationComplete, URL_ELICITATION_REQUIRED, UrlElicitResult, UrlElicitationRequired,
    UrlRequest, UrlRequestError,
};
pub use version::{ProtocolVersion, UnknownVersion};

#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;

/// A type that can be asked of the user as an elicitation form.
///
/// Implement it with `#[derive(Elicit)]`, next to `Deserialize` and `JsonSchema`. Generic code
/// that deserializes a `T: Elicit` itself, or asks schemars for its schema, names those bounds
/// too: `T: Elicit + DeserializeOwned`.
pub trait Elicit: HasDeserialize + HasJsonSchema + 'static {
    #[doc(hidden)]
    const __ELICIT_MESSAGE: &'static str;
    #[doc(hidden)]
    const __ELICIT_FIELDS: &'static [__private_v1::VariantsFn];
    #[doc(hidden)]
    const __ELICIT_ENUM_NAMES: &'static [fn() -> bool] = &[];
    #[doc(hidden)]
    const __ELICIT_AUTO_TITLES: bool = true;
    #[doc(hidden)]
    const __ELICIT_BOUND_HINTS: bool = true;
    #[doc(hidden)]
    const __ELICIT_VALIDATES: bool = false;
    #[doc(hidden)]
    fn __elicit_cache() -> &'static __private_v1::SchemaCache;
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
            Err(e) => __private_v1::unsendable(std::any::type_name::<Self>(), &e),
        }
    }

    /// The `requestedSchema` for `version`, built once per version and cached. Fails, naming
    /// the field, when the type needs something the version cannot express (a multi-select on
    /// 2025-06-18).
    fn requested_schema_for(
        version: ProtocolVersion,
    ) -> Result<&'static RequestedSchema, SchemaError> {
        __private_v1::cached_schema(Self::__elicit_cache(), version, __private_v1::build::<Self>)
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
