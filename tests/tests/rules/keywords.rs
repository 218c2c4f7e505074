//! Every constraining keyword is enforced or the schema is refused; annotations and keywords
//! that cannot apply to the property's type are linted. Defaults are annotations: one that breaks
//! its own property's rules is linted and never filled in.

use elicit_core::schema::Pattern;
use elicit_core::schema::RequestedSchema;
use elicit_core::{ElicitResult, Limits, Rule};
use serde_json::{Value, json};

fn with(property: Value) -> Result<RequestedSchema, elicit_core::SchemaError> {
    RequestedSchema::from_value(json!({"type": "object", "properties": {"p": property}}))
}

fn accepts(schema: &RequestedSchema, value: Value) -> bool {
    schema
        .parse_reply_value(&json!({"action": "accept", "content": {"p": value}}))
        .is_ok()
}

#[test]
fn constraining_keywords_the_model_cannot_hold_refuse_the_schema() {
    for (property, keyword) in [
        (json!({"type": "integer", "enum": [1, 2, 3]}), "enum"),
        (json!({"type": "number", "enum": [1.5]}), "enum"),
        (json!({"type": "boolean", "enum": [true]}), "enum"),
        (
            json!({"type": "boolean", "oneOf": [{"const": true, "title": "Yes"}]}),
            "oneOf",
        ),
        (
            json!({"type": "integer", "oneOf": [{"const": 1, "title": "One"}]}),
            "oneOf",
        ),
        (
            json!({"type": "string", "enum": ["abc", "xyz"], "pattern": "^a"}),
            "pattern",
        ),
        (
            json!({"type": "string", "enum": ["abc", "xyz"], "maxLength": 2}),
            "maxLength",
        ),
        (
            json!({"type": "string", "enum": ["abc", "xyz"], "minLength": 4}),
            "minLength",
        ),
        (
            json!({"type": "string", "enum": ["abc", "xyz"], "format": "email"}),
            "format",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "bb"], "maxLength": 1}}),
            "items.maxLength",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a", "bb"], "pattern": "^a"}}),
            "items.pattern",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"]}, "enum": [["a"]]}),
            "enum",
        ),
        (
            json!({"type": "array", "items": {"type": "number", "enum": ["1"]}}),
            "type string",
        ),
        (
            json!({"type": "array", "items": {"type": ["string"], "enum": ["a"]}}),
            "type string",
        ),
        (json!({"type": "number", "multipleOf": 5}), "multipleOf"),
        (json!({"type": "string", "not": {"maxLength": 2}}), "not"),
    ] {
        let e = with(property.clone()).expect_err(&property.to_string());
        assert_eq!(e.property_name(), Some("p"), "{property}");
        assert!(e.message().contains(keyword), "{property}: {e}");
    }
}

#[test]
fn keywords_for_other_types_have_no_effect_and_are_linted() {
    // JSON Schema applies `minimum` only to numbers, `minLength` only to strings, and so on.
    for (property, keyword) in [
        (json!({"type": "string", "minimum": 5}), "minimum"),
        (json!({"type": "string", "minItems": 5}), "minItems"),
        (json!({"type": "integer", "maxLength": 1}), "maxLength"),
        (json!({"type": "boolean", "pattern": "^x"}), "pattern"),
        (
            json!({"type": "string", "enum": ["a"], "maximum": 1}),
            "maximum",
        ),
        (
            json!({"type": "array", "items": {"type": "string", "enum": ["a"], "minimum": 3}}),
            "items.minimum",
        ),
    ] {
        let schema = with(property.clone()).unwrap_or_else(|e| panic!("{property}: {e}"));
        assert!(
            schema
                .lint()
                .iter()
                .any(|l| l.message.contains(keyword) && l.message.contains("no effect")),
            "{property}: {:?}",
            schema.lint()
        );
    }
    let s = with(json!({"type": "string", "minimum": 5})).unwrap();
    assert!(accepts(&s, json!("ab")), "minimum says nothing of a string");
}

#[test]
fn annotations_are_linted_and_change_nothing() {
    let s = with(json!({"type": "string", "examples": ["x"], "deprecated": true, "$comment": "c", "x-ui": 1}))
        .unwrap();
    assert_eq!(s.lint().len(), 4, "{:?}", s.lint());
    assert!(accepts(&s, json!("anything")));
}

#[test]
fn an_empty_form_ignores_unknown_keys_like_any_other_form() {
    let empty = RequestedSchema::from_value(json!({"type": "object", "properties": {}})).unwrap();
    let reply = json!({"action": "accept", "content": {"extra": 1}});
    assert!(matches!(
        empty.parse_reply_value(&reply),
        Ok(ElicitResult::Accept(_))
    ));
    let text = reply.to_string();
    assert!(empty.parse_reply_json(&text).is_ok());
    assert!(
        empty
            .validate_content(reply["content"].as_object().unwrap())
            .is_ok()
    );
    // Unless it says so.
    let strict = RequestedSchema::from_value(
        json!({"type": "object", "properties": {}, "additionalProperties": false}),
    )
    .unwrap();
    let e = strict.parse_reply_value(&reply).unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::UnknownProperty);
}

