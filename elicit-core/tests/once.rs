//! Exactly once, at the edges a careless or hostile caller reaches: a fault after the effect,
//! a body longer than its lease, a process that died mid-body, a key built per call, a store
//! that forgot, a full store, padded answers, a state no key opens.
#![cfg(all(feature = "ask", feature = "derive"))]

#[allow(dead_code)] // Shared with the engine's tests.
#[path = "support/scripted.rs"]
mod scripted;

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::ask::{
    Ask, Asked, Call, Claim, Ending, Interrupt, MemoryStore, PortFuture, RetryPolicy, Round,
    RoundStore, StateError, StateKey, StoreError,
};
use elicit_core::{ElicitResult, ProtocolVersion, RpcError};
use serde_json::{Map, Value, json};

use scripted::*;

const ROUNDS: ProtocolVersion = ProtocolVersion::V2026_07_28;

/// The error an ending is, where it is one.
fn rpc(asked: &Asked<String>) -> RpcError {
    match asked {
        Asked::Stopped(stop) => match stop.ending() {
            Ending::Rpc(e) => e,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// The round `asked` asks for, and its state.
fn round_of(asked: Asked<String>) -> (Vec<String>, String, Vec<String>) {
    let Asked::InputRequired(required) = asked else {
        panic!("expected a round, got {asked:?}")
    };
    let entries = required.requests().entries();
    let keys = entries.keys().cloned().collect();
    let messages = entries
        .values()
        .map(|r| {
            r["params"]["message"]
                .as_str()
                .unwrap_or_default()
                .to_owned()
        })
        .collect();
    (keys, required.request_state().unwrap().to_owned(), messages)
}

fn ask(call: &Call, key: &StateKey) -> Ask {
    Ask::with_port(call.clone(), Scripted::default()).with_key(key.clone())
}

/// A body that pays once confirmed, then fails with `how`, counting the payments.
fn pay_then(paid: &AtomicU32, how: &'static str) -> impl AsyncFn(&Ask) -> Asked<String> {
    async move |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            if !ask.confirm("pay", "Pay 120 EUR?").await?.is_confirmed() {
                return Ok("not paid".to_owned());
            }
            paid.fetch_add(1, Ordering::SeqCst);
            match how {
                "error" => Err(Interrupt::Error(RpcError::internal(
                    "the receipt printer jammed",
                ))),
                "panic" => panic!("the receipt printer jammed"),
                _ => Ok("paid".to_owned()),
            }
        })
        .await
    }
}

/// A body that pays, then fails (an error, or a panic), ends the same way again when its final
/// retry is sent again, at once or later, and pays once.
#[tokio::test(flavor = "current_thread")]
async fn a_fault_after_the_effect_is_recorded_and_pays_once() {
    for how in ["error", "panic"] {
        let key = key();
        let retry = final_retry(&key).await;
        let paid = AtomicU32::new(0);
        let body = pay_then(&paid, how);
        let (a, b) = (ask(&retry, &key), ask(&retry, &key));
        let (a, b) = tokio::join!(body(&a), body(&b));
        let later = body(&ask(&retry, &key)).await;
        assert_eq!(paid.load(Ordering::SeqCst), 1, "{how}: paid once");
        let (a, b, later) = (rpc(&a), rpc(&b), rpc(&later));
        assert_eq!(a, b, "{how}");
        assert_eq!(a, later, "{how}");
        assert_eq!(a.code, -32603, "{how}");
        match how {
            "error" => assert_eq!(a.message, "the receipt printer jammed"),
            // A panic's own words stay in the server's traces.
            _ => assert_eq!(a.message, "the tool failed"),
        }
    }
}

/// Only an error the body marks as coming before any effect releases its round: the retry
/// runs the body again.
#[tokio::test(flavor = "current_thread")]
async fn only_a_retryable_error_releases_the_round() {
    let key = key();
    let retry = final_retry(&key).await;
    let (runs, paid) = (AtomicU32::new(0), AtomicU32::new(0));
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                return Err(Interrupt::retryable(RpcError::internal("the bank is down")));
            }
            paid.fetch_add(1, Ordering::SeqCst);
            Ok("paid".to_owned())
        })
        .await
    };
    assert_eq!(
        rpc(&body(&ask(&retry, &key)).await).message,
        "the bank is down"
    );
    assert_eq!(done(body(&ask(&retry, &key)).await), "paid");
    assert_eq!(done(body(&ask(&retry, &key)).await), "paid");
    assert_eq!(
        (runs.load(Ordering::SeqCst), paid.load(Ordering::SeqCst)),
        (2, 1)
    );
}

