//! `Ask` as an argument of an rmcp `#[tool]` function, next to `Parameters`.

use elicit_core::ElicitError;
use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::UrlElicitResult;
use elicit_core::ask::RetryPolicy;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use elicit_test::{ScriptedClient, TestError};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{tool, tool_handler, tool_router};
use serde_json::json;

use crate::server::*;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Party {
    size: u8,
}

/// The trip planner's questions, and the party's size.
async fn party_plan(ask: &Ask, size: u8) -> Asked<CallToolResult> {
    ask.run(async {
        let mut plan = plan_body(ask).await?;
        plan["party"] = json!(size);
        Ok(json_result(plan))
    })
    .await
}

#[derive(Clone)]
struct Planner;

#[tool_router]
impl Planner {
    #[tool(description = "Plan a trip for a party")]
    async fn plan(&self, ask: Ask, Parameters(party): Parameters<Party>) -> Asked<CallToolResult> {
        party_plan(&ask, party.size).await
    }
}

#[tool_handler]
impl rmcp::ServerHandler for Planner {}

/// `Parameters` listed before `Ask`: it takes the arguments, so `Ask` would see none.
#[derive(Clone)]
struct WrongOrder;

#[tool_router]
impl WrongOrder {
    #[tool(description = "Plan a trip for a party")]
    async fn plan(&self, Parameters(party): Parameters<Party>, ask: Ask) -> Asked<CallToolResult> {
        party_plan(&ask, party.size).await
    }
}

#[tool_handler]
impl rmcp::ServerHandler for WrongOrder {}

/// The same order, served through `keep_arguments`: `Ask` reads the call's arguments anyway.
#[derive(Clone)]
struct KeptOrder;

#[tool_router]
impl KeptOrder {
    #[tool(description = "Plan a trip for a party")]
    async fn plan(&self, Parameters(party): Parameters<Party>, ask: Ask) -> Asked<CallToolResult> {
        party_plan(&ask, party.size).await
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for KeptOrder {}

#[tokio::test]
async fn with_keep_arguments_either_order_keeps_the_binding() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(accept(short_trip()));
    for (version, outcome) in client
        .call_tool_on_every_version(|| KeptOrder, "plan", json!({"size": 4}))
        .await
        .unwrap()
    {
        assert_eq!(json_of(&outcome)["party"], 4, "{version}");
    }
    // Round 1's state, replayed with other arguments, is refused.
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let CallToolResponse::InputRequired(first) = client
        .call_tool_once(KeptOrder, plan_call(4))
        .await
        .unwrap()
    else {
        panic!("round 1 asks")
    };
    let mut replay = plan_call(5);
    replay.input_responses =
        Some(serde_json::from_value(json!({"trip": accepted(short_trip())})).unwrap());
    replay.request_state = first.request_state;
    match client.call_tool_once(KeptOrder, replay).await {
        Err(TestError::Server(e)) => assert!(e.message.contains("requestState"), "{e:?}"),
        other => panic!("the replay was not refused: {other:?}"),
    }
}

#[tokio::test]
async fn parameters_before_ask_fails_on_its_first_call_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(short_trip()));
        match client
            .call_tool(WrongOrder, "plan", json!({"size": 4}))
            .await
        {
            Err(TestError::Server(e)) => {
                // One piece of advice, which fits whatever the order of the extractors.
                assert!(
                    !e.message.contains("before `Parameters`"),
                    "{version}: {e:?}"
                );
                assert!(
                    e.message.contains("Serve the tools with")
                        && e.message.contains("keep_arguments"),
                    "{version}: {e:?}"
                );
            }
            other => panic!("{version}: {other:?}"),
        }
        assert_eq!(client.remaining(), 1, "{version}: nothing was asked");
    }
}

fn plan_call(size: u8) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new("plan");
    params.arguments = Some(json!({"size": size}).as_object().unwrap().clone());
    params
}

#[tokio::test]
async fn a_tool_function_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST)
        .answer(accept(long_trip()))
        .answer(accept(extras()));
    let outcomes = client
        .call_tool_on_every_version(|| Planner, "plan", json!({"size": 4}))
        .await
        .unwrap();
    assert_eq!(outcomes.len(), 3);
    for (version, outcome) in outcomes {
        assert_eq!(
            json_of(&outcome),
            json!({"party": 4, "trip": accepted(long_trip()), "extras": accepted(extras())}),
            "{version}"
        );
    }
    // Each version had its own copy of the script.
    assert_eq!(client.remaining(), 2);
}

#[tokio::test]
async fn the_state_is_bound_to_the_arguments() {
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let CallToolResponse::InputRequired(first) =
        client.call_tool_once(Planner, plan_call(4)).await.unwrap()
    else {
        panic!("round 1 asks")
    };
    let retry = |size| {
        let mut params = plan_call(size);
        params.input_responses =
            Some(serde_json::from_value(json!({"trip": accepted(short_trip())})).unwrap());
        params.request_state = first.request_state.clone();
        params
    };
    match client.call_tool_once(Planner, retry(5)).await {
        Err(TestError::Server(e)) => assert!(e.message.contains("requestState"), "{e:?}"),
        other => panic!("state from a call with other arguments: {other:?}"),
    }
    let CallToolResponse::Complete(done) = client.call_tool_once(Planner, retry(4)).await.unwrap()
    else {
        panic!("the same arguments finish the call")
    };
    assert_eq!(
        json_of_result(&done),
        json!({"party": 4, "trip": accepted(short_trip()), "extras": null})
    );
}

/// Every name of the prelude resolves next to `rmcp::model::*` (this file imports both globs,
/// and `ElicitResult` explicitly): a name in both would not compile here.
#[test]
fn the_prelude_imports_beside_rmcp_model() {
    fn is_elicit<T: Elicit>() {}
    is_elicit::<Trip>();
    let names = [
        std::any::type_name::<Ask>(),
        std::any::type_name::<Asked<CallToolResult>>(),
        std::any::type_name::<Interrupt>(),
        std::any::type_name::<StateKey>(),
        std::any::type_name::<RetryPolicy>(),
        std::any::type_name::<ElicitError>(),
        std::any::type_name::<ElicitResult<()>>(),
        std::any::type_name::<UrlElicitResult>(),
    ];
    assert!(
        names.iter().all(|name| name.starts_with("elicit_core::")),
        "{names:?}"
    );
}
