//! Values checked through the reader of a `serde_json::Value` and serde's `Deserialize`, beside
//! reply text: booleans where they belong and nowhere else, integral floats kept as floats in a
//! `number` property, and the pattern budget charged for an empty string.

use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Limits, Rule};
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
    let e = schema
        .clone()
        .with_limits(none)
        .parse_reply_json(&empty)
        .unwrap_err();
    assert_eq!(e.violations()[0].rule(), &Rule::PatternBudget);
}

/// A receipt, where every field but the amount may be left empty.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Receipt {
    #[schemars(range(min = 1))]
    amount: u32,
    #[schemars(url)]
    receipt_url: Option<String>,
    #[schemars(email)]
    email: Option<String>,
    #[schemars(length(min = 2))]
    note: Option<String>,
    category: Option<Category>,
    /// Anything: `""` is a value here.
    memo: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema, Elicit)]
enum Category {
    Travel,
    Meals,
}

/// An optional field answered `""`, as many form UIs send an untouched text box, reads as not
/// sent where `""` cannot meet its rules (a format, a least length, a choice), on every entry
/// point; where `""` meets them it stays a value, and a required field's `""` is refused.
#[test]
fn a_blank_optional_field_reads_as_absent_on_every_entry_point() {
    let blank = reply(json!({
        "amount": 12, "receipt_url": "", "email": "", "note": "", "category": "", "memo": ""
    }));
    let check = |receipt: Receipt, how: &str| {
        assert_eq!(receipt.amount, 12, "{how}");
        assert_eq!(receipt.receipt_url, None, "{how}");
        assert_eq!(receipt.email, None, "{how}");
        assert_eq!(receipt.note, None, "{how}");
        assert!(receipt.category.is_none(), "{how}");
        assert_eq!(receipt.memo.as_deref(), Some(""), "{how}");
    };
    let text = blank.to_string();
    let accepted = |r: ElicitResult<Receipt>| r.accepted().expect("accepted");
    check(
        accepted(ElicitResult::from_json(&text).unwrap()),
        "from_json",
    );
    check(
        accepted(ElicitResult::from_json(text.as_bytes()).unwrap()),
        "from_slice",
    );
    check(
        accepted(ElicitResult::from_value(&blank).unwrap()),
        "from_value",
    );
    check(
        accepted(serde_json::from_str(&text).unwrap()),
        "Deserialize from text",
    );
    check(
        accepted(serde_json::from_value(blank.clone()).unwrap()),
        "Deserialize from a value",
    );
    // Content before the action is held and read by the same reader.
    let early = r#"{"content":{"amount":12,"receipt_url":"","email":"","note":"","category":"","memo":""},"action":"accept"}"#;
    check(
        accepted(ElicitResult::from_json(early).unwrap()),
        "early content",
    );

    let schema = Receipt::requested_schema();
    let expected = json!({"amount": 12, "memo": ""});
    for (how, content) in [
        ("parse_reply_json", schema.parse_reply_json(&text).unwrap()),
        (
            "parse_reply_value",
            schema.parse_reply_value(&blank).unwrap(),
        ),
    ] {
        let content = content.accepted().expect("accepted");
        assert_eq!(serde_json::Value::Object(content), expected, "{how}");
    }
    assert!(
        schema
            .validate_content(blank["content"].as_object().unwrap())
            .is_ok()
    );

    // Another value is still held to the rules, and so is a required field's blank.
    let wrong = reply(json!({"amount": 12, "receipt_url": "not a url"}));
    let error = ElicitResult::<Receipt>::from_value(&wrong).unwrap_err();
    assert_eq!(error.violations()[0].property(), Some("receipt_url"));
    let required = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"email": {"type": "string", "format": "email"}},
        "required": ["email"]
    }))
    .unwrap();
    let error = required
        .parse_reply_value(&reply(json!({"email": ""})))
        .unwrap_err();
    assert!(
        matches!(error.violations()[0].rule(), Rule::Format(_)),
        "{error}"
    );
    // A blank given twice is still a key given twice.
    let twice = r#"{"action":"accept","content":{"amount":1,"email":"","email":""}}"#;
    let error = ElicitResult::<Receipt>::from_json(twice).unwrap_err();
    assert!(
        matches!(error.violations()[0].rule(), Rule::DuplicateKey),
        "{error}"
    );
}

/// Optional fields of every shape a blank reads as absent in: an `Option`, which reads it as
/// `None`, and fields with a default, which read it as their default.
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Profile {
    #[schemars(length(min = 2))]
    nickname: Option<String>,
    #[serde(default = "english")]
    #[schemars(length(min = 2))]
    locale: String,
    #[serde(default)]
    seating: Seating,
}

fn english() -> String {
    "en".into()
}

#[derive(Debug, Default, PartialEq, Deserialize, JsonSchema, Elicit)]
enum Seating {
    #[default]
    Indoor,
    Outdoor,
}

