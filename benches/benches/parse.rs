//! Every way of reading a reply, each beside the plain serde read it is measured against, on
//! the 5-field and the 24-field form. Run with `cargo bench -p elicit-benches`; the ratios are
//! in `benches/README.md`. A second group reads schema text of 1,000 and 10,000 properties with
//! every limit off, for the reader's growth with the size of what it is sent.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use elicit_benches::{accept_reply, large, schema_text, small};
use elicit_core::schema::RequestedSchema;
use elicit_core::{Elicit, ElicitResult, Limits};
use rmcp::model as m;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::hint::black_box;

/// The floor of the typed read: serde reading the same text into a plain envelope, no rules.
#[derive(serde::Deserialize)]
struct Plain<T> {
    #[allow(dead_code)]
    action: String,
    #[allow(dead_code)]
    content: Option<T>,
}

fn forms<T>(c: &mut Criterion, name: &str, value: &T)
where
    T: Elicit + DeserializeOwned + Serialize,
{
    let reply = accept_reply(value);
    let parsed: Value = serde_json::from_str(&reply).unwrap();
    let rmcp_result: m::ElicitResult = serde_json::from_str(&reply).unwrap();
    let schema: RequestedSchema = T::requested_schema().clone();
    // The peer path: the same requestedSchema, validated by the `jsonschema` crate with formats
    // asserted, then read by serde.
    let validator = jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&serde_json::to_value(&schema).unwrap())
        .unwrap();
    let validated = |reply: &Value| -> T {
        let content = &reply["content"];
        assert!(validator.is_valid(content));
        T::deserialize(content).unwrap()
    };
    assert!(validator.is_valid(&parsed["content"]));

    let mut text = c.benchmark_group("text");
    text.bench_function(BenchmarkId::new("serde, plain envelope", name), |b| {
        b.iter(|| serde_json::from_str::<Plain<T>>(black_box(&reply)).unwrap())
    });
    text.bench_function(BenchmarkId::new("from_json", name), |b| {
        b.iter(|| ElicitResult::<T>::from_json(black_box(&reply)).unwrap())
    });
    text.bench_function(BenchmarkId::new("Deserialize impl", name), |b| {
        b.iter(|| serde_json::from_str::<ElicitResult<T>>(black_box(&reply)).unwrap())
    });
    text.bench_function(
        BenchmarkId::new("jsonschema + serde: Value, validate, deserialize", name),
        |b| {
            b.iter(|| {
                let reply: Value = serde_json::from_str(black_box(&reply)).unwrap();
                validated(&reply)
            })
        },
    );
    text.finish();

    let mut held = c.benchmark_group("held");
    held.bench_function(
        BenchmarkId::new("rmcp: clone content, from_value", name),
        |b| {
            b.iter(|| {
                let content = black_box(&rmcp_result).content.clone().unwrap();
                serde_json::from_value::<T>(content).unwrap()
            })
        },
    );
    held.bench_function(
        BenchmarkId::new("jsonschema + serde: validate, deserialize", name),
        |b| b.iter(|| validated(black_box(&parsed))),
    );
    held.bench_function(BenchmarkId::new("from_value", name), |b| {
        b.iter(|| ElicitResult::<T>::from_value(black_box(&parsed)).unwrap())
    });
    held.finish();

    let mut runtime = c.benchmark_group("runtime");
    runtime.bench_function(BenchmarkId::new("serde_json into a Value", name), |b| {
        b.iter(|| serde_json::from_str::<Value>(black_box(&reply)).unwrap())
    });
    runtime.bench_function(BenchmarkId::new("parse_reply_json", name), |b| {
        b.iter(|| schema.parse_reply_json(black_box(&reply)).unwrap())
    });
    runtime.finish();
}

fn entry_points(c: &mut Criterion) {
    forms(c, "5 fields", &small());
    forms(c, "24 fields", &large());
}

/// Schema text read with every limit off: the time should grow with the text, about tenfold
/// from 1,000 properties to 10,000.
fn schema_growth(c: &mut Criterion) {
    let mut group = c.benchmark_group("schema text, limits off");
    group.sample_size(10);
    for properties in [1_000, 10_000] {
        let text = schema_text(properties);
        group.bench_function(BenchmarkId::new("from_json_with", properties), |b| {
            b.iter(|| {
                RequestedSchema::from_json_with(black_box(&text), &Limits::UNLIMITED).unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, entry_points, schema_growth);
criterion_main!(benches);
