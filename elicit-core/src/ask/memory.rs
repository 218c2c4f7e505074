//! [`MemoryStore`]: the rounds of one process, in memory, at a constant amortised cost per
//! step, which no caller can fill for another.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::{Duration, SystemTime};

use super::port::PortFuture;
use super::store::{Claim, Round, RoundStore, StoreError};
use super::trace;

/// A [`RoundStore`] in memory: exactly-once rounds for one process. Every
/// [`StateKey`](super::StateKey) that is given no store of its own shares one per process
/// ([`MemoryStore::process`]), so a key made per call or per session still runs each round
/// once. It is not shared between processes, and it does not outlive its process: its
/// [generation](RoundStore::generation) is new in every process, so a state issued before a
/// restart is asked again rather than run blindly. A fleet needs a shared store.
///
/// **Room.** It holds one entry per call (its latest round) for up to
/// [`cap`](MemoryStore::with_cap) calls ([`DEFAULT_CAP`](Self::DEFAULT_CAP)), and one
/// principal (one caller; all callers without a credential are one) holds at most a quarter
/// of them ([`with_principal_cap`](Self::with_principal_cap)). To make room for a new claim,
/// it lets go of the oldest *recorded* round: the principal's own where the principal is at
/// its cap, else the store's. It never lets a running round go, so a claim fails only where
/// every entry it could let go is running. What exactly-once then guarantees: a round's
/// ending is kept until its state expires, or until the store lets it go to make room,
/// whichever comes first; a retry of a round it let go is [`Forgotten`](Claim::Forgotten),
/// so it is asked again, saying so, and never run again in silence. Each round it lets go is
/// traced. Every step costs a constant amortised time, at the cap too.
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
    /// The recorded entries, in the order they were recorded.
    recorded: Order,
    principals: HashMap<String, Principal>,
    /// The stamp of the next entry.
    next: u64,
}

/// What one principal holds.
#[derive(Default)]
struct Principal {
    held: usize,
    recorded: Order,
    /// The latest expiry of an entry of its that was let go: a round that expires no later
    /// may have been one.
    let_go: Option<SystemTime>,
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
    Running { claimant: String, until: SystemTime },
    Recorded(String),
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

    /// An empty store that holds up to [`DEFAULT_CAP`](Self::DEFAULT_CAP) calls, with a
    /// generation of its own.
    #[must_use]
    pub fn new() -> Self {
        let mut generation = [0u8; 16];
        // Without random bytes, the time tells one store from another.
        if getrandom::fill(&mut generation).is_err() {
            generation[..8].copy_from_slice(&super::state::now_ms().to_be_bytes());
        }
        let rounds = Rounds {
            generation: super::state::digest(&generation),
            calls: HashMap::new(),
            made: Order::default(),
            recorded: Order::default(),
            principals: HashMap::new(),
            next: 0,
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

    fn claim_at(
        &self,
        round: &Round,
        lease: Duration,
        now: SystemTime,
    ) -> Result<Claim, StoreError> {
        let mut rounds = self.lock();
        if round.generation != rounds.generation {
            return Ok(Claim::Forgotten);
        }
        rounds.forget_expired(now);
        let until = (now + lease).min(round.expires);
        if let Some(entry) = rounds.calls.get_mut(&round.call)
            && entry.expires > now
        {
            if entry.number > round.number
                || (entry.number == round.number && entry.answers != round.answers)
            {
                return Ok(Claim::Used);
            }
            if entry.number == round.number {
                return Ok(match &mut entry.held {
                    Held::Recorded(ending) => Claim::Recorded(ending.clone()),
                    Held::Running { until: held, .. } if *held > now => Claim::Running,
                    Held::Running {
                        claimant,
                        until: held,
                    } => {
                        // Its claimant's lease passed: the round is taken over.
                        *claimant = round.claimant.clone();
                        *held = until;
                        Claim::First
                    }
                });
            }
        } else if let Some(mine) = rounds.principals.get_mut(&round.principal) {
            match mine.let_go {
                Some(at) if round.expires <= at => return Ok(Claim::Forgotten),
                // Every state that could have had a round let go has expired.
                Some(at) if at <= now => mine.let_go = None,
                _ => {}
            }
        }
        // The call's earlier round, if any, gives way to this one.
        rounds.remove(&round.call);
        rounds.make_room(&round.principal, self.cap, self.principal_cap())?;
        let running = Held::Running {
            claimant: round.claimant.clone(),
            until,
        };
        rounds.insert(round, running);
        Ok(Claim::First)
    }

    /// The entry of `round`'s call, where it is this round running for its claimant.
    fn running<'r>(rounds: &'r mut Rounds, round: &Round) -> Option<&'r mut Entry> {
        rounds.calls.get_mut(&round.call).filter(|entry| {
            entry.number == round.number
                && matches!(&entry.held, Held::Running { claimant, .. } if *claimant == round.claimant)
        })
    }
}

