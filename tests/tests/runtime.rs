//! Schemas that arrive as JSON: strict parsing, lint, the runtime parse (the same rules as the
//! typed path), and the client side.

use elicit_core::schema::Bound;
use elicit_core::schema::Kind;
use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Rule};
mod common;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};

fn refused(schema: Value) -> elicit_core::SchemaError {
    RequestedSchema::from_value(schema.clone()).expect_err(&format!("refused: {schema}"))
}

fn props(properties: Value) -> Value {
    json!({"type": "object", "properties": properties})
}

/// A default is what a client fills in and what a server fills into accepted content, so one
/// that breaks its own property's rules is dropped: never sent, never filled in; it is an
/// annotation, so the schema is accepted, and `lint` names the rule. (Found by fuzzing: a multi-select default with fewer
/// items than `minItems` was filled into accepted content.)
#[test]
fn a_default_that_breaks_its_own_rules_is_linted_and_never_sent_nor_filled_in() {
    let items = json!({"type": "string", "enum": ["a", "b", "c"]});
    for (schema, says) in [
        (
            json!({"type": "string", "minLength": 3, "default": "ab"}),
            "at least 3",
        ),
        (
            json!({"type": "string", "maxLength": 1, "default": "ab"}),
            "at most 1",
        ),
        (
            json!({"type": "string", "format": "email", "default": "ab"}),
            "email",
        ),
        (
            json!({"type": "string", "pattern": "^x", "default": "ab"}),
            "pattern",
        ),
        (
            json!({"type": "integer", "minimum": 1, "default": 0}),
            "minimum",
        ),
        (
            json!({"type": "number", "maximum": 1, "default": 1.5}),
            "maximum",
        ),
        (
            json!({"type": "array", "items": items, "minItems": 3, "default": ["a", "b"]}),
            "at least 3",
        ),
        (
            json!({"type": "array", "items": items, "maxItems": 1, "default": ["a", "b"]}),
            "at most 1",
        ),
        (
            json!({"type": "array", "items": items, "uniqueItems": true, "default": ["a", "a"]}),
            "same choice twice",
        ),
        (
            json!({"type": "string", "enum": ["a"], "default": "b"}),
            "one of the listed choices",
        ),
        (
            json!({"type": "array", "items": items, "default": ["d"]}),
            "one of the listed choices",
        ),
    ] {
        let parsed = RequestedSchema::from_value(props(json!({"v": schema.clone()})))
            .unwrap_or_else(|e| panic!("{schema}: {e}"));
        let lints: Vec<String> = parsed.lint().iter().map(ToString::to_string).collect();
        assert!(
            lints.iter().any(|l| l.contains("`v`")
                && l.contains("`default`")
                && l.to_lowercase().contains(says)),
            "{schema}: {lints:?}"
        );
        let Ok(ElicitResult::Accept(content)) =
            parsed.parse_reply_value(&json!({"action": "accept", "content": {}}))
        else {
            panic!("{schema}: an empty accept passes")
        };
        assert_eq!(content.get("v"), None, "{schema}: never filled in");
        // Nor sent: a client would show the form ready to submit, and be refused.
        let sent = serde_json::to_value(&parsed).unwrap();
        assert_eq!(
            sent["properties"]["v"].get("default"),
            None,
            "{schema}: never sent"
        );
        assert!(!parsed.properties()[0].kind.has_default(), "{schema}");
    }
    // Defaults that keep the rules stay.
    let schema = RequestedSchema::from_value(props(json!({
        "s": {"type": "string", "minLength": 1, "format": "email", "default": "a@b.co"},
        "n": {"type": "integer", "minimum": 1, "maximum": 3, "default": 2},
        "m": {"type": "array", "items": items, "minItems": 1, "maxItems": 2, "default": ["a"]},
    })))
    .expect("valid defaults");
    assert_eq!(schema.properties().len(), 3);
}

