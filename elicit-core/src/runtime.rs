//! The runtime API on [`RequestedSchema`]: reading replies against a schema that arrived as
//! JSON, and the client side (validating, filling defaults and coercing text before sending).
//!
//! These use the same rules as the typed path: the content is read through the same adapter,
//! into a [`Content`] (the values packed in one buffer) instead of a `T`. The client side works on the
//! `Map<String, Value>` a client builds.

use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Map, Number, Value};

use crate::content::Content;
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
use crate::model::{Kind, RequestedSchema, is_integral};
use crate::result::ElicitResult;
use crate::validate::adapter::ContentSeed;
use crate::validate::{Sink, run};

impl RequestedSchema {
    /// Reads a reply against this schema, with exactly the rules of the typed path, and fills
    /// schema defaults into accepted content for absent properties (not a default that breaks
    /// its own property's rules).
    pub fn parse_result(&self, reply: &Value) -> Result<ElicitResult<Content>, ElicitError> {
        run::from_value(self, reply)
    }

    /// [`parse_result`](Self::parse_result) for a reply held as JSON text, under the default
    /// [`Limits`].
    pub fn parse_result_json(&self, json: &str) -> Result<ElicitResult<Content>, ElicitError> {
        self.parse_result_json_with(json, &Limits::DEFAULT)
    }

    /// [`parse_result_json`](Self::parse_result_json) with other limits.
    pub fn parse_result_json_with(
        &self,
        json: &str,
        limits: &Limits,
    ) -> Result<ElicitResult<Content>, ElicitError> {
        run::from_str(self, json, limits)
    }

    /// Inserts the schema's default for every property absent from `content`. A default that
    /// breaks its own property's rules is never filled in ([`lint`](Self::lint) names it).
    pub fn fill_defaults(&self, content: &mut Map<String, Value>) {
        for (i, prop) in self.properties.iter().enumerate() {
            if !content.contains_key(&prop.name)
                && let Some(default) = self.usable_default(i)
            {
                content.insert(prop.name.clone(), default);
            }
        }
    }

    /// Checks content against the schema, as a client should before sending it, and returns every
    /// violation.
    pub fn validate_content(&self, content: &Map<String, Value>) -> Result<(), ElicitError> {
        let sink = Sink::new(self);
        let read = ContentSeed::<IgnoredAny>::new(&sink).deserialize(MapRef::<de::value::Error> {
            map: content,
            marker: PhantomData,
        });
        let mut violations = sink.take();
        if let Err(e) = read
            && violations.is_empty()
        {
            violations.push(Violation::new(
                Location::Envelope,
                Rule::Deserialize(e.to_string()),
                None,
            ));
        }
        if violations.is_empty() {
            Ok(())
        } else {
            Err(ElicitError::new(violations))
        }
    }

    /// Checks one property's value alone, as a form does when the user leaves a field; the
    /// rules that concern other properties (`required`) are not applied.
    pub fn validate_property(&self, property: &str, value: &Value) -> Result<(), ElicitError> {
        let mut content = Map::new();
        content.insert(property.to_owned(), value.clone());
        match self.validate_content(&content) {
            Ok(()) => Ok(()),
            Err(e) => {
                let own: Vec<Violation> = e
                    .violations()
                    .iter()
                    .filter(|v| v.property() == Some(property))
                    .cloned()
                    .collect();
                if own.is_empty() {
                    Ok(())
                } else {
                    Err(ElicitError::new(own))
                }
            }
        }
    }

    /// Builds the accept a client sends: fills defaults for absent properties, then validates.
    /// Serialize the result to get `{"action":"accept","content":{..}}`.
    pub fn accept(
        &self,
        mut content: Map<String, Value>,
    ) -> Result<ElicitResult<Map<String, Value>>, ElicitError> {
        self.fill_defaults(&mut content);
        self.validate_content(&content)?;
        Ok(ElicitResult::Accept(content))
    }

