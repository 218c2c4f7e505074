//! What a person reads: violations in their words (`ElicitError::user_text`), with the labels
//! the form showed, on one line.

use elicit_core::schema::Field;
use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Invalid};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, JsonSchema, Elicit)]
enum Seating {
    /// Inside, by the window
    Indoor,
    /// On the terrace
    Outdoor,
}

fn small_party(b: &Booking) -> Result<(), Invalid> {
    if b.party_size > 8 && b.seating == Seating::Outdoor {
        let mut invalid = Invalid::new();
        invalid.push_form("the terrace seats at most 8");
        return Err(invalid);
    }
    Ok(())
}

/// Book a table
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
#[elicit(validate = small_party)]
#[allow(dead_code)] // Read only through the schema.
struct Booking {
    #[schemars(title = "Your name", length(min = 1, max = 20))]
    name: String,
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    seating: Seating,
    #[schemars(email)]
    contact: Option<String>,
}

fn reply(content: serde_json::Value) -> String {
    json!({"action": "accept", "content": content}).to_string()
}

#[test]
fn violations_use_the_labels_the_form_showed_on_one_line() {
    let schema = Booking::requested_schema();
    let e = ElicitResult::<Booking>::from_json(&reply(json!({
        "name": "", "party_size": 40, "seating": "Roof", "contact": "nope"
    })))
    .unwrap_err();
    let text = e.user_text(schema);
    assert_eq!(
        text,
        "Your name must be at least 1 character (you entered \"\"); \
         Party size must be at most 12 (you entered 40); \
         Seating must be one of: Inside, by the window, On the terrace (you entered \"Roof\"); \
         Contact must be a valid email address (you entered \"nope\")"
    );
    assert!(!text.contains('`') && !text.contains('\n'), "{text}");
    // The form for code and models is unchanged: wire names and keywords.
    assert!(
        e.to_string()
            .contains("`party_size` must be at most 12 (maximum)"),
        "{e}"
    );
}

#[test]
fn missing_wrong_types_and_server_rules_in_words() {
    let schema = Booking::requested_schema();
    let e = ElicitResult::<Booking>::from_json(&reply(json!({"party_size": "four"}))).unwrap_err();
    assert_eq!(
        e.user_text(schema),
        "Your name is required; Party size must be a whole number (you entered \"four\"); \
         Seating is required"
    );
    let e = ElicitResult::<Booking>::from_json(&reply(json!({
        "name": "Ada", "party_size": 10, "seating": "Outdoor"
    })))
    .unwrap_err();
    assert_eq!(e.user_text(schema), "the terrace seats at most 8");
}