#[test]
fn structure_is_checked_strictly_and_errors_name_the_property() {
    assert!(
        refused(json!({"type": "string"}))
            .to_string()
            .contains("root")
    );
    assert!(refused(json!(["x"])).to_string().contains("JSON object"));
    assert!(
        refused(json!({"properties": {}}))
            .to_string()
            .contains("type")
    );
    assert!(
        refused(json!({"type": "object"}))
            .to_string()
            .contains("`properties` is missing")
    );
    assert!(
        refused(json!({"type": "object", "properties": []}))
            .to_string()
            .contains("must be an object")
    );
    for (property, schema, words) in [
        (
            "user",
            json!({"type": "object", "properties": {"n": {"type": "string"}}}),
            "nested objects",
        ),
        (
            "tags",
            json!({"type": "array", "items": {"type": "string"}}),
            "only multi-selects",
        ),
        ("tags", json!({"type": "array"}), "only multi-selects"),
        (
            "tags",
            json!({"type": "array", "items": {"type": "integer", "anyOf": [{"const": "a"}]}}),
            "items must be of type string",
        ),
        (
            "tags",
            json!({"type": "array", "items": {"type": "object", "properties": {}}}),
            "only multi-selects",
        ),
        (
            "v",
            json!({"anyOf": [{"type": "integer"}, {"type": "string"}]}),
            "union",
        ),
        (
            "v",
            json!({"type": "string", "anyOf": [{"const": "a"}]}),
            "anyOf",
        ),
        (
            "v",
            json!({"oneOf": [{"const": "a", "title": "A"}]}),
            "union",
        ),
        ("v", json!({"$ref": "#/$defs/X"}), "$ref"),
        ("v", json!({"type": "null"}), "null"),
        ("v", json!({"type": ["string", "null"]}), "type array"),
        (
            "v",
            json!({"type": "string", "format": "phone"}),
            "format `phone`",
        ),
        (
            "v",
            json!({"type": "string", "minLength": "3"}),
            "non-negative integer",
        ),
        (
            "v",
            json!({"type": "string", "minLength": -1}),
            "non-negative integer",
        ),
        (
            "v",
            json!({"type": "string", "title": 5}),
            "`title` must be a string",
        ),
        (
            "v",
            json!({"type": "integer", "minimum": "0"}),
            "must be a number",
        ),
        ("v", json!({"type": "boolean", "default": "yes"}), "boolean"),
        ("v", json!({"type": "integer", "default": 1.5}), "integer"),
        ("v", json!({"type": "string", "enum": ["a", 1]}), "strings"),
        ("v", json!({"type": "string", "enum": []}), "non-empty"),
        (
            "v",
            json!({"type": "string", "enum": ["a"], "enumNames": ["A", "B"]}),
            "as long as",
        ),
        (
            "v",
            json!({"type": "string", "oneOf": [{"title": "A"}]}),
            "const",
        ),
        (
            "v",
            json!({"type": "string", "minLength": 5, "maxLength": 2}),
            "greater than",
        ),
        (
            "v",
            json!({"type": "number", "minimum": 5, "maximum": 2}),
            "greater than",
        ),
        (
            "v",
            json!({"type": "array", "minItems": 3, "maxItems": 1, "items": {"type": "string", "enum": ["a"]}}),
            "greater than",
        ),
        (
            "v",
            json!({"type": "string", "pattern": "(?=lookahead)"}),
            "pattern",
        ),
        ("v", json!({"type": "string", "const": "x"}), "`const`"),
        ("v", json!({}), "`type` is missing"),
        ("v", json!("string"), "must be an object"),
    ] {
        let e = refused(props(json!({ property: schema.clone() })));
        assert_eq!(e.property_name(), Some(property), "{schema}: {e}");
        assert!(e.to_string().contains(words), "{schema}: {e}");
    }
    let e = refused(
        json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}),
    );
    assert_eq!(e.property_name(), Some("b"));
}

