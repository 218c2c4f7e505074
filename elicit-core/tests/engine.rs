//! The ask engine without an SDK: a `Port` that answers from a script, on every version.
#![cfg(all(feature = "ask", feature = "derive"))]

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::ask::AnswerSource;
use elicit_core::ask::{Ask, Asked, Call, Interrupt, Port};
use elicit_core::ask::{PortFuture, SendError, StateKey};
use elicit_core::client::Request;
use elicit_core::client::{Capability, ElicitationCapability};
use elicit_core::{Elicit, ElicitResult, ProtocolVersion, SchemaError};
use serde_json::{Map, Value, json};

/// Where would you like to go?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Trip {
    city: String,
    #[schemars(range(min = 1, max = 30))]
    nights: u8,
}

/// One scripted reply, and how long the person takes to give it.
struct Reply {
    value: Value,
    after: Duration,
}

/// A client that answers live requests from a script and records what it was asked, live or
/// in a round.
#[derive(Clone, Default)]
struct Scripted {
    replies: Arc<Mutex<VecDeque<Reply>>>,
    sent: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    fn with(replies: impl IntoIterator<Item = Value>) -> Self {
        let port = Scripted::default();
        for value in replies {
            port.push(value, Duration::ZERO);
        }
        port
    }

    fn push(&self, value: Value, after: Duration) {
        self.replies
            .lock()
            .unwrap()
            .push_back(Reply { value, after });
    }

    fn next(&self) -> Option<Reply> {
        self.replies.lock().unwrap().pop_front()
    }

