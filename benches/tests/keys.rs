//! `tests/tests/keys.rs`, in this package so that CI also runs it optimized, beside the
//! benchmarks (`cargo test --release -p elicit-benches --test keys`): what users run.

#[path = "../../tests/tests/keys.rs"]
mod keys;