#[test]
fn annotations_are_tolerated_and_linted() {
    let schema = RequestedSchema::from_value(json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Form",
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"], "title": "Tag"}},
            "code": {"type": "string", "pattern": "^[A-Z]+$", "examples": ["ABC"]},
            "pos": {"type": "integer", "exclusiveMinimum": 0},
            "pick": {"type": "string", "oneOf": [{"const": "x", "title": "X", "description": "ex"}]},
        },
        "x-vendor": true
    }))
    .unwrap();
    let lints: Vec<String> = schema.lint().iter().map(ToString::to_string).collect();
    for expected in [
        "root: a root `title` is outside the subset; some clients refuse the whole request",
        "root: `x-vendor` is not a JSON Schema keyword; it is ignored",
        "property `tags`: `items.title` is an annotation outside the MCP schema subset; it is ignored",
        "property `code`: `pattern` is outside the MCP schema subset; it is enforced here, but clients may refuse the schema",
        "property `code`: `examples` is an annotation outside the MCP schema subset; it is ignored",
        "property `pos`: `exclusiveMinimum` is outside the MCP schema subset; it is enforced here, but clients may refuse the schema",
        "property `pick`: `oneOf[].description` is an annotation outside the MCP schema subset; it is ignored",
    ] {
        assert!(
            lints.iter().any(|l| l == expected),
            "missing {expected:?} in {lints:#?}"
        );
    }
    assert_eq!(lints.len(), 7, "{lints:#?}");
    assert_eq!(
        schema.dialect(),
        Some("https://json-schema.org/draft/2020-12/schema")
    );
    let empty = RequestedSchema::from_value(json!({"type": "object", "properties": {}})).unwrap();
    assert!(empty.lint()[0].message.contains("no properties"));
}

#[test]
fn pattern_and_exclusive_bounds_are_enforced() {
    let schema = RequestedSchema::from_value(props(json!({
        "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
        "pos": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 10},
        "old": {"type": "integer", "minimum": 1, "exclusiveMinimum": true},
    })))
    .unwrap();
    let ok = schema.parse_reply_value(
        &json!({"action": "accept", "content": {"zip": "94105", "pos": 0.5, "old": 2}}),
    );
    assert!(matches!(ok, Ok(ElicitResult::Accept(_))), "{ok:?}");
    let e = schema
        .parse_reply_value(
            &json!({"action": "accept", "content": {"zip": "ABC12", "pos": 10, "old": 1}}),
        )
        .unwrap_err();
    let rules: Vec<&Rule> = e.violations().iter().map(|v| v.rule()).collect();
    assert!(rules.contains(&&Rule::Pattern("^[0-9]{5}$".into())), "{e}");
    assert!(
        rules.contains(&&Rule::ExclusiveMaximum(Bound::Int(10))),
        "{e}"
    );
    assert!(
        rules.contains(&&Rule::ExclusiveMinimum(Bound::Int(1))),
        "{e}"
    );
    // A runtime schema keeps them on the wire.
    let wire = serde_json::to_value(&schema).unwrap();
    assert_eq!(wire["properties"]["zip"]["pattern"], "^[0-9]{5}$");
    assert_eq!(wire["properties"]["pos"]["exclusiveMaximum"], 10);
}

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Deserialize,
    schemars::JsonSchema,
    Elicit,
)]
enum Size {
    Small,
    Large,
}

fn default_count() -> u8 {
    3
}

/// Order things
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct Order {
    #[schemars(length(min = 2, max = 8))]
    name: String,
    #[serde(default = "default_count")]
    #[schemars(range(min = 1, max = 9))]
    count: u8,
    size: Option<Size>,
    sizes: Vec<Size>,
    #[schemars(email)]
    email: Option<String>,
    gift: bool,
}

