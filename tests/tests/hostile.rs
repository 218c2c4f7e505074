//! Hostile input: no panic, bounded work, and a clear error. Each case here is a row of the
//! README's "bad input → what you get" table.

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitError, ElicitResult, Limits, Rule};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Color {
    Red,
    Green,
}

/// Fill in Form.
#[derive(Debug, PartialEq, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Form {
    #[schemars(length(min = 1))]
    name: String,
    color: Option<Color>,
    note: Option<String>,
}

/// Fill in Strict.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Strict {
    name: String,
}

/// Fill in Widths.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Widths {
    a: Option<i8>,
    b: Option<i16>,
    c: Option<i32>,
    d: Option<i64>,
    e: Option<i128>,
    f: Option<isize>,
    g: Option<u8>,
    h: Option<u16>,
    i: Option<u32>,
    j: Option<u64>,
    k: Option<u128>,
    l: Option<usize>,
}

fn typed(reply: &str) -> ElicitError {
    ElicitResult::<Form>::from_json(reply).expect_err("refused")
}

fn runtime(reply: &str) -> ElicitError {
    Form::requested_schema()
        .parse_reply_json(reply)
        .expect_err("refused")
}

fn is_json_error(e: &ElicitError) -> bool {
    e.violations()
        .iter()
        .any(|v| matches!(v.rule(), Rule::Json(_)))
}

