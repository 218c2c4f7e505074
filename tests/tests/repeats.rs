//! A multi-select refuses the same choice twice, whatever holds it (a `Vec` as well as a set)
//! and wherever the reply is read: no checkbox list can send a repeat, so one comes from a
//! broken or hostile client.

use std::collections::BTreeSet;

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Rule};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Team {
    Sre,
    Ops,
}

/// Who to notify?
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Notify {
    teams: Vec<Team>,
    again: BTreeSet<Team>,
}

fn reply(teams: Value) -> Value {
    json!({"action": "accept", "content": {"teams": teams, "again": ["ops"]}})
}

/// The one violation, as (field, rule, what was received).
fn refused(error: &elicit_core::ElicitError) -> (String, Rule, String) {
    assert_eq!(error.violations().len(), 1, "{error}");
    let v = &error.violations()[0];
    let received = v.received().unwrap_or_default().to_owned();
    (v.property().unwrap().to_owned(), v.rule().clone(), received)
}

#[test]
fn a_vec_refuses_a_repeated_choice_naming_it() {
    let twice = reply(json!(["sre", "sre", "ops"]));
    let error = ElicitResult::<Notify>::from_value(&twice).unwrap_err();
    assert_eq!(
        refused(&error),
        ("teams".into(), Rule::UniqueItems, "\"sre\"".into())
    );
    assert!(error.to_string().contains("same choice twice"), "{error}");
    let error = ElicitResult::<Notify>::from_json(&twice.to_string()).unwrap_err();
    assert_eq!(refused(&error).0, "teams");
    // Each choice once reads.
    let once = ElicitResult::<Notify>::from_value(&reply(json!(["ops", "sre"]))).unwrap();
    assert_eq!(once.accepted().unwrap().teams, [Team::Ops, Team::Sre]);
}

#[test]
fn a_runtime_schema_refuses_a_repeat_without_unique_items() {
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {
            "teams": {"type": "array", "items": {"type": "string", "enum": ["sre", "ops"]}},
            "again": {"type": "array", "items": {"type": "string", "enum": ["sre", "ops"]}},
        },
    }))
    .unwrap();
    let error = schema
        .parse_reply_value(&reply(json!(["ops", "ops"])))
        .unwrap_err();
    assert_eq!(
        refused(&error),
        ("teams".into(), Rule::UniqueItems, "\"ops\"".into())
    );
    let content = json!({"teams": ["sre", "sre"]});
    assert!(
        schema
            .validate_content(content.as_object().unwrap())
            .is_err()
    );
}
