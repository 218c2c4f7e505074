//! Content that comes before `action`, held until the action says what it is, then read, and
//! refused, exactly as content that comes after.
//!
//! How it is held depends on the source. Reply text holds it as its raw text and reads it with
//! the same text reader ([`Raw`]); a reply held as a [`Value`] reads the content where it is
//! ([`Given`]). Either way a form's reader is compiled once per source. Any other deserializer,
//! through the `Deserialize` impl, holds its key-value pairs, every one kept ([`Pairs`]).

use std::fmt;

use serde::de::value::MapDeserializer;
use serde::de::{
    self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde_json::Value;
use serde_json::value::RawValue;

use super::adapter::{ContentSeed, ReadContent};

/// A way of holding content that comes before `action`.
pub(crate) trait Hold<'de> {
    /// The content as held.
    type Held;

    /// Takes the content's value from `map`.
    fn hold<A: MapAccess<'de>>(&self, map: &mut A) -> Result<Self::Held, A::Error>;

    /// Reads the held content (`None`: the reply had none) into `C`. No content and `null`
    /// read as `{}`.
    fn read<C: ReadContent>(
        &self,
        held: Option<Self::Held>,
        seed: ContentSeed<'_, '_, C>,
    ) -> Result<C, serde_json::Error>;
}

/// Reply text: the content's raw text, read again by serde_json's text reader.
pub(crate) struct Raw;

impl<'de> Hold<'de> for Raw {
    type Held = &'de RawValue;

    fn hold<A: MapAccess<'de>>(&self, map: &mut A) -> Result<&'de RawValue, A::Error> {
        map.next_value()
    }

    fn read<C: ReadContent>(
        &self,
        held: Option<&'de RawValue>,
        seed: ContentSeed<'_, '_, C>,
    ) -> Result<C, serde_json::Error> {
        let text = match held.map(RawValue::get) {
            None | Some("null") => "{}",
            Some(text) => text,
        };
        seed.deserialize(&mut serde_json::Deserializer::from_str(text))
    }
}

/// A reply held as a [`Value`]: its `content`, looked up before the reply is read, is read
/// where it is.
pub(crate) struct Given<'v>(pub(crate) Option<&'v Value>);

impl<'de> Hold<'de> for Given<'_> {
    type Held = ();

    fn hold<A: MapAccess<'de>>(&self, map: &mut A) -> Result<(), A::Error> {
        map.next_value::<IgnoredAny>().map(drop)
    }

    fn read<C: ReadContent>(
        &self,
        held: Option<()>,
        seed: ContentSeed<'_, '_, C>,
    ) -> Result<C, serde_json::Error> {
        match self.0.filter(|v| held.is_some() && !v.is_null()) {
            Some(content) => seed.deserialize(content),
            None => seed.deserialize(&Value::Object(serde_json::Map::new())),
        }
    }
}

/// Any other deserializer: an object as its key-value pairs, every one kept, or any other
/// value.
pub(crate) struct Pairs;

impl<'de> Hold<'de> for Pairs {
    type Held = Early;

    fn hold<A: MapAccess<'de>>(&self, map: &mut A) -> Result<Early, A::Error> {
        map.next_value()
    }

    fn read<C: ReadContent>(
        &self,
        held: Option<Early>,
        seed: ContentSeed<'_, '_, C>,
    ) -> Result<C, serde_json::Error> {
        match held {
            Some(Early::Pairs(pairs)) => seed.deserialize(MapDeserializer::new(pairs.into_iter())),
            Some(Early::Other(value)) if !value.is_null() => seed.deserialize(value),
            // No content, and `null`, read as `{}`.
            _ => seed.deserialize(MapDeserializer::new(std::iter::empty::<(String, Value)>())),
        }
    }
}

/// Early content held as [`Pairs`].
pub(crate) enum Early {
    Pairs(Vec<(String, Value)>),
    Other(Value),
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
