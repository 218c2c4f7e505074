//! A handler written for 2026-07-28 (it reads `inputResponses` and returns `InputRequired`)
//! on every version: on older connections each request is sent live and the handler runs again.

use elicit_core::ProtocolVersion;
use elicit_core::rmcp::test_util::{ScriptedClient, TestError};
use serde_json::json;

use crate::server::*;

#[tokio::test]
async fn a_2026_style_handler_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(short_trip()));
        let outcome = client
            .call_tool(Server::new(), "rounds", json!({}))
            .await
            .unwrap();
        // The handler's own state comes back to it: echoed by the client on 2026-07-28, passed
        // along by the crate before.
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(short_trip()), "state": "handler-state"}),
            "{version}"
        );
        assert_eq!(outcome.messages(), [TRIP], "{version}");
        // The form is written for the connection's version.
        assert_eq!(
            outcome.asked[0].requested_schema,
            Some(schema_for::<Trip>(version))
        );
    }
}

#[tokio::test]
async fn the_round_cap_on_an_old_connection() {
    let mut server = Server::new();
    server.max_rounds = 3;
    let client = ScriptedClient::new(ProtocolVersion::V2025_11_25)
        .answers(std::iter::repeat_n(accept(short_trip()), 20));
    let Err(TestError::Server(e)) = client.call_tool(server, "rounds_endless", json!({})).await
    else {
        panic!("the cap ends the call")
    };
    assert!(e.message.contains("after 3 rounds"), "{e:?}");
    assert_eq!(client.remaining(), 17);

    // On 2026-07-28 the client drives the rounds, and its own cap (10) ends the call.
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28)
        .answers(std::iter::repeat_n(accept(short_trip()), 20));
    let outcome = client
        .call_tool(Server::new(), "rounds_endless", json!({}))
        .await;
    assert!(
        matches!(outcome, Err(TestError::TooManyRounds(10))),
        "{outcome:?}"
    );
    assert_eq!(client.remaining(), 10);
}

#[tokio::test]
async fn a_2026_style_handler_checks_capabilities_too() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .without_elicitation()
            .answer(accept(short_trip()));
        let outcome = client.call_tool(Server::new(), "rounds", json!({})).await;
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
            assert!(outcome.is_error(), "{}", outcome.text());
            assert!(
                outcome.text().contains("does not support"),
                "{}",
                outcome.text()
            );
        }
        assert_eq!(client.remaining(), 1);
    }
}