#[test]
fn the_typed_schema_is_a_runtime_schema() {
    let typed: &RequestedSchema = Order::requested_schema();
    assert!(typed.lint().is_empty());
    let text = serde_json::to_string(typed).unwrap();
    let round_trip = RequestedSchema::from_json(&text).unwrap();
    assert_eq!(
        &round_trip, typed,
        "the wire form reads back to the same schema, in order"
    );
    // From a `Value` the same properties come back in the map's order: sorted, unless
    // serde_json's `preserve_order` is on (the `preserve-order` feature), which keeps them.
    let from_value = RequestedSchema::from_value(serde_json::to_value(typed).unwrap()).unwrap();
    let mut probe = Map::new();
    probe.insert("b".into(), Value::Null);
    probe.insert("a".into(), Value::Null);
    let sorted = probe.keys().next().map(String::as_str) == Some("a");
    let names: Vec<&str> = from_value
        .properties()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    if sorted {
        assert_eq!(names, ["count", "email", "gift", "name", "size", "sizes"]);
    } else {
        assert_eq!(&from_value, typed);
    }
    assert!(
        RequestedSchema::from_json("{")
            .unwrap_err()
            .to_string()
            .contains("not valid JSON")
    );
}

#[test]
fn contents_compare_by_name_and_value_whatever_the_key_order() {
    let schema = Order::requested_schema();
    let read = |content: Value| {
        schema
            .parse_reply_value(&json!({"action": "accept", "content": content}))
            .unwrap()
            .accepted()
            .unwrap()
    };
    let a = read(json!({"name": "Ada", "sizes": ["Small"], "gift": true, "x": 1, "y": [true]}));
    // The same values, the keys in another order, unknown keys among them.
    let b = read(json!({"y": [true], "sizes": ["Small"], "gift": true, "x": 1, "name": "Ada"}));
    assert_eq!(a, b);
    assert_eq!(b, a);
    // One value different, a known one or an unknown one.
    assert_ne!(
        a,
        read(json!({"name": "Bob", "sizes": ["Small"], "gift": true, "x": 1, "y": [true]}))
    );
    assert_ne!(
        a,
        read(json!({"name": "Ada", "sizes": ["Small"], "gift": true, "x": 2, "y": [true]}))
    );
    // An unknown key under another name, and one value more.
    assert_ne!(
        a,
        read(json!({"name": "Ada", "sizes": ["Small"], "gift": true, "x": 1, "z": [true]}))
    );
    assert_ne!(
        a,
        read(json!({"name": "Ada", "sizes": ["Small"], "gift": true, "x": 1, "y": [true], "z": 0}))
    );
    // A known property left to its default equals one sent with the default's value.
    let defaulted = read(json!({"name": "Ada", "sizes": ["Small"], "gift": true}));
    assert_eq!(
        defaulted,
        read(json!({"name": "Ada", "count": 3, "sizes": ["Small"], "gift": true}))
    );
}

#[test]
fn parse_result_fills_defaults_and_keeps_unknown_keys() {
    let schema = Order::requested_schema();
    let r = schema
        .parse_reply_value(&json!({"action": "accept", "content": {"name": "Ada", "sizes": [], "gift": true, "x": 1}}))
        .unwrap();
    let content = r.accepted().unwrap();
    // Every key sent, the schema's or not, and the default filled in.
    let mut keys: Vec<&str> = content.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["count", "gift", "name", "sizes", "x"]);
    assert_eq!(content.get("count").cloned(), Some(json!(3)));
    assert_eq!(content.get("x").cloned(), Some(json!(1)));
    assert_eq!(content.get("email"), None);
    assert!(content.contains_key("gift") && !content.contains_key("size"));
    assert_eq!(content.len(), 5);
    assert_eq!(
        serde_json::to_value(&content).unwrap(),
        json!({"name": "Ada", "count": 3, "sizes": [], "gift": true, "x": 1})
    );
    assert_eq!(
        Value::from(content),
        json!({"name": "Ada", "count": 3, "sizes": [], "gift": true, "x": 1})
    );
    assert_eq!(
        schema
            .parse_reply_value(&json!({"action": "cancel", "content": 7}))
            .unwrap(),
        ElicitResult::Cancel
    );
}

#[test]
fn duplicate_keys_are_refused_on_both_paths() {
    let reply =
        r#"{"action":"accept","content":{"name":"Ada","name":"Bob","sizes":[],"gift":true}}"#;
    let typed = ElicitResult::<Order>::from_json(reply).unwrap_err();
    let runtime = Order::requested_schema()
        .parse_reply_json(reply)
        .unwrap_err();
    assert_eq!(typed, runtime);
    assert_eq!(typed.violations()[0].rule(), &Rule::DuplicateKey);
}

