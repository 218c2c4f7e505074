//! Unit tests of `schema::rules`, beside the crate's sources so that they reach its private items.

use super::Chosen;

/// Choices below 64 and past it: each is new once, as a hash set says.
#[test]
fn chosen_finds_every_repeat() {
    let mut chosen = Chosen::default();
    let mut reference = std::collections::HashSet::new();
    let choices = (0..200).chain((0..200).rev()).map(|i| (i * 37) % 150);
    for choice in choices {
        assert_eq!(chosen.insert(choice), reference.insert(choice), "{choice}");
    }
    assert!(chosen.more.is_some_and(|more| more.len() > 16));
}

/// Without the `pattern` feature, a schema with a pattern is refused where it is read, so no
/// string meant to match one is ever accepted unchecked.
#[cfg(not(feature = "pattern"))]
#[test]
fn without_patterns_a_pattern_refuses_its_schema() {
    use crate::schema::RequestedSchema;

    let schema = r#"{"type":"object","properties":{"tag":{"type":"string","pattern":"^[a-z]+$"}}}"#;
    let error = RequestedSchema::from_json(schema).unwrap_err().to_string();
    assert!(error.contains("tag"), "{error}");
    assert!(error.contains("`pattern` feature"), "{error}");
    // One over the length limit names the feature too: that is what stands in the way.
    let long = format!(
        r#"{{"type":"object","properties":{{"tag":{{"type":"string","pattern":"{}"}}}}}}"#,
        "a".repeat(2_000)
    );
    let error = RequestedSchema::from_json(&long).unwrap_err().to_string();
    assert!(error.contains("`pattern` feature"), "{error}");
}
