//! `Ask` as an argument of an rmcp `#[tool]` function, next to `Parameters`.

use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::prelude::*;
use rmcp::ServiceError;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::*;
use rmcp::{tool, tool_handler, tool_router};
use serde_json::{Value, json};

use crate::harness::*;

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct Party {
    size: u8,
}

#[derive(Clone)]
struct Planner;

#[tool_router]
impl Planner {
    #[tool(description = "Plan a trip for a party")]
    async fn plan(&self, ask: Ask, Parameters(party): Parameters<Party>) -> Asked<CallToolResult> {
        ask.run(async {
            let mut plan = plan_body(&ask).await?;
            plan["party"] = json!(party.size);
            Ok(json_result(plan))
        })
        .await
    }
}

#[tool_handler]
impl rmcp::ServerHandler for Planner {}

fn plan_call(size: u8) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new("plan");
    params.arguments = Some(json!({"size": size}).as_object().unwrap().clone());
    params
}

#[tokio::test]
async fn a_tool_function_on_every_version() {
    for version in ALL {
        let client = Client::new(version)
            .answers(TRIP, [accept(long_trip())])
            .answers(EXTRAS, [accept(extras())]);
        let c = connect_to(Planner, client).await;
        let (text, is_error) = call_with(&c, plan_call(4)).await.unwrap();
        assert!(!is_error, "{version}: {text}");
        assert_eq!(
            serde_json::from_str::<Value>(&text).unwrap(),
            json!({"party": 4, "trip": accept(long_trip()), "extras": accept(extras())}),
            "{version}"
        );
    }
}

#[tokio::test]
async fn the_state_is_bound_to_the_arguments() {
    let c = connect_to(Planner, Client::new(ProtocolVersion::V2026_07_28)).await;
    let CallToolResponse::InputRequired(first) = c.call_tool_once(plan_call(4)).await.unwrap()
    else {
        panic!("round 1 asks")
    };
    let retry = |size| {
        let mut params = plan_call(size);
        params.input_responses =
            Some(serde_json::from_value(json!({"trip": accept(short_trip())})).unwrap());
        params.request_state = first.request_state.clone();
        params
    };
    match c.call_tool_once(retry(5)).await {
        Err(ServiceError::McpError(e)) => assert!(e.message.contains("requestState"), "{e:?}"),
        other => panic!("state from a call with other arguments: {other:?}"),
    }
    let CallToolResponse::Complete(done) = c.call_tool_once(retry(4)).await.unwrap() else {
        panic!("the same arguments finish the call")
    };
    assert_eq!(
        serde_json::from_str::<Value>(&text_of(&done)).unwrap(),
        json!({"party": 4, "trip": accept(short_trip()), "extras": null})
    );
}

/// Every name of the prelude resolves next to `rmcp::model::*` (this file imports both globs,
/// and `ElicitResult` explicitly): a name in both would not compile here.
#[test]
fn the_prelude_imports_beside_rmcp_model() {
    fn is_elicit<T: Elicit>() {}
    fn is_peer_ext<P: ElicitPeerExt>() {}
    is_elicit::<Trip>();
    is_peer_ext::<rmcp::Peer<rmcp::RoleServer>>();
    let names = [
        std::any::type_name::<Ask>(),
        std::any::type_name::<Asked<CallToolResult>>(),
        std::any::type_name::<Interrupt>(),
        std::any::type_name::<Round<()>>(),
        std::any::type_name::<StateKey>(),
        std::any::type_name::<RetryPolicy>(),
        std::any::type_name::<InputRequired>(),
        std::any::type_name::<InputResponse<()>>(),
        std::any::type_name::<ElicitError>(),
        std::any::type_name::<ElicitResult<()>>(),
        std::any::type_name::<UrlElicitResult>(),
    ];
    assert!(
        names.iter().all(|name| name.starts_with("elicit_core::")),
        "{names:?}"
    );
}