/// A body that runs longer than its lease keeps its claim: a copy of the retry sent while it
/// runs waits for its ending, and the body runs once.
#[tokio::test(flavor = "current_thread")]
async fn a_body_longer_than_its_lease_runs_once() {
    let key = key().with_lease(Duration::from_millis(200));
    let retry = final_retry(&key).await;
    let paid = AtomicU32::new(0);
    let slow = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            tokio::time::sleep(Duration::from_millis(1200)).await;
            Ok(format!("paid {}", paid.fetch_add(1, Ordering::SeqCst) + 1))
        })
        .await
    };
    let (first, second) = (ask(&retry, &key), ask(&retry, &key));
    let late = async {
        tokio::time::sleep(Duration::from_millis(600)).await;
        slow(&second).await
    };
    let (a, b) = tokio::join!(slow(&first), late);
    assert_eq!(
        (done(a), done(b)),
        ("paid 1".to_owned(), "paid 1".to_owned())
    );
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A round whose claimant died mid-body (nothing dropped, nothing recorded, nothing renewed)
/// is taken over once its lease passes, by a retry that waits for it; the body that runs
/// knows it is a take-over.
#[tokio::test(flavor = "current_thread")]
async fn a_round_whose_claimant_died_is_taken_over_within_the_lease() {
    // By default a waiting retry outwaits the lease.
    assert!(StateKey::CLAIM_WAIT > StateKey::DEFAULT_LEASE);
    let lease = Duration::from_millis(300);
    let key = key().with_lease(lease);
    let retry = final_retry(&key).await;
    let runs = AtomicU32::new(0);
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                assert!(!ask.taken_over());
                std::future::pending::<()>().await;
            }
            Ok(format!("paid, taken over: {}", ask.taken_over()))
        })
        .await
    };
    // A process killed mid-body: its own runtime, stopped with the body's future never
    // dropped, so that nothing is recorded and its keeper renews nothing more.
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let process = tokio::runtime::Builder::new_current_thread()
                .enable_time()
                .build()
                .unwrap();
            process.block_on(async {
                let dying = ask(&retry, &key);
                let mut dead = Box::pin(body(&dying));
                assert!(
                    tokio::time::timeout(Duration::from_millis(50), &mut dead)
                        .await
                        .is_err()
                );
                std::mem::forget(dead);
                std::mem::forget(dying);
            });
        });
    });
    let started = tokio::time::Instant::now();
    let taker = ask(&retry, &key);
    assert_eq!(done(body(&taker).await), "paid, taken over: true");
    let waited = started.elapsed();
    assert!(
        waited < lease * 3 + Duration::from_millis(500),
        "{waited:?}"
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// A call dropped mid-body (its request cancelled, its connection closed) records that it
/// stopped mid-way: its retry says so, and runs nothing.
#[tokio::test(flavor = "current_thread")]
async fn a_call_dropped_mid_body_is_recorded_as_stopped() {
    let key = key();
    let retry = final_retry(&key).await;
    let paid = AtomicU32::new(0);
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            paid.fetch_add(1, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok("paid".to_owned())
        })
        .await
    };
    let first = ask(&retry, &key);
    assert!(
        tokio::time::timeout(Duration::from_millis(50), body(&first))
            .await
            .is_err()
    );
    // The record is written on the runtime, after the drop.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let again = rpc(&body(&ask(&retry, &key)).await);
    assert!(
        again.message.contains("may or may not have happened"),
        "{again:?}"
    );
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// Keys made per call, from one secret, share the process's store: a final retry sent twice
/// runs once.
#[tokio::test(flavor = "current_thread")]
async fn keys_made_per_call_run_each_round_once() {
    let retry = final_retry(&key()).await;
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    for _ in 0..3 {
        assert_eq!(done(body(&ask(&retry, &key())).await), "paid for Oslo");
    }
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A call's id is the same in every round, on every process that holds the key, and in the
/// replay of a round; another call has another.
#[tokio::test(flavor = "current_thread")]
async fn a_calls_id_is_the_same_in_every_round_and_on_every_process() {
    let seen = Mutex::new(Vec::new());
    let body = async |ask: &Ask| {
        ask.run(async {
            seen.lock().unwrap().push(ask.call_id()?);
            let _ = ask.form::<Trip>("trip").await?;
            seen.lock().unwrap().push(ask.call_id()?);
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            ask.call_id()
        })
        .await
    };
    // Two processes that share a secret and a store.
    let shared = MemoryStore::new();
    let here = key().with_store(shared.clone());
    let there = key().with_store(shared);
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &here)).await);
    let second = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    let (_, state, _) = round_of(body(&ask(&second, &there)).await);
    let last = call(ROUNDS, answers(&[("pay", yes())]), Some(state));
    let id = done(body(&ask(&last, &here)).await);
    assert_eq!(done(body(&ask(&last, &here)).await), id, "the replay");
    let seen = seen.lock().unwrap().clone();
    assert!(seen.len() >= 4 && seen.iter().all(|s| *s == id), "{seen:?}");
    // Live, the call's one run has one id too, and each call its own.
    let port = Scripted::with([oslo(), yes(), oslo(), yes()]);
    let live = call(ProtocolVersion::V2025_11_25, None, None);
    let one = done(body(&Ask::with_port(live.clone(), port.clone()).with_key(key())).await);
    let two = done(body(&Ask::with_port(live, port).with_key(key())).await);
    assert!(one != two && one != id && one.len() >= 16, "{one} {two}");
}

/// What a cancel carried beside its action (`_meta`, unknown members, content) is not carried:
/// the next state is the size of one after a plain cancel.
#[tokio::test(flavor = "current_thread")]
async fn a_padded_cancel_leaves_the_next_state_as_small_as_a_plain_one() {
    let body = async |ask: &Ask| {
        ask.run(async {
            let trip = ask
                .form::<Trip>("trip")
                .retrying(RetryPolicy::default())
                .await?;
            Ok(format!("{}", trip.accepted().is_some()))
        })
        .await
    };
    let pad = "x".repeat(200_000);
    let mut sizes = Vec::new();
    for cancel in [
        json!({"action": "cancel"}),
        json!({"action": "cancel", "_meta": {"pad": pad}, "content": {"city": pad}, "pad": pad}),
    ] {
        let key = key();
        let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &key)).await);
        let retry = call(ROUNDS, answers(&[("trip", cancel)]), Some(state));
        let (_, state, _) = round_of(body(&ask(&retry, &key)).await);
        sizes.push(state.len());
    }
    // The same but for the digits of how long the answer took.
    assert!(sizes[1].abs_diff(sizes[0]) <= 8, "{sizes:?}");
}

