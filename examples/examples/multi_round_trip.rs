//! A 2026-07-28 tool call that needs input: the first call returns an `InputRequiredResult`, and
//! the retry carries the answer. Everything is plain JSON in and out, so this runs without an SDK.
//!
//! Run with `cargo run -p elicit-examples --example multi_round_trip`.

use elicit_core::{
    Elicit, ElicitError, ElicitResult, InputRequests, InputRequired, InputResponse, InputResponses,
};
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

/// The tool handler: a pure function from the `tools/call` params to its result.
fn book_table(params: &Value) -> Value {
    let responses = match InputResponses::from_params(params) {
        Ok(responses) => responses,
        Err(e) => return tool_error(&e),
    };
    match responses.elicit::<Booking>("booking") {
        // First call, or the client skipped it: ask. The state is opaque to the client and
        // comes back unchanged (and untrusted).
        Ok(InputResponse::Missing) => {
            let mut requests = InputRequests::new();
            requests.elicit::<Booking>("booking");
            let required = InputRequired::new(requests).with_request_state("book_table:v1");
            match required.to_value() {
                Ok(result) => result,
                Err(e) => {
                    json!({"isError": true, "content": [{"type": "text", "text": e.to_string()}]})
                }
            }
        }
        Ok(InputResponse::Answered(ElicitResult::Accept(b))) => json!({
            "content": [{"type": "text", "text": format!(
                "Booked for {} ({} people, {:?})", b.name, b.party_size, b.seating
            )}]
        }),
        Ok(InputResponse::Answered(ElicitResult::Decline)) => {
            json!({"content": [{"type": "text", "text": "No booking made."}]})
        }
        Ok(InputResponse::Answered(ElicitResult::Cancel)) => {
            json!({"content": [{"type": "text", "text": "Booking cancelled; ask again any time."}]})
        }
        Err(e) => tool_error(&e),
    }
}

fn tool_error(e: &ElicitError) -> Value {
    json!({"isError": true, "content": [{"type": "text", "text": e.to_string()}]})
}

fn exchange(label: &str, params: Value) -> Value {
    println!(
        "--> tools/call ({label}):\n{}",
        serde_json::to_string_pretty(&params).unwrap_or_default()
    );
    let result = book_table(&params);
    println!(
        "<-- result:\n{}\n",
        serde_json::to_string_pretty(&result).unwrap_or_default()
    );
    result
}

fn main() {
    // Round 1: the client calls the tool with no answers.
    let first = exchange("first call", json!({"name": "book_table", "arguments": {}}));

    // The client shows the form it received under "booking" and the user fills it in. It then
    // retries with the answer under the same key and the state echoed verbatim.
    let state = first["requestState"].clone();
    exchange(
        "retry with the answer",
        json!({
            "name": "book_table",
            "arguments": {},
            "inputResponses": {"booking": {"action": "accept", "content": {
                "name": "Ada", "party_size": 4, "seating": "Outdoor"
            }}},
            "requestState": state,
        }),
    );

    // An answer that breaks the schema is refused with every violation named.
    exchange(
        "retry with invalid content",
        json!({
            "name": "book_table",
            "inputResponses": {"booking": {"action": "accept", "content": {
                "name": "", "party_size": 40, "seating": "Roof"
            }}},
            "requestState": state,
        }),
    );
}
