//! How a form's reader is handed each key. serde's derive reads field `i` from the key `i` as
//! well as from its name, so in an optimized build a key the schema has matched goes to it as
//! that index, and it compares no names. A hand-written `Deserialize` gets every key as its name
//! unless it reads indexes exactly as serde's derive does. A debug build hands every reader
//! names.
//!
//! CI runs this file in both builds: `cargo test --release -p elicit-benches --test keys` builds
//! it optimized.

use std::cell::Cell;
use std::fmt;

use elicit_core::{Elicit, ElicitResult, Form};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, Unexpected, Visitor};
use serde_json::json;

/// How a hand-written reader takes a field's key.
#[derive(Clone, Copy)]
enum Style {
    /// By name only, as serde's documentation writes a `Deserialize` by hand.
    Names,
    /// By name, or by a number of its own: `0` is `second`, `1` is `first`.
    Numbered,
    /// By name, or by index as serde's derive does, refusing an index past the last field
    /// as serde's derive does where it denies unknown fields.
    LikeSerde,
}

enum Field {
    First,
    Second,
    Other,
}

thread_local! {
    /// Keys read by name, and by an index within the fields, on this thread.
    static KEYS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Forgets the keys counted so far.
fn reset() {
    KEYS.with(|k| k.set((0, 0)));
}

/// The keys read since [`reset`]: by name, by index.
fn counted() -> (usize, usize) {
    KEYS.with(Cell::get)
}

struct FieldVisitor(Style);

impl Visitor<'_> for FieldVisitor {
    type Value = Field;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Field, E> {
        KEYS.with(|k| k.set((k.get().0 + 1, k.get().1)));
        Ok(match v {
            "first" => Field::First,
            "second" => Field::Second,
            _ => Field::Other,
        })
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Field, E> {
        let field = match (self.0, v) {
            (Style::Names, _) => return Err(E::invalid_type(Unexpected::Unsigned(v), &self)),
            (Style::Numbered, 0) => Field::Second,
            (Style::Numbered, 1) => Field::First,
            (Style::Numbered, _) => {
                return Err(E::invalid_value(Unexpected::Unsigned(v), &"0 or 1"));
            }
            (Style::LikeSerde, 0) => Field::First,
            (Style::LikeSerde, 1) => Field::Second,
            (Style::LikeSerde, _) => {
                return Err(E::invalid_value(
                    Unexpected::Unsigned(v),
                    &"field index 0 <= i < 2",
                ));
            }
        };
        KEYS.with(|k| k.set((k.get().0, k.get().1 + 1)));
        Ok(field)
    }
}

struct FieldSeed(Style);

impl<'de> DeserializeSeed<'de> for FieldSeed {
    type Value = Field;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Field, D::Error> {
        d.deserialize_identifier(FieldVisitor(self.0))
    }
}

struct PairVisitor(Style);

impl<'de> Visitor<'de> for PairVisitor {
    type Value = (String, String);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a pair")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(String, String), A::Error> {
        let (mut first, mut second) = (None, None);
        while let Some(field) = map.next_key_seed(FieldSeed(self.0))? {
            match field {
                Field::First => first = Some(map.next_value()?),
                Field::Second => second = Some(map.next_value()?),
                Field::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let first = first.ok_or_else(|| de::Error::missing_field("first"))?;
        let second = second.ok_or_else(|| de::Error::missing_field("second"))?;
        Ok((first, second))
    }
}

fn read_pair<'de, D: Deserializer<'de>>(
    d: D,
    name: &'static str,
    style: Style,
) -> Result<(String, String), D::Error> {
    d.deserialize_struct(name, &["first", "second"], PairVisitor(style))
}

/// A form of two strings.
trait Pair {
    fn new(first: String, second: String) -> Self;
}

macro_rules! pair {
    ($name:ident, $style:expr) => {
        /// Two strings, read by a hand-written `Deserialize`.
        #[derive(Debug, PartialEq, JsonSchema, Elicit)]
        struct $name {
            /// First
            first: String,
            /// Second
            second: String,
        }

        impl Pair for $name {
            fn new(first: String, second: String) -> Self {
                $name { first, second }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let (first, second) = read_pair(d, stringify!($name), $style)?;
                Ok(<$name as Pair>::new(first, second))
            }
        }
    };
}

pair!(ByName, Style::Names);
pair!(Numbered, Style::Numbered);
pair!(LikeSerde, Style::LikeSerde);

/// Whether this build hands serde's derive field indexes: an optimized one does.
const INDEXES: bool = !cfg!(debug_assertions);

/// What a reader like serde's derive is handed, by name and by index, for `known` keys the
/// schema names and `unknown` others.
fn like_serde(known: usize, unknown: usize) -> (usize, usize) {
    if INDEXES {
        (unknown, known)
    } else {
        (known + unknown, 0)
    }
}

const REPLY: &str = r#"{"action":"accept","content":{"first":"a","second":"b"}}"#;

/// Every typed entry point, each parse's outcome with the keys it handed over (by name, by
/// index).
fn every_entry_point<T: Elicit + for<'de> Deserialize<'de>>(
    json: &str,
) -> Vec<(&'static str, ElicitResult<T>, (usize, usize))> {
    let value: serde_json::Value = serde_json::from_str(json).unwrap();
    // Build the schema first: building it probes the reader, which counts nothing it reads.
    let _ = T::requested_schema();
    let mut runs = Vec::new();
    let mut run = |name, parse: &dyn Fn() -> ElicitResult<T>| {
        reset();
        let outcome = parse();
        runs.push((name, outcome, counted()));
    };
    run("from_json", &|| ElicitResult::<T>::from_json(json).unwrap());
    run("Deserialize", &|| {
        serde_json::from_str::<ElicitResult<T>>(json).unwrap()
    });
    run("from_value", &|| {
        ElicitResult::<T>::from_value(value.clone()).unwrap()
    });
    run("Form::parse_json", &|| {
        Form::<T>::new().parse_json(json).unwrap()
    });
    runs
}

/// Holds every typed entry point to reading `reply` as `first` and `second`, handing over
/// `keys` (by name, by index).
fn assert_reads<T>(reply: &str, first: &str, second: &str, keys: (usize, usize))
where
    T: Elicit + for<'de> Deserialize<'de> + Pair + PartialEq + fmt::Debug,
{
    for (path, outcome, handed) in every_entry_point::<T>(reply) {
        let expected = T::new(first.into(), second.into());
        assert_eq!(outcome, ElicitResult::Accept(expected), "{path}");
        assert_eq!(handed, keys, "{path}");
    }
}

#[test]
fn a_reader_of_names_gets_every_key_as_its_name() {
    assert_reads::<ByName>(REPLY, "a", "b", (2, 0));
}

#[test]
fn a_reader_that_numbers_its_fields_its_own_way_gets_names() {
    assert_reads::<Numbered>(REPLY, "a", "b", (2, 0));
}

#[test]
fn a_reader_like_serde_s_derive_gets_each_known_key_as_its_index() {
    assert_reads::<LikeSerde>(REPLY, "a", "b", like_serde(2, 0));
    // Keys in another order; and a key the form does not name, which goes as its name.
    let reply = r#"{"action":"accept","content":{"extra":1,"second":"b","first":"a"}}"#;
    assert_reads::<LikeSerde>(reply, "a", "b", like_serde(2, 1));
}

#[test]
fn a_form_with_choices_given_still_hands_over_indexes() {
    let form = Form::<LikeSerde>::new()
        .choices("second", ["b", "c"])
        .unwrap();
    let _ = LikeSerde::requested_schema();
    reset();
    let read =
        form.parse_value(&json!({"action": "accept", "content": {"first": "a", "second": "c"}}));
    let expected = LikeSerde {
        first: "a".into(),
        second: "c".into(),
    };
    assert_eq!(read.unwrap(), ElicitResult::Accept(expected));
    assert_eq!(counted(), like_serde(2, 0));
    let refused = form.parse_json(r#"{"action":"accept","content":{"first":"a","second":"d"}}"#);
    assert!(refused.is_err(), "{refused:?}");
}