/// A reply larger than `Ask` reads is refused on every version and every path, before
/// anything reads or carries it.
#[tokio::test(flavor = "current_thread")]
async fn a_reply_over_the_limit_is_refused_on_every_version() {
    let body = async |ask: &Ask| {
        ask.run(async { Ok(format!("{:?}", ask.form::<Trip>("trip").await?.accepted())) })
            .await
    };
    let huge = json!({"action": "accept", "content": {
        "city": "Oslo", "nights": 3, "notes": "x".repeat(1_100_000)
    }});
    for version in ProtocolVersion::ALL {
        let port = Scripted::with([huge.clone()]);
        let (asked, _) = drive(version, &port, call(version, None, None), body).await;
        match asked {
            Asked::Stopped(Interrupt::Invalid { error, .. }) => {
                let said = error.violations()[0].to_string();
                assert_eq!(
                    said, "content is larger than the limit of 1 MiB for a whole answer",
                    "{version}"
                );
            }
            other => panic!("{version}: {other:?}"),
        }
    }
}

/// A state larger than the key seals stops the call with an error that names the limit.
#[tokio::test(flavor = "current_thread")]
async fn a_state_past_its_cap_stops_naming_the_limit() {
    let key = key().with_max_state(2_000);
    let body = async |ask: &Ask| {
        ask.run(async {
            let notes = ask.once("notes", async { "n".repeat(3_000) }).await?;
            let _ = ask.form::<Trip>("trip").await?;
            Ok(notes)
        })
        .await
    };
    match body(&ask(&call(ROUNDS, None, None), &key)).await {
        Asked::Stopped(stop @ Interrupt::State(StateError::TooLarge { limit: 2_000, .. })) => {
            let Ending::ToolError { text, .. } = stop.ending() else {
                panic!("{stop:?}")
            };
            assert!(text.contains("2000"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}

/// A state that no key of the server's opens (a restart without a shared secret, a rotation
/// past it), or that expired, starts the call over: its questions are asked again, saying so,
/// and the call completes.
#[tokio::test(flavor = "current_thread")]
async fn a_state_no_key_opens_starts_the_call_over() {
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let before = StateKey::new(vec![1u8; 32]).unwrap();
    let after = StateKey::new(vec![2u8; 32]).unwrap();
    let expired = key().with_ttl(Duration::ZERO);
    for (sealing, opening) in [(&before, &after), (&expired, &expired)] {
        let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), sealing)).await);
        tokio::time::sleep(Duration::from_millis(5)).await;
        let retry = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
        let (keys, state, messages) = round_of(body(&ask(&retry, opening)).await);
        assert_eq!(keys, ["trip"], "asked again from the first question");
        assert!(
            messages[0].contains("could not continue your earlier answers"),
            "{messages:?}"
        );
        if std::ptr::eq(opening, &expired) {
            continue;
        }
        // Answered again, it goes on as any call.
        let retry = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
        let (keys, state, messages) = round_of(body(&ask(&retry, opening)).await);
        assert_eq!(keys, ["pay"]);
        assert_eq!(
            messages,
            ["Pay 120 EUR?"],
            "said once, in the round that started over"
        );
        let last = call(ROUNDS, answers(&[("pay", yes())]), Some(state));
        assert_eq!(done(body(&ask(&last, opening)).await), "paid for Oslo");
    }
    assert_eq!(paid.load(Ordering::SeqCst), 1);
    // A state altered, or bound to another call, is still refused.
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &before)).await);
    let mut other = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    other.name = "another tool".into();
    assert_eq!(rpc(&body(&ask(&other, &before)).await).code, -32602);
}

/// A store that lost its records (a process restarted with a shared secret but its memory
/// store, here) never runs a final retry again in silence: the call is asked again, saying
/// that the step may already have run, under the same call id.
#[tokio::test(flavor = "current_thread")]
async fn a_store_that_forgot_asks_again_and_says_so() {
    let paid = AtomicU32::new(0);
    let ids = Mutex::new(Vec::new());
    let body = async |ask: &Ask| {
        ids.lock().unwrap().push(ask.call_id().unwrap());
        pay(&paid)(ask).await
    };
    let before = key().with_store(MemoryStore::new());
    let retry = final_retry(&before).await;
    assert_eq!(done(body(&ask(&retry, &before)).await), "paid for Oslo");
    // The same retry after the restart.
    let after = key().with_store(MemoryStore::new());
    let (keys, state, messages) = round_of(body(&ask(&retry, &after)).await);
    assert_eq!(paid.load(Ordering::SeqCst), 1, "not paid again in silence");
    assert_eq!(keys, ["trip"]);
    assert!(
        messages[0].contains("may already have happened"),
        "{messages:?}"
    );
    let ids = ids.lock().unwrap().clone();
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "one call: {ids:?}");
    // Its next round goes back to the store it left (servers that share no store, taking
    // turns): the call stops, saying why, rather than ask again for ever.
    let retry = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    let stop = rpc(&body(&ask(&retry, &before)).await);
    assert_eq!(stop.code, -32603);
    assert!(stop.message.contains("do not share one store"), "{stop:?}");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A store that loses its records again and again (one process's memory store, restarted
/// each round) starts the call over each time, saying so, up to a bound, and then stops
/// saying that it lost them: never that its servers do not share one store.
#[tokio::test(flavor = "current_thread")]
async fn a_store_that_keeps_losing_its_records_says_so() {
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let first = key().with_store(MemoryStore::new());
    let (_, mut state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &first)).await);
    for restart in 0..=Ask::MAX_RESTARTS {
        let restarted = key().with_store(MemoryStore::new());
        let retry = call(ROUNDS, answers(&[("trip", oslo())]), Some(state.clone()));
        let asked = body(&ask(&retry, &restarted)).await;
        if restart == Ask::MAX_RESTARTS {
            let stop = rpc(&asked);
            assert!(stop.message.contains("lost its record"), "{stop:?}");
            assert!(!stop.message.contains("share"), "{stop:?}");
            break;
        }
        let (keys, next, messages) = round_of(asked);
        assert_eq!(keys, ["trip"], "restart {restart}");
        assert!(
            messages[0].contains("may already have happened"),
            "{messages:?}"
        );
        state = next;
    }
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