#[test]
fn client_side_validation_defaults_and_coercion() {
    let schema = Order::requested_schema();
    let content: Map<String, Value> =
        serde_json::from_value(json!({"name": "A", "count": 0, "sizes": ["Huge"], "gift": "yes"}))
            .unwrap();
    let e = schema.validate_content(&content).unwrap_err();
    assert_eq!(e.violations().len(), 4, "{e}");

    let accepted = schema
        .accept(serde_json::from_value(json!({"name": "Ada", "sizes": [], "gift": false})).unwrap())
        .unwrap();
    let wire = serde_json::to_value(&accepted).unwrap();
    assert_eq!(
        wire,
        json!({"action": "accept", "content": {"name": "Ada", "count": 3, "sizes": [], "gift": false}})
    );
    assert!(
        schema.accept(Map::new()).is_err(),
        "required fields stay required"
    );

    assert_eq!(schema.coerce_text("count", " 4 ").unwrap(), Some(json!(4)));
    assert_eq!(schema.coerce_text("count", "4.0").unwrap(), Some(json!(4)));
    assert!(schema.coerce_text("count", "4.5").is_err());
    assert!(schema.coerce_text("count", "four").is_err());
    assert_eq!(
        schema.coerce_text("gift", "Yes").unwrap(),
        Some(json!(true))
    );
    assert_eq!(schema.coerce_text("gift", "0").unwrap(), Some(json!(false)));
    assert_eq!(
        schema.coerce_text("sizes", "Small, large,").unwrap(),
        Some(json!(["Small", "Large"]))
    );
    assert_eq!(
        schema.coerce_text("size", "small").unwrap(),
        Some(json!("Small"))
    );
    assert_eq!(schema.coerce_text("name", "  ").unwrap(), None);
    assert!(schema.coerce_text("nope", "x").is_err());
    let titled = RequestedSchema::from_value(props(json!({
        "c": {"type": "string", "oneOf": [{"const": "#f00", "title": "Red"}]}
    })))
    .unwrap();
    assert_eq!(titled.coerce_text("c", "red").unwrap(), Some(json!("#f00")));

    let text: Map<String, Value> = serde_json::from_value(
        json!({"name": "Ada", "count": "5", "sizes": "Small", "gift": "true", "email": ""}),
    )
    .unwrap();
    let coerced = schema.coerce_content(&text);
    assert_eq!(
        Value::Object(coerced.clone()),
        json!({"name": "Ada", "count": 5, "sizes": ["Small"], "gift": true})
    );
    assert!(schema.validate_content(&coerced).is_ok());
    // The server never coerces.
    let reply = json!({"action": "accept", "content": text});
    assert!(schema.parse_reply_value(&reply).is_err());
    assert!(ElicitResult::<Order>::from_value(&reply).is_err());
}

/// A form with no properties is a confirmation: accept with absent or empty content passes, and
/// a key it does not name is ignored as in any other form.
#[test]
fn an_empty_form_is_a_confirmation() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {}})).unwrap();
    assert!(
        schema
            .parse_reply_value(&json!({"action": "accept"}))
            .is_ok()
    );
    assert!(
        schema
            .parse_reply_value(&json!({"action": "accept", "content": {}}))
            .is_ok()
    );
    let Ok(ElicitResult::Accept(content)) =
        schema.parse_reply_value(&json!({"action": "accept", "content": {"value": "hello"}}))
    else {
        panic!("an unknown key is ignored")
    };
    assert_eq!(content.get("value").cloned(), Some(json!("hello")));
}

#[test]
fn kinds_are_exposed_for_renderers() {
    let schema = Order::requested_schema();
    let kinds: Vec<&str> = schema
        .properties()
        .iter()
        .map(|p| p.kind.json_type())
        .collect();
    assert_eq!(
        kinds,
        ["string", "integer", "string", "array", "string", "boolean"]
    );
    assert!(matches!(&schema.properties()[2].kind, Kind::Select(s) if s.choices.len() == 2));
}

