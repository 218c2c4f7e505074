//! Unit tests of `rust_mcp_sdk::port`, beside the crate's sources so that they reach its private items.

use super::*;
use ::rust_mcp_sdk::RequiredClientCapability;
use serde_json::json;

fn custom(method: &str, params: Value) -> CustomRequest {
    serde_json::from_value(json!({"method": method, "params": params})).unwrap()
}

/// A server that declares no gates.
struct Open;
impl ServerHandler for Open {}

/// A server whose tool `gated` needs sampling, and whose every `tools/call` needs the
/// capability it holds.
struct Gated(RequiredClientCapability);
impl ServerHandler for Gated {
    fn required_capabilities_for_method(&self, method: &str) -> Vec<RequiredClientCapability> {
        match method {
            "tools/call" => vec![self.0.clone()],
            _ => Vec::new(),
        }
    }
    fn required_capabilities_for_tool_call(&self, tool: &str) -> Vec<RequiredClientCapability> {
        match tool {
            "gated" => vec![RequiredClientCapability::Sampling],
            _ => Vec::new(),
        }
    }
}

fn meta(version: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}
    })
}

/// A retry the SDK could not read keeps its numbers as written, for the form to read.
#[test]
fn a_custom_tools_call_keeps_its_numbers_as_written() {
    let answer = json!({"action": "accept", "content": {"a": 2.5, "b": 3.0, "c": -0.0}});
    let request = custom(
        "tools/call",
        json!({
            "name": "plan_trip",
            "arguments": {"trip": null},
            "inputResponses": {"trip": answer},
            "requestState": "s",
            "_meta": meta("2026-07-28"),
        }),
    );
    let tool = read_custom(&request, &Open).unwrap().unwrap();
    assert_eq!(tool.name, "plan_trip");
    assert_eq!(tool.request_state.as_deref(), Some("s"));
    let content = &tool.input_responses.unwrap()["trip"]["content"];
    assert_eq!(content.to_string(), r#"{"a":2.5,"b":3.0,"c":-0.0}"#);
}

/// Another method is left to the server; a version the SDK does not speak gets its -32022,
/// and params that are no `tools/call`'s a -32602.
#[test]
fn a_custom_request_is_read_only_as_a_tools_call_the_sdk_would_take() {
    let ok = || json!({"name": "t", "_meta": meta("2026-07-28")});
    assert!(
        read_custom(&custom("tools/list", ok()), &Open)
            .unwrap()
            .is_none()
    );
    assert!(
        read_custom(&custom("tools/call", ok()), &Open)
            .unwrap()
            .is_some()
    );
    let old = json!({"name": "t", "_meta": meta("2025-11-25")});
    let refused = |params| {
        read_custom(&custom("tools/call", params), &Open)
            .err()
            .unwrap()
            .code
    };
    assert_eq!(refused(old), -32022);
    assert_eq!(refused(json!({"_meta": meta("2026-07-28")})), -32602);
    assert_eq!(refused(json!({"name": "t"})), -32602);
    assert_eq!(
        refused(json!({"name": "t", "arguments": [1], "_meta": meta("2026-07-28")})),
        -32602
    );
    assert_eq!(
        refused(json!({"name": "t", "requestState": 7, "_meta": meta("2026-07-28")})),
        -32602
    );
}

/// The gates a server declares for `tools/call` and for a tool hold on this path as they
/// do on the SDK's, with its -32021 naming what is missing.
#[test]
fn a_custom_tools_call_meets_the_servers_gates() {
    let call = |tool: &str| {
        custom(
            "tools/call",
            json!({"name": tool, "_meta": meta("2026-07-28")}),
        )
    };
    let read = |tool: &str, gates: Gated| read_custom(&call(tool), &gates).map(|t| t.is_some());
    let elicitation = || Gated(RequiredClientCapability::Elicitation);
    assert!(read("plain", elicitation()).unwrap());
    let refused = read("gated", elicitation()).unwrap_err();
    assert_eq!(refused.code, -32021);
    assert_eq!(
        refused.data,
        Some(json!({"requiredCapabilities": {"sampling": {}}}))
    );
    let refused = read("plain", Gated(RequiredClientCapability::Roots)).unwrap_err();
    assert_eq!(refused.code, -32021);
    assert_eq!(
        refused.data,
        Some(json!({"requiredCapabilities": {"roots": {}}}))
    );
}

fn auth(client: Option<&str>, user: Option<&str>, token: &str) -> AuthInfo {
    serde_json::from_value(serde_json::json!({
        "token_unique_id": token, "client_id": client, "user_id": user
    }))
    .unwrap()
}

/// A new token for the same client and user is the same principal; another user, another
/// client or a bare token is not.
#[test]
fn the_principal_is_the_client_and_user_of_the_token() {
    let ada = principal(&auth(Some("app"), Some("ada"), "t1"));
    assert_eq!(ada, principal(&auth(Some("app"), Some("ada"), "t2")));
    assert_ne!(ada, principal(&auth(Some("app"), Some("bob"), "t1")));
    assert_ne!(ada, principal(&auth(Some("cli"), Some("ada"), "t1")));
    assert_ne!(ada, principal(&auth(None, Some("ada"), "t1")));
    assert_ne!(
        principal(&auth(None, None, "t1")),
        principal(&auth(None, None, "t2"))
    );
}
