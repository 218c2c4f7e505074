//! A deterministic simulation of a fleet on 2026-07-28: several replicas, one shared store
//! that can fail each step, and clients that pay behind two questions. One seed decides every
//! choice (which replica a request reaches, how long a person and a body take, which fault
//! strikes and when), and time is tokio's paused clock, so a schedule of minutes runs in
//! about a millisecond and the same seed runs the same schedule again.
//!
//! Why tokio's paused clock rather than a simulated network: every party is in one process and
//! talks through the engine's own seams (a `RoundStore`, a `Port`), so the faults are best
//! drawn there, at each store step, and a current-thread runtime with a paused clock already
//! runs every task in one order for one seed. A network would only add a layer the engine
//! never sees.
//!
//! The faults, each drawn at a random time of a schedule: a replica dies (nothing it would do
//! afterwards reaches the store, and its requests never answer); a replica is cut off from the
//! store, and healed; the store restarts empty, or from its durable log, or from an older
//! snapshot (which, as the store contract requires of a store that lost writes, comes back
//! under a new generation); the store evicts any entry, running ones included; a store step
//! stalls past the lease; a record fails; final retries are duplicated, delayed, reordered and
//! resent after the call ended; one caller floods the store, with and without a credential;
//! replica clocks are apart from the store's by up to `StateKey::MAX_CLOCK_SKEW`; states
//! expire within the schedule.
//!
//! After every schedule it checks:
//!
//! - a round's effect runs a second time only where the later run is a take-over (the earlier
//!   claim lapsed) or its call was asked again saying that what the answers led to may have
//!   happened;
//! - two bodies of one round never run at once;
//! - every call ends in its result or a clear error, within a bounded number of requests;
//! - a retry of a finished round gets its recorded ending, or a clear error, or is asked
//!   again saying so;
//! - no call restarts or stops because of another caller's traffic;
//! - every body of a call sees the same `call_id`.
//!
//! `SIM_SCHEDULES` sets how many schedules run (200 by default, in a debug build; `.ci/run` runs 10,000 in a release build), `SIM_SEED`
//! runs one seed alone, and a failing seed is printed with the command that runs it again:
//!
//! ```sh
//! SIM_SEED=1234 cargo test -p elicit-core --test simulation -- --nocapture
//! ```
#![cfg(all(feature = "ask", feature = "derive"))]

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use elicit_core::ask::{
    Ask, Asked, Call, Claim, Ending, Port, PortFuture, Round, RoundStore, StateKey, StoreError,
};
use elicit_core::client::{ElicitationCapability, Request};
use elicit_core::{Elicit, ElicitResult, ProtocolVersion, SchemaError};
use serde_json::{Map, Value, json};
use tokio::time::Instant;

/// Where would you like to go?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Trip {
    city: String,
}

const SECRET: [u8; 32] = [7; 32];
const LEASE: Duration = StateKey::DEFAULT_LEASE;
/// The restart sentence a client reads when its call is asked again after a loss.
const MAY_HAVE_HAPPENED: &str = "may already have happened";

/// Whether to print each store step and effect (`SIM_LOG=1`), to read one schedule.
fn log(line: impl FnOnce() -> String) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ON.get_or_init(|| std::env::var_os("SIM_LOG").is_some()) {
        let at = START.with(|start| start.get().map(|s| s.elapsed().as_secs_f64()));
        eprintln!("{:>9.3} {}", at.unwrap_or_default(), line());
    }
}

thread_local! {
    /// When the schedule began, on its paused clock.
    static START: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// The seed's generator: xorshift64*, small and the same everywhere.
#[derive(Clone)]
struct Dice(Arc<Mutex<u64>>);

impl Dice {
    fn new(seed: u64) -> Dice {
        Dice(Arc::new(Mutex::new(
            seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        )))
    }

    fn roll(&self, sides: u64) -> u64 {
        let mut x = self.0.lock().unwrap();
        *x ^= *x >> 12;
        *x ^= *x << 25;
        *x ^= *x >> 27;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D) % sides.max(1)
    }

    fn chance(&self, one_in: u64) -> bool {
        self.roll(one_in) == 0
    }

    fn millis(&self, max: u64) -> Duration {
        Duration::from_millis(self.roll(max + 1))
    }
}

