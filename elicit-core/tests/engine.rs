//! The ask engine without an SDK: a `Port` that answers from a script, on every version.
#![cfg(all(feature = "ask", feature = "derive"))]

#[allow(dead_code)] // Shared with the exactly-once tests.
#[path = "support/scripted.rs"]
mod scripted;

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use elicit_core::ask::AnswerSource;
use elicit_core::ask::{Ask, Asked, Call, Interrupt};
use elicit_core::client::Capability;
use elicit_core::{Elicit, ElicitResult, ProtocolVersion};
#[cfg(feature = "sampling")]
use elicit_core::{
    SchemaError,
    ask::{Port, PortFuture, SendError},
    client::Request,
};
use serde_json::{Map, Value, json};

use scripted::*;

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
#[cfg(feature = "sampling")]
struct Together {
    arrived: tokio::sync::Barrier,
}

#[cfg(feature = "sampling")]
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
#[cfg(feature = "sampling")]
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
