//! `trip_planner`'s tool tested in-process with the test kit, on every protocol version: the
//! way to test a tool that asks, without a real client. Copy it for your own server.

#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../examples/trip_planner.rs"]
mod trip_planner;

use elicit_core::ProtocolVersion;
use elicit_core::rmcp::test_util::{Answer, ScriptedClient, TestError};
use serde_json::json;
use trip_planner::TripPlanner;

#[tokio::test]
async fn a_short_trip_is_one_form_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST)
        .answer(Answer::accept(json!({"city": "Lisbon", "nights": 3})));
    for (version, outcome) in client
        .call_tool_on_every_version(|| TripPlanner, "plan_trip", json!({}))
        .await
        .unwrap()
    {
        assert_eq!(
            outcome.json(),
            Some(json!({
                "trip": {"action": "accept", "content": {"city": "Lisbon", "nights": 3}},
                "extras": null
            })),
            "{version}"
        );
        assert_eq!(
            outcome.messages(),
            ["Where would you like to go?"],
            "{version}"
        );
    }
}

#[tokio::test]
async fn a_week_or_more_asks_for_extras() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(Answer::accept(json!({"city": "Kyoto", "nights": 9})))
            .answer(Answer::accept(
                json!({"rental_car": true, "budget": "Medium"}),
            ));
        let outcome = client
            .call_tool(TripPlanner, "plan_trip", json!({}))
            .await
            .unwrap();
        assert_eq!(
            outcome.json().unwrap()["extras"],
            json!({"action": "accept", "content": {"rental_car": true, "budget": "Medium"}}),
            "{version}"
        );
        assert_eq!(
            outcome.messages(),
            [
                "Where would you like to go?",
                "A week or more: a few extras"
            ]
        );
        // On 2026-07-28 each form is a round: two results asking, then the final one.
        let calls = if version.has_input_requests() { 3 } else { 1 };
        assert_eq!(outcome.calls, calls, "{version}");
    }
}

#[tokio::test]
async fn invalid_content_is_a_tool_error_and_decline_is_an_answer() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(Answer::accept(json!({"city": "", "nights": 31})))
            .answer(Answer::decline());
        let outcome = client
            .call_tool(TripPlanner, "plan_trip", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        assert!(
            outcome.text().contains("`nights` must be at most 30"),
            "{}",
            outcome.text()
        );
        // The planner does not retry: the next call takes the next answer.
        let outcome = client
            .call_tool(TripPlanner, "plan_trip", json!({}))
            .await
            .unwrap();
        assert_eq!(
            outcome.json().unwrap()["trip"],
            json!({"action": "decline"})
        );
    }
}

#[tokio::test]
async fn a_client_without_forms_is_told_so_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).without_elicitation();
        let outcome = client.call_tool(TripPlanner, "plan_trip", json!({})).await;
        if version.has_input_requests() {
            let Err(TestError::Server(e)) = outcome else {
                panic!("{outcome:?}")
            };
            assert_eq!(
                e.code,
                rmcp::model::ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
            );
        } else {
            let outcome = outcome.unwrap();
            assert!(outcome.is_error(), "{version}");
            assert!(
                outcome.text().contains("does not support"),
                "{}",
                outcome.text()
            );
        }
    }
}