// ---------------------------------------------------------------------------------------------
// The store: a model of the contract, with room, and a fault at any step.

#[derive(Clone)]
enum Held {
    Asked,
    Running { claimant: String, until: Instant },
    Recorded(String),
    Released,
}

#[derive(Clone)]
struct Entry {
    number: u32,
    answers: String,
    held: Held,
    principal: String,
    stamp: u64,
    /// When its state expires everywhere, as the store keeps it: by the store's own clock,
    /// the allowed skew past the state's expiry.
    expires: SystemTime,
}

/// The schedule's wall clock: a fixed day, moved on by tokio's paused clock.
fn wall() -> SystemTime {
    let elapsed = START.with(|start| start.get().map(|s| s.elapsed()).unwrap_or_default());
    UNIX_EPOCH + Duration::from_secs(1_800_000_000) + elapsed
}

#[derive(Clone, Default)]
struct Entries {
    generation: u64,
    calls: BTreeMap<String, Entry>,
}

/// What the faults do to the store and the replicas now.
#[derive(Default)]
struct Faults {
    dead: Vec<bool>,
    cut: Vec<bool>,
    /// The store is restarting: every step fails.
    down: bool,
    /// The next record fails.
    fail_record: bool,
    /// The next step stalls this long.
    stall: Option<Duration>,
}

struct Model {
    entries: Entries,
    /// A copy taken earlier, for a restart from an older snapshot.
    snapshot: Option<Entries>,
    next_stamp: u64,
    cap: usize,
    principal_cap: usize,
    faults: Faults,
    /// How many times each fault struck.
    counts: BTreeMap<&'static str, u64>,
}

impl Model {
    fn struck(&mut self, fault: &'static str) {
        *self.counts.entry(fault).or_default() += 1;
    }

    fn generation(&self) -> String {
        format!("g{}", self.entries.generation)
    }

    /// Lets the oldest idle entry go, `principal`'s where given.
    fn let_go(&mut self, principal: Option<&str>) -> bool {
        let oldest = self
            .entries
            .calls
            .iter()
            .filter(|(_, e)| !matches!(e.held, Held::Running { .. }))
            .filter(|(_, e)| principal.is_none_or(|p| e.principal == p))
            .min_by_key(|(_, e)| e.stamp)
            .map(|(call, _)| call.clone());
        match oldest {
            Some(call) => {
                self.entries.calls.remove(&call);
                true
            }
            None => false,
        }
    }

    /// Forgets the entries whose state has expired everywhere.
    fn forget_expired(&mut self) {
        let now = wall();
        self.entries.calls.retain(|_, e| e.expires > now);
    }

    fn begin(&mut self, round: &Round) -> Result<String, StoreError> {
        self.forget_expired();
        let later = self
            .entries
            .calls
            .get(&round.call)
            .is_some_and(|e| e.number >= round.number);
        if !later {
            self.entries.calls.remove(&round.call);
            let mine = (self.entries.calls.values())
                .filter(|e| e.principal == round.principal)
                .count();
            if mine >= self.principal_cap && !self.let_go(Some(&round.principal)) {
                return Err(StoreError("a caller's rounds all run".into()));
            }
            if self.entries.calls.len() >= self.cap && !self.let_go(None) {
                return Err(StoreError("every round runs".into()));
            }
            self.next_stamp += 1;
            let entry = Entry {
                number: round.number,
                answers: String::new(),
                held: Held::Asked,
                principal: round.principal.clone(),
                stamp: self.next_stamp,
                expires: round.expires + StateKey::MAX_CLOCK_SKEW,
            };
            self.entries.calls.insert(round.call.clone(), entry);
        }
        Ok(self.generation())
    }

    fn claim(&mut self, round: &Round, lease: Duration) -> Claim {
        if round.generation != self.generation() {
            return Claim::Forgotten;
        }
        self.forget_expired();
        let now = Instant::now();
        let Some(entry) = self.entries.calls.get_mut(&round.call) else {
            return Claim::Forgotten;
        };
        let running = Held::Running {
            claimant: round.claimant.clone(),
            until: now + lease,
        };
        if entry.number > round.number {
            return Claim::Used;
        }
        if entry.number == round.number {
            let other = entry.answers != round.answers;
            match &entry.held {
                Held::Recorded(_) | Held::Running { .. } if other => return Claim::Used,
                Held::Recorded(ending) => return Claim::Recorded(ending.clone()),
                Held::Running { until, .. } if *until > now => return Claim::Running,
                Held::Running { .. } => {
                    entry.held = running;
                    return Claim::TakenOver;
                }
                Held::Asked | Held::Released => {}
            }
        }
        entry.number = round.number;
        entry.answers = round.answers.clone();
        entry.held = running;
        entry.expires = round.expires + StateKey::MAX_CLOCK_SKEW;
        Claim::First
    }

