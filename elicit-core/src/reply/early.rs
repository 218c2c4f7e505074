//! Content that comes before `action`, held until the action says what it is: its keys kept in
//! order with their duplicates, so that it is read, and refused, as content that comes after.

use std::fmt;

use serde::de::value::MapDeserializer;
use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::adapter::{ContentSeed, ReadContent};

/// Early content: an object as its key-value pairs, every one kept, or any other value.
pub(super) enum Early {
    Pairs(Vec<(String, Value)>),
    Other(Value),
}

impl Early {
    /// The content, read into `C` as content after the action is.
    pub(super) fn read<C: ReadContent>(
        self,
        seed: ContentSeed<'_, '_, C>,
    ) -> Result<C, serde_json::Error> {
        match self {
            Early::Pairs(pairs) => seed.deserialize(MapDeserializer::new(pairs.into_iter())),
            // `null` reads as `{}`, as no content does.
            Early::Other(Value::Null) => {
                seed.deserialize(MapDeserializer::new(std::iter::empty::<(String, Value)>()))
            }
            Early::Other(value) => seed.deserialize(value),
        }
    }
}

impl<'de> Deserialize<'de> for Early {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(EarlyVisitor)
    }
}

struct EarlyVisitor;

impl<'de> Visitor<'de> for EarlyVisitor {
    type Value = Early;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the content of a reply")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Early, A::Error> {
        let mut pairs = Vec::new();
        while let Some((key, value)) = map.next_entry::<String, Value>()? {
            pairs.push((key, value));
        }
        Ok(Early::Pairs(pairs))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Early, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Value>()? {
            items.push(item);
        }
        Ok(Early::Other(Value::Array(items)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Early, E> {
        Ok(Early::Other(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Early, E> {
        Ok(Early::Other(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Early, E> {
        Ok(Early::Other(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Early, E> {
        Ok(Early::Other(Value::from(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Early, E> {
        Ok(Early::Other(Value::String(v.to_owned())))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Early, E> {
        Ok(Early::Other(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Early, E> {
        Ok(Early::Other(Value::Null))
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Early, D::Error> {
        d.deserialize_any(self)
    }
}

/// No content at all reads as `{}`.
pub(super) fn empty() -> Early {
    Early::Pairs(Vec::new())
}
