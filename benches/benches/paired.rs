//! Paired ratios: every path timed in the same round, rounds interleaved, and each path's time
//! divided by the floor's from the same round. On a noisy machine absolute times drift; these
//! ratios hold. Also peak memory per parse, from a counting global allocator.
//!
//! Run with `cargo bench -p elicit-benches --bench paired` (`-- --quick` for fewer rounds, and
//! group names to run only those: `-- --quick key-order`).

#[path = "common/paths.rs"]
mod paths;

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use elicit_benches::{
    KeyOrder, Large, Small, accept_reply, decline_with_content, large, reply_in, small,
};
use elicit_core::{Elicit, ElicitResult};
use paths::JsonSchemaPath;

/// Counts live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: forwards the caller's layout unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Peak heap bytes above the starting level while `f` runs once.
fn peak_bytes(f: &mut dyn FnMut()) -> usize {
    let base = LIVE.load(Ordering::SeqCst);
    PEAK.store(base, Ordering::SeqCst);
    f();
    PEAK.load(Ordering::SeqCst).saturating_sub(base)
}

type Path<'a> = (&'static str, Box<dyn FnMut() + 'a>);

fn time(f: &mut dyn FnMut(), iters: u32) -> f64 {
    let start = Instant::now();
    for _ in 0..iters {
        f();
    }
    start.elapsed().as_nanos() as f64 / f64::from(iters)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

/// Times every path in every round, the first path being the reference, and prints each path's
/// median ratio to it with the 10th-90th percentile spread.
fn compare(title: &str, rounds: usize, mut paths: Vec<Path>) -> Vec<(&'static str, f64)> {
    // Batches of roughly 20 µs, sized on the reference.
    let once = time(&mut paths[0].1, 200).max(1.0);
    let iters = ((20_000.0 / once) as u32).clamp(1, 10_000);
    for (_, f) in paths.iter_mut() {
        time(f, iters * 5);
    }
    let mut ratios = vec![Vec::with_capacity(rounds); paths.len()];
    let mut absolute = vec![Vec::with_capacity(rounds); paths.len()];
    for round in 0..rounds {
        let mut times = vec![0.0; paths.len()];
        // Alternate the order so no path always runs warm after another.
        let order: Vec<usize> = if round % 2 == 0 {
            (0..paths.len()).collect()
        } else {
            (0..paths.len()).rev().collect()
        };
        for i in order {
            times[i] = time(&mut paths[i].1, iters);
        }
        for (i, t) in times.iter().enumerate() {
            ratios[i].push(t / times[0]);
            absolute[i].push(*t);
        }
    }
    println!("\n{title} ({rounds} rounds of {iters} iterations)");
    println!(
        "{:<44} {:>9} {:>15} {:>10}",
        "path", "ratio", "p10-p90", "ns/op"
    );
    let mut out = Vec::new();
    for (i, (name, _)) in paths.iter().enumerate() {
        let mut r = ratios[i].clone();
        r.sort_by(f64::total_cmp);
        let mut a = absolute[i].clone();
        a.sort_by(f64::total_cmp);
        let median = percentile(&r, 0.5);
        println!(
            "{name:<44} {median:>8.2}x {:>7.2}-{:<7.2} {:>10.0}",
            percentile(&r, 0.1),
            percentile(&r, 0.9),
            percentile(&a, 0.5)
        );
        out.push((*name, median));
    }
    out
}

fn parse_group<T: Elicit + serde::de::DeserializeOwned + Clone + serde::Serialize>(
    label: &str,
    value: &T,
    rounds: usize,
) -> Vec<(&'static str, f64)> {
    let reply = accept_reply(value);
    let content = paths::content_of(&reply);
    let schema = T::requested_schema();
    let jsonschema = JsonSchemaPath::new(schema);
    // Every path reads the same bytes and must agree that they are valid.
    assert!(paths::floor::<T>(&reply).is_some() && paths::typed::<T>(&reply).is_some());
    assert!(paths::runtime(schema, &reply).is_some() && jsonschema.parse::<T>(&reply).is_some());
    assert!(paths::rmcp::<T>(&reply).is_some() && paths::value_envelope::<T>(&reply).is_some());
    let results = compare(
        label,
        rounds,
        vec![
            (
                "(f) floor: derived {action, content: Option<T>}",
                Box::new(|| {
                    black_box(paths::floor::<T>(black_box(&reply)));
                }),
            ),
            (
                "validating typed parse (from_json)",
                Box::new(|| {
                    black_box(paths::typed::<T>(black_box(&reply)));
                }),
            ),
            (
                "validating typed parse, no limits",
                Box::new(|| {
                    let limits = &elicit_core::Limits::UNLIMITED;
                    black_box(ElicitResult::<T>::from_json_with(black_box(&reply), limits).ok());
                }),
            ),
            (
                "validating typed parse (serde_json::from_str)",
                Box::new(|| {
                    black_box(paths::typed_serde::<T>(black_box(&reply)));
                }),
            ),
            (
                "(a) bare content into T",
                Box::new(|| {
                    black_box(paths::bare::<T>(black_box(&content)));
                }),
            ),
            (
                "(b) Value envelope, then from_value",
                Box::new(|| {
                    black_box(paths::value_envelope::<T>(black_box(&reply)));
                }),
            ),
            (
                "(c) rmcp ElicitResult, then from_value",
                Box::new(|| {
                    black_box(paths::rmcp::<T>(black_box(&reply)));
                }),
            ),
            (
                "(d) jsonschema validation, then from_value",
                Box::new(|| {
                    black_box(jsonschema.parse::<T>(black_box(&reply)));
                }),
            ),
            (
                "runtime RequestedSchema::parse_result_json",
                Box::new(|| {
                    black_box(paths::runtime(schema, black_box(&reply)));
                }),
            ),
            (
                "runtime, then Content::into_map",
                Box::new(|| {
                    black_box(paths::runtime_map(schema, black_box(&reply)));
                }),
            ),
        ],
    );
    let floor_peak = peak_bytes(&mut || drop(black_box(paths::floor::<T>(&reply))));
    let typed_peak = peak_bytes(&mut || drop(black_box(paths::typed::<T>(&reply))));
    let runtime_peak = peak_bytes(&mut || drop(black_box(paths::runtime(schema, &reply))));
    println!(
        "peak heap per parse: floor {floor_peak} B, typed {typed_peak} B ({:.2}x), runtime {runtime_peak} B ({:.2}x)",
        typed_peak as f64 / floor_peak as f64,
        runtime_peak as f64 / floor_peak as f64
    );
    results
}

/// A reply rmcp has already read into its `ElicitResult`, as a server's `create_elicitation`
/// returns it: rmcp's own typed read against the validating one.
fn rmcp_group<
    T: Elicit + serde::de::DeserializeOwned + serde::Serialize + PartialEq + std::fmt::Debug,
>(
    label: &str,
    value: &T,
    rounds: usize,
) {
    let result: rmcp::model::ElicitResult =
        serde_json::from_str(&accept_reply(value)).expect("an rmcp result");
    assert_eq!(paths::from_rmcp::<T>(&result).as_ref(), Some(value));
    assert_eq!(paths::rmcp_typed::<T>(&result).as_ref(), Some(value));
    compare(
        label,
        rounds,
        vec![
            (
                "(r) rmcp's Peer::elicit: clone the content, from_value",
                Box::new(|| {
                    black_box(paths::rmcp_typed::<T>(black_box(&result)));
                }),
            ),
            (
                "serde derive over &Value, no clone, no validation",
                Box::new(|| {
                    black_box(paths::rmcp_borrowed::<T>(black_box(&result)));
                }),
            ),
            (
                "validating ElicitResult::from_rmcp",
                Box::new(|| {
                    black_box(paths::from_rmcp::<T>(black_box(&result)));
                }),
            ),
            (
                "one reader: the result written out as text, then from_json",
                Box::new(|| {
                    black_box(paths::rmcp_as_text::<T>(black_box(&result)));
                }),
            ),
        ],
    );
}

/// A 24-field reply with its keys in the form's order, sorted by name, and reversed: the first
/// is matched by the reader's first guess (the property declared next), the second by its second
/// (the property whose name sorts next), the last only by looking each key up.
fn key_order_group(rounds: usize) {
    let declared = reply_in(&large(), KeyOrder::Declared);
    let sorted = reply_in(&large(), KeyOrder::Sorted);
    let reversed = reply_in(&large(), KeyOrder::Reversed);
    for reply in [&sorted, &reversed] {
        assert_eq!(
            paths::typed::<Large>(reply),
            paths::typed::<Large>(&declared)
        );
    }
    compare(
        "24-field reply, keys in three orders",
        rounds,
        vec![
            (
                "(f) floor, keys in declaration order",
                Box::new(|| {
                    black_box(paths::floor::<Large>(black_box(&declared)));
                }),
            ),
            (
                "typed parse, keys in declaration order",
                Box::new(|| {
                    black_box(paths::typed::<Large>(black_box(&declared)));
                }),
            ),
            (
                "typed parse, keys sorted by name",
                Box::new(|| {
                    black_box(paths::typed::<Large>(black_box(&sorted)));
                }),
            ),
            (
                "typed parse, reversed keys (each looked up)",
                Box::new(|| {
                    black_box(paths::typed::<Large>(black_box(&reversed)));
                }),
            ),
        ],
    );
}

/// A group of paths, run for this many rounds.
type Group = fn(usize);

/// The groups, by name: `cargo bench --bench paired -- NAME..` runs those whose names contain
/// any argument given (all when none is).
const GROUPS: &[(&str, Group)] = &[
    ("parse-small", |rounds| {
        parse_group::<Small>("5-field reply", &small(), rounds);
    }),
    ("parse-large", |rounds| {
        parse_group::<Large>("24-field reply", &large(), rounds);
    }),
    ("shapes", shapes_group),
    ("key-order", key_order_group),
    ("rmcp-small", |rounds| {
        rmcp_group::<Small>("5-field reply held by rmcp", &small(), rounds);
    }),
    ("rmcp-large", |rounds| {
        rmcp_group::<Large>("24-field reply held by rmcp", &large(), rounds);
    }),
    ("decline", decline_group),
    ("schema", schema_group),
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`; a plain `cargo test` of benches passes nothing to time.
    if args.iter().any(|a| a == "--list") {
        return;
    }
    let rounds = if args.iter().any(|a| a == "--quick") {
        100
    } else {
        1000
    };
    let names: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with("--"))
        .map(String::as_str)
        .collect();
    println!("elicit paired benchmarks: ratios to the first path of each group, same run");
    for (name, group) in GROUPS {
        if names.is_empty() || names.iter().any(|n| name.contains(n)) {
            group(rounds);
        }
    }
}

/// Replies of other shapes: content before the action, which the fast pass skips and reads
/// again; an escaped key, which it unescapes; and content before the action with a key the form
/// does not name, which it leaves to the full parse (the report pass, then the reply as a
/// `serde_json::Value`, its content written out again as text for the fast pass).
fn shapes_group(rounds: usize) {
    let reply = accept_reply(&small());
    let content_first = format!(
        r#"{{"content":{},"action":"accept"}}"#,
        paths::content_of(&reply)
    );
    let escaped_key = reply.replace("\"name\"", "\"n\\u0061me\"");
    let full = content_first.replace("{\"content\":{", "{\"content\":{\"other\":1,");
    for other in [&content_first, &escaped_key, &full] {
        assert!(paths::floor::<Small>(other).is_some() && paths::typed::<Small>(other).is_some());
    }
    compare(
        "5-field replies of other shapes",
        rounds,
        vec![
            (
                "(f) floor, content before the action",
                Box::new(|| {
                    black_box(paths::floor::<Small>(black_box(&content_first)));
                }),
            ),
            (
                "typed parse, content before the action (read again)",
                Box::new(|| {
                    black_box(paths::typed::<Small>(black_box(&content_first)));
                }),
            ),
            (
                "typed parse, an escaped key",
                Box::new(|| {
                    black_box(paths::typed::<Small>(black_box(&escaped_key)));
                }),
            ),
            (
                "typed parse, content first with another key (the full parse)",
                Box::new(|| {
                    black_box(paths::typed::<Small>(black_box(&full)));
                }),
            ),
        ],
    );
}

/// Declines and cancels that carry content, which is skipped unread.
fn decline_group(rounds: usize) {
    let big = decline_with_content(100 * 1024);
    let cancel = big.replace("\"decline\"", "\"cancel\"");
    assert!(matches!(
        ElicitResult::<Large>::from_json_with(&big, &elicit_core::Limits::UNLIMITED),
        Ok(ElicitResult::Decline)
    ));
    compare(
        "decline and cancel with 100 KB of ignored content",
        rounds,
        vec![
            (
                "serde IgnoredAny over the same bytes",
                Box::new(|| {
                    black_box(paths::ignored(black_box(&big)));
                }),
            ),
            (
                "ElicitResult<Large> decline",
                Box::new(|| {
                    let _ = black_box(ElicitResult::<Large>::from_json(black_box(&big)));
                }),
            ),
            (
                "ElicitResult<Large> cancel",
                Box::new(|| {
                    let _ = black_box(ElicitResult::<Large>::from_json(black_box(&cancel)));
                }),
            ),
        ],
    );
}

/// The cached `requested_schema()` against an empty call, and the first, uncached build.
fn schema_group(rounds: usize) {
    let _ = Large::requested_schema();
    let cached = compare(
        "requested_schema(): cached call, against an empty call",
        rounds,
        vec![
            (
                "an empty call (black_box)",
                Box::new(|| {
                    black_box(0u8);
                }),
            ),
            (
                "Large::requested_schema() cached",
                Box::new(|| {
                    black_box(Large::requested_schema());
                }),
            ),
        ],
    );
    let ns = time(
        &mut || {
            black_box(Large::requested_schema());
        },
        1_000_000,
    );
    let allocated = peak_bytes(&mut || {
        black_box(Large::requested_schema());
    });
    let first = time(
        &mut || drop(black_box(elicit_core::__testing::build_uncached::<Large>())),
        200,
    );
    println!(
        "requested_schema(): cached {ns:.1} ns/call ({:.2}x an empty call), {allocated} bytes allocated; the first call builds it in {:.1} µs",
        cached[1].1,
        first / 1000.0
    );
}
