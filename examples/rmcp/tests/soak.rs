//! A chaos soak of a fleet on 2026-07-28: two `fleet_server` processes, one real Redis with an
//! append-only file, and many callers at once, each paying invoices behind a confirmation
//! (its person taking 50 to 200 ms to answer each question).
//! Final retries are sent twice at random, to both processes at once, and one paid call in four
//! sends its final retry again once it ended; one process is killed
//! (`kill -9`) while bodies run, and started again; Redis is killed and restarted once with
//! its records, and once empty; one process is cut off from Redis (a partition) and healed;
//! one caller's every fifth payment blocks its thread for longer than the lease first; and one
//! caller floods
//! the store all along. The processes run a short lease, so that a dead one's round is taken
//! over within seconds.
//!
//! It asserts that every approved call paid exactly once (none twice, none lost), and counts
//! bodies as well as payments: a call's body reaches the payment a second time only as a
//! take-over the body was told of, which it counts and bounds, or after the call was asked
//! again saying that what its answers led to may have happened. Every call ends in its result
//! or a clear error, no request waits on a dead process for longer than the lease, and the
//! flood stops nobody. Bounded in calls and seconds, on
//! 127.0.0.1, every process stopped at the end. It prints its figures (with `--nocapture`):
//!
//! ```sh
//! cargo test -p elicit-rmcp-examples --test soak -- --nocapture
//! SOAK_SECONDS=120 cargo test -p elicit-rmcp-examples --test soak -- --nocapture  # longer
//! ```
//!
//! A longer run repeats the chaos's timeline (kill, durable restart, cut-off, empty restart)
//! for as long as it fits.

#[allow(dead_code)] // Shared with the other tests; this one finds an example with it.
#[path = "../../tests/common/mod.rs"]
mod common;
#[allow(dead_code)] // Shared with the fleet's test.
#[path = "support/fleet.rs"]
mod fleet;
#[allow(dead_code)] // Shared with the other HTTP tests.
#[path = "support/http.rs"]
mod http;
#[allow(dead_code)] // Shared with the fleet's test.
#[path = "support/proxy.rs"]
mod proxy;
#[allow(dead_code)] // Shared with elicit-core's tests; this one starts a Redis of its own.
#[path = "../../../elicit-core/tests/support/redis_server.rs"]
mod redis_server;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::ServiceError;
use rmcp::model::*;
use tokio::sync::Mutex as AsyncMutex;

use fleet::*;
use http::Client;
use proxy::Proxy;
use redis_server::TestRedis;

/// Callers at once, besides the flood.
const CALLERS: usize = 12;
/// The most calls one caller makes; it stops once the soak has run its time.
const CALLS_EACH: usize = 10_000;
/// How long callers go on starting calls by default; `SOAK_SECONDS` sets another length, and
/// the chaos's timeline repeats for as long as it fits.
const RUN: Duration = Duration::from_secs(9);
/// How long the chaos's timeline takes.
const TIMELINE: Duration = Duration::from_millis(8000);
/// One paid call in this many sends its final retry again once it ended, to either process.
const RESEND_ONE_IN: u64 = 4;

/// How long callers go on starting calls.
fn run_for() -> Duration {
    std::env::var("SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .map_or(RUN, Duration::from_secs)
}
/// How long a payment takes to confirm once made: a process killed then has paid.
const PAY_MS: u64 = 300;
/// The processes' lease: a dead one's round is taken over once it passes.
const LEASE: Duration = Duration::from_secs(3);
/// How long a payment whose invoice ends in `-block` blocks its thread first: past the lease.
const BLOCK: Duration = Duration::from_secs(4);
/// One final retry in this many is sent to both processes at once.
const DUPLICATE_ONE_IN: u64 = 5;

/// A small generator of numbers, so that every run of the soak sends the same mix.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % sides
    }
}

/// The two processes' URLs, and what the callers saw.
struct Soak {
    urls: [String; 2],
    /// Set while the flood should go on.
    running: AtomicBool,
    duplicates: AtomicUsize,
    /// Copies of one retry that ended differently: the store lost its records between them.
    diverged: AtomicUsize,
    asked_again: AtomicUsize,
    /// Per invoice, how many times its call was asked again saying what its answers led to
    /// may have happened.
    told: Mutex<BTreeMap<String, usize>>,
    dead_replica_hits: AtomicUsize,
    flood_requests: AtomicUsize,
    /// Final retries sent again after their call ended, and how many of them were asked again
    /// (the store had lost the round, and said so) rather than replayed.
    resent: AtomicUsize,
    resent_asked_again: AtomicUsize,
    /// The longest a request waited after it found a process dead.
    longest_after_a_death: Mutex<Duration>,
}

