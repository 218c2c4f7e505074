//! The validating parse of a reply into `ElicitResult<T>`.

use std::collections::BTreeSet;

use elicit_core::schema::Bound;
use elicit_core::{Elicit, ElicitAction, ElicitError, ElicitResult, Location, Rule};
use elicit_tests::assert_type_conforms;
mod common;

use proptest::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::json;

#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    JsonSchema,
    Elicit,
)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
    Blue,
}

/// A form with one field of every kind.
#[derive(Debug, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Form {
    #[schemars(length(min = 1, max = 5))]
    name: String,
    #[schemars(range(min = 1, max = 120))]
    age: u8,
    #[schemars(range(min = 0.0, max = 1.0))]
    ratio: f64,
    agree: bool,
    color: Color,
    #[schemars(length(min = 1, max = 2))]
    tags: BTreeSet<Color>,
    list: Vec<Color>,
    #[schemars(email)]
    email: Option<String>,
    #[serde(default = "default_note")]
    note: String,
}

fn default_note() -> String {
    "none".into()
}

fn valid() -> serde_json::Value {
    json!({
        "name": "Ada",
        "age": 36,
        "ratio": 0.5,
        "agree": true,
        "color": "red",
        "tags": ["green"],
        "list": ["blue", "red"],
    })
}

fn accept(content: serde_json::Value) -> String {
    json!({"action": "accept", "content": content}).to_string()
}

fn errors(reply: &str) -> ElicitError {
    ElicitResult::<Form>::from_json(reply).expect_err("the reply is invalid")
}

fn rules_of(error: &ElicitError) -> Vec<(Option<&str>, &Rule)> {
    error
        .violations()
        .iter()
        .map(|v| (v.property(), v.rule()))
        .collect()
}

#[test]
fn a_valid_accept_yields_the_typed_value() {
    let r = ElicitResult::<Form>::from_json(&accept(valid())).unwrap();
    let form = r.accepted().unwrap();
    assert_eq!(form.name, "Ada");
    assert_eq!(form.color, Color::Red);
    // A list keeps the order chosen.
    assert_eq!(form.list, [Color::Blue, Color::Red]);
    assert_eq!(form.email, None);
    assert_eq!(form.note, "none", "an absent field with a default gets it");
}

#[test]
fn serde_json_from_str_is_the_one_liner() {
    let r: ElicitResult<Form> = serde_json::from_str(&accept(valid())).unwrap();
    assert_eq!(
        r,
        ElicitResult::<Form>::from_json(&accept(valid())).unwrap()
    );
    let mut bad = valid();
    bad["age"] = json!(0);
    let e = serde_json::from_str::<ElicitResult<Form>>(&accept(bad)).unwrap_err();
    assert!(
        e.to_string()
            .contains("`age` must be at least 1 (minimum); received 0"),
        "{e}"
    );
}

/// Where the reply breaks a rule before a value that stops the target, the serde path names
/// the rule, not only the stop.
#[test]
fn the_serde_path_names_the_rules_broken_before_it_stopped() {
    let reply = r#"{"action":"accept","content":{"age":0,"agree":"yes"}}"#;
    let e = serde_json::from_str::<ElicitResult<Form>>(reply).unwrap_err();
    assert!(
        e.to_string()
            .contains("`age` must be at least 1 (minimum); received 0"),
        "{e}"
    );
}

