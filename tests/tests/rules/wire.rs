//! Wire rules of the specification that requests and results are held to.

use elicit_core::schema::RequestedSchema;
use elicit_core::{
    Elicit, FormRequest, InputRequests, InputRequired, ProtocolVersion, UrlElicitationRequired,
    UrlRequest,
};
use serde_json::json;

const V0618: ProtocolVersion = ProtocolVersion::V2025_06_18;
const V1125: ProtocolVersion = ProtocolVersion::V2025_11_25;
const V0728: ProtocolVersion = ProtocolVersion::V2026_07_28;

fn runtime(properties: serde_json::Value) -> RequestedSchema {
    RequestedSchema::from_value(json!({"type": "object", "properties": properties})).unwrap()
}

#[test]
fn a_runtime_schema_is_written_down_for_older_versions() {
    let titled = runtime(json!({
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}], "default": "s"},
        "n": {"type": "integer", "default": 3},
        "ok": {"type": "boolean", "default": true},
    }));
    let request = FormRequest::new("Pick", &titled)
        .with_version(V0618)
        .unwrap();
    let wire = request.to_value();
    assert!(wire.get("mode").is_none());
    let size = &wire["requestedSchema"]["properties"]["size"];
    assert_eq!(size["enum"], json!(["s", "l"]));
    assert_eq!(size["enumNames"], json!(["Small", "Large"]));
    assert!(size.get("oneOf").is_none() && size.get("default").is_none());
    assert!(
        wire["requestedSchema"]["properties"]["n"]
            .get("default")
            .is_none()
    );
    assert_eq!(wire["requestedSchema"]["properties"]["ok"]["default"], true);
    // The same, as a public step on the schema.
    assert_eq!(
        serde_json::to_value(titled.for_version(V0618).unwrap()).unwrap(),
        wire["requestedSchema"]
    );
    // 2025-06-18 has no array property: a multi-select is written as one box per choice.
    let multi =
        runtime(json!({"tags": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}));
    let old = FormRequest::new("Tags", &multi)
        .with_version(V0618)
        .unwrap();
    assert_eq!(
        old.to_value()["requestedSchema"]["properties"],
        json!({"tags__a": {"type": "boolean", "title": "tags: a"}})
    );
    assert_eq!(
        serde_json::to_value(multi.for_version(V0618).unwrap()).unwrap(),
        old.to_value()["requestedSchema"]
    );
    let newer = FormRequest::new("Tags", &multi)
        .with_version(V1125)
        .unwrap();
    assert_eq!(
        newer.to_value()["requestedSchema"]["properties"]["tags"]["type"],
        "array"
    );
}

/// Pick one
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Pick {
    #[allow(dead_code)] // only its schema is used
    ok: bool,
}

#[test]
fn there_is_no_elicitation_create_request_on_2026_07_28() {
    assert!(
        Pick::form_request_for(V0728)
            .unwrap()
            .to_jsonrpc(1)
            .is_err()
    );
    assert!(
        Pick::form_request().to_jsonrpc(1).is_err(),
        "the newest is 2026-07-28"
    );
    let framed = Pick::form_request_for(V1125)
        .unwrap()
        .to_jsonrpc(1)
        .unwrap();
    assert_eq!(framed["method"], "elicitation/create");
    let url = UrlRequest::new(V0728, "Pay", "https://example.com/pay", "").unwrap();
    assert!(url.to_jsonrpc(1).is_err());
    let url = UrlRequest::new(V1125, "Pay", "https://example.com/pay", "p").unwrap();
    assert_eq!(url.to_jsonrpc(1).unwrap()["method"], "elicitation/create");
}

#[test]
fn an_input_required_result_asks_or_carries_state() {
    let empty = InputRequired::new(InputRequests::new());
    assert!(empty.to_value().is_err());
    assert!(serde_json::to_string(&empty).is_err());
    assert!(rmcp::model::InputRequiredResult::try_from(&empty).is_err());
    // Either one is enough.
    let state_only = InputRequired::new(InputRequests::new()).with_request_state("s");
    assert_eq!(state_only.to_value().unwrap()["requestState"], "s");
    let mut requests = InputRequests::new();
    requests.elicit::<Pick>("pick");
    assert!(InputRequired::new(requests).to_value().is_ok());
}

#[test]
fn a_url_elicitation_required_error_lists_at_least_one() {
    assert!(UrlElicitationRequired::new(V1125, "Sign in first", Vec::new()).is_err());
    let url = UrlRequest::new(V1125, "Sign in", "https://example.com/in", "in-1").unwrap();
    assert!(UrlElicitationRequired::new(V1125, "Sign in first", vec![url]).is_ok());
}

#[test]
fn url_mode_urls_are_http_with_a_host() {
    for bad in [
        "javascript:alert(1)",
        "data:text/html,hi",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "mailto:a@example.com",
        "http://",
        "https:///path",
        "https://user@/x",
        "http:example.com",
        "https://:443/x",
        "https://user@:443/x",
        "https://user@",
    ] {
        for version in [V1125, V0728] {
            assert!(UrlRequest::new(version, "Go", bad, "id").is_err(), "{bad}");
        }
    }
    for good in [
        "https://[::1]:8443/x",
        "https://[v1.x]/",
        "https://u:p@h:1/?q#f",
        "https://h",
        "https://h?q",
    ] {
        for version in [V1125, V0728] {
            assert!(UrlRequest::new(version, "Go", good, "id").is_ok(), "{good}");
        }
    }
    let https = UrlRequest::new(V1125, "Go", "https://example.com/x", "id").unwrap();
    assert!(https.lint().is_empty());
    let http = UrlRequest::new(V1125, "Go", "HTTP://example.com:8080/x", "id").unwrap();
    assert!(
        http.lint().iter().any(|l| l.message.contains("https")),
        "{:?}",
        http.lint()
    );
}

#[test]
fn names_that_ask_for_secrets_are_linted_at_run_time() {
    let schema = runtime(json!({
        "password": {"type": "string"},
        "user_pin": {"type": "string"},
        "pinCode": {"type": "string"},
        "otp": {"type": "string"},
        "iban": {"type": "string"},
        "ssn": {"type": "string"},
        "routing_number": {"type": "string"},
        "credentials": {"type": "string"},
        "card-cvc": {"type": "string"},
        "spinner": {"type": "string"},
        "shipping": {"type": "string"},
        "classname": {"type": "string"},
    }));
    let flagged: Vec<&str> = schema
        .lint()
        .iter()
        .filter(|l| l.message.contains("secret"))
        .filter_map(|l| l.property.as_deref())
        .collect();
    let mut flagged = flagged;
    flagged.sort_unstable();
    assert_eq!(
        flagged,
        [
            "card-cvc",
            "credentials",
            "iban",
            "otp",
            "password",
            "pinCode",
            "routing_number",
            "ssn",
            "user_pin"
        ]
    );
}

/// The derive refuses a field whose name asks for a secret and the runtime lints such a
/// property, from one list: the file is the same in both crates.
#[test]
fn the_derive_and_the_runtime_share_one_list_of_secret_names() {
    let derive = include_str!("../../../elicit-derive/src/sensitive.rs");
    let runtime = include_str!("../../../elicit-core/src/schema/sensitive.rs");
    assert_eq!(
        derive, runtime,
        "copy elicit-derive/src/sensitive.rs to elicit-core"
    );
}