    /// Turns text typed into a form field into the JSON value the schema asks for: `"42"` for an
    /// integer, `"true"`/`"yes"`/`"1"` for a boolean, a comma list for a multi-select, a choice's
    /// title for its value. Empty text is `None`: leave the property out.
    ///
    /// This is for clients that collect text. It is never applied when a server reads a reply:
    /// there, `"42"` for an integer is a type error.
    pub fn coerce_text(&self, property: &str, text: &str) -> Result<Option<Value>, ElicitError> {
        let Some(prop) = self.property(property) else {
            return Err(ElicitError::new(vec![Violation::new(
                Location::Property(property.to_owned()),
                Rule::UnknownProperty,
                None,
            )]));
        };
        let text = text.trim();
        if text.is_empty() {
            return Ok(None);
        }
        let wrong = || {
            ElicitError::new(vec![Violation::new(
                Location::Property(property.to_owned()),
                Rule::Type {
                    expected: prop.kind.json_type(),
                },
                Some(format!("{text:?}")),
            )])
        };
        let value = match &prop.kind {
            Kind::String(_) => Value::String(text.to_owned()),
            Kind::Number(rules) => coerce_number(text, rules.integer).ok_or_else(wrong)?,
            Kind::Boolean(_) => match text.to_ascii_lowercase().as_str() {
                "true" | "yes" | "y" | "on" | "1" => Value::Bool(true),
                "false" | "no" | "n" | "off" | "0" => Value::Bool(false),
                _ => return Err(wrong()),
            },
            Kind::Select(rules) => Value::String(choice_value(&rules.choices, text)),
            Kind::MultiSelect(rules) => Value::Array(
                text.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| Value::String(choice_value(&rules.choices, t)))
                    .collect(),
            ),
        };
        Ok(Some(value))
    }

    /// Coerces every string in `content` that belongs to a property, as
    /// [`coerce_text`](Self::coerce_text) does: blank text is dropped (not filled in), text for
    /// other kinds becomes their values. Values it cannot coerce are left for validation to
    /// report.
    #[must_use]
    pub fn coerce_content(&self, content: &Map<String, Value>) -> Map<String, Value> {
        content
            .iter()
            .filter_map(|(key, value)| {
                let coerced = match (self.property(key), value) {
                    (Some(_), Value::String(text)) => match self.coerce_text(key, text) {
                        Ok(Some(v)) => v,
                        Ok(None) => return None,
                        Err(_) => value.clone(),
                    },
                    _ => value.clone(),
                };
                Some((key.clone(), coerced))
            })
            .collect()
    }
}

fn coerce_number(text: &str, integer: bool) -> Option<Value> {
    if let Ok(n) = text.parse::<i64>() {
        return Some(Value::from(n));
    }
    if let Ok(n) = text.parse::<u64>() {
        return Some(Value::from(n));
    }
    let n = Number::from_f64(text.parse::<f64>().ok()?)?;
    if integer {
        // "42.0" is the integer 42; "42.5" is not an integer at all.
        let f = n.as_f64()?;
        return (is_integral(&n) && f.abs() <= crate::model::MAX_SAFE_INTEGER)
            .then(|| Value::from(f as i64));
    }
    Some(Value::Number(n))
}

/// The value of the choice `text` names: its value, else its title, else either ignoring case.
/// Unknown text is kept, for validation to report.
fn choice_value(choices: &[crate::model::Choice], text: &str) -> String {
    let exact = choices
        .iter()
        .find(|c| c.value == text || c.title.as_deref() == Some(text));
    let loose = || {
        choices.iter().find(|c| {
            c.value.eq_ignore_ascii_case(text)
                || c.title
                    .as_deref()
                    .is_some_and(|t| t.eq_ignore_ascii_case(text))
        })
    };
    exact
        .or_else(loose)
        .map_or_else(|| text.to_owned(), |c| c.value.clone())
}

/// A borrowed map read as a deserializer, so content can be checked without copying it.
struct MapRef<'a, E> {
    map: &'a Map<String, Value>,
    marker: PhantomData<E>,
}

impl<'de, E: de::Error> Deserializer<'de> for MapRef<'de, E> {
    type Error = E;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, E> {
        visitor.visit_map(MapRefAccess {
            iter: self.map.iter(),
            value: None,
            marker: PhantomData,
        })
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct MapRefAccess<'a, E> {
    iter: serde_json::map::Iter<'a>,
    value: Option<&'a Value>,
    marker: PhantomData<E>,
}

impl<'de, E: de::Error> MapAccess<'de> for MapRefAccess<'de, E> {
    type Error = E;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, E> {
        match self.iter.next() {
            None => Ok(None),
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(de::value::BorrowedStrDeserializer::<E>::new(key))
                    .map(Some)
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, E> {
        let value = self
            .value
            .take()
            .ok_or_else(|| E::custom("a value was read before its key"))?;
        seed.deserialize(value).map_err(E::custom)
    }
}
