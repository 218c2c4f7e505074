//! The client side: requests, the completion notification, the -32042 error and the capability,
//! read from JSON on every version.

use elicit_core::client::{ClientCapabilities, ElicitationCapability, ReadError, Request};
use elicit_core::{
    Elicit, ElicitationComplete, FormRequest, ProtocolVersion, UrlElicitationRequired, UrlRequest,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

/// Book a table
#[derive(Deserialize, JsonSchema, Elicit)]
#[allow(dead_code)]
struct Booking {
    #[schemars(length(min = 1, max = 50))]
    name: String,
    seating: Seating,
}

#[derive(Deserialize, JsonSchema, Elicit)]
enum Seating {
    /// Inside
    Indoor,
    /// Outside
    Outdoor,
}

#[test]
fn what_a_server_writes_a_client_reads_back_on_every_version() {
    for version in ProtocolVersion::ALL {
        let sent = Booking::form_request_for(version).unwrap();
        let wire = sent.to_value();
        let Request::Form(read) = Request::from_params(&wire, version).unwrap() else {
            panic!("{version}: a form");
        };
        assert_eq!(read.to_value(), wire, "{version}");
        assert_eq!(read.message(), "Book a table");
        // The whole JSON-RPC request reads the same.
        let request = sent.to_jsonrpc(7).unwrap_or_else(
            |_| json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create", "params": wire}),
        );
        assert_eq!(
            Request::from_jsonrpc(&request, version).unwrap(),
            Request::Form(read)
        );
    }
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let sent = UrlRequest::new(version, "Sign in", "https://example.com/in", "in-1").unwrap();
        let read = Request::from_params(&sent.to_value(), version).unwrap();
        let Request::Url(url) = &read else {
            panic!("{version}: URL mode")
        };
        assert_eq!(url.url(), "https://example.com/in");
        assert_eq!(url.to_value(), sent.to_value(), "{version}");
        let declaring = |e| ClientCapabilities::default().with_elicitation(e);
        assert!(declaring(ElicitationCapability::ALL).allows(&read));
        assert!(!declaring(ElicitationCapability::FORM).allows(&read));
    }
}

#[test]
fn what_cannot_be_read_says_why() {
    let v25 = ProtocolVersion::V2025_11_25;
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let cases = [
        (json!([]), v25, "JSON object"),
        (json!({"requestedSchema": schema}), v25, "no `message`"),
        (
            json!({"message": 1, "requestedSchema": schema}),
            v25,
            "`message` must be a string",
        ),
        (json!({"message": "m"}), v25, "no `requestedSchema`"),
        (
            json!({"mode": "voice", "message": "m"}),
            v25,
            "unknown `mode`",
        ),
        (
            json!({"message": "m", "requestedSchema": {"type": "object", "properties": {"a": {"type": "object"}}}}),
            v25,
            "requestedSchema cannot be used",
        ),
        (
            json!({"mode": "url", "message": "m", "url": "https://x.example"}),
            v25,
            "no `elicitationId`",
        ),
        (
            json!({"mode": "url", "message": "m", "url": "https://x.example", "elicitationId": "i"}),
            ProtocolVersion::V2025_06_18,
            "URL-mode request cannot be used",
        ),
        (
            json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
                "m": {"type": "array", "items": {"type": "string", "enum": ["a"]}}}}}),
            ProtocolVersion::V2025_06_18,
            "multi-select",
        ),
    ];
    for (params, version, says) in cases {
        let e: ReadError = Request::from_params(&params, version).unwrap_err();
        assert!(e.to_string().contains(says), "{params}: {e}");
    }
    let wrong = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {}});
    assert!(Request::from_jsonrpc(&wrong, v25).is_err());
}

#[test]
fn a_form_without_mode_is_a_form_on_every_version() {
    let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {}}});
    for version in ProtocolVersion::ALL {
        assert!(matches!(
            Request::from_params(&params, version),
            Ok(Request::Form(_))
        ));
    }
    // A runtime form keeps what the parser only lints.
    let params = json!({"message": "m", "requestedSchema": {"type": "object", "properties": {
        "code": {"type": "string", "pattern": "^[A-Z]+$"}}}});
    let Ok(Request::Form(form)) = Request::from_params(&params, ProtocolVersion::V2025_11_25)
    else {
        panic!("a form")
    };
    assert_eq!(form.schema().lint().len(), 1);
    let _: &FormRequest = &form;
}

#[test]
fn the_completion_notification_and_the_32042_error() {
    let v25 = ProtocolVersion::V2025_11_25;
    let sent = ElicitationComplete::new(v25, "in-1").unwrap();
    assert_eq!(
        ElicitationComplete::from_params(&sent.params()).unwrap(),
        sent
    );
    assert!(ElicitationComplete::from_params(&json!({"elicitationId": ""})).is_err());
    assert!(ElicitationComplete::from_params(&json!({})).is_err());

    let page = UrlRequest::new(v25, "Sign in", "https://example.com/in", "in-1").unwrap();
    let error = UrlElicitationRequired::new(v25, "Sign in first", vec![page]).unwrap();
    // The code the 2025-11-25 schema fixes for this error (`"const": -32042`).
    assert_eq!(UrlElicitationRequired::CODE, -32042);
    assert_eq!(error.error_object()["code"], -32042);
    let read = UrlElicitationRequired::from_error(&error.error_object()).unwrap();
    assert_eq!(read, error);
    let mut other = error.error_object();
    other["code"] = json!(-32000);
    assert!(UrlElicitationRequired::from_error(&other).is_err());
    let empty = json!({"code": -32042, "message": "m", "data": {"elicitations": []}});
    assert!(UrlElicitationRequired::from_error(&empty).is_err());
    let form = json!({"code": -32042, "message": "m", "data": {"elicitations": [
        {"mode": "form", "message": "m", "requestedSchema": {"type": "object", "properties": {}}}
    ]}});
    assert!(
        UrlElicitationRequired::from_error(&form)
            .unwrap_err()
            .to_string()
            .contains("URL mode")
    );
}

#[test]
fn the_capability_per_version() {
    assert_eq!(
        ElicitationCapability::ALL.to_value(ProtocolVersion::V2025_06_18),
        json!({})
    );
    assert_eq!(
        ElicitationCapability::ALL.to_value(ProtocolVersion::V2025_11_25),
        json!({"form": {}, "url": {}})
    );
    assert_eq!(
        ElicitationCapability::FORM.to_value(ProtocolVersion::V2026_07_28),
        json!({"form": {}})
    );
    assert_eq!(
        ElicitationCapability::from_value(&json!({})).unwrap(),
        ElicitationCapability::FORM
    );
    assert_eq!(
        ElicitationCapability::from_value(&json!({"url": {}})).unwrap(),
        ElicitationCapability {
            form: false,
            url: true
        }
    );
    assert!(ElicitationCapability::from_value(&json!(true)).is_err());
}
