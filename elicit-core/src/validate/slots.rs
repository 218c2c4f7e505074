//! Reading accepted content into [`Content`]: each value into its property's slot, through the
//! same adapter and rules as every other target.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
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
        last_value_wins(&mut extra);
        Ok(Content::from_parts(schema.names(), values, extra))
    }
}

/// A key the schema does not name, sent more than once, keeps its first place and its last
/// value, as in a `serde_json` map.
fn last_value_wins(extra: &mut Vec<(String, Value)>) {
    if extra.len() < 2 {
        return;
    }
    let mut first = HashMap::with_capacity(extra.len());
    let repeats: Vec<Option<usize>> = extra
        .iter()
        .enumerate()
        .map(|(i, (key, _))| match first.entry(key.as_str()) {
            Entry::Occupied(e) => Some(*e.get()),
            Entry::Vacant(e) => {
                e.insert(i);
                None
            }
        })
        .collect();
    drop(first);
    if repeats.iter().all(Option::is_none) {
        return;
    }
    for (i, repeat) in repeats.iter().enumerate() {
        if let Some(j) = *repeat {
            extra[j].1 = std::mem::take(&mut extra[i].1);
        }
    }
    let mut repeats = repeats.into_iter();
    extra.retain(|_| repeats.next().flatten().is_none());
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
