//! An independent oracle: over generated schemas and replies, the runtime's verdict on content
//! equals that of the `jsonschema` crate (draft 2020-12, formats asserted). The fast-pass and
//! typed/runtime comparisons share the rule code, so they cannot catch a wrong rule; this can.
//!
//! Deliberate differences, kept out of the generated inputs, each for its reason:
//! - **Bounds that no value meets** (a minimum above its maximum, `minimum: 5` with
//!   `exclusiveMaximum: 5`, an integer between 2.25 and 2.5) refuse the schema here; JSON Schema
//!   takes it and accepts nothing. Generated bounds leave a value to accept.
//! - **Strings longer than the string limit** (64 KiB by default) are refused here: a limit,
//!   not a rule. Generated strings are short.
//! - **`format` where the two checkers read a grammar differently**: `email` here is RFC 5321
//!   with RFC 6531's UTF-8 (the oracle follows RFC 5322 for quoted local parts and IDN rules for
//!   non-ASCII); `date-time` here allows a leap second only at 23:59 UTC. The generated format
//!   strings are ones both grammars decide alike; `tests/rules/formats.rs` pins the rest
//!   against the JSON-Schema-Test-Suite.
//! - **`""` for an optional property that `""` cannot meet** (a format, a least length, a
//!   pattern, a choice) reads here as if the property were not sent, as form UIs send an
//!   untouched text box; JSON Schema refuses it. The oracle is asked about the content without
//!   such blanks (`tests/rules/values.rs` pins the reading on every entry point).
//! - **The same choice twice in a multi-select** is refused here with or without
//!   `uniqueItems`: no checkbox list sends it. The oracle is given each multi-select with
//!   `uniqueItems: true` (`tests/repeats.rs` pins the reading).

