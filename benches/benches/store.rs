//! What exactly-once rounds cost: a claim and a record of a new round in the memory store,
//! beside 1,000, 10,000 and 100,000 live rounds, and in a store full at its cap, where each
//! claim lets the oldest recorded round go (flat is the goal in both), and one claim against a
//! local Redis (where `redis-server` is on the PATH). Run with
//! `cargo bench -p elicit-benches --bench store`; the figures are in `benches/README.md`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use elicit_core::ask::{Claim, MemoryStore, Round, RoundStore};

#[allow(dead_code)] // Shared with elicit-core's tests; this bench starts a Redis of its own.
#[path = "../../elicit-core/tests/support/redis_server.rs"]
mod redis_server;

const LEASE: Duration = Duration::from_secs(60);

/// A round of a call no other in this run has had, under `generation`.
fn fresh(generation: &str) -> Round {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let expires = SystemTime::now() + Duration::from_secs(3600);
    Round::new(
        format!("call-{n:016}"),
        1,
        "answers",
        "claimant",
        generation,
        expires,
    )
}

/// A sealed ending of about the size a short result takes.
const ENDING: &str =
    "AtK2c2VhbGVkLWVuZGluZy1vZi1hLXJvdW5kLXRoYXQtcGFpZC0xMjAtRVVSLWZvci1pbnZvaWNlLUlOVi0x";

/// A memory store holding `live` rounds, each recorded, with room for `cap`.
fn filled(runtime: &tokio::runtime::Runtime, live: usize, cap: usize) -> (MemoryStore, String) {
    let store = MemoryStore::new().with_cap(cap).with_principal_cap(cap);
    let generation = runtime.block_on(async {
        let generation = store.generation().await.unwrap();
        for _ in 0..live {
            let round = fresh(&generation);
            assert_eq!(store.claim(&round, LEASE).await, Ok(Claim::First));
            assert_eq!(store.record(&round, ENDING).await, Ok(true));
        }
        generation
    });
    (store, generation)
}

fn memory(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("memory store: claim and record a new round");
    // Below the cap, the store grows; at it, each claim lets the oldest recorded round go.
    for (name, full) in [("live rounds", false), ("at the cap of", true)] {
        for live in [1_000, 10_000, 100_000] {
            // Timed in chunks of at most `live` rounds, each on a store freshly filled with
            // `live` rounds (not timed): the store holds between `live` and twice as many
            // throughout, or `live` at its cap.
            let cap = if full { live } else { usize::MAX };
            group.bench_function(BenchmarkId::new(name, live), |b| {
                b.iter_custom(|iters| {
                    let mut spent = Duration::ZERO;
                    let mut left = iters;
                    while left > 0 {
                        let chunk = left.min(live as u64);
                        let (store, generation) = filled(&runtime, live, cap);
                        let rounds: Vec<Round> = (0..chunk).map(|_| fresh(&generation)).collect();
                        let started = Instant::now();
                        runtime.block_on(async {
                            for round in &rounds {
                                let claim = store.claim(black_box(round), LEASE).await;
                                assert_eq!(claim, Ok(Claim::First));
                                let kept = store.record(round, black_box(ENDING)).await;
                                assert_eq!(kept, Ok(true));
                            }
                        });
                        spent += started.elapsed();
                        left -= chunk;
                    }
                    spent
                })
            });
        }
    }
    group.finish();
}

fn redis(c: &mut Criterion) {
    use elicit_core::ask::RedisStore;

    let Some(redis) = redis_server::TestRedis::own("the store benchmark's Redis row") else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let store = {
        let _inside = runtime.enter();
        RedisStore::open(&redis.url, "elicit-bench:").unwrap()
    };
    let generation = runtime.block_on(store.generation()).unwrap();
    let mut group = c.benchmark_group("redis store, local");
    group.bench_function("claim a new round", |b| {
        b.iter_batched(
            || fresh(&generation),
            |round| {
                runtime.block_on(async {
                    assert_eq!(
                        store.claim(black_box(&round), LEASE).await,
                        Ok(Claim::First)
                    );
                })
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

criterion_group!(benches, memory, redis);
criterion_main!(benches);
