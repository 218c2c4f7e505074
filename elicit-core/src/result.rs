//! [`ElicitResult<T>`]: the typed answer to an elicitation.

use std::fmt;
use std::str::FromStr;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer};
use serde::ser::{self, Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::Elicit;
use crate::error::ElicitError;
use crate::limits::Limits;
use crate::validate::envelope::{Envelope, Outcome};
use crate::validate::{Sink, run};

/// What the user did with the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElicitAction {
    /// The user submitted the form.
    Accept,
    /// The user saw the form and refused. Do not ask again.
    Decline,
    /// The user dismissed the form (Esc, closed it, timed out). Asking once more is fine.
    Cancel,
}

impl ElicitAction {
    /// The word on the wire: `accept`, `decline` or `cancel`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ElicitAction::Accept => "accept",
            ElicitAction::Decline => "decline",
            ElicitAction::Cancel => "cancel",
        }
    }
}

impl fmt::Display for ElicitAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ElicitAction {
    type Err = ElicitError;

    /// Exactly `accept`, `decline` or `cancel`; any other spelling is refused.
    fn from_str(s: &str) -> Result<Self, ElicitError> {
        match s {
            "accept" => Ok(ElicitAction::Accept),
            "decline" => Ok(ElicitAction::Decline),
            "cancel" => Ok(ElicitAction::Cancel),
            other => Err(ElicitError::new(vec![crate::error::Violation::new(
                crate::error::Location::Envelope,
                crate::error::Rule::ActionInvalid,
                Some(format!("{other:?}")),
            )])),
        }
    }
}

/// The answer to an elicitation, with the accepted content as a validated `T`.
///
/// There is no way to read the content without matching the action: only `Accept` holds a `T`.
///
/// Deserializing checks the action, validates the content against `T::requested_schema()`, and
/// builds `T`, in one pass:
///
/// ```
/// use elicit_core::{Elicit, ElicitResult};
///
/// /// Pick a name
/// #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
/// struct Name {
///     #[schemars(length(min = 1))]
///     name: String,
/// }
///
/// let r: ElicitResult<Name> =
///     serde_json::from_str(r#"{"action":"accept","content":{"name":"Ada"}}"#).unwrap();
/// assert!(matches!(r, ElicitResult::Accept(Name { ref name }) if name == "Ada"));
///
/// let err = ElicitResult::<Name>::from_json(r#"{"action":"accept","content":{"name":""}}"#)
///     .unwrap_err();
/// assert_eq!(err.to_string(), r#"`name` must be at least 1 character long (minLength); received """#);
/// ```
#[must_use = "an elicitation result says whether the user accepted, declined or cancelled"]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ElicitResult<T> {
    /// The user submitted the form; the content is valid against the schema.
    Accept(T),
    /// The user saw the form and refused. Treat it as a hard stop.
    Decline,
    /// The user dismissed the form. One retry, with context, is fine.
    Cancel,
}

impl<T> ElicitResult<T> {
    /// The action the user took.
    pub fn action(&self) -> ElicitAction {
        match self {
            ElicitResult::Accept(_) => ElicitAction::Accept,
            ElicitResult::Decline => ElicitAction::Decline,
            ElicitResult::Cancel => ElicitAction::Cancel,
        }
    }

    /// The accepted content, if the user accepted.
    pub fn accepted(self) -> Option<T> {
        match self {
            ElicitResult::Accept(value) => Some(value),
            _ => None,
        }
    }

    /// The accepted content by reference, if the user accepted.
    pub fn as_accepted(&self) -> Option<&T> {
        match self {
            ElicitResult::Accept(value) => Some(value),
            _ => None,
        }
    }

    /// Maps the accepted content, keeping decline and cancel as they are.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> ElicitResult<U> {
        match self {
            ElicitResult::Accept(value) => ElicitResult::Accept(f(value)),
            ElicitResult::Decline => ElicitResult::Decline,
            ElicitResult::Cancel => ElicitResult::Cancel,
        }
    }

    /// Whether asking again is reasonable: yes after a cancel (the user dismissed the form),
    /// no after a decline (the user refused) or an accept.
    pub fn is_retryable(&self) -> bool {
        matches!(self, ElicitResult::Cancel)
    }

    pub(crate) fn from_outcome(outcome: Outcome<T>) -> Self {
        match outcome {
            Outcome::Accept(value) => ElicitResult::Accept(value),
            Outcome::Decline => ElicitResult::Decline,
            Outcome::Cancel => ElicitResult::Cancel,
        }
    }
}

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
        Self::from_outcome(outcome).check()
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
        let outcome = run::from_value(T::requested_schema(), value)?;
        Self::from_outcome(outcome).check()
    }

    /// Runs the type's server-side rules (`#[elicit(validate = ..)]`) on accepted content.
    pub(crate) fn check(self) -> Result<Self, ElicitError> {
        if let ElicitResult::Accept(value) = &self {
            let mut violations = Vec::new();
            value.__elicit_validate(&mut violations);
            if !violations.is_empty() {
                crate::validate::in_form_order(T::requested_schema(), &mut violations);
                return Err(ElicitError::new(violations));
            }
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
            Ok(outcome) if sink.is_empty() => Self::from_outcome(outcome)
                .check()
                .map_err(de::Error::custom),
            Err(e) if sink.is_empty() => Err(e),
            _ => Err(de::Error::custom(sink.into_error())),
        }
    }
}

/// Writes the wire form: `{"action":"decline"}`, `{"action":"cancel"}`, or
/// `{"action":"accept","content":{..}}`. An absent `Option` is left out of the content, never
/// written as `null`, which is not a legal content value.
impl<T: Serialize> Serialize for ElicitResult<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let content = match self {
            ElicitResult::Accept(value) => match serde_json::to_value(value) {
                Ok(Value::Object(mut map)) => {
                    map.retain(|_, v| !v.is_null());
                    Some(map)
                }
                Ok(other) => {
                    return Err(ser::Error::custom(format!(
                        "accepted content must serialize as a JSON object, not {}",
                        crate::model::json_type_name(&other)
                    )));
                }
                Err(e) => return Err(ser::Error::custom(e)),
            },
            _ => None,
        };
        let mut map = serializer.serialize_map(Some(1 + usize::from(content.is_some())))?;
        map.serialize_entry("action", self.action().as_str())?;
        if let Some(content) = &content {
            map.serialize_entry("content", content)?;
        }
        map.end()
    }
}