#[test]
fn deep_nesting_is_refused_not_recursed() {
    let depth = 100_000;
    let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let limits = Limits::UNLIMITED;
    // As the whole reply: refused at the first `[`, before any nesting is read.
    let e = elicit_core::Form::<Form>::new()
        .with_limits(limits)
        .parse_reply_json(&deep)
        .unwrap_err();
    assert!(e.to_string().contains("must be a JSON object"), "{e}");
    // An array is valid JSON: the error says the reply cannot be read, not that it is invalid.
    assert!(!e.to_string().contains("not valid JSON"), "{e}");
    // Where a value is read, serde_json stops at 128 levels, or the rules refuse it first.
    let accept = |content: &str| format!(r#"{{"action":"accept","content":{content}}}"#);
    for (reply, expected) in [
        (
            accept(&format!(r#"{{"name":{deep}}}"#)),
            "`name` must be of type string; received an array",
        ),
        (
            accept(&deep),
            "content must be a JSON object; received an array",
        ),
        // Content before the action is read as content after it is.
        (
            format!(r#"{{"content":{deep},"action":"accept"}}"#),
            "content must be a JSON object; received an array",
        ),
        (
            format!(r#"{{"content":{{"name":{deep}}},"action":"accept"}}"#),
            "`name` must be of type string; received an array",
        ),
    ] {
        for e in [
            elicit_core::Form::<Form>::new()
                .with_limits(limits)
                .parse_reply_json(&reply)
                .unwrap_err(),
            Form::requested_schema()
                .clone()
                .with_limits(limits)
                .parse_reply_json(&reply)
                .unwrap_err(),
        ] {
            assert_eq!(e.to_string(), expected);
        }
    }
    // Where a value is skipped (decline content, `_meta`), it is skipped without recursion.
    for reply in [
        format!(r#"{{"action":"decline","content":{deep}}}"#),
        format!(r#"{{"action":"decline","_meta":{deep}}}"#),
        format!(r#"{{"content":{deep},"action":"decline"}}"#),
    ] {
        assert_eq!(
            elicit_core::Form::<Form>::new()
                .with_limits(limits)
                .parse_reply_json(&reply)
                .unwrap(),
            ElicitResult::Decline
        );
    }
    // An unknown key is skipped by the typed path and kept by the runtime path, which stops at
    // 128 levels.
    let unknown = accept(&format!(r#"{{"name":"x","other":{deep}}}"#));
    assert!(
        elicit_core::Form::<Form>::new()
            .with_limits(limits)
            .parse_reply_json(&unknown)
            .is_ok()
    );
    let e = Form::requested_schema()
        .clone()
        .with_limits(limits)
        .parse_reply_json(&unknown)
        .unwrap_err();
    assert!(e.to_string().contains("recursion limit"), "{e}");
    assert!(RequestedSchema::from_json(&deep).is_err());
}

#[test]
fn huge_strings_are_capped() {
    let ten_mb = "x".repeat(10 << 20);
    let reply = format!(r#"{{"action":"accept","content":{{"name":"{ten_mb}"}}}}"#);
    // Over the default reply size: refused before parsing.
    for e in [typed(&reply), runtime(&reply)] {
        assert!(
            matches!(e.violations()[0].rule(), Rule::ReplyTooLarge(n) if *n == 1 << 20),
            "{e}"
        );
    }
    // With room for the reply, the string limit applies.
    let limits = Limits::default().with_max_reply_bytes(usize::MAX);
    let e = elicit_core::Form::<Form>::new()
        .with_limits(limits)
        .parse_reply_json(&reply)
        .unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::TooLong(64 << 10));
    assert!(
        e.to_string().len() < 300,
        "the error does not echo the string"
    );
    // Without limits the value is read and checked by the schema alone.
    assert!(
        elicit_core::Form::<Form>::new()
            .with_limits(Limits::UNLIMITED)
            .parse_reply_json(&reply)
            .is_ok()
    );
}

#[test]
fn many_unknown_keys() {
    let keys: Vec<String> = (0..100_000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let reply = format!(
        r#"{{"action":"accept","content":{{"name":"a",{}}}}}"#,
        keys.join(",")
    );
    assert!(matches!(
        typed(&reply).violations()[0].rule(),
        Rule::ReplyTooLarge(_)
    ));
    let limits = Limits::UNLIMITED;
    assert!(
        elicit_core::Form::<Form>::new()
            .with_limits(limits)
            .parse_reply_json(&reply)
            .is_ok(),
        "ignored"
    );
    let runtime = Form::requested_schema()
        .clone()
        .with_limits(limits)
        .parse_reply_json(&reply)
        .unwrap();
    assert_eq!(
        runtime.accepted().unwrap().len(),
        100_001,
        "kept, on the runtime path"
    );
    let e = elicit_core::Form::<Strict>::new()
        .with_limits(limits)
        .parse_reply_json(&reply)
        .unwrap_err();
    assert_eq!(e.violations().len(), 100_000);
    assert!(
        e.violations()
            .iter()
            .all(|v| v.rule() == &Rule::UnknownProperty)
    );
}

#[test]
fn extreme_numbers_for_every_integer_width() {
    for field in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"] {
        for (number, expected) in [
            ("18446744073709551616", "maximum"),
            ("-9223372036854775809", "minimum"),
            ("1e400", "json"),
            ("-1e400", "json"),
            ("-0", "ok"),
            ("0.5", "integer"),
        ] {
            let reply = format!(r#"{{"action":"accept","content":{{"{field}":{number}}}}}"#);
            let r = ElicitResult::<Widths>::from_json(&reply);
            let runtime = Widths::requested_schema().parse_reply_json(&reply);
            assert_eq!(r.is_ok(), runtime.is_ok(), "{field}={number}");
            match (expected, r) {
                ("ok", r) => assert!(r.is_ok(), "{field}={number}: {r:?}"),
                ("json", Err(e)) => assert!(e.to_string().contains("number out of range"), "{e}"),
                ("maximum", Err(e)) => assert!(
                    matches!(e.violations()[0].rule(), Rule::Maximum(_)),
                    "{field}: {e}"
                ),
                ("minimum", Err(e)) => {
                    let unsigned = "ghijkl".contains(field);
                    let ok = matches!(e.violations()[0].rule(), Rule::Minimum(_));
                    assert!(ok, "{field} (unsigned: {unsigned}): {e}");
                }
                ("integer", Err(e)) => assert_eq!(
                    e.violations()[0].rule(),
                    &Rule::Type {
                        expected: "integer"
                    }
                ),
                (_, r) => panic!("{field}={number}: {r:?}"),
            }
        }
    }
}

#[test]
fn broken_text_is_a_json_error() {
    for reply in [
        r#"{"action":"accept","content":{"name":"\ud800"}}"#,
        "{\"action\":\"accept\",\"content\":{\"name\":\"a\u{1}b\"}}",
        r#"{"action":"acc"#,
        "",
        "   ",
        "[]",
        r#""accept""#,
        "null",
        "42",
    ] {
        for e in [typed(reply), runtime(reply)] {
            assert!(is_json_error(&e), "{reply:?}: {e}");
        }
    }
    let e = ElicitResult::<Form>::from_json(
        b"{\"action\":\"accept\",\"content\":{\"name\":\"\xc3\x28\"}}",
    )
    .unwrap_err();
    assert!(e.to_string().contains("UTF-8"), "{e}");
    // An escaped control character is a valid string.
    assert!(
        ElicitResult::<Form>::from_json(r#"{"action":"accept","content":{"name":"a\u0001b"}}"#)
            .is_ok()
    );
}

#[test]
fn duplicates_case_and_empty_strings() {
    let dup = r#"{"action":"accept","content":{"name":"a","name":"b"}}"#;
    assert_eq!(typed(dup), runtime(dup));
    assert_eq!(typed(dup).violations()[0].rule(), &Rule::DuplicateKey);
    let case = r#"{"action":"accept","content":{"name":"a","color":"Red"}}"#;
    assert_eq!(typed(case).violations()[0].rule(), &Rule::NotAChoice);
    assert_eq!(typed(case), runtime(case));
    let empty = r#"{"action":"accept","content":{"name":""}}"#;
    assert_eq!(typed(empty).violations()[0].rule(), &Rule::MinLength(1));
    assert_eq!(typed(empty), runtime(empty));
}

#[test]
fn hostile_schemas_are_refused_cleanly() {
    for schema in [
        json!({"type": "object", "properties": {"a": {"type": "string", "pattern": "(".repeat(1000)}}}),
        json!({"type": "object", "properties": {"a": {"type": "string", "minLength": 1e300}}}),
        json!({"type": "object", "properties": {"a": {"type": "integer", "minimum": 1e308, "maximum": -1e308}}}),
    ] {
        assert!(RequestedSchema::from_value(schema).is_err());
    }
}

#[test]
fn a_schema_with_more_properties_than_the_index_holds_still_finds_them() {
    let mut properties = serde_json::Map::new();
    for i in 0..70_000 {
        properties.insert(format!("p{i}"), json!({"type": "integer"}));
    }
    let schema = RequestedSchema::from_value_with(
        json!({
            "type": "object",
            "properties": properties,
            "required": ["p69999", "p0"],
        }),
        &Limits::UNLIMITED,
    )
    .unwrap();
    let reply = json!({"action": "accept", "content": {"p0": 1, "p69999": 2}});
    let content = schema
        .parse_reply_value(&reply)
        .unwrap()
        .accepted()
        .unwrap();
    assert_eq!(content.len(), 2);
    let e = schema
        .parse_reply_value(&json!({"action": "accept", "content": {"p0": "x"}}))
        .unwrap_err();
    let rules: Vec<_> = e
        .violations()
        .iter()
        .map(|v| (v.property(), v.rule().clone()))
        .collect();
    assert_eq!(
        rules,
        [
            (
                Some("p0"),
                Rule::Type {
                    expected: "integer"
                }
            ),
            (Some("p69999"), Rule::Required)
        ]
    );
}

/// Schemas that arrive as JSON are held to limits of their own, far above any real form.
#[test]
fn schemas_are_held_to_their_limits() {
    let limits = Limits::default();
    let with_properties = |n: usize| {
        let properties: serde_json::Map<_, _> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "boolean"})))
            .collect();
        json!({"type": "object", "properties": properties})
    };
    assert!(RequestedSchema::from_value(with_properties(limits.max_properties())).is_ok());
    let e = RequestedSchema::from_value(with_properties(limits.max_properties() + 1)).unwrap_err();
    assert!(e.to_string().contains("over the limit of 1000"), "{e}");

    let with_choices = |n: usize| {
        let choices: Vec<String> = (0..n).map(|i| format!("c{i}")).collect();
        json!({"type": "object", "properties": {"pick": {"type": "string", "enum": choices}}})
    };
    assert!(RequestedSchema::from_value(with_choices(limits.max_choices())).is_ok());
    let e = RequestedSchema::from_value(with_choices(limits.max_choices() + 1)).unwrap_err();
    assert_eq!(e.property_name(), Some("pick"));

    let with_pattern = |n: usize| json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "a".repeat(n)}}});
    assert!(RequestedSchema::from_value(with_pattern(limits.max_pattern_bytes())).is_ok());
    assert!(RequestedSchema::from_value(with_pattern(limits.max_pattern_bytes() + 1)).is_err());
    // A short pattern that compiles large (counted repetition) is refused too.
    let blowup = json!({"type": "object", "properties": {"code": {"type": "string", "pattern": "a{1000}{1000}"}}});
    assert!(RequestedSchema::from_value(blowup).is_err());

    let text = with_properties(10).to_string();
    let tight = Limits::default().with_max_schema_bytes(text.len() - 1);
    assert!(RequestedSchema::from_json_with(&text, &tight).is_err());
    let exact = Limits::default().with_max_schema_bytes(text.len());
    assert!(RequestedSchema::from_json_with(&text, &exact).is_ok());
    assert!(RequestedSchema::from_json(&text).is_ok());
    // Each limit can be lifted.
    let lifted = Limits::default().with_max_properties(2000);
    assert!(RequestedSchema::from_value_with(with_properties(1500), &lifted).is_ok());
}

/// An error keeps the first 100 violations and counts the rest.
#[test]
fn errors_are_capped() {
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}
    }))
    .unwrap();
    let items: Vec<&str> = vec!["zz"; 5000];
    let reply = json!({"action": "accept", "content": {"tags": items}});
    let e = schema.parse_reply_value(&reply).unwrap_err();
    assert_eq!(e.violations().len(), 101);
    assert_eq!(e.violations()[100].rule(), &Rule::More(4900));
    assert!(e.to_string().ends_with("and 4900 more violations"), "{}", e);
    let e = schema.parse_reply_json(&reply.to_string()).unwrap_err();
    assert_eq!(e.violations().len(), 101);
    let all = schema
        .clone()
        .with_limits(Limits::UNLIMITED)
        .parse_reply_json(&reply.to_string())
        .unwrap_err();
    assert_eq!(all.violations().len(), 5000);
}

