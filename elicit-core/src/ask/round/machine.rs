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
mod tests {
    use super::*;

    const LEASE: Duration = Duration::from_secs(30);

    fn at(origin: Instant, secs: u64) -> Instant {
        origin + Duration::from_secs(secs)
    }

    fn machine(origin: Instant) -> Machine {
        Machine::claimed(origin, LEASE, at(origin, 3600), false)
    }

    #[test]
    fn a_duplicate_waits_longer_each_time_then_says_in_progress() {
        let origin = Instant::now();
        let mut claiming = Claiming::new(origin, Duration::from_secs(40));
        let mut waits = Vec::new();
        let mut now = origin;
        loop {
            match claiming.answered(now, Ok(Claim::Running)) {
                Verdict::Wait(wait) => {
                    waits.push(wait);
                    now += wait;
                }
                Verdict::InProgress => break,
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(waits[0], Duration::from_millis(50));
        assert!(
            waits
                .windows(2)
                .all(|w| w[1] >= w[0] || w[1] < Claiming::MAX_BACKOFF)
        );
        assert!(waits.iter().all(|w| *w <= Claiming::MAX_BACKOFF));
        // About one claim a second once backed off, not twenty.
        assert!(waits.len() < 50, "{}", waits.len());
        assert_eq!(now.duration_since(origin), Duration::from_secs(40));
    }

    #[test]
    fn each_claim_answer_has_its_meaning() {
        let now = Instant::now();
        let mut claiming = Claiming::new(now, Duration::from_secs(40));
        let cases = [
            (Claim::First, Verdict::Run { taken_over: false }),
            (Claim::TakenOver, Verdict::Run { taken_over: true }),
            (Claim::Recorded("e".into()), Verdict::Replay("e".into())),
            (Claim::Used, Verdict::Used),
            (Claim::Forgotten, Verdict::Forgotten),
        ];
        for (claim, meaning) in cases {
            assert_eq!(claiming.answered(now, Ok(claim)), meaning);
        }
        let down = StoreError("down".into());
        assert_eq!(
            claiming.answered(now, Err(down.clone())),
            Verdict::Failed(down)
        );
    }

    #[test]
    fn a_claim_is_renewed_every_third_of_its_lease() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.next(origin), Keep::Sleep(at(origin, 10)));
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        // One in flight: no second.
        assert_eq!(machine.next(at(origin, 11)), Keep::Sleep(at(origin, 20)));
        machine.renewed(at(origin, 10), at(origin, 12), Ok(true));
        assert_eq!(machine.next(at(origin, 12)), Keep::Sleep(at(origin, 20)));
        assert_eq!(machine.next(at(origin, 20)), Keep::Renew);
        assert_eq!(machine.fence(), None);
    }

