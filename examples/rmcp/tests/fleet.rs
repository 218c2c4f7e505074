//! A fleet: two `fleet_server` processes over HTTP that share one secret and one real Redis,
//! on 2026-07-28. Rounds move between them, a final retry sent to both at once pays once, a
//! Redis that went away fails retries closed, a durable Redis keeps every record through a
//! crash, one restarted empty never lets a retry pay again in silence, and a process restarted
//! between rounds still finishes the call.

#[allow(dead_code)] // Shared with the other tests; this one finds an example with it.
#[path = "../../tests/common/mod.rs"]
mod common;
#[allow(dead_code)] // Shared with the soak.
#[path = "support/fleet.rs"]
mod fleet;
#[allow(dead_code)] // Shared with the other HTTP tests; the fleet serves from its own processes.
#[path = "support/http.rs"]
mod http;
#[allow(dead_code)] // Shared with elicit-core's tests; this one starts a Redis of its own.
#[path = "../../../elicit-core/tests/support/redis_server.rs"]
mod redis_server;

use std::path::Path;
use std::time::Duration;

use rmcp::ServiceError;
use rmcp::model::*;

use fleet::*;
use http::Client;
use redis_server::TestRedis;

const ANY_PORT: &str = "127.0.0.1:0";

async fn connect(process: &Process) -> Client {
    http::connect(&process.url, None).await
}

/// The first two rounds of a call to pay `number`: the first on `one`, the second on `two`.
/// Returns the final retry.
async fn two_rounds(one: &Client, two: &Client, number: &str) -> CallToolRequestParams {
    let first = asks(one, CallToolRequestParams::new("pay_invoice")).await;
    let second = asks(two, answering(&first, "invoice", invoice(number))).await;
    answering(&second, "pay", yes())
}

/// `request` on `client`, again and again until the store is back.
async fn once_back(client: &Client, request: &CallToolRequestParams) -> CallToolResponse {
    for _ in 0..50 {
        match client.call_tool_once(request.clone()).await {
            Err(ServiceError::McpError(e)) if e.message.contains("store is unavailable") => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            other => return other.expect("an answer"),
        }
    }
    panic!("the store did not come back")
}

fn paid(ledger: &Path) -> Vec<(String, usize)> {
    payments(ledger).into_iter().collect()
}

fn once(invoices: &[&str]) -> Vec<(String, usize)> {
    invoices.iter().map(|i| ((*i).to_owned(), 1)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_on_a_durable_redis_runs_each_round_once() {
    let Some(mut redis) = TestRedis::durable("a_fleet_runs_each_round_once") else {
        return;
    };
    let ledger = ledger("durable");
    let a = Process::start(&redis.url, &ledger, ANY_PORT, 0, None);
    let b = Process::start(&redis.url, &ledger, ANY_PORT, 0, None);
    let (on_a, on_b) = (connect(&a).await, connect(&b).await);

    // Round 1 on A, round 2 on B; the final retry to both at once.
    let last = two_rounds(&on_a, &on_b, "INV-1").await;
    let (from_a, from_b) = tokio::join!(text(&on_a, last.clone()), text(&on_b, last.clone()));
    let (from_a, from_b) = (from_a.unwrap(), from_b.unwrap());
    assert_eq!(from_a, "Paid 120 EUR for invoice INV-1.");
    assert_eq!(from_a, from_b, "both copies get the same result");
    // Its response lost, the client sends it once more: the same result, nothing paid again.
    assert_eq!(text(&on_a, last.clone()).await.unwrap(), from_a);
    assert_eq!(paid(&ledger), once(&["INV-1"]));
    assert_eq!(attempts(&ledger), 1, "the body ran once");

    // Redis crashes and comes back with every record: the resend still runs nothing.
    redis.restart(false).unwrap();
    let again = once_back(&on_b, &last).await;
    let CallToolResponse::Complete(again) = again else {
        panic!("{again:?}")
    };
    assert_eq!(text_of(&again), from_a);
    assert_eq!(attempts(&ledger), 1);

    // Redis goes away mid-call: the retry is refused, saying why in fixed words, and nothing
    // is paid.
    let last = two_rounds(&on_a, &on_b, "INV-2").await;
    redis.stop();
    for client in [&on_a, &on_b] {
        match text(client, last.clone()).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INTERNAL_ERROR, "{e:?}");
                assert!(
                    e.message.starts_with("the state store is unavailable"),
                    "{e:?}"
                );
                assert!(
                    !e.message.contains("onnection"),
                    "Redis's words stay in traces: {e:?}"
                );
            }
            other => panic!("a retry ran without its store: {other:?}"),
        }
    }
    assert_eq!(paid(&ledger), once(&["INV-1"]));
    // Back again, the retry runs once.
    redis.start().unwrap();
    let done = once_back(&on_b, &last).await;
    let CallToolResponse::Complete(done) = done else {
        panic!("{done:?}")
    };
    assert_eq!(text_of(&done), "Paid 120 EUR for invoice INV-2.");
    assert_eq!(
        text(&on_a, last).await.unwrap(),
        "Paid 120 EUR for invoice INV-2."
    );
    assert_eq!(paid(&ledger), once(&["INV-1", "INV-2"]));

    // A process restarted between rounds still finishes the call.
    let first = asks(&on_a, CallToolRequestParams::new("pay_invoice")).await;
    drop(on_a);
    drop(a);
    let a = Process::start(&redis.url, &ledger, ANY_PORT, 0, None);
    let on_a = connect(&a).await;
    let second = asks(&on_a, answering(&first, "invoice", invoice("INV-3"))).await;
    let done = text(&on_b, answering(&second, "pay", yes())).await.unwrap();
    assert_eq!(done, "Paid 120 EUR for invoice INV-3.");
    assert_eq!(paid(&ledger), once(&["INV-1", "INV-2", "INV-3"]));
    let _ = std::fs::remove_dir_all(&ledger);
}