/// Checking strings against a pattern costs the length of each string times the size of the
/// compiled pattern; a reply gets a budget of that work, and a string past it is refused
/// unchecked, never accepted unchecked.
#[test]
fn pattern_work_per_reply_is_bounded() {
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "^[a-z]{1,900}$"},
            "b": {"type": "string", "pattern": "^[a-z]{1,900}$"},
        }
    }))
    .unwrap();
    let long = "x".repeat(60_000);
    let reply = json!({"action": "accept", "content": {"a": long, "b": long}});
    let tight = Limits::default().with_max_pattern_work(1 << 24);
    let e = schema
        .clone()
        .with_limits(tight)
        .parse_reply_json(&reply.to_string())
        .unwrap_err();
    assert!(
        e.violations()
            .iter()
            .any(|v| v.rule() == &Rule::PatternBudget),
        "{e}"
    );
    // Within the budget, the pattern decides.
    let short = json!({"action": "accept", "content": {"a": "abc", "b": "ABC"}});
    let e = schema.parse_reply_value(&short).unwrap_err();
    assert_eq!(e.violations().len(), 1);
    assert!(matches!(e.violations()[0].rule(), Rule::Pattern(_)));
}

/// A reply of exactly the size limit is read; one byte more is refused before parsing.
#[test]
fn the_reply_size_limit_is_inclusive() {
    let reply = r#"{"action":"accept","content":{"name":"Ada"}}"#;
    let at = Limits::default().with_max_reply_bytes(reply.len());
    let under = Limits::default().with_max_reply_bytes(reply.len() - 1);
    assert!(
        elicit_core::Form::<Form>::new()
            .with_limits(at)
            .parse_reply_json(reply)
            .is_ok()
    );
    assert!(
        Form::requested_schema()
            .clone()
            .with_limits(at)
            .parse_reply_json(reply)
            .is_ok()
    );
    let refused = [
        elicit_core::Form::<Form>::new()
            .with_limits(under)
            .parse_reply_json(reply)
            .unwrap_err(),
        Form::requested_schema()
            .clone()
            .with_limits(under)
            .parse_reply_json(reply)
            .unwrap_err(),
    ];
    for e in refused {
        assert_eq!(
            e.violations()[0].rule(),
            &Rule::ReplyTooLarge(reply.len() - 1),
            "{e}"
        );
    }
}

