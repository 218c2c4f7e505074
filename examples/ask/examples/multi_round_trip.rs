//! A 2026-07-28 tool call that needs input: the tool's body asks with `Ask`, the first call
//! returns an `InputRequiredResult` with the sealed `requestState`, and the retry carries the
//! answer and the state. Everything is plain JSON in and out, so this runs without an SDK.
//!
//! Run with `cargo run -p elicit-ask-examples --example multi_round_trip`.

#[path = "support/plain.rs"]
mod plain;

use elicit_core::ask::{Ask, Asked};
use elicit_core::{Elicit, ElicitResult};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

/// Book a table
#[derive(Debug, Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// Name for the reservation
    #[schemars(length(min = 1, max = 50))]
    name: String,
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    seating: Seating,
}

#[derive(Debug, Deserialize, JsonSchema, Elicit)]
enum Seating {
    Indoor,
    Outdoor,
}

/// The tool's body: straight-line code, the same on every protocol version and SDK.
async fn book_table(ask: &Ask) -> Asked<String> {
    ask.run(async {
        Ok(match ask.form::<Booking>("booking").await? {
            ElicitResult::Accept(b) => format!(
                "Booked for {} ({} people, {:?})",
                b.name, b.party_size, b.seating
            ),
            ElicitResult::Decline => "No booking made.".to_owned(),
            ElicitResult::Cancel => "Booking cancelled; ask again any time.".to_owned(),
        })
    })
    .await
}

async fn exchange(label: &str, params: Value) -> Value {
    println!(
        "--> tools/call ({label}):\n{}",
        serde_json::to_string_pretty(&params).unwrap_or_default()
    );
    let result = plain::result(book_table(&plain::ask(&params)).await);
    println!(
        "<-- result:\n{}\n",
        serde_json::to_string_pretty(&result).unwrap_or_default()
    );
    result
}

/// A `tools/call` of `book_table`, from a client that can show forms.
fn call(extra: Value) -> Value {
    let mut params = json!({
        "name": "book_table",
        "arguments": {},
        "_meta": {"io.modelcontextprotocol/clientCapabilities": {"elicitation": {}}},
    });
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    params
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    // Round 1: the client calls the tool with no answers, and gets the form under "booking"
    // with a sealed state, which the client cannot read or change.
    let first = exchange("first call", call(json!({}))).await;

    // The user fills the form in; the client retries with the answer under the same key and
    // the state echoed verbatim. An answer that breaks the schema is refused, every violation
    // named.
    exchange(
        "retry with invalid content",
        call(json!({
            "inputResponses": {"booking": {"action": "accept", "content": {
                "name": "", "party_size": 40, "seating": "Roof"
            }}},
            "requestState": first["requestState"],
        })),
    )
    .await;

    // A new call, answered well.
    let first = exchange("first call", call(json!({}))).await;
    exchange(
        "retry with the answer",
        call(json!({
            "inputResponses": {"booking": {"action": "accept", "content": {
                "name": "Ada", "party_size": 4, "seating": "Outdoor"
            }}},
            "requestState": first["requestState"],
        })),
    )
    .await;
}
