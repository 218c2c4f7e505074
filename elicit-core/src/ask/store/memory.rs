//! [`MemoryStore`]: the rounds of one process, in memory, at a constant amortised cost per
//! step, which no caller can fill for another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime};

use tokio::time::Instant;

use super::{Claim, Round, RoundStore, StoreError};
use crate::ask::port::PortFuture;
use crate::ask::trace;

/// A [`RoundStore`] in memory: exactly-once rounds for one process. Every
/// [`StateKey`](crate::ask::StateKey) that is given no store of its own shares one per process
/// ([`MemoryStore::process`]), so a key made per call or per session still runs each round
/// once. It is not shared between processes, and it does not outlive its process: its
/// [generation](RoundStore::generation) is new in every process, so a state issued before a
/// restart is asked again rather than run blindly. A fleet needs a shared store.
///
/// **Room.** It holds one entry per call (its latest round) for up to
/// [`cap`](MemoryStore::with_cap) calls ([`DEFAULT_CAP`](Self::DEFAULT_CAP)), and one
/// principal (one caller, as [`Call::origin`](crate::ask::Call::origin) tells callers apart) holds
/// at most a quarter of them ([`with_principal_cap`](Self::with_principal_cap)). To make room
/// for a new entry, it lets go of the oldest entry that is not running: the principal's own
/// where the principal is at its cap, else the store's. It never lets a running round go, so
/// a claim fails only where every entry it could let go is running. A call whose entry was let
/// go is the only one that notices: its retry is [`Forgotten`](Claim::Forgotten), so it is
/// asked again, saying so, and never run again in silence. How many entries were let go is
/// traced once a minute at most. Every step costs a constant amortised time, at the cap too.
pub struct MemoryStore {
    rounds: Arc<Mutex<Rounds>>,
    cap: usize,
    principal_cap: Option<usize>,
}

impl std::fmt::Debug for MemoryStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The endings are sealed, but their number is all a reader needs.
        f.debug_struct("MemoryStore")
            .field("calls", &self.len())
            .field("cap", &self.cap)
            .field("principal_cap", &self.principal_cap())
            .finish_non_exhaustive()
    }
}

impl Clone for MemoryStore {
    /// Another handle on the same entries.
    fn clone(&self) -> Self {
        MemoryStore {
            rounds: Arc::clone(&self.rounds),
            cap: self.cap,
            principal_cap: self.principal_cap,
        }
    }
}

struct Rounds {
    generation: String,
    calls: HashMap<String, Entry>,
    /// Every entry, in the order it was made: a state expires a time to live after it was
    /// issued, so about the order in which entries may be forgotten.
    made: Order,
    /// The entries that may be let go, in the order they became so.
    idle: Order,
    principals: HashMap<String, Principal>,
    /// The stamp of the next entry.
    next: u64,
    /// Entries let go since the last trace of them, and when that was.
    let_go: u64,
    reported: Option<Instant>,
}

/// What one principal holds.
#[derive(Default)]
struct Principal {
    held: usize,
    idle: Order,
}

struct Entry {
    principal: String,
    number: u32,
    answers: String,
    held: Held,
    /// Tells this entry from an earlier one of the same call, in the orders.
    stamp: u64,
    expires: SystemTime,
}

enum Held {
    /// The round is about to be asked.
    Asked,
    Running {
        claimant: String,
        until: Instant,
    },
    Recorded(String),
    /// Its claimant released it: a retry of it runs.
    Released,
}

impl Held {
    fn idle(&self) -> bool {
        !matches!(self, Held::Running { .. })
    }
}

/// Calls in an order, each with the stamp of its entry then: an item whose entry has since
/// gone (or changed) is skipped when met, and the items are compacted once most are such.
#[derive(Default)]
struct Order(VecDeque<(u64, String)>);

impl Order {
    fn push(&mut self, stamp: u64, call: &str) {
        self.0.push_back((stamp, call.to_owned()));
    }

    /// Drops the items `live` says are gone, once they are most of the order.
    fn compact(&mut self, live: usize, still: impl Fn(u64, &str) -> bool) {
        if self.0.len() > 2 * live + 64 {
            self.0.retain(|(stamp, call)| still(*stamp, call));
        }
    }
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MemoryStore {
    /// The most calls a store holds by default.
    pub const DEFAULT_CAP: usize = 100_000;

    /// How often, at most, the entries let go are traced.
    const REPORT: Duration = Duration::from_secs(60);

    /// An empty store that holds up to [`DEFAULT_CAP`](Self::DEFAULT_CAP) calls, with a
    /// generation of its own.
    #[must_use]
    pub fn new() -> Self {
        let mut generation = [0u8; 16];
        // Without random bytes, the time tells one store from another.
        if getrandom::fill(&mut generation).is_err() {
            generation[..8].copy_from_slice(&crate::ask::state::now_ms().to_be_bytes());
        }
        let rounds = Rounds {
            generation: crate::ask::state::digest(&generation),
            calls: HashMap::new(),
            made: Order::default(),
            idle: Order::default(),
            principals: HashMap::new(),
            next: 0,
            let_go: 0,
            reported: None,
        };
        MemoryStore {
            rounds: Arc::new(Mutex::new(rounds)),
            cap: Self::DEFAULT_CAP,
            principal_cap: None,
        }
    }

    /// The process's store: the one every key without a store of its own shares.
    #[must_use]
    pub fn process() -> &'static MemoryStore {
        static PROCESS: OnceLock<MemoryStore> = OnceLock::new();
        PROCESS.get_or_init(MemoryStore::new)
    }

