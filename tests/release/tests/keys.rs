//! Keys reach the form's `Deserialize` as the text the client sent, on every entry point and in
//! every build: a hand-written reader that numbers its fields in its own order reads each value
//! into the field it names. CI runs this file in a debug build and in an optimized one
//! (`cargo test --release -p elicit-release-tests`).

use std::fmt;

use elicit_core::{Elicit, ElicitResult, Form};
use schemars::JsonSchema;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::{Value, json};

/// `Pair`'s schema is `a` then `b`, both integers; its reader numbers `b` 0 and `a` 1, as an
/// impl written for a compact format may, and reads names as names.
#[derive(Debug, PartialEq, JsonSchema, Elicit)]
#[elicit(message = "Two numbers")]
pub struct Pair {
    a: u32,
    b: u32,
}

enum Field {
    A,
    B,
    Other,
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Field, D::Error> {
        struct Numbered;
        impl Visitor<'_> for Numbered {
            type Value = Field;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field of Pair")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
                Ok(match v {
                    0 => Field::B,
                    1 => Field::A,
                    _ => Field::Other,
                })
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
                Ok(match v {
                    "a" => Field::A,
                    "b" => Field::B,
                    _ => Field::Other,
                })
            }
        }
        d.deserialize_identifier(Numbered)
    }
}

impl<'de> Deserialize<'de> for Pair {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Pair, D::Error> {
        struct PairVisitor;
        impl<'de> Visitor<'de> for PairVisitor {
            type Value = Pair;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Pair")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Pair, A::Error> {
                let (mut a, mut b) = (None, None);
                while let Some(field) = map.next_key::<Field>()? {
                    match field {
                        Field::A => a = Some(map.next_value()?),
                        Field::B => b = Some(map.next_value()?),
                        Field::Other => {
                            map.next_value::<de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(Pair {
                    a: a.ok_or_else(|| de::Error::missing_field("a"))?,
                    b: b.ok_or_else(|| de::Error::missing_field("b"))?,
                })
            }
        }
        d.deserialize_struct("Pair", &["a", "b"], PairVisitor)
    }
}

/// The same form read by serde's own derive.
#[derive(Debug, PartialEq, serde::Deserialize, JsonSchema, Elicit)]
#[elicit(message = "Two numbers")]
pub struct Derived {
    a: u32,
    b: u32,
}

const REPLY: &str = r#"{"action":"accept","content":{"a":1,"b":2}}"#;

/// What each entry point reads from `reply`.
fn every_entry_point<T>(reply: &str) -> Vec<(&'static str, ElicitResult<T>)>
where
    T: Elicit + for<'de> Deserialize<'de>,
{
    let value: Value = serde_json::from_str(reply).unwrap();
    let form = Form::<T>::new();
    vec![
        ("from_json", ElicitResult::from_json(reply).unwrap()),
        (
            "from_json of bytes",
            ElicitResult::from_json(reply.as_bytes()).unwrap(),
        ),
        ("from_value", ElicitResult::from_value(&value).unwrap()),
        ("Deserialize", serde_json::from_str(reply).unwrap()),
        (
            "Deserialize of a Value",
            serde_json::from_value(value.clone()).unwrap(),
        ),
        (
            "Form::parse_reply_json",
            form.parse_reply_json(reply).unwrap(),
        ),
        (
            "Form::parse_reply_json of bytes",
            form.parse_reply_json(reply.as_bytes()).unwrap(),
        ),
        (
            "Form::parse_reply_value",
            form.parse_reply_value(&value).unwrap(),
        ),
    ]
}

#[test]
fn a_reader_that_numbers_its_fields_its_own_way_reads_each_value_into_its_field() {
    for (entry, read) in every_entry_point::<Pair>(REPLY) {
        assert_eq!(read, ElicitResult::Accept(Pair { a: 1, b: 2 }), "{entry}");
    }
}

#[test]
fn serde_s_derive_reads_each_value_into_its_field() {
    for (entry, read) in every_entry_point::<Derived>(REPLY) {
        assert_eq!(
            read,
            ElicitResult::Accept(Derived { a: 1, b: 2 }),
            "{entry}"
        );
    }
}

#[test]
fn keys_in_another_order_and_unknown_keys_change_nothing() {
    let reply = json!({"action": "accept", "content": {"b": 2, "c": 9, "a": 1}}).to_string();
    for (entry, read) in every_entry_point::<Pair>(&reply) {
        assert_eq!(read, ElicitResult::Accept(Pair { a: 1, b: 2 }), "{entry}");
    }
}

#[test]
fn the_rules_still_apply_to_a_hand_written_reader() {
    let reply = r#"{"action":"accept","content":{"a":-1,"b":"two"}}"#;
    let error = ElicitResult::<Pair>::from_json(reply).unwrap_err();
    let refused: Vec<_> = error.violations().iter().map(|v| v.property()).collect();
    assert_eq!(refused, [Some("a"), Some("b")], "{error}");
}
