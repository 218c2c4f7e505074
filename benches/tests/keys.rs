//! `tests/tests/keys.rs`, in this package so that CI builds it optimized beside the benchmarks
//! (`cargo test --release -p elicit-benches --test keys`): an optimized build hands serde's
//! derive each key as a field index, which a debug build does not.

#[path = "../../tests/tests/keys.rs"]
mod keys;