    #[test]
    fn a_body_whose_claim_is_not_renewed_for_most_of_the_lease_is_stopped_before_it_lapses() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        machine.renewed(
            at(origin, 10),
            at(origin, 12),
            Err(StoreError("cut off".into())),
        );
        // Tried again soon, and failing on.
        assert_eq!(machine.next(at(origin, 14)), Keep::Renew);
        machine.renewed(
            at(origin, 14),
            at(origin, 19),
            Err(StoreError("cut off".into())),
        );
        assert_eq!(machine.fence(), None);
        // Two thirds of the lease after the claim was sent, ten seconds before the store's
        // lease can lapse.
        machine.next(at(origin, 20));
        assert_eq!(machine.fence(), Some(Fence::Lapsing));
        // A stopped body's ending is still recorded, where the claim still holds.
        assert!(matches!(
            machine.ended(at(origin, 21), Some("stopped".into())),
            Settle::Record(_)
        ));
    }

    #[test]
    fn the_call_sees_the_fence_while_a_renewal_hangs() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        // The keeper waits on the store; the call looks at the fence's time itself.
        assert_eq!(machine.watch(at(origin, 12)), Ok(at(origin, 20)));
        assert_eq!(machine.watch(at(origin, 20)), Err(Fence::Lapsing));
    }

    #[test]
    fn a_renewal_that_comes_back_slow_counts_from_when_it_was_sent() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        // The store stalled: the answer comes at 25, for a renewal sent at 10.
        machine.next(at(origin, 20));
        assert_eq!(machine.fence(), Some(Fence::Lapsing));
        machine.renewed(at(origin, 10), at(origin, 25), Ok(true));
        assert_eq!(
            machine.fence(),
            Some(Fence::Lapsing),
            "a fence is not lifted"
        );
    }

    #[test]
    fn a_refused_renewal_stops_the_body_at_once_and_records_nothing() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        machine.renewed(at(origin, 10), at(origin, 10), Ok(false));
        assert_eq!(machine.fence(), Some(Fence::Lost));
        assert_eq!(
            machine.ended(at(origin, 11), Some("e".into())),
            Settle::Nothing
        );
        assert_eq!(machine.next(at(origin, 11)), Keep::Stop);
    }

    #[test]
    fn a_retryable_stop_releases_the_round() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(machine.ended(origin, None), Settle::Release);
        assert_eq!(machine.next(origin), Keep::Stop);
    }

    #[test]
    fn a_record_that_failed_is_tried_again_with_the_claim_kept_until_it_lands() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        assert_eq!(
            machine.ended(at(origin, 1), Some("paid".into())),
            Settle::Record("paid".into())
        );
        let down = || Err(StoreError("restarting".into()));
        assert_eq!(machine.recorded(at(origin, 1), down()), Recorded::Later);
        // Tried again soon, and later each time.
        let Keep::Sleep(retry) = machine.next(at(origin, 1)) else {
            panic!("a pause first")
        };
        assert!(retry > at(origin, 1) && retry < at(origin, 2), "{retry:?}");
        assert_eq!(machine.next(retry), Keep::Record("paid".into()));
        assert_eq!(machine.recorded(retry, down()), Recorded::Later);
        // The claim is still renewed meanwhile, so that a retry waits rather than run.
        assert_eq!(machine.next(at(origin, 10)), Keep::Record("paid".into()));
        assert_eq!(machine.recorded(at(origin, 10), down()), Recorded::Later);
        assert_eq!(machine.next(at(origin, 10)), Keep::Renew);
        machine.renewed(at(origin, 10), at(origin, 10), Ok(true));
        // No fence for a body that ended: its record is what matters.
        assert_eq!(machine.next(at(origin, 40)), Keep::Record("paid".into()));
        assert_eq!(machine.recorded(at(origin, 40), Ok(true)), Recorded::Landed);
        assert_eq!(machine.next(at(origin, 41)), Keep::Stop);
    }

    #[test]
    fn a_record_is_given_up_once_its_claim_is_lost_or_its_state_expired() {
        let origin = Instant::now();
        let mut lost = machine(origin);
        let _ = lost.ended(origin, Some("paid".into()));
        let _ = lost.recorded(origin, Err(StoreError("down".into())));
        assert_eq!(lost.next(at(origin, 10)), Keep::Record("paid".into()));
        assert_eq!(lost.next(at(origin, 10)), Keep::Renew);
        lost.renewed(at(origin, 10), at(origin, 10), Ok(false));
        assert_eq!(lost.next(at(origin, 11)), Keep::Stop);

        let mut expired = Machine::claimed(origin, LEASE, at(origin, 5), false);
        let _ = expired.ended(origin, Some("paid".into()));
        let _ = expired.recorded(origin, Err(StoreError("down".into())));
        assert_eq!(expired.next(at(origin, 5)), Keep::Stop);
    }

    #[test]
    fn a_lost_record_is_said() {
        let origin = Instant::now();
        let mut machine = machine(origin);
        let _ = machine.ended(origin, Some("paid".into()));
        assert_eq!(machine.recorded(origin, Ok(false)), Recorded::Lost);
        assert_eq!(machine.next(origin), Keep::Stop);
    }
}
