//! The typed entry points of [`ElicitResult<T>`]: reply text or bytes, a JSON value, and serde.

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer};
use serde_json::Value;

use super::JsonText;
use super::envelope::Envelope;
use super::sink::{Sink, in_form_order};
use crate::elicit::Elicit;
use crate::error::ElicitError;
use crate::limits::Limits;
use crate::result::ElicitResult;

impl<T: Elicit> ElicitResult<T> {
    /// Reads a reply from JSON text or bytes ([`JsonText`]), reporting every violation, not
    /// only the first.
    ///
    /// Decline and cancel ignore `content` whatever it holds. Accept with absent or `null`
    /// content is read as `{}`, so required fields are reported missing.
    ///
    /// The default [`Limits`](crate::Limits) apply: 1 MiB per reply, 64 KiB per string; a
    /// [`Form`](crate::Form) reads under others.
    pub fn from_json(json: &(impl JsonText + ?Sized)) -> Result<Self, ElicitError> {
        let schema = T::requested_schema();
        super::from_text(schema, json, &schema.limits)?.check()
    }

    /// Reads a reply already held as a JSON value, reporting every violation. The value is
    /// borrowed: its content is read where it is.
    pub fn from_value(reply: &Value) -> Result<Self, ElicitError> {
        let schema = T::requested_schema();
        super::from_value(schema, reply, &schema.limits)?.check()
    }

    /// Runs the type's server-side rules (`#[elicit(validate = ..)]`) on accepted content.
    /// The error lists what they find in form order; the schema, which only orders them, is
    /// looked up only when they find something.
    pub(crate) fn check(self) -> Result<Self, ElicitError> {
        if let ElicitResult::Accept(value) = &self {
            let mut violations = Vec::new();
            value.__elicit_validate(&mut violations);
            if !violations.is_empty() {
                in_form_order(T::requested_schema(), &mut violations);
                return Err(ElicitError::new(violations));
            }
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
