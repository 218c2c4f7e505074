//! Reading accepted content into [`Content`]: each value written into the content's buffer,
//! through the same adapter and rules as every other target, and the schema's defaults filled
//! in for the properties the reply leaves out.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::fmt;

use serde::Deserialize;
use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use super::Sink;
use super::adapter::{ContentDe, ReadContent};
use super::fast::{GiveUp, Object};
use crate::content::{Content, Writer};

impl ReadContent for Content {
    fn read<'de, D: Deserializer<'de>>(sink: &Sink<'_>, d: D) -> Result<Self, D::Error> {
        ContentDe::new(sink, d).deserialize_map(Slots { sink })
    }

    fn fast(sink: &Sink<'_>, content: Object<'_, '_, '_, '_>) -> Result<Self, GiveUp> {
        content.deserialize_map(Slots { sink })
    }
}

/// Writes each property's value into the content's buffer; a key the schema does not name keeps
/// its text and its value.
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
        let mut writer = Writer::new();
        let mut extra = Vec::new();
        while let Some(slot) = map.next_key_seed(Name { sink: self.sink })? {
            match slot {
                Slot::Property(index) => map.next_value_seed(Pack {
                    writer: &mut writer,
                    index,
                })?,
                Slot::Other(key) => extra.push((key, map.next_value()?)),
            }
        }
        last_value_wins(&mut extra);
        let values = writer.finish(schema.defaults(), |w, i| {
            if let Some(default) = schema
                .properties
                .get(i)
                .and_then(|p| p.kind.default_value())
            {
                w.value(i, &default);
            }
        });
        Ok(Content::from_parts(schema.names(), values, extra))
    }
}

/// Reads one property's value into the content's buffer.
struct Pack<'w> {
    writer: &'w mut Writer,
    index: usize,
}

impl<'de> DeserializeSeed<'de> for Pack<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Pack<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.writer.bool(self.index, v);
        Ok(())
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.writer.i64(self.index, v);
        Ok(())
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.writer.u64(self.index, v);
        Ok(())
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        self.writer.f64(self.index, v);
        Ok(())
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.writer.str(self.index, v);
        Ok(())
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.writer.null(self.index);
        Ok(())
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }

    /// A list of strings is written in place; a list that holds anything else is kept as a
    /// `Value`.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mark = self.writer.strs(self.index);
        loop {
            match seq.next_element_seed(Item {
                writer: &mut *self.writer,
            })? {
                None => {
                    self.writer.end_strs();
                    return Ok(());
                }
                Some(None) => {}
                Some(Some(other)) => {
                    let mut items = self.writer.undo_strs(mark);
                    items.push(other);
                    while let Some(item) = seq.next_element()? {
                        items.push(item);
                    }
                    self.writer.other(self.index, Value::Array(items));
                    return Ok(());
                }
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let value = Value::deserialize(MapAccessDeserializer::new(map))?;
        self.writer.other(self.index, value);
        Ok(())
    }
}

/// One item of a list: a string is written in place (`None`); anything else is handed back.
struct Item<'w> {
    writer: &'w mut Writer,
}

impl<'de> DeserializeSeed<'de> for Item<'_> {
    type Value = Option<Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Value>, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Item<'_> {
    type Value = Option<Value>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<Value>, E> {
        self.writer.item(v);
        Ok(None)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Option<Value>, E> {
        Ok(Some(Value::Bool(v)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Option<Value>, E> {
        Ok(Some(Value::from(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<Value>, E> {
        Ok(Some(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Option<Value>, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<Value>, D::Error> {
        Value::deserialize(d).map(Some)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Option<Value>, A::Error> {
        Value::deserialize(SeqAccessDeserializer::new(seq)).map(Some)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Value>, A::Error> {
        Value::deserialize(MapAccessDeserializer::new(map)).map(Some)
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
