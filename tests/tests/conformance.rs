//! The peer conformance corpus (`fixtures/peer_cases.jsonl`, see `fixtures/README.md`): 173
//! cases from other SDKs' test suites, each run through the runtime API.
//!
//! - schema and response: parse the schema, then the reply against it; the outcome must equal
//!   `expect`, and the content must equal `expect_content` where given.
//! - response `null`: parsing the schema must fail.
//! - schema `null`: the case is about the envelope or a type rule; it runs through its Rust
//!   equivalent below, or is listed as not applicable with a reason.

use elicit_core::schema::RequestedSchema;
use elicit_core::{ElicitResult, ProtocolVersion, UrlElicitResult, UrlRequest};
use serde_json::{Value, json};

/// Cases that do not apply to this crate, each with the reason. Kept short on purpose.
const NOT_APPLICABLE: &[(&str, &str)] = &[
    (
        "cs-01",
        "expects a date-time without its UTC offset to pass because C# validates no content; RFC 3339 \
         date-time requires the offset, and the TypeScript SDK (AJV) refuses it as this crate does",
    ),
    (
        "cs-03",
        "C# refuses nullable members; in Rust `Option<T>` is supported by design and becomes an \
         optional property (tests/schema.rs)",
    ),
    (
        "fm-07",
        "FastMCP's own check that a form of no fields gets no content; as JSON Schema and the \
         TypeScript SDK (run) do, this crate treats an unknown key in an empty form as in any other",
    ),
    (
        "mg-03",
        "mcp-go checks that a form request has a requestedSchema; FormRequest cannot be built \
         without one",
    ),
];

/// What each `error` case that carries a schema is refused for, as its note says: the schema
/// itself (naming the property, one of those listed where it has several faults, or the root
/// where none is listed), or the reply (a violation of that property and rule). An error for
/// another reason fails the case.
enum Refused {
    Schema(&'static [&'static str]),
    Reply(Option<&'static str>, &'static str),
}

const REFUSED: &[(&str, Refused)] = &[
    ("ts-05", Refused::Reply(Some("name"), "Required")),
    ("ts-06", Refused::Reply(Some("age"), "Type")),
    ("ts-07", Refused::Reply(Some("name"), "MinLength")),
    ("ts-08", Refused::Reply(Some("age"), "Maximum")),
    ("ts-09", Refused::Reply(Some("zipCode"), "Pattern")),
    ("ts-15b", Refused::Reply(Some("age"), "Required")),
    ("ts-16", Refused::Reply(Some("email"), "Format")),
    ("ts-22", Refused::Reply(Some("color"), "NotAChoice")),
    ("ts-23", Refused::Reply(Some("color"), "NotAChoice")),
    ("ts-24", Refused::Reply(Some("color"), "NotAChoice")),
    ("ts-25", Refused::Reply(Some("color"), "Type")),
    ("ts-26", Refused::Reply(Some("colors"), "NotAChoice")),
    ("ts-28", Refused::Reply(Some("name"), "MinLength")),
    ("ts-31", Refused::Reply(Some("name"), "Required")),
    ("ts-34", Refused::Reply(Some("roles"), "NotAChoice")),
    ("ts-e1", Refused::Reply(Some("username"), "Type")),
    ("ts-e2", Refused::Reply(Some("username"), "Required")),
    ("ts-e3", Refused::Schema(&["address"])),
    ("go-01", Refused::Reply(Some("test"), "NotAChoice")),
    ("go-v01", Refused::Schema(&[])),
    ("go-i01", Refused::Schema(&[])),
    ("go-i02", Refused::Schema(&["user"])),
    ("go-i03", Refused::Schema(&["config"])),
    ("go-i04", Refused::Schema(&["items"])),
    ("go-i05", Refused::Schema(&["items"])),
    ("go-i06", Refused::Schema(&["items"])),
    ("go-i07", Refused::Schema(&["phone"])),
    ("go-i08", Refused::Schema(&["data"])),
    ("go-i09", Refused::Schema(&["name"])),
    ("go-i10", Refused::Schema(&["name"])),
    ("go-i11", Refused::Schema(&["name"])),
    ("go-i12", Refused::Schema(&["score"])),
    ("go-i13", Refused::Schema(&["enabled"])),
    ("go-i14", Refused::Schema(&["enabled"])),
    ("go-i15", Refused::Schema(&["enabled"])),
    ("go-i16", Refused::Schema(&["priority"])),
    ("go-i17", Refused::Schema(&["status"])),
    ("go-i18", Refused::Schema(&["priority"])),
    ("go-i19", Refused::Schema(&["priority"])),
    ("go-i20", Refused::Schema(&["data"])),
    ("go-u3", Refused::Schema(&[])),
    ("py-05", Refused::Schema(&["numbers"])),
    ("py-06", Refused::Schema(&["nested"])),
    ("py-07", Refused::Schema(&["optional_list"])),
    ("py-08", Refused::Schema(&["tags"])),
    ("py-09", Refused::Schema(&["value"])),
    ("py-20", Refused::Reply(Some("answer"), "Required")),
    ("py-22", Refused::Reply(Some("age"), "Type")),
    ("py-24", Refused::Reply(Some("age"), "Type")),
    ("py-25", Refused::Reply(Some("ok"), "Type")),
    ("py-26", Refused::Schema(&["color"])),
    (
        "py-28",
        Refused::Reply(Some("favorite_color"), "NotAChoice"),
    ),
    ("fm-15", Refused::Schema(&["number", "constant"])),
    ("fm-16", Refused::Schema(&[])),
    ("fm-17", Refused::Schema(&["user"])),
    ("fm-18", Refused::Schema(&["users"])),
    ("fm-23", Refused::Schema(&["users"])),
    ("fm-25", Refused::Reply(Some("value"), "Type")),
    ("fm-26", Refused::Reply(Some("value"), "Type")),
    ("fm-27", Refused::Reply(Some("value"), "NotAChoice")),
    ("fm-28", Refused::Reply(Some("value"), "NotAChoice")),
    ("fm-29", Refused::Reply(Some("value"), "Required")),
    ("fm-30", Refused::Reply(Some("value"), "Required")),
    ("fm-31", Refused::Schema(&["nickname"])),
    ("fm-32", Refused::Schema(&["value"])),
    ("cs-15", Refused::Reply(None, "ActionMissing")),
    ("cs-16", Refused::Reply(None, "ActionInvalid")),
    ("mg-02", Refused::Schema(&[])),
    ("mg-04", Refused::Reply(Some("name"), "Type")),
    ("sep-04", Refused::Reply(Some("titledMulti"), "MinItems")),
    ("sep-05", Refused::Reply(Some("untitledMulti"), "MaxItems")),
    ("sep-06", Refused::Reply(Some("legacyEnum"), "NotAChoice")),
    ("spec-03", Refused::Reply(Some("age"), "Minimum")),
];