/// A Redis that keeps nothing through a restart, restarted empty: a final retry that paid,
/// sent again, does not pay again in silence. It is asked again, saying that what the earlier
/// answers led to may already have happened; answered again, it runs under the same call id,
/// which the payment service recognises: one payment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redis_restarted_empty_never_pays_again_in_silence() {
    let Some(mut redis) = TestRedis::own("a_redis_restarted_empty") else {
        return;
    };
    let ledger = ledger("empty");
    let a = Process::start(&redis.url, &ledger, ANY_PORT, 0, None);
    let b = Process::start(&redis.url, &ledger, ANY_PORT, 0, None);
    let (on_a, on_b) = (connect(&a).await, connect(&b).await);
    let last = two_rounds(&on_a, &on_b, "INV-9").await;
    assert_eq!(
        text(&on_a, last.clone()).await.unwrap(),
        "Paid 120 EUR for invoice INV-9."
    );

    redis.restart(true).unwrap();
    let CallToolResponse::InputRequired(again) = once_back(&on_b, &last).await else {
        panic!("the resend was not asked again")
    };
    let (keys, message) = asked(&again);
    assert_eq!(keys, ["invoice"]);
    assert!(message.contains("may already have happened"), "{message}");
    assert_eq!(attempts(&ledger), 1, "nothing ran");

    // The person answers again: the body runs, and the payment service sees the same key.
    let second = asks(&on_a, answering(&again, "invoice", invoice("INV-9"))).await;
    let done = text(&on_b, answering(&second, "pay", yes())).await.unwrap();
    assert_eq!(done, "Paid 120 EUR for invoice INV-9.");
    assert_eq!(attempts(&ledger), 2);
    assert_eq!(paid(&ledger), once(&["INV-9"]));
    let _ = std::fs::remove_dir_all(&ledger);
}

