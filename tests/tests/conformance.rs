//! The peer conformance corpus (`fixtures/peer_cases.jsonl`, see `fixtures/README.md`): 173
//! cases from other SDKs' test suites, each run through the runtime API.
//!
//! - schema and response: parse the schema, then the reply against it; the outcome must equal
//!   `expect`, and the content must equal `expect_content` where given.
//! - response `null`: parsing the schema must fail.
//! - schema `null`: the case is about the envelope or a type rule; it runs through its Rust
//!   equivalent below, or is listed as not applicable with a reason.

use elicit_core::{ElicitResult, ProtocolVersion, RequestedSchema, UrlElicitResult, UrlRequest};
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
        "go-u1" | "go-u2" | "py-19" => match UrlElicitResult::from_value(response.clone()) {
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
    if response.is_null() {
        return match parsed {
            Err(e) if expect == "error" && !e.to_string().is_empty() => Ok(()),
            Err(e) => Err(format!(
                "expected {expect}, but the schema was refused: {e}"
            )),
            Ok(_) => Err("the schema must be refused, but it parsed".into()),
        };
    }
    let schema = match parsed {
        Ok(schema) => schema,
        Err(e) if expect == "error" => {
            let _ = e;
            return Ok(());
        }
        Err(e) => {
            return Err(format!(
                "expected {expect}, but the schema was refused: {e}"
            ));
        }
    };
    let result = schema.parse_result(response);
    // The JSON-text entry point must agree with the value one.
    let from_text = schema.parse_result_json(&response.to_string());
    if result != from_text {
        return Err(format!(
            "value and text entry points disagree: {result:?} vs {from_text:?}"
        ));
    }
    match result {
        Err(e) if expect == "error" => {
            if e.violations().is_empty() {
                Err("an error with no violation".into())
            } else {
                Ok(())
            }
        }
        Err(e) => Err(format!("expected {expect}, got error:\n{e}")),
        Ok(r) if outcome(&r) != expect => Err(format!("expected {expect}, got {}", outcome(&r))),
        Ok(r) => match (case.get("expect_content"), r) {
            (Some(want), ElicitResult::Accept(content))
                if *want != Value::from(content.clone()) =>
            {
                Err(format!(
                    "content {} differs from expected {want}",
                    Value::from(content.clone())
                ))
            }
            _ => Ok(()),
        },
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