    fn mine(&mut self, round: &Round) -> Option<&mut Entry> {
        self.entries.calls.get_mut(&round.call).filter(|e| {
            e.number == round.number
                && matches!(&e.held, Held::Running { claimant, .. } if *claimant == round.claimant)
        })
    }
}

/// The store as one replica reaches it.
#[derive(Clone)]
struct Reach {
    replica: usize,
    model: Arc<Mutex<Model>>,
    dice: Dice,
}

impl Reach {
    /// One step: a little network delay, a stall where one is due, then `step` on the model,
    /// unless the replica is dead (no answer, ever) or cut off, or the store is down.
    async fn step<T>(
        &self,
        step: impl FnOnce(&mut Model) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        tokio::time::sleep(self.dice.millis(3)).await;
        let stall = self.model.lock().unwrap().faults.stall.take();
        if let Some(stall) = stall {
            self.model
                .lock()
                .unwrap()
                .struck("a store step stalled past the lease");
            tokio::time::sleep(stall).await;
        }
        let done = {
            let mut model = self.model.lock().unwrap();
            if model.faults.dead[self.replica] {
                None
            } else if model.faults.cut[self.replica] || model.faults.down {
                Some(Err(StoreError("unreachable".into())))
            } else {
                Some(step(&mut model))
            }
        };
        match done {
            Some(done) => done,
            None => std::future::pending().await,
        }
    }
}

