//! Unit tests of `ask::round::machine`, beside the crate's sources so that they reach its private items.

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
