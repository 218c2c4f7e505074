//! Exactly-once rounds: the store in which each round of a call is claimed before its body
//! runs, and its response recorded after.
//!
//! On 2026-07-28 a retry that carries a verified state is one round of one call. The engine
//! claims the round (the state's seal, with a digest of the answers it brought) before the
//! body runs:
//!
//! - the first claim runs the body, and the round's response is recorded until the state
//!   expires;
//! - the same retry again (same state, same answers), at once or later, runs nothing: it gets
//!   the recorded response, or waits for it (up to
//!   [`StateKey::CLAIM_WAIT`](super::StateKey::CLAIM_WAIT)) while the first is running;
//! - the same state with other answers is refused as used;
//! - a body that ends in a fault of the server releases its claim, so the client's retry runs.

use std::future::Future;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use super::port::PortFuture;

/// One round of one call, as a store knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Round {
    /// The seal of the state the retry carried: unique to one round of one call.
    pub seal: String,
    /// A digest of the answers the retry brought.
    pub answers: String,
    /// Who claims it: unique to one claim, so that only its claimant records or releases it.
    pub claimant: String,
    /// When the state stops opening: nothing about the round is needed after it.
    pub expires: SystemTime,
}

impl Round {
    /// A round of the state sealed as `seal`, answered with the digest `answers`, claimed by
    /// `claimant`, whose state expires at `expires`: as the engine makes one, for a store's own
    /// tests.
    #[must_use]
    pub fn new(
        seal: impl Into<String>,
        answers: impl Into<String>,
        claimant: impl Into<String>,
        expires: SystemTime,
    ) -> Self {
        Round {
            seal: seal.into(),
            answers: answers.into(),
            claimant: claimant.into(),
            expires,
        }
    }
}

/// What a claim found.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Claim {
    /// The round is this claimant's: run the body, then record its response or release it.
    First,
    /// The same retry ran: the response it recorded.
    Recorded(Value),
    /// The same retry is running under another claim, within its lease.
    Running,
    /// The state was used with other answers.
    Used,
}

/// A store that could not be reached or refused to keep more: the call fails closed, and no
/// body runs unguarded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the state store is unavailable: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Where the rounds of calls are claimed and their responses recorded, so that each round
/// runs once ([`StateKey::with_store`](super::StateKey::with_store)). [`MemoryStore`](super::MemoryStore) serves one
/// process, and is every key's store until another is given; a fleet shares one store (the
/// `redis` feature's `RedisStore`).
///
/// A round is named by its [`seal`](Round::seal). The contract, which must hold when several
/// processes share the store, each step atomic against every other:
///
/// - **claim**: where the seal has no entry, or a [`Running`](Claim::Running) one whose lease
///   has passed, make it running for `round`'s claimant and answers, held for `lease`, and
///   say [`First`](Claim::First). Where it has one for other answers, say
///   [`Used`](Claim::Used); for the same answers, say [`Running`](Claim::Running) or give
///   the response [`Recorded`](Claim::Recorded).
/// - **record**: where the seal is running for `round`'s claimant, keep `response` in its place
///   until `round.expires`. Otherwise (the lease passed and another took over) do nothing.
/// - **release**: where the seal is running for `round`'s claimant, forget it. Otherwise do
///   nothing.
///
/// An entry may be forgotten once `round.expires` has passed: the state no longer opens. A
/// store that cannot do a step says so with a [`StoreError`]; the engine then fails closed.
///
/// The methods return futures that are `Send`, as the standard library's async traits do;
/// implement them with `async fn`.
pub trait RoundStore: Send + Sync + 'static {
    /// Claims `round`, holding it for `lease` if it is this claimant's.
    fn claim(
        &self,
        round: &Round,
        lease: Duration,
    ) -> impl Future<Output = Result<Claim, StoreError>> + Send;

    /// Records the response of a round this claimant holds.
    fn record(
        &self,
        round: &Round,
        response: &Value,
    ) -> impl Future<Output = Result<(), StoreError>> + Send;

    /// Releases a round this claimant holds, so that a retry of it runs.
    fn release(&self, round: &Round) -> impl Future<Output = Result<(), StoreError>> + Send;
}

/// [`RoundStore`] as the engine holds it: boxed futures, so that a key holds any store.
pub(crate) trait DynStore: Send + Sync {
    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>>;
    fn record<'a>(
        &'a self,
        round: &'a Round,
        response: &'a Value,
    ) -> PortFuture<'a, Result<(), StoreError>>;
    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>>;
}

impl<S: RoundStore> DynStore for S {
    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        Box::pin(RoundStore::claim(self, round, lease))
    }

    fn record<'a>(
        &'a self,
        round: &'a Round,
        response: &'a Value,
    ) -> PortFuture<'a, Result<(), StoreError>> {
        Box::pin(RoundStore::record(self, round, response))
    }

    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        Box::pin(RoundStore::release(self, round))
    }
}
