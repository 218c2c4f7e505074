//! The conversions between this crate's types and rmcp's model types, both ways, and the
//! strict reading of rmcp's protocol versions.

use elicit_core::schema::RequestedSchema;
use elicit_core::{
    Elicit, ElicitResult, FormRequest, InputRequests, InputRequired, ProtocolVersion,
    UrlElicitResult, UrlRequest,
};
use rmcp::model::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
enum Seating {
    /// Inside
    Indoor,
    /// On the terrace
    Outdoor,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
enum Extra {
    Cake,
    Flowers,
}

/// Book a table
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Booking {
    #[schemars(length(min = 1, max = 50))]
    name: String,
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    seating: Seating,
    notes: Option<String>,
}

/// Add extras
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Extras {
    extras: Vec<Extra>,
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn ada() -> Value {
    json!({"name": "Ada", "party_size": 4, "seating": "Outdoor"})
}

#[test]
fn versions_are_read_exactly() {
    for version in ProtocolVersion::ALL {
        let wire = rmcp::model::ProtocolVersion::from(version);
        assert_eq!(ProtocolVersion::try_from(wire), Ok(version));
    }
    // No version without elicitation reads as one with it, and no unknown one as the newest.
    for text in [
        "2024-11-05",
        "2025-03-26",
        "2025-09-01",
        "2027-01-01",
        "draft",
        "latest",
    ] {
        let wire: rmcp::model::ProtocolVersion = serde_json::from_value(json!(text)).unwrap();
        let refused = ProtocolVersion::try_from(wire).unwrap_err();
        assert_eq!(refused.as_str(), text);
    }
    let old: rmcp::model::ProtocolVersion = serde_json::from_value(json!("2025-03-26")).unwrap();
    let refused = ProtocolVersion::try_from(old).unwrap_err();
    assert!(
        refused.to_string().contains("predates elicitation"),
        "{refused}"
    );
}

/// `schema` as a client reads it: written, then parsed.
fn sent_and_read(schema: &RequestedSchema) -> RequestedSchema {
    RequestedSchema::from_value(serde_json::to_value(schema).unwrap()).unwrap()
}

#[test]
fn schema_conversions_are_lossless_both_ways() {
    let schemas = [
        Booking::requested_schema(),
        Booking::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap(),
        Extras::requested_schema(),
    ];
    for schema in schemas {
        let theirs = ElicitationSchema::try_from(schema).unwrap();
        let back = RequestedSchema::try_from(&theirs).unwrap();
        // What went out is what comes back: bound hints are part of the description there.
        assert_eq!(back, sent_and_read(schema));
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(schema).unwrap()
        );
    }
    // Every schema of the peer corpus that rmcp can hold survives the trip.
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/peer_cases.jsonl"
    ))
    .unwrap();
    let mut converted = 0;
    for line in corpus.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let Ok(schema) = RequestedSchema::from_json(&case["schema"].to_string()) else {
            continue;
        };
        match ElicitationSchema::try_from(&schema) {
            Ok(theirs) => {
                let back = RequestedSchema::try_from(&theirs).unwrap();
                assert_eq!(back.properties(), schema.properties(), "{}", case["id"]);
                // Built field by field, it is what rmcp reads from the schema's own JSON.
                let read: ElicitationSchema =
                    serde_json::from_value(serde_json::to_value(&schema).unwrap()).unwrap();
                assert_eq!(theirs, read, "{}", case["id"]);
                let hinted = schema.clone().with_bound_hints();
                let read: ElicitationSchema =
                    serde_json::from_value(serde_json::to_value(&hinted).unwrap()).unwrap();
                assert_eq!(ElicitationSchema::try_from(&hinted).unwrap(), read);
                converted += 1;
            }
            Err(e) => assert!(e.to_string().contains("cannot hold"), "{}: {e}", case["id"]),
        }
    }
    assert!(converted > 100, "{converted}");
    let with_pattern = RequestedSchema::from_value(
        json!({"type": "object", "properties": {"z": {"type": "string", "pattern": "^x$"}}}),
    )
    .unwrap();
    assert!(
        ElicitationSchema::try_from(&with_pattern).is_err(),
        "a rule is never dropped silently"
    );
    // Nor a multi-select's `uniqueItems`, which rmcp's model has no field for.
    let unique = RequestedSchema::from_value(json!({"type": "object", "properties": {"tags": {
        "type": "array", "uniqueItems": true, "items": {"type": "string", "enum": ["a", "b"]}
    }}}))
    .unwrap();
    let refused = ElicitationSchema::try_from(&unique).unwrap_err();
    assert!(refused.to_string().contains("`uniqueItems`"), "{refused}");
}