/// How one call ended.
#[derive(Debug)]
enum Ending {
    Paid(String),
    /// A JSON-RPC error: its message.
    Error(String),
}

/// One caller's connections, one to each process, made again after a process died.
struct Caller {
    token: Option<String>,
    clients: [AsyncMutex<Option<Client>>; 2],
}

impl Caller {
    fn new(token: Option<String>) -> Caller {
        Caller {
            token,
            clients: [AsyncMutex::new(None), AsyncMutex::new(None)],
        }
    }

    /// `request` on process `at`: its response, a JSON-RPC error, or the transport's failure.
    async fn once(
        &self,
        soak: &Soak,
        at: usize,
        request: &CallToolRequestParams,
    ) -> Result<Result<CallToolResponse, ErrorData>, String> {
        let mut client = self.clients[at].lock().await;
        if client.is_none() {
            *client = Some(http::try_connect(&soak.urls[at], self.token.as_deref()).await?);
        }
        let connected = client.as_ref().expect("connected");
        match connected.call_tool_once(request.clone()).await {
            Ok(response) => Ok(Ok(response)),
            Err(ServiceError::McpError(e)) => Ok(Err(e)),
            Err(other) => {
                *client = None;
                Err(other.to_string())
            }
        }
    }

    /// Sends `request` to process `at`, as a client that fails over would: to the other
    /// process when one is dead, and again shortly while the store is unavailable or the
    /// same retry is still being answered. Its response, or the clear error it ended in.
    async fn send(
        &self,
        soak: &Soak,
        mut at: usize,
        request: &CallToolRequestParams,
    ) -> Result<CallToolResponse, ErrorData> {
        let mut dead_since = None;
        let started = Instant::now();
        loop {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "a request never ended"
            );
            match self.once(soak, at, request).await {
                Ok(Err(e))
                    if e.message.contains("store is unavailable")
                        || e.message.contains("still being answered") =>
                {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Ok(ended) => {
                    if let Some(since) = dead_since {
                        let waited = Instant::elapsed(&since);
                        let mut longest = soak.longest_after_a_death.lock().unwrap();
                        *longest = (*longest).max(waited);
                    }
                    return ended;
                }
                Err(_) => {
                    if dead_since.is_none() {
                        soak.dead_replica_hits.fetch_add(1, Ordering::Relaxed);
                        dead_since = Some(Instant::now());
                    }
                    at = 1 - at;
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            }
        }
    }

    /// Sends a final retry again after its call ended with `paid`, a moment later, to either
    /// process: it gets the same result, or is asked again saying what its answers led to may
    /// have happened (where the store lost the round), or a clear error; never a second payment.
    async fn resend(
        &self,
        soak: &Soak,
        dice: &mut Dice,
        request: &CallToolRequestParams,
        paid: &str,
    ) {
        tokio::time::sleep(Duration::from_millis(dice.roll(300))).await;
        soak.resent.fetch_add(1, Ordering::Relaxed);
        match self.send(soak, dice.roll(2) as usize, request).await {
            Ok(CallToolResponse::Complete(again)) => assert_eq!(text_of(&again), paid),
            Ok(CallToolResponse::InputRequired(round)) => {
                let (_, message) = asked(&round);
                assert!(message.contains("may already have happened"), "{message}");
                soak.resent_asked_again.fetch_add(1, Ordering::Relaxed);
            }
            Ok(other) => panic!("{other:?}"),
            Err(e) => assert!(e.message.contains("may"), "{e:?}"),
        }
    }

    /// One call to pay `number`, every round on a process of the dice's choosing.
    async fn call(&self, soak: &Soak, dice: &mut Dice, number: &str) -> Ending {
        let mut request = CallToolRequestParams::new("pay_invoice");
        for _ in 0..12 {
            let at = dice.roll(2) as usize;
            let last = request
                .input_responses
                .as_ref()
                .is_some_and(|r| r.contains_key("pay"));
            let response = if last && dice.roll(DUPLICATE_ONE_IN) == 0 {
                // Sent twice, to both processes at once: both copies end alike, but where
                // the store lost its records between the two: the later one is then asked
                // again, saying so, and the client keeps the result.
                soak.duplicates.fetch_add(1, Ordering::Relaxed);
                let (one, two) = tokio::join!(
                    self.send(soak, at, &request),
                    self.send(soak, 1 - at, &request)
                );
                let (first, second) = (
                    format!("{:?}", one.as_ref().map(complete_text)),
                    format!("{:?}", two.as_ref().map(complete_text)),
                );
                if first == second {
                    one
                } else {
                    let said = |text: &str| text.contains("may already have happened");
                    assert!(said(&first) || said(&second), "{first}\n{second}");
                    soak.diverged.fetch_add(1, Ordering::Relaxed);
                    if said(&first) { two } else { one }
                }
            } else {
                self.send(soak, at, &request).await
            };
            let round = match response {
                Ok(CallToolResponse::Complete(result)) => {
                    let paid = text_of(&result);
                    if last && dice.roll(RESEND_ONE_IN) == 0 {
                        self.resend(soak, dice, &request, &paid).await;
                    }
                    return Ending::Paid(paid);
                }
                Ok(CallToolResponse::InputRequired(round)) => round,
                Ok(other) => panic!("{other:?}"),
                Err(e) => return Ending::Error(e.message.into_owned()),
            };
            let (keys, message) = asked(&round);
            if message.contains("may already have happened") {
                soak.asked_again.fetch_add(1, Ordering::Relaxed);
                *soak
                    .told
                    .lock()
                    .unwrap()
                    .entry(number.to_owned())
                    .or_default() += 1;
            }
            request = match keys[0].as_str() {
                "invoice" => answering(&round, "invoice", invoice(number)),
                _ => answering(&round, "pay", yes()),
            };
            // The person takes a moment to answer.
            tokio::time::sleep(Duration::from_millis(50 + dice.roll(150))).await;
        }
        panic!("{number}: a call took more than 12 rounds")
    }
}

/// The text of a complete result, or what else a response was.
fn complete_text(response: &CallToolResponse) -> String {
    match response {
        CallToolResponse::Complete(result) => text_of(result),
        other => format!("{other:?}"),
    }
}

/// The flood: one caller, with a credential of its own, claiming rounds as fast as it can
/// (each a first call and the retry that answers it) for as long as the soak runs.
async fn flood(soak: &Soak) {
    let caller = Caller::new(Some("a caller that floods the store".to_owned()));
    let mut at = 0;
    while soak.running.load(Ordering::Relaxed) {
        at = 1 - at;
        soak.flood_requests.fetch_add(1, Ordering::Relaxed);
        let first = CallToolRequestParams::new("pay_invoice");
        let Ok(Ok(CallToolResponse::InputRequired(round))) = caller.once(soak, at, &first).await
        else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        soak.flood_requests.fetch_add(1, Ordering::Relaxed);
        let retry = answering(&round, "invoice", invoice("FLOOD"));
        let _ = caller.once(soak, 1 - at, &retry).await;
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[at]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_pays_each_approved_call_once_through_chaos() {
    let Some(redis) = TestRedis::durable("soak") else {
        return;
    };
    let redis = Arc::new(Mutex::new(redis));
    let url = redis.lock().unwrap().url.clone();
    let ledger = ledger("soak");
    let logs = std::env::temp_dir().join(format!("elicit-soak-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&logs);
    // Process a reaches Redis through a proxy that can cut it off.
    let port = redis.lock().unwrap().port();
    let proxy = Arc::new(Proxy::to(port).await);
    let env = [
        ("FLEET_LEASE_MS", LEASE.as_millis().to_string()),
        ("FLEET_BLOCK_MS", BLOCK.as_millis().to_string()),
    ];
    let start = |url: &str, address: &str| {
        Process::start_with(url, &ledger, address, PAY_MS, Some(&logs), &env)
    };
    let a = start(&proxy.url, "127.0.0.1:0");
    let b = start(&url, "127.0.0.1:0");
    let soak = Arc::new(Soak {
        urls: [a.url.clone(), b.url.clone()],
        running: AtomicBool::new(true),
        duplicates: AtomicUsize::new(0),
        diverged: AtomicUsize::new(0),
        asked_again: AtomicUsize::new(0),
        told: Mutex::default(),
        resent: AtomicUsize::new(0),
        resent_asked_again: AtomicUsize::new(0),
        dead_replica_hits: AtomicUsize::new(0),
        flood_requests: AtomicUsize::new(0),
        longest_after_a_death: Mutex::new(Duration::ZERO),
    });
    let started = Instant::now();

    // The chaos, on a timeline: a process killed mid-body and started again on its address,
    // then Redis killed and restarted with its records, then that process cut off from Redis
    // and healed, then Redis restarted empty.
    let a_address = a.address.clone();
    let a = Arc::new(Mutex::new(a));
    let chaos = {
        let (a, redis, proxy, ledger, logs, env) = (
            a.clone(),
            redis.clone(),
            proxy.clone(),
            ledger.clone(),
            logs.clone(),
            env.clone(),
        );
        tokio::spawn(async move {
            let run = run_for();
            let mut cycles = 0;
            loop {
                cycles += 1;
                let began = Instant::now();
                tokio::time::sleep(Duration::from_millis(1500)).await;
                a.lock().unwrap().kill();
                tokio::time::sleep(Duration::from_millis(500)).await;
                *a.lock().unwrap() =
                    Process::start_with(&proxy.url, &ledger, &a_address, PAY_MS, Some(&logs), &env);
                tokio::time::sleep(Duration::from_millis(2000)).await;
                redis
                    .lock()
                    .unwrap()
                    .restart(false)
                    .expect("Redis starts again");
                tokio::time::sleep(Duration::from_millis(500)).await;
                proxy.cut(true);
                tokio::time::sleep(Duration::from_millis(2500)).await;
                proxy.cut(false);
                tokio::time::sleep(Duration::from_millis(1000)).await;
                redis
                    .lock()
                    .unwrap()
                    .restart(true)
                    .expect("Redis starts again, empty");
                tokio::time::sleep(TIMELINE.saturating_sub(began.elapsed())).await;
                if started.elapsed() + TIMELINE > run {
                    break cycles;
                }
            }
        })
    };
    let flooding = {
        let soak = soak.clone();
        tokio::spawn(async move { flood(&soak).await })
    };

    // The callers: each pays its own invoices, one call after another.
    let mut callers = Vec::new();
    for index in 0..CALLERS {
        let soak = soak.clone();
        callers.push(tokio::spawn(async move {
            let caller = Caller::new(Some(format!("caller {index}")));
            let mut dice = Dice(0x9E37_79B9_7F4A_7C15 ^ ((index as u64 + 1) * 0x1000_0001));
            let mut ended = Vec::new();
            for n in 0..CALLS_EACH {
                if started.elapsed() > run_for() {
                    break;
                }
                // One caller's every fifth payment blocks its thread for longer than the lease:
                // the other worker of its process keeps the claim. (Were every worker of a
                // process blocked at once, nothing could renew it.)
                let number = match (index, n % 5) {
                    (0, 1) => format!("C{index}-{n}-block"),
                    _ => format!("C{index}-{n}"),
                };
                let began = Instant::now();
                let ending = caller.call(&soak, &mut dice, &number).await;
                ended.push((number, ending, began.elapsed()));
            }
            ended
        }));
    }
    let mut calls = Vec::new();
    for caller in callers {
        calls.extend(caller.await.expect("a caller finished"));
    }
    soak.running.store(false, Ordering::Relaxed);
    let cycles = chaos.await.expect("the chaos ran");
    flooding.await.expect("the flood ended");
    let took = started.elapsed();

    // What the payment service holds: every approved call paid exactly once.
    let paid = payments(&ledger);
    let mut durations: Vec<Duration> = calls.iter().map(|(_, _, d)| *d).collect();
    durations.sort();
    let approved: Vec<&String> = calls
        .iter()
        .filter_map(|(number, ending, _)| match ending {
            Ending::Paid(text) => {
                assert_eq!(*text, format!("Paid 120 EUR for invoice {number}."));
                Some(number)
            }
            Ending::Error(_) => None,
        })
        .collect();
    let errors: Vec<&String> = calls
        .iter()
        .filter_map(|(_, ending, _)| match ending {
            Ending::Error(message) => Some(message),
            Ending::Paid(_) => None,
        })
        .collect();
    let twice: Vec<_> = paid.iter().filter(|(_, n)| **n > 1).collect();
    let lost: Vec<_> = approved
        .iter()
        .filter(|n| !paid.contains_key(**n))
        .collect();
    let attempts = attempts(&ledger);
    let bodies = bodies(&ledger);
    let told = soak.told.lock().unwrap().clone();
    let taken_over: usize = bodies.values().map(|(_, taken)| taken).sum();
    let effects: usize = paid.values().sum();
    let log = std::fs::read_to_string(&logs).unwrap_or_default();
    let longest = *soak.longest_after_a_death.lock().unwrap();
    println!(
        "soak: {} calls by {CALLERS} callers in {:.1} s; {} paid, {} clear errors; {} final \
         retries sent to both processes ({} of them ended apart, across the empty restart); {} \
         final retries sent again after their call ended ({} asked again, none paid again); \
         {cycles} times over: a process killed mid-body and started again, Redis restarted with \
         its records, a process cut off from Redis and healed, Redis restarted empty; {} rounds \
         asked again after an empty restart; {} requests found a process dead, the longest then waited {:.2} s; the flood \
         sent {} requests; effects {effects} (payments) of {attempts} attempts (bodies that \
         reached the payment: {} first runs of their round, {taken_over} take-overs); per call \
         p50 {:.0} ms, p99 {:.0} ms; {} warnings logged",
        calls.len(),
        took.as_secs_f64(),
        approved.len(),
        errors.len(),
        soak.duplicates.load(Ordering::Relaxed),
        soak.diverged.load(Ordering::Relaxed),
        soak.resent.load(Ordering::Relaxed),
        soak.resent_asked_again.load(Ordering::Relaxed),
        soak.asked_again.load(Ordering::Relaxed),
        soak.dead_replica_hits.load(Ordering::Relaxed),
        longest.as_secs_f64(),
        soak.flood_requests.load(Ordering::Relaxed),
        attempts - taken_over,
        percentile(&durations, 0.5).as_secs_f64() * 1000.0,
        percentile(&durations, 0.99).as_secs_f64() * 1000.0,
        log.lines().filter(|l| l.contains("WARN")).count(),
    );
    assert!(twice.is_empty(), "paid twice: {twice:?}");
    // Bodies, not only payments: a call's body reached the payment again only as a take-over
    // it was told of, or after its call was asked again saying so.
    for (number, (first_runs, _)) in &bodies {
        let said = told.get(number).copied().unwrap_or(0);
        assert!(
            *first_runs <= 1 + said,
            "{number}: {first_runs} bodies reached the payment as first runs, told {said} times"
        );
    }
    // Each kill and each cut-off strikes at most the bodies in flight.
    assert!(
        taken_over <= 2 * CALLERS * cycles,
        "{taken_over} take-overs in {cycles} cycles"
    );
    assert!(lost.is_empty(), "approved, never paid: {lost:?}");
    assert_eq!(
        effects,
        approved.len() + paid.keys().filter(|n| !approved.contains(n)).count()
    );
    // A payment for a call that ended in an error is one whose error says so.
    for (number, ending, _) in &calls {
        if let (Ending::Error(message), true) = (ending, paid.contains_key(number)) {
            assert!(
                message.contains("may"),
                "{number} paid, and ended in: {message}"
            );
        }
    }
    // Every call ended, each in its result or a clear error; the flood stopped nobody.
    assert!(calls.len() >= CALLERS * 4, "{} calls", calls.len());
    assert!(errors.len() * 10 <= calls.len(), "{errors:?}");
    assert!(
        !errors.iter().any(|e| e.contains("store is unavailable")),
        "{errors:?}"
    );
    assert!(soak.duplicates.load(Ordering::Relaxed) > 0);
    assert!(
        soak.dead_replica_hits.load(Ordering::Relaxed) > 0,
        "the kill met no call"
    );
    assert!(
        longest <= LEASE + BLOCK + Duration::from_millis(PAY_MS) + Duration::from_secs(2),
        "a request waited {longest:?} on a dead process"
    );
    assert!(soak.flood_requests.load(Ordering::Relaxed) > 100);
    drop(a);
    drop(b);
    let _ = std::fs::remove_dir_all(&ledger);
    let _ = std::fs::remove_file(&logs);
}