#[test]
fn a_default_that_breaks_its_rules_is_linted_and_never_sent_nor_filled_in() {
    // The 2025-11-25 specification's own string example: a default its pattern refuses.
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {
            "email": {
                "type": "string",
                "pattern": "^[a-z]+@corp\\.example$",
                "default": "user@example.com"
            },
            "size": {"type": "integer", "minimum": 1, "default": 0},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "maxItems": 1, "default": ["a", "b"]},
            "ok": {"type": "integer", "default": 3}
        }
    }))
    .expect("a default is an annotation: the schema is accepted");
    for name in ["email", "size", "tags"] {
        assert!(
            schema
                .lint()
                .iter()
                .any(|l| l.property.as_deref() == Some(name) && l.message.contains("default")),
            "{name}: {:?}",
            schema.lint()
        );
    }
    // It is never sent: a client would show the form ready to submit, and be refused.
    let wire = serde_json::to_value(&schema).unwrap();
    for name in ["email", "size", "tags"] {
        assert_eq!(wire["properties"][name].get("default"), None, "{name}");
    }
    assert_eq!(wire["properties"]["ok"]["default"], 3);
    // Never filled in: not into a reply's content, not by a client.
    let ElicitResult::Accept(content) = schema
        .parse_reply_value(&json!({"action": "accept", "content": {}}))
        .unwrap()
    else {
        panic!()
    };
    assert_eq!(content.get("email"), None);
    assert_eq!(content.get("size"), None);
    assert_eq!(content.get("tags"), None);
    assert_eq!(content.get("ok").cloned(), Some(json!(3)));
    let mut map = serde_json::Map::new();
    schema.fill_defaults(&mut map);
    assert_eq!(map.keys().collect::<Vec<_>>(), ["ok"]);
}

#[test]
fn a_choice_listed_twice_is_refused() {
    for property in [
        json!({"type": "string", "oneOf": [{"const": "a", "title": "A"}, {"const": "a", "title": "Again"}]}),
        json!({"type": "string", "enum": ["a", "b", "a"]}),
        json!({"type": "array", "items": {"anyOf": [{"const": "a", "title": "A"}, {"const": "a", "title": "B"}]}}),
        json!({"type": "array", "items": {"type": "string", "enum": ["x", "x"]}}),
    ] {
        let e = with(property.clone()).expect_err(&property.to_string());
        assert!(e.message().contains("more than once"), "{property}: {e}");
    }
}

#[test]
fn messages_name_the_types_involved() {
    let lint = |property: Value| {
        let schema = with(property.clone()).unwrap_or_else(|e| panic!("{property}: {e}"));
        schema
            .lint()
            .iter()
            .map(|l| l.message.clone())
            .collect::<Vec<_>>()
    };
    assert!(
        lint(json!({"type": "string", "minimum": 5}))
            .contains(&"`minimum` applies to numbers and has no effect on a string".to_owned())
    );
    assert!(
        lint(json!({"type": "boolean", "pattern": "^x"}))
            .contains(&"`pattern` applies to strings and has no effect on a boolean".to_owned())
    );
    assert!(
        lint(json!({"type": "integer", "minItems": 1}))
            .contains(&"`minItems` applies to arrays and has no effect on a number".to_owned())
    );
    let refused = with(json!({"type": "integer", "enum": [1, 2]})).unwrap_err();
    assert_eq!(
        refused.message(),
        "`enum` cannot be enforced on this number, so the schema is refused rather than enforced in part"
    );
}

// A pattern's compiled size, which bounds the work of each search.

fn compiles(source: &str, limit: usize) -> bool {
    regex_lite::RegexBuilder::new(source)
        .size_limit(limit)
        .build()
        .is_ok()
}

#[test]
fn a_patterns_size_is_the_smallest_doubling_that_compiles() {
    let long = "x".repeat(300);
    for source in [
        "a",
        "^[a-z]+$",
        "(ab|cd|ef)*g{40}",
        "[a-z]{1,60}@[a-z]{1,60}",
        &long,
    ] {
        let p = Pattern::new(source).unwrap();
        let start = (source.len() * 4).max(256);
        let size = p.size();
        assert!(compiles(source, size), "{source}: {size} does not compile");
        assert!(size >= start, "{source}: {size} below {start}");
        // A doubling of the start, and the first that compiles.
        assert!(
            (size / start).is_power_of_two() && size.is_multiple_of(start),
            "{source}: {size}"
        );
        assert!(
            size == start || !compiles(source, size / 2),
            "{source}: {size}"
        );
    }
    // A pattern that needs more than the start is measured, not assumed.
    let p = Pattern::new("[a-z]{1,60}@[a-z]{1,60}").unwrap();
    assert!(p.size() > 256, "{}", p.size());
}

#[test]
fn the_compile_cap_follows_the_limit_with_a_floor() {
    // 256 compiled bytes per source byte, never below 4 KiB: a 10-byte limit still compiles
    // what fits in 4 KiB, and refuses what does not.
    let tight = Limits::DEFAULT.with_max_pattern_bytes(10);
    let fits = "a{99}";
    assert!(
        compiles(fits, 4096) && !compiles(fits, 2560),
        "pick another pattern"
    );
    let p = Pattern::with_limits(fits, &tight).unwrap();
    assert!(p.size() <= 4096, "{}", p.size());
    let too_big = "a{1,99}";
    assert!(
        compiles(too_big, 8192) && !compiles(too_big, 4096),
        "pick another pattern"
    );
    assert!(Pattern::with_limits(too_big, &tight).is_err());
    // Past the cap, a pattern is refused at its size.
    assert!(Pattern::with_limits(&"x".repeat(11), &tight).is_err());
}