/// The name of a rule's kind: `Type`, `MinLength`, `Required`...
fn rule_kind(rule: &elicit_core::Rule) -> String {
    format!("{rule:?}")
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

fn cases() -> Vec<Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/peer_cases.jsonl");
    let text = std::fs::read_to_string(path).expect("corpus fixture is readable");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

fn outcome<T>(result: &ElicitResult<T>) -> &'static str {
    result.action().as_str()
}

/// The outcome of a case whose schema is `null`, through the Rust equivalent of what it tests.
fn envelope_case(id: &str, response: &Value) -> Option<String> {
    let outcome = match id {
        // URL-mode replies: accept carries no content.
        "go-u1" | "go-u2" | "py-19" => match UrlElicitResult::from_value(response) {
            Ok(r) => r.action().as_str().to_owned(),
            Err(_) => "error".into(),
        },
        // URL mode without a URL is refused before anything is sent.
        "go-u4" => match UrlRequest::new(ProtocolVersion::V2025_11_25, "Open the form", "", "id") {
            Ok(_) => "accept".into(),
            Err(_) => "error".into(),
        },
        // A nested object as a property: refused as a schema (and at compile time by the derive).
        "cs-04" => schema_outcome(json!({"type": "object", "properties": {
            "address": {"type": "object", "properties": {"street": {"type": "string"}}}
        }})),
        // A bare string as the form: refused as a schema.
        "cs-05" => schema_outcome(json!({"type": "string"})),
        _ => return None,
    };
    Some(outcome)
}

fn schema_outcome(schema: Value) -> String {
    match RequestedSchema::from_value(schema) {
        Ok(_) => "accept".into(),
        Err(_) => "error".into(),
    }
}