fn any_json() -> impl Strategy<Value = Value> {
    common::any_json(
        &["name", "count", "size", "sizes", "email", "gift"],
        &["Small", "Large", "Ada", "a@b.co", ""],
    )
}

proptest! {
    /// One implementation of the rules: for any reply, the typed path and the runtime path reach
    /// the same verdict with the same violations.
    #[test]
    fn typed_and_runtime_paths_agree(content in any_json(), action in prop_oneof![Just("accept"), Just("decline"), Just("cancel"), Just("other")]) {
        let reply = json!({"action": action, "content": content});
        let typed = ElicitResult::<Order>::from_value(&reply);
        let runtime = Order::requested_schema().parse_reply_value(&reply);
        match (&typed, &runtime) {
            (Ok(t), Ok(r)) => {
                prop_assert_eq!(t.action(), r.action());
                // Accepted content holds exactly what was sent, plus the defaults.
                if let ElicitResult::Accept(content) = r {
                    let mut sent = reply["content"].as_object().cloned().unwrap_or_default();
                    Order::requested_schema().fill_defaults(&mut sent);
                    prop_assert_eq!(content, &sent);
                }
            }
            (Err(t), Err(r)) => prop_assert_eq!(t, r),
            _ => prop_assert!(false, "typed {:?} but runtime {:?} for {}", typed, runtime, reply),
        }
    }

    /// Anything given to the entry points gives a result or an error that says something, never
    /// a panic; a schema that parses reads a reply to the same verdict from text and from a
    /// value; its lints and errors name only its own properties.
    #[test]
    fn arbitrary_json_never_panics(
        schema in any_schema(),
        content in any_json(),
        action in prop_oneof![Just("accept"), Just("decline"), Just("cancel"), Just("other")],
        text in "\\PC{0,40}",
    ) {
        let _ = ElicitResult::<Order>::from_json(&content.to_string());
        let _ = ElicitResult::<Order>::from_json(&text);
        let _ = Order::requested_schema().parse_reply_value(&content);
        let names: Vec<String> = schema["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let parsed = match RequestedSchema::from_value(schema.clone()) {
            Ok(parsed) => parsed,
            Err(e) => {
                prop_assert!(!e.message().is_empty());
                if let Some(p) = e.property_name() {
                    let required: Vec<&str> = schema["required"]
                        .as_array()
                        .map(|r| r.iter().filter_map(Value::as_str).collect())
                        .unwrap_or_default();
                    prop_assert!(names.iter().any(|n| n == p) || required.contains(&p), "{p}");
                }
                return Ok(());
            }
        };
        for lint in parsed.lint() {
            if let Some(p) = &lint.property {
                prop_assert!(names.iter().any(|n| **n == **p), "{lint}");
            }
        }
        let reply = json!({"action": action, "content": content});
        let from_value = parsed.parse_reply_value(&reply);
        let from_text = parsed.parse_reply_json(&reply.to_string());
        prop_assert_eq!(&from_value, &from_text);
        match from_value {
            Ok(ElicitResult::Accept(content)) => {
                prop_assert_eq!(action, "accept");
                for (key, _) in content.iter() {
                    prop_assert!(
                        names.iter().any(|n| n == key) || reply["content"].get(key).is_some(),
                        "{key}"
                    );
                }
            }
            Ok(other) => prop_assert_eq!(other.action().as_str(), action),
            Err(e) => {
                prop_assert!(!e.violations().is_empty());
                prop_assert_eq!(e.to_string().lines().count(), e.violations().len());
                for v in e.violations() {
                    if let Some(p) = v.property() {
                        prop_assert!(
                            names.iter().any(|n| n == p) || reply["content"].get(p).is_some(),
                            "{p}"
                        );
                    }
                }
            }
        }
        let _ = parsed.parse_reply_json(&text);
    }
}