    /// The messages of every question the client was shown.
    fn shown(&self) -> Vec<String> {
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

fn key() -> StateKey {
    StateKey::new(vec![9u8; 32]).unwrap()
}

fn call(
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
async fn drive<B>(
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
async fn drive_tuned<B>(
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

async fn plan(ask: &Ask) -> Asked<String> {
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

fn done(asked: Asked<String>) -> String {
    match asked {
        Asked::Done(result) => result,
        other => panic!("expected a result, got {other:?}"),
    }
}

#[tokio::test(flavor = "current_thread")]
async fn one_body_on_every_version_without_an_sdk() {
    for version in ProtocolVersion::ALL {
        let port = Scripted::with([oslo()]);
        let ask = Ask::with_port(call(version, None, None), port.clone()).with_key(key());
        assert!(ask.supports(Capability::Form) && !ask.supports(Capability::Url));
        let result = match plan(&ask).await {
            Asked::Done(result) => result,
            Asked::InputRequired(required) => {
                assert!(version.has_input_requests(), "{version}");
                assert!(port.shown().is_empty(), "nothing is sent live");
                assert_eq!(required.requests().len(), 1);
                let responses: Map<String, Value> =
                    [("trip".to_owned(), oslo())].into_iter().collect();
                let state = required.request_state().map(str::to_owned);
                let retry =
                    Ask::with_port(call(version, Some(responses), state), port).with_key(key());
                done(plan(&retry).await)
            }
            other => panic!("{version}: {other:?}"),
        };
        assert_eq!(result, "3 nights in Oslo for 120", "{version}");
    }
}

#[tokio::test(flavor = "current_thread")]
async fn a_client_without_elicitation_sends_nothing() {
    for version in ["2025-03-26", "2025-06-18", "2026-07-28"] {
        let mut call = Call::new("plan");
        call.protocol_version = Some(version.to_owned());
        let port = Scripted::default();
        let ask = Ask::with_port(call, port.clone()).with_key(key());
        assert!(!ask.supports(Capability::Form), "{version}");
        let asked = plan(&ask).await;
        assert!(matches!(asked, Asked::Stopped(_)), "{version}: {asked:?}");
        assert!(port.shown().is_empty());
    }
    // A version nobody knows is refused, never read as the newest.
    let mut call = Call::new("plan");
    call.protocol_version = Some("draft".to_owned());
    let ask = Ask::with_port(call, Scripted::default()).with_key(key());
    assert_eq!(ask.protocol_version(), None);
    let asked = plan(&ask).await;
    assert!(
        matches!(&asked, Asked::Stopped(i) if i.to_string().contains("\"draft\"")),
        "{asked:?}"
    );
}

/// A body that pays once the person confirms, counting the payments.
fn pay(paid: &AtomicU32) -> impl AsyncFn(&Ask) -> Asked<String> {
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

fn yes() -> Value {
    json!({"action": "accept", "content": {"confirmed": true}})
}

fn decline() -> Value {
    json!({"action": "decline"})
}

fn answers(pairs: &[(&str, Value)]) -> Option<Map<String, Value>> {
    Some(
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect(),
    )
}

/// Answers that nobody was asked for are no answers: a first call that carries them, with no
/// state, asks its questions as any first call does, on every version (before 2026-07-28
/// `inputResponses` are not part of the protocol at all).
#[tokio::test(flavor = "current_thread")]
async fn a_first_call_that_carries_an_unasked_yes_is_asked() {
    for version in ProtocolVersion::ALL {
        let paid = AtomicU32::new(0);
        let port = Scripted::with([oslo(), decline()]);
        let carried = answers(&[("trip", oslo()), ("pay", yes())]);
        let (asked, _) = drive(version, &port, call(version, carried, None), pay(&paid)).await;
        assert_eq!(done(asked), "not paid", "{version}");
        assert_eq!(paid.load(Ordering::SeqCst), 0, "{version}");
        assert_eq!(
            port.shown(),
            ["Where would you like to go?", "Pay 120 EUR?"],
            "{version}: both questions were shown"
        );
    }
}

/// The final retry of a call, sent again without its state, is a first call: its questions
/// are asked again, and what the body does after the confirmation happens once.
#[tokio::test(flavor = "current_thread")]
async fn a_final_retry_resent_without_its_state_is_asked_again() {
    for version in ProtocolVersion::ALL {
        let paid = AtomicU32::new(0);
        let port = Scripted::with([oslo(), yes()]);
        let (asked, sent) = drive(version, &port, call(version, None, None), pay(&paid)).await;
        assert_eq!(done(asked), "paid for Oslo", "{version}");
        assert_eq!(paid.load(Ordering::SeqCst), 1);
        // The last request sent, with every answer it carried, but no state; on 2025-era
        // versions, the one call with the final round's answers added.
        let mut replay = sent.last().unwrap().clone();
        replay.input_responses = answers(&[("trip", oslo()), ("pay", yes())]);
        replay.request_state = None;
        port.push(oslo(), Duration::ZERO);
        port.push(decline(), Duration::ZERO);
        let (asked, _) = drive(version, &port, replay, pay(&paid)).await;
        assert_eq!(done(asked), "not paid", "{version}");
        assert_eq!(paid.load(Ordering::SeqCst), 1, "{version}: paid once");
        assert_eq!(port.shown().len(), 4, "{version}: asked again");
    }
}

/// On 2026-07-28, an answer under a key the sealed round did not ask for is no answer.
#[tokio::test(flavor = "current_thread")]
async fn answers_count_only_for_the_questions_the_state_asked() {
    let version = ProtocolVersion::V2026_07_28;
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let ask = Ask::with_port(call(version, None, None), Scripted::default()).with_key(key());
    let Asked::InputRequired(first) = body(&ask).await else {
        panic!("round 1 asks for the trip");
    };
    // The trip, and a yes to the confirmation the round has not asked yet.
    let retry = call(
        version,
        answers(&[("trip", oslo()), ("pay", yes())]),
        first.request_state().map(str::to_owned),
    );
    let Asked::InputRequired(second) =
        body(&Ask::with_port(retry, Scripted::default()).with_key(key())).await
    else {
        panic!("round 2 asks for the confirmation");
    };
    let asked: Vec<&String> = second.requests().entries().keys().collect();
    assert_eq!(asked, ["pay"]);
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

/// What the body shows per attempt: each await of `name` is a question of its own.
async fn reask(ask: &Ask) -> Asked<String> {
    ask.run(async {
        let mut trip = ask.form::<Trip>("trip").await?;
        if let ElicitResult::Cancel = trip {
            trip = ask
                .form::<Trip>("trip")
                .message("Once more: where would you like to go?")
                .await?;
        }
        Ok(match trip {
            ElicitResult::Accept(trip) => format!("{} nights in {}", trip.nights, trip.city),
            ElicitResult::Decline => "declined".to_owned(),
            ElicitResult::Cancel => "cancelled twice".to_owned(),
        })
    })
    .await
}

fn cancel() -> Value {
    json!({"action": "cancel"})
}

/// The same re-ask, with the same question both times.
async fn reask_the_same(ask: &Ask) -> Asked<String> {
    ask.run(async {
        let mut trip = ask.form::<Trip>("trip").await?;
        if let ElicitResult::Cancel = trip {
            trip = ask.form::<Trip>("trip").await?;
        }
        Ok(format!("{:?}", trip.action()))
    })
    .await
}

/// A re-ask written by hand asks again after a cancel, and reads the second answer, whether
/// it asks the same question or words it anew.
#[tokio::test(flavor = "current_thread")]
async fn a_hand_written_reask_after_a_cancel_asks_again() {
    let rounds = |version: ProtocolVersion| if version.has_input_requests() { 3 } else { 1 };
    for version in ProtocolVersion::ALL {
        let port = Scripted::with([cancel(), oslo()]);
        let (asked, sent) = drive(version, &port, call(version, None, None), reask).await;
        assert_eq!(done(asked), "3 nights in Oslo", "{version}");
        assert_eq!(
            port.shown(),
            [
                "Where would you like to go?",
                "Once more: where would you like to go?"
            ],
            "{version}"
        );
        assert_eq!(sent.len(), rounds(version), "{version}");

        let port = Scripted::with([cancel(), oslo()]);
        let first = call(version, None, None);
        let (asked, sent) = drive(version, &port, first, reask_the_same).await;
        assert_eq!(done(asked), "Accept", "{version}");
        assert_eq!(port.shown().len(), 2, "{version}");
        assert_eq!(sent.len(), rounds(version), "{version}");
    }
}

/// By default a cancel is asked once more; a question whose policy says no takes the cancel
/// as final.
#[tokio::test(flavor = "current_thread")]
async fn a_cancel_is_asked_again_only_where_the_policy_says_so() {
    use elicit_core::ask::RetryPolicy;

    for version in ProtocolVersion::ALL {
        for (retry, shown, action) in [(true, 2, "Accept"), (false, 1, "Cancel")] {
            let port = Scripted::with([cancel(), oslo()]);
            let policy = RetryPolicy::default().with_cancel_retry(retry);
            let body = async move |ask: &Ask| {
                ask.run(async {
                    let trip = ask.form::<Trip>("trip").retrying(policy).await?;
                    Ok(format!("{:?}", trip.action()))
                })
                .await
            };
            let (asked, _) = drive(version, &port, call(version, None, None), body).await;
            assert_eq!(done(asked), action, "{version}, retry {retry}");
            assert_eq!(port.shown().len(), shown, "{version}, retry {retry}");
        }
    }
}

/// After a decline, awaiting the key again asks nothing: a decline is a hard stop.
#[tokio::test(flavor = "current_thread")]
async fn a_reask_after_a_decline_returns_the_decline() {
    async fn twice(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let first = ask.form::<Trip>("trip").await?;
            let second = ask.form::<Trip>("trip").await?;
            let confirmed = ask.confirm("trip", "Really no trip?").await?;
            Ok(format!(
                "{:?} {:?} {:?}",
                first.action(),
                second.action(),
                confirmed.reason()
            ))
        })
        .await
    }
    for version in ProtocolVersion::ALL {
        let port = Scripted::with([decline()]);
        let (asked, sent) = drive(version, &port, call(version, None, None), twice).await;
        assert_eq!(done(asked), "Decline Decline Some(Declined)", "{version}");
        assert_eq!(port.shown(), ["Where would you like to go?"], "{version}");
        let rounds = if version.has_input_requests() { 2 } else { 1 };
        assert_eq!(sent.len(), rounds, "{version}");
    }
}

/// One `all` asks each key once: a key given twice stops the call, on every version.
#[tokio::test(flavor = "current_thread")]
async fn one_key_twice_in_one_batch_stops_the_call() {
    async fn batch(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let (a, b) = ask
                .all((ask.form::<Trip>("trip"), ask.form::<Trip>("trip")))
                .await?;
            Ok(format!("{:?} {:?}", a.action(), b.action()))
        })
        .await
    }
    for version in ProtocolVersion::ALL {
        let port = Scripted::with([oslo(), oslo()]);
        let (asked, _) = drive(version, &port, call(version, None, None), batch).await;
        assert!(
            matches!(&asked, Asked::Stopped(Interrupt::KeyReused { key }) if key == "trip"),
            "{version}: {asked:?}"
        );
    }
}

/// An answer that comes after the question's deadline is a cancel that timed out: live, where
/// the request is given up, and in rounds, measured from the round's result to the retry.
#[tokio::test(flavor = "current_thread")]
async fn a_late_answer_is_a_timed_out_cancel_on_every_version() {
    async fn hurried(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let (trip, attempt) = ask
                .with_attempt(
                    ask.form::<Trip>("trip")
                        .deadline(Duration::from_millis(200)),
                )
                .await?;
            let timed_out = attempt.source == AnswerSource::TimedOut;
            Ok(format!("{:?} timed out: {timed_out}", trip.action()))
        })
        .await
    }
    for version in ProtocolVersion::ALL {
        let port = Scripted::default();
        port.push(oslo(), Duration::from_millis(600));
        let (asked, _) = drive(version, &port, call(version, None, None), hurried).await;
        assert_eq!(done(asked), "Cancel timed out: true", "{version}");
        // In time, the answer counts.
        let port = Scripted::with([oslo()]);
        let (asked, _) = drive(version, &port, call(version, None, None), hurried).await;
        assert_eq!(done(asked), "Accept timed out: false", "{version}");
    }
}

/// A question that accepts an unasked answer reads one a first call carries on 2026-07-28,
/// saying where it came from; one that does not asks. Before 2026-07-28 `inputResponses` are
/// not part of the protocol, and the question is asked live either way.
#[tokio::test(flavor = "current_thread")]
async fn only_a_question_that_accepts_one_reads_an_unasked_answer() {
    async fn early(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let (trip, attempt) = ask
                .with_attempt(ask.form::<Trip>("trip").accepting_unasked())
                .await?;
            Ok(format!("{:?} from {:?}", trip.action(), attempt.source))
        })
        .await
    }
    async fn strict(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let (trip, attempt) = ask.with_attempt(ask.form::<Trip>("trip")).await?;
            Ok(format!("{:?} from {:?}", trip.action(), attempt.source))
        })
        .await
    }
    for version in ProtocolVersion::ALL {
        let carried = || call(version, answers(&[("trip", oslo())]), None);
        let port = Scripted::with([decline()]);
        let (asked, sent) = drive(version, &port, carried(), early).await;
        if version.has_input_requests() {
            assert_eq!(done(asked), "Accept from Unasked");
            assert_eq!(sent.len(), 1);
            assert!(port.shown().is_empty());
        } else {
            assert_eq!(done(asked), "Decline from Person", "{version}");
            assert_eq!(port.shown().len(), 1, "{version}");
        }
        let port = Scripted::with([decline()]);
        let (asked, _) = drive(version, &port, carried(), strict).await;
        assert_eq!(done(asked), "Decline from Person", "{version}");
        assert_eq!(port.shown().len(), 1, "{version}");
    }
}