use elicit_core::Limits;
use elicit_core::schema::RequestedSchema;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// One property: its schema and a pool of values that probe its rules at their edges.
fn property() -> impl Strategy<Value = (Value, Vec<Value>)> {
    let string = (
        proptest::option::of(0u64..4),
        proptest::option::of(2u64..6),
        proptest::option::of(prop_oneof![
            Just("email"),
            Just("uri"),
            Just("date"),
            Just("date-time")
        ]),
        proptest::option::of(prop_oneof![Just("^[a-c]+$"), Just("b"), Just("^x|y$")]),
    )
        .prop_map(|(min, max, format, pattern)| {
            let mut s = json!({"type": "string"});
            if let Some(min) = min {
                s["minLength"] = min.into();
            }
            // A minimum above its maximum is refused here (the oracle takes the schema and
            // accepts nothing): generated schemas keep them in order.
            if let Some(max) = max.filter(|max| min.is_none_or(|min| min <= *max)) {
                s["maxLength"] = max.into();
            }
            if let Some(format) = format {
                s["format"] = format.into();
            }
            if let Some(pattern) = pattern {
                s["pattern"] = pattern.into();
            }
            let pool = [
                "",
                "a",
                "ab",
                "abc",
                "abcd",
                "abcde",
                "xyz",
                "y",
                "é",
                "éé",
                "bb",
                "a@b.co",
                "a@b",
                "@b.co",
                "http://x.org/p",
                "urn:a:b",
                "x:",
                "2026-11-30",
                "2026-02-29",
                "2024-02-29",
                "2026-11-30T12:00:00Z",
                "2026-11-30T12:00:00",
                "1998-12-31T23:59:60Z",
            ]
            .map(Value::from)
            .into_iter()
            .chain([json!(1), json!(true), json!(null), json!(["a"])])
            .collect();
            (s, pool)
        });
    let number = (
        any::<bool>(),
        proptest::option::of(-3i64..3),
        proptest::option::of(-3i64..5),
        proptest::option::of(prop_oneof![Just(-1.5f64), Just(0.5), Just(2.25)]),
        proptest::option::of(prop_oneof![Just(2.5f64), Just(9007199254740993u64 as f64)]),
    )
        .prop_map(|(integer, min, max, exclusive_min, exclusive_max)| {
            let low = [min.map(|m| m as f64), exclusive_min]
                .into_iter()
                .flatten()
                .reduce(f64::max);
            let in_order = |high: f64| low.is_none_or(|low| low <= high);
            let max = max.filter(|m| in_order(*m as f64));
            let exclusive_max = exclusive_max.filter(|m| in_order(*m));
            let mut s = json!({"type": if integer { "integer" } else { "number" }});
            if let Some(min) = min {
                s["minimum"] = min.into();
            }
            if let Some(max) = max {
                s["maximum"] = max.into();
            }
            if let Some(e) = exclusive_min {
                s["exclusiveMinimum"] = e.into();
            }
            if let Some(e) = exclusive_max {
                s["exclusiveMaximum"] = e.into();
            }
            if !leaves_a_value(&s) {
                let bounds = s.as_object_mut().unwrap();
                bounds.remove("maximum");
                bounds.remove("exclusiveMaximum");
            }
            let pool = [
                json!(-4),
                json!(-3),
                json!(-1.5),
                json!(-1),
                json!(0),
                json!(0.5),
                json!(1),
                json!(1.0),
                json!(2),
                json!(2.25),
                json!(2.5),
                json!(3),
                json!(4.000000000000001),
                json!(5),
                json!(9007199254740992u64),
                json!(9007199254740993u64),
                json!(18446744073709551615u64),
                json!(-9223372036854775808i64),
                json!("1"),
                json!(null),
                json!(true),
            ]
            .into();
            (s, pool)
        });
    let boolean = Just((
        json!({"type": "boolean"}),
        vec![
            json!(true),
            json!(false),
            json!("true"),
            json!(0),
            json!(null),
        ],
    ));
    let select = (1usize..4, any::<bool>()).prop_map(|(n, titled)| {
        let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
        let s = if titled {
            let branches: Vec<Value> = values
                .iter()
                .map(|v| json!({"const": v, "title": v.to_uppercase()}))
                .collect();
            json!({"type": "string", "oneOf": branches})
        } else {
            json!({"type": "string", "enum": values})
        };
        (
            s,
            vec![
                json!("v0"),
                json!("v1"),
                json!("v3"),
                json!("V0"),
                json!(0),
                json!(["v0"]),
            ],
        )
    });
    let multi = (
        1usize..4,
        any::<bool>(),
        proptest::option::of(0u64..3),
        proptest::option::of(1u64..4),
        any::<bool>(),
    )
        .prop_map(|(n, titled, min, max, unique)| {
            let values: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
            let items = if titled {
                let branches: Vec<Value> = values
                    .iter()
                    .map(|v| json!({"const": v, "title": v.to_uppercase()}))
                    .collect();
                json!({"anyOf": branches})
            } else {
                json!({"type": "string", "enum": values})
            };
            let mut s = json!({"type": "array", "items": items});
            if let Some(min) = min {
                s["minItems"] = min.into();
            }
            if let Some(max) = max.filter(|max| min.is_none_or(|min| *max >= min)) {
                s["maxItems"] = max.into();
            }
            if unique {
                s["uniqueItems"] = true.into();
            }
            let pool = [
                json!([]),
                json!(["v0"]),
                json!(["v0", "v1"]),
                json!(["v0", "v0"]),
                json!(["v0", "v1", "v2"]),
                json!(["v9"]),
                json!([0]),
                json!("v0"),
            ]
            .into();
            (s, pool)
        });
    prop_oneof![string, number, boolean, select, multi]
}

