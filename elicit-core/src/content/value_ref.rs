//! [`ValueRef`]: one value of a [`Content`](super::Content), borrowed from it.

use std::fmt;

use serde::ser::{Serialize, SerializeSeq, Serializer};
use serde_json::{Number, Value};

use super::packed;

/// One value of [`Content`](super::Content), read where the content holds it.
///
/// A form's values are strings, numbers, booleans and lists of strings (a multi-select), so
/// content holds them without a `serde_json::Value` each. Read one with the `as_*` methods,
/// compare it with a `Value` (`==`), or make a `Value` of it with
/// [`to_value`](Self::to_value).
///
/// ```
/// use elicit_core::{RequestedSchema, ValueRef};
/// use serde_json::json;
///
/// let schema = RequestedSchema::from_value(json!({
///     "type": "object",
///     "properties": {
///         "name": {"type": "string"},
///         "tags": {"type": "array", "items": {"enum": ["a", "b"]}}
///     }
/// }))?;
/// let reply = r#"{"action":"accept","content":{"name":"Ada","tags":["a","b"]}}"#;
/// let content = schema.parse_result_json(reply)?.accepted().expect("accepted");
/// assert_eq!(content.get("name").and_then(|v| v.as_str()), Some("Ada"));
/// assert!(content.get("name").is_some_and(|v| v == json!("Ada")));
/// let tags: Vec<&str> = content.get("tags").and_then(|v| v.as_strings()).unwrap().collect();
/// assert_eq!(tags, ["a", "b"]);
/// assert!(matches!(content.get("name"), Some(ValueRef::String("Ada"))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
#[non_exhaustive]
pub enum ValueRef<'a> {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number, as `serde_json` holds it (`u64`, `i64` or `f64`).
    Number(Number),
    /// A string.
    String(&'a str),
    /// A list of strings: a multi-select's choices.
    Strings(Strings<'a>),
    /// Any other JSON value, held as a `serde_json::Value`: a key the schema does not name
    /// keeps its value this way.
    Json(&'a Value),
}

impl<'a> ValueRef<'a> {
    /// The value as a `serde_json::Value`.
    #[must_use]
    pub fn to_value(&self) -> Value {
        match self {
            ValueRef::Null => Value::Null,
            ValueRef::Bool(b) => Value::Bool(*b),
            ValueRef::Number(n) => Value::Number(n.clone()),
            ValueRef::String(s) => Value::from(*s),
            ValueRef::Strings(items) => items.clone().map(Value::from).collect(),
            ValueRef::Json(v) => (*v).clone(),
        }
    }

    /// The string, if the value is one.
    #[must_use]
    pub fn as_str(&self) -> Option<&'a str> {
        match *self {
            ValueRef::String(s) => Some(s),
            ValueRef::Json(v) => v.as_str(),
            _ => None,
        }
    }

    /// The boolean, if the value is one.
    #[must_use]
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            ValueRef::Bool(b) => Some(b),
            ValueRef::Json(v) => v.as_bool(),
            _ => None,
        }
    }

    /// The number, if the value is one.
    #[must_use]
    pub fn as_number(&self) -> Option<&Number> {
        match self {
            ValueRef::Number(n) => Some(n),
            ValueRef::Json(Value::Number(n)) => Some(n),
            _ => None,
        }
    }

    /// The number as an `i64`, if it is an integer that fits one.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// The number as a `u64`, if it is an integer that fits one.
    #[must_use]
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    /// The number as an `f64`, if the value is a number.
    #[must_use]
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    /// The items, if the value is a list of strings.
    #[must_use]
    pub fn as_strings(&self) -> Option<Strings<'a>> {
        match *self {
            ValueRef::Strings(ref items) => Some(items.clone()),
            ValueRef::Json(Value::Array(items)) if items.iter().all(Value::is_string) => {
                Some(Strings(Inner::Values(items.iter())))
            }
            _ => None,
        }
    }

    /// Whether the value is `null`.
    #[must_use]
    pub fn is_null(&self) -> bool {
        matches!(self, ValueRef::Null | ValueRef::Json(Value::Null))
    }
}

