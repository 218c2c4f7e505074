//! The `elicitation/create` request params for form mode.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::error::SchemaError;
use crate::schema::RequestedSchema;
use crate::schema::wire::is_written_for;
use crate::version::ProtocolVersion;

/// The params of an `elicitation/create` request in form mode:
/// `{"mode": "form", "message": .., "requestedSchema": ..}`.
///
/// Build one with [`Elicit::form_request`](crate::Elicit::form_request) for a derived type, or
/// [`FormRequest::new`] for a runtime schema. Serializing it writes the wire params.
#[derive(Debug, Clone, PartialEq)]
pub struct FormRequest<'a> {
    message: Cow<'a, str>,
    schema: Cow<'a, RequestedSchema>,
    version: ProtocolVersion,
}

impl<'a> FormRequest<'a> {
    /// A request for the newest protocol version.
    pub fn new(message: impl Into<Cow<'a, str>>, schema: &'a RequestedSchema) -> Self {
        FormRequest {
            message: message.into(),
            schema: Cow::Borrowed(schema),
            version: ProtocolVersion::LATEST,
        }
    }

    /// A request for the newest protocol version that owns its schema.
    pub fn owned(message: impl Into<String>, schema: RequestedSchema) -> FormRequest<'static> {
        FormRequest {
            message: Cow::Owned(message.into()),
            schema: Cow::Owned(schema),
            version: ProtocolVersion::LATEST,
        }
    }

    /// The request written for `version`: 2025-06-18 has no `mode` key, and its schema is
    /// written down for it ([`RequestedSchema::for_version`]: titled choices as `enumNames`,
    /// defaults only on booleans, a multi-select as one box per choice). Fails, naming the
    /// field, for what the version cannot express.
    pub fn with_version(mut self, version: ProtocolVersion) -> Result<Self, SchemaError> {
        if !is_written_for(&self.schema, version) {
            self.schema = Cow::Owned(self.schema.for_version(version)?);
        }
        self.version = version;
        Ok(self)
    }

    /// The request tagged for `version`, at least 2025-11-25, which takes every schema as it is.
    pub(crate) fn retagged(mut self, version: ProtocolVersion) -> Self {
        debug_assert!(version >= ProtocolVersion::V2025_11_25);
        self.version = version;
        self
    }

    /// The request, owning its message and schema.
    #[cfg(feature = "ask")]
    pub(crate) fn into_owned(self) -> FormRequest<'static> {
        FormRequest {
            message: Cow::Owned(self.message.into_owned()),
            schema: Cow::Owned(self.schema.into_owned()),
            version: self.version,
        }
    }

    /// Replaces the message shown to the user.
    #[must_use]
    pub fn with_message(mut self, message: impl Into<Cow<'a, str>>) -> Self {
        self.message = message.into();
        self
    }

    /// The message shown to the user.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The requested schema.
    #[must_use]
    pub fn schema(&self) -> &RequestedSchema {
        &self.schema
    }

    /// The protocol version the request is written for.
    #[must_use]
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The params as a JSON value.
    #[must_use]
    pub fn to_value(&self) -> serde_json::Value {
        // A map with string keys, which `serde_json` always represents: `Null` is unreachable.
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
}

impl Serialize for FormRequest<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if self.version.has_modes() {
            map.serialize_entry("mode", "form")?;
        }
        map.serialize_entry("message", &self.message)?;
        map.serialize_entry("requestedSchema", &*self.schema)?;
        map.end()
    }
}
