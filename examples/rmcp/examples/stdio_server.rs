//! A real MCP server over stdio, built with rmcp, whose tools ask the user through elicitation.
//!
//! Run with `cargo run -p elicit-rmcp-examples --example stdio_server` and connect any MCP client
//! (see the README). It works on protocol 2025-06-18, 2025-11-25 and 2026-07-28.
//!
//! With `--http ADDRESS` (for example `127.0.0.1:8000`, or port 0 for any free port) it serves
//! the same tools over streamable HTTP instead, at `http://ADDRESS/mcp`, and prints that URL as
//! the first line of stdout.
//!
//! Tools:
//! - `book_table`: asks for a `Booking` and returns the typed `ElicitResult<Booking>` written
//!   back as JSON (`{"action":"accept","content":{..}}`, `{"action":"decline"}` or
//!   `{"action":"cancel"}`). Content that breaks the schema gives a tool error naming every
//!   offending property. Its optional `booking` argument pre-fills the form, and answers it
//!   when the client cannot show forms.
//! - `book_table_patiently`: the same, through the retry policy (once more after a cancel, again
//!   with the violations after invalid content). Returns the result and every attempt.
//! - `connect_account`: URL mode: sends the user to a page, and returns what they said.
//! - `choose_table`: takes `{"tables": [..]}` and offers exactly those tables (choices known
//!   only at run time, through `Form`), then asks to confirm (`ask.confirm`). Returns the
//!   choice and `booked: true` or `false`.
//! - `plan_evening`: asks for a `Booking`, then the client's model for a dish
//!   (`sampling/createMessage`), then the client's roots (`roots/list`), in straight-line code;
//!   returns `{"name": .., "dish": .., "roots": [..]}`.
//!
//! Resource `menu://tonight`: asks for the party's diet (`Diet`) through `Ask::new`, as
//! a tool does, and reads back the menu for it.
//!
//! The tools are written once for every version with [`Ask`], here in a hand-written
//! `ServerHandler::call_tool` (`trip_planner` shows the `#[tool]` style): on 2025-06-18 and
//! 2025-11-25 each question is a live request, on 2026-07-28 a round.
//!
//! Over stdio nothing but MCP goes to stdout; diagnostics go to stderr.
//!
//! To connect a client, build it once (`cargo build -p elicit-rmcp-examples --example
//! stdio_server`) and point the client at `target/debug/examples/stdio_server` (an absolute
//! path), or at `cargo` with the arguments `run -q -p elicit-rmcp-examples --example
//! stdio_server` and the repository as the working directory:
//! - **MCP Inspector**: `npx @modelcontextprotocol/inspector /abs/path/target/debug/examples/stdio_server`,
//!   then call `book_table`; the Inspector renders the form.
//! - **Claude Desktop**: in `claude_desktop_config.json`, add
//!   `"mcpServers": {"chez-ferris": {"command": "/abs/path/target/debug/examples/stdio_server"}}`.
//! - **VS Code**: in `.vscode/mcp.json`, add
//!   `"servers": {"chez-ferris": {"type": "stdio", "command": "/abs/path/target/debug/examples/stdio_server"}}`.
//! - **Claude Code**: `claude mcp add chez-ferris -- /abs/path/target/debug/examples/stdio_server`.
//! - **form_client**, this repository's terminal client: `cargo run -p elicit-rmcp-examples
//!   --example form_client -- cargo run -q -p elicit-rmcp-examples --example stdio_server`.

#[path = "support/http.rs"]
mod http;

use elicit_core::Form;
use elicit_core::ask::RetryPolicy;
use elicit_core::prelude::*;
use elicit_core::{ElicitResult, SamplingRequest};
// rmcp's types by name, not `rmcp::model::*`: its model has an untyped `ElicitResult` of its
// own, which would stand beside this crate's.
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ReadResourceRequestParams,
    ReadResourceResponse, ReadResourceResult, Resource, ResourceContents, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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

/// Pick a table
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct TableChoice {
    /// The free tables right now
    table: String,
    /// How many people are coming
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
}

/// Anything for the table?
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct Extras {
    /// Pick at least one
    #[schemars(length(min = 1))]
    extras: Vec<Extra>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
enum Extra {
    Cake,
    Flowers,
    Candles,
}

const ACCOUNT_PAGE: &str = "https://accounts.example.com/connect?client=chez-ferris";

#[derive(Clone)]
pub struct Restaurant;

fn tool(name: &'static str, description: &'static str) -> Tool {
    tool_taking(name, description, serde_json::json!({}))
}

/// A tool whose arguments are `properties`, all required.
fn tool_taking(name: &'static str, description: &'static str, properties: Value) -> Tool {
    let required: Vec<String> = properties
        .as_object()
        .map(|p| p.keys().cloned().collect())
        .unwrap_or_default();
    let mut schema = serde_json::Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), properties);
    if !required.is_empty() {
        schema.insert("required".into(), required.into());
    }
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

/// Asks for a booking; a client that cannot show forms may pass it as the `booking` argument.
async fn book_table(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async { wire(&ask.form::<Booking>("booking").or_arguments().await?) })
        .await
}

