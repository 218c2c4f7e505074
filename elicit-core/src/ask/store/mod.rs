//! Exactly-once rounds: the store in which each round of a call is claimed before its body
//! runs, and its ending recorded after.
//!
//! On 2026-07-28 a retry that carries a verified state is one round of one call. The engine
//! claims the round (the call, the round's number and a digest of the answers it brought)
//! before the body runs:
//!
//! - the first claim runs the body, and its ending is recorded, whatever it is: a result, the
//!   next round's questions, a tool error, a JSON-RPC error or a caught panic;
//! - the same retry again (same state, same answers), at once or later, runs nothing: it gets
//!   the recorded ending, or waits for it (up to
//!   [`StateKey::CLAIM_WAIT`](super::StateKey::CLAIM_WAIT)) while the first is running;
//! - the same state with other answers, or an earlier round of a call that has moved on, is
//!   refused as used;
//! - only what stops a round before its effects can have happened releases it, so that the
//!   client's retry runs: an error the tool marks with
//!   [`Interrupt::retryable`](super::Interrupt::retryable), or a state the server could not
//!   seal. The released round stays the call's latest, so an earlier round stays used;
//! - a call's first round is made in the store when it is asked ([`RoundStore::begin`]), so a
//!   retry whose call has no entry was let go or lost, never new: it is asked again, saying
//!   so, and never run blindly;
//! - a claim whose lease passed (its process died, or was cut off from the store and stopped
//!   its body) is taken over, and the body knows it ([`Ask::taken_over`](super::Ask::taken_over)).

mod memory;
#[cfg(feature = "redis")]
mod redis;

use std::time::{Duration, SystemTime};

use super::port::PortFuture;

pub use memory::MemoryStore;
#[cfg(feature = "redis")]
pub use redis::RedisStore;

/// One round of one call, as a store knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Round {
    /// The call: a digest of its id, the same in every round of it and on every process.
    pub call: String,
    /// Which round of the call it is: 1 for the first retry.
    pub number: u32,
    /// A digest of the answers the retry brought.
    pub answers: String,
    /// Who claims it: unique to one claim, so that only its claimant renews, records or
    /// releases it.
    pub claimant: String,
    /// Who the caller is: a digest of the principal the state is bound to, empty for nobody
    /// in particular. A store may cap what one principal holds.
    pub principal: String,
    /// The store's [generation](RoundStore::generation) the call's state was issued under.
    pub generation: String,
    /// When the state stops opening: nothing about the call is needed after it.
    pub expires: SystemTime,
}

impl Round {
    /// Round `number` of `call`, answered with the digest `answers`, claimed by `claimant`,
    /// its state issued under `generation` and expiring at `expires`, for nobody in
    /// particular: as the engine makes one, for a store's own tests.
    #[must_use]
    pub fn new(
        call: impl Into<String>,
        number: u32,
        answers: impl Into<String>,
        claimant: impl Into<String>,
        generation: impl Into<String>,
        expires: SystemTime,
    ) -> Self {
        Round {
            call: call.into(),
            number,
            answers: answers.into(),
            claimant: claimant.into(),
            principal: String::new(),
            generation: generation.into(),
            expires,
        }
    }

    /// The same round, for the caller `principal` (a digest).
    #[must_use]
    pub fn with_principal(mut self, principal: impl Into<String>) -> Self {
        self.principal = principal.into();
        self
    }
}

/// What a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Claim {
    /// The round is this claimant's: run the body, then record its ending (or release it).
    First,
    /// The round was running under another claim whose lease passed: it is this claimant's
    /// now, as a take-over. The earlier run may have done some or all of what the body does.
    TakenOver,
    /// The same retry ran: the ending it recorded, as the engine sealed it.
    Recorded(String),
    /// The same retry is running under another claim, within its lease.
    Running,
    /// The round ran with other answers, or the call has moved on to a later round.
    Used,
    /// The store may have lost this round: its generation is not the state's, or the call has
    /// no entry (the store let it go to make room, or lost it). Whether it ran cannot be told,
    /// so it is not run blindly.
    Forgotten,
}

/// A store that could not be reached or could not keep more. The call fails closed, and no
/// body runs unguarded. Its text is for the server's traces; the client is told only that
/// the store is unavailable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the state store is unavailable: {}", self.0)
    }
}

impl std::error::Error for StoreError {}

/// Where the rounds of calls are claimed and their endings recorded, so that each round runs
/// once ([`StateKey::with_store`](super::StateKey::with_store)). Every key that is given none
/// shares one [`MemoryStore`](super::MemoryStore) per process; a fleet shares one store (the
/// `redis` feature's `RedisStore`).
///
/// A store holds one entry per call, named by [`Round::call`]: its latest round, asked,
/// running, recorded or released. The contract, which must hold when several processes share
/// the store, each step atomic against every other:
///
/// - **generation**: the store's generation, made the first time it is asked for. It stays
///   the same for as long as the store keeps every entry it acknowledged, and changes when it
///   may have lost one (a Redis restarted empty, or from a snapshot older than its last write;
///   a memory store in a new process).
/// - **begin**: a call's round `round.number` is about to be asked, the first of the call (or
///   of a call that started over): where the call has no entry, or one of an earlier round,
///   make it asked for `round.number`, kept until `round.expires`. Give the generation.
/// - **claim**: where the store's generation is not `round.generation`, or the call has no
///   entry, say [`Forgotten`](Claim::Forgotten). Where its entry is an earlier round, or this
///   round asked or released, make it running for `round`'s claimant, number and answers,
///   held for `lease`, and say [`First`](Claim::First). Where it is a later round, or this
///   round running or recorded with other answers, say [`Used`](Claim::Used). Where it is
///   this round with the same answers: recorded, give the ending
///   ([`Recorded`](Claim::Recorded)); running within its lease, [`Running`](Claim::Running);
///   running past it, make it this claimant's and say [`TakenOver`](Claim::TakenOver).
/// - **renew**: where the call's entry is this round, running for `round`'s claimant, hold it
///   for `lease` from now, and say `true`; otherwise `false`.
/// - **record**: where the call's entry is this round, running for `round`'s claimant, keep
///   `ending` in its place, and say `true`; otherwise (another took the round over) keep
///   nothing and say `false`.
/// - **release**: where the call's entry is this round, running for `round`'s claimant, mark
///   it released. Otherwise do nothing.
///
/// Leases are measured by one clock, the store's. An entry is kept until `round.expires` plus
/// [`StateKey::MAX_CLOCK_SKEW`](super::StateKey::MAX_CLOCK_SKEW), so that a process whose clock
/// is behind still finds it while the state opens there.
///
/// An entry may be forgotten once that time has passed: the state no longer opens anywhere. A
/// store may let an entry that is not running go to make room: a retry of it is then
/// [`Forgotten`](Claim::Forgotten). A store that cannot do a step says so with a
/// [`StoreError`]; the engine then fails closed.
///
/// The methods return boxed futures that are `Send`, as [`Port`](super::Port)'s do: write
/// each body as `Box::pin(async move { .. })`.
pub trait RoundStore: Send + Sync + 'static {
    /// The store's generation.
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>>;

    /// Makes the entry of a call whose round `round.number` is about to be asked, and gives
    /// the store's generation.
    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>>;

    /// Claims `round`, holding it for `lease` if it is this claimant's.
    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>>;

    /// Holds a round this claimant runs for `lease` more: whether it still held it.
    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>>;

    /// Records the ending of a round this claimant runs: whether it was kept.
    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>>;

    /// Releases a round this claimant runs, so that a retry of it runs.
    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>>;
}