/// Round 1 of `pay` on 2026-07-28, and the final retry that answers it with `yes`.
async fn final_retry(key: &StateKey) -> Call {
    let version = ProtocolVersion::V2026_07_28;
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let mut call = call(version, None, None);
    let mut answers = vec![("trip", oslo()), ("pay", yes())].into_iter();
    loop {
        let asked =
            body(&Ask::with_port(call.clone(), Scripted::default()).with_key(key.clone())).await;
        let Asked::InputRequired(required) = asked else {
            panic!("{asked:?}")
        };
        let (name, answer) = answers.next().unwrap();
        let retry = crate::call(
            version,
            answers_of(&[(name, answer)]),
            required.request_state().map(str::to_owned),
        );
        if name == "pay" {
            return retry;
        }
        call = retry;
    }
}

fn answers_of(pairs: &[(&str, Value)]) -> Option<Map<String, Value>> {
    answers(pairs)
}

/// A key's store runs each round once: the final retry sent twice at once, or again later,
/// runs the body once, and every copy gets the same result.
#[tokio::test(flavor = "current_thread")]
async fn the_same_final_retry_runs_once_however_often_it_is_sent() {
    let key = key();
    let retry = final_retry(&key).await;
    let paid = AtomicU32::new(0);
    let slow = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let yes = ask.confirm("pay", "Pay 120 EUR?").await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            paid.fetch_add(u32::from(yes.is_confirmed()), Ordering::SeqCst);
            Ok(format!("paid {}", paid.load(Ordering::SeqCst)))
        })
        .await
    };
    let a = Ask::with_port(retry.clone(), Scripted::default()).with_key(key.clone());
    let b = Ask::with_port(retry.clone(), Scripted::default()).with_key(key.clone());
    let (a, b) = tokio::join!(slow(&a), slow(&b));
    let (a, b) = (done(a), done(b));
    assert_eq!(a, "paid 1");
    assert_eq!(a, b);
    let later = Ask::with_port(retry, Scripted::default()).with_key(key);
    assert_eq!(done(slow(&later).await), "paid 1");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A round that ends in a fault of the server, or whose body panics, is released: the
