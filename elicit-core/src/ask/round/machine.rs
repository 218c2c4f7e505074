//! The life of one claimed round, with no I/O: claiming it, keeping the claim while the body
//! runs, stopping the body before the claim can lapse, and recording or releasing how it
//! ended. The driver ([`Ask::run`](crate::ask::Ask::run) and its keeper task) does what it says and
//! feeds back what the store answered, with the time on its own monotonic clock.
//!
//! ```text
//!   claimed() ──► Wait(d) ──► claim again            (the same retry runs elsewhere)
//!       │    ──► Replay / Refuse / Forgotten / Fail  (nothing runs)
//!       ▼
//!   Run { taken_over } ──► the body runs; the keeper asks next():
//!       │                    Renew ──► renewed()  ── lost, or not renewed for most of the
//!       │                    Sleep(until)            lease ──► Fence: the body stops
//!       ▼
//!   ended() ──► Record(ending) / Release ──► recorded() ── failed ──► Record again later,
//!                                                          the claim still renewed, until it
//!                                                          lands, is lost, or the state expires
//! ```
//!
//! **The fence.** A claim is known held from the moment the claim or renewal the store
//! confirmed was sent: the store began its lease no earlier. Renewals go out every third of the
//! lease; where none has been confirmed for [`FENCE`] of it, the body is stopped at its next
//! await, before the lease can lapse in the store and another process take the round over. A
//! renewal the store refuses (another took the round over, or the store lost it) stops the body
//! at once. Only the rate of the clocks matters, never their offset.

use std::time::{Duration, Instant};

use crate::ask::store::{Claim, StoreError};

/// The part of the lease after which a body whose claim was not renewed is stopped: the rest
/// is the time it has to reach its next await.
pub(crate) const FENCE: (u32, u32) = (2, 3);

/// What a claim's answer means for the round.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Run the body; `taken_over` where an earlier run's claim lapsed.
    Run { taken_over: bool },
    /// The same retry runs elsewhere: claim again after this long.
    Wait(Duration),
    /// The same retry ran: end with its recorded ending.
    Replay(String),
    /// The round ran with other answers, or the call moved on.
    Used,
    /// The store may have lost the round: the call starts over.
    Forgotten,
    /// The same retry still runs elsewhere, past the wait.
    InProgress,
    /// The store failed: nothing ran.
    Failed(StoreError),
}

/// Claiming one round: how long a duplicate has waited, and how long it waits next.
#[derive(Debug)]
pub(crate) struct Claiming {
    started: Instant,
    wait: Duration,
    backoff: Duration,
}

impl Claiming {
    /// The first wait between two claims of a round that runs elsewhere; each next one is
    /// twice as long, up to [`MAX_BACKOFF`](Self::MAX_BACKOFF).
    const FIRST_BACKOFF: Duration = Duration::from_millis(50);
    const MAX_BACKOFF: Duration = Duration::from_secs(1);

    /// A claim that may wait up to `wait` for the same retry running elsewhere.
    pub(crate) fn new(now: Instant, wait: Duration) -> Self {
        Claiming {
            started: now,
            wait,
            backoff: Self::FIRST_BACKOFF,
        }
    }

    /// What the store's `answer` means at `now`.
    pub(crate) fn answered(&mut self, now: Instant, answer: Result<Claim, StoreError>) -> Verdict {
        match answer {
            Err(e) => Verdict::Failed(e),
            Ok(Claim::First) => Verdict::Run { taken_over: false },
            Ok(Claim::TakenOver) => Verdict::Run { taken_over: true },
            Ok(Claim::Recorded(sealed)) => Verdict::Replay(sealed),
            Ok(Claim::Used) => Verdict::Used,
            Ok(Claim::Forgotten) => Verdict::Forgotten,
            Ok(Claim::Running) => {
                let waited = now.saturating_duration_since(self.started);
                if waited >= self.wait {
                    return Verdict::InProgress;
                }
                let next = self.backoff.min(self.wait - waited);
                self.backoff = (self.backoff * 2).min(Self::MAX_BACKOFF);
                Verdict::Wait(next)
            }
        }
    }
}

