//! A `requestState` belongs to the credential it was sealed for, by default: `trip_planner`
//! served over rmcp's streamable HTTP transport with no principal of its own, and callers with
//! one token, another, and none, on 2026-07-28.

#[path = "support/http.rs"]
mod support;
#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../examples/trip_planner.rs"]
mod trip_planner;

use rmcp::ServiceError;
use rmcp::model::*;
use serde_json::json;
use support::{Client, connect, serve};
use trip_planner::TripPlanner;

/// The retry of round 1 of `client`'s call, with its state and an answer.
async fn round_one(client: &Client) -> CallToolRequestParams {
    let first = client
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
    retry
}

async fn assert_refused(client: &Client, retry: &CallToolRequestParams, who: &str) {
    match client.call_tool_once(retry.clone()).await {
        Err(ServiceError::McpError(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{who}");
            assert!(
                e.message.contains("requestState was refused"),
                "{who}: {e:?}"
            );
        }
        other => panic!("{who}: the state was not refused: {other:?}"),
    }
}

async fn assert_finishes(client: &Client, retry: CallToolRequestParams, who: &str) {
    let done = client.call_tool_once(retry).await.unwrap();
    let CallToolResponse::Complete(done) = done else {
        panic!("{who}: the retry finishes: {done:?}")
    };
    let text: String = done
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect();
    assert!(text.contains("Lisbon"), "{who}: {text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_sealed_for_one_credential_is_refused_for_another() {
    let url = serve(TripPlanner).await;
    let ada = connect(&url, Some("token-ada")).await;
    // The same credential on another connection is the same caller.
    let ada_again = connect(&url, Some("token-ada")).await;
    let bob = connect(&url, Some("token-bob")).await;
    let nobody = connect(&url, None).await;

    let retry = round_one(&ada).await;
    assert_refused(&bob, &retry, "bob").await;
    assert_refused(&nobody, &retry, "no token").await;
    assert_finishes(&ada_again, retry, "ada").await;

    // A call without a credential is nobody's: any caller without one may continue it, and
    // none with one.
    let retry = round_one(&nobody).await;
    assert_refused(&ada, &retry, "ada").await;
    let someone_else = connect(&url, None).await;
    assert_finishes(&someone_else, retry, "no token").await;
}