/// client's retry runs it.
#[tokio::test(flavor = "current_thread")]
async fn a_fault_or_a_panic_releases_the_round() {
    let key = key();
    let retry = final_retry(&key).await;
    let runs = Arc::new(AtomicU32::new(0));
    let failing = |fail: &'static str| {
        let runs = Arc::clone(&runs);
        async move |ask: &Ask| {
            ask.run(async {
                let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
                runs.fetch_add(1, Ordering::SeqCst);
                match fail {
                    "fault" => Err(Interrupt::Error(elicit_core::RpcError::internal("down"))),
                    "panic" => panic!("the body panicked"),
                    _ => Ok("paid".to_owned()),
                }
            })
            .await
        }
    };
    let ask = Ask::with_port(retry.clone(), Scripted::default()).with_key(key.clone());
    let fault = failing("fault")(&ask).await;
    assert!(
        matches!(fault, Asked::Stopped(Interrupt::Error(_))),
        "{fault:?}"
    );
    let (retry_, key_) = (retry.clone(), key.clone());
    let run = failing("panic");
    let panicked = tokio::spawn(async move {
        let ask = Ask::with_port(retry_, Scripted::default()).with_key(key_);
        run(&ask).await
    })
    .await;
    assert!(panicked.is_err(), "the body panicked");
    // The release runs on the runtime; the next retry finds the round free, or waits for it.
    let ask = Ask::with_port(retry, Scripted::default()).with_key(key);
    assert_eq!(done(failing("ok")(&ask).await), "paid");
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

