//! The `tracing` feature: one event per question, with its key, form, version, round, mode,
//! source and outcome, and never a value or the state.

use std::sync::{Arc, Mutex};

use elicit_core::ProtocolVersion;
use elicit_core::test_util::{Answer, ScriptedClient};
use serde_json::json;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

use crate::server::*;

/// One event's fields in order, as `(name, value)`.
type Recorded = Vec<(String, String)>;

/// Each event of target `elicit_core::ask`.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<Recorded>>>);

struct Fields(Recorded);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        self.0.push((field.name().to_owned(), format!("{value:?}")));
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        self.0.push((field.name().to_owned(), value.to_owned()));
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        if event.metadata().target() == "elicit_core::ask" {
            let mut fields = Fields(Vec::new());
            event.record(&mut fields);
            self.0.lock().unwrap().push(fields.0);
        }
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

impl Capture {
    fn events(&self) -> Vec<Recorded> {
        self.0.lock().unwrap().clone()
    }

    fn field(event: &[(String, String)], name: &str) -> String {
        event
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    /// `(key, outcome)` of each event.
    fn outcomes(&self) -> Vec<(String, String)> {
        self.events()
            .iter()
            .map(|e| (Self::field(e, "key"), Self::field(e, "outcome")))
            .collect()
    }
}

async fn traced(
    client: ScriptedClient,
    tool: &str,
    arguments: serde_json::Value,
) -> (Capture, Vec<String>) {
    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.clone());
    let outcome = client.call_tool(Server::new(), tool, arguments).await;
    let states = outcome.map(|o| o.request_states).unwrap_or_default();
    (capture, states)
}

#[tokio::test]
async fn one_event_per_question_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(Answer::decline());
        let (capture, states) = traced(client, "plan", json!({})).await;
        assert_eq!(
            capture.outcomes(),
            [
                ("trip".into(), "accepted".into()),
                ("extras".into(), "declined".into())
            ],
            "{version}: once each, though on 2026-07-28 the body ran three times"
        );
        let events = capture.events();
        let first = &events[0];
        assert_eq!(Capture::field(first, "form"), std::any::type_name::<Trip>());
        assert_eq!(Capture::field(first, "version"), version.as_str());
        assert_eq!(Capture::field(first, "mode"), "form");
        assert_eq!(Capture::field(first, "source"), "person");
        // The round each answer belongs to, the same on every version.
        let rounds: Vec<String> = events.iter().map(|e| Capture::field(e, "round")).collect();
        assert_eq!(rounds, ["1", "2"], "{version}");
        // No value, and no state.
        let all: String = events
            .iter()
            .flatten()
            .map(|(n, v)| format!("{n}={v} "))
            .collect();
        for secret in ["Kyoto", "9"].iter().map(|s| s.to_string()).chain(states) {
            assert!(!all.contains(&secret), "{version}: {secret:?} in {all}");
        }
    }
}

#[tokio::test]
async fn invalid_answers_arguments_and_unavailable_questions() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(json!({"city": "", "nights": 31})));
        let (capture, _) = traced(client, "plan", json!({})).await;
        assert_eq!(
            capture.outcomes(),
            [("trip".into(), "invalid".into())],
            "{version}"
        );
        let events = capture.events();
        assert_eq!(
            Capture::field(&events[0], "rules"),
            "minLength,maximum",
            "{version}"
        );

        let bare = ScriptedClient::new(version).without_elicitation();
        let (capture, _) = traced(bare.clone(), "plan_args", json!({"trip": long_trip()})).await;
        assert_eq!(
            capture.outcomes(),
            [
                ("trip".into(), "from_arguments".into()),
                ("extras".into(), "unavailable".into())
            ],
            "{version}"
        );
        let events = capture.events();
        assert_eq!(Capture::field(&events[0], "source"), "arguments");
        let all: String = events.iter().flatten().map(|(_, v)| v.clone()).collect();
        assert!(!all.contains("Kyoto"), "{version}: {all}");

        let client = ScriptedClient::new(version).answer(accept(json!({"size": "m"})));
        let (capture, _) = traced(client, "sized", json!({})).await;
        let forms: Vec<String> = capture
            .0
            .lock()
            .unwrap()
            .iter()
            .map(|e| Capture::field(e, "form"))
            .collect();
        assert_eq!(forms, ["runtime"], "{version}");
    }
}

/// A retry whose state this process cannot open for want of its key tells the operator what
/// to install, and never the state.
#[tokio::test]
async fn a_state_under_an_unknown_key_tells_the_operator_to_share_one() {
    use rmcp::model::{CallToolRequestParams, CallToolResponse};

    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let first = client
        .call_tool_once(Server::new(), CallToolRequestParams::new("plan"))
        .await
        .unwrap();
    let CallToolResponse::InputRequired(first) = first else {
        panic!("round 1 asks: {first:?}")
    };
    let state = first.request_state.clone().unwrap();
    let mut retry = CallToolRequestParams::new("plan");
    retry.input_responses =
        Some(serde_json::from_value(json!({"trip": accept(long_trip()).reply()})).unwrap());
    retry.request_state = first.request_state;
    let capture = Capture::default();
    let started_over = {
        let _guard = tracing::subscriber::set_default(capture.clone());
        client.call_tool_once(Server::new(), retry).await
    };
    assert!(
        matches!(started_over, Ok(CallToolResponse::InputRequired(_))),
        "{started_over:?}"
    );
    let events = capture.events();
    assert_eq!(events.len(), 1, "{events:?}");
    let message = Capture::field(&events[0], "message");
    for words in [
        "asked again",
        "does not hold",
        "install one StateKey made from one shared secret on every replica",
    ] {
        assert!(message.contains(words), "{words}: {message}");
    }
    assert!(!message.contains(&state), "{message}");
}