impl Rounds {
    /// Forgets the entries whose state has expired, from the oldest made.
    fn forget_expired(&mut self, now: SystemTime) {
        while let Some((stamp, call)) = self.made.0.front() {
            match self.calls.get(call) {
                Some(entry) if entry.stamp == *stamp && entry.expires > now => break,
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
        let stamp = self.next;
        self.next += 1;
        self.made.push(stamp, &round.call);
        let calls = &self.calls;
        self.made.compact(calls.len(), |s, c| {
            calls.get(c).is_some_and(|e| e.stamp == s)
        });
        self.principals
            .entry(round.principal.clone())
            .or_default()
            .held += 1;
        let entry = Entry {
            principal: round.principal.clone(),
            number: round.number,
            answers: round.answers.clone(),
            held,
            stamp,
            expires: round.expires,
        };
        self.calls.insert(round.call.clone(), entry);
    }

    fn remove(&mut self, call: &str) -> Option<Entry> {
        let entry = self.calls.remove(call)?;
        if let Some(principal) = self.principals.get_mut(&entry.principal) {
            principal.held -= 1;
            if principal.held == 0 && principal.let_go.is_none() {
                self.principals.remove(&entry.principal);
            }
        }
        Some(entry)
    }

    /// Marks `call`'s entry recorded, in the orders of the recorded.
    fn recorded(&mut self, call: &str) {
        let Some(entry) = self.calls.get(call) else {
            return;
        };
        let (stamp, principal) = (entry.stamp, entry.principal.clone());
        let calls = &self.calls;
        let still = |s: u64, c: &str| {
            calls
                .get(c)
                .is_some_and(|e| e.stamp == s && matches!(e.held, Held::Recorded(_)))
        };
        self.recorded.push(stamp, call);
        self.recorded.compact(calls.len(), still);
        let mine = self.principals.entry(principal).or_default();
        mine.recorded.push(stamp, call);
        mine.recorded.compact(mine.held, still);
    }

    /// Lets recorded rounds go until a new entry of `principal` fits: its own oldest where it
    /// holds its cap, then the store's oldest where the store is full.
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

    /// Lets go of the oldest recorded entry, `principal`'s or anyone's: whether there was one.
    fn let_go_oldest(&mut self, principal: Option<&str>) -> bool {
        loop {
            let order = match principal {
                Some(p) => match self.principals.get_mut(p) {
                    Some(mine) => &mut mine.recorded,
                    None => return false,
                },
                None => &mut self.recorded,
            };
            let Some((stamp, call)) = order.0.pop_front() else {
                return false;
            };
            let live = self
                .calls
                .get(&call)
                .is_some_and(|e| e.stamp == stamp && matches!(e.held, Held::Recorded(_)));
            if !live {
                continue;
            }
            if let Some(entry) = self.remove(&call) {
                let mine = self.principals.entry(entry.principal).or_default();
                mine.let_go = Some(
                    mine.let_go
                        .map_or(entry.expires, |at| at.max(entry.expires)),
                );
                trace::let_go(entry.number);
            }
            return true;
        }
    }
}

impl RoundStore for MemoryStore {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        let generation = self.lock().generation.clone();
        Box::pin(async move { Ok(generation) })
    }

    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        let claim = self.claim_at(round, lease, SystemTime::now());
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
                expires,
                ..
            }) => {
                *until = (SystemTime::now() + lease).min(*expires);
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
        let mut rounds = self.lock();
        let kept = match MemoryStore::running(&mut rounds, round) {
            Some(entry) => {
                entry.held = Held::Recorded(ending.to_owned());
                rounds.recorded(&round.call);
                true
            }
            None => false,
        };
        Box::pin(async move { Ok(kept) })
    }

    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        let mut rounds = self.lock();
        if MemoryStore::running(&mut rounds, round).is_some() {
            rounds.remove(&round.call);
        }
        Box::pin(async { Ok(()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEASE: Duration = Duration::from_secs(5);

    fn round(store: &MemoryStore, call: &str, number: u32, claimant: &str) -> Round {
        let generation = store.lock().generation.clone();
        let expires = SystemTime::now() + Duration::from_secs(3600);
        Round::new(call, number, "a", claimant, generation, expires)
    }

    /// Runs a future that never waits.
    fn ready<F: std::future::Future>(future: F) -> F::Output {
        let mut future = std::pin::pin!(future);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        match future.as_mut().poll(&mut context) {
            std::task::Poll::Ready(output) => output,
            std::task::Poll::Pending => unreachable!("the memory store never waits"),
        }
    }

    fn finished(store: &MemoryStore, round: &Round) {
        assert_eq!(
            store.claim_at(round, LEASE, SystemTime::now()),
            Ok(Claim::First)
        );
        assert_eq!(ready(store.record(round, "done")), Ok(true));
    }

    #[test]
    fn a_full_store_lets_the_oldest_finished_round_go_and_says_so_to_its_retry() {
        let store = MemoryStore::new().with_cap(2).with_principal_cap(2);
        let (one, two, three) = (
            round(&store, "1", 1, "me"),
            round(&store, "2", 1, "me"),
            round(&store, "3", 1, "you"),
        );
        finished(&store, &one);
        finished(&store, &two);
        // Full of finished rounds: the next claim fits, in place of the oldest.
        assert_eq!(
            store.claim_at(&three, LEASE, SystemTime::now()),
            Ok(Claim::First)
        );
        assert_eq!(store.len(), 2);
        // The round let go is not run again in silence; the others are as they were.
        assert_eq!(
            store.claim_at(&one, LEASE, SystemTime::now()),
            Ok(Claim::Forgotten)
        );
        assert_eq!(
            store.claim_at(&two, LEASE, SystemTime::now()),
            Ok(Claim::Recorded("done".into()))
        );
        // Running rounds are never let go: full of them, a claim fails.
        let four = round(&store, "4", 1, "them");
        assert_eq!(
            store.claim_at(&four, LEASE, SystemTime::now()),
            Ok(Claim::First)
        );
        let five = round(&store, "5", 1, "them");
        let full = store.claim_at(&five, LEASE, SystemTime::now()).unwrap_err();
        assert!(full.0.contains("still running"), "{full}");
    }

    #[test]
    fn one_principal_holds_at_most_its_share() {
        let store = MemoryStore::new().with_cap(8);
        let theirs: Vec<Round> = (0..50)
            .map(|i| round(&store, &format!("f{i}"), 1, "c").with_principal("flood"))
            .collect();
        let mine = round(&store, "mine", 1, "c").with_principal("ada");
        finished(&store, &mine);
        for round in &theirs {
            finished(&store, round);
        }
        // The flood keeps a quarter of the store, and the others' rounds stay.
        assert_eq!(store.len(), 1 + 2);
        assert_eq!(
            store.claim_at(&mine, LEASE, SystemTime::now()),
            Ok(Claim::Recorded("done".into()))
        );
        // Its own oldest rounds went, and their retries are forgotten, not run.
        assert_eq!(
            store.claim_at(&theirs[0], LEASE, SystemTime::now()),
            Ok(Claim::Forgotten)
        );
        // The orders stay in proportion to what is held.
        let rounds = store.lock();
        assert!(rounds.recorded.0.len() <= 2 * rounds.calls.len() + 64 + 1);
    }

    #[test]
    fn a_lease_that_passed_lets_another_claimant_take_the_round_over() {
        let store = MemoryStore::new();
        let now = SystemTime::now();
        let (one, two) = (round(&store, "s", 1, "one"), round(&store, "s", 1, "two"));
        assert_eq!(store.claim_at(&one, LEASE, now), Ok(Claim::First));
        assert_eq!(
            store.claim_at(&two, LEASE, now + LEASE / 2),
            Ok(Claim::Running)
        );
        assert_eq!(
            store.claim_at(&two, LEASE, now + LEASE * 2),
            Ok(Claim::First)
        );
        // The first claimant's late record is not kept; the second's is.
        assert_eq!(ready(store.record(&one, "1")), Ok(false));
        assert_eq!(ready(store.record(&two, "2")), Ok(true));
        assert_eq!(
            store.claim_at(&one, LEASE, now + LEASE * 2),
            Ok(Claim::Recorded("2".into()))
        );
    }

    #[test]
    fn a_call_keeps_one_entry_and_its_earlier_rounds_are_used() {
        let store = MemoryStore::new();
        finished(&store, &round(&store, "c", 1, "one"));
        finished(&store, &round(&store, "c", 2, "one"));
        assert_eq!(store.len(), 1);
        assert_eq!(
            store.claim_at(&round(&store, "c", 1, "two"), LEASE, SystemTime::now()),
            Ok(Claim::Used)
        );
    }

    #[test]
    fn another_generation_is_forgotten() {
        let store = MemoryStore::new();
        let mut other = round(&store, "c", 1, "one");
        other.generation = "an earlier process".into();
        assert_eq!(
            store.claim_at(&other, LEASE, SystemTime::now()),
            Ok(Claim::Forgotten)
        );
        assert!(store.is_empty());
    }
}