/// Why a running body was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fence {
    /// No renewal was confirmed for most of the lease: the store could not be reached.
    Lapsing,
    /// The store no longer holds the claim: another took the round over, or it lost it.
    Lost,
}

/// What the keeper does next.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Keep {
    /// Renew the claim.
    Renew,
    /// Record this ending again.
    Record(String),
    /// Nothing until then, or until the machine changes.
    Sleep(Instant),
    /// Nothing more: the round is settled, or given up.
    Stop,
}

/// How far the round is.
#[derive(Debug, PartialEq, Eq)]
enum Phase {
    /// The body runs.
    Running,
    /// The body was stopped, or is to be, at its next await.
    Fenced(Fence),
    /// The body ended: its sealed ending is to be recorded, first by the call, then (where that
    /// failed) by the keeper, from `retry` on.
    Recording {
        ending: String,
        retry: Instant,
        first: bool,
    },
    /// Recorded, released, or given up: nothing more to do.
    Settled,
}

/// One claimed round, from the claim to its record.
#[derive(Debug)]
pub(crate) struct Machine {
    lease: Duration,
    /// When the claim or renewal the store last confirmed was sent.
    confirmed: Instant,
    /// When the renewal in flight was sent.
    renewing: Option<Instant>,
    /// When the next renewal goes out.
    next_renewal: Instant,
    /// When the state stops opening anywhere: nothing is kept past it.
    expires: Instant,
    phase: Phase,
    taken_over: bool,
    /// Failed records, for the wait before the next.
    failures: u32,
}

/// What to do once the body ended.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Settle {
    /// Record this ending.
    Record(String),
    /// Release the round.
    Release,
    /// Nothing: the claim was lost, and another may run the round.
    Nothing,
}

impl Machine {
    /// A round claimed with the claim sent at `sent`, held for `lease`, whose state stops
    /// opening at `expires`.
    pub(crate) fn claimed(
        sent: Instant,
        lease: Duration,
        expires: Instant,
        taken_over: bool,
    ) -> Self {
        Machine {
            lease,
            confirmed: sent,
            renewing: None,
            next_renewal: sent + lease / 3,
            expires,
            phase: Phase::Running,
            taken_over,
            failures: 0,
        }
    }

    /// A machine with nothing to keep, at `now`: no round is claimed.
    pub(crate) fn settled(now: Instant) -> Self {
        Machine {
            phase: Phase::Settled,
            ..Machine::claimed(now, Duration::ZERO, now, false)
        }
    }

    /// Whether the round runs as a take-over.
    pub(crate) fn taken_over(&self) -> bool {
        self.taken_over
    }

    /// When the body must have stopped, where no renewal is confirmed before.
    fn fence_at(&self) -> Instant {
        self.confirmed + self.lease * FENCE.0 / FENCE.1
    }

    /// Why the body must stop now, if it must.
    pub(crate) fn fence(&self) -> Option<Fence> {
        match self.phase {
            Phase::Fenced(fence) => Some(fence),
            _ => None,
        }
    }

    /// Why the body must stop at `now`, if it must: its claim was lost, or not renewed for
    /// most of the lease. Otherwise, when to look again. The call watches this itself, so that
    /// a keeper stuck on a renewal the store does not answer cannot keep the body running.
    pub(crate) fn watch(&mut self, now: Instant) -> Result<Instant, Fence> {
        if self.phase == Phase::Running && now >= self.fence_at() {
            self.phase = Phase::Fenced(Fence::Lapsing);
        }
        match self.phase {
            Phase::Fenced(fence) => Err(fence),
            _ => Ok(self.fence_at()),
        }
    }

