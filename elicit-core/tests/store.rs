//! The contract of a `RoundStore`, held by the memory store and, with feature `redis`, by the
//! Redis store against a real Redis.
#![cfg(feature = "ask")]

use std::time::{Duration, SystemTime};

use elicit_core::ask::{Claim, MemoryStore, Round, RoundStore, StateKey};

const LEASE: Duration = Duration::from_secs(60);

/// Round `number` of `call`, answered `answers`, claimed by `claimant`, under `generation`.
fn round(call: &str, number: u32, answers: &str, claimant: &str, generation: &str) -> Round {
    let expires = SystemTime::now() + Duration::from_secs(3600);
    Round::new(call, number, answers, claimant, generation, expires)
}

/// Every step of the contract, on calls whose names start with `tag` (so that runs against
/// one Redis do not meet).
async fn contract(store: &impl RoundStore, tag: &str) {
    let generation = store.generation().await.unwrap();
    assert_eq!(store.generation().await.unwrap(), generation, "it stays");
    let call = |name: &str| format!("{tag}-{name}");
    let at = |name: &str, number, answers: &str, claimant: &str| {
        round(&call(name), number, answers, claimant, &generation)
    };
    let first = at("a", 1, "yes", "one");
    let same_elsewhere = at("a", 1, "yes", "two");
    let other_answers = at("a", 1, "no", "three");

    // A call's first round is asked before it is claimed: a claim of a call with no entry is
    // one the store let go or lost.
    assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::Forgotten));
    assert_eq!(store.begin(&first).await, Ok(generation.clone()));
    assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::First));
    // Asked again (a first call sent twice has two ids; this is the same call): no change.
    assert_eq!(store.begin(&first).await, Ok(generation.clone()));
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Running)
    );
    assert_eq!(store.claim(&other_answers, LEASE).await, Ok(Claim::Used));
    // Only the claimant renews and records.
    assert_eq!(store.renew(&same_elsewhere, LEASE).await, Ok(false));
    assert_eq!(store.renew(&first, LEASE).await, Ok(true));
    assert_eq!(store.record(&same_elsewhere, "not-mine").await, Ok(false));
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Running)
    );
    assert_eq!(store.record(&first, "sealed-ending").await, Ok(true));
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Recorded("sealed-ending".into()))
    );
    assert_eq!(store.claim(&other_answers, LEASE).await, Ok(Claim::Used));
    // A recorded round is neither released nor renewed.
    store.release(&first).await.unwrap();
    assert_eq!(store.renew(&first, LEASE).await, Ok(false));
    assert_eq!(
        store.claim(&first, LEASE).await,
        Ok(Claim::Recorded("sealed-ending".into()))
    );

    // The call moves on: its next round takes the entry's place, and the round before is
    // used.
    let next = at("a", 2, "yes", "one");
    assert_eq!(store.claim(&next, LEASE).await, Ok(Claim::First));
    assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::Used));

    // A released round runs again, with any answers; only its claimant releases it; and the
    // round before it stays used.
    store.begin(&at("b", 1, "", "")).await.unwrap();
    let before = at("b", 1, "yes", "one");
    assert_eq!(store.claim(&before, LEASE).await, Ok(Claim::First));
    assert_eq!(store.record(&before, "asked round 2").await, Ok(true));
    let faulty = at("b", 2, "yes", "one");
    assert_eq!(store.claim(&faulty, LEASE).await, Ok(Claim::First));
    store.release(&at("b", 2, "yes", "two")).await.unwrap();
    assert_eq!(
        store.claim(&at("b", 2, "yes", "two"), LEASE).await,
        Ok(Claim::Running)
    );
    store.release(&faulty).await.unwrap();
    assert_eq!(
        store.claim(&at("b", 1, "yes", "two"), LEASE).await,
        Ok(Claim::Used)
    );
    assert_eq!(
        store.claim(&at("b", 2, "no", "two"), LEASE).await,
        Ok(Claim::First)
    );

    // A lease that passed lets another claimant take the round over, as a take-over; one
    // renewed holds.
    let short = Duration::from_millis(300);
    let (one, two) = (at("c", 1, "yes", "one"), at("c", 1, "yes", "two"));
    store.begin(&one).await.unwrap();
    assert_eq!(store.claim(&one, short).await, Ok(Claim::First));
    for _ in 0..3 {
        tokio::time::sleep(short / 3).await;
        assert_eq!(store.renew(&one, short).await, Ok(true));
    }
    assert_eq!(store.claim(&two, short).await, Ok(Claim::Running));
    tokio::time::sleep(short * 2).await;
    assert_eq!(store.claim(&two, short).await, Ok(Claim::TakenOver));
    // The first claimant's late record is not kept, and it says so.
    assert_eq!(store.record(&one, "late").await, Ok(false));
    assert_eq!(store.renew(&one, short).await, Ok(false));
    assert_eq!(store.record(&two, "kept").await, Ok(true));

    // A round is kept past its state's expiry by the clock skew allowed, so that a process
    // whose clock is behind still finds it.
    let mut brief = at("d", 1, "yes", "one");
    brief.expires = SystemTime::now() + Duration::from_millis(300);
    store.begin(&brief).await.unwrap();
    assert_eq!(store.claim(&brief, LEASE).await, Ok(Claim::First));
    assert_eq!(store.record(&brief, "1").await, Ok(true));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(StateKey::MAX_CLOCK_SKEW >= Duration::from_secs(10));
    assert_eq!(
        store.claim(&at("d", 1, "no", "two"), LEASE).await,
        Ok(Claim::Used)
    );

    // A state issued under another generation is forgotten, whatever the store holds.
    let elsewhere = round(&call("e"), 1, "yes", "one", "another generation");
    assert_eq!(store.claim(&elsewhere, LEASE).await, Ok(Claim::Forgotten));
}

