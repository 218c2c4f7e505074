//! The contract of a `RoundStore`, held by the memory store and, with feature `redis`, by the
//! Redis store against a real Redis.
#![cfg(feature = "ask")]

use std::time::{Duration, SystemTime};

use elicit_core::ask::{Claim, MemoryStore, Round, RoundStore};
use serde_json::json;

const LEASE: Duration = Duration::from_secs(60);

fn round(seal: &str, answers: &str, claimant: &str) -> Round {
    Round::new(
        seal,
        answers,
        claimant,
        SystemTime::now() + Duration::from_secs(3600),
    )
}

/// Every step of the contract, on rounds whose seals start with `tag` (so that runs against
/// one Redis do not meet).
async fn contract(store: &impl RoundStore, tag: &str) {
    let seal = |name: &str| format!("{tag}-{name}");
    let first = round(&seal("a"), "yes", "one");
    let same_elsewhere = round(&seal("a"), "yes", "two");
    let other_answers = round(&seal("a"), "no", "three");

    assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::First));
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Running)
    );
    assert_eq!(store.claim(&other_answers, LEASE).await, Ok(Claim::Used));
    // Only the claimant records.
    store
        .record(&same_elsewhere, &json!("not mine"))
        .await
        .unwrap();
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Running)
    );
    let response = json!({"kind": "done", "result": "paid"});
    store.record(&first, &response).await.unwrap();
    assert_eq!(
        store.claim(&same_elsewhere, LEASE).await,
        Ok(Claim::Recorded(response.clone()))
    );
    assert_eq!(store.claim(&other_answers, LEASE).await, Ok(Claim::Used));
    // A recorded round is not released.
    store.release(&first).await.unwrap();
    assert_eq!(
        store.claim(&first, LEASE).await,
        Ok(Claim::Recorded(response))
    );

    // A released round runs again; only its claimant releases it.
    let faulty = round(&seal("b"), "yes", "one");
    assert_eq!(store.claim(&faulty, LEASE).await, Ok(Claim::First));
    store
        .release(&round(&seal("b"), "yes", "two"))
        .await
        .unwrap();
    assert_eq!(
        store.claim(&round(&seal("b"), "yes", "two"), LEASE).await,
        Ok(Claim::Running)
    );
    store.release(&faulty).await.unwrap();
    assert_eq!(
        store.claim(&round(&seal("b"), "no", "two"), LEASE).await,
        Ok(Claim::First)
    );

    // A lease that passed lets another claimant take the round over.
    let short = Duration::from_millis(200);
    assert_eq!(
        store.claim(&round(&seal("c"), "yes", "one"), short).await,
        Ok(Claim::First)
    );
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(
        store.claim(&round(&seal("c"), "yes", "two"), LEASE).await,
        Ok(Claim::First)
    );

    // A round is forgotten once its state expires.
    let mut brief = round(&seal("d"), "yes", "one");
    brief.expires = SystemTime::now() + Duration::from_millis(300);
    assert_eq!(store.claim(&brief, LEASE).await, Ok(Claim::First));
    store.record(&brief, &json!(1)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        store.claim(&round(&seal("d"), "no", "two"), LEASE).await,
        Ok(Claim::First)
    );
}

#[tokio::test(flavor = "current_thread")]
async fn the_memory_store_keeps_the_contract() {
    contract(&MemoryStore::new(), "memory").await;
}

#[cfg(feature = "redis")]
#[path = "support/redis_server.rs"]
mod redis_server;

#[cfg(feature = "redis")]
mod redis {
    use super::*;
    use elicit_core::redis::RedisStore;

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
        // Another prefix is another server's rounds.
        let tag = tag();
        let other = RedisStore::open(&redis.url, "elicit-other:").unwrap();
        let mine = round(&format!("{tag}-p"), "yes", "one");
        assert_eq!(store.claim(&mine, LEASE).await, Ok(Claim::First));
        assert_eq!(other.claim(&mine, LEASE).await, Ok(Claim::First));
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

    #[tokio::test(flavor = "current_thread")]
    async fn a_redis_that_went_away_fails_closed() {
        let Some(mut redis) = TestRedis::own("a_redis_that_went_away_fails_closed") else {
            return;
        };
        let store = RedisStore::open(&redis.url, "elicit-test:").unwrap();
        let first = round("gone", "yes", "one");
        assert_eq!(store.claim(&first, LEASE).await, Ok(Claim::First));
        redis.stop();
        let refused = store.claim(&round("gone-2", "yes", "one"), LEASE).await;
        let error = refused.unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("the state store is unavailable"),
            "{error}"
        );
        assert!(store.record(&first, &json!(1)).await.is_err());
        // Back again, it serves once more.
        redis.start().unwrap();
        let mut claimed = Err(error);
        for _ in 0..50 {
            claimed = store.claim(&round("back", "yes", "one"), LEASE).await;
            if claimed.is_ok() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(claimed, Ok(Claim::First));
    }
}
