//! The ask engine without an SDK: a `Port` that answers from a script, on every version.
#![cfg(all(feature = "ask", feature = "derive"))]

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::ask::{Ask, Call, ElicitMode, ElicitationCapability, Outcome, Port, PortFuture};
use elicit_core::ask::{Request, SendError, StateKey};
use elicit_core::{Elicit, ElicitResult, ProtocolVersion, SchemaError};
use serde_json::{Map, Value, json};

/// Where would you like to go?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Trip {
    city: String,
    #[schemars(range(min = 1, max = 30))]
    nights: u8,
}

/// A client that answers live requests from a script and records what it was sent.
#[derive(Clone, Default)]
struct Scripted {
    replies: Arc<Mutex<VecDeque<Value>>>,
    sent: Arc<Mutex<Vec<String>>>,
}

impl Port for Scripted {
    fn carries(&self, _: &Request) -> Result<(), SchemaError> {
        Ok(())
    }

    fn send<'a>(
        &'a self,
        request: &'a Request,
        _: Option<Duration>,
    ) -> PortFuture<'a, Result<Value, SendError>> {
        self.sent.lock().unwrap().push(request.message().to_owned());
        let reply = self.replies.lock().unwrap().pop_front();
        Box::pin(async move { reply.ok_or_else(|| SendError::Transport("no reply left".into())) })
    }

    fn reports_progress(&self) -> bool {
        false
    }

    fn progress(&self, _: f64, _: String) -> PortFuture<'_, ()> {
        Box::pin(async {})
    }
}

fn call(
    version: ProtocolVersion,
    responses: Option<Map<String, Value>>,
    state: Option<String>,
) -> Call {
    let mut call = Call::new("plan");
    call.protocol_version = Some(version.as_str().to_owned());
    call.elicitation = Some(ElicitationCapability::FORM);
    call.input_responses = responses;
    call.request_state = state;
    call
}

async fn plan(ask: &Ask) -> elicit_core::ask::Asked<String> {
    ask.run(async {
        let price = ask.once("price", async { 120u32 }).await?;
        Ok(match ask.form::<Trip>("trip").await? {
            ElicitResult::Accept(trip) => {
                format!("{} nights in {} for {price}", trip.nights, trip.city)
            }
            _ => "no trip".to_owned(),
        })
    })
    .await
}

fn oslo() -> Value {
    json!({"action": "accept", "content": {"city": "Oslo", "nights": 3}})
}

#[tokio::test(flavor = "current_thread")]
async fn one_body_on_every_version_without_an_sdk() {
    let key = StateKey::new(vec![9u8; 32]).unwrap();
    for version in ProtocolVersion::ALL {
        let port = Scripted::default();
        port.replies.lock().unwrap().push_back(oslo());
        let ask = Ask::with_port(call(version, None, None), port.clone(), key.clone());
        assert!(ask.supports(ElicitMode::Form) && !ask.supports(ElicitMode::Url));
        let result = match plan(&ask).await.into_outcome() {
            Outcome::Done(result) => result,
            Outcome::InputRequired(required) => {
                assert!(version.has_input_requests(), "{version}");
                assert!(port.sent.lock().unwrap().is_empty(), "nothing is sent live");
                assert_eq!(required.requests().len(), 1);
                let responses: Map<String, Value> =
                    [("trip".to_owned(), oslo())].into_iter().collect();
                let state = required.request_state().map(str::to_owned);
                let retry =
                    Ask::with_port(call(version, Some(responses), state), port, key.clone());
                match plan(&retry).await.into_outcome() {
                    Outcome::Done(result) => result,
                    other => panic!("{version}: {other:?}"),
                }
            }
            other => panic!("{version}: {other:?}"),
        };
        assert_eq!(result, "3 nights in Oslo for 120", "{version}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_client_without_elicitation_sends_nothing() {
    let key = StateKey::new(vec![9u8; 32]).unwrap();
    for version in ["2025-03-26", "2025-06-18", "2026-07-28"] {
        let mut call = Call::new("plan");
        call.protocol_version = Some(version.to_owned());
        let port = Scripted::default();
        let ask = Ask::with_port(call, port.clone(), key.clone());
        assert!(!ask.supports(ElicitMode::Form), "{version}");
        let asked = plan(&ask).await;
        assert!(asked.interrupt().is_some(), "{version}: {asked:?}");
        assert!(port.sent.lock().unwrap().is_empty());
    }
    // A version nobody knows is refused, never read as the newest.
    let mut call = Call::new("plan");
    call.protocol_version = Some("draft".to_owned());
    let ask = Ask::with_port(call, Scripted::default(), key);
    assert_eq!(ask.protocol_version(), None);
    let asked = plan(&ask).await;
    assert!(
        asked
            .interrupt()
            .is_some_and(|i| i.to_string().contains("\"draft\"")),
        "{asked:?}"
    );
}