/// A full store still serves a caller: the flood of another caller's finished rounds gives
/// way, and a retry of one of them is asked again rather than run.
#[tokio::test(flavor = "current_thread")]
async fn a_full_store_still_serves_a_second_caller() {
    let key = key().with_store(MemoryStore::new().with_cap(8));
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let as_caller = |mut call: Call, who: &str| {
        call.principal = Some(who.to_owned());
        call
    };
    // The flood: every final retry it finishes stays in the store as recorded.
    let mut flooded = Vec::new();
    for _ in 0..40 {
        let (_, state, _) =
            round_of(body(&ask(&as_caller(call(ROUNDS, None, None), "flood"), &key)).await);
        let second = as_caller(
            call(ROUNDS, answers(&[("trip", oslo())]), Some(state)),
            "flood",
        );
        let (_, state, _) = round_of(body(&ask(&second, &key)).await);
        let last = as_caller(
            call(ROUNDS, answers(&[("pay", yes())]), Some(state)),
            "flood",
        );
        assert_eq!(done(body(&ask(&last, &key)).await), "paid for Oslo");
        flooded.push(last);
    }
    // Another caller is served, through every round.
    let (_, state, _) =
        round_of(body(&ask(&as_caller(call(ROUNDS, None, None), "ada"), &key)).await);
    let second = as_caller(
        call(ROUNDS, answers(&[("trip", oslo())]), Some(state)),
        "ada",
    );
    let (_, state, _) = round_of(body(&ask(&second, &key)).await);
    let last = as_caller(call(ROUNDS, answers(&[("pay", yes())]), Some(state)), "ada");
    assert_eq!(done(body(&ask(&last, &key)).await), "paid for Oslo");
    assert_eq!(paid.load(Ordering::SeqCst), 41);
    // The flood's first round was let go: its retry is asked again, not paid again.
    let (keys, _, _) = round_of(body(&ask(&flooded[0], &key)).await);
    assert_eq!(keys, ["trip"]);
    assert_eq!(paid.load(Ordering::SeqCst), 41);
}

/// An `all` dropped mid-way (by a `select!` that gave up on it) leaves no batch open: a
/// later await of one of its keys is asked as any.
#[tokio::test(flavor = "current_thread")]
async fn an_all_dropped_mid_way_leaves_no_batch_open() {
    let port = Scripted::default();
    port.push(oslo(), Duration::from_secs(60));
    port.push(oslo(), Duration::from_secs(60));
    port.push(oslo(), Duration::ZERO);
    let live = call(ProtocolVersion::V2025_11_25, None, None);
    let ask = Ask::with_port(live, port).with_key(key());
    let asked = ask
        .run(async {
            let both = ask.all((ask.form::<Trip>("trip"), ask.form::<Trip>("back")));
            tokio::select! {
                _ = both => unreachable!("the person takes a minute"),
                () = tokio::time::sleep(Duration::from_millis(20)) => {}
            }
            Ok(format!(
                "{:?}",
                ask.form::<Trip>("trip").await?.accepted().map(|t| t.city)
            ))
        })
        .await;
    assert_eq!(done(asked), "Some(\"Oslo\")");
}

/// A request that times out names the deadline it was given, not the time that passed.
#[cfg(feature = "sampling")]
#[tokio::test(flavor = "current_thread")]
async fn a_deadline_names_itself() {
    let port = Scripted::default();
    port.push(json!({}), Duration::from_secs(60));
    let mut live = call(ProtocolVersion::V2025_11_25, None, None);
    live.capabilities.sampling = Some(Default::default());
    let ask = Ask::with_port(live, port).with_key(key());
    let deadline = Duration::from_millis(30);
    let asked = ask
        .run(async {
            let request = elicit_core::SamplingRequest::new(10).user("?");
            Ok(ask
                .sample("capital", request)
                .deadline(deadline)
                .await?
                .text())
        })
        .await;
    match asked {
        Asked::Stopped(Interrupt::Send(elicit_core::ask::SendError::Timeout(named))) => {
            assert_eq!(named, deadline);
        }
        other => panic!("{other:?}"),
    }
}

/// A secret too short says so in a sentence, as `main` prints it.
#[test]
fn a_short_secret_says_so_in_a_sentence() {
    let error = StateKey::new("").unwrap_err();
    let printed = format!("{error:?}");
    assert!(
        printed.starts_with("the requestState secret is too short: 0 bytes"),
        "{printed}"
    );
}

