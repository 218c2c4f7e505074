//! Run-time choices (`Ask::form_with`), confirmations (`Ask::confirm`) and run-time schemas
//! (`Ask::schema`), one body on every version.

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ScriptedClient, TestError};
use serde_json::json;

use crate::server::*;

#[tokio::test]
async fn run_time_choices_and_a_confirmation_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(json!({"repo": "web", "branch": "main"})))
            .answer(accept(json!({"confirmed": true})));
        let outcome = client
            .call_tool(Server::new(), "pick", json!({"repos": ["api", "web"]}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"pick": accepted(json!({"repo": "web", "branch": "main"})), "open": true}),
            "{version}"
        );
        // The schema sent holds this call's choices, and the confirmation is one boolean.
        let sent = outcome.asked[0].requested_schema.as_ref().unwrap();
        assert_eq!(
            sent["properties"]["repo"]["enum"],
            json!(["api", "web"]),
            "{version}"
        );
        let confirm = outcome.asked[1].requested_schema.as_ref().unwrap();
        assert_eq!(confirm["properties"]["confirmed"]["type"], "boolean");
        assert_eq!(confirm["required"], json!(["confirmed"]));
        assert_eq!(outcome.asked[1].message, OPEN);
    }
}

#[tokio::test]
async fn a_choice_of_another_call_is_refused_on_every_version() {
    for version in ProtocolVersion::ALL {
        // "cli" was valid for another call; this call offers api and web only.
        let client =
            ScriptedClient::new(version).answer(accept(json!({"repo": "cli", "branch": "main"})));
        let outcome = client
            .call_tool(Server::new(), "pick", json!({"repos": ["api", "web"]}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}: {}", outcome.text());
        assert!(
            outcome.text().contains("repo"),
            "{version}: {}",
            outcome.text()
        );
    }
}

#[tokio::test]
async fn an_unchecked_box_is_not_a_confirmation() {
    for version in ProtocolVersion::ALL {
        for second in [accept(json!({"confirmed": false})), Answer::decline()] {
            let client = ScriptedClient::new(version)
                .answer(accept(json!({"repo": "api", "branch": "x"})))
                .answer(second);
            let outcome = client
                .call_tool(Server::new(), "pick", json!({"repos": ["api"]}))
                .await
                .unwrap();
            assert_eq!(json_of(&outcome)["open"], false, "{version}");
        }
    }
}

#[tokio::test]
async fn choices_the_form_cannot_take_end_the_call_before_anything_is_sent() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version);
        let outcome = client
            .call_tool(Server::new(), "pick", json!({"repos": []}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{}", outcome.text());
        assert!(
            outcome.text().contains("at least one choice"),
            "{}",
            outcome.text()
        );
        assert!(outcome.asked.is_empty());
    }
}

#[tokio::test]
async fn a_run_time_schema_is_answered_as_content_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(json!({"size": "m", "count": 3})))
            .answer(accept(json!({"size": "xl"})));
        let outcome = client
            .call_tool(Server::new(), "sized", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome)["size"],
            accepted(json!({"size": "m", "count": 3})),
            "{version}"
        );
        let outcome = client
            .call_tool(Server::new(), "sized", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}: {}", outcome.text());
        assert!(outcome.text().contains("size"), "{}", outcome.text());
        // The one client's script served both calls, in order.
        assert_eq!(client.remaining(), 0);
        assert!(matches!(
            client.call_tool(Server::new(), "sized", json!({})).await,
            Err(TestError::NoAnswer { .. })
        ));
    }
}

#[tokio::test]
async fn a_rule_rmcp_cannot_send_ends_the_call_on_every_version() {
    for version in ProtocolVersion::ALL {
        for tool in ["patterned"] {
            let client = ScriptedClient::new(version).answer(accept(json!({"zip": "x"})));
            let outcome = client
                .call_tool(Server::new(), tool, json!({}))
                .await
                .unwrap();
            // Sending the form without its pattern would drop a rule the reply is held to.
            assert!(
                outcome.asked.is_empty(),
                "{version} {tool}: {:?}",
                outcome.asked
            );
            assert!(outcome.is_error(), "{version} {tool}: {}", outcome.text());
            assert!(
                outcome.text().contains("has `pattern`"),
                "{version} {tool}: {}",
                outcome.text()
            );
        }
    }
}
