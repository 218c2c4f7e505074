//! `trip_planner`'s tool tested in-process with the test kit, on every protocol version: the
//! way to test a tool that asks, without a real client. Copy it for your own server.

#[allow(dead_code)] // The example's `main` is not called here.
#[path = "../examples/trip_planner.rs"]
mod trip_planner;

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ScriptedClient};
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

/// What `plan_trip` answers a client that cannot show forms, for each set of arguments.
#[tokio::test]
async fn a_client_without_forms_answers_through_the_arguments() {
    let short = json!({"city": "Lisbon", "nights": 3});
    let long = json!({"city": "Kyoto", "nights": 9});
    let extras = json!({"rental_car": false, "budget": "Low"});
    let accept = |content: &serde_json::Value| json!({"action": "accept", "content": content});
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).without_elicitation();
        let call = |arguments| client.call_tool(TripPlanner, "plan_trip", arguments);
        let unavailable = |outcome: &elicit_test::Transcript| {
            assert!(outcome.is_error(), "{version}");
            outcome.unavailable().expect("unavailable")["key"].clone()
        };

        assert_eq!(
            unavailable(&call(json!({})).await.unwrap()),
            "trip",
            "{version}"
        );
        let plan = call(json!({"trip": short})).await.unwrap();
        assert_eq!(
            plan.json(),
            Some(json!({"trip": accept(&short), "extras": null})),
            "{version}"
        );
        let outcome = call(json!({"trip": long})).await.unwrap();
        assert_eq!(unavailable(&outcome), "extras", "{version}");
        let plan = call(json!({"trip": long, "extras": extras})).await.unwrap();
        assert_eq!(
            plan.json(),
            Some(json!({"trip": accept(&long), "extras": accept(&extras)})),
            "{version}"
        );
        let outcome = call(json!({"trip": {"city": "", "nights": 31}}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        assert!(
            outcome
                .text()
                .contains("`city` must be at least 1 character long")
        );
        assert!(outcome.text().contains("`nights` must be at most 30"));
    }
}

/// With forms, a `trip` argument pre-fills the form where the version sends defaults, and the
/// person's answer is returned.
#[tokio::test]
async fn a_trip_argument_pre_fills_the_form() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(Answer::accept(json!({"city": "Lisbon", "nights": 3})));
        let outcome = client
            .call_tool(
                TripPlanner,
                "plan_trip",
                json!({"trip": {"city": "Oslo", "nights": 5}}),
            )
            .await
            .unwrap();
        assert_eq!(
            outcome.json().unwrap()["trip"]["content"],
            json!({"city": "Lisbon", "nights": 3})
        );
        let schema = outcome.asked[0].requested_schema.as_ref().unwrap();
        let defaults = (
            schema["properties"]["city"].get("default").cloned(),
            schema["properties"]["nights"].get("default").cloned(),
        );
        if version >= ProtocolVersion::V2025_11_25 {
            assert_eq!(defaults, (Some(json!("Oslo")), Some(json!(5))), "{version}");
        } else {
            assert_eq!(defaults, (None, None), "{version}");
        }
    }
}

/// Round 2's `requestState` carries round 1's answer sealed: nothing of it, or of the server's
/// type names, is in the state or in any base64 reading of any part of it.
#[tokio::test]
async fn the_round_two_state_reveals_no_answer() {
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};

    let city = "Quillacollo Verdemar";
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28)
        .answer(Answer::accept(json!({"city": city, "nights": 9})))
        .answer(Answer::accept(
            json!({"rental_car": true, "budget": "Medium"}),
        ));
    let outcome = client
        .call_tool(TripPlanner, "plan_trip", json!({}))
        .await
        .unwrap();
    let state = &outcome.request_states[1];
    let mut readings = vec![state.clone()];
    for segment in state.split(['.', ':', '~']) {
        for start in 0..4.min(segment.len()) {
            for engine in [&URL_SAFE_NO_PAD, &STANDARD_NO_PAD] {
                let tail = segment[start..].trim_end_matches('=');
                if let Ok(bytes) = engine.decode(tail) {
                    readings.push(String::from_utf8_lossy(&bytes).into_owned());
                }
            }
        }
    }
    for reading in &readings {
        for secret in ["Quillacollo", "Verdemar", "trip_planner", "Trip", "nights"] {
            assert!(!reading.contains(secret), "{secret:?} in the state");
        }
    }
    // The HMAC-signed state this replaces was 431 characters for this answer; a sealed one
    // stays within 1.5 times that.
    assert!(state.len() <= 646, "{} characters", state.len());
    eprintln!("round-2 state: {} characters", state.len());
}