#[tokio::test(flavor = "current_thread")]
async fn the_memory_store_keeps_the_contract() {
    contract(&MemoryStore::new(), "memory").await;
}

/// Every memory store has a generation of its own, as a store in a new process does.
#[tokio::test(flavor = "current_thread")]
async fn a_new_memory_store_is_a_new_generation() {
    let (one, two) = (MemoryStore::new(), MemoryStore::new());
    assert_ne!(one.generation().await, two.generation().await);
    // The process's store is one.
    assert_eq!(
        MemoryStore::process().generation().await,
        MemoryStore::process().clone().generation().await
    );
}

#[cfg(feature = "redis")]
#[allow(dead_code)] // Shared with the fleet's tests, which cut a process off and fill Redis.
#[path = "support/redis_server.rs"]
mod redis_server;

#[cfg(feature = "redis")]
mod redis {
    use super::*;
    use elicit_core::ask::RedisStore;

    use super::redis_server::TestRedis;

    /// A tag no other run against the same Redis uses.
    fn tag() -> String {
        let now = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .unwrap();
        format!("{}-{}", std::process::id(), now.as_nanos())
    }

    #[tokio::test(flavor = "current_thread")]
    async fn the_redis_store_keeps_the_contract() {
        let Some(redis) = TestRedis::shared("the_redis_store_keeps_the_contract") else {
            return;
        };
        let store = RedisStore::open(&redis.url, "elicit-test:").unwrap();
        contract(&store, &tag()).await;
        // Another prefix is another server's rounds, and generation.
        let other = RedisStore::open(&redis.url, "elicit-other:").unwrap();
        let (mine, theirs) = (
            store.generation().await.unwrap(),
            other.generation().await.unwrap(),
        );
        assert_ne!(mine, theirs);
        let tag = tag();
        store.begin(&round(&tag, 1, "", "", "")).await.unwrap();
        other.begin(&round(&tag, 1, "", "", "")).await.unwrap();
        assert_eq!(
            store.claim(&round(&tag, 1, "y", "1", &mine), LEASE).await,
            Ok(Claim::First)
        );
        assert_eq!(
            other.claim(&round(&tag, 1, "y", "1", &theirs), LEASE).await,
            Ok(Claim::First)
        );
    }

    /// Its connection lives on a tokio runtime: opened outside one, it says so.
    #[test]
    fn a_store_opened_outside_a_runtime_says_so() {
        let error = RedisStore::open("redis://127.0.0.1:1/", "x:").unwrap_err();
        assert!(
            error.to_string().contains("outside a tokio runtime"),
            "{error}"
        );
    }

    /// A Redis that went away fails closed; back again, it serves once more.
    #[tokio::test(flavor = "current_thread")]
    async fn a_redis_that_went_away_fails_closed() {
        let Some(mut redis) = TestRedis::own("a_redis_that_went_away_fails_closed") else {
            return;
        };
        let store = RedisStore::open(&redis.url, "elicit-test:").unwrap();
        let generation = store.generation().await.unwrap();
        let first = round("gone", 1, "yes", "one", &generation);
        store.begin(&first).await.unwrap();
        assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::First));
        redis.stop();
        let error = store.claim(&first, LEASE).await.unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the state store is unavailable"),
            "{error}"
        );
        assert!(store.record(&first, "1").await.is_err());
        redis.start().unwrap();
        let mut claimed = Err(error);
        for _ in 0..50 {
            claimed = store.generation().await;
            if claimed.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Restarted empty, it is a new generation: what was claimed before is forgotten.
        let now = claimed.unwrap();
        assert_ne!(now, generation);
        assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::Forgotten));
        let back = round("back", 1, "yes", "one", &now);
        store.begin(&back).await.unwrap();
        assert_eq!(store.claim(&back, LEASE).await, Ok(Claim::First));
    }

    /// A Redis with an append-only file synced on every write keeps its records, and its
    /// generation, through a crash (`kill -9`) and a restart.
    #[tokio::test(flavor = "current_thread")]
    async fn a_durable_redis_keeps_its_records_through_a_restart() {
        let Some(mut redis) = TestRedis::durable("keeps_its_records") else {
            return;
        };
        let store = RedisStore::open(&redis.url, "elicit-test:").unwrap();
        let generation = store.generation().await.unwrap();
        let paid = round("paid", 1, "yes", "one", &generation);
        store.begin(&paid).await.unwrap();
        assert_eq!(store.claim(&paid, LEASE).await, Ok(Claim::First));
        assert_eq!(store.record(&paid, "sealed").await, Ok(true));
        redis.restart(false).unwrap();
        let mut again = Err(elicit_core::ask::StoreError(String::new()));
        for _ in 0..50 {
            again = store
                .claim(&round("paid", 1, "yes", "two", &generation), LEASE)
                .await;
            if again.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(again, Ok(Claim::Recorded("sealed".into())));
        assert_eq!(store.generation().await.unwrap(), generation);
    }
}
