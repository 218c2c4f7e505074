//! Instruction counts per parse, for each entry point, under callgrind: counts do not move with
//! machine load or code layout, so they compare designs that wall-clock ratios cannot separate.
//!
//! `bash benches/instructions.sh` runs each path under `valgrind --tool=callgrind` twice, with 1
//! and with 1,001 parses, and prints the difference over 1,000: the instructions of one parse,
//! with setup, schema building and the first-use caches taken out. By hand:
//! `target/release/deps/instructions-* PATH ITERATIONS`; with no arguments it lists the paths.

// Shared with the criterion and paired benches; this harness counts only some of the paths.
#[allow(dead_code)]
#[path = "common/paths.rs"]
mod paths;

use std::hint::black_box;

use elicit_benches::{KeyOrder, Large, Small, accept_reply, large, reply_in, small};
use elicit_core::{Elicit, ElicitResult};

/// Every path, by name: the reply text or rmcp's result for `T`, read `n` times.
fn run<T: Elicit + serde::de::DeserializeOwned + serde::Serialize>(
    path: &str,
    value: &T,
    n: usize,
) -> bool {
    let reply = accept_reply(value);
    let sorted = reply_in(value, KeyOrder::Sorted);
    let reversed = reply_in(value, KeyOrder::Reversed);
    let held: rmcp::model::ElicitResult = serde_json::from_str(&reply).expect("an rmcp result");
    let value: serde_json::Value = serde_json::from_str(&reply).expect("a reply");
    let schema = T::requested_schema();
    // Every path reads once before counting starts, so first-use work is in both runs.
    let mut each: Box<dyn FnMut() -> bool> = match path {
        "floor" => Box::new(|| paths::floor::<T>(black_box(&reply)).is_some()),
        "from_json" => Box::new(|| paths::typed::<T>(black_box(&reply)).is_some()),
        "sorted_keys" => Box::new(|| paths::typed::<T>(black_box(&sorted)).is_some()),
        "reversed_keys" => Box::new(|| paths::typed::<T>(black_box(&reversed)).is_some()),
        "serde" => Box::new(|| paths::typed_serde::<T>(black_box(&reply)).is_some()),
        "from_value" => {
            Box::new(|| ElicitResult::<T>::from_value(black_box(&value).clone()).is_ok())
        }
        "value_clone" => Box::new(|| black_box(black_box(&value).clone()).is_object()),
        "rmcp_typed" => Box::new(|| paths::rmcp_typed::<T>(black_box(&held)).is_some()),
        "from_rmcp" => Box::new(|| paths::from_rmcp::<T>(black_box(&held)).is_some()),
        "runtime" => Box::new(|| paths::runtime(schema, black_box(&reply)).is_some()),
        // serde's `IgnoredAny` over the reply: what finding the reply's end costs serde_json.
        "ignored" => Box::new(|| paths::ignored(black_box(&reply))),
        _ => return false,
    };
    let mut ok = true;
    for _ in 0..n {
        ok &= each();
    }
    assert!(ok, "{path} refused the reply");
    true
}

const PATHS: &[&str] = &[
    "floor",
    "from_json",
    "sorted_keys",
    "reversed_keys",
    "serde",
    "from_value",
    "value_clone",
    "rmcp_typed",
    "from_rmcp",
    "runtime",
    "ignored",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; nothing here is timed by it.
    let (Some(form), Some(path), Some(n)) = (args.first(), args.get(1), args.get(2)) else {
        println!("usage: instructions small|large PATH ITERATIONS; paths: {PATHS:?}");
        return;
    };
    let n: usize = n.parse().expect("a count");
    let known = match form.as_str() {
        "small" => run::<Small>(path, &small(), n),
        "large" => run::<Large>(path, &large(), n),
        _ => false,
    };
    assert!(known, "unknown form or path: {form} {path}");
}
