//! [`MemoryStore`]: the rounds of one process, in memory, at a constant cost per claim.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::store::{Claim, Round, RoundStore, StoreError};

/// A [`RoundStore`] in memory: exactly-once rounds for one process, or for processes that
/// share it in one address space. Every [`StateKey`](super::StateKey) has one until
/// [`with_store`](super::StateKey::with_store) gives it another, so a single-process server
/// gets exactly-once rounds with no configuration, at a constant cost per claim. It is not
/// shared between processes: a fleet needs a shared store.
///
/// It holds at most [`cap`](MemoryStore::with_cap) rounds ([`DEFAULT_CAP`](Self::DEFAULT_CAP)
/// by default), each until its state expires, with its recorded response. At the cap, once
/// the expired rounds are forgotten, a claim of a new round fails with a [`StoreError`]: the
/// retry ends with "the state store is unavailable", and no body runs unguarded. Its memory is
/// at most the cap times the largest response a tool records.
#[derive(Debug, Clone)]
pub struct MemoryStore {
    rounds: Arc<Mutex<Rounds>>,
    cap: usize,
}

#[derive(Debug, Default)]
struct Rounds {
    by_seal: HashMap<String, Entry>,
    /// When each entry may be forgotten, in the order entries were made: a round's state
    /// expires a time to live after it was issued, and rounds are claimed in about that order.
    expiry: VecDeque<(SystemTime, String, u64)>,
    /// The generation of the next entry: an expiry of an entry replaced since is stale.
    next: u64,
}

#[derive(Debug)]
struct Entry {
    answers: String,
    held: Held,
    generation: u64,
    /// When it may be forgotten: its lease while running, its state's expiry once recorded.
    until: SystemTime,
}

#[derive(Debug)]
enum Held {
    Running { claimant: String },
    Recorded(Value),
}

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MemoryStore {
    /// The most rounds a store holds by default.
    pub const DEFAULT_CAP: usize = 100_000;

    /// An empty store that holds up to [`DEFAULT_CAP`](Self::DEFAULT_CAP) rounds.
    #[must_use]
    pub fn new() -> Self {
        MemoryStore {
            rounds: Arc::default(),
            cap: Self::DEFAULT_CAP,
        }
    }

    /// Holds up to `cap` rounds at once.
    #[must_use]
    pub fn with_cap(mut self, cap: usize) -> Self {
        self.cap = cap;
        self
    }

    /// How many rounds it holds now, expired ones not yet forgotten included.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().by_seal.len()
    }

    /// Whether it holds no round.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> MutexGuard<'_, Rounds> {
        // No code panics while holding the lock; a poisoned one still holds consistent data.
        self.rounds.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn claim_now(
        &self,
        round: &Round,
        lease: Duration,
        now: SystemTime,
    ) -> Result<Claim, StoreError> {
        let mut rounds = self.lock();
        rounds.forget_expired(now);
        let until = (now + lease).min(round.expires);
        match rounds.by_seal.get(&round.seal).filter(|e| e.until > now) {
            Some(entry) if entry.answers != round.answers => return Ok(Claim::Used),
            Some(Entry {
                held: Held::Recorded(response),
                ..
            }) => return Ok(Claim::Recorded(response.clone())),
            Some(_) => return Ok(Claim::Running),
            None => {}
        }
        if rounds.by_seal.len() >= self.cap {
            // Entries claimed out of order may outlive the oldest: look at every one, once
            // the store is full.
            rounds.by_seal.retain(|_, e| e.until > now);
            if rounds.by_seal.len() >= self.cap {
                return Err(StoreError(format!(
                    "the memory store holds its cap of {} rounds",
                    self.cap
                )));
            }
        }
        let running = Held::Running {
            claimant: round.claimant.clone(),
        };
        rounds.put(&round.seal, round.answers.clone(), running, until);
        Ok(Claim::First)
    }
}

impl Rounds {
    /// Forgets the entries whose time has passed, from the oldest.
    fn forget_expired(&mut self, now: SystemTime) {
        while let Some((at, _, _)) = self.expiry.front()
            && *at <= now
        {
            let Some((_, seal, generation)) = self.expiry.pop_front() else {
                break;
            };
            if self
                .by_seal
                .get(&seal)
                .is_some_and(|e| e.generation == generation)
            {
                self.by_seal.remove(&seal);
            }
        }
    }