impl PartialEq<Value> for ValueRef<'_> {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (ValueRef::Null, Value::Null) => true,
            (ValueRef::Bool(a), Value::Bool(b)) => a == b,
            (ValueRef::Number(a), Value::Number(b)) => a == b,
            (ValueRef::String(a), Value::String(b)) => a == b,
            (ValueRef::Strings(items), Value::Array(b)) => {
                let mut b = b.iter();
                items
                    .clone()
                    .all(|a| b.next().and_then(Value::as_str) == Some(a))
                    && b.next().is_none()
            }
            (ValueRef::Json(a), b) => *a == b,
            _ => false,
        }
    }
}

impl PartialEq<&Value> for ValueRef<'_> {
    fn eq(&self, other: &&Value) -> bool {
        *self == **other
    }
}

impl PartialEq<ValueRef<'_>> for Value {
    fn eq(&self, other: &ValueRef<'_>) -> bool {
        other == self
    }
}

impl PartialEq for ValueRef<'_> {
    /// Equal when they are the same JSON value, however each is held.
    fn eq(&self, other: &ValueRef<'_>) -> bool {
        match (self, other) {
            (ValueRef::Json(a), b) | (b, ValueRef::Json(a)) => b == *a,
            (ValueRef::Null, ValueRef::Null) => true,
            (ValueRef::Bool(a), ValueRef::Bool(b)) => a == b,
            (ValueRef::Number(a), ValueRef::Number(b)) => a == b,
            (ValueRef::String(a), ValueRef::String(b)) => a == b,
            (ValueRef::Strings(a), ValueRef::Strings(b)) => a.clone().eq(b.clone()),
            _ => false,
        }
    }
}

impl fmt::Debug for ValueRef<'_> {
    /// As the `serde_json::Value` it stands for prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueRef::Null => f.write_str("Null"),
            ValueRef::Bool(b) => write!(f, "Bool({b})"),
            ValueRef::Number(n) => fmt::Debug::fmt(n, f),
            ValueRef::String(s) => write!(f, "String({s:?})"),
            ValueRef::Strings(items) => {
                f.write_str("Array ")?;
                f.debug_list()
                    .entries(items.clone().map(ValueRef::String))
                    .finish()
            }
            ValueRef::Json(v) => fmt::Debug::fmt(v, f),
        }
    }
}

impl Serialize for ValueRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            ValueRef::Null => serializer.serialize_unit(),
            ValueRef::Bool(b) => serializer.serialize_bool(*b),
            ValueRef::Number(n) => n.serialize(serializer),
            ValueRef::String(s) => serializer.serialize_str(s),
            ValueRef::Strings(items) => {
                let mut seq = serializer.serialize_seq(None)?;
                for item in items.clone() {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            ValueRef::Json(v) => v.serialize(serializer),
        }
    }
}

impl From<ValueRef<'_>> for Value {
    fn from(value: ValueRef<'_>) -> Self {
        value.to_value()
    }
}

/// The items of a list of strings in [`Content`](super::Content), in order.
#[derive(Clone)]
pub struct Strings<'a>(Inner<'a>);

#[derive(Clone)]
enum Inner<'a> {
    Packed(&'a [u8]),
    Values(std::slice::Iter<'a, Value>),
}

impl<'a> Strings<'a> {
    pub(super) fn packed(bytes: &'a [u8]) -> Self {
        Strings(Inner::Packed(bytes))
    }
}

impl<'a> Iterator for Strings<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        match &mut self.0 {
            Inner::Packed(bytes) => packed::item(bytes),
            Inner::Values(values) => values.next().and_then(Value::as_str),
        }
    }
}

impl fmt::Debug for Strings<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.clone()).finish()
    }
}

impl PartialEq for Strings<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.clone().eq(other.clone())
    }
}
