//! Numbers are read correctly rounded on every path, integer fields take only integers, and
//! bounds are compared exactly.

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Rule};
use serde_json::{Value, json};

fn schema(property: Value) -> RequestedSchema {
    RequestedSchema::from_value(json!({"type": "object", "properties": {"n": property}}))
        .expect("a valid schema")
}

fn reply(n: &str) -> String {
    format!(r#"{{"action":"accept","content":{{"n":{n}}}}}"#)
}

/// The rules the reply `{"n": <n>}` breaks under `property`, read from text and from a value.
fn broken(property: Value, n: &str) -> Vec<Rule> {
    let schema = schema(property);
    let from_text = match schema.parse_reply_json(&reply(n)) {
        Ok(_) => Vec::new(),
        Err(e) => e.violations().iter().map(|v| v.rule().clone()).collect(),
    };
    let value: Value = serde_json::from_str(&reply(n)).unwrap();
    let from_value = match schema.parse_reply_value(&value) {
        Ok(_) => Vec::new(),
        Err(e) => e.violations().iter().map(|v| v.rule().clone()).collect(),
    };
    assert_eq!(from_text, from_value, "{n}: text and value paths agree");
    from_text
}

#[test]
fn decimals_of_sixteen_digits_or_more_are_read_correctly_rounded() {
    // 0.9999999999999999 is the float just below 1, not 1.
    assert_eq!(
        broken(
            json!({"type": "integer", "minimum": 1}),
            "0.9999999999999999"
        ),
        [Rule::Type {
            expected: "integer"
        }]
    );
    // 100.00000000000001 rounds to the float above 100.
    assert!(matches!(
        broken(
            json!({"type": "number", "maximum": 100}),
            "100.00000000000001"
        )[..],
        [Rule::Maximum(_)]
    ));
    assert!(
        broken(
            json!({"type": "number", "maximum": 100}),
            "100.000000000000"
        )
        .is_empty()
    );
    // A bound written with a fraction part is read exactly too.
    assert!(
        broken(
            json!({"type": "integer", "maximum": -9007199254740988.0}),
            "-9007199254740988"
        )
        .is_empty()
    );
    let e = schema(json!({"type": "integer", "maximum": -9007199254740988.0}))
        .parse_reply_json(&reply("-9007199254740987"))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "`n` must be at most -9007199254740988 (maximum); received -9007199254740987"
    );
}

/// A form with one `u8` field.
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Small {
    n: u8,
}

#[test]
fn typed_integer_fields_take_only_integers() {
    for n in [
        "3.9999999999999996",
        "4.000000000000001",
        "0.5",
        "-0.0000000000000001",
    ] {
        let e = ElicitResult::<Small>::from_json(&reply(n)).unwrap_err();
        assert_eq!(
            e.violations()[0].rule(),
            &Rule::Type {
                expected: "integer"
            },
            "{n}"
        );
        let value: Value = serde_json::from_str(&reply(n)).unwrap();
        assert!(ElicitResult::<Small>::from_value(&value).is_err(), "{n}");
    }
    for (n, expected) in [
        ("4", 4),
        ("4.0", 4),
        ("4e0", 4),
        ("0.4e1", 4),
        ("400e-2", 4),
    ] {
        match ElicitResult::<Small>::from_json(&reply(n)) {
            Ok(ElicitResult::Accept(small)) => assert_eq!(small.n, expected, "{n}"),
            other => panic!("{n}: {other:?}"),
        }
    }
}

#[test]
fn integer_bounds_beyond_two_to_the_53_are_compared_exactly() {
    let max = json!({"type": "integer", "maximum": 9007199254806527u64});
    assert!(broken(max.clone(), "9007199254806527").is_empty());
    let over = broken(max, "9007199254806528");
    assert_eq!(over.len(), 1);
    assert_eq!(
        over[0].to_string(),
        "must be at most 9007199254806527 (maximum)"
    );

    let min = json!({"type": "integer", "minimum": -9223372036854775807i64});
    assert!(broken(min.clone(), "-9223372036854775807").is_empty());
    assert_eq!(broken(min, "-9223372036854775808").len(), 1);

    let exclusive = json!({"type": "integer", "exclusiveMaximum": 18446744073709551615u64});
    assert!(broken(exclusive.clone(), "18446744073709551614").is_empty());
    assert_eq!(broken(exclusive, "18446744073709551615").len(), 1);

    // An integer value against a bound with a fraction, and the other way round.
    let half = json!({"type": "number", "maximum": 9007199254740993.5});
    assert!(broken(half.clone(), "9007199254740992").is_empty());
    assert_eq!(broken(half, "9007199254740995").len(), 1);
    let whole = json!({"type": "number", "minimum": 9007199254740993u64});
    assert_eq!(broken(whole.clone(), "9007199254740992.0").len(), 1);
    assert!(broken(whole, "9007199254740994.0").is_empty());
}

#[test]
fn a_bound_is_written_back_as_it_was_read() {
    for bound in [
        json!(9007199254806527u64),
        json!(-9223372036854775807i64),
        json!(0.1),
        json!(100),
    ] {
        let s = schema(json!({"type": "number", "maximum": bound}));
        assert_eq!(
            serde_json::to_value(&s).unwrap()["properties"]["n"]["maximum"],
            bound
        );
    }
}
