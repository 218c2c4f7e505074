//! Clients as they are: one that omits `arguments`, one before elicitation, and the versions
//! the test kit speaks.

use elicit_core::ProtocolVersion;
use elicit_core::prelude::*;
use elicit_test::ScriptedClient;
use rmcp::model::*;
use rmcp::{tool, tool_handler, tool_router};
use serde_json::json;

use crate::server::*;

/// A tool with no `Parameters`: its one question may be answered from the arguments.
#[derive(Clone)]
struct Booker;

#[tool_router]
impl Booker {
    #[tool(
        description = "Plan a trip",
        input_schema = elicit_core::ask::input_schema([("trip", Trip::requested_schema())])
    )]
    async fn book(&self, ask: Ask) -> Asked<CallToolResult> {
        ask.run(async {
            let trip = ask.form::<Trip>("trip").or_arguments().await?;
            Ok(json_result(json!({"trip": trip})))
        })
        .await
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for Booker {}

#[tokio::test]
async fn a_call_without_arguments_is_one_with_none_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(accept(short_trip()));
    // `null`: the kit sends no `arguments` at all, as the Python client's `call_tool("book")`.
    let outcomes = client
        .call_tool_on_every_version(|| Booker, "book", serde_json::Value::Null)
        .await
        .unwrap();
    for (version, outcome) in &outcomes {
        assert!(!outcome.is_error(), "{version}: {}", outcome.text());
        assert_eq!(
            json_of(outcome),
            json!({"trip": accepted(short_trip())}),
            "{version}"
        );
    }
    // And a client that cannot show the form is told what to pass.
    let client = ScriptedClient::new(ProtocolVersion::LATEST).without_elicitation();
    for (version, outcome) in client
        .call_tool_on_every_version(|| Booker, "book", serde_json::Value::Null)
        .await
        .unwrap()
    {
        assert!(outcome.is_error(), "{version}");
        assert!(
            outcome.text().contains("`trip`"),
            "{version}: {}",
            outcome.text()
        );
    }
}

#[tokio::test]
async fn a_client_before_elicitation_is_a_client_without_forms() {
    let arguments = json!({"trip": short_trip()});
    let before = ScriptedClient::on("2025-03-26").unwrap();
    assert_eq!(before.wire_version(), "2025-03-26");
    let answered = before
        .call_tool(Booker, "book", arguments.clone())
        .await
        .unwrap();
    assert!(!answered.is_error(), "{}", answered.text());
    // The same result as on every version for a client that declares no elicitation.
    let without = ScriptedClient::new(ProtocolVersion::LATEST).without_elicitation();
    for (version, outcome) in without
        .call_tool_on_every_version(|| Booker, "book", arguments.clone())
        .await
        .unwrap()
    {
        assert_eq!(json_of(&outcome), json_of(&answered), "{version}");
    }
    // Without the answer in the arguments, it is told what the tool needs, not that it is old.
    let unanswered = before.call_tool(Booker, "book", json!({})).await.unwrap();
    assert!(unanswered.is_error());
    assert!(
        unanswered.text().contains("cannot show forms") && !unanswered.text().contains("predates"),
        "{}",
        unanswered.text()
    );
}

#[test]
fn the_kit_speaks_the_versions_it_knows_and_no_other() {
    for version in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let client = ScriptedClient::on(version).unwrap();
        assert_eq!(client.wire_version(), version);
    }
    for unknown in ["2025-09-01", "2027-01-01", "draft", "latest", ""] {
        let refused = ScriptedClient::on(unknown).unwrap_err();
        assert_eq!(refused.as_str(), unknown);
    }
}
