//! A question is the same question in every round, or the call says which one is not.

use elicit_core::ProtocolVersion;
use elicit_test::{ScriptedClient, TestError};
use serde_json::json;

use crate::server::*;

fn yes() -> elicit_test::Answer {
    accept(json!({"confirmed": true}))
}

#[tokio::test]
async fn choices_in_another_order_are_the_same_question_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST)
        .answer(accept(json!({"repo": "web", "branch": "main"})));
    let outcomes = client
        .call_tool_on_every_version(Server::new, "rooms", json!({}))
        .await
        .unwrap();
    for (version, outcome) in &outcomes {
        assert_eq!(
            json_of(outcome),
            json!({"pick": accepted(json!({"repo": "web", "branch": "main"}))}),
            "{version}"
        );
        assert_eq!(outcome.asked.len(), 1, "{version}: asked once");
    }
}

/// A form's fields in another order are the same form: the answer given is kept, and the
/// question is not asked again.
#[tokio::test]
async fn fields_in_another_order_are_the_same_question_on_every_version() {
    let answer = json!({"repo": "web", "branch": "main", "note": "hotfix"});
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(accept(answer.clone()));
    let outcomes = client
        .call_tool_on_every_version(Server::new, "fields", json!({}))
        .await
        .unwrap();
    for (version, outcome) in &outcomes {
        assert_eq!(
            json_of(outcome),
            json!({"push": accepted(answer.clone())}),
            "{version}"
        );
        assert_eq!(outcome.asked.len(), 1, "{version}: asked once");
    }
}

/// Two different questions under one key, one after the other, are each asked: every await
/// is its own question.
#[tokio::test]
async fn two_questions_under_one_key_are_each_asked_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answers([yes(), yes()]);
        let outcome = client
            .call_tool(Server::new(), "one_key", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome), json!([true, true]), "{version}");
        assert_eq!(
            outcome.messages(),
            ["Book the room?", "Charge your card?"],
            "{version}"
        );
        assert_eq!(client.remaining(), 0, "{version}");
    }
}

#[tokio::test]
async fn a_live_price_computed_once_gives_one_result_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(yes());
    let outcomes = client
        .call_tool_on_every_version(Server::new, "pay_once", json!({}))
        .await
        .unwrap();
    for (version, outcome) in &outcomes {
        assert_eq!(
            json_of(outcome),
            json!({"price": 100, "paid": true}),
            "{version}"
        );
        assert_eq!(outcome.messages(), ["Pay 100 EUR?"], "{version}");
    }
}

#[tokio::test]
async fn a_live_price_without_once_ends_naming_the_question_on_2026_07_28() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answers([yes(), yes(), yes()]);
        let outcome = client.call_tool(Server::new(), "pay", json!({})).await;
        if !version.has_input_requests() {
            // One run of the body: the price is shown once, and paid.
            let outcome = outcome.unwrap();
            assert_eq!(
                json_of(&outcome),
                json!({"price": 100, "paid": true}),
                "{version}"
            );
            continue;
        }
        let Err(TestError::Server(e)) = outcome else {
            panic!("{version}: {outcome:?}")
        };
        assert!(
            e.message.contains("the question \"pay\" changed again")
                && e.message.contains("its message")
                && e.message.contains("ask.once"),
            "{version}: {}",
            e.message
        );
        // Asked with 100, asked again once with 101 saying so, then refused at 102.
        assert_eq!(client.remaining(), 1, "{version}");
    }
}
