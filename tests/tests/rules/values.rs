//! Values checked through the reader of a `serde_json::Value` and serde's `Deserialize`, beside
//! reply text: booleans where they belong and nowhere else, integral floats kept as floats in a
//! `number` property, and the pattern budget charged for an empty string.

use elicit_core::{Elicit, ElicitResult, Limits, RequestedSchema, Rule};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Flags
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Flags {
    flag: bool,
    name: String,
}

fn reply(content: serde_json::Value) -> serde_json::Value {
    json!({"action": "accept", "content": content})
}

#[test]
fn a_boolean_is_taken_by_a_boolean_field_on_every_entry_point() {
    let ok = reply(json!({"flag": true, "name": "x"}));
    let from_value = ElicitResult::<Flags>::from_value(&ok).unwrap();
    assert!(from_value.accepted().unwrap().flag);
    let via_serde: ElicitResult<Flags> = serde_json::from_value(ok.clone()).unwrap();
    assert_eq!(via_serde.accepted().unwrap().name, "x");
    let from_text = ElicitResult::<Flags>::from_json(&ok.to_string()).unwrap();
    assert!(from_text.accepted().unwrap().flag);
    let schema = Flags::requested_schema();
    assert!(schema.parse_reply_value(&ok).is_ok());
}

#[test]
fn a_boolean_elsewhere_is_the_wrong_type_on_every_entry_point() {
    let bad = reply(json!({"flag": true, "name": true}));
    let rules = |e: elicit_core::ElicitError| -> Vec<(String, Rule)> {
        e.violations()
            .iter()
            .map(|v| (v.property().unwrap_or("-").to_owned(), v.rule().clone()))
            .collect()
    };
    let expected = vec![("name".to_owned(), Rule::Type { expected: "string" })];
    assert_eq!(
        rules(ElicitResult::<Flags>::from_value(&bad).unwrap_err()),
        expected
    );
    assert_eq!(
        rules(ElicitResult::<Flags>::from_json(&bad.to_string()).unwrap_err()),
        expected
    );
    assert_eq!(
        rules(
            Flags::requested_schema()
                .parse_reply_value(&bad)
                .unwrap_err()
        ),
        expected
    );
}

#[test]
fn an_integral_float_stays_a_float_in_a_number_property() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "ratio": {"type": "number"}, "count": {"type": "integer"}
    }}))
    .unwrap();
    let content = schema
        .parse_reply_value(&reply(json!({"ratio": 5.0, "count": 3.0})))
        .unwrap()
        .accepted()
        .unwrap();
    // `5.0` is kept as written for a number; `3.0` is the integer 3 for an integer.
    assert!(
        content.get("ratio").unwrap().as_number().unwrap().is_f64(),
        "{:?}",
        content.get("ratio")
    );
    assert_eq!(content.get("count").cloned(), Some(json!(3)));
}

#[test]
fn checking_even_an_empty_string_against_a_pattern_costs_work() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^$"}
    }}))
    .unwrap();
    let empty = reply(json!({"code": ""})).to_string();
    assert!(schema.parse_reply_json(&empty).is_ok());
    let none = Limits::DEFAULT.with_max_pattern_work(0);
    let e = schema.parse_reply_json_with(&empty, &none).unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::PatternBudget);
}
