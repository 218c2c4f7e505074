//! A real MCP server over stdio, built with rmcp, whose tools ask the user through elicitation.
//!
//! Run with `cargo run -p elicit-examples --example stdio_server` and connect any MCP client
//! (see the README). It works on protocol 2025-06-18, 2025-11-25 and 2026-07-28.
//!
//! Tools:
//! - `book_table`: asks for a `Booking` and returns the typed `ElicitResult<Booking>` written
//!   back as JSON (`{"action":"accept","content":{..}}`, `{"action":"decline"}` or
//!   `{"action":"cancel"}`). Content that breaks the schema gives a tool error naming every
//!   offending property.
//! - `book_table_patiently`: the same, through the retry policy (once more after a cancel, again
//!   with the violations after invalid content). Returns the result and every attempt.
//! - `connect_account`: URL mode: sends the user to a page, and returns what they said.
//!
//! The tools are written once for every version with [`Ask`], here in a hand-written
//! `ServerHandler::call_tool` (`trip_planner` shows the `#[tool]` style): on 2025-06-18 and
//! 2025-11-25 each question is a live request, on 2026-07-28 a round.
//!
//! Nothing but MCP goes to stdout; diagnostics go to stderr.

use elicit_core::ElicitResult;
use elicit_core::prelude::*;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Book a table at Chez Ferris
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct Booking {
    /// Name for the reservation
    #[schemars(length(min = 1, max = 50))]
    name: String,
    /// How many people are coming
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    /// Where to sit
    seating: Seating,
    /// Anything we should know (allergies, a birthday)
    notes: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
enum Seating {
    Indoor,
    Outdoor,
}

const ACCOUNT_PAGE: &str = "https://accounts.example.com/connect?client=chez-ferris";

#[derive(Clone)]
struct Restaurant;

fn tool(name: &'static str, description: &'static str) -> Tool {
    let schema = serde_json::json!({"type": "object", "properties": {}});
    let serde_json::Value::Object(schema) = schema else {
        unreachable!("a JSON object literal")
    };
    Tool::new(name, description, schema)
}

fn text(body: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(body)])
}

/// An answer written back as its wire JSON: `{"action":"accept","content":{..}}`,
/// `{"action":"decline"}` or `{"action":"cancel"}`.
fn wire(answer: &impl Serialize) -> Result<CallToolResult, Interrupt> {
    serde_json::to_string(answer).map(text).map_err(|e| {
        ErrorData::internal_error(format!("the answer could not be written: {e}"), None).into()
    })
}

async fn book_table(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async { wire(&ask.form::<Booking>("booking").await?) })
        .await
}

/// Asks again after a cancel or a mistake, and lists every attempt.
async fn book_table_patiently(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let answer: Result<ElicitResult<Booking>, Interrupt> = ask
            .form::<Booking>("booking")
            .retrying(RetryPolicy::default())
            .await;
        let attempts: Vec<String> = ask
            .attempts("booking")
            .iter()
            .map(|a| a.outcome.to_string())
            .collect();
        let attempts = attempts.join(", ");
        match answer {
            Ok(result) => {
                let body = serde_json::to_string(&result).unwrap_or_default();
                Ok(text(format!("{body}\nattempts: {attempts}")))
            }
            Err(Interrupt::Invalid { error, .. }) => {
                Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "the answer was refused: {}\nattempts: {attempts}",
                    error.user_text(Booking::requested_schema())
                ))]))
            }
            Err(other) => Err(other),
        }
    })
    .await
}

async fn connect_account(ask: &Ask) -> Asked<CallToolResult> {
    let message = "Connect your account on our sign-in page (we never see your password here).";
    ask.run(async {
        let answer = ask
            .url("connect", message, ACCOUNT_PAGE)
            .elicitation_id("connect-1")
            .await?;
        wire(&answer)
    })
    .await
}

impl ServerHandler for Restaurant {
    fn get_info(&self) -> ServerConfig {
        let mut config = ServerConfig::new(ServerCapabilities::builder().enable_tools().build());
        config.server_info.name = "chez-ferris".into();
        config.instructions = Some("Books tables; asks the user for the details.".into());
        config
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            tool(
                "book_table",
                "Book a table; asks the user for the booking details.",
            ),
            tool(
                "book_table_patiently",
                "Book a table, asking again after a cancel or a mistake.",
            ),
            tool(
                "connect_account",
                "Connect the user's account through a sign-in page (URL mode).",
            ),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        match request.name.as_ref() {
            "book_table" => book_table(&ask).await.into_response(),
            "book_table_patiently" => book_table_patiently(&ask).await.into_response(),
            "connect_account" => connect_account(&ask).await.into_response(),
            other => Err(ErrorData::invalid_params(
                format!("no tool named {other}"),
                None,
            )),
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Restaurant.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