/// A store that cannot be reached fails the retry closed: a -32603 that says so, and no body
/// runs.
#[tokio::test(flavor = "current_thread")]
async fn an_unreachable_store_fails_closed() {
    use elicit_core::ask::{Claim, Round, RoundStore, StoreError};

    struct Down;
    impl RoundStore for Down {
        async fn claim(&self, _: &Round, _: Duration) -> Result<Claim, StoreError> {
            Err(StoreError("connection refused".into()))
        }
        async fn record(&self, _: &Round, _: &Value) -> Result<(), StoreError> {
            Err(StoreError("connection refused".into()))
        }
        async fn release(&self, _: &Round) -> Result<(), StoreError> {
            Err(StoreError("connection refused".into()))
        }
    }
    // The rounds before run on a process whose store works; the last reaches one whose store
    // is down.
    let retry = final_retry(&key()).await;
    let key = key().with_store(Down);
    let paid = AtomicU32::new(0);
    let asked = pay(&paid)(&Ask::with_port(retry, Scripted::default()).with_key(key)).await;
    let Asked::Stopped(stop) = asked else {
        panic!("{asked:?}")
    };
    let elicit_core::ask::Ending::Rpc(error) = stop.ending() else {
        panic!("{stop:?}")
    };
    assert_eq!(error.code, -32603);
    assert!(
        error.message.contains("the state store is unavailable"),
        "{error:?}"
    );
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

#[cfg(feature = "redis")]
#[path = "support/redis_server.rs"]
mod redis_server;

/// Two processes that share one secret and one Redis: a final retry whose response was lost is
/// sent again, to both at once and to each later, and the body runs once, every copy getting
/// the same result.
#[cfg(feature = "redis")]
#[tokio::test(flavor = "current_thread")]
async fn on_redis_a_lost_response_is_retried_and_gets_the_same_result() {
    use elicit_core::redis::RedisStore;

    let Some(redis) = redis_server::TestRedis::shared("on_redis_a_lost_response") else {
        return;
    };
    let process = || key().with_store(RedisStore::open(&redis.url, "elicit-engine:").unwrap());
    let (a, b) = (process(), process());
    let retry = final_retry(&a).await;
    let paid = AtomicU32::new(0);
    let slow = async |ask: &Ask| {
        ask.run(async {
            let yes = ask.confirm("pay", "Pay 120 EUR?").await?;
            tokio::time::sleep(Duration::from_millis(200)).await;
            paid.fetch_add(u32::from(yes.is_confirmed()), Ordering::SeqCst);
            Ok(format!("paid {}", paid.load(Ordering::SeqCst)))
        })
        .await
    };
    let on_a = Ask::with_port(retry.clone(), Scripted::default()).with_key(a.clone());
    let on_b = Ask::with_port(retry.clone(), Scripted::default()).with_key(b.clone());
    let (first, second) = tokio::join!(slow(&on_a), slow(&on_b));
    let (first, second) = (done(first), done(second));
    assert_eq!(first, "paid 1");
    assert_eq!(first, second);
    for key in [a, b] {
        let later = Ask::with_port(retry.clone(), Scripted::default()).with_key(key);
        assert_eq!(done(slow(&later).await), "paid 1");
    }
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A retry whose round is still running elsewhere waits for its response, then ends with an
/// "in progress" error the client may retry, and runs nothing.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_round_still_running_elsewhere_ends_in_progress() {
    use elicit_core::ask::{Claim, Round, RoundStore, StoreError};

    /// A store whose every round runs elsewhere, for ever.
    struct Busy;
    impl RoundStore for Busy {
        async fn claim(&self, _: &Round, _: Duration) -> Result<Claim, StoreError> {
            Ok(Claim::Running)
        }
        async fn record(&self, _: &Round, _: &Value) -> Result<(), StoreError> {
            Ok(())
        }
        async fn release(&self, _: &Round) -> Result<(), StoreError> {
            Ok(())
        }
    }
    let retry = final_retry(&key()).await;
    let paid = AtomicU32::new(0);
    let started = tokio::time::Instant::now();
    let asked =
        pay(&paid)(&Ask::with_port(retry, Scripted::default()).with_key(key().with_store(Busy)))
            .await;
    assert!(
        started.elapsed() >= StateKey::CLAIM_WAIT,
        "it waited for the response"
    );
    let Asked::Stopped(stop) = asked else {
        panic!("{asked:?}")
    };
    let elicit_core::ask::Ending::Rpc(error) = stop.ending() else {
        panic!("{stop:?}")
    };
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("still being answered"), "{error:?}");
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

/// A round is claimed for the key's lease: a minute by default, or what `with_lease` says.
#[tokio::test(flavor = "current_thread")]
async fn a_round_is_claimed_for_the_keys_lease() {
    use elicit_core::ask::{Claim, MemoryStore, Round, RoundStore, StoreError};
    use std::sync::{Arc, Mutex};

    /// A memory store that notes the lease of each claim.
    #[derive(Clone, Default)]
    struct Leases(Arc<Mutex<Vec<Duration>>>, Arc<MemoryStore>);
    impl RoundStore for Leases {
        async fn claim(&self, round: &Round, lease: Duration) -> Result<Claim, StoreError> {
            self.0.lock().unwrap().push(lease);
            self.1.claim(round, lease).await
        }
        async fn record(&self, round: &Round, response: &Value) -> Result<(), StoreError> {
            self.1.record(round, response).await
        }
        async fn release(&self, round: &Round) -> Result<(), StoreError> {
            self.1.release(round).await
        }
    }
    for (lease, expected) in [
        (None, StateKey::DEFAULT_LEASE),
        (Some(5), Duration::from_secs(5)),
    ] {
        let leases = Leases::default();
        let mut key = key().with_store(leases.clone());
        if let Some(secs) = lease {
            key = key.with_lease(Duration::from_secs(secs));
        }
        let retry = final_retry(&key).await;
        let paid = AtomicU32::new(0);
        let asked = pay(&paid)(&Ask::with_port(retry, Scripted::default()).with_key(key)).await;
        assert!(matches!(asked, Asked::Done(_)), "{asked:?}");
        let seen = leases.0.lock().unwrap().clone();
        assert!(!seen.is_empty(), "the final retry claimed its round");
        assert!(seen.iter().all(|l| *l == expected), "{seen:?}");
    }
}

/// Inside one `all`, the questions' first attempts share a round and so do their second
/// attempts, live as in rounds: the round cap is met at the same point on every version.
#[tokio::test(flavor = "current_thread")]
async fn one_all_counts_its_rounds_alike_on_every_version() {
    /// Anything you can't eat?
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
    #[allow(dead_code)] // Read only as an answer's action.
    struct Diet {
        vegetarian: bool,
    }
    async fn both(ask: &Ask) -> Asked<String> {
        ask.run(async {
            let (trip, diet) = ask
                .all((ask.form::<Trip>("a_trip"), ask.form::<Diet>("b_diet")))
                .await?;
            Ok(format!("{:?} {:?}", trip.action(), diet.action()))
        })
        .await
    }
    let veggie = || json!({"action": "accept", "content": {"vegetarian": true}});
    for (cap, finishes) in [(2, true), (1, false)] {
        for version in ProtocolVersion::ALL {
            // Each question dismissed once, then answered: both together, live (sent at
            // once) as in rounds. Live, the trip's cancel comes first, so its retry takes the
            // next reply.
            let port = Scripted::default();
            port.push(cancel(), Duration::ZERO);
            port.push(cancel(), Duration::from_millis(20));
            port.push(oslo(), Duration::ZERO);
            port.push(veggie(), Duration::ZERO);
            let tune = |ask: Ask| {
                ask.with_retry(elicit_core::ask::RetryPolicy::default())
                    .with_max_rounds(cap)
            };
            let (asked, _) =
                drive_tuned(version, &port, call(version, None, None), tune, both).await;
            match (&asked, finishes) {
                (Asked::Done(text), true) => assert_eq!(text, "Accept Accept", "{version}"),
                (Asked::Stopped(Interrupt::TooManyRounds { cap: c, .. }), false) => {
                    assert_eq!(*c, cap, "{version}")
                }
                other => panic!("{version}, cap {cap}: {other:?}"),
            }
        }
    }
}

/// A client that answers a live request only once every leg of the batch has arrived: legs
/// sent one after another would never all arrive, and each would give up.
struct Together {
    arrived: tokio::sync::Barrier,
}

impl Port for Together {
    fn carries(&self, _: &Request) -> Result<(), SchemaError> {
        Ok(())
    }

    fn send<'a>(
        &'a self,
        request: &'a Request,
        _: Option<Duration>,
    ) -> PortFuture<'a, Result<Value, SendError>> {
        Box::pin(async move {
            tokio::time::timeout(Duration::from_secs(5), self.arrived.wait())
                .await
                .map_err(|_| SendError::Transport("the other legs never came".into()))?;
            Ok(match request {
                Request::Sample(_) => json!({
                    "role": "assistant", "model": "m",
                    "content": {"type": "text", "text": "Paris."}
                }),
                Request::Roots => json!({"roots": [{"uri": "file:///w"}]}),
                _ => json!({"action": "accept", "content": {"city": "Oslo", "nights": 3}}),
            })
        })
    }
}

