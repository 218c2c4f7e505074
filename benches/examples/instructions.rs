//! Reads one reply a given number of times, for `benches/instructions.sh` to count the
//! instructions of each read under callgrind: the count of 1,001 reads less that of one is the
//! cost of 1,000, free of the program's start and the schema's first build.
//!
//! `cargo run --release -p elicit-benches --example instructions -- READ TIMES`, where READ is
//! one of the names [`READS`] lists.

use elicit_benches::{Large, Small, accept_reply, large, small};
use elicit_core::{Elicit, ElicitResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::hint::black_box;

/// The floor of the typed read: serde reading the same text into a plain envelope, no rules.
#[derive(Deserialize)]
struct Plain<T> {
    #[allow(dead_code)]
    action: String,
    #[allow(dead_code)]
    content: Option<T>,
}

/// Three required strings of at least one character.
#[derive(Deserialize, JsonSchema, Elicit)]
#[expect(dead_code, reason = "read, never looked at")]
struct Required {
    n: u32,
    #[schemars(length(min = 1))]
    a: String,
    #[schemars(length(min = 1))]
    b: String,
    #[schemars(length(min = 1))]
    c: String,
}

/// The same strings optional: a blank one reads as not sent.
#[derive(Deserialize, JsonSchema, Elicit)]
#[expect(dead_code, reason = "read, never looked at")]
struct Optional {
    n: u32,
    #[schemars(length(min = 1))]
    a: Option<String>,
    #[schemars(length(min = 1))]
    b: Option<String>,
    #[schemars(length(min = 1))]
    c: Option<String>,
}

/// Optional strings with no rule that a blank breaks, so no blank reads as absent.
#[derive(Deserialize, JsonSchema, Elicit)]
#[expect(dead_code, reason = "read, never looked at")]
struct Free {
    n: u32,
    a: Option<String>,
    b: Option<String>,
    c: Option<String>,
}

/// A reply for the three forms above, with no blank.
const THREE: &str = r#"{"action":"accept","content":{"n":7,"a":"alpha","b":"beta","c":"gamma"}}"#;

/// Each read by name: what it reads, and the text it reads.
const READS: &[&str] = &[
    "plain-5",
    "from_json-5",
    "deserialize-5",
    "plain-24",
    "from_json-24",
    "deserialize-24",
    "rmcp-5",
    "from_value-5",
    "rmcp-24",
    "from_value-24",
    "required-3",
    "optional-3",
    "free-3",
];

fn read<T: DeserializeOwned>(text: &str, times: usize) {
    for _ in 0..times {
        black_box(serde_json::from_str::<T>(black_box(text)).ok());
    }
}

fn typed<T: Elicit>(text: &str, times: usize) {
    for _ in 0..times {
        black_box(ElicitResult::<T>::from_json(black_box(text)).ok());
    }
}

/// rmcp's typed path: clone the content out of its `ElicitResult`, then `from_value`.
fn rmcp<T: DeserializeOwned>(text: &str, times: usize) {
    let Ok(result) = serde_json::from_str::<rmcp::model::ElicitResult>(text) else {
        return;
    };
    for _ in 0..times {
        let content = black_box(&result).content.clone().unwrap_or_default();
        black_box(serde_json::from_value::<T>(content).ok());
    }
}

fn from_value<T: Elicit>(text: &str, times: usize) {
    let Ok(reply) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    for _ in 0..times {
        black_box(ElicitResult::<T>::from_value(black_box(&reply)).ok());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(name), Some(Ok(times))) = (args.first(), args.get(1).map(|t| t.parse::<usize>()))
    else {
        eprintln!("usage: instructions READ TIMES, where READ is one of {READS:?}");
        std::process::exit(2);
    };
    let (five, many) = (accept_reply(&small()), accept_reply(&large()));
    match name.as_str() {
        "plain-5" => read::<Plain<Small>>(&five, times),
        "from_json-5" => typed::<Small>(&five, times),
        "deserialize-5" => read::<ElicitResult<Small>>(&five, times),
        "plain-24" => read::<Plain<Large>>(&many, times),
        "from_json-24" => typed::<Large>(&many, times),
        "deserialize-24" => read::<ElicitResult<Large>>(&many, times),
        "rmcp-5" => rmcp::<Small>(&five, times),
        "from_value-5" => from_value::<Small>(&five, times),
        "rmcp-24" => rmcp::<Large>(&many, times),
        "from_value-24" => from_value::<Large>(&many, times),
        "required-3" => typed::<Required>(THREE, times),
        "optional-3" => typed::<Optional>(THREE, times),
        "free-3" => typed::<Free>(THREE, times),
        _ => {
            eprintln!("no read named {name}: one of {READS:?}");
            std::process::exit(2);
        }
    }
}