#[test]
fn items_of_a_multi_select_and_runtime_labels() {
    let schema = RequestedSchema::builder()
        .field(
            Field::multi_select("extras", [("cake", "Cake"), ("candles", "Candles")])
                .title("Extras")
                .max_items(1),
        )
        .field(Field::integer("count").range(1, 3))
        .build()
        .unwrap();
    let e = schema
        .parse_reply_json(&reply(json!({"extras": ["cake", "balloons"], "count": 0})))
        .unwrap_err();
    // A runtime field without a title is shown by its name, as the client showed it.
    assert_eq!(
        e.user_text(&schema),
        "Extras, choice 2 must be one of: Cake, Candles (you entered \"balloons\"); \
         Extras allows at most 1 choice; count must be at least 1 (you entered 0)"
    );
    let e = schema
        .parse_reply_json(r#"{"action":"maybe"}"#)
        .unwrap_err();
    assert_eq!(e.user_text(&schema), "The answer could not be read");
}

/// `schema` asked again after the reply `content`, which it refuses, and the defaults that
/// form holds.
fn asked_again(
    schema: &RequestedSchema,
    content: &serde_json::Value,
) -> (RequestedSchema, Vec<Option<serde_json::Value>>) {
    let error = schema
        .parse_reply_value(&json!({"action": "accept", "content": content}))
        .unwrap_err();
    let again = schema.prefilled(content.as_object().unwrap(), &error);
    let defaults = again
        .properties()
        .iter()
        .map(|p| p.kind.default_value())
        .collect();
    (again, defaults)
}

#[test]
fn asking_again_keeps_only_what_was_right() {
    let schema = RequestedSchema::builder()
        .field(Field::string("name").min_length(1))
        .field(Field::integer("party_size").range(1, 12))
        .field(Field::multi_select("extras", ["cake", "candles"]))
        .field(Field::boolean("newsletter"))
        .field(Field::select("seat", ["in", "out"]).default("in"))
        .build()
        .unwrap();
    let content = json!({
        "name": "Ada", "party_size": 40, "extras": ["cake"], "newsletter": true, "seat": "roof"
    });
    let (_, defaults) = asked_again(&schema, &content);
    assert_eq!(
        defaults,
        [
            Some(json!("Ada")),
            None,
            Some(json!(["cake"])),
            Some(json!(true)),
            // Refused: the form's own default stays.
            Some(json!("in")),
        ]
    );
    // A server rule that names a field leaves that field out too.
    let named = elicit_core::ElicitError::new(vec![elicit_core::Violation::new(
        elicit_core::Location::Property("name".into()),
        elicit_core::Rule::Custom("is taken".into()),
        None,
    )]);
    let again = schema.prefilled(content.as_object().unwrap(), &named);
    assert_eq!(again.properties()[0].kind.default_value(), None);
    assert_eq!(
        again.properties()[1].kind.default_value(),
        None,
        "40 breaks its own rules"
    );
}

#[test]
fn numbers_kept_for_asking_again_are_written_as_their_kind_writes_them() {
    let schema = RequestedSchema::builder()
        .field(Field::integer("size").range(1, 12))
        .field(Field::number("ratio"))
        .field(Field::string("name").min_length(1).required())
        .build()
        .unwrap();
    let (again, defaults) = asked_again(&schema, &json!({"size": 3.0, "ratio": 2, "name": ""}));
    assert_eq!(defaults[..2], [Some(json!(3)), Some(json!(2.0))]);
    let sent = serde_json::to_string(&again).unwrap();
    assert!(sent.contains(r#""default":3}"#), "{sent}");
    assert!(sent.contains(r#""default":2.0}"#), "{sent}");
    // As a schema read from text writes them.
    assert_eq!(RequestedSchema::from_json(&sent).unwrap(), again);
}

#[test]
fn violations_past_the_cap_are_counted_in_words() {
    let schema = RequestedSchema::builder()
        .field(Field::string("a").title("A").required())
        .field(Field::string("b").required())
        .field(Field::string("c").required())
        .build()
        .unwrap();
    let capped = elicit_core::Limits::DEFAULT.with_max_violations(1);
    let e = schema
        .clone()
        .with_limits(capped)
        .parse_reply_json(&reply(json!({})))
        .unwrap_err();
    assert_eq!(e.user_text(&schema), "A is required; and 2 more problems");
}

/// Hints
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)] // Read only through its schema.
struct Hints {
    /// Code
    #[schemars(length(min = 4, max = 4))]
    code: String,
    /// Initial
    #[schemars(length(min = 0, max = 1))]
    initial: String,
    /// Two
    #[schemars(length(min = 2, max = 2))]
    two: Vec<Seating>,
    /// Some
    #[schemars(length(min = 0, max = 2))]
    some: Vec<Seating>,
    /// Many
    #[schemars(length(min = 1, max = 2))]
    many: Vec<Seating>,
    // No description: the hint stands alone.
    #[schemars(length(max = 3))]
    bare: String,
    /// Repo, among those found at run time
    #[schemars(length(max = 20))]
    repo: String,
}

/// Bounds in words, at each boundary: equal ends, a zero lower end (no bound at all), one.
#[test]
fn bounds_read_as_words() {
    let schema = Hints::requested_schema();
    // The hints are joined on the wire.
    let sent = serde_json::to_value(schema).unwrap();
    let descriptions: Vec<Option<&str>> = schema
        .properties()
        .iter()
        .map(|p| sent["properties"][&p.name]["description"].as_str())
        .collect();
    assert_eq!(
        descriptions,
        [
            Some("Code (exactly 4 characters)"),
            Some("Initial (at most 1 character)"),
            Some("Two (choose 2)"),
            Some("Some (choose at most 2)"),
            Some("Many (choose 1–2)"),
            Some("At most 3 characters"),
            Some("Repo, among those found at run time (at most 20 characters)"),
        ]
    );
    // A string that becomes a select of run-time choices loses its length hint, and a hint
    // that stood alone goes with it.
    let form = elicit_core::Form::<Hints>::new()
        .choices("repo", ["api", "docs"])
        .unwrap()
        .choices("bare", ["a", "b"])
        .unwrap();
    let by_name = |name: &str| {
        form.schema()
            .properties()
            .iter()
            .find(|p| p.name == name)
            .unwrap()
            .description
            .clone()
    };
    assert_eq!(
        by_name("repo").as_deref(),
        Some("Repo, among those found at run time")
    );
    assert_eq!(by_name("bare"), None);

    // An empty description counts as none: the hint stands alone, not after " (".
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"code": {"type": "string", "description": "", "maxLength": 3}}
    }))
    .unwrap()
    .with_bound_hints();
    assert_eq!(
        serde_json::to_value(&schema).unwrap()["properties"]["code"]["description"],
        "At most 3 characters"
    );
}

