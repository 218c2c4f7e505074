//! Unit tests of `ask::store::memory`, beside the crate's sources so that they reach its private items.

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

fn claim(store: &MemoryStore, round: &Round) -> Result<Claim, StoreError> {
    store.claim_at(round, LEASE, SystemTime::now(), Instant::now())
}

/// A call asked, then its round claimed and recorded.
fn finished(store: &MemoryStore, round: &Round) {
    ready(store.begin(round)).unwrap();
    assert_eq!(claim(store, round), Ok(Claim::First));
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
    // Full of finished rounds: the next call fits, in place of the oldest.
    ready(store.begin(&three)).unwrap();
    assert_eq!(claim(&store, &three), Ok(Claim::First));
    assert_eq!(store.len(), 2);
    // The round let go is not run again in silence; the others are as they were.
    assert_eq!(claim(&store, &one), Ok(Claim::Forgotten));
    assert_eq!(claim(&store, &two), Ok(Claim::Recorded("done".into())));
    // Running rounds are never let go: full of them, a new call fails.
    let four = round(&store, "4", 1, "them");
    ready(store.begin(&four)).unwrap();
    assert_eq!(claim(&store, &four), Ok(Claim::First));
    let five = round(&store, "5", 1, "them");
    let full = ready(store.begin(&five)).unwrap_err();
    assert!(full.0.contains("still running"), "{full}");
}

#[test]
fn one_principal_holds_at_most_its_share() {
    let store = MemoryStore::new().with_cap(8);
    let theirs: Vec<Round> = (0..50)
        .map(|i| round(&store, &format!("f{i}"), 1, "c").with_principal("flood"))
        .collect();
    let mine = round(&store, "mine", 1, "c").with_principal("ada");
    let asked = round(&store, "asked", 1, "c").with_principal("bob");
    finished(&store, &mine);
    ready(store.begin(&asked)).unwrap();
    for round in &theirs {
        finished(&store, round);
    }
    // The flood keeps a quarter of the store, and the others' rounds stay, asked or
    // finished.
    assert_eq!(store.len(), 2 + 2);
    assert_eq!(claim(&store, &mine), Ok(Claim::Recorded("done".into())));
    assert_eq!(claim(&store, &asked), Ok(Claim::First));
    // Its own oldest rounds went, and their retries are forgotten, not run.
    assert_eq!(claim(&store, &theirs[0]), Ok(Claim::Forgotten));
    // The orders stay in proportion to what is held, and so does the principals' map.
    let rounds = store.lock();
    assert!(rounds.idle.0.len() <= 2 * rounds.calls.len() + 64 + 1);
    assert!(rounds.principals.len() <= rounds.calls.len());
}

#[test]
fn a_lease_that_passed_lets_another_claimant_take_the_round_over() {
    let store = MemoryStore::new();
    let (now, clock) = (SystemTime::now(), Instant::now());
    let (one, two) = (round(&store, "s", 1, "one"), round(&store, "s", 1, "two"));
    ready(store.begin(&one)).unwrap();
    assert_eq!(store.claim_at(&one, LEASE, now, clock), Ok(Claim::First));
    assert_eq!(
        store.claim_at(&two, LEASE, now, clock + LEASE / 2),
        Ok(Claim::Running)
    );
    assert_eq!(
        store.claim_at(&two, LEASE, now, clock + LEASE * 2),
        Ok(Claim::TakenOver)
    );
    // The first claimant's late record is not kept; the second's is.
    assert_eq!(ready(store.record(&one, "1")), Ok(false));
    assert_eq!(ready(store.record(&two, "2")), Ok(true));
    assert_eq!(
        store.claim_at(&one, LEASE, now, clock + LEASE * 2),
        Ok(Claim::Recorded("2".into()))
    );
}

#[test]
fn a_call_keeps_one_entry_and_its_earlier_rounds_are_used() {
    let store = MemoryStore::new();
    finished(&store, &round(&store, "c", 1, "one"));
    let second = round(&store, "c", 2, "one");
    assert_eq!(claim(&store, &second), Ok(Claim::First));
    assert_eq!(ready(store.record(&second, "done")), Ok(true));
    assert_eq!(store.len(), 1);
    assert_eq!(
        claim(&store, &round(&store, "c", 1, "two")),
        Ok(Claim::Used)
    );
}

#[test]
fn a_released_round_runs_again_and_keeps_the_rounds_before_it_used() {
    let store = MemoryStore::new();
    finished(&store, &round(&store, "c", 1, "one"));
    let second = round(&store, "c", 2, "one");
    assert_eq!(claim(&store, &second), Ok(Claim::First));
    ready(store.release(&second)).unwrap();
    assert_eq!(
        claim(&store, &round(&store, "c", 1, "two")),
        Ok(Claim::Used)
    );
    assert_eq!(
        claim(&store, &round(&store, "c", 2, "two")),
        Ok(Claim::First)
    );
}

#[test]
fn another_generation_and_a_call_without_an_entry_are_forgotten() {
    let store = MemoryStore::new();
    let mut other = round(&store, "c", 1, "one");
    assert_eq!(claim(&store, &other), Ok(Claim::Forgotten));
    ready(store.begin(&other)).unwrap();
    other.generation = "an earlier process".into();
    assert_eq!(claim(&store, &other), Ok(Claim::Forgotten));
}
