//! The `tracing` feature: one event per question, with its key, form, version, round, mode,
//! source and outcome, and never a value or the state.

use std::sync::{Arc, Mutex};

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ScriptedClient};
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

/// A store that lets a finished round go to make room, and an ending that came after another
/// took its round over, each tell the operator: neither is dropped in silence.
#[tokio::test]
async fn a_round_let_go_and_an_ending_not_kept_are_traced() {
    use std::time::{Duration, SystemTime};

    use elicit_core::ask::{
        Claim, MemoryStore, PortFuture, Round, RoundStore, StateKey, StoreError,
    };

    let capture = Capture::default();
    let _guard = tracing::subscriber::set_default(capture.clone());

    // A store of room for one, which a second finished round takes.
    let store = MemoryStore::new().with_cap(1);
    let generation = store.generation().await.unwrap();
    let expires = SystemTime::now() + Duration::from_secs(60);
    for call in ["one", "two"] {
        let round = Round::new(call, 1, "yes", "me", generation.as_str(), expires);
        store.begin(&round).await.unwrap();
        assert_eq!(
            store.claim(&round, Duration::from_secs(5)).await,
            Ok(Claim::First)
        );
        assert_eq!(store.record(&round, "sealed").await, Ok(true));
    }
    let events = capture.events();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(
        Capture::field(&events[0], "message").contains("let go"),
        "{events:?}"
    );

    /// A store whose every claim is taken over before its ending is recorded.
    #[derive(Clone, Default)]
    struct TakenOver(MemoryStore);
    impl RoundStore for TakenOver {
        fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
            self.0.generation()
        }
        fn begin<'a>(&'a self, r: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
            self.0.begin(r)
        }
        fn claim<'a>(
            &'a self,
            r: &'a Round,
            l: Duration,
        ) -> PortFuture<'a, Result<Claim, StoreError>> {
            self.0.claim(r, l)
        }
        fn renew<'a>(
            &'a self,
            r: &'a Round,
            l: Duration,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            self.0.renew(r, l)
        }
        fn record<'a>(
            &'a self,
            _: &'a Round,
            _: &'a str,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            Box::pin(async { Ok(false) })
        }
        fn release<'a>(&'a self, r: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
            self.0.release(r)
        }
    }
    let server = Server {
        key: StateKey::random().unwrap().with_store(TakenOver::default()),
        ..Server::new()
    };
    let client =
        ScriptedClient::new(ProtocolVersion::V2026_07_28).answer(Answer::accept(short_trip()));
    client.call_tool(server, "plan", json!({})).await.unwrap();
    let late: Vec<_> = capture
        .events()
        .into_iter()
        .map(|e| Capture::field(&e, "message"))
        .filter(|m| m.contains("was not kept"))
        .collect();
    assert_eq!(late.len(), 1, "the final round's ending: {late:?}");
}

#[tokio::test]
async fn a_default_its_rules_refuse_is_traced_and_never_sent() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(json!({"count": 3})));
        let capture = Capture::default();
        let _guard = tracing::subscriber::set_default(capture.clone());
        // The kit fails a call whose form sends such a default: this one passes.
        let outcome = client
            .call_tool(Server::new(), "defaulted", json!({}))
            .await
            .unwrap();
        let sent = outcome.asked[0].requested_schema.as_ref().unwrap();
        assert_eq!(
            sent["properties"]["count"].get("default"),
            None,
            "{version}"
        );
        let linted: Vec<Recorded> = (capture.events().into_iter())
            .filter(|e| Capture::field(e, "lint").contains("`default` 0"))
            .collect();
        assert!(!linted.is_empty(), "{version}");
        assert_eq!(Capture::field(&linted[0], "key"), "count");
    }
}
