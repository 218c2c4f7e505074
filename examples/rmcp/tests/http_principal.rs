//! A `requestState` belongs to the user it was sealed for, as a key's own principal function
//! names the user: `trip_planner` served over rmcp's streamable HTTP transport, with the user
//! read from each request's bearer token, and two users (one with a renewed token) and one
//! caller without a token, on 2026-07-28.

#[path = "support/http.rs"]
mod support;
#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../examples/trip_planner.rs"]
mod trip_planner;

use elicit_core::ask::StateKey;
use rmcp::ServiceError;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::json;
use support::{connect, serve};
use trip_planner::TripPlanner;

/// The user, for this test only: the bearer token up to its last `-` (`ada-1` and its renewal
/// `ada-2` are both Ada's). A real server verifies the token and takes its subject.
fn bearer(context: &RequestContext<RoleServer>) -> Option<String> {
    let parts = context.extensions.get::<http::request::Parts>()?;
    let value = parts
        .headers
        .get(http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let token = value.strip_prefix("Bearer ")?;
    token.rsplit_once('-').map(|(user, _)| user.to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_sealed_for_one_user_opens_for_no_other() {
    StateKey::random()
        .unwrap()
        .with_principal(bearer)
        .install()
        .expect("the only key of this test binary");
    let url = serve(TripPlanner).await;
    let ada = connect(&url, Some("ada-1")).await;
    // Ada's token renewed: another credential, the same user.
    let renewed = connect(&url, Some("ada-2")).await;
    let bob = connect(&url, Some("bob-1")).await;
    let nobody = connect(&url, None).await;

    let first = ada
        .call_tool_once(CallToolRequestParams::new("plan_trip"))
        .await
        .unwrap();
    let CallToolResponse::InputRequired(first) = first else {
        panic!("round 1 asks: {first:?}")
    };
    let mut retry = CallToolRequestParams::new("plan_trip");
    retry.input_responses = Some(
        serde_json::from_value(json!({
            "trip": {"action": "accept", "content": {"city": "Lisbon", "nights": 3}}
        }))
        .unwrap(),
    );
    retry.request_state = first.request_state;

    for (who, client) in [("bob", &bob), ("no token", &nobody)] {
        match client.call_tool_once(retry.clone()).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{who}");
                assert!(
                    e.message.contains("requestState was refused"),
                    "{who}: {e:?}"
                );
            }
            other => panic!("{who}: Ada's state was not refused: {other:?}"),
        }
    }
    let done = renewed.call_tool_once(retry).await.unwrap();
    let CallToolResponse::Complete(done) = done else {
        panic!("Ada's retry finishes under her renewed token: {done:?}")
    };
    let text: String = done
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect();
    assert!(text.contains("Lisbon"), "{text}");
}