/// A schema's defaults are checked against their own pattern within the same budget of work: a
/// default that fits is filled in, and one too long to check is never filled in, and linted.
#[test]
fn defaults_are_checked_within_the_pattern_budget() {
    // A default the pattern matches, under the string limit, whose search costs more work than
    // a reply may spend.
    let pattern = "^(?:[a-z]{1,100})+$";
    let huge = "a".repeat(60_000);
    let work =
        (huge.len() as u64 + 1) * elicit_core::schema::Pattern::new(pattern).unwrap().size() as u64;
    assert!(work > Limits::DEFAULT.max_pattern_work(), "{work}");
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {
            "short": {"type": "string", "pattern": pattern, "default": "aaa"},
            "huge": {"type": "string", "pattern": pattern, "default": huge},
        }
    }))
    .unwrap();
    let content = schema
        .parse_reply_value(&json!({"action": "accept", "content": {}}))
        .unwrap()
        .accepted()
        .unwrap();
    assert_eq!(content.get("short"), Some(&json!("aaa")));
    assert_eq!(content.get("huge"), None);
    let lints: Vec<_> = schema
        .lint()
        .iter()
        .filter(|l| l.message.contains("`default`"))
        .collect();
    assert_eq!(lints.len(), 1, "{:?}", schema.lint());
    assert_eq!(lints[0].property.as_deref(), Some("huge"));
}

/// A schema read or built under limits reads its replies under them too, on text and values.
#[test]
fn a_schema_reads_its_replies_under_its_own_limits() {
    use elicit_core::schema::Field;
    let tight = Limits::DEFAULT.with_max_string_bytes(4);
    let text = r#"{"type":"object","properties":{"note":{"type":"string"}}}"#;
    let read = RequestedSchema::from_json_with(text, &tight).unwrap();
    let built = RequestedSchema::builder()
        .field(Field::string("note"))
        .build_with(&tight)
        .unwrap();
    let reply = json!({"action": "accept", "content": {"note": "longer"}});
    for schema in [&read, &built] {
        assert_eq!(schema.limits(), &tight);
        for e in [
            schema.parse_reply_json(&reply.to_string()).unwrap_err(),
            schema.parse_reply_value(&reply).unwrap_err(),
        ] {
            assert!(matches!(e.violations()[0].rule(), Rule::TooLong(4)), "{e}");
        }
    }
    assert!(
        RequestedSchema::from_json(text)
            .unwrap()
            .parse_reply_value(&reply)
            .is_ok()
    );
}
