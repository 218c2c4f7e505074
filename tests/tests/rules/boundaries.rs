//! Every rule pinned at its boundary, on both sides.

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Limits, Rule};
use serde_json::{Value, json};

fn rules(property: Value, value: Value) -> Vec<Rule> {
    let schema =
        RequestedSchema::from_value(json!({"type": "object", "properties": {"p": property}}))
            .unwrap();
    let reply = json!({"action": "accept", "content": {"p": value}});
    let from_value = match schema.parse_reply_value(&reply) {
        Ok(_) => Vec::new(),
        Err(e) => e.violations().iter().map(|v| v.rule().clone()).collect(),
    };
    let from_text = match schema.parse_reply_json(&reply.to_string()) {
        Ok(_) => Vec::new(),
        Err(e) => e.violations().iter().map(|v| v.rule().clone()).collect(),
    };
    assert_eq!(from_value, from_text);
    from_value
}

fn kinds(rules: &[Rule]) -> Vec<String> {
    rules
        .iter()
        .map(|r| {
            format!("{r:?}")
                .chars()
                .take_while(char::is_ascii_alphanumeric)
                .collect()
        })
        .collect()
}

#[test]
fn lengths_at_their_edges() {
    let s = json!({"type": "string", "minLength": 2, "maxLength": 3});
    assert_eq!(kinds(&rules(s.clone(), json!("a"))), ["MinLength"]);
    assert!(rules(s.clone(), json!("ab")).is_empty());
    assert!(rules(s.clone(), json!("abc")).is_empty());
    assert_eq!(kinds(&rules(s.clone(), json!("abcd"))), ["MaxLength"]);
    // Counted in Unicode scalar values, not bytes.
    assert!(rules(s.clone(), json!("éé")).is_empty());
    assert!(rules(s.clone(), json!("ééé")).is_empty());
    assert_eq!(kinds(&rules(s.clone(), json!("éééé"))), ["MaxLength"]);
    assert_eq!(kinds(&rules(s, json!("é"))), ["MinLength"]);
}

#[test]
fn bounds_at_their_edges() {
    let n = json!({"type": "number", "minimum": 1, "exclusiveMaximum": 5});
    assert!(
        rules(n.clone(), json!(1)).is_empty(),
        "equal to the minimum"
    );
    assert_eq!(kinds(&rules(n.clone(), json!(0.999))), ["Minimum"]);
    assert!(rules(n.clone(), json!(4.999)).is_empty());
    assert_eq!(kinds(&rules(n.clone(), json!(5))), ["ExclusiveMaximum"]);
    let m = json!({"type": "number", "exclusiveMinimum": 1, "maximum": 5});
    assert_eq!(kinds(&rules(m.clone(), json!(1))), ["ExclusiveMinimum"]);
    assert!(rules(m.clone(), json!(1.001)).is_empty());
    assert!(
        rules(m.clone(), json!(5)).is_empty(),
        "equal to the maximum"
    );
    assert_eq!(kinds(&rules(m, json!(5.001))), ["Maximum"]);
    // One value can break two rules.
    let both = json!({"type": "integer", "minimum": 10, "exclusiveMinimum": 10});
    assert_eq!(
        kinds(&rules(both, json!(9))),
        ["Minimum", "ExclusiveMinimum"]
    );
}

#[test]
fn item_counts_at_their_edges() {
    let tags = json!({
        "type": "array",
        "items": {"type": "string", "enum": ["a", "b", "c", "d"]},
        "minItems": 2,
        "maxItems": 3
    });
    assert_eq!(kinds(&rules(tags.clone(), json!(["a"]))), ["MinItems"]);
    assert!(rules(tags.clone(), json!(["a", "b"])).is_empty());
    assert!(rules(tags.clone(), json!(["a", "b", "c"])).is_empty());
    assert_eq!(
        kinds(&rules(tags, json!(["a", "b", "c", "d"]))),
        ["MaxItems"]
    );
}

#[test]
fn the_string_limit_at_its_edge() {
    let schema = RequestedSchema::from_value(
        json!({"type": "object", "properties": {"p": {"type": "string"}}}),
    )
    .unwrap();
    let limit = Limits::default().max_string_bytes();
    let reply = |n: usize| json!({"action": "accept", "content": {"p": "x".repeat(n)}});
    assert!(
        schema.parse_reply_value(&reply(limit)).is_ok(),
        "exactly 64 KiB"
    );
    assert!(schema.parse_reply_json(&reply(limit).to_string()).is_ok());
    let e = schema.parse_reply_value(&reply(limit + 1)).unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::TooLong(limit));
    let e = schema
        .parse_reply_json(&reply(limit + 1).to_string())
        .unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::TooLong(limit));
}

/// A form with one `i32` field.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Signed {
    n: i32,
}

#[test]
fn integral_floats_become_integers_of_either_sign() {
    for (n, expected) in [
        (json!(-5.0), -5),
        (json!(5.0), 5),
        (json!(-0.0), 0),
        (json!(-2147483648.0), i32::MIN),
    ] {
        let reply = json!({"action": "accept", "content": {"n": n}});
        match ElicitResult::<Signed>::from_value(&reply) {
            Ok(ElicitResult::Accept(s)) => assert_eq!(s.n, expected, "{n}"),
            other => panic!("{n}: {other:?}"),
        }
        match ElicitResult::<Signed>::from_json(&reply.to_string()) {
            Ok(ElicitResult::Accept(s)) => assert_eq!(s.n, expected, "{n}"),
            other => panic!("{n}: {other:?}"),
        }
    }
    let reply = json!({"action": "accept", "content": {"n": -2147483649.0}});
    assert!(ElicitResult::<Signed>::from_value(&reply).is_err());
}

/// Lengths of one- to four-byte characters against every nearby bound: a string's length is
/// its characters, however few or many bytes each takes, whether or not they are counted.
#[test]
fn lengths_in_characters_of_every_width() {
    let widths = ["a", "é", "€", "😀"];
    let mut strings = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = strings
            .iter()
            .flat_map(|s| widths.iter().map(move |w| format!("{s}{w}")))
            .collect();
        strings.extend(longer);
        strings.sort();
        strings.dedup();
    }
    for min in 0..=5u64 {
        for max in [0, 1, 2, 3, 4, 5, 8, 16] {
            let s = json!({"type": "string", "minLength": min, "maxLength": max});
            // Required, so that a blank is read as sent.
            let form = json!({"type": "object", "properties": {"p": s}, "required": ["p"]});
            let schema = RequestedSchema::from_value(form);
            let schema = match schema {
                Ok(schema) => schema,
                // Bounds no string meets are refused with the schema.
                Err(_) if min > max => continue,
                Err(e) => panic!("{min}..={max}: {e}"),
            };
            for text in &strings {
                let chars = text.chars().count() as u64;
                let mut expected = Vec::new();
                if chars < min {
                    expected.push("MinLength");
                }
                if chars > max {
                    expected.push("MaxLength");
                }
                let reply = json!({"action": "accept", "content": {"p": text}});
                let found = match schema.parse_reply_json(&reply.to_string()) {
                    Ok(_) => Vec::new(),
                    Err(e) => kinds(
                        &e.violations()
                            .iter()
                            .map(|v| v.rule().clone())
                            .collect::<Vec<_>>(),
                    ),
                };
                assert_eq!(found, expected, "{text:?} against {min}..={max}");
            }
        }
    }
}