/// Asking again keeps right numbers and choices, and a kept value replaces a default that
/// broke its own rules, so it is filled in when the next reply leaves the field out.
#[test]
fn asking_again_keeps_numbers_choices_and_replaces_broken_defaults() {
    let schema = RequestedSchema::builder()
        .field(Field::string("name").min_length(2))
        .field(Field::integer("party_size").range(1, 12))
        .field(Field::select("seat", ["in", "out"]))
        .field(Field::string("code").min_length(3).default("x"))
        .build()
        .unwrap();
    // (An optional name left `""` would read as not given: "A" is refused.)
    let content = json!({"name": "A", "party_size": 4, "seat": "out", "code": "abc"});
    let (again, defaults) = asked_again(&schema, &content);
    assert_eq!(
        defaults,
        [None, Some(json!(4)), Some(json!("out")), Some(json!("abc"))]
    );
    let reply =
        json!({"action": "accept", "content": {"name": "Ada", "party_size": 4, "seat": "in"}});
    let ElicitResult::Accept(content) = again.parse_reply_value(&reply).unwrap() else {
        panic!("accepted");
    };
    assert_eq!(content.get("code").cloned(), Some(json!("abc")));
    // The original form never fills in its broken default.
    let ElicitResult::Accept(content) = schema.parse_reply_value(&reply).unwrap() else {
        panic!("accepted");
    };
    assert_eq!(content.get("code"), None);
}

#[test]
fn bounds_in_words() {
    let schema = RequestedSchema::from_value(json!({"type": "object", "properties": {
        "size": {"type": "integer", "minimum": 1, "maximum": 12},
        "age": {"type": "integer", "minimum": 18},
        "small": {"type": "integer", "minimum": 0, "maximum": 255},
        "port": {"type": "integer", "minimum": 1, "maximum": 65535},
        "count": {"type": "integer", "minimum": 0, "maximum": 10},
        "whole": {"type": "integer", "minimum": 0, "maximum": 4_294_967_295u64},
        "wide": {"type": "integer", "minimum": -9_007_199_254_740_991i64, "maximum": 9_007_199_254_740_991u64},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1.5},
        "over": {"type": "number", "exclusiveMinimum": 0},
        "name": {"type": "string", "minLength": 1, "maxLength": 50},
        "code": {"type": "string", "minLength": 4, "maxLength": 4},
        "note": {"type": "string", "maxLength": 1},
        "any": {"type": "string", "minLength": 0},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}, "minItems": 1, "maxItems": 2},
        "flag": {"type": "boolean"}
    }}))
    .unwrap();
    let schema = schema.with_bound_hints();
    // Standing alone, each hint is the description, capitalized.
    let sent = serde_json::to_value(&schema).unwrap();
    let hint = |name: &str| sent["properties"][name]["description"].as_str();
    assert_eq!(hint("size"), Some("1–12, a whole number"));
    assert_eq!(hint("age"), Some("At least 18, a whole number"));
    // A u8's own range is the type's limit, not a rule: no hint.
    assert_eq!(hint("small"), None);
    assert_eq!(hint("port"), Some("At least 1, a whole number"));
    assert_eq!(hint("count"), Some("0–10, a whole number"));
    assert_eq!(hint("whole"), None);
    // The ±(2^53 − 1) cap on 64-bit fields, at both ends.
    assert_eq!(hint("wide"), None);
    assert_eq!(hint("ratio"), Some("0–1.5"));
    assert_eq!(hint("over"), Some("More than 0"));
    assert_eq!(hint("name"), Some("1–50 characters"));
    assert_eq!(hint("code"), Some("Exactly 4 characters"));
    assert_eq!(hint("note"), Some("At most 1 character"));
    assert_eq!(hint("any"), None);
    assert_eq!(hint("tags"), Some("Choose 1–2"));
    assert_eq!(hint("flag"), None);
}

/// The person filling in the form reads an example of what is wanted, not the name of an RFC.
#[test]
fn a_bad_date_or_date_time_is_explained_by_example() {
    let schema = RequestedSchema::builder()
        .field(
            Field::string("day")
                .title("Day")
                .format(elicit_core::schema::Format::Date),
        )
        .field(
            Field::string("at")
                .title("Time")
                .format(elicit_core::schema::Format::DateTime),
        )
        .build()
        .unwrap();
    let reply = json!({"action": "accept", "content": {"day": "24/12", "at": "7pm"}});
    let e = schema.parse_reply_value(&reply).unwrap_err();
    let text = e.user_text(&schema);
    assert!(!text.contains("RFC"), "{text}");
    assert!(
        text.contains("Day must be a valid date, such as 2026-12-24"),
        "{text}"
    );
    assert!(
        text.contains(
            "Time must be a valid date and time with its time zone, such as 2026-12-24T19:30:00Z"
        ),
        "{text}"
    );
}
