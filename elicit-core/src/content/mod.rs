//! [`Content`]: accepted content as the runtime path reads it, its values packed in one buffer.

mod packed;
mod value_ref;

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use packed::Cursor;
pub(crate) use packed::{Packed, Writer};
pub use value_ref::{Strings, ValueRef};

/// Accepted content read against a [`RequestedSchema`](crate::RequestedSchema) at run time.
///
/// It holds the properties' values in form order, packed into one buffer (strings, numbers,
/// booleans and lists of strings in place, with no `serde_json::Value` per value), followed by
/// any keys the schema does not name (kept only when the schema allows them, in the order they
/// arrived, as `Value`s). Reading a reply into it builds no map and allocates no keys: the
/// names are shared with the schema. Read a value with [`get`](Self::get), which borrows it as
/// a [`ValueRef`]; walk them with [`iter`](Self::iter); turn the content into a `serde_json`
/// map with [`into_map`](Self::into_map) or `Map::from`. It serializes as the JSON object it was
/// read from, with defaults filled in.
///
/// ```
/// use elicit_core::RequestedSchema;
/// use serde_json::json;
///
/// let schema = RequestedSchema::from_value(json!({
///     "type": "object",
///     "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
///     "required": ["name"]
/// }))?;
/// let reply = r#"{"action":"accept","content":{"name":"Ada","age":36}}"#;
/// let content = schema.parse_result_json(reply)?.accepted().expect("accepted");
/// assert_eq!(content.get("name").and_then(|v| v.as_str()), Some("Ada"));
/// assert!(content.get("age").is_some_and(|v| v == json!(36)));
/// assert_eq!(content.len(), 2);
/// assert_eq!(serde_json::to_value(&content)?, json!({"name": "Ada", "age": 36}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Content {
    names: Arc<[String]>,
    values: Packed,
    extra: Vec<(String, Value)>,
}

impl Content {
    /// Content with the given property names, from the reader.
    pub(crate) fn from_parts(
        names: Arc<[String]>,
        values: Packed,
        extra: Vec<(String, Value)>,
    ) -> Self {
        Content {
            names,
            values,
            extra,
        }
    }

    fn entries(&self) -> impl Iterator<Item = (usize, ValueRef<'_>)> {
        let mut cursor = Cursor::new(&self.values.bytes, &self.values.others);
        std::iter::from_fn(move || cursor.next())
    }

    /// The value of `name`, if the content has it.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<ValueRef<'_>> {
        match self.names.iter().position(|n| n == name) {
            Some(i) => Cursor::new(&self.values.bytes, &self.values.others).find(i),
            None => self
                .extra
                .iter()
                .find_map(|(k, v)| (k == name).then_some(ValueRef::Json(v))),
        }
    }

    /// Whether the content has a value for `name`.
    #[must_use]
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// How many properties have a value.
    #[must_use]
    pub fn len(&self) -> usize {
        self.values.entries + self.extra.len()
    }

    /// Whether no property has a value.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The properties that have a value, in form order, then keys the schema does not name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, ValueRef<'_>)> {
        self.entries()
            .filter_map(|(i, value)| Some((self.names.get(i)?.as_str(), value)))
            .chain(
                self.extra
                    .iter()
                    .map(|(k, v)| (k.as_str(), ValueRef::Json(v))),
            )
    }

    /// The content as a `serde_json` map.
    #[must_use]
    pub fn into_map(self) -> Map<String, Value> {
        let mut map: Map<String, Value> = self
            .entries()
            .filter_map(|(i, value)| Some((self.names.get(i)?.clone(), value.to_value())))
            .collect();
        map.extend(self.extra);
        map
    }
}

impl From<Content> for Map<String, Value> {
    fn from(content: Content) -> Self {
        content.into_map()
    }
}

impl From<Content> for Value {
    fn from(content: Content) -> Self {
        Value::Object(content.into_map())
    }
}

impl PartialEq for Content {
    /// Equal when they hold the same values under the same names, whatever the order. Each
    /// name is looked up once, in a map of the other's values: linear in the values.
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        let theirs: HashMap<&str, ValueRef<'_>> = other.iter().collect();
        self.iter()
            .all(|(name, value)| theirs.get(name).is_some_and(|o| *o == value))
    }
}

impl PartialEq<Map<String, Value>> for Content {
    fn eq(&self, other: &Map<String, Value>) -> bool {
        self.len() == other.len()
            && self
                .iter()
                .all(|(k, v)| other.get(k).is_some_and(|o| v == *o))
    }
}

impl fmt::Debug for Content {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl Serialize for Content {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (k, v) in self.iter() {
            map.serialize_entry(k, &v)?;
        }
        map.end()
    }
}
