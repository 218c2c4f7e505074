//! [`Content`]: accepted content as the runtime path reads it, one slot per property.

use std::fmt;
use std::sync::Arc;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

/// Accepted content read against a [`RequestedSchema`](crate::RequestedSchema) at run time.
///
/// It holds each property's value in a slot of its own, in form order, followed by any keys the
/// schema does not name (kept only when the schema allows them, in the order they arrived).
/// Reading a reply into it builds no map and allocates no keys: the names are shared with the
/// schema. Read values with [`get`](Self::get), walk them with [`iter`](Self::iter), and turn it
/// into a `serde_json` map with [`into_map`](Self::into_map) or `Map::from`. It serializes as the
/// JSON object it was read from (with defaults filled in).
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
/// assert_eq!(content.get("name"), Some(&json!("Ada")));
/// assert_eq!(content.len(), 2);
/// assert_eq!(serde_json::to_value(&content)?, json!({"name": "Ada", "age": 36}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Content {
    names: Arc<[String]>,
    values: Vec<Option<Value>>,
    extra: Vec<(String, Value)>,
}

impl Content {
    /// Content with the given property names and one slot for each, from the reader.
    pub(crate) fn from_parts(
        names: Arc<[String]>,
        values: Vec<Option<Value>>,
        extra: Vec<(String, Value)>,
    ) -> Self {
        debug_assert_eq!(names.len(), values.len());
        Content {
            names,
            values,
            extra,
        }
    }

    /// The value of `name`, if the content has it.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Value> {
        match self.names.iter().position(|n| n == name) {
            Some(i) => self.values[i].as_ref(),
            None => self
                .extra
                .iter()
                .find_map(|(k, v)| (k == name).then_some(v)),
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
        self.values.iter().flatten().count() + self.extra.len()
    }

    /// Whether no property has a value.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The properties that have a value, in form order, then keys the schema does not name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Value)> {
        self.names
            .iter()
            .zip(&self.values)
            .filter_map(|(name, value)| Some((name.as_str(), value.as_ref()?)))
            .chain(self.extra.iter().map(|(k, v)| (k.as_str(), v)))
    }

    /// The content as a `serde_json` map.
    #[must_use]
    pub fn into_map(self) -> Map<String, Value> {
        let Content {
            names,
            values,
            extra,
        } = self;
        names
            .iter()
            .zip(values)
            .filter_map(|(name, value)| Some((name.clone(), value?)))
            .chain(extra)
            .collect()
    }

    /// Sets the slot of property `i` where it is empty.
    pub(crate) fn fill(&mut self, i: usize, value: impl FnOnce() -> Option<Value>) {
        if let Some(slot @ None) = self.values.get_mut(i) {
            *slot = value();
        }
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
    /// Equal when they hold the same values under the same names, whatever the order.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl PartialEq<Map<String, Value>> for Content {
    fn eq(&self, other: &Map<String, Value>) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
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
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}