/// Schemas that mostly parse: properties of every kind with constraints from small pools,
/// mixed with arbitrary JSON where a property schema or a keyword should be.
fn any_schema() -> impl Strategy<Value = Value> {
    let bound = prop_oneof![
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(2.5)),
        Just(json!(-3)),
        any_json()
    ];
    let property = prop_oneof![
        (bound.clone(), bound.clone()).prop_map(|(min, max)| json!({"type": "integer", "minimum": min, "maximum": max})),
        (bound.clone(), bound).prop_map(|(min, max)| json!({"type": "number", "exclusiveMinimum": min, "maximum": max})),
        (0u64..4, 0u64..6).prop_map(|(min, max)| json!({"type": "string", "minLength": min, "maxLength": max, "format": "email"})),
        Just(json!({"type": "string", "pattern": "^[a-z]+$", "default": "abc"})),
        Just(json!({"type": "boolean", "default": true})),
        Just(json!({"type": "string", "enum": ["red", "green"]})),
        Just(json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]})),
        Just(json!({"type": "array", "items": {"type": "string", "enum": ["red", "green"]}, "minItems": 1, "uniqueItems": true})),
        (any_json(), any_json()).prop_map(|(key, value)| {
            let mut p = json!({"type": "string"});
            p[key.to_string()] = value;
            p
        }),
        any_json(),
    ];
    (
        proptest::collection::btree_map(
            proptest::sample::select(&["name", "age", "tags", "color", "email", "x"][..]),
            property,
            0..5,
        ),
        proptest::collection::vec(
            proptest::sample::select(&["name", "age", "tags", "color", "zzz"][..]),
            0..3,
        ),
    )
        .prop_map(|(properties, required)| {
            let properties: Map<String, Value> = properties
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v))
                .collect();
            json!({"type": "object", "properties": properties, "required": required})
        })
}

/// A key the schema does not name, sent twice, keeps its last value, as in a `serde_json` map,
/// whether the content comes after the action or before it.
#[test]
fn a_repeated_unknown_key_keeps_its_last_value() {
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"ok": {"type": "boolean"}}
    }))
    .unwrap();
    for reply in [
        r#"{"action":"accept","content":{"x":1,"ok":true,"y":3,"x":2}}"#,
        // Content before the action: held as a `Value` until the action says what it is.
        r#"{"content":{"x":1,"ok":true,"y":3,"x":2},"action":"accept"}"#,
    ] {
        let content = schema.parse_reply_json(reply).unwrap().accepted().unwrap();
        assert_eq!(
            Value::Object(content),
            json!({"ok": true, "x": 2, "y": 3}),
            "{reply}"
        );
    }
}