/// Runs one case; `Err` says why it failed.
fn run(case: &Value) -> Result<(), String> {
    let id = case["id"].as_str().unwrap_or("?");
    let expect = case["expect"].as_str().unwrap_or("?");
    let schema = &case["schema"];
    let response = &case["response"];
    if schema.is_null() {
        let got = envelope_case(id, response)
            .ok_or("no Rust equivalent and not listed as not applicable")?;
        return if got == expect {
            Ok(())
        } else {
            Err(format!("expected {expect}, got {got}"))
        };
    }
    let parsed = RequestedSchema::from_value(schema.clone());
    if expect == "error" {
        let (_, refused) = REFUSED
            .iter()
            .find(|(case, _)| *case == id)
            .ok_or("an error case without its expected refusal in REFUSED")?;
        return match (refused, parsed) {
            (Refused::Schema(properties), Err(e))
                if e.property_name()
                    .map_or(properties.is_empty(), |p| properties.contains(&p)) =>
            {
                Ok(())
            }
            (Refused::Schema(properties), Err(e)) => Err(format!(
                "the schema was refused for {:?}, not {properties:?}: {e}",
                e.property_name()
            )),
            (Refused::Schema(_), Ok(_)) => Err("the schema must be refused, but it parsed".into()),
            (Refused::Reply(..), Err(e)) => Err(format!(
                "the reply must be refused, but the schema was: {e}"
            )),
            (Refused::Reply(property, rule), Ok(schema)) => {
                let e = schema
                    .parse_reply_value(response)
                    .err()
                    .ok_or("the reply must be refused, but it was accepted")?;
                // Several violations come in form order, which a `Value`'s key order decides.
                if e.violations()
                    .iter()
                    .any(|v| v.property() == *property && rule_kind(v.rule()) == *rule)
                {
                    agree(&schema, response)
                } else {
                    Err(format!("refused without {property:?} {rule}:\n{e}"))
                }
            }
        };
    }
    if response.is_null() {
        return Err("a case without a reply must expect an error".into());
    }
    let schema =
        parsed.map_err(|e| format!("expected {expect}, but the schema was refused: {e}"))?;
    agree(&schema, response)?;
    match schema.parse_reply_value(response) {
        Err(e) => Err(format!("expected {expect}, got error:\n{e}")),
        Ok(r) if outcome(&r) != expect => Err(format!("expected {expect}, got {}", outcome(&r))),
        Ok(ElicitResult::Accept(content)) => {
            // The content as sent, with the schema's defaults for what was left out, unless
            // the case says otherwise.
            let want = match case.get("expect_content") {
                Some(want) => want.clone(),
                None => {
                    let mut sent = response["content"].as_object().cloned().unwrap_or_default();
                    schema.fill_defaults(&mut sent);
                    Value::Object(sent)
                }
            };
            let got = Value::from(content);
            if numbers_as_values(&got) == numbers_as_values(&want) {
                Ok(())
            } else {
                Err(format!("content {got} differs from expected {want}"))
            }
        }
        Ok(_) => Ok(()),
    }
}

/// A value with each integral float written as the integer it is: an integer property reads
/// `30.0` as 30, the same number.
fn numbers_as_values(value: &Value) -> Value {
    match value {
        Value::Number(n) => match n.as_f64() {
            Some(f) if !n.is_i64() && !n.is_u64() && f.fract() == 0.0 && f.abs() < 9e15 => {
                Value::from(f as i64)
            }
            _ => value.clone(),
        },
        Value::Array(items) => items.iter().map(numbers_as_values).collect(),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), numbers_as_values(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The JSON-text entry point reaches the verdict of the value one.
fn agree(schema: &RequestedSchema, response: &Value) -> Result<(), String> {
    let from_value = schema.parse_reply_value(response);
    let from_text = schema.parse_reply_json(&response.to_string());
    if from_value == from_text {
        Ok(())
    } else {
        Err(format!(
            "value and text entry points disagree: {from_value:?} vs {from_text:?}"
        ))
    }
}

#[test]
fn peer_conformance_corpus() {
    let cases = cases();
    assert_eq!(cases.len(), 173, "the corpus has 173 cases");
    assert!(NOT_APPLICABLE.len() <= 10);
    let (mut passed, mut failed, mut skipped) = (0, Vec::new(), 0);
    for case in &cases {
        let id = case["id"].as_str().unwrap_or("?");
        if let Some((_, reason)) = NOT_APPLICABLE.iter().find(|(na, _)| *na == id) {
            assert!(!reason.is_empty());
            skipped += 1;
            continue;
        }
        match run(case) {
            Ok(()) => passed += 1,
            Err(why) => failed.push(format!("{id}: {why}")),
        }
    }
    println!(
        "peer conformance corpus: {passed} passed, {} failed, {skipped} not applicable",
        failed.len()
    );
    println!("{} passed, {} failed", passed, failed.len());
    assert_eq!(
        skipped,
        NOT_APPLICABLE.len(),
        "every not-applicable id is in the corpus"
    );
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
