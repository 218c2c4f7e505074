//! Reading accepted content into [`Content`]: each value into its property's slot, through the
//! same adapter and rules as every other target.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::Value;

use super::Sink;
use super::adapter::{ContentDe, ReadContent};
use super::fast::{GiveUp, Object};
use crate::content::Content;

impl ReadContent for Content {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Self, D::Error> {
        ContentDe::new(sink, d).deserialize_map(Slots { sink })
    }

    fn fast(sink: &Sink<'_>, content: Object<'_, '_, '_, '_>) -> Result<Self, GiveUp> {
        content.deserialize_map(Slots { sink })
    }
}

/// Fills one slot per property; a key the schema does not name keeps its text.
struct Slots<'a, 's> {
    sink: &'a Sink<'s>,
}

impl<'de> Visitor<'de> for Slots<'_, '_> {
    type Value = Content;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object of form values")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Content, A::Error> {
        let schema = self.sink.schema;
        let mut values = vec![None; schema.properties.len()];
        let mut extra = Vec::new();
        while let Some(slot) = map.next_key_seed(Name { sink: self.sink })? {
            let value: Value = map.next_value()?;
            match slot {
                Slot::Property(i) => values[i] = Some(value),
                Slot::Other(key) => extra.push((key, value)),
            }
        }
        Ok(Content::from_parts(schema.names(), values, extra))
    }
}

/// Where a key's value goes.
enum Slot {
    /// The slot of a property of the schema.
    Property(usize),
    /// A key the schema does not name, with its text.
    Other(String),
}

/// Reads a key as its [`Slot`]: the adapter has matched it to its property already, and the
/// sink says which, so only a key the schema does not name is copied.
struct Name<'a, 's> {
    sink: &'a Sink<'s>,
}

impl<'de> DeserializeSeed<'de> for Name<'_, '_> {
    type Value = Slot;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Slot, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for Name<'_, '_> {
    type Value = Slot;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a property name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Slot, E> {
        Ok(match self.sink.current() {
            Some(i) => Slot::Property(i),
            None => Slot::Other(v.to_owned()),
        })
    }
}
