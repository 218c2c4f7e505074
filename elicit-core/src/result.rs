//! [`ElicitResult<T>`]: the typed answer to an elicitation.

use std::fmt;
use std::str::FromStr;

use serde::ser::{self, Serialize, SerializeMap, Serializer};
use serde_json::Value;

use crate::error::{ElicitError, Location, Rule, Violation};

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

impl ElicitAction {
    /// The action a wire word names: exactly `accept`, `decline` or `cancel`. Every reader of a
    /// reply matches the word here.
    pub(crate) fn from_wire(word: &str) -> Option<ElicitAction> {
        match word {
            "accept" => Some(ElicitAction::Accept),
            "decline" => Some(ElicitAction::Decline),
            "cancel" => Some(ElicitAction::Cancel),
            _ => None,
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
        ElicitAction::from_wire(s).ok_or_else(|| {
            ElicitError::new(vec![Violation::new(
                Location::Envelope,
                Rule::ActionInvalid,
                Some(format!("{s:?}")),
            )])
        })
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
                        crate::schema::parse::json_type(&other)
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