#[test]
fn actions_are_exactly_three_lowercase_words() {
    assert_eq!(
        ElicitResult::<Form>::from_json(r#"{"action":"decline"}"#).unwrap(),
        ElicitResult::Decline
    );
    assert_eq!(
        ElicitResult::<Form>::from_json(r#"{"action":"cancel"}"#).unwrap(),
        ElicitResult::Cancel
    );
    for (reply, received) in [
        (r#"{"action":"ACCEPT","content":{}}"#, Some("\"ACCEPT\"")),
        (r#"{"action":"reject"}"#, Some("\"reject\"")),
        (r#"{"action":""}"#, Some("\"\"")),
        (r#"{"action":1}"#, Some("1")),
        (r#"{"action":null}"#, Some("null")),
        (r#"{"content":{}}"#, None),
        (r#"{}"#, None),
    ] {
        let e = errors(reply);
        let v = &e.violations()[0];
        assert_eq!(v.location(), &Location::Envelope, "{reply}");
        assert!(
            matches!(v.rule(), Rule::ActionInvalid | Rule::ActionMissing),
            "{reply}: {e}"
        );
        assert_eq!(v.received(), received, "{reply}");
    }
    assert!(
        errors(r#"{"action":"Accept"}"#)
            .to_string()
            .contains("\"Accept\"")
    );
}

#[test]
fn decline_and_cancel_ignore_content_whatever_it_holds() {
    for content in [
        "",
        r#","content":null"#,
        r#","content":{"name":""}"#,
        r#","content":[1,2,"x"]"#,
        r#","content":"garbage""#,
        r#","content":{"a":{"b":[{}]}}"#,
    ] {
        for (action, expected) in [
            ("decline", ElicitResult::Decline),
            ("cancel", ElicitResult::Cancel),
        ] {
            let reply = format!(r#"{{"action":"{action}"{content}}}"#);
            assert_eq!(
                ElicitResult::<Form>::from_json(&reply).unwrap(),
                expected,
                "{reply}"
            );
            // Content before the action is ignored too.
            let reply = format!(
                r#"{{{}"action":"{action}"}}"#,
                content.trim_start_matches(',').to_owned()
                    + if content.is_empty() { "" } else { "," }
            );
            assert_eq!(
                ElicitResult::<Form>::from_json(&reply).unwrap(),
                expected,
                "{reply}"
            );
        }
    }
}

#[test]
fn content_before_action_is_still_validated_on_accept() {
    let reply = format!(r#"{{"content":{},"action":"accept"}}"#, valid());
    assert!(matches!(
        ElicitResult::<Form>::from_json(&reply).unwrap(),
        ElicitResult::Accept(_)
    ));
    let mut bad = valid();
    bad["name"] = json!("");
    let reply = format!(r#"{{"content":{bad},"action":"accept"}}"#);
    assert_eq!(
        rules_of(&errors(&reply)),
        [(Some("name"), &Rule::MinLength(1))]
    );
}

/// Fill in AllOptional.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
struct AllOptional {
    nickname: Option<String>,
    #[serde(default)]
    count: u32,
}

#[test]
fn absent_or_null_content_on_accept_is_an_empty_object() {
    for reply in [
        r#"{"action":"accept"}"#,
        r#"{"action":"accept","content":null}"#,
        r#"{"content":null,"action":"accept"}"#,
    ] {
        assert_eq!(
            ElicitResult::<AllOptional>::from_json(reply).unwrap(),
            ElicitResult::Accept(AllOptional {
                nickname: None,
                count: 0
            }),
            "{reply}"
        );
        // Held as a value, content before the action is read where it is, to the same result.
        let value: serde_json::Value = serde_json::from_str(reply).unwrap();
        assert_eq!(
            ElicitResult::<AllOptional>::from_value(&value).unwrap(),
            ElicitResult::<AllOptional>::from_json(reply).unwrap(),
            "{reply}"
        );
        let e = errors(reply);
        let missing: Vec<_> = rules_of(&e)
            .into_iter()
            .filter(|(_, r)| **r == Rule::Required)
            .map(|(p, _)| p.unwrap())
            .collect();
        assert_eq!(
            missing,
            ["name", "age", "ratio", "agree", "color", "tags", "list"],
            "{reply}"
        );
    }
}

#[test]
fn content_that_is_not_an_object_is_refused() {
    for content in [json!("x"), json!([1]), json!(3), json!(true)] {
        let e = errors(&accept(content.clone()));
        assert_eq!(rules_of(&e), [(None, &Rule::ContentNotObject)], "{content}");
    }
}

/// The `Deserialize` impl stops at the first error; for a reply or content of the wrong shape,
/// that error says what was expected.
#[test]
fn the_serde_path_names_a_reply_or_content_of_the_wrong_shape() {
    for content in [json!("x"), json!([1]), json!(3), json!(true)] {
        let e = serde_json::from_str::<ElicitResult<Form>>(&accept(content.clone())).unwrap_err();
        assert!(
            e.to_string()
                .contains("expected a JSON object of form values"),
            "{content}: {e}"
        );
    }
    for reply in ["[1]", "3", "\"accept\"", "null"] {
        let e = serde_json::from_str::<ElicitResult<Form>>(reply).unwrap_err();
        assert!(
            e.to_string().contains("expected an ElicitResult object"),
            "{reply}: {e}"
        );
    }
}

/// A value of the wrong JSON type stops the target: the `Deserialize` impl, which stops at the
/// first such error, gives serde_json's (what was expected, and where), for a scalar and a
/// multi-select alike; `from_json` reads on and names the property's `Type` rule.
#[test]
fn a_value_of_the_wrong_json_type_stops_the_serde_path_where_it_is() {
    for (field, value, expected) in [
        ("age", json!("36"), "expected u8"),
        ("tags", json!("red"), "expected a sequence"),
        ("list", json!({"a": 1}), "expected a sequence"),
    ] {
        let mut content = valid();
        content[field] = value.clone();
        let reply = accept(content);
        let e = serde_json::from_str::<ElicitResult<Form>>(&reply).unwrap_err();
        assert!(e.to_string().contains(expected), "{field}: {e}");
        assert!(e.to_string().contains("at line 1 column"), "{field}: {e}");
        let e = errors(&reply);
        assert!(
            matches!(rules_of(&e)[..], [(Some(p), Rule::Type { .. })] if p == field),
            "{field}: {:?}",
            rules_of(&e)
        );
    }
}

#[test]
fn integers_accept_integral_floats_and_nothing_else() {
    for (age, ok) in [
        (json!(30), true),
        (json!(30.0), true),
        (json!(30.5), false),
        (json!("30"), false),
        (json!(true), false),
    ] {
        let mut content = valid();
        content["age"] = age.clone();
        let r = ElicitResult::<Form>::from_json(&accept(content));
        assert_eq!(r.is_ok(), ok, "{age}");
        if ok {
            assert_eq!(r.unwrap().accepted().unwrap().age, 30);
        } else {
            assert_eq!(
                rules_of(&r.unwrap_err()),
                [(
                    Some("age"),
                    &Rule::Type {
                        expected: "integer"
                    }
                )],
                "{age}"
            );
        }
    }
}

#[test]
fn lengths_count_unicode_scalar_values() {
    for (name, ok) in [
        ("ééééé", true),
        ("🦀🦀🦀🦀🦀", true),
        ("ééééée", false),
        ("a", true),
        ("", false),
    ] {
        let mut content = valid();
        content["name"] = json!(name);
        assert_eq!(
            ElicitResult::<Form>::from_json(&accept(content)).is_ok(),
            ok,
            "{name}"
        );
    }
}

#[test]
fn every_violation_is_reported_with_property_rule_and_value() {
    let content = json!({
        "name": "much too long",
        "age": 200,
        "ratio": 1.5,
        "agree": "yes",
        "color": "Red",
        "tags": ["red", "red", "purple"],
        "list": "blue",
        "email": "not-an-email",
        "extra": 1,
    });
    let e = errors(&accept(content));
    assert_eq!(
        rules_of(&e),
        [
            (Some("name"), &Rule::MaxLength(5)),
            (Some("age"), &Rule::Maximum(Bound::Int(120))),
            (Some("ratio"), &Rule::Maximum(Bound::Int(1))),
            (
                Some("agree"),
                &Rule::Type {
                    expected: "boolean"
                }
            ),
            (Some("color"), &Rule::NotAChoice),
            (Some("tags"), &Rule::UniqueItems),
            (Some("tags"), &Rule::NotAChoice),
            (Some("tags"), &Rule::MaxItems(2)),
            (Some("list"), &Rule::Type { expected: "array" }),
            (
                Some("email"),
                &Rule::Format(elicit_core::schema::Format::Email)
            ),
        ]
    );
    let text = e.to_string();
    assert_eq!(text.lines().count(), 10);
    assert!(
        text.contains(
            "`name` must be at most 5 characters long (maxLength); received \"much too long\""
        ),
        "{text}"
    );
    assert!(
        text.contains("`color` must be one of the listed choices (enum); received \"Red\""),
        "{text}"
    );
    assert!(
        text.contains("`tags[2]` must be one of the listed choices (enum); received \"purple\""),
        "{text}"
    );
    assert!(
        text.contains("`tags` must have at most 2 choices selected (maxItems); received 3 items"),
        "{text}"
    );
}

#[test]
fn received_values_are_truncated() {
    let mut content = valid();
    content["name"] = json!("x".repeat(10_000));
    let e = errors(&accept(content));
    let received = e.violations()[0].received().unwrap();
    assert!(received.chars().count() <= 65, "{received}");
    assert!(received.ends_with('…'));
}

#[test]
fn multi_select_rules() {
    let mut content = valid();
    content["tags"] = json!([]);
    assert_eq!(
        rules_of(&errors(&accept(content))),
        [(Some("tags"), &Rule::MinItems(1))]
    );
    let mut content = valid();
    content["list"] = json!(["red", 1]);
    assert_eq!(
        rules_of(&errors(&accept(content))),
        [(Some("list"), &Rule::Type { expected: "string" })]
    );
    assert!(matches!(
        errors(&accept({
            let mut c = valid();
            c["list"] = json!(["red", 1]);
            c
        }))
        .violations()[0]
            .location(),
        Location::Item(name, 1) if name == "list"
    ));
}

#[test]
fn null_is_not_a_content_value_even_for_options() {
    let mut content = valid();
    content["email"] = json!(null);
    assert_eq!(
        rules_of(&errors(&accept(content))),
        [(Some("email"), &Rule::Type { expected: "string" })]
    );
}

#[test]
fn unknown_keys_are_ignored_unless_the_form_denies_them() {
    let mut content = valid();
    content["unexpected"] = json!({"deep": [1, 2]});
    content["_meta"] = json!({"x": 1});
    assert!(ElicitResult::<Form>::from_json(&accept(content.clone())).is_ok());
    // The `Deserialize` impl and a `Value` read a key the form does not name through the
    // adapters, which hand its value to the target unchecked.
    let text = accept(content.clone());
    let typed = serde_json::from_str::<ElicitResult<Form>>(&text);
    assert!(typed.is_ok(), "{:?}", typed.err());
    let value = json!({"action": "accept", "content": content});
    assert!(ElicitResult::<Form>::from_value(&value).is_ok());
    let reply = json!({"action": "accept", "content": valid(), "_meta": {"progressToken": 1}, "other": [null]});
    assert!(ElicitResult::<Form>::from_json(&reply.to_string()).is_ok());

    let r = ElicitResult::<Strict>::from_json(r#"{"action":"accept","content":{"a":"x","b":1}}"#);
    let e = r.unwrap_err();
    assert_eq!(e.violations()[0].property(), Some("b"));
    assert_eq!(e.violations()[0].rule(), &Rule::UnknownProperty);
    // `_meta` belongs to the envelope; inside content it is an ordinary key.
    let e =
        ElicitResult::<Strict>::from_json(r#"{"action":"accept","content":{"a":"x","_meta":{}}}"#)
            .unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::UnknownProperty);
}

/// Fill in Strict.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    a: String,
}

#[test]
fn duplicate_keys_are_refused() {
    let e = errors(r#"{"action":"accept","action":"accept","content":{}}"#);
    assert_eq!(e.violations()[0].rule(), &Rule::DuplicateKey);
    let mut text = accept(valid());
    text.insert_str(text.len() - 2, r#","name":"Bob""#);
    let e = errors(&text);
    assert_eq!(rules_of(&e), [(Some("name"), &Rule::DuplicateKey)]);
}

/// `Form` with a property whose blank reads as not sent, so that its value is read ahead of
/// its key: the reader's other way with keys.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Ahead {
    #[schemars(length(min = 1, max = 5))]
    name: String,
    #[serde(default = "default_note")]
    #[schemars(length(min = 1))]
    nick: String,
}

/// Each key is matched to its property however the source hands it over (borrowed, copied
/// out of an escape, or owned), whether or not the form reads some value ahead of its key: a
/// key that slipped past the match would let its value through unchecked.
#[test]
fn every_key_is_matched_however_it_is_handed_over() {
    fn broken<T: Elicit + std::fmt::Debug>(name_key: &str) {
        let text = format!(r#"{{"action":"accept","content":{{"{name_key}":"toolong"}}}}"#);
        let value: Value = serde_json::from_str(&text).unwrap();
        let rule = (Some("name"), &Rule::MaxLength(5));
        let e = ElicitResult::<T>::from_json(&text).unwrap_err();
        assert!(rules_of(&e).contains(&rule), "from_json {name_key}: {e}");
        let said = e.to_string();
        let e = ElicitResult::<T>::from_value(&value).unwrap_err();
        assert!(rules_of(&e).contains(&rule), "from_value {name_key}: {e}");
        for e in [
            serde_json::from_str::<ElicitResult<T>>(&text).unwrap_err(),
            serde_json::from_value::<ElicitResult<T>>(value).unwrap_err(),
        ] {
            assert!(
                e.to_string().contains(&said),
                "{name_key}: {e} (from_json: {said})"
            );
        }
    }
    for key in ["name", r"n\u0061me"] {
        broken::<Strict5>(key);
        broken::<Ahead>(key);
    }
}

/// One string of at most 5 characters, and no value read ahead of its key.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Strict5 {
    #[schemars(length(min = 1, max = 5))]
    name: String,
}

#[test]
fn malformed_json_is_a_clear_error() {
    for reply in [
        "",
        "{",
        r#"{"action":"accept","content":{"name":"x""#,
        "[]",
        "\"accept\"",
        "null",
        "{\"action\":\"decline\"} trailing",
    ] {
        let e = errors(reply);
        assert!(
            matches!(e.violations().last().unwrap().rule(), Rule::Json(_)),
            "{reply}: {e}"
        );
    }
    let e = ElicitResult::<Form>::from_json(b"{\"action\":\"acc\xffept\"}").unwrap_err();
    assert!(e.to_string().contains("UTF-8"), "{e}");
}

#[test]
fn a_reply_cut_short_after_broken_rules_names_them_and_the_json_error() {
    let e = errors(r#"{"action":"accept","content":{"name":"","age":0"#);
    let found: Vec<_> = e
        .violations()
        .iter()
        .map(|v| (v.property(), matches!(v.rule(), Rule::Json(_))))
        .collect();
    assert_eq!(
        found,
        [(Some("name"), false), (Some("age"), false), (None, true)],
        "{e}"
    );
}

#[test]
fn violations_come_envelope_first_then_in_form_order() {
    let e = errors(r#"{"action":"accept","content":{"age":0,"name":""},"action":"accept"}"#);
    let found: Vec<_> = e.violations().iter().map(|v| v.property()).collect();
    let required = ["ratio", "agree", "color", "tags", "list"].map(Some);
    assert_eq!(found[..3], [None, Some("name"), Some("age")], "{e}");
    assert_eq!(found[3..], required, "{e}");
    assert_eq!(e.violations()[0].rule(), &Rule::DuplicateKey, "{e}");
}

#[test]
fn a_url_mode_accept_skips_its_content_unread() {
    for reply in [
        r#"{"action":"accept","content":"not a form"}"#,
        r#"{"content":[1,2],"action":"accept"}"#,
    ] {
        let read = elicit_core::UrlElicitResult::from_json(reply);
        assert_eq!(
            read.unwrap(),
            elicit_core::UrlElicitResult::Accept,
            "{reply}"
        );
    }
}

#[test]
fn malformed_url_mode_replies_are_json_errors() {
    for reply in [
        "",
        "{",
        r#"{"action":"accept""#,
        "[]",
        "{\"action\":\"accept\"} x",
    ] {
        let e = elicit_core::UrlElicitResult::from_json(reply).unwrap_err();
        let rules: Vec<_> = e.violations().iter().map(|v| v.rule()).collect();
        assert!(
            matches!(rules.last(), Some(Rule::Json(_))),
            "{reply}: {rules:?}"
        );
    }
}

#[test]
fn from_value_applies_the_same_rules() {
    let mut bad = valid();
    bad["age"] = json!("30");
    bad["name"] = json!("");
    let from_value =
        ElicitResult::<Form>::from_value(&json!({"action": "accept", "content": bad.clone()}))
            .unwrap_err();
    let from_json = errors(&accept(bad));
    assert_eq!(from_value, from_json);
    assert_eq!(from_value.violations().len(), 2);
    assert!(matches!(
        ElicitResult::<Form>::from_value(&json!({"action": "accept", "content": valid()})),
        Ok(ElicitResult::Accept(_))
    ));
}

#[test]
fn helpers() {
    let accepted = ElicitResult::<Form>::from_json(&accept(valid())).unwrap();
    assert_eq!(accepted.action(), ElicitAction::Accept);
    assert!(!accepted.is_retryable());
    assert_eq!(accepted.as_accepted().map(|f| f.age), Some(36));
    assert_eq!(accepted.map(|f| f.age), ElicitResult::Accept(36));
    let cancel = ElicitResult::<Form>::Cancel;
    assert!(cancel.is_retryable());
    assert_eq!(cancel.action(), ElicitAction::Cancel);
    assert_eq!(
        ElicitResult::<Form>::Decline.map(|f| f.age),
        ElicitResult::Decline
    );
    assert!(!ElicitResult::<Form>::Decline.is_retryable());
    assert_eq!(ElicitResult::<Form>::Decline.accepted(), None);
    assert_eq!(
        "decline".parse::<ElicitAction>().unwrap(),
        ElicitAction::Decline
    );
    assert!("Decline".parse::<ElicitAction>().is_err());
    assert_eq!(ElicitAction::Cancel.to_string(), "cancel");
}

#[test]
fn serialize_writes_the_wire_form() {
    assert_eq!(
        serde_json::to_string(&ElicitResult::<Form>::Decline).unwrap(),
        r#"{"action":"decline"}"#
    );
    assert_eq!(
        serde_json::to_string(&ElicitResult::<Form>::Cancel).unwrap(),
        r#"{"action":"cancel"}"#
    );
    let form = ElicitResult::<Form>::from_json(&accept(valid())).unwrap();
    let wire = serde_json::to_value(&form).unwrap();
    assert_eq!(wire["action"], "accept");
    assert!(
        wire["content"].get("email").is_none(),
        "None is left out, never null: {wire}"
    );
    assert_eq!(wire["content"]["note"], "none");
    // What is written parses back to the same value.
    assert_eq!(ElicitResult::<Form>::from_value(&wire).unwrap(), form);
}

#[test]
fn content_errors_are_told_apart_from_envelope_errors() {
    assert!(errors(&accept(json!({"name": ""}))).is_content_error());
    assert!(!errors(r#"{"action":"nope"}"#).is_content_error());
}

#[test]
fn schemas_of_these_forms_conform() {
    assert_type_conforms::<Form>();
    assert_type_conforms::<AllOptional>();
    assert_type_conforms::<Strict>();
}

fn any_json() -> impl Strategy<Value = Value> {
    common::any_json(
        &["name", "age", "tags", "color", "email"],
        &["red", "green", "ada@example.com", ""],
    )
}

fn any_reply() -> impl Strategy<Value = Value> {
    let action = prop_oneof![
        Just(json!("accept")),
        Just(json!("decline")),
        Just(json!("cancel")),
        any_json(),
    ];
    (action, any_json(), any::<bool>()).prop_map(|(action, content, with_content)| {
        let mut reply = json!({"action": action});
        if with_content {
            reply["content"] = content;
        }
        reply
    })
}

/// Valid accepts of `Form`, each field drawn from values its rules take, and the same with one
/// field replaced by arbitrary JSON or dropped.
fn form_accept() -> impl Strategy<Value = (Value, bool)> {
    let color = proptest::sample::select(&["red", "green", "blue"][..]);
    let valid = (
        "[a-zé]{1,5}",
        1u8..=120,
        0.0f64..=1.0,
        any::<bool>(),
        color.clone(),
        proptest::sample::subsequence(&["red", "green", "blue"][..], 1..=2),
        // A list holds each choice once, in any order: a repeat is refused.
        proptest::sample::subsequence(&["red", "green", "blue"][..], 0..=3).prop_shuffle(),
        proptest::option::of(proptest::sample::select(
            &["ada@example.com", "x@y.org"][..],
        )),
    )
        .prop_map(|(name, age, ratio, agree, color, tags, list, email)| {
            let mut content = json!({
                "name": name, "age": age, "ratio": ratio, "agree": agree,
                "color": color, "tags": tags, "list": list,
            });
            if let Some(email) = email {
                content["email"] = email.into();
            }
            content
        });
    let field = proptest::sample::select(
        &[
            "name", "age", "ratio", "agree", "color", "tags", "list", "email",
        ][..],
    );
    (
        valid,
        proptest::option::of((field, proptest::option::of(any_json()))),
    )
        .prop_map(|(mut content, change)| {
            let untouched = change.is_none();
            if let Some((field, value)) = change {
                match value {
                    Some(value) => content[field] = value,
                    None => {
                        content.as_object_mut().map(|c| c.remove(field));
                    }
                }
            }
            (json!({"action": "accept", "content": content}), untouched)
        })
}

proptest! {
    /// Any input gives a typed result or an error that says something; nothing panics. Every
    /// entry point reaches the same verdict, and a valid accept is accepted.
    #[test]
    fn no_input_panics(
        (reply, valid) in prop_oneof![
            any_reply().prop_map(|r| (r, false)),
            any_json().prop_map(|r| (r, false)),
            form_accept(),
        ],
        bytes in proptest::collection::vec(any::<u8>(), 0..64),
    ) {
        let text = reply.to_string();
        let from_json = ElicitResult::<Form>::from_json(&text);
        let from_value = ElicitResult::<Form>::from_value(&reply);
        for outcome in [&from_json, &from_value] {
            if let Err(e) = outcome {
                prop_assert!(!e.violations().is_empty());
                prop_assert_eq!(e.to_string().lines().count(), e.violations().len());
            }
        }
        prop_assert_eq!(&from_json, &from_value);
        if valid {
            prop_assert!(matches!(from_json, Ok(ElicitResult::Accept(_))), "{:?}", from_json);
        }
        let via_serde = serde_json::from_str::<ElicitResult<Form>>(&text);
        prop_assert_eq!(via_serde.is_ok(), from_json.is_ok());
        if let (Ok(a), Ok(b)) = (&via_serde, &from_json) {
            prop_assert_eq!(a, b);
        }
        let _ = ElicitResult::<Form>::from_json(&bytes);
        let _ = ElicitResult::<AllOptional>::from_json(&text);
    }
}

#[test]
fn a_duplicate_key_is_refused_whether_content_comes_before_the_action_or_after() {
    let content = r#"{"name":"Ada","age":1,"age":99,"ratio":0.5,"agree":true,"color":"red","tags":["green"],"list":[]}"#;
    for reply in [
        format!(r#"{{"action":"accept","content":{content}}}"#),
        format!(r#"{{"content":{content},"action":"accept"}}"#),
    ] {
        for e in [
            ElicitResult::<Form>::from_json(&reply).unwrap_err(),
            ElicitResult::<Form>::from_json(reply.as_bytes()).unwrap_err(),
        ] {
            assert_eq!(
                rules_of(&e),
                [(Some("age"), &Rule::DuplicateKey)],
                "{reply}"
            );
        }
        // serde's `Deserialize` impl says the same in its error.
        let e = serde_json::from_str::<ElicitResult<Form>>(&reply).unwrap_err();
        assert!(
            e.to_string().contains("`age` appears more than once"),
            "{reply}: {e}"
        );
    }
    // The runtime schema refuses it in either order as well.
    let schema = Form::requested_schema();
    for reply in [
        format!(r#"{{"action":"accept","content":{content}}}"#),
        format!(r#"{{"content":{content},"action":"accept"}}"#),
    ] {
        let e = schema.parse_reply_json(&reply).unwrap_err();
        assert_eq!(
            rules_of(&e),
            [(Some("age"), &Rule::DuplicateKey)],
            "{reply}"
        );
    }
}

#[test]
fn content_before_the_action_reads_through_a_deserializer_that_is_not_json() {
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, MapDeserializer};

    // An envelope from a deserializer other than serde_json's, content first.
    let content: Vec<(&str, Value)> = vec![
        ("name", json!("Ada")),
        ("age", json!(36)),
        ("ratio", json!(0.5)),
        ("agree", json!(true)),
        ("color", json!("red")),
        ("tags", json!(["green"])),
        ("list", json!([])),
    ];
    let content: serde_json::Map<String, Value> = content
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
    let envelope = vec![
        ("content", Value::Object(content)),
        ("action", json!("accept")),
    ];
    let deserializer: MapDeserializer<_, Error> = MapDeserializer::new(
        envelope
            .into_iter()
            .map(|(k, v)| (k.into_deserializer(), ValueDe(v))),
    );
    let read = ElicitResult::<Form>::deserialize(deserializer).unwrap();
    assert!(matches!(read, ElicitResult::Accept(Form { age: 36, .. })));
}

/// A `serde_json::Value` as a deserializer whose error is serde's own, as a format crate's
/// would be.
struct ValueDe(Value);

impl<'de> serde::de::IntoDeserializer<'de, serde::de::value::Error> for ValueDe {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> serde::Deserializer<'de> for ValueDe {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(
        self,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        use serde::de::Error;
        self.0
            .deserialize_any(visitor)
            .map_err(|e| serde::de::value::Error::custom(e.to_string()))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}