/// A store that counts the renewals of another, and keeps what it was given to record.
#[derive(Clone, Default)]
struct Counting {
    inner: MemoryStore,
    renewals: Arc<AtomicU32>,
    recorded: Arc<Mutex<Vec<String>>>,
}

impl RoundStore for Counting {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        self.inner.generation()
    }
    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
        self.inner.begin(round)
    }
    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        self.inner.claim(round, lease)
    }
    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        self.renewals.fetch_add(1, Ordering::SeqCst);
        self.inner.renew(round, lease)
    }
    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        self.recorded.lock().unwrap().push(ending.to_owned());
        self.inner.record(round, ending)
    }
    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        self.inner.release(round)
    }
}

/// What a store keeps of a round is sealed with the key: neither the result nor the answers
/// can be read from it, in the store or in its `Debug`.
#[tokio::test(flavor = "current_thread")]
async fn a_recorded_ending_is_sealed_at_rest() {
    let store = Counting::default();
    let key = key().with_store(store.clone());
    let retry = final_retry(&key).await;
    let paid = AtomicU32::new(0);
    assert_eq!(done(pay(&paid)(&ask(&retry, &key)).await), "paid for Oslo");
    let recorded = store.recorded.lock().unwrap().clone();
    assert_eq!(recorded.len(), 2, "round 1 and the final round");
    for ending in &recorded {
        for word in ["paid", "Oslo", "trip", "done", "Pay 120"] {
            assert!(!ending.contains(word), "{word} in {ending}");
        }
    }
    let shown = format!("{:?}", store.inner);
    assert!(!shown.contains(&recorded[1]), "{shown}");
    // And it still replays.
    assert_eq!(done(pay(&paid)(&ask(&retry, &key)).await), "paid for Oslo");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A round's claim is renewed every third of its lease while its body runs, and only then.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_claim_is_renewed_while_its_body_runs() {
    let store = Counting::default();
    let key = key()
        .with_store(store.clone())
        .with_lease(Duration::from_secs(3));
    let retry = final_retry(&key).await;
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            tokio::time::sleep(Duration::from_millis(10_500)).await;
            Ok("paid".to_owned())
        })
        .await
    };
    assert_eq!(done(body(&ask(&retry, &key)).await), "paid");
    assert_eq!(store.renewals.load(Ordering::SeqCst), 10);
    tokio::time::sleep(Duration::from_secs(10)).await;
    assert_eq!(
        store.renewals.load(Ordering::SeqCst),
        10,
        "not after it ended"
    );
}

/// A store that cannot be reached fails the retry closed, in fixed words: its own text stays
/// in the server's traces.
#[tokio::test(flavor = "current_thread")]
async fn an_unreachable_store_fails_closed_in_fixed_words() {
    struct Down;
    impl RoundStore for Down {
        fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
        fn begin<'a>(&'a self, _: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
        fn claim<'a>(
            &'a self,
            _: &'a Round,
            _: Duration,
        ) -> PortFuture<'a, Result<Claim, StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
        fn renew<'a>(
            &'a self,
            _: &'a Round,
            _: Duration,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
        fn record<'a>(
            &'a self,
            _: &'a Round,
            _: &'a str,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
        fn release<'a>(&'a self, _: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
            Box::pin(async { Err(StoreError("ECONNREFUSED 10.0.0.7:6379".into())) })
        }
    }
    // The rounds before ran on a process whose store works; the last reaches one whose store
    // is down. A first call needs the store too: its state carries the store's generation.
    let retry = final_retry(&key()).await;
    let paid = AtomicU32::new(0);
    let down = key().with_store(Down);
    for call in [retry, call(ROUNDS, None, None)] {
        let error = rpc(&pay(&paid)(&ask(&call, &down)).await);
        assert_eq!(error.code, -32603);
        assert!(
            error.message.starts_with("the state store is unavailable"),
            "{error:?}"
        );
        assert!(!error.message.contains("ECONNREFUSED"), "{error:?}");
    }
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

/// A retry whose round is still running elsewhere waits for its ending, then ends with an
/// "in progress" error the client may retry, and runs nothing.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_round_still_running_elsewhere_ends_in_progress() {
    /// A store whose every round runs elsewhere, for ever.
    #[derive(Default)]
    struct Busy(MemoryStore);
    impl RoundStore for Busy {
        fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
            self.0.generation()
        }
        fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
            self.0.begin(round)
        }
        fn claim<'a>(
            &'a self,
            _: &'a Round,
            _: Duration,
        ) -> PortFuture<'a, Result<Claim, StoreError>> {
            Box::pin(async { Ok(Claim::Running) })
        }
        fn renew<'a>(
            &'a self,
            _: &'a Round,
            _: Duration,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            Box::pin(async { Ok(false) })
        }
        fn record<'a>(
            &'a self,
            _: &'a Round,
            _: &'a str,
        ) -> PortFuture<'a, Result<bool, StoreError>> {
            Box::pin(async { Ok(false) })
        }
        fn release<'a>(&'a self, _: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
            Box::pin(async { Ok(()) })
        }
    }
    let retry = final_retry(&key()).await;
    let key = key().with_store(Busy::default());
    let paid = AtomicU32::new(0);
    let started = tokio::time::Instant::now();
    let error = rpc(&pay(&paid)(&ask(&retry, &key)).await);
    assert!(
        started.elapsed() >= StateKey::CLAIM_WAIT,
        "it waited for the ending"
    );
    assert!(
        StateKey::CLAIM_WAIT > StateKey::DEFAULT_LEASE,
        "it outwaits a dead claimant"
    );
    assert_eq!(error.code, -32603);
    assert!(error.message.contains("still being answered"), "{error:?}");
    assert_eq!(paid.load(Ordering::SeqCst), 0);
}

