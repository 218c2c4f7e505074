//! What the engine's tests share: a client that answers from a script, and the bodies and
//! answers they ask with.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::ask::{Ask, Asked, Call, Port};
use elicit_core::ask::{PortFuture, SendError, StateKey};
use elicit_core::client::ElicitationCapability;
use elicit_core::client::Request;
use elicit_core::{Elicit, ElicitResult, ProtocolVersion, SchemaError};
use serde_json::{Map, Value, json};

/// Where would you like to go?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Trip {
    pub city: String,
    #[schemars(range(min = 1, max = 30))]
    pub nights: u8,
}

/// One scripted reply, and how long the person takes to give it.
pub struct Reply {
    pub value: Value,
    pub after: Duration,
}

/// A client that answers live requests from a script and records what it was asked, live or
/// in a round.
#[derive(Clone, Default)]
pub struct Scripted {
    pub replies: Arc<Mutex<VecDeque<Reply>>>,
    pub sent: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    pub fn with(replies: impl IntoIterator<Item = Value>) -> Self {
        let port = Scripted::default();
        for value in replies {
            port.push(value, Duration::ZERO);
        }
        port
    }

    pub fn push(&self, value: Value, after: Duration) {
        self.replies
            .lock()
            .unwrap()
            .push_back(Reply { value, after });
    }

    pub fn next(&self) -> Option<Reply> {
        self.replies.lock().unwrap().pop_front()
    }

    /// The messages of every question the client was shown.
    pub fn shown(&self) -> Vec<String> {
        self.sent.lock().unwrap().clone()
    }
}

impl Port for Scripted {
    fn carries(&self, _: &Request) -> Result<(), SchemaError> {
        Ok(())
    }

    fn send<'a>(
        &'a self,
        request: &'a Request,
        timeout: Option<Duration>,
    ) -> PortFuture<'a, Result<Value, SendError>> {
        self.sent.lock().unwrap().push(request.message().to_owned());
        let reply = self.next();
        Box::pin(async move {
            let reply = reply.ok_or_else(|| SendError::Transport("no reply left".into()))?;
            match timeout {
                Some(timeout) if reply.after > timeout => {
                    tokio::time::sleep(timeout).await;
                    Err(SendError::Timeout(timeout))
                }
                _ => {
                    tokio::time::sleep(reply.after).await;
                    Ok(reply.value)
                }
            }
        })
    }

    fn reports_progress(&self) -> bool {
        false
    }

    fn progress(&self, _: f64, _: String) -> PortFuture<'_, ()> {
        Box::pin(async {})
    }
}

pub fn key() -> StateKey {
    StateKey::new(vec![9u8; 32]).unwrap()
}

pub fn call(
    version: ProtocolVersion,
    responses: Option<Map<String, Value>>,
    state: Option<String>,
) -> Call {
    let mut call = Call::new("plan");
    call.protocol_version = Some(version.as_str().to_owned());
    call.capabilities.elicitation = Some(ElicitationCapability::FORM);
    call.input_responses = responses;
    call.request_state = state;
    call
}

/// Runs `body` on `version` to its end, as a client would: live requests answered by `port`,
/// and on 2026-07-28 each round's requests answered from the same script, in the order of
/// their keys, and the call retried with the state. Returns the result and every retry sent.
pub async fn drive<B>(
    version: ProtocolVersion,
    port: &Scripted,
    first: Call,
    body: B,
) -> (Asked<String>, Vec<Call>)
where
    B: AsyncFn(&Ask) -> Asked<String>,
{
    drive_tuned(version, port, first, |ask| ask, body).await
}

/// [`drive`], each call's `Ask` set up by `tune`.
pub async fn drive_tuned<B>(
    version: ProtocolVersion,
    port: &Scripted,
    first: Call,
    tune: impl Fn(Ask) -> Ask,
    body: B,
) -> (Asked<String>, Vec<Call>)
where
    B: AsyncFn(&Ask) -> Asked<String>,
{
    let mut next = first;
    let mut sent = Vec::new();
    loop {
        sent.push(next.clone());
        let asked = body(&tune(Ask::with_port(next, port.clone()).with_key(key()))).await;
        let Asked::InputRequired(required) = asked else {
            return (asked, sent);
        };
        let mut responses = Map::new();
        for (k, request) in required.requests().entries() {
            port.sent
                .lock()
                .unwrap()
                .push(request["params"]["message"].as_str().unwrap().to_owned());
            let reply = port.next().expect("a scripted reply for every question");
            tokio::time::sleep(reply.after).await;
            responses.insert(k.clone(), reply.value);
        }
        let state = required.request_state().map(str::to_owned);
        next = call(version, Some(responses), state);
    }
}

pub async fn plan(ask: &Ask) -> Asked<String> {
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

pub fn oslo() -> Value {
    json!({"action": "accept", "content": {"city": "Oslo", "nights": 3}})
}

pub fn done(asked: Asked<String>) -> String {
    match asked {
        Asked::Done(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

/// A body that pays once the person confirms, counting the payments.
pub fn pay(paid: &AtomicU32) -> impl AsyncFn(&Ask) -> Asked<String> {
    async move |ask: &Ask| {
        ask.run(async {
            let trip = ask.form::<Trip>("trip").await?;
            let confirmed = ask.confirm("pay", "Pay 120 EUR?").await?;
            if !confirmed.is_confirmed() {
                return Ok("not paid".to_owned());
            }
            paid.fetch_add(1, Ordering::SeqCst);
            Ok(match trip {
                ElicitResult::Accept(trip) => format!("paid for {}", trip.city),
                _ => "paid".to_owned(),
            })
        })
        .await
    }
}

pub fn yes() -> Value {
    json!({"action": "accept", "content": {"confirmed": true}})
}

pub fn decline() -> Value {
    json!({"action": "decline"})
}

pub fn answers(pairs: &[(&str, Value)]) -> Option<Map<String, Value>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

/// Round 1 of `pay` on 2026-07-28, and the final retry that answers it with `yes`.
pub async fn final_retry(key: &StateKey) -> Call {
    let version = ProtocolVersion::V2026_07_28;
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let mut call = call(version, None, None);
    let mut replies = vec![("trip", oslo()), ("pay", yes())].into_iter();
    loop {
        let asked =
            body(&Ask::with_port(call.clone(), Scripted::default()).with_key(key.clone())).await;
        let Asked::InputRequired(required) = asked else {
            panic!("{asked:?}")
        };
        let (name, answer) = replies.next().unwrap();
        let retry = self::call(
            version,
            answers(&[(name, answer)]),
            required.request_state().map(str::to_owned),
        );
        if name == "pay" {
            return retry;
        }
        call = retry;
    }
}
