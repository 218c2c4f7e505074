//! What hostile input costs in memory: allocations follow the size of the input, not the size
//! of the schema times the input. This binary counts every allocated byte with its own global
//! allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use elicit_core::schema::RequestedSchema;
use elicit_core::{Limits, Rule};
use serde_json::json;

struct Counting;

static BYTES: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        BYTES.fetch_add(layout.size(), Ordering::SeqCst);
        // SAFETY: forwards the caller's layout unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout in `alloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated while `f` runs (tests run one at a time in this binary: see `main` below).
fn allocated<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let before = BYTES.load(Ordering::SeqCst);
    let r = f();
    (BYTES.load(Ordering::SeqCst) - before, r)
}

fn choices(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("c{i}")).collect()
}

/// A multi-select value repeated under one key many times: each repeat costs what its items
/// cost, not what the choice list costs. (Each repeat used to allocate a flag per choice.)
fn repeated_multi_select_values() {
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string", "enum": choices(10_000)}}}
    }))
    .unwrap();
    let repeats = 2_000;
    let mut reply = String::from(r#"{"action":"accept","content":{"#);
    for i in 0..repeats {
        if i > 0 {
            reply.push(',');
        }
        reply.push_str(r#""tags":["c9999"]"#);
    }
    reply.push_str("}}");
    let schema = schema.with_limits(Limits::UNLIMITED);
    let (bytes, result) = allocated(|| schema.parse_reply_json(&reply));
    assert!(result.is_err(), "the key is repeated");
    assert!(
        bytes < 200 * reply.len(),
        "{bytes} bytes allocated for a reply of {} bytes",
        reply.len()
    );
}

/// Each violation of a long pattern shares the pattern; the error text cuts it short.
fn violations_share_the_pattern() {
    let pattern = format!("^(?:{})$", "a".repeat(900));
    let schema = RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"tags": {"type": "string", "pattern": pattern}}
    }))
    .unwrap();
    let mut content = serde_json::Map::new();
    for i in 0..1_000 {
        content.insert(format!("x{i}"), json!("b"));
    }
    content.insert("tags".into(), json!("b"));
    let reply = json!({"action": "accept", "content": content}).to_string();
    let (_, e) = allocated(|| schema.parse_reply_json(&reply).unwrap_err());
    let Rule::Pattern(first) = e.violations()[0].rule() else {
        panic!("{e}")
    };
    assert_eq!(first.len(), pattern.len());
    let text = e.to_string();
    assert!(
        text.len() < 400,
        "the error names the pattern cut short: {text}"
    );
    // Two reads of one schema name one pattern allocation.
    let again = schema.parse_reply_json(&reply).unwrap_err();
    let Rule::Pattern(second) = again.violations()[0].rule() else {
        panic!()
    };
    assert!(Arc::ptr_eq(first, second));
}

/// The lints of a property share its name: a long name linted many times is held once.
fn lints_share_the_property_name() {
    let name = "n".repeat(100_000);
    let mut property = serde_json::Map::new();
    property.insert("type".into(), json!("string"));
    for i in 0..500 {
        property.insert(format!("x-{i}"), json!(true));
    }
    let mut properties = serde_json::Map::new();
    properties.insert(name.clone(), serde_json::Value::Object(property));
    let schema_json = json!({"type": "object", "properties": properties});
    let input = schema_json.to_string().len();
    let (bytes, schema) = allocated(|| RequestedSchema::from_value(schema_json).unwrap());
    assert_eq!(schema.lint().len(), 500);
    assert!(
        bytes < 20 * input,
        "{bytes} bytes allocated for a schema of {input} bytes"
    );
}

/// What reading accepted content allocates grows in proportion to the reply: ten times the
/// values cost ten times the bytes, give or take a doubling, never the schema's size times the
/// reply's.
fn accepted_content_grows_linearly() {
    let read = |n: usize| {
        let properties: serde_json::Map<String, serde_json::Value> = (0..n)
            .map(|i| (format!("p{i}"), json!({"type": "string"})))
            .collect();
        let schema =
            RequestedSchema::from_value(json!({"type": "object", "properties": properties}))
                .unwrap();
        let content: serde_json::Map<String, serde_json::Value> =
            (0..n).map(|i| (format!("p{i}"), json!("v"))).collect();
        let reply = json!({"action": "accept", "content": content}).to_string();
        let (bytes, result) = allocated(|| schema.parse_reply_json(&reply));
        assert_eq!(result.unwrap().accepted().unwrap().len(), n);
        bytes
    };
    // Per value, within the factor of two that a buffer grown by doubling leaves.
    let (small, large) = (read(100), read(1_000));
    assert!(
        large <= 20 * small && large >= 5 * small,
        "100 values: {small} bytes; 1,000 values: {large} bytes"
    );
}

fn main() {
    for (name, test) in [
        (
            "accepted_content_grows_linearly",
            accepted_content_grows_linearly as fn(),
        ),
        ("repeated_multi_select_values", repeated_multi_select_values),
        ("violations_share_the_pattern", violations_share_the_pattern),
        (
            "lints_share_the_property_name",
            lints_share_the_property_name,
        ),
    ] {
        test();
        println!("test {name} ... ok");
    }
}