/// A Redis whose `maxmemory-policy` evicts keys with a time to live (`volatile-lru`, a common
/// managed default) lets calls' entries go under memory pressure. The store warns of it at
/// connect, and every finished call's final retry, resent once its entry may have been
/// evicted, gets its recorded result or is asked again saying what its answers led to may have
/// happened: no body reaches the payment a second time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_evicting_redis_never_runs_a_finished_round_again() {
    let Some(redis) = TestRedis::own("an_evicting_redis") else {
        return;
    };
    redis.cli(&["CONFIG", "SET", "maxmemory-policy", "volatile-lru"]);
    let ledger = ledger("evicting");
    let logs = std::env::temp_dir().join(format!("elicit-evicting-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&logs);
    let a = Process::start(&redis.url, &ledger, ANY_PORT, 0, Some(&logs));
    let b = Process::start(&redis.url, &ledger, ANY_PORT, 0, Some(&logs));
    let (on_a, on_b) = (connect(&a).await, connect(&b).await);
    let mut finals = Vec::new();
    for n in 0..20 {
        let number = format!("E{n}");
        let last = two_rounds(&on_a, &on_b, &number).await;
        let paid = text(&on_a, last.clone()).await.unwrap();
        assert_eq!(paid, format!("Paid 120 EUR for invoice {number}."));
        finals.push((paid, last));
    }
    // Memory capped a little above what Redis holds, then filled with keys that expire: Redis
    // evicts such keys, the calls' entries among them.
    let info = redis.cli(&["INFO", "memory"]);
    let used: u64 = info
        .lines()
        .find_map(|line| line.strip_prefix("used_memory:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("used_memory");
    redis.cli(&["CONFIG", "SET", "maxmemory", &(used + 400_000).to_string()]);
    let filler = "x".repeat(4_000);
    for i in 0..300 {
        redis.cli(&["SET", &format!("filler:{i}"), &filler, "PX", "3600000"]);
    }
    let stats = redis.cli(&["INFO", "stats"]);
    let evicted: u64 = stats
        .lines()
        .find_map(|line| line.strip_prefix("evicted_keys:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("evicted_keys");
    assert!(evicted > 0, "nothing was evicted");
    let (mut replayed, mut asked_again) = (0, 0);
    for (paid, last) in &finals {
        match on_b.call_tool_once(last.clone()).await.expect("an answer") {
            CallToolResponse::Complete(result) => {
                assert_eq!(&text_of(&result), paid);
                replayed += 1;
            }
            CallToolResponse::InputRequired(round) => {
                let (keys, message) = asked(&round);
                assert_eq!(keys, ["invoice"]);
                assert!(message.contains("may already have happened"), "{message}");
                asked_again += 1;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(asked_again > 0, "no entry was evicted: {replayed} replayed");
    assert_eq!(attempts(&ledger), 20, "no body reached the payment twice");
    assert_eq!(payments(&ledger).len(), 20);
    let log = std::fs::read_to_string(&logs).unwrap_or_default();
    assert!(log.contains("maxmemory-policy volatile-lru"), "{log}");
    drop((a, b));
    let _ = std::fs::remove_dir_all(&ledger);
    let _ = std::fs::remove_file(&logs);
}

/// Replica clocks apart: a call's final round claimed and recorded on a process whose clock is
/// ahead, then its final retry resent near the end of the state's life to a process whose clock
/// is not, which still opens the state. The record is still there (Redis keeps it by its own
/// clock, past the state's expiry by the skew allowed), so the resend gets it, and the body
/// does not run again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_whose_clock_is_ahead_never_lets_a_record_lapse_early() {
    let Some(redis) = TestRedis::own("a_replica_whose_clock_is_ahead") else {
        return;
    };
    let ledger = ledger("clock_ahead");
    let ttl = Duration::from_secs(6);
    let ahead = Duration::from_secs(3);
    let env = |ahead: Option<Duration>| {
        let mut env = vec![("FLEET_TTL_MS", ttl.as_millis().to_string())];
        if let Some(ahead) = ahead {
            env.push(("FLEET_CLOCK_AHEAD_MS", ahead.as_millis().to_string()));
        }
        env
    };
    let on_time = Process::start_with(&redis.url, &ledger, ANY_PORT, 0, None, &env(None));
    let early = Process::start_with(&redis.url, &ledger, ANY_PORT, 0, None, &env(Some(ahead)));
    let (a, b) = (connect(&on_time).await, connect(&early).await);
    let issued = std::time::Instant::now();
    let last = two_rounds(&a, &a, "SKEW-1").await;
    let paid = text(&b, last.clone()).await.unwrap();
    assert_eq!(paid, "Paid 120 EUR for invoice SKEW-1.");
    // Past the point where a record kept by the early clock would have lapsed (the state's
    // expiry less the clock's lead), and before the state expires on the process on time.
    tokio::time::sleep((ttl - ahead + Duration::from_secs(1)).saturating_sub(issued.elapsed()))
        .await;
    assert!(issued.elapsed() < ttl, "the state must still open on time");
    assert_eq!(text(&a, last).await.unwrap(), paid);
    assert_eq!(attempts(&ledger), 1, "the body ran once");
    drop((on_time, early));
    let _ = std::fs::remove_dir_all(&ledger);
}
