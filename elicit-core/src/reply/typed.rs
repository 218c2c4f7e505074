//! The typed entry points of [`ElicitResult<T>`]: reply text, bytes, a JSON value, and serde.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer};
use serde_json::Value;

use super::envelope::Envelope;
use super::server_rules;
use super::sink::Sink;
use crate::elicit::Elicit;
use crate::error::ElicitError;
use crate::limits::Limits;
use crate::result::ElicitResult;

impl<T: Elicit> ElicitResult<T> {
    /// Reads a reply from JSON text, reporting every violation, not only the first.
    ///
    /// Decline and cancel ignore `content` whatever it holds. Accept with absent or `null`
    /// content is read as `{}`, so required fields are reported missing.
    ///
    /// The default [`Limits`] apply: 1 MiB per reply, 64 KiB per string.
    pub fn from_json(json: &str) -> Result<Self, ElicitError> {
        Self::from_json_with(json, &Limits::DEFAULT)
    }

    /// [`from_json`](Self::from_json) under other limits.
    pub fn from_json_with(json: &str, limits: &Limits) -> Result<Self, ElicitError> {
        super::from_str(T::requested_schema(), json, limits)?.check()
    }

    /// Reads a reply from JSON bytes; bytes that are not UTF-8 are a JSON error.
    pub fn from_slice(json: &[u8]) -> Result<Self, ElicitError> {
        Self::from_slice_with(json, &Limits::DEFAULT)
    }

    /// [`from_slice`](Self::from_slice) under other limits.
    pub fn from_slice_with(json: &[u8], limits: &Limits) -> Result<Self, ElicitError> {
        super::from_slice(T::requested_schema(), json, limits)?.check()
    }

    /// Reads a reply already held as a JSON value, reporting every violation. The value is
    /// borrowed: its content is read where it is.
    pub fn from_value(reply: &Value) -> Result<Self, ElicitError> {
        Self::from_value_with(reply, &Limits::DEFAULT)
    }

    /// [`from_value`](Self::from_value) under other limits. A value has no text, so
    /// [`Limits::max_reply_bytes`] does not apply.
    pub fn from_value_with(reply: &Value, limits: &Limits) -> Result<Self, ElicitError> {
        super::from_value(T::requested_schema(), reply, limits)?.check()
    }

    /// Runs the type's server-side rules (`#[elicit(validate = ..)]`) on accepted content.
    pub(crate) fn check(self) -> Result<Self, ElicitError> {
        if let ElicitResult::Accept(value) = &self {
            server_rules(T::requested_schema(), &|v| value.__elicit_validate(v))?;
        }
        Ok(self)
    }
}

/// The validating read from any serde `Deserializer`. It stops at the first error that stops
/// `T` itself (a value of the wrong JSON type); its message lists the violations found up to
/// there. Use [`ElicitResult::from_json`] for the full list.
impl<'de, T: Elicit> Deserialize<'de> for ElicitResult<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sink = Sink::new(T::requested_schema(), &Limits::DEFAULT);
        let result = Envelope::<T>::new(&sink).deserialize(d);
        match result {
            Ok(outcome) if sink.is_empty() => outcome.check().map_err(de::Error::custom),
            Err(e) if sink.is_empty() => Err(e),
            _ => Err(de::Error::custom(sink.into_error())),
        }
    }
}