#[test]
fn a_schema_built_from_fields_writes_the_wire_form_and_validates() {
    use elicit_core::schema::{Field, Format};
    let schema = RequestedSchema::builder()
        .field(
            Field::string("email")
                .format(Format::Email)
                .title("Email")
                .description("Where to write")
                .required(),
        )
        .field(Field::integer("seats").min(1))
        .field(Field::select("plain", ["a", "b"]))
        .field(Field::titled_select("titled", [("a", "a"), ("b", "Bee")]))
        .field(Field::multi_select("many", [("a", "a"), ("b", "Bee")]))
        .field(Field::multi_select("few", ["a", "b"]))
        .build()
        .unwrap();
    let names: Vec<&str> = schema
        .properties()
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(names, ["email", "seats", "plain", "titled", "many", "few"]);
    assert_eq!(
        serde_json::to_value(&schema).unwrap(),
        json!({
            "type": "object",
            "properties": {
                "email": {"type": "string", "title": "Email", "description": "Where to write",
                          "format": "email"},
                "seats": {"type": "integer", "minimum": 1},
                "plain": {"type": "string", "enum": ["a", "b"]},
                "titled": {"type": "string", "oneOf": [
                    {"const": "a", "title": "a"}, {"const": "b", "title": "Bee"}]},
                "many": {"type": "array", "items": {"anyOf": [
                    {"const": "a", "title": "a"}, {"const": "b", "title": "Bee"}]}},
                "few": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            },
            "required": ["email"],
        })
    );
    let ok = schema.parse_reply_json(
        r#"{"action":"accept","content":{"email":"a@b.co","seats":2,"titled":"b"}}"#,
    );
    assert!(ok.is_ok(), "{ok:?}");
    let e = schema
        .parse_reply_json(r#"{"action":"accept","content":{"email":"nope","seats":0}}"#)
        .unwrap_err();
    let props: Vec<_> = e.violations().iter().map(|v| v.property()).collect();
    assert_eq!(props, [Some("email"), Some("seats")], "{e}");
}

/// Content holds every kind of value the rules accept, read back as it was sent, whatever order
/// the reply used, from text and from a `Value` alike.
#[test]
fn content_reads_back_every_kind() {
    let schema = RequestedSchema::from_json(
        r#"{"type": "object", "properties": {
            "name": {"type": "string"},
            "offset": {"type": "integer"},
            "big": {"type": "integer"},
            "ratio": {"type": "number"},
            "ok": {"type": "boolean"},
            "plan": {"type": "string", "enum": ["free", "team"]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}},
            "none": {"type": "array", "items": {"type": "string", "enum": ["a"]}},
            "locale": {"type": "string", "default": "en-GB"},
            "flags": {"type": "array", "items": {"type": "string", "enum": ["x", "y"]}, "default": ["y"]},
            "on": {"type": "boolean", "default": true},
            "seats": {"type": "integer", "default": -2}
        }}"#,
    )
    .unwrap();
    let content = json!({
        "tags": ["c", "a"], "ratio": -0.25, "name": "Ad\u{e4} \"L\"", "ok": false,
        "offset": -3600, "plan": "team", "big": u64::MAX, "none": [], "extra": {"deep": [1]}
    });
    let reply = json!({"action": "accept", "content": content});
    let from_text = schema
        .parse_reply_json(&reply.to_string())
        .unwrap()
        .accepted()
        .unwrap();
    let from_value = schema
        .parse_reply_value(&reply)
        .unwrap()
        .accepted()
        .unwrap();
    for content in [&from_text, &from_value] {
        assert_eq!(content.get("name").unwrap().as_str(), Some("Adä \"L\""));
        assert_eq!(content.get("offset").unwrap().as_i64(), Some(-3600));
        assert_eq!(content.get("big").unwrap().as_u64(), Some(u64::MAX));
        assert_eq!(content.get("ratio").unwrap().as_f64(), Some(-0.25));
        assert_eq!(content.get("ok").unwrap().as_bool(), Some(false));
        assert_eq!(content.get("plan"), Some(&json!("team")));
        assert_eq!(content.get("tags"), Some(&json!(["c", "a"])));
        assert_eq!(content.get("none"), Some(&json!([])));
        assert_eq!(content.get("locale"), Some(&json!("en-GB")));
        assert_eq!(content.get("flags"), Some(&json!(["y"])));
        assert_eq!(content.get("on").unwrap().as_bool(), Some(true));
        assert_eq!(content.get("seats").unwrap().as_i64(), Some(-2));
        assert_eq!(content.get("extra"), Some(&json!({"deep": [1]})));
        assert_eq!(content.get("name").unwrap().as_u64(), None);
        assert_eq!(content.get("missing"), None);
        assert_eq!(content.len(), 13);
        let mut want = reply["content"].as_object().unwrap().clone();
        want.insert("locale".into(), json!("en-GB"));
        want.insert("flags".into(), json!(["y"]));
        want.insert("on".into(), json!(true));
        want.insert("seats".into(), json!(-2));
        assert_eq!(*content, want);
        assert_eq!(serde_json::to_value(content).unwrap(), Value::Object(want));
    }
    assert_eq!(from_text, from_value);
    assert_eq!(
        format!("{:?}", from_text.get("tags").unwrap()),
        r#"Array [String("c"), String("a")]"#
    );
}