impl RoundStore for Reach {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        Box::pin(self.step(|m| Ok(m.generation())))
    }

    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
        Box::pin(self.step(|m| {
            log(|| {
                format!(
                    "replica {} begins {} round {}",
                    self.replica,
                    &round.call[..6],
                    round.number
                )
            });
            m.begin(round)
        }))
    }

    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        Box::pin(self.step(move |m| {
            let claim = m.claim(round, lease);
            log(|| {
                format!(
                    "replica {} claims {} round {} as {}: {claim:?}",
                    self.replica,
                    &round.call[..6],
                    round.number,
                    &round.claimant[..6]
                )
            });
            Ok(claim)
        }))
    }

    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.step(move |m| {
            Ok(match m.mine(round) {
                Some(entry) => {
                    if let Held::Running { until, .. } = &mut entry.held {
                        *until = Instant::now() + lease;
                    }
                    true
                }
                None => false,
            })
        }))
    }

    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.step(move |m| {
            log(|| {
                format!(
                    "replica {} records {} round {} as {}",
                    self.replica,
                    &round.call[..6],
                    round.number,
                    &round.claimant[..6]
                )
            });
            if std::mem::take(&mut m.faults.fail_record) {
                m.struck("a record failed");
                return Err(StoreError("the record failed".into()));
            }
            Ok(match m.mine(round) {
                Some(entry) => {
                    entry.held = Held::Recorded(ending.to_owned());
                    true
                }
                None => false,
            })
        }))
    }

    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        Box::pin(self.step(move |m| {
            if let Some(entry) = m.mine(round) {
                entry.held = Held::Released;
            }
            Ok(())
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// The tool, and what its bodies did.

/// A port for 2026-07-28: every question is a round, and nothing is sent live.
struct Rounds;

impl Port for Rounds {
    fn carries(&self, _: &Request) -> Result<(), SchemaError> {
        Ok(())
    }
}

/// What bodies did, for the checks.
#[derive(Default)]
struct Journal {
    /// Per call id: each run of the effect, with whether it was a take-over.
    effects: BTreeMap<String, Vec<bool>>,
    /// Per round (the state its retry carried): how many bodies are inside the effect now.
    inside: BTreeMap<String, u32>,
    /// Two bodies of one round inside the effect at once.
    overlaps: Vec<String>,
    /// Per client call: every call id its bodies saw in a retry (a first call sent again is
    /// a new call, with a new id).
    ids: BTreeMap<usize, Vec<String>>,
}

/// Leaves the effect when dropped: when the body ends, or is stopped at an await.
struct Inside {
    journal: Arc<Mutex<Journal>>,
    round: String,
}

impl Drop for Inside {
    fn drop(&mut self) {
        let mut journal = self.journal.lock().unwrap();
        *journal.inside.entry(self.round.clone()).or_default() -= 1;
    }
}

/// The tool: which trip, then a confirmation, then the effect, which takes `work`.
async fn pay(
    ask: &Ask,
    journal: &Arc<Mutex<Journal>>,
    client: usize,
    round: String,
    work: Duration,
) -> Asked<String> {
    let retry = !round.is_empty();
    ask.run(async {
        let id = ask.call_id()?;
        if retry {
            journal
                .lock()
                .unwrap()
                .ids
                .entry(client)
                .or_default()
                .push(id.clone());
        }
        let trip = ask.form::<Trip>("trip").await?;
        let quote = ask.once("quote", async { 120 }).await?;
        if !ask
            .confirm("pay", format!("Pay {quote} EUR?"))
            .await?
            .is_confirmed()
        {
            return Ok("not paid".to_owned());
        }
        let _inside = {
            let mut j = journal.lock().unwrap();
            j.effects
                .entry(id.clone())
                .or_default()
                .push(ask.taken_over());
            log(|| format!("effect of {id} (taken over: {})", ask.taken_over()));
            let inside = j.inside.entry(round.clone()).or_default();
            *inside += 1;
            if *inside > 1 {
                j.overlaps.push(round.clone());
            }
            Inside {
                journal: Arc::clone(journal),
                round,
            }
        };
        // The effect takes a while, with awaits in it, sometimes longer than the lease.
        let step = work / 4;
        for _ in 0..4 {
            tokio::time::sleep(step).await;
        }
        let city = match trip {
            ElicitResult::Accept(trip) => trip.city,
            _ => "nowhere".to_owned(),
        };
        Ok(format!("paid for {city}"))
    })
    .await
}

// ---------------------------------------------------------------------------------------------
// The fleet and its clients.

struct Fleet {
    replicas: usize,
    keys: Vec<StateKey>,
    model: Arc<Mutex<Model>>,
    journal: Arc<Mutex<Journal>>,
    dice: Dice,
    /// Per replica, the requests it serves now, stopped when it dies.
    serving: Mutex<Vec<Vec<tokio::task::AbortHandle>>>,
}

/// How a request ended, as its client sees it.
#[derive(Debug, Clone, PartialEq)]
enum Seen {
    Done(String),
    Asked {
        keys: Vec<String>,
        state: String,
        restarted: bool,
    },
    Error(String),
    /// No answer: the replica died.
    Silence,
}

impl Fleet {
    fn call(
        &self,
        principal: Option<&str>,
        origin: &str,
        responses: Option<Map<String, Value>>,
        state: Option<String>,
    ) -> Call {
        let mut call = Call::new("pay");
        call.protocol_version = Some(ProtocolVersion::V2026_07_28.as_str().to_owned());
        call.capabilities.elicitation = Some(ElicitationCapability::FORM);
        call.input_responses = responses;
        call.request_state = state;
        call.principal = principal.map(str::to_owned);
        call.origin = Some(origin.to_owned());
        call
    }

    /// Sends `call` to `replica`, for client `client`: its answer, or silence where the replica
    /// is dead or dies before answering.
    async fn send(self: &Arc<Self>, replica: usize, client: usize, call: Call) -> Seen {
        if self.model.lock().unwrap().faults.dead[replica] {
            return Seen::Silence;
        }
        let fleet = Arc::clone(self);
        let round = call.request_state.clone().unwrap_or_default();
        let work = match self.dice.roll(4) {
            0 => LEASE * 2 + self.dice.millis(10_000),
            _ => self.dice.millis(3_000),
        };
        let key = self.keys[replica].clone();
        let task = tokio::spawn(async move {
            let ask = Ask::with_port(call, Rounds).with_key(key);
            pay(&ask, &fleet.journal, client, round, work).await
        });
        self.serving.lock().unwrap()[replica].push(task.abort_handle());
        let answer = match task.await {
            Ok(asked) => asked,
            Err(_) => return Seen::Silence,
        };
        match answer {
            Asked::Done(text) => Seen::Done(text),
            Asked::InputRequired(required) => {
                let entries = required.requests().entries();
                let restarted = entries.values().any(|r| {
                    r["params"]["message"]
                        .as_str()
                        .is_some_and(|m| m.contains(MAY_HAVE_HAPPENED))
                });
                Seen::Asked {
                    keys: entries.keys().cloned().collect(),
                    state: required.request_state().unwrap_or_default().to_owned(),
                    restarted,
                }
            }
            Asked::Stopped(stop) => Seen::Error(match stop.ending() {
                Ending::Rpc(e) => e.message,
                Ending::ToolError { text, .. } => text,
            }),
        }
    }

    /// A replica dies: its requests never answer, and nothing it would do reaches the store.
    fn kill(&self, replica: usize) {
        let mut model = self.model.lock().unwrap();
        if model.faults.dead.iter().filter(|d| !**d).count() <= 1 || model.faults.dead[replica] {
            return;
        }
        model.faults.dead[replica] = true;
        model.struck("a replica died");
        drop(model);
        for task in self.serving.lock().unwrap()[replica].drain(..) {
            task.abort();
        }
    }
}

/// Whether an error is one a client may send again shortly.
fn transient(message: &str) -> bool {
    message.contains("store is unavailable") || message.contains("still being answered")
}

/// What one client call came to.
struct Outcome {
    client: usize,
    ended: Option<Seen>,
    restarts: u32,
    requests: u32,
    /// Whether another caller's traffic was the only fault of the schedule.
    resent_after_end: Vec<Seen>,
}

/// One client's call: answers each round, fails over from a silent replica, sends some final
/// retries twice (to two replicas, the second a little later), and may send the final retry
/// again after the call ended.
async fn client(
    fleet: Arc<Fleet>,
    client: usize,
    principal: Option<String>,
    origin: String,
) -> Outcome {
    let dice = fleet.dice.clone();
    let mut outcome = Outcome {
        client,
        ended: None,
        restarts: 0,
        requests: 0,
        resent_after_end: Vec::new(),
    };
    let mut request = fleet.call(principal.as_deref(), &origin, None, None);
    let mut last = None;
    while outcome.requests < 60 {
        outcome.requests += 1;
        let replica = dice.roll(fleet.replicas as u64) as usize;
        let is_final = request
            .input_responses
            .as_ref()
            .is_some_and(|r| r.contains_key("pay"));
        let seen = if is_final && dice.chance(3) {
            // The same retry twice: to another replica, a little later.
            let other = (replica + 1) % fleet.replicas;
            let delay = dice.millis(LEASE.as_millis() as u64 * 2);
            let (first, second) =
                tokio::join!(fleet.send(replica, client, request.clone()), async {
                    tokio::time::sleep(delay).await;
                    fleet.send(other, client, request.clone()).await
                });
            // The client keeps whichever answered first in its eyes: the one that is not silent.
            match (first, second) {
                (Seen::Silence, second) => second,
                (first, _) => first,
            }
        } else {
            fleet.send(replica, client, request.clone()).await
        };
        match seen {
            Seen::Silence => {
                // A client timeout, then the same request to another replica.
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
            Seen::Error(ref message) if transient(message) => {
                tokio::time::sleep(dice.millis(2_000) + Duration::from_millis(100)).await;
            }
            Seen::Asked {
                ref keys,
                ref state,
                restarted,
            } => {
                if restarted {
                    outcome.restarts += 1;
                }
                // The person takes a while to answer.
                tokio::time::sleep(dice.millis(8_000)).await;
                let mut responses = Map::new();
                for key in keys {
                    let answer = match key.as_str() {
                        "trip" => json!({"action": "accept", "content": {"city": "Oslo"}}),
                        _ => json!({"action": "accept", "content": {"confirmed": true}}),
                    };
                    responses.insert(key.clone(), answer);
                }
                request = fleet.call(
                    principal.as_deref(),
                    &origin,
                    Some(responses),
                    Some(state.clone()),
                );
            }
            Seen::Done(_) | Seen::Error(_) => {
                last = Some(request.clone());
                outcome.ended = Some(seen);
                break;
            }
        }
    }
    // A final retry sent again after the call ended, later, to any replica.
    if let Some(request) = last.filter(|r| r.request_state.is_some() && dice.chance(2)) {
        tokio::time::sleep(dice.millis(LEASE.as_millis() as u64 * 3)).await;
        let replica = dice.roll(fleet.replicas as u64) as usize;
        let seen = fleet.send(replica, client, request).await;
        outcome.resent_after_end.push(seen);
    }
    outcome
}

/// A caller that floods the store with first calls and their first retries.
async fn flood(fleet: Arc<Fleet>, principal: Option<String>, running: Arc<AtomicBool>) {
    let origin = "the flood".to_owned();
    let client = usize::MAX;
    while running.load(Ordering::Relaxed) {
        let replica = fleet.dice.roll(fleet.replicas as u64) as usize;
        let first = fleet.call(principal.as_deref(), &origin, None, None);
        if let Seen::Asked { state, .. } = fleet.send(replica, client, first).await {
            let responses = Map::from_iter([("trip".to_owned(), json!({"action": "cancel"}))]);
            let retry = fleet.call(principal.as_deref(), &origin, Some(responses), Some(state));
            let _ = fleet.send(replica, client, retry).await;
        }
        tokio::time::sleep(fleet.dice.millis(1_000)).await;
    }
}

/// The faults of one schedule, each at a random time.
async fn chaos(fleet: Arc<Fleet>, faults: u64) {
    let dice = fleet.dice.clone();
    for _ in 0..faults {
        tokio::time::sleep(dice.millis(20_000)).await;
        let replica = dice.roll(fleet.replicas as u64) as usize;
        match dice.roll(9) {
            0 => fleet.kill(replica),
            1 => {
                let outage = dice.millis(LEASE.as_millis() as u64 * 2);
                set(
                    &fleet,
                    |f| f.cut[replica] = true,
                    "a replica was cut off from the store",
                );
                tokio::time::sleep(outage).await;
                set(&fleet, |f| f.cut[replica] = false, "a replica was healed");
            }
            2 => restart(&fleet, Restart::Empty, &dice).await,
            3 => restart(&fleet, Restart::Durable, &dice).await,
            4 => restart(&fleet, Restart::Snapshot, &dice).await,
            5 => {
                let mut model = fleet.model.lock().unwrap();
                // In the order the entries were made: call ids are random, so their own order
                // would make the schedule differ from run to run.
                let mut calls: Vec<(u64, String)> = (model.entries.calls.iter())
                    .map(|(call, entry)| (entry.stamp, call.clone()))
                    .collect();
                calls.sort_unstable();
                if !calls.is_empty() {
                    let (_, call) = &calls[dice.roll(calls.len() as u64) as usize];
                    log(|| format!("the store evicts {}", &call[..6]));
                    model.entries.calls.remove(call);
                    model.struck("the store evicted an entry");
                }
            }
            6 => {
                let stall = LEASE + dice.millis(LEASE.as_millis() as u64);
                set(&fleet, |f| f.stall = Some(stall), "a stall was drawn");
            }
            7 => set(
                &fleet,
                |f| f.fail_record = true,
                "a record failure was drawn",
            ),
            _ => {
                let mut model = fleet.model.lock().unwrap();
                model.snapshot = Some(model.entries.clone());
            }
        }
    }
}

fn set(fleet: &Fleet, change: impl FnOnce(&mut Faults), fault: &'static str) {
    let mut model = fleet.model.lock().unwrap();
    change(&mut model.faults);
    log(|| fault.to_owned());
    model.struck(fault);
}

enum Restart {
    Empty,
    Durable,
    Snapshot,
}

/// The store goes down for a moment, and comes back as `how` says.
async fn restart(fleet: &Fleet, how: Restart, dice: &Dice) {
    set(fleet, |f| f.down = true, "the store went down");
    tokio::time::sleep(dice.millis(3_000)).await;
    let mut model = fleet.model.lock().unwrap();
    model.faults.down = false;
    let generation = model.entries.generation;
    match how {
        Restart::Empty => {
            model.entries = Entries {
                generation: generation + 1,
                calls: BTreeMap::new(),
            };
            model.struck("the store restarted empty");
        }
        Restart::Durable => model.struck("the store restarted from its durable log"),
        Restart::Snapshot => {
            // A store that lost writes comes back under a new generation (the contract).
            let older = model.snapshot.clone().unwrap_or_default();
            model.entries = Entries {
                generation: generation + 1,
                calls: older.calls,
            };
            model.struck("the store restarted from an older snapshot");
        }
    }
}

/// What one schedule found wrong, if anything, and what it counted.
#[derive(Debug, PartialEq)]
struct Report {
    faults: BTreeMap<&'static str, u64>,
    checks: u64,
    calls: u64,
    requests: u64,
}

/// Runs the schedule of `seed`: its checks' failures, or what it counted.
fn schedule(seed: u64) -> Result<Report, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .unwrap();
    runtime.block_on(async move {
        START.with(|start| start.set(Some(Instant::now())));
        let dice = Dice::new(seed);
        let replicas = 2 + dice.roll(2) as usize;
        let flooding = dice.chance(4);
        let flood_credential = dice.chance(2);
        let faults = if dice.chance(5) { 0 } else { 1 + dice.roll(4) };
        let cap = 12 + dice.roll(24) as usize;
        // States that expire within the schedule, and replica clocks apart by up to the skew
        // allowed, each in some schedules.
        let short_lived = dice.chance(3);
        let ttl = match short_lived {
            true => Duration::from_secs(30 + dice.roll(150)),
            false => StateKey::DEFAULT_TTL,
        };
        let skewed = dice.chance(2);
        let bound = StateKey::MAX_CLOCK_SKEW.as_millis() as u64;
        let skews: Vec<i64> = (0..4)
            .map(|_| match skewed {
                true => dice.roll(2 * bound + 1) as i64 - bound as i64,
                false => 0,
            })
            .collect();
        let model = Model {
            entries: Entries::default(),
            snapshot: None,
            next_stamp: 0,
            cap,
            principal_cap: (cap / 4).max(2),
            faults: Faults { dead: vec![false; replicas], cut: vec![false; replicas], ..Faults::default() },
            counts: BTreeMap::new(),
        };
        let mut model = model;
        if short_lived {
            model.struck("states expired within the schedule");
        }
        if skewed {
            model.struck("replica clocks were skewed");
        }
        let model = Arc::new(Mutex::new(model));
        let keys = (0..replicas)
            .map(|replica| {
                let reach = Reach { replica, model: Arc::clone(&model), dice: dice.clone() };
                let skew = skews[replica];
                let clock = move || match skew >= 0 {
                    true => wall() + Duration::from_millis(skew as u64),
                    false => wall() - Duration::from_millis(skew.unsigned_abs()),
                };
                StateKey::new(SECRET.to_vec())
                    .unwrap()
                    .with_store(reach)
                    .with_ttl(ttl)
                    .with_clock(clock)
            })
            .collect();
        let fleet = Arc::new(Fleet {
            replicas,
            keys,
            model: Arc::clone(&model),
            journal: Arc::default(),
            dice: dice.clone(),
            serving: Mutex::new(vec![Vec::new(); replicas]),
        });
        let chaos = tokio::spawn(chaos(Arc::clone(&fleet), faults));
        let running = Arc::new(AtomicBool::new(true));
        let flood = flooding.then(|| {
            let principal = flood_credential.then(|| "flood".to_owned());
            tokio::spawn(flood(Arc::clone(&fleet), principal, Arc::clone(&running)))
        });
        let callers = 2 + dice.roll(3) as usize;
        let mut clients = Vec::new();
        for index in 0..callers {
            // Callers without a credential are told apart by where they come from.
            let principal = dice.chance(2).then(|| format!("caller {index}"));
            let origin = format!("10.0.0.{index}");
            clients.push(tokio::spawn(client(Arc::clone(&fleet), index, principal, origin)));
            tokio::time::sleep(dice.millis(2_000)).await;
        }
        let mut outcomes = Vec::new();
        for client in clients {
            outcomes.push(client.await.map_err(|e| format!("a client panicked: {e}"))?);
        }
        running.store(false, Ordering::Relaxed);
        chaos.abort();
        if let Some(flood) = flood {
            let _ = flood.await;
        }
        // Let every keeper finish what it records.
        tokio::time::sleep(LEASE * 4).await;

        let journal = fleet.journal.lock().unwrap();
        let model = model.lock().unwrap();
        // Clocks apart within the bound change nothing: the checks of another caller's traffic
        // hold with them too.
        let only_flood = model.counts.keys().all(|fault| *fault == "replica clocks were skewed");
        let mut checks = 0;
        let mut check = |ok: bool, what: String| -> Result<(), String> {
            checks += 1;
            if ok { Ok(()) } else { Err(what) }
        };
        check(journal.overlaps.is_empty(), format!("two bodies of one round at once: {:?}", journal.overlaps))?;
        let mut requests = 0;
        for outcome in &outcomes {
            requests += u64::from(outcome.requests);
            let who = outcome.client;
            let ended = outcome.ended.as_ref();
            check(ended.is_some(), format!("client {who}: its call never ended in {} requests", outcome.requests))?;
            if let Some(Seen::Error(message)) = ended {
                check(!message.is_empty() && !transient(message), format!("client {who}: ended in {message:?}"))?;
            }
            let ids = journal.ids.get(&who).cloned().unwrap_or_default();
            check(ids.windows(2).all(|w| w[0] == w[1]), format!("client {who}: bodies saw ids {ids:?}"))?;
            let id = ids.last().cloned().unwrap_or_default();
            let runs = journal.effects.get(&id).cloned().unwrap_or_default();
            let takeovers = runs.iter().filter(|t| **t).count() as u32;
            check(
                runs.len() as u32 <= 1 + takeovers + outcome.restarts,
                format!(
                    "client {who}: the effect ran {} times, {takeovers} take-overs, {} restarts said; ended {ended:?}, resent {:?}; faults {:?}",
                    runs.len(), outcome.restarts, outcome.resent_after_end, model.counts
                ),
            )?;
            if only_flood {
                check(outcome.restarts == 0, format!("client {who}: asked again for another caller's traffic"))?;
                check(matches!(ended, Some(Seen::Done(_))), format!("client {who}: stopped for another caller's traffic: {ended:?}"))?;
            }
            for seen in &outcome.resent_after_end {
                // A call that ended in an error whose ending could not be recorded (a body
                // stopped at the fence while the store was out of reach) may be taken over:
                // the effect check above counts that run.
                let fine = match (seen, ended) {
                    (Seen::Done(again), Some(Seen::Done(first))) => again == first,
                    (Seen::Done(_), Some(Seen::Error(_))) => true,
                    (Seen::Error(_) | Seen::Silence, _) => true,
                    (Seen::Asked { restarted, .. }, _) => *restarted,
                    (Seen::Done(_), _) => false,
                };
                check(fine, format!("client {who}: the finished retry sent again came back {seen:?}, after {ended:?}"))?;
            }
        }
        Ok(Report { faults: model.counts.clone(), checks, calls: outcomes.len() as u64, requests })
    })
}

#[test]
fn every_schedule_of_a_faulty_fleet_keeps_exactly_once() {
    let one = std::env::var("SIM_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok());
    let count: u64 = std::env::var("SIM_SCHEDULES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let seeds: Vec<u64> = match one {
        Some(seed) => vec![seed],
        None => (0..count).collect(),
    };
    let started = std::time::Instant::now();
    let mut faults: BTreeMap<&'static str, u64> = BTreeMap::new();
    let (mut checks, mut calls, mut requests) = (0, 0, 0);
    for seed in &seeds {
        match schedule(*seed) {
            Ok(report) => {
                for (fault, n) in report.faults {
                    *faults.entry(fault).or_default() += n;
                }
                checks += report.checks;
                calls += report.calls;
                requests += report.requests;
            }
            Err(failure) => panic!(
                "schedule {seed} failed: {failure}\nrun it again with: SIM_SEED={seed} cargo test -p elicit-core --test simulation -- --nocapture"
            ),
        }
    }
    println!(
        "simulation: {} schedules, {calls} calls, {requests} requests, {checks} checks in {:.1} s; faults: {faults:?}",
        seeds.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(checks > 0);
}

/// A seed runs the same schedule again, so that a failing seed can be run alone: whatever the
/// engine draws at random (call ids, claimants, nonces) decides nothing in the schedule.
#[test]
fn a_seed_runs_the_same_schedule_again() {
    for seed in 0..50 {
        let (first, again) = (schedule(seed), schedule(seed));
        assert_eq!(
            first, again,
            "schedule {seed} ran differently the second time"
        );
    }
}