/// The state a call's answers are carried in, as a client would see it grow: a reply's size
/// counts once it is cut to what its question reads.
#[tokio::test(flavor = "current_thread")]
async fn answers_carried_are_what_their_questions_read() {
    let body = async |ask: &Ask| {
        ask.run(async {
            let a = ask.form::<Trip>("a").await?;
            let b = ask.form::<Trip>("b").await?;
            Ok(format!(
                "{:?} {:?}",
                a.accepted().map(|t| t.city),
                b.accepted().map(|t| t.city)
            ))
        })
        .await
    };
    let key = key();
    let padded = |reply: Value| {
        let mut reply = reply;
        reply["_meta"] = json!({"pad": "x".repeat(50_000)});
        reply
    };
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &key)).await);
    let retry = call(ROUNDS, answers(&[("a", padded(oslo()))]), Some(state));
    let (_, state, _) = round_of(body(&ask(&retry, &key)).await);
    assert!(state.len() < 2_000, "{}", state.len());
    let last = call(ROUNDS, answers(&[("b", padded(oslo()))]), Some(state));
    assert_eq!(
        done(body(&ask(&last, &key)).await),
        "Some(\"Oslo\") Some(\"Oslo\")"
    );
    let _: Map<String, Value> = Map::new();
    let _ = ElicitResult::<Trip>::Cancel;
}

#[cfg(feature = "redis")]
#[allow(dead_code)] // Shared with the fleet's tests, which cut a process off and fill Redis.
#[path = "support/redis_server.rs"]
mod redis_server;

/// Two processes that share one secret and one Redis: a final retry whose response was lost is
/// sent again, to both at once and to each later, and the body runs once, every copy getting
/// the same result.
#[cfg(feature = "redis")]
#[tokio::test(flavor = "current_thread")]
async fn on_redis_a_lost_response_is_retried_and_gets_the_same_result() {
    use elicit_core::ask::RedisStore;

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
    let (on_a, on_b) = (ask(&retry, &a), ask(&retry, &b));
    let (first, second) = tokio::join!(slow(&on_a), slow(&on_b));
    let (first, second) = (done(first), done(second));
    assert_eq!(first, "paid 1");
    assert_eq!(first, second);
    for key in [a, b] {
        assert_eq!(done(slow(&ask(&retry, &key)).await), "paid 1");
    }
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// A final retry sent again after Redis restarted empty does not pay again in silence: it is
/// asked again, saying the step may already have run. On a durable Redis (an append-only file
/// synced on every write), the same resend gets the recorded result, and nothing runs.
#[cfg(feature = "redis")]
#[tokio::test(flavor = "current_thread")]
async fn a_final_retry_resent_after_redis_restarted_is_never_paid_again_in_silence() {
    use elicit_core::ask::RedisStore;
    use redis_server::TestRedis;

    for durable in [false, true] {
        let redis = match durable {
            true => TestRedis::durable("resent_after_restart"),
            false => TestRedis::own("resent_after_restart"),
        };
        let Some(mut redis) = redis else { return };
        let key = key().with_store(RedisStore::open(&redis.url, "elicit-restart:").unwrap());
        let retry = final_retry(&key).await;
        let paid = AtomicU32::new(0);
        assert_eq!(done(pay(&paid)(&ask(&retry, &key)).await), "paid for Oslo");
        redis.restart(!durable).unwrap();
        let mut resent = pay(&paid)(&ask(&retry, &key)).await;
        for _ in 0..50 {
            let down = matches!(
                &resent,
                Asked::Stopped(Interrupt::State(StateError::Store(_)))
            );
            if !down {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            resent = pay(&paid)(&ask(&retry, &key)).await;
        }
        assert_eq!(paid.load(Ordering::SeqCst), 1, "durable: {durable}");
        if durable {
            assert_eq!(done(resent), "paid for Oslo");
        } else {
            let (keys, _, messages) = round_of(resent);
            assert_eq!(keys, ["trip"]);
            assert!(
                messages[0].contains("may already have happened"),
                "{messages:?}"
            );
        }
    }
}

/// A store that can be cut off from its process (every step fails), and whose next records
/// fail, around a memory store shared with other processes.
#[derive(Clone, Default)]
struct Faulty {
    inner: MemoryStore,
    cut: Arc<std::sync::atomic::AtomicBool>,
    failing_records: Arc<AtomicU32>,
}

impl Faulty {
    fn over(inner: &MemoryStore) -> Faulty {
        Faulty {
            inner: inner.clone(),
            ..Faulty::default()
        }
    }

    fn down(&self) -> bool {
        self.cut.load(Ordering::SeqCst)
    }
}

impl Faulty {
    /// `step` where the store is reached; an error where it is cut off.
    fn through<'a, T: Send + 'static>(
        &self,
        step: impl FnOnce() -> PortFuture<'a, Result<T, StoreError>>,
    ) -> PortFuture<'a, Result<T, StoreError>> {
        match self.down() {
            true => Box::pin(async { Err(StoreError("cut off".into())) }),
            false => step(),
        }
    }
}

impl RoundStore for Faulty {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        self.through(|| self.inner.generation())
    }
    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
        self.through(|| self.inner.begin(round))
    }
    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        self.through(|| self.inner.claim(round, lease))
    }
    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        self.through(|| self.inner.renew(round, lease))
    }
    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        // The next records fail, as a store that is restarting fails them.
        let failing = self.failing_records.load(Ordering::SeqCst) > 0;
        if failing {
            self.failing_records.fetch_sub(1, Ordering::SeqCst);
            return Box::pin(async { Err(StoreError("restarting".into())) });
        }
        self.through(|| self.inner.record(round, ending))
    }
    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        self.through(|| self.inner.release(round))
    }
}