    /// Holds up to `cap` calls at once (at least one).
    #[must_use]
    pub fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap.max(1);
        self
    }

    /// Lets one principal hold up to `cap` calls (at least one; a quarter of the store's cap
    /// by default).
    #[must_use]
    pub fn with_principal_cap(mut self, cap: usize) -> Self {
        self.principal_cap = Some(cap.max(1));
        self
    }

    fn principal_cap(&self) -> usize {
        self.principal_cap
            .unwrap_or(self.cap / 4)
            .clamp(1, self.cap)
    }

    /// How many calls it holds now, expired ones not yet forgotten included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().calls.len()
    }

    /// Whether it holds no call.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Rounds> {
        // No code panics while holding the lock; a poisoned one still holds consistent data.
        self.rounds.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn begin_at(&self, round: &Round, now: SystemTime) -> Result<String, StoreError> {
        let mut rounds = self.lock();
        rounds.forget_expired(now);
        let later = rounds
            .calls
            .get(&round.call)
            .is_some_and(|entry| entry.number >= round.number);
        if !later {
            rounds.remove(&round.call);
            rounds.make_room(&round.principal, self.cap, self.principal_cap())?;
            rounds.insert(round, Held::Asked);
        }
        Ok(rounds.generation.clone())
    }

    fn claim_at(
        &self,
        round: &Round,
        lease: Duration,
        now: SystemTime,
        clock: Instant,
    ) -> Result<Claim, StoreError> {
        let mut rounds = self.lock();
        if round.generation != rounds.generation {
            return Ok(Claim::Forgotten);
        }
        rounds.forget_expired(now);
        let Some(entry) = rounds.calls.get_mut(&round.call) else {
            // The call's first round made its entry: it was let go, or expired.
            return Ok(Claim::Forgotten);
        };
        let until = clock + lease;
        if entry.number > round.number {
            return Ok(Claim::Used);
        }
        if entry.number == round.number {
            let other = entry.answers != round.answers;
            match &mut entry.held {
                Held::Recorded(_) | Held::Running { .. } if other => return Ok(Claim::Used),
                Held::Recorded(ending) => return Ok(Claim::Recorded(ending.clone())),
                Held::Running { until: held, .. } if *held > clock => return Ok(Claim::Running),
                Held::Running {
                    claimant,
                    until: held,
                } => {
                    // Its claimant's lease passed: the round is taken over.
                    *claimant = round.claimant.clone();
                    *held = until;
                    return Ok(Claim::TakenOver);
                }
                Held::Asked | Held::Released => {}
            }
        }
        // The call's earlier round (or this one, asked or released) gives way to the claim,
        // in its place: a running entry needs no room of its own.
        let principal = entry.principal.clone();
        rounds.remove(&round.call);
        rounds.insert_as(
            round,
            principal,
            Held::Running {
                claimant: round.claimant.clone(),
                until,
            },
        );
        Ok(Claim::First)
    }

    /// The entry of `round`'s call, where it is this round running for its claimant.
    fn running<'r>(rounds: &'r mut Rounds, round: &Round) -> Option<&'r mut Entry> {
        rounds.calls.get_mut(&round.call).filter(|entry| {
            entry.number == round.number
                && matches!(&entry.held, Held::Running { claimant, .. } if *claimant == round.claimant)
        })
    }

    /// Ends the running entry of `round` as `held`, which may be let go.
    fn settle(&self, round: &Round, held: Held) -> bool {
        let mut rounds = self.lock();
        match MemoryStore::running(&mut rounds, round) {
            Some(entry) => {
                entry.held = held;
                rounds.idled(&round.call);
                true
            }
            None => false,
        }
    }
}

impl Rounds {
    /// Forgets the entries whose state has expired everywhere, from the oldest made.
    fn forget_expired(&mut self, now: SystemTime) {
        let skew = crate::ask::StateKey::MAX_CLOCK_SKEW;
        while let Some((stamp, call)) = self.made.0.front() {
            match self.calls.get(call) {
                Some(entry) if entry.stamp == *stamp && entry.expires + skew > now => break,
                Some(entry) if entry.stamp == *stamp => {
                    let call = call.clone();
                    self.remove(&call);
                }
                _ => {}
            }
            self.made.0.pop_front();
        }
    }

