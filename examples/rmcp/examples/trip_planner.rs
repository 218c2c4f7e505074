//! A stdio MCP server whose tool asks twice, the second question depending on the first
//! answer, written once for every protocol version.
//!
//! Run with `cargo run -p elicit-rmcp-examples --example trip_planner` and connect any MCP client.
//!
//! Tool `plan_trip` takes two optional arguments, `trip` and `extras`, each an object of that
//! form's fields (its `inputSchema` lists both, with nothing required). It reads them as raw
//! arguments, not through a `Parameters` type, so an invalid `trip` gets the form's own error.
//! - When the client can show forms, a `trip` argument pre-fills the `trip` form (as defaults,
//!   on 2025-11-25 and 2026-07-28), and the user's answer is what counts.
//! - When it cannot, the arguments are the answers: with none, the result is a tool error
//!   naming the fields the tool needs (`structuredContent`
//!   `{"elicitationUnavailable": {"key", "message", "requestedSchema"}}`); a valid `trip` of 7
//!   nights or more without `extras` asks the same for `extras`; an invalid `trip` is a tool
//!   error naming each offending property.
//!
//! It:
//! - asks for a `Trip` (`city`, 1 to 40 characters; `nights`, 1 to 30);
//! - when the trip is accepted with 7 nights or more, asks for `Extras` (`rental_car`, a
//!   boolean; `budget`, one of `Low`, `Medium`, `High`);
//! - returns one text content, `{"trip": T, "extras": E}`: each answer written back as its wire
//!   JSON (`{"action":"accept","content":{..}}`, `{"action":"decline"}` or
//!   `{"action":"cancel"}`), and `extras` is `null` when it was not asked.
//!
//! Content that breaks a form's rules ends the call with a tool error naming each offending
//! property. On 2025-06-18 and 2025-11-25 each question is a live request; on 2026-07-28 each is
//! a round, with the answers so far sealed in `requestState`.
//!
//! The sealing key is `TRIP_PLANNER_KEY` (32 bytes or more) when set; otherwise it is random for
//! each process. Each process keeps its rounds in its own memory, so a round that reaches
//! another process, or this one after a restart, is asked again, saying so: processes that
//! finish each other's calls share a store as well (`fleet_server`).
//! `TRIP_PLANNER_KEEP_ALIVE_MS`, when set, is how often (in milliseconds) a live request that
//! waits for the person sends progress; otherwise every 15 seconds.
//!
//! Nothing but MCP goes to stdout; diagnostics go to stderr.

#[path = "../../shared/trip.rs"]
mod trip;

use elicit_core::prelude::*;
use rmcp::{ServiceExt, tool, tool_handler, tool_router};
use trip::{Extras, Trip};

#[derive(Clone)]
pub struct TripPlanner;

#[tool_router]
impl TripPlanner {
    /// Plans a trip: asks where and for how long, then, for a week or more, about extras.
    #[tool(
        description = "Plan a trip; asks the user where, for how long, and about extras.",
        input_schema = elicit_core::ask::input_schema([
            ("trip", Trip::requested_schema()),
            ("extras", Extras::requested_schema()),
        ])
    )]
    async fn plan_trip(&self, ask: Ask) -> Asked<String> {
        let ask = match keep_alive() {
            Some(interval) => ask.with_keep_alive(interval),
            None => ask,
        };
        trip::plan_trip(ask).await
    }
}

// `keep_arguments` keeps each call's arguments for `Ask`, which reads `trip` and `extras` there,
// including for calls that send no `arguments` at all.
#[tool_handler(
    name = "trip-planner",
    instructions = "Plans trips; asks the user for the details.",
    router = elicit_core::rmcp::keep_arguments(Self::tool_router())
)]
impl rmcp::ServerHandler for TripPlanner {}

/// `TRIP_PLANNER_KEEP_ALIVE_MS`, when it is set to a number of milliseconds.
fn keep_alive() -> Option<std::time::Duration> {
    let millis = std::env::var("TRIP_PLANNER_KEEP_ALIVE_MS").ok()?;
    millis
        .trim()
        .parse()
        .ok()
        .map(std::time::Duration::from_millis)
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Err(e) = trip::install_key() {
        eprintln!("trip_planner: {e}");
        std::process::exit(2);
    }
    let service = TripPlanner.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
