//! A handler written for 2026-07-28 (it reads `inputResponses` and returns `InputRequired`)
//! on every version: on older connections each request is sent live and the handler runs again.

use elicit_core::ProtocolVersion;
use serde_json::json;

use crate::harness::*;

#[tokio::test]
async fn a_2026_style_handler_on_every_version() {
    for version in ALL {
        let client = Client::new(version).answers(TRIP, [accept(short_trip())]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        // The handler's own state comes back to it: echoed by the client on 2026-07-28, passed
        // along by the crate before.
        assert_eq!(
            call_json(&c, "rounds").await,
            json!({"trip": accept(short_trip()), "state": "handler-state"}),
            "{version}"
        );
        assert_eq!(seen.messages(), [TRIP], "{version}");
        // The form is written for the connection's version.
        let sent = seen.seen.lock().unwrap();
        let rmcp::model::ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } = &sent[0]
        else {
            panic!()
        };
        let wire = serde_json::to_value(requested_schema).unwrap();
        use elicit_core::Elicit;
        assert_eq!(
            wire,
            serde_json::to_value(Trip::requested_schema_for(version).unwrap()).unwrap()
        );
    }
}

#[tokio::test]
async fn the_round_cap_on_an_old_connection() {
    let mut server = Server::new();
    server.max_rounds = 3;
    let client = Client::new(ProtocolVersion::V2025_11_25)
        .answers(TRIP, std::iter::repeat_n(accept(short_trip()), 20));
    let seen = client.clone();
    let c = connect_to(server, client).await;
    let e = call(&c, "rounds_endless").await.unwrap_err();
    assert!(e.contains("after 3 rounds"), "{e}");
    assert_eq!(seen.messages().len(), 3);

    // On 2026-07-28 the client drives the rounds, and its own cap (10) ends the call.
    let client = Client::new(ProtocolVersion::V2026_07_28)
        .answers(TRIP, std::iter::repeat_n(accept(short_trip()), 20));
    let seen = client.clone();
    let c = connect_to(Server::new(), client).await;
    let e = call(&c, "rounds_endless").await.unwrap_err();
    assert!(e.contains("10"), "{e}");
    assert_eq!(seen.messages().len(), 10);
}

#[tokio::test]
async fn a_2026_style_handler_checks_capabilities_too() {
    for version in ALL {
        let mut client = Client::new(version).answers(TRIP, [accept(short_trip())]);
        client.capabilities = rmcp::model::ClientCapabilities::default();
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        let out = call(&c, "rounds").await;
        if version.has_input_requests() {
            let e = out.unwrap_err();
            assert!(e.contains("-32021") || e.contains("capabilit"), "{e}");
        } else {
            let (text, is_error) = out.unwrap();
            assert!(is_error, "{text}");
            assert!(text.contains("form-mode"), "{text}");
        }
        assert!(seen.seen.lock().unwrap().is_empty());
    }
}