    /// Makes `seal`'s entry, to be forgotten at `until`.
    fn put(&mut self, seal: &str, answers: String, held: Held, until: SystemTime) {
        let generation = self.next;
        self.next += 1;
        self.expiry.push_back((until, seal.to_owned(), generation));
        let entry = Entry {
            answers,
            held,
            generation,
            until,
        };
        self.by_seal.insert(seal.to_owned(), entry);
    }

    /// Whether `seal` is running for `claimant`, within its lease.
    fn holds(&self, seal: &str, claimant: &str) -> bool {
        let now = SystemTime::now();
        matches!(
            self.by_seal.get(seal),
            Some(Entry { held: Held::Running { claimant: c }, until, .. })
                if c == claimant && *until > now
        )
    }
}

impl RoundStore for MemoryStore {
    async fn claim(&self, round: &Round, lease: Duration) -> Result<Claim, StoreError> {
        self.claim_now(round, lease, SystemTime::now())
    }

    async fn record(&self, round: &Round, response: &Value) -> Result<(), StoreError> {
        let mut rounds = self.lock();
        if rounds.holds(&round.seal, &round.claimant) {
            let held = Held::Recorded(response.clone());
            rounds.put(&round.seal, round.answers.clone(), held, round.expires);
        }
        Ok(())
    }

    async fn release(&self, round: &Round) -> Result<(), StoreError> {
        let mut rounds = self.lock();
        if rounds.holds(&round.seal, &round.claimant) {
            rounds.by_seal.remove(&round.seal);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round(seal: &str, answers: &str, claimant: &str) -> Round {
        Round {
            seal: seal.into(),
            answers: answers.into(),
            claimant: claimant.into(),
            expires: SystemTime::now() + Duration::from_secs(3600),
        }
    }

    const LEASE: Duration = Duration::from_secs(60);

    #[test]
    fn a_full_store_refuses_new_rounds_until_old_ones_expire() {
        let store = MemoryStore::new().with_cap(2);
        let now = SystemTime::now();
        let soon = |seal: &str| Round {
            expires: now + Duration::from_secs(1),
            ..round(seal, "a", "me")
        };
        assert_eq!(store.claim_now(&soon("1"), LEASE, now), Ok(Claim::First));
        assert_eq!(store.claim_now(&soon("2"), LEASE, now), Ok(Claim::First));
        let full = store.claim_now(&soon("3"), LEASE, now).unwrap_err();
        assert!(full.to_string().contains("cap of 2 rounds"), "{full}");
        // A round it holds is still served.
        assert_eq!(store.claim_now(&soon("1"), LEASE, now), Ok(Claim::Running));
        // Once the first two expire, they are forgotten and the third fits.
        let later = now + Duration::from_secs(2);
        assert_eq!(store.claim_now(&soon("3"), LEASE, later), Ok(Claim::First));
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn a_lease_that_passed_lets_another_claimant_take_the_round_over() {
        let store = MemoryStore::new();
        let now = SystemTime::now();
        assert_eq!(
            store.claim_now(&round("s", "a", "one"), LEASE, now),
            Ok(Claim::First)
        );
        let within = now + LEASE / 2;
        assert_eq!(
            store.claim_now(&round("s", "a", "two"), LEASE, within),
            Ok(Claim::Running)
        );
        let past = now + LEASE * 2;
        assert_eq!(
            store.claim_now(&round("s", "a", "two"), LEASE, past),
            Ok(Claim::First)
        );
        // The first claimant's late record changes nothing; the second's counts.
        let first = round("s", "a", "one");
        let second = round("s", "a", "two");
        ready(store.record(&first, &json!(1))).unwrap();
        assert_eq!(store.claim_now(&second, LEASE, past), Ok(Claim::Running));
        ready(store.record(&second, &json!(2))).unwrap();
        assert_eq!(
            store.claim_now(&first, LEASE, past),
            Ok(Claim::Recorded(json!(2)))
        );
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
}
