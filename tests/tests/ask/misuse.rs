//! Mistakes that compile: each fails the same clear way on every version, or cannot happen.

use elicit_core::ProtocolVersion;
use elicit_core::ask::RetryPolicy;
use elicit_test::{Answer, ScriptedClient, TestError};
use serde_json::json;

use crate::server::*;

#[tokio::test]
async fn a_question_outside_ask_run_names_ask_run_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(short_trip()));
        match client
            .call_tool(Server::new(), "outside_run", json!({}))
            .await
        {
            Err(TestError::Server(e)) => {
                assert!(e.message.contains("`ask.run`"), "{version}: {e:?}");
            }
            other => panic!("{version}: {other:?}"),
        }
        assert_eq!(client.remaining(), 1, "{version}: nothing was asked");
    }
}

#[tokio::test]
async fn two_confirmations_with_one_message_are_two_questions() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(json!({"confirmed": true})))
            .answer(accept(json!({"confirmed": false})));
        let outcome = client
            .call_tool(Server::new(), "confirm_twice", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome), json!([true, false]), "{version}");
        assert_eq!(outcome.messages(), ["Are you sure?", "Are you sure?"]);
    }
}

#[tokio::test]
async fn a_schema_error_passes_through_the_question_mark_naming_the_field() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version);
        let outcome = client
            .call_tool(Server::new(), "bad_choices", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        assert!(
            outcome.text().contains("`repository`"),
            "{}",
            outcome.text()
        );
        assert!(outcome.asked.is_empty());
    }
}

#[tokio::test]
async fn a_default_retry_policy_for_every_question() {
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.retry = Some(RetryPolicy::default());
        let client = ScriptedClient::new(version)
            .answer(Answer::cancel())
            .answer(accept(json!({"city": "", "nights": 3})))
            .answer(accept(short_trip()));
        let outcome = client.call_tool(server, "plan", json!({})).await.unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(short_trip()), "extras": null}),
            "{version}"
        );
        assert_eq!(outcome.asked.len(), 3, "{version}");
        // Without one, the cancel is the answer.
        let client = ScriptedClient::new(version).answer(Answer::cancel());
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome)["trip"], cancelled());
    }
}

#[tokio::test]
async fn fields_reach_the_client_in_declaration_order() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(accept(extras()));
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        let extras = outcome.asked[1].requested_schema.as_ref().unwrap();
        let keys: Vec<&String> = extras["properties"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["rental_car", "budget"], "{version}");
    }
}
