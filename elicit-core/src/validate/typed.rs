//! The typed entry points of [`ElicitResult<T>`]: reply text, a JSON value, and serde.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer};
use serde_json::Value;

use super::envelope::Envelope;
use super::{Sink, run};
use crate::Elicit;
use crate::error::ElicitError;
use crate::limits::Limits;
use crate::result::ElicitResult;

impl<T: Elicit> ElicitResult<T> {
    /// Parses a reply from JSON text, reporting every violation, not only the first.
    ///
    /// Decline and cancel ignore `content` whatever it holds. Accept with absent or `null`
    /// content is read as `{}`, so required fields are reported missing.
    ///
    /// The default [`Limits`] apply: 1 MiB per reply, 64 KiB per string.
    pub fn from_json(json: &str) -> Result<Self, ElicitError> {
        Self::from_json_with(json, &Limits::DEFAULT)
    }

    /// [`from_json`](Self::from_json) with other limits.
    pub fn from_json_with(json: &str, limits: &Limits) -> Result<Self, ElicitError> {
        let outcome = run::from_str(T::requested_schema(), json, limits)?;
        outcome.check()
    }

    /// Parses a reply from JSON bytes; invalid UTF-8 is reported as a JSON error.
    pub fn from_slice(json: &[u8]) -> Result<Self, ElicitError> {
        run::check_size(json, &Limits::DEFAULT)?;
        Self::from_json(run::utf8(json)?)
    }

    /// Parses a reply already held as a JSON value, reporting every violation.
    pub fn from_value(value: Value) -> Result<Self, ElicitError> {
        Self::from_value_ref(&value)
    }

    pub(crate) fn from_value_ref(value: &Value) -> Result<Self, ElicitError> {
        run::from_value(T::requested_schema(), value)?.check()
    }

    /// Runs the type's server-side rules (`#[elicit(validate = ..)]`) on accepted content.
    pub(crate) fn check(self) -> Result<Self, ElicitError> {
        // A form without rules of its own compiles none of this.
        if T::__ELICIT_VALIDATES
            && let ElicitResult::Accept(value) = &self
        {
            super::server_rules(T::requested_schema, &|v| value.__elicit_validate(v))?;
        }
        Ok(self)
    }
}

/// The validating parse. It stops at the first error that stops `T` itself (a value of the wrong
/// JSON type); its message lists the violations found up to there. Use
/// [`ElicitResult::from_json`] for the full list.
impl<'de, T: Elicit> Deserialize<'de> for ElicitResult<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sink = Sink::new(T::requested_schema());
        let result = Envelope::<T>::new(&sink).deserialize(d);
        match result {
            Ok(outcome) if sink.is_empty() => outcome.check().map_err(de::Error::custom),
            Err(e) if sink.is_empty() => Err(e),
            _ => Err(de::Error::custom(sink.into_error())),
        }
    }
}
