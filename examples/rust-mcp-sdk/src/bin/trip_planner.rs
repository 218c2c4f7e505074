//! The trip planner of `examples/rmcp`, on rust-mcp-sdk 2.x: a stdio MCP server whose tool
//! asks twice, the second question depending on the first answer. The SDK speaks 2026-07-28
//! only, so each question is a round of `InputRequiredResult` and retry.
//!
//! Run with `cargo run -p elicit-rust-mcp-sdk-examples --bin trip_planner` and connect a
//! 2026-07-28 MCP client.
//!
//! Tool `plan_trip` keeps the contract of the rmcp example: two optional arguments, `trip`
//! and `extras`, each an object of that form's fields; a `Trip` (`city`, 1 to 40 characters;
//! `nights`, 1 to 30), then for 7 nights or more an `Extras` (`rental_car`; `budget`, one of
//! `Low`, `Medium`, `High`); one text content `{"trip": T, "extras": E}`, each answer as its
//! wire JSON and `extras` `null` when it was not asked. A client that cannot show forms
//! answers through the arguments. Content that breaks a form's rules is a tool error naming
//! each offending property.
//!
//! The sealing key is `TRIP_PLANNER_KEY` (32 bytes or more) when set; otherwise it is random
//! for each process. Each process keeps its rounds in its own memory, so a round that reaches
//! another process is asked again, saying so: processes that finish each other's calls share
//! a store as well. With `TRIP_PLANNER_RETRY` set, content that breaks a form's rules is asked again,
//! with the violations in the message ([`RetryPolicy::default`]). Nothing but MCP goes to
//! stdout.

use std::sync::Arc;

#[path = "../../../shared/trip.rs"]
mod trip;

use elicit_core::ask::RetryPolicy;
use elicit_core::prelude::*;
use rust_mcp_sdk::mcp_server::{McpServerOptions, ServerHandler, server_runtime};
use rust_mcp_sdk::schema::{ListToolsResult, PaginatedRequestParams, RpcError, ServerCapabilities};
use rust_mcp_sdk::{
    McpServer, RequestContext, StdioTransport, ToMcpServerHandler, TransportOptions,
};
use serde_json::{Map, Value};
use trip::{Extras, Trip};

pub struct TripPlanner;

impl TripPlanner {
    /// Runs the tool `name`, re-asking invalid content when `TRIP_PLANNER_RETRY` is set.
    async fn call(&self, name: &str, _arguments: Map<String, Value>, ask: Ask) -> Asked<String> {
        let ask = match std::env::var_os("TRIP_PLANNER_RETRY") {
            Some(_) => ask.with_retry(RetryPolicy::default()),
            None => ask,
        };
        match name {
            "plan_trip" => trip::plan_trip(ask).await,
            other => Asked::Stopped(Interrupt::Error(elicit_core::RpcError::invalid_params(
                format!("unknown tool `{other}`"),
            ))),
        }
    }
}

#[async_trait::async_trait]
impl ServerHandler for TripPlanner {
    // Both of the SDK's routes to a tool (`tools/call`, and a retry whose answers hold a
    // number it cannot read, such as `2.5`), to `TripPlanner::call`.
    elicit_core::ask_routes!(TripPlanner::call);

    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        let input_schema = elicit_core::ask::input_schema([
            ("trip", Trip::requested_schema()),
            ("extras", Extras::requested_schema()),
        ]);
        elicit_rust_mcp_sdk_examples::tools([(
            "plan_trip",
            "Plan a trip; asks the user where, for how long, and about extras.",
            serde_json::Value::Object(input_schema),
        )])
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Err(e) = trip::install_key() {
        eprintln!("trip_planner: {e}");
        std::process::exit(2);
    }
    let details = elicit_rust_mcp_sdk_examples::details(
        "trip-planner",
        ServerCapabilities::default(),
        Some("Plans trips; asks the user for the details."),
    );
    let transport = StdioTransport::new(TransportOptions::default())?;
    let server = server_runtime::create_server(McpServerOptions {
        server_details: details,
        transport,
        handler: TripPlanner.to_mcp_server_handler(),
        message_observer: None,
    });
    server.start().await?;
    Ok(())
}
