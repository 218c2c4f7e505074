//! Unit tests of `rust_mcp_sdk::response`, beside the crate's sources so that they reach its private items.

use super::*;
use crate::protocol::input::InputRequests;
use crate::schema::RequestedSchema;
use crate::schema::request::FormRequest;

/// A round reaches the wire as this crate writes it: every rule, in the form's order.
#[test]
fn a_round_is_written_as_this_crate_writes_it() {
    let schema = RequestedSchema::from_json(
        r#"{"type":"object","properties":{
            "zone":{"type":"string","enum":["eu","us"]},
            "code":{"type":"string","pattern":"^[A-Z]{3}$","format":"email"},
            "nights":{"type":"integer","minimum":1,"maximum":30,"default":3},
            "size":{"type":"string","oneOf":[{"const":"s","title":"Small"}]}
        },"required":["zone"]}"#,
    )
    .unwrap();
    let mut requests = InputRequests::new();
    requests.form("trip", &FormRequest::new("Where?", &schema));
    let required = InputRequired::new(requests).with_request_state("s");
    let written = serde_json::to_string(&generic(&required).unwrap()).unwrap();
    assert_eq!(written, serde_json::to_string(&required).unwrap());
    assert!(
        written.contains(r#""minimum":1,"maximum":30,"default":3"#),
        "{written}"
    );
    let order: Vec<_> = ["zone", "code", "nights", "size"]
        .iter()
        .map(|name| written.find(&format!(r#""{name}":{{"#)).unwrap())
        .collect();
    assert!(order.is_sorted(), "{written}");
}
