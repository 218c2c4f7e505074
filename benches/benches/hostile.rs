//! Hostile input at N, 10N and 100N: every cost grows linearly with the input. Each case is a
//! row of the README's "bad input" table; the limits are lifted (`Limits::UNLIMITED`) so that
//! the algorithms themselves are measured, not the caps that bound them by default.
//!
//! Run with `cargo bench -p elicit-benches --bench hostile`. Each case prints its three times;
//! linear cost shows as ratios near 10 between neighbours.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use elicit_core::schema::{Field, SchemaBuilder};
use elicit_core::{Limits, RequestedSchema};
use serde_json::{Map, Value, json};
use std::hint::black_box;
use std::time::Duration;

const UNLIMITED: Limits = Limits::UNLIMITED;

fn object(properties: Map<String, Value>) -> Value {
    json!({"type": "object", "properties": properties})
}

fn schema(value: Value) -> RequestedSchema {
    RequestedSchema::from_value_with(value, &UNLIMITED).expect("a valid schema")
}

fn choices(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("c{i}")).collect()
}

fn multi(n: usize) -> Value {
    json!({"type": "array", "items": {"type": "string", "enum": choices(n)}})
}

/// Runs `run` on the input `setup` makes for N, 10N and 100N.
fn scaled<I>(
    c: &mut Criterion,
    name: &str,
    n: usize,
    setup: impl Fn(usize) -> I,
    run: impl Fn(&I),
) {
    let mut group = c.benchmark_group(format!("hostile/{name}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(200));
    group.measurement_time(Duration::from_secs(2));
    for size in [n, 10 * n, 100 * n] {
        let input = setup(size);
        group.bench_with_input(BenchmarkId::from_parameter(size), &input, |b, input| {
            b.iter(|| run(black_box(input)))
        });
    }
    group.finish();
}

fn properties(n: usize, each: impl Fn(usize) -> Value) -> Map<String, Value> {
    (0..n).map(|i| (format!("p{i}"), each(i))).collect()
}

fn cases(c: &mut Criterion) {
    // F1: a schema text of many properties, put back in its written order.
    scaled(
        c,
        "F1 schema text, properties",
        200,
        |n| object(properties(n, |_| json!({"type": "boolean"}))).to_string(),
        |text| drop(RequestedSchema::from_json_with(text, &UNLIMITED)),
    );
    // F2: `required` lists every property.
    scaled(
        c,
        "F2 required lists every property",
        300,
        |n| {
            let mut value = object(properties(n, |_| json!({"type": "boolean"})));
            value["required"] = (0..n).map(|i| format!("p{i}")).collect();
            value
        },
        |value| drop(RequestedSchema::from_value_with(value.clone(), &UNLIMITED)),
    );
    // F3: every property has a default, each checked against its own rules.
    scaled(
        c,
        "F3 a default on every property",
        300,
        |n| {
            object(properties(
                n,
                |_| json!({"type": "integer", "minimum": 1, "default": 2}),
            ))
        },
        |value| drop(RequestedSchema::from_value_with(value.clone(), &UNLIMITED)),
    );
    // F4: a multi-select default of N items over N choices.
    scaled(
        c,
        "F4 multi-select default, items and choices",
        100,
        |n| {
            let mut tags = multi(n);
            tags["default"] = choices(n).into();
            object([("tags".to_owned(), tags)].into_iter().collect())
        },
        |value| drop(RequestedSchema::from_value_with(value.clone(), &UNLIMITED)),
    );
    // F5: names alike (`p0000000…`) and as many unknown keys alike in the reply.
    scaled(
        c,
        "F5 names alike, known and unknown",
        100,
        |n| {
            let props = (0..n)
                .map(|i| (format!("p{i:07}0000000"), json!({"type": "boolean"})))
                .collect();
            let content: Map<String, Value> = (0..n)
                .map(|i| (format!("p{i:07}0000001"), json!(true)))
                .collect();
            let reply = json!({"action": "accept", "content": content}).to_string();
            (schema(object(props)), reply)
        },
        |(schema, reply)| drop(schema.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F6: a multi-select answer of N items over N choices.
    scaled(
        c,
        "F6 multi-select answer, items and choices",
        300,
        |n| {
            let schema = schema(object(
                [("tags".to_owned(), multi(n))].into_iter().collect(),
            ));
            let reply = json!({"action": "accept", "content": {"tags": choices(n)}}).to_string();
            (schema, reply)
        },
        |(schema, reply)| drop(schema.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F7: one multi-select value repeated N times, over 10,000 choices.
    scaled(
        c,
        "F7 repeated multi-select values",
        1_000,
        |n| {
            let schema = schema(object(
                [("tags".to_owned(), multi(10_000))].into_iter().collect(),
            ));
            let body = vec![r#""tags":["c9999"]"#; n].join(",");
            let reply = format!(r#"{{"action":"accept","content":{{{body}}}}}"#);
            (schema, reply)
        },
        |(schema, reply)| drop(schema.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F8: N values that break a 10 KB pattern (one property, its key repeated N times).
    scaled(
        c,
        "F8 values breaking a long pattern",
        100,
        |n| {
            let pattern = format!("^(?:{})$", "ab".repeat(5_000));
            let props = [(
                "code".to_owned(),
                json!({"type": "string", "pattern": pattern}),
            )];
            let body = vec![r#""code":"x""#; n].join(",");
            let reply = format!(r#"{{"action":"accept","content":{{{body}}}}}"#);
            (schema(object(props.into_iter().collect())), reply)
        },
        |(schema, reply)| drop(schema.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F9: a property with a 10 KB name and N keywords to lint.
    scaled(
        c,
        "F9 lints of a long name",
        50,
        |n| {
            let mut property: Map<String, Value> =
                (0..n).map(|i| (format!("x-{i}"), json!(1))).collect();
            property.insert("type".into(), json!("string"));
            object(
                [("n".repeat(10_000), Value::Object(property))]
                    .into_iter()
                    .collect(),
            )
        },
        |value| drop(RequestedSchema::from_value_with(value.clone(), &UNLIMITED)),
    );
    // F10: more properties than 16-bit indices hold, and N unknown keys.
    let wide = schema(object(properties(70_000, |_| json!({"type": "boolean"}))));
    scaled(
        c,
        "F10 unknown keys past 65,534 properties",
        100,
        |n| {
            let content: Map<String, Value> =
                (0..n).map(|i| (format!("q{i}"), json!(true))).collect();
            json!({"action": "accept", "content": content}).to_string()
        },
        |reply| drop(wide.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F11: N strings of 100 bytes against a pattern that compiles large, searched in full.
    scaled(
        c,
        "F11 strings against a large pattern",
        1,
        |n| {
            let props = properties(
                n,
                |_| json!({"type": "string", "pattern": "(a|aa){1,200}b"}),
            );
            let content: Map<String, Value> = (0..n)
                .map(|i| (format!("p{i}"), json!("a".repeat(100))))
                .collect();
            let reply = json!({"action": "accept", "content": content}).to_string();
            (schema(object(props)), reply)
        },
        |(schema, reply)| drop(schema.parse_result_json_with(reply, &UNLIMITED)),
    );
    // F12: N broken values in one reply, under the default cap of 100 violations.
    scaled(
        c,
        "F12 broken values, errors capped",
        2_600,
        |n| {
            let schema = schema(object(
                [("tags".to_owned(), multi(1))].into_iter().collect(),
            ));
            let reply = json!({"action": "accept", "content": {"tags": vec!["zz"; n]}}).to_string();
            (schema, reply)
        },
        |(schema, reply)| {
            let capped = Limits::DEFAULT
                .with_max_reply_bytes(usize::MAX)
                .with_max_string_bytes(usize::MAX);
            drop(schema.parse_result_json_with(reply, &capped))
        },
    );
    // F13: two contents of N unknown keys each, compared: each key looked up once.
    scaled(
        c,
        "F13 contents of many unknown keys compared",
        100,
        |n| {
            let form = schema(object(properties(1, |_| json!({"type": "boolean"}))));
            let content: Map<String, Value> = (0..n).map(|i| (format!("q{i}"), json!(i))).collect();
            let reply = json!({"action": "accept", "content": content}).to_string();
            let read = || {
                form.parse_result_json_with(&reply, &UNLIMITED)
                    .ok()
                    .and_then(|result| result.accepted())
                    .expect("accepted content")
            };
            (read(), read())
        },
        |(a, b)| assert!(a == b),
    );
    // The builder with many fields: each name looked up in a set, not among all before it.
    scaled(
        c,
        "builder, many fields",
        200,
        |n| {
            (0..n)
                .map(|i| Field::boolean(format!("p{i}")))
                .collect::<Vec<_>>()
        },
        |fields| {
            let builder = fields
                .iter()
                .cloned()
                .fold(RequestedSchema::builder(), SchemaBuilder::field);
            drop(builder.build_with(&UNLIMITED))
        },
    );
}

criterion_group!(benches, cases);
criterion_main!(benches);