/// A round released (`Interrupt::retryable` in round 2) keeps its call's history: the resent
/// retry of round 1 is used, and the `once` effect between the two questions runs once.
#[tokio::test(flavor = "current_thread")]
async fn a_released_round_keeps_the_earlier_rounds_used() {
    let key = key().with_store(MemoryStore::new());
    let (quotes, runs) = (AtomicU32::new(0), AtomicU32::new(0));
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            // An effect between the questions: once per call.
            let _ = ask
                .once("quote", async { quotes.fetch_add(1, Ordering::SeqCst) })
                .await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            if runs.fetch_add(1, Ordering::SeqCst) == 0 {
                return Err(Interrupt::retryable(RpcError::internal("the bank is down")));
            }
            Ok("paid".to_owned())
        })
        .await
    };
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &key)).await);
    let first = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    let (_, state, _) = round_of(body(&ask(&first, &key)).await);
    let last = call(ROUNDS, answers(&[("pay", yes())]), Some(state));
    assert_eq!(
        rpc(&body(&ask(&last, &key)).await).message,
        "the bank is down"
    );
    // Round 1's retry, resent after round 2 was released: used, and nothing runs.
    let again = rpc(&body(&ask(&first, &key)).await);
    assert!(again.message.contains("used already"), "{again:?}");
    assert_eq!(quotes.load(Ordering::SeqCst), 1);
    // The released round's own retry runs.
    assert_eq!(done(body(&ask(&last, &key)).await), "paid");
}

/// A record that failed (the store restarting as the body ended) is tried again in the
/// background while the claim is kept: the finished retry, resent after the store recovered
/// and the lease passed, gets the recorded ending and runs nothing.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_record_that_failed_is_not_run_again() {
    let store = Faulty::over(&MemoryStore::new());
    let key = key().with_store(store.clone());
    let retry = final_retry(&key).await;
    let paid = AtomicU32::new(0);
    store.failing_records.store(3, Ordering::SeqCst);
    assert_eq!(done(pay(&paid)(&ask(&retry, &key)).await), "paid for Oslo");
    // The store is back; the lease passes several times over.
    tokio::time::sleep(StateKey::DEFAULT_LEASE * 3).await;
    assert_eq!(done(pay(&paid)(&ask(&retry, &key)).await), "paid for Oslo");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
    assert_eq!(store.failing_records.load(Ordering::SeqCst), 0);
}

/// A replica cut off from the store mid-body stops its body at its next await before its
/// lease lapses; another replica, retrying after the lease, takes the round over, knowing it,
/// and the two bodies never run at once.
#[tokio::test(flavor = "current_thread", start_paused = true)]
async fn a_replica_cut_off_mid_body_stops_before_another_takes_over() {
    let shared = MemoryStore::new();
    let (here, there) = (Faulty::over(&shared), Faulty::over(&shared));
    let (a, b) = (key().with_store(here.clone()), key().with_store(there));
    let retry = final_retry(&a).await;
    let (inside, overlaps, finished) = (AtomicU32::new(0), AtomicU32::new(0), AtomicU32::new(0));
    let body = async |ask: &Ask| {
        ask.run(async {
            let _ = ask.form::<Trip>("trip").await?;
            let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
            if inside.fetch_add(1, Ordering::SeqCst) > 0 {
                overlaps.fetch_add(1, Ordering::SeqCst);
            }
            // Leaves the effect however the body ends: stopped at an await too.
            struct Leaving<'a>(&'a AtomicU32);
            impl Drop for Leaving<'_> {
                fn drop(&mut self) {
                    self.0.fetch_sub(1, Ordering::SeqCst);
                }
            }
            let _leaving = Leaving(&inside);
            // A long effect, in steps: each an await at which a fenced body stops.
            for _ in 0..60 {
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            finished.fetch_add(1, Ordering::SeqCst);
            Ok(format!("paid, taken over: {}", ask.taken_over()))
        })
        .await
    };
    let on_a = ask(&retry, &a);
    let cut = async {
        tokio::time::sleep(Duration::from_secs(5)).await;
        here.cut.store(true, Ordering::SeqCst);
    };
    let taker = async {
        tokio::time::sleep(StateKey::DEFAULT_LEASE + Duration::from_secs(2)).await;
        body(&ask(&retry, &b)).await
    };
    let (stopped, (), taken) = tokio::join!(body(&on_a), cut, taker);
    let stopped = rpc(&stopped);
    assert!(
        stopped
            .message
            .contains("could not renew its hold on this round"),
        "{stopped:?}"
    );
    assert_eq!(done(taken), "paid, taken over: true");
    assert_eq!(overlaps.load(Ordering::SeqCst), 0, "never two at once");
    assert_eq!(finished.load(Ordering::SeqCst), 1);
}