    fn insert(&mut self, round: &Round, held: Held) {
        self.insert_as(round, round.principal.clone(), held);
    }

    /// Makes `round`'s entry, counted against `principal`.
    fn insert_as(&mut self, round: &Round, principal: String, held: Held) {
        let stamp = self.next;
        self.next += 1;
        self.made.push(stamp, &round.call);
        let calls = &self.calls;
        self.made.compact(calls.len(), |s, c| {
            calls.get(c).is_some_and(|e| e.stamp == s)
        });
        self.principals.entry(principal.clone()).or_default().held += 1;
        let idle = held.idle();
        let entry = Entry {
            principal,
            number: round.number,
            answers: round.answers.clone(),
            held,
            stamp,
            expires: round.expires,
        };
        self.calls.insert(round.call.clone(), entry);
        if idle {
            self.idled(&round.call);
        }
    }

    fn remove(&mut self, call: &str) -> Option<Entry> {
        let entry = self.calls.remove(call)?;
        if let Some(principal) = self.principals.get_mut(&entry.principal) {
            principal.held -= 1;
            if principal.held == 0 {
                self.principals.remove(&entry.principal);
            }
        }
        Some(entry)
    }

    /// Puts `call`'s entry, which may now be let go, in the orders of such entries.
    fn idled(&mut self, call: &str) {
        let Some(entry) = self.calls.get(call) else {
            return;
        };
        let (stamp, principal) = (entry.stamp, entry.principal.clone());
        let calls = &self.calls;
        let still = |s: u64, c: &str| calls.get(c).is_some_and(|e| e.stamp == s && e.held.idle());
        self.idle.push(stamp, call);
        self.idle.compact(calls.len(), still);
        let mine = self.principals.entry(principal).or_default();
        mine.idle.push(stamp, call);
        mine.idle.compact(mine.held, still);
    }

    /// Lets entries that are not running go until a new entry of `principal` fits: its own
    /// oldest where it holds its cap, then the store's oldest where the store is full.
    fn make_room(
        &mut self,
        principal: &str,
        cap: usize,
        principal_cap: usize,
    ) -> Result<(), StoreError> {
        let held = self.principals.get(principal).map_or(0, |p| p.held);
        if held >= principal_cap && !self.let_go_oldest(Some(principal)) {
            return Err(StoreError(format!(
                "one caller holds {held} rounds that are still running, its cap"
            )));
        }
        if self.calls.len() >= cap && !self.let_go_oldest(None) {
            return Err(StoreError(format!(
                "all {} rounds held are still running",
                self.calls.len()
            )));
        }
        Ok(())
    }

    /// Lets go of the oldest entry that is not running, `principal`'s or anyone's: whether
    /// there was one.
    fn let_go_oldest(&mut self, principal: Option<&str>) -> bool {
        loop {
            let order = match principal {
                Some(p) => match self.principals.get_mut(p) {
                    Some(mine) => &mut mine.idle,
                    None => return false,
                },
                None => &mut self.idle,
            };
            let Some((stamp, call)) = order.0.pop_front() else {
                return false;
            };
            let live = self
                .calls
                .get(&call)
                .is_some_and(|e| e.stamp == stamp && e.held.idle());
            if !live {
                continue;
            }
            self.remove(&call);
            self.counted_let_go();
            return true;
        }
    }

    /// Counts an entry let go, and traces how many were, once a report is due.
    fn counted_let_go(&mut self) {
        self.let_go += 1;
        let now = Instant::now();
        if self
            .reported
            .is_none_or(|at| now.duration_since(at) >= MemoryStore::REPORT)
        {
            trace::let_go(self.let_go);
            self.let_go = 0;
            self.reported = Some(now);
        }
    }
}

impl RoundStore for MemoryStore {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        let generation = self.lock().generation.clone();
        Box::pin(async move { Ok(generation) })
    }

    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
        let begun = self.begin_at(round, SystemTime::now());
        Box::pin(async move { begun })
    }

    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        let claim = self.claim_at(round, lease, SystemTime::now(), Instant::now());
        Box::pin(async move { claim })
    }

    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        let mut rounds = self.lock();
        let held = match MemoryStore::running(&mut rounds, round) {
            Some(Entry {
                held: Held::Running { until, .. },
                ..
            }) => {
                *until = Instant::now() + lease;
                true
            }
            _ => false,
        };
        Box::pin(async move { Ok(held) })
    }

    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        let kept = self.settle(round, Held::Recorded(ending.to_owned()));
        Box::pin(async move { Ok(kept) })
    }

    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        self.settle(round, Held::Released);
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
#[path = "../../../unit/ask/store/memory.rs"]
mod tests;
