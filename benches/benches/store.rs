//! What exactly-once rounds cost: a claim and a record of a new round in the memory store,
//! beside 1,000, 10,000 and 100,000 live rounds (flat is the goal), and one claim against a
//! local Redis (where `redis-server` is on the PATH). Run with
//! `cargo bench -p elicit-benches --bench store`; the figures are in `benches/README.md`.

use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use elicit_core::ask::{Claim, MemoryStore, Round, RoundStore};
use serde_json::json;

#[allow(dead_code)] // Shared with elicit-core's tests; this bench starts a Redis of its own.
#[path = "../../elicit-core/tests/support/redis_server.rs"]
mod redis_server;

const LEASE: Duration = Duration::from_secs(60);

/// A round no other in this run has had.
fn fresh() -> Round {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    Round::new(
        format!("seal-{n:016}"),
        "answers",
        "claimant",
        SystemTime::now() + Duration::from_secs(3600),
    )
}

/// A memory store holding `live` rounds, each recorded.
fn filled(runtime: &tokio::runtime::Runtime, live: usize) -> MemoryStore {
    let store = MemoryStore::new().with_cap(usize::MAX);
    runtime.block_on(async {
        for _ in 0..live {
            let round = fresh();
            assert_eq!(store.claim(&round, LEASE).await, Ok(Claim::First));
            store
                .record(&round, &json!({"kind": "done"}))
                .await
                .unwrap();
        }
    });
    store
}

fn memory(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let response = json!({"kind": "done", "result": "Paid 120 EUR for invoice INV-1."});
    let mut group = c.benchmark_group("memory store: claim and record a new round");
    for live in [1_000, 10_000, 100_000] {
        // Timed in chunks of at most `live` rounds, each on a store freshly filled with `live`
        // rounds (not timed): the store holds between `live` and twice as many throughout.
        group.bench_function(BenchmarkId::new("live rounds", live), |b| {
            b.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                let mut left = iters;
                while left > 0 {
                    let chunk = left.min(live as u64);
                    let store = filled(&runtime, live);
                    let rounds: Vec<Round> = (0..chunk).map(|_| fresh()).collect();
                    let started = Instant::now();
                    runtime.block_on(async {
                        for round in &rounds {
                            let claim = store.claim(black_box(round), LEASE).await;
                            assert_eq!(claim, Ok(Claim::First));
                            store.record(round, black_box(&response)).await.unwrap();
                        }
                    });
                    spent += started.elapsed();
                    left -= chunk;
                }
                spent
            })
        });
    }
    group.finish();
}

fn redis(c: &mut Criterion) {
    use elicit_core::redis::RedisStore;

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
    let mut group = c.benchmark_group("redis store, local");
    group.bench_function("claim a new round", |b| {
        b.iter_batched(
            fresh,
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