/// A body that blocks its thread for longer than the lease keeps its claim on a multi-thread
/// runtime (the keeper is a task of its own): a duplicate waits for its ending, and the body
/// runs once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_that_blocks_its_thread_runs_once() {
    let lease = Duration::from_millis(300);
    let key = key().with_store(MemoryStore::new()).with_lease(lease);
    let retry = final_retry(&key).await;
    let paid = Arc::new(AtomicU32::new(0));
    let run = |paid: Arc<AtomicU32>| {
        let (retry, key) = (retry.clone(), key.clone());
        tokio::spawn(async move {
            let ask = ask(&retry, &key);
            ask.run(async {
                let _ = ask.form::<Trip>("trip").await?;
                let _ = ask.confirm("pay", "Pay 120 EUR?").await?;
                // A blocking client, or CPU work: the thread does nothing else for a while.
                std::thread::sleep(lease * 4);
                Ok(format!("paid {}", paid.fetch_add(1, Ordering::SeqCst) + 1))
            })
            .await
        })
    };
    let first = run(Arc::clone(&paid));
    tokio::time::sleep(lease * 2).await;
    let duplicate = run(Arc::clone(&paid));
    let (first, duplicate) = (first.await.unwrap(), duplicate.await.unwrap());
    assert_eq!(
        (done(first), done(duplicate)),
        ("paid 1".to_owned(), "paid 1".to_owned())
    );
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// Callers without a credential, told apart by where they come from: one finishes its call
/// while another floods a small store.
#[tokio::test(flavor = "current_thread")]
async fn an_anonymous_call_finishes_while_another_anonymous_caller_floods() {
    let key = key().with_store(MemoryStore::new().with_cap(40));
    let from = |mut call: Call, origin: &str| {
        call.origin = Some(origin.to_owned());
        call
    };
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let (_, state, _) =
        round_of(body(&ask(&from(call(ROUNDS, None, None), "10.0.0.1"), &key)).await);
    let mut next = from(
        call(ROUNDS, answers(&[("trip", oslo())]), Some(state)),
        "10.0.0.1",
    );
    for step in 0..2 {
        // The flood, between each of the caller's rounds: many calls begun, never finished.
        for _ in 0..200 {
            let flood = from(call(ROUNDS, None, None), "10.0.0.66");
            let _ = round_of(body(&ask(&flood, &key)).await);
        }
        let asked = body(&ask(&next, &key)).await;
        if step == 1 {
            assert_eq!(done(asked), "paid for Oslo");
            break;
        }
        let (keys, state, messages) = round_of(asked);
        assert_eq!(keys, ["pay"]);
        assert_eq!(messages, ["Pay 120 EUR?"], "never asked again");
        next = from(
            call(ROUNDS, answers(&[("pay", yes())]), Some(state)),
            "10.0.0.1",
        );
    }
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// Three requests of one call, each with a key made per request by `StateKey::random()` (as
/// in a streamable HTTP service's factory), finish the call: it is one key per process.
#[tokio::test(flavor = "current_thread")]
async fn keys_made_per_request_by_random_finish_the_call() {
    let paid = AtomicU32::new(0);
    let body = pay(&paid);
    let fresh = || StateKey::random().unwrap();
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &fresh())).await);
    let retry = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    let (keys, state, _) = round_of(body(&ask(&retry, &fresh())).await);
    assert_eq!(keys, ["pay"]);
    let last = call(ROUNDS, answers(&[("pay", yes())]), Some(state));
    assert_eq!(done(body(&ask(&last, &fresh())).await), "paid for Oslo");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}

/// An expired state starts its call over under the same id, with its rounds numbered on: a
/// copy of the old retry sent after the call moved on is used, and the call's effect, keyed
/// by its id, stays one effect.
#[tokio::test(flavor = "current_thread")]
async fn an_expired_state_starts_over_as_the_same_call() {
    let later = Arc::new(Mutex::new(Duration::ZERO));
    let clock = {
        let later = Arc::clone(&later);
        move || std::time::SystemTime::now() + *later.lock().unwrap()
    };
    let key = key().with_store(MemoryStore::new()).with_clock(clock);
    let ids = Mutex::new(Vec::new());
    let paid = AtomicU32::new(0);
    let body = async |ask: &Ask| {
        ids.lock().unwrap().push(ask.call_id().unwrap());
        pay(&paid)(ask).await
    };
    let (_, state, _) = round_of(body(&ask(&call(ROUNDS, None, None), &key)).await);
    let old = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    // Two hours pass by the key's clock: the state has outlived its time to live.
    *later.lock().unwrap() = Duration::from_secs(7_200);
    let (keys, state, messages) = round_of(body(&ask(&old, &key)).await);
    assert_eq!(keys, ["trip"]);
    assert!(messages[0].contains("could not continue"), "{messages:?}");
    assert!(
        messages[0].contains("may already have happened"),
        "{messages:?}"
    );
    let again = call(ROUNDS, answers(&[("trip", oslo())]), Some(state));
    let (_, state, _) = round_of(body(&ask(&again, &key)).await);
    // The old retry, fresh again by a clock put back, finds a later round: used.
    *later.lock().unwrap() = Duration::ZERO;
    assert!(
        rpc(&body(&ask(&old, &key)).await)
            .message
            .contains("used already")
    );
    let last = call(ROUNDS, answers(&[("pay", yes())]), Some(state));
    assert_eq!(done(body(&ask(&last, &key)).await), "paid for Oslo");
    let ids = ids.lock().unwrap().clone();
    assert!(ids.windows(2).all(|w| w[0] == w[1]), "one call: {ids:?}");
    assert_eq!(paid.load(Ordering::SeqCst), 1);
}