/// Asks for extras, a multi-select: on 2025-06-18, which has no array property, one box per
/// choice, read back into the list.
async fn order_extras(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async { wire(&ask.form::<Extras>("extras").await?) })
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

/// Offers the tables free right now (the call's `tables` argument), then asks to confirm.
async fn choose_table(ask: &Ask, tables: Vec<String>) -> Asked<CallToolResult> {
    ask.run(async {
        let form = Form::<TableChoice>::new()
            .choices("table", tables)
            .map_err(|e| Interrupt::from(ErrorData::invalid_params(e.to_string(), None)))?;
        let choice = ask.form_with("table", &form).await?;
        let ElicitResult::Accept(picked) = &choice else {
            return wire(&choice);
        };
        let question = format!("Book the {} table for {}?", picked.table, picked.party_size);
        let booked = ask.confirm("book", question).await?.is_confirmed();
        let body = serde_json::to_string(&choice).unwrap_or_default();
        Ok(text(format!("{body}\nbooked: {booked}")))
    })
    .await
}

/// Anything the party can't eat?
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct Diet {
    vegetarian: bool,
}

const MENU: &str = "menu://tonight";

/// The menu for the party's diet: a resource that asks, as a tool does.
async fn menu(ask: &Ask) -> Asked<ReadResourceResult> {
    ask.run(async {
        let dish = match ask.form::<Diet>("diet").await? {
            ElicitResult::Accept(Diet { vegetarian: true }) => "Ratatouille",
            ElicitResult::Accept(_) => "Bouillabaisse",
            _ => "The chef's choice",
        };
        Ok(ReadResourceResult::new(vec![ResourceContents::text(
            dish, MENU,
        )]))
    })
    .await
}

/// A form, a completion from the client's model and the client's roots, one after another.
async fn plan_evening(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let name = match ask.form::<Booking>("booking").await? {
            ElicitResult::Accept(booking) => booking.name,
            _ => return wire(&serde_json::json!({"name": null})),
        };
        let dish = SamplingRequest::new(60).user("Suggest one dish for tonight.");
        let dish = ask.sample("dish", dish).await?.text();
        let roots = ask.roots("roots").await?;
        let roots: Vec<&str> = roots.iter().map(|root| root.uri.as_str()).collect();
        wire(&serde_json::json!({"name": name, "dish": dish, "roots": roots}))
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
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        let mut config = ServerConfig::new(capabilities);
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
            Tool::new(
                "book_table",
                "Book a table; asks the user for the booking details (or takes them as the \
                 `booking` argument when the client cannot show forms).",
                elicit_core::ask::input_schema([("booking", Booking::requested_schema())]),
            ),
            tool(
                "book_table_patiently",
                "Book a table, asking again after a cancel or a mistake.",
            ),
            tool(
                "order_extras",
                "Ask which extras to put on the table (any of cake, flowers, candles).",
            ),
            tool(
                "plan_evening",
                "Plan an evening: a booking, a dish the client's model suggests, and the \
                 client's roots.",
            ),
            tool(
                "connect_account",
                "Connect the user's account through a sign-in page (URL mode).",
            ),
            tool_taking(
                "choose_table",
                "Offer the tables free right now, then confirm the booking.",
                serde_json::json!({"tables": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "The tables to offer, by name"
                }}),
            ),
        ]))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let menu = Resource::new(MENU, "Tonight's menu").with_description("Asks for the diet");
        Ok(ListResourcesResult::with_all_items(vec![menu]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        if request.uri != MENU {
            return Err(ErrorData::resource_not_found("no such resource", None));
        }
        menu(&Ask::new(&request, &context))
            .await
            .into_resource_response()
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
            "order_extras" => order_extras(&ask).await.into_response(),
            "connect_account" => connect_account(&ask).await.into_response(),
            "plan_evening" => plan_evening(&ask).await.into_response(),
            "choose_table" => {
                let tables = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("tables"))
                    .and_then(|t| serde_json::from_value::<Vec<String>>(t.clone()).ok());
                match tables {
                    Some(tables) => choose_table(&ask, tables).await.into_response(),
                    None => Err(ErrorData::invalid_params(
                        "choose_table needs `tables`, a list of table names",
                        None,
                    )),
                }
            }
            other => Err(ErrorData::invalid_params(
                format!("no tool named {other}"),
                None,
            )),
        }
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (None, _, _) => {
            let service = Restaurant.serve(rmcp::transport::stdio()).await?;
            service.waiting().await?;
            Ok(())
        }
        (Some("--http"), Some(address), None) => serve_http(&address).await,
        _ => Err("usage: stdio_server [--http ADDRESS]".into()),
    }
}

/// Serves the same tools over streamable HTTP at `http://ADDRESS/mcp`, and prints that URL (with
/// the port the system chose, for port 0) as the first line of stdout.
async fn serve_http(address: &str) -> Result<(), Box<dyn std::error::Error>> {
    http::serve(address, "stdio_server", Restaurant).await
}