    /// What the keeper does at `now`. It stops a body whose claim was not renewed for most of
    /// the lease.
    pub(crate) fn next(&mut self, now: Instant) -> Keep {
        if self.phase == Phase::Running && now >= self.fence_at() {
            self.phase = Phase::Fenced(Fence::Lapsing);
        }
        let holding = matches!(self.phase, Phase::Running | Phase::Recording { .. });
        if !holding || now >= self.expires {
            if let Phase::Recording { .. } = self.phase {
                self.phase = Phase::Settled;
            }
            return match self.phase {
                Phase::Fenced(_) => Keep::Sleep(self.expires),
                _ => Keep::Stop,
            };
        }
        if let Phase::Recording {
            ending,
            retry,
            first: false,
        } = &self.phase
            && now >= *retry
        {
            let ending = ending.clone();
            self.phase = Phase::Recording {
                ending: ending.clone(),
                retry: now + self.lease,
                first: false,
            };
            return Keep::Record(ending);
        }
        if self.renewing.is_none() && now >= self.next_renewal {
            self.renewing = Some(now);
            return Keep::Renew;
        }
        let mut wake = self.expires;
        if self.renewing.is_none() {
            wake = wake.min(self.next_renewal);
        }
        match &self.phase {
            Phase::Running => wake = wake.min(self.fence_at()),
            Phase::Recording {
                retry,
                first: false,
                ..
            } => wake = wake.min(*retry),
            _ => {}
        }
        Keep::Sleep(wake)
    }

    /// The store's answer to the renewal sent at `sent`, read at `now`.
    pub(crate) fn renewed(
        &mut self,
        sent: Instant,
        now: Instant,
        answer: Result<bool, StoreError>,
    ) {
        self.renewing = None;
        match answer {
            Ok(true) => {
                self.confirmed = self.confirmed.max(sent);
                self.next_renewal = sent + self.lease / 3;
            }
            Ok(false) => match self.phase {
                Phase::Running => self.phase = Phase::Fenced(Fence::Lost),
                // The ending landed meanwhile (a record is no longer running), or another
                // took the round over: either way, nothing more is ours to keep.
                Phase::Recording { .. } => self.phase = Phase::Settled,
                _ => {}
            },
            // Tried again soon: the fence stops the body if the store stays away.
            Err(_) => self.next_renewal = now + (self.lease / 15).max(Duration::from_millis(10)),
        }
    }

    /// The body ended (`ending`, sealed, or `None` where it stopped before any effect and its
    /// round is released): what to do with the round.
    pub(crate) fn ended(&mut self, now: Instant, ending: Option<String>) -> Settle {
        match (&self.phase, ending) {
            (Phase::Fenced(Fence::Lost), _) | (Phase::Settled | Phase::Recording { .. }, _) => {
                self.phase = Phase::Settled;
                Settle::Nothing
            }
            (_, None) => {
                self.phase = Phase::Settled;
                Settle::Release
            }
            (_, Some(ending)) => {
                self.phase = Phase::Recording {
                    ending: ending.clone(),
                    retry: now,
                    first: true,
                };
                Settle::Record(ending)
            }
        }
    }

    /// Ends the round with nothing more to do: its ending cannot be sealed.
    pub(crate) fn give_up(&mut self) {
        self.phase = Phase::Settled;
    }

    /// Leaves the ending's record to the keeper, from `now`: the call that would have made it
    /// is gone (its future was dropped).
    pub(crate) fn hand_over(&mut self, now: Instant) {
        if let Phase::Recording { first, retry, .. } = &mut self.phase {
            *first = false;
            *retry = now;
        }
    }

    /// The store's answer to a record, read at `now`: where it failed, the keeper records it
    /// again later, for as long as the claim holds and the state opens.
    pub(crate) fn recorded(&mut self, now: Instant, answer: Result<bool, StoreError>) -> Recorded {
        let Phase::Recording { ending, .. } = &self.phase else {
            return Recorded::Landed;
        };
        match answer {
            Ok(true) => {
                self.phase = Phase::Settled;
                Recorded::Landed
            }
            Ok(false) => {
                self.phase = Phase::Settled;
                Recorded::Lost
            }
            Err(_) => {
                self.failures += 1;
                let wait = (Duration::from_millis(100) * 2u32.saturating_pow(self.failures))
                    .min(self.lease / 3);
                self.phase = Phase::Recording {
                    ending: ending.clone(),
                    retry: now + wait,
                    first: false,
                };
                Recorded::Later
            }
        }
    }
}

/// What came of a record.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Recorded {
    /// It is kept.
    Landed,
    /// The store no longer held the claim: another took the round over, or it lost it.
    Lost,
    /// It failed, and is tried again in the background.
    Later,
}

#[cfg(test)]
#[path = "../../../unit/ask/round/machine.rs"]
mod tests;