#[test]
fn request_and_result_conversions_both_ways() {
    let form = Booking::form_request();
    let params = ElicitRequestParams::try_from(&form).unwrap();
    let back = FormRequest::try_from(&params).unwrap();
    assert_eq!(back.message(), form.message());
    assert_eq!(back.schema(), &sent_and_read(form.schema()));
    assert_eq!(serde_json::to_value(&params).unwrap(), form.to_value());

    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let url = UrlRequest::new(version, "Pay", "https://example.com/pay", "pay-1").unwrap();
        let params = ElicitRequestParams::from(&url);
        assert_eq!(
            serde_json::to_value(&params).unwrap()["url"],
            "https://example.com/pay"
        );
        let back = UrlRequest::try_from(&params).unwrap();
        assert_eq!(back.to_value(), url.to_value(), "{version}");
    }
    assert!(UrlRequest::try_from(&ElicitRequestParams::try_from(&form).unwrap()).is_err());

    let ours: ElicitResult<Booking> = ElicitResult::from_value(&accept(ada())).unwrap();
    let theirs = rmcp::model::ElicitResult::try_from(&ours).unwrap();
    assert_eq!(
        ElicitResult::<Booking>::from_value(&serde_json::to_value(&theirs).unwrap()).unwrap(),
        ours
    );
    for ours in [ElicitResult::<Booking>::Decline, ElicitResult::Cancel] {
        let theirs = rmcp::model::ElicitResult::try_from(&ours).unwrap();
        assert!(theirs.content.is_none());
        assert_eq!(
            ElicitResult::<Booking>::from_value(&serde_json::to_value(&theirs).unwrap()).unwrap(),
            ours
        );
    }
    let invalid: rmcp::model::ElicitResult =
        serde_json::from_value(accept(json!({"name": 3}))).unwrap();
    assert!(
        ElicitResult::<Booking>::from_value(&serde_json::to_value(&invalid).unwrap()).is_err(),
        "content is validated"
    );
    // Content `Booking` itself would take, but that breaks the schema's rules.
    let mut too_many = ada();
    too_many["party_size"] = json!(13);
    let too_many: rmcp::model::ElicitResult = serde_json::from_value(accept(too_many)).unwrap();
    let e =
        ElicitResult::<Booking>::from_value(&serde_json::to_value(&too_many).unwrap()).unwrap_err();
    assert_eq!(
        e.violations()
            .iter()
            .map(|v| (v.property(), v.rule().clone()))
            .collect::<Vec<_>>(),
        [(
            Some("party_size"),
            elicit_core::Rule::Maximum(elicit_core::schema::Bound::Int(12))
        )]
    );
    for url in [
        UrlElicitResult::Accept,
        UrlElicitResult::Decline,
        UrlElicitResult::Cancel,
    ] {
        assert_eq!(
            UrlElicitResult::from_value(
                &serde_json::to_value(rmcp::model::ElicitResult::from(url)).unwrap()
            )
            .unwrap(),
            url
        );
    }

    let mut requests = InputRequests::new();
    requests.elicit::<Booking>("a");
    requests.url(
        "b",
        &UrlRequest::new(
            ProtocolVersion::V2026_07_28,
            "Pay",
            "https://example.com",
            "",
        )
        .unwrap(),
    );
    let required = InputRequired::new(requests).with_request_state("s");
    let theirs = InputRequiredResult::try_from(&required).unwrap();
    assert_eq!(InputRequired::try_from(&theirs).unwrap(), required);
    let wire = serde_json::to_value(&theirs).unwrap();
    assert_eq!(
        wire["inputRequests"]["a"],
        required.to_value().unwrap()["inputRequests"]["a"]
    );
    assert_eq!(wire["requestState"], "s");
    // rmcp writes an empty `elicitationId` on 2026-07-28, where the protocol has none.
    assert_eq!(wire["inputRequests"]["b"]["params"]["elicitationId"], "");

    // A form whose rule rmcp's model cannot hold is refused, not sent without it.
    let zip = RequestedSchema::from_value(
        json!({"type": "object", "properties": {"zip": {"type": "string", "pattern": "^x$"}}}),
    )
    .unwrap();
    let mut requests = InputRequests::new();
    requests.form("zip", &FormRequest::new("ZIP?", &zip));
    let error = InputRequiredResult::try_from(&InputRequired::new(requests)).unwrap_err();
    assert!(error.to_string().contains("input request `zip`"), "{error}");
    assert!(error.to_string().contains("has `pattern`"), "{error}");
}