/// A blank for a field with a default gives the default, never `""`, and a blank for an
/// `Option` gives `None`; any other text of an `Option` is still held to its rules. On every
/// typed entry point, and on the runtime's map of the same schema.
#[test]
fn a_blank_reads_as_the_default_or_as_none_by_the_field() {
    let blank = reply(json!({"nickname": "", "locale": "", "seating": ""}));
    let text = blank.to_string();
    let reads: [(&str, Result<ElicitResult<Profile>, String>); 4] = [
        (
            "from_json",
            ElicitResult::from_json(&text).map_err(|e| e.to_string()),
        ),
        (
            "from_value",
            ElicitResult::from_value(&blank).map_err(|e| e.to_string()),
        ),
        (
            "Deserialize",
            serde_json::from_str(&text).map_err(|e| e.to_string()),
        ),
        (
            "Deserialize from a value",
            serde_json::from_value(blank.clone()).map_err(|e| e.to_string()),
        ),
    ];
    for (how, read) in reads {
        let profile = read
            .unwrap_or_else(|e| panic!("{how}: {e}"))
            .accepted()
            .expect("accepted");
        assert_eq!(profile.nickname, None, "{how}");
        assert_eq!(profile.locale, "en", "{how}");
        assert_eq!(profile.seating, Seating::Indoor, "{how}");
    }
    let content = Profile::requested_schema()
        .parse_reply_json(&text)
        .unwrap()
        .accepted()
        .expect("accepted");
    // The map leaves each blank out, then fills in the schema's defaults.
    assert_eq!(serde_json::Value::Object(content), json!({"locale": "en"}));

    let short = reply(json!({"nickname": "A"}));
    let error = ElicitResult::<Profile>::from_value(&short).unwrap_err();
    assert_eq!(error.violations()[0].property(), Some("nickname"));
    assert!(
        matches!(error.violations()[0].rule(), Rule::MinLength(2)),
        "{error}"
    );
    let error = serde_json::from_str::<ElicitResult<Profile>>(&short.to_string()).unwrap_err();
    assert!(error.to_string().contains("nickname"), "{error}");
    let named = reply(json!({"nickname": "Al", "seating": "Outdoor"}));
    let profile = ElicitResult::<Profile>::from_json(&named.to_string())
        .unwrap()
        .accepted()
        .expect("accepted");
    assert_eq!(profile.nickname.as_deref(), Some("Al"));
    assert_eq!(profile.seating, Seating::Outdoor);
}

/// A form whose `Deserialize` is written by hand, reading its `Option` field as text.
#[derive(Debug, JsonSchema, Elicit)]
struct Handmade {
    #[schemars(email)]
    email: Option<String>,
}

impl<'de> Deserialize<'de> for Handmade {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Text {
            #[serde(default)]
            email: String,
        }
        let text = Text::deserialize(d)?;
        let email = Some(text.email).filter(|e| !e.is_empty());
        Ok(Handmade { email })
    }
}

/// A target that reads an `Option` field as text gets its blank as it came, judged by no rule;
/// any other text is still held to them.
#[test]
fn a_blank_read_as_text_is_judged_by_no_rule() {
    let blank = reply(json!({"email": ""}));
    let read = ElicitResult::<Handmade>::from_value(&blank).unwrap();
    assert_eq!(read.accepted().expect("accepted").email, None);
    let read: ElicitResult<Handmade> = serde_json::from_str(&blank.to_string()).unwrap();
    assert_eq!(read.accepted().expect("accepted").email, None);
    let wrong = reply(json!({"email": "not an address"}));
    let error = ElicitResult::<Handmade>::from_value(&wrong).unwrap_err();
    assert!(
        matches!(error.violations()[0].rule(), Rule::Format(_)),
        "{error}"
    );
}

/// A form of more properties than one machine word has bits: a key given twice and a required
/// property not sent are found wherever they stand.
#[test]
fn keys_are_tracked_past_the_sixty_fourth_property() {
    let names: Vec<String> = (0..70).map(|i| format!("p{i}")).collect();
    let properties: serde_json::Map<String, serde_json::Value> = names
        .iter()
        .map(|n| (n.clone(), json!({"type": "integer"})))
        .collect();
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": properties,
        "required": names,
    }))
    .unwrap();
    let sent = |skip: &[usize], twice: &[usize]| {
        let mut keys: Vec<String> = (0..70)
            .filter(|i| !skip.contains(i))
            .map(|i| format!("\"p{i}\":{i}"))
            .collect();
        keys.extend(twice.iter().map(|i| format!("\"p{i}\":{i}")));
        format!(r#"{{"action":"accept","content":{{{}}}}}"#, keys.join(","))
    };
    assert!(schema.parse_reply_json(&sent(&[], &[])).is_ok());
    for (skip, twice) in [(63, 2), (64, 63), (69, 65), (2, 64)] {
        let error = schema
            .parse_reply_json(&sent(&[skip], &[twice]))
            .unwrap_err();
        let found: Vec<(Option<&str>, &Rule)> = error
            .violations()
            .iter()
            .map(|v| (v.property(), v.rule()))
            .collect();
        let (skipped, repeated) = (format!("p{skip}"), format!("p{twice}"));
        assert!(
            found.contains(&(Some(skipped.as_str()), &Rule::Required)),
            "{error}"
        );
        assert!(
            found.contains(&(Some(repeated.as_str()), &Rule::DuplicateKey)),
            "{error}"
        );
        assert_eq!(found.len(), 2, "{error}");
    }
}
