//! Clients as they behave in the field: ones that drop a request, ones that answer `{}`, ones
//! that cannot show forms, and confirmations that fail closed whatever they do.

use std::time::Duration;

use elicit_core::ProtocolVersion;
use elicit_core::ask::RetryPolicy;
use elicit_test::{Answer, ScriptedClient};
use serde_json::{Value, json};

use crate::server::*;

const LIVE: [ProtocolVersion; 2] = [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];

#[tokio::test]
async fn a_client_that_never_answers_ends_as_a_cancel_at_the_deadline() {
    for version in LIVE {
        let mut server = Server::new();
        server.deadline = Some(Duration::from_millis(1500));
        server.keep_alive = Some(Duration::from_secs(1));
        server.retry = Some(RetryPolicy::default());
        // The reply would come after a minute: the client dropped the request.
        let client = ScriptedClient::new(version)
            .answer(accept(short_trip()).after(Duration::from_secs(60)));
        let started = std::time::Instant::now();
        let outcome = client
            .call_tool(server, "patient", json!({}))
            .await
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(10), "{version}");
        // A cancel, not asked again by the cancel rule.
        assert_eq!(
            json_of(&outcome)["answer"],
            json!({"action": "cancel"}),
            "{version}"
        );
        assert_eq!(
            json_of(&outcome)["attempts"],
            json!(["Cancelled"]),
            "{version}"
        );
        assert_eq!(outcome.asked.len(), 1, "{version}");
        // Keep-alive went out while the request waited, and stopped with it.
        assert_eq!(
            outcome.progress.len(),
            1,
            "{version}: {:?}",
            outcome.progress
        );
    }
}

#[tokio::test]
async fn a_timed_out_confirmation_is_not_confirmed_and_says_so() {
    for version in LIVE {
        let mut server = Server::new();
        server.deadline = Some(Duration::from_millis(300));
        let client = ScriptedClient::new(version)
            .answer(accept(json!({"confirmed": true})).after(Duration::from_secs(60)));
        let outcome = client.call_tool(server, "sure", json!({})).await.unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"confirmed": false, "reason": "no answer came in time", "source": "TimedOut", "attempts": 1}),
            "{version}"
        );
    }
}

#[tokio::test]
async fn a_client_that_always_answers_empty_ends_with_what_the_tool_needs() {
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.retry = Some(RetryPolicy::default());
        let client =
            ScriptedClient::new(version).answers(std::iter::repeat_n(accept(json!({})), 5));
        let outcome = client.call_tool(server, "plan", json!({})).await.unwrap();
        assert!(outcome.is_error(), "{version}");
        let unavailable = outcome.unavailable().unwrap();
        assert_eq!(unavailable["key"], "trip", "{version}");
        let text = outcome.text();
        assert!(
            text.contains("The form came back without fields this tool needs"),
            "{version}: {text}"
        );
        // Nothing says whose doing the missing fields were: a person may have left them empty.
        assert!(!text.contains("The client"), "{version}: {text}");
        assert!(
            text.contains("- `nights` (Nights): a whole number"),
            "{version}: {text}"
        );
        // The same empty form twice is not asked a third time.
        assert_eq!(outcome.asked.len(), 2, "{version}");
    }
}

/// Every way of not confirming, and what it is called.
fn table() -> Vec<(&'static str, Option<Answer>, &'static str)> {
    vec![
        ("{}", Some(accept(json!({}))), "the box was not checked"),
        (
            "false",
            Some(accept(json!({"confirmed": false}))),
            "the box was not checked",
        ),
        (
            "\"true\"",
            Some(accept(json!({"confirmed": "true"}))),
            "the box was not checked",
        ),
        (
            "1",
            Some(accept(json!({"confirmed": 1}))),
            "the box was not checked",
        ),
        (
            "no content",
            Some(Answer::accept_url()),
            "the box was not checked",
        ),
        ("decline", Some(Answer::decline()), "the person declined"),
        ("cancel", Some(Answer::cancel()), "the person dismissed it"),
        ("no elicitation", None, "no person could be asked"),
    ]
}

#[tokio::test]
async fn confirmations_fail_closed_in_one_shape_on_every_version() {
    for version in ProtocolVersion::ALL {
        for (what, answer, reason) in table() {
            let client = match &answer {
                // Twice: a policy that asks again gets the same again.
                Some(answer) => {
                    ScriptedClient::new(version).answers([answer.clone(), answer.clone()])
                }
                None => ScriptedClient::new(version).without_elicitation(),
            };
            // The arguments hold a confirmation: they never answer it.
            let arguments = json!({"sure": {"confirmed": true}});
            let outcome = client
                .call_tool(Server::new(), "confirm_args", arguments)
                .await
                .unwrap();
            assert!(!outcome.is_error(), "{version} {what}: {}", outcome.text());
            assert_eq!(
                json_of(&outcome),
                json!({"confirmed": false, "reason": reason}),
                "{version} {what}"
            );
            // Asked once without a retry policy, or not at all.
            assert_eq!(
                outcome.asked.len(),
                usize::from(answer.is_some()),
                "{version} {what}"
            );
        }
    }
}

#[tokio::test]
async fn a_confirmation_is_asked_again_no_more_than_the_policy_allows() {
    for version in ProtocolVersion::ALL {
        for (what, answer, reason) in table() {
            let Some(answer) = answer else { continue };
            let mut server = Server::new();
            server.retry = Some(RetryPolicy::default());
            let client = ScriptedClient::new(version).answers(std::iter::repeat_n(answer, 4));
            let outcome = client.call_tool(server, "sure", json!({})).await.unwrap();
            let out = json_of(&outcome);
            assert_eq!(out["confirmed"], false, "{version} {what}");
            assert_eq!(out["reason"], reason, "{version} {what}");
            // A cancel once more, invalid content twice more, an empty form once more.
            let most = 3;
            let asked = outcome.asked.len();
            assert!(asked <= most, "{version} {what}: asked {asked} times");
            assert_eq!(out["attempts"], json!(asked), "{version} {what}");
        }
    }
}

#[tokio::test]
async fn a_booking_from_the_arguments_with_a_confirmation_nobody_can_give() {
    let arguments = json!({"booking": short_trip()});
    let client = ScriptedClient::new(ProtocolVersion::LATEST).without_elicitation();
    let outcomes = client
        .call_tool_on_every_version(Server::new, "book", arguments)
        .await
        .unwrap();
    let results: Vec<Value> = outcomes
        .iter()
        .map(|(_, outcome)| json_of(outcome))
        .collect();
    for result in &results {
        assert_eq!(
            result,
            &json!({
                "booked": false,
                "city": "Lisbon",
                "next": "confirm with the person in the conversation, then book",
            })
        );
    }
    // With a client that shows forms, the same body books once the person confirms.
    let client = ScriptedClient::new(ProtocolVersion::LATEST)
        .answers([accept(short_trip()), accept(json!({"confirmed": true}))]);
    for (version, outcome) in client
        .call_tool_on_every_version(Server::new, "book", json!({}))
        .await
        .unwrap()
    {
        assert_eq!(
            json_of(&outcome),
            json!({"booked": true, "city": "Lisbon"}),
            "{version}"
        );
        assert_eq!(
            outcome.messages()[1],
            "Book 3 nights in Lisbon?",
            "{version}"
        );
    }
}