/// A schema of one to four properties, and content drawn from their pools (some left out,
/// some unknown keys added).
fn case() -> impl Strategy<Value = (Value, Value)> {
    proptest::collection::vec((property(), any::<bool>(), 0usize..12, 0u8..5), 1..5)
        .prop_flat_map(|props| {
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut content = Map::new();
            for (i, ((schema, pool), is_required, pick, presence)) in props.into_iter().enumerate()
            {
                let name = format!("p{i}");
                properties.insert(name.clone(), schema);
                if is_required {
                    required.push(name.clone());
                }
                if presence > 0 {
                    content.insert(name, pool[pick % pool.len()].clone());
                }
            }
            let schema = json!({"type": "object", "properties": properties, "required": required});
            let extra = prop_oneof![Just(None), Just(Some(("note", json!("x"))))];
            (Just(schema), Just(content), extra)
        })
        .prop_map(|(schema, mut content, extra)| {
            if let Some((key, value)) = extra {
                content.insert(key.into(), value);
            }
            (schema, Value::Object(content))
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_runtime_agrees_with_an_independent_validator((schema, content) in case()) {
        let ours = RequestedSchema::from_value_with(schema.clone(), &Limits::UNLIMITED)
            .expect("generated schemas are valid");
        let oracle = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&with_unique_items(&schema))
            .expect("the oracle reads the schema");
        let Value::Object(map) = &content else { unreachable!() };
        let verdict = ours.validate_content(map);
        let expected = oracle.is_valid(&without_absent_blanks(&schema, &content));
        prop_assert_eq!(
            verdict.is_ok(),
            expected,
            "schema {}\ncontent {}\nours: {:?}",
            schema,
            content,
            verdict.err().map(|e| e.to_string())
        );
        // The reply paths reach the same verdict.
        let reply = json!({"action": "accept", "content": content});
        prop_assert_eq!(ours.parse_reply_value(&reply).is_ok(), expected);
        prop_assert_eq!(ours.parse_reply_json(&reply.to_string()).is_ok(), expected);
    }
}

/// `schema` with `uniqueItems: true` on each multi-select: what this crate reads it as.
fn with_unique_items(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            if property["type"] == "array" {
                property["uniqueItems"] = json!(true);
            }
        }
    }
    schema
}

/// `content` without the `""` of each optional property whose own schema refuses `""`: what
/// this crate reads as not sent.
fn without_absent_blanks(schema: &Value, content: &Value) -> Value {
    let required: Vec<&Value> = schema["required"].as_array().unwrap().iter().collect();
    let mut content = content.as_object().unwrap().clone();
    content.retain(|name, value| {
        let optional = !required.iter().any(|r| r.as_str() == Some(name.as_str()));
        let Some(property) = schema["properties"].get(name) else {
            return true;
        };
        let refuses_blank = || {
            !jsonschema::options()
                .with_draft(jsonschema::Draft::Draft202012)
                .should_validate_formats(true)
                .build(property)
                .expect("the oracle reads the property")
                .is_valid(&json!(""))
        };
        !(optional && value == "" && refuses_blank())
    });
    Value::Object(content)
}

/// Whether some number (a whole one for `type: integer`) meets every bound of `schema`.
fn leaves_a_value(schema: &Value) -> bool {
    let get = |key: &str| schema.get(key).and_then(Value::as_f64);
    let integer = schema["type"] == "integer";
    let (min, ex_min) = (get("minimum"), get("exclusiveMinimum"));
    let (max, ex_max) = (get("maximum"), get("exclusiveMaximum"));
    if integer {
        let least = [min.map(f64::ceil), ex_min.map(|e| e.floor() + 1.0)]
            .into_iter()
            .flatten()
            .reduce(f64::max);
        let most = [max.map(f64::floor), ex_max.map(|e| e.ceil() - 1.0)]
            .into_iter()
            .flatten()
            .reduce(f64::min);
        return least.zip(most).is_none_or(|(least, most)| least <= most);
    }
    let lows = [min.map(|m| (m, false)), ex_min.map(|e| (e, true))];
    let highs = [max.map(|m| (m, false)), ex_max.map(|e| (e, true))];
    lows.into_iter().flatten().all(|(low, low_ex)| {
        highs
            .into_iter()
            .flatten()
            .all(|(high, high_ex)| low < high || (low == high && !low_ex && !high_ex))
    })
}