/// The legs of one `all` go out at once before 2026-07-28, whatever their kinds.
#[tokio::test(flavor = "current_thread")]
async fn the_legs_of_one_all_are_sent_at_once_live() {
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let mut call = call(version, None, None);
        call.capabilities = elicit_core::client::ClientCapabilities::from_value(&json!({
            "elicitation": {}, "sampling": {}, "roots": {}
        }))
        .unwrap();
        let port = Together {
            arrived: tokio::sync::Barrier::new(3),
        };
        let ask = Ask::with_port(call, port).with_key(key());
        let asked = ask
            .run(async {
                let (trip, reply, roots) = ask
                    .all((
                        ask.form::<Trip>("trip"),
                        ask.sample("capital", elicit_core::SamplingRequest::new(10).user("?")),
                        ask.roots("roots"),
                    ))
                    .await?;
                let city = trip.accepted().map(|t| t.city).unwrap_or_default();
                Ok(format!("{city} {} {}", reply.text(), roots[0].uri))
            })
            .await;
        assert_eq!(done(asked), "Oslo Paris. file:///w", "{version}");
    }
}

/// A prompt and a resource ask as a tool does, and a state is bound to its request's method:
/// a prompt's round does not continue a tool of the same name.
#[tokio::test(flavor = "current_thread")]
async fn a_state_is_bound_to_its_method() {
    use elicit_core::ask::Method;
    let version = ProtocolVersion::V2026_07_28;
    for method in [Method::PromptsGet, Method::ResourcesRead] {
        let mut first = call(version, None, None);
        first.method = method;
        let ask = Ask::with_port(first.clone(), Scripted::default()).with_key(key());
        let Asked::InputRequired(round) = plan(&ask).await else {
            panic!("{method:?}: the first request asks");
        };
        let state = round.request_state().map(str::to_owned);
        let answered = answers(&[("trip", oslo())]);
        let mut retry = call(version, answered.clone(), state.clone());
        retry.method = method;
        let ask = Ask::with_port(retry, Scripted::default()).with_key(key());
        assert_eq!(
            done(plan(&ask).await),
            "3 nights in Oslo for 120",
            "{method:?}"
        );
        // The same state on a tools/call of the same name is refused before the body runs.
        let tool = call(version, answered, state);
        let ask = Ask::with_port(tool, Scripted::default()).with_key(key());
        match plan(&ask).await {
            Asked::Stopped(Interrupt::State(_)) => {}
            other => panic!("{method:?}: {other:?}"),
        }
    }
}
