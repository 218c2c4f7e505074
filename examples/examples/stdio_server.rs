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
//! Nothing but MCP goes to stdout; diagnostics go to stderr.

use elicit_core::retry::RetryPolicy;
use elicit_core::rmcp::{ElicitOptions, ElicitPeerExt, PeerElicitError, negotiated_version};
use elicit_core::{
    Elicit, ElicitResult, InputRequests, InputRequired, InputResponse, InputResponses,
    ProtocolVersion, UrlElicitResult, UrlRequest,
};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    InputRequiredResult, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
    Tool,
};
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

fn text(body: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(body)]).into()
}

fn tool_error(body: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(body)]).into()
}

/// The typed result written back as its wire JSON.
fn answered<T: Serialize>(result: &ElicitResult<T>) -> CallToolResponse {
    match serde_json::to_string(result) {
        Ok(json) => text(json),
        Err(e) => tool_error(format!("the answer could not be written: {e}")),
    }
}

fn failed(error: PeerElicitError) -> CallToolResponse {
    tool_error(error.to_string())
}

fn version_of(context: &RequestContext<RoleServer>) -> Option<ProtocolVersion> {
    context
        .protocol_version()
        .and_then(|v| negotiated_version(&v.to_string()))
}

/// On 2026-07-28 the server cannot send requests: the tool returns `InputRequired` and reads
/// the answer from the retry.
fn round_trip(request: &CallToolRequestParams) -> CallToolResponse {
    let responses = InputResponses::from_rmcp(
        request.input_responses.as_ref(),
        request.request_state.as_deref(),
    );
    match responses.elicit::<Booking>("booking") {
        Ok(InputResponse::Missing) => {
            let mut requests = InputRequests::new();
            requests.elicit::<Booking>("booking");
            ask(InputRequired::new(requests).with_request_state("book_table"))
        }
        Ok(InputResponse::Answered(result)) => answered(&result),
        Err(e) => tool_error(format!("the answer was refused:\n{e}")),
    }
}

fn ask(required: InputRequired) -> CallToolResponse {
    match InputRequiredResult::try_from(&required) {
        Ok(result) => result.into(),
        Err(e) => tool_error(e.to_string()),
    }
}

async fn book_table(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    if version_of(context) >= Some(ProtocolVersion::V2026_07_28) {
        return round_trip(request);
    }
    match context.peer.elicit_typed::<Booking>().await {
        Ok(result) => answered(&result),
        Err(error) => failed(error),
    }
}

async fn book_table_patiently(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    if version_of(context) >= Some(ProtocolVersion::V2026_07_28) {
        return round_trip(request);
    }
    let retried = context
        .peer
        .elicit_typed_retrying::<Booking>(RetryPolicy::default(), ElicitOptions::new())
        .await;
    let attempts: Vec<String> = retried
        .attempts
        .iter()
        .map(|a| format!("{:?}", a.outcome))
        .collect();
    match retried.result {
        Ok(result) => text(format!(
            "{}\nattempts: {}",
            serde_json::to_string(&result).unwrap_or_default(),
            attempts.join(", ")
        )),
        Err(error) => tool_error(format!("{error}\nattempts: {}", attempts.join(", "))),
    }
}

async fn connect_account(
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
) -> CallToolResponse {
    let Some(version) = version_of(context) else {
        return tool_error("unknown protocol version".into());
    };
    let message = "Connect your account on our sign-in page (we never see your password here).";
    let url = match UrlRequest::new(version, message, ACCOUNT_PAGE, "connect-1") {
        Ok(url) => url,
        Err(e) => return tool_error(format!("URL mode is not available: {e}")),
    };
    if version >= ProtocolVersion::V2026_07_28 {
        let responses = InputResponses::from_rmcp(
            request.input_responses.as_ref(),
            request.request_state.as_deref(),
        );
        return match responses.url("connect") {
            Ok(InputResponse::Missing) => {
                let mut requests = InputRequests::new();
                requests.url("connect", &url);
                ask(InputRequired::new(requests))
            }
            Ok(InputResponse::Answered(answer)) => url_answered(answer),
            Err(e) => tool_error(e.to_string()),
        };
    }
    let url_mode = context
        .peer
        .peer_info()
        .and_then(|info| info.capabilities.elicitation.clone())
        .is_some_and(|e| e.url.is_some());
    if !url_mode {
        return tool_error("the client does not support URL-mode elicitation".into());
    }
    match context.peer.create_elicitation((&url).into()).await {
        Ok(reply) => match UrlElicitResult::from_rmcp(&reply) {
            Ok(answer) => url_answered(answer),
            Err(e) => tool_error(e.to_string()),
        },
        Err(e) => tool_error(format!("the request failed: {e}")),
    }
}

fn url_answered(answer: UrlElicitResult) -> CallToolResponse {
    text(serde_json::to_string(&answer).unwrap_or_default())
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
        Ok(match request.name.as_ref() {
            "book_table" => book_table(&request, &context).await,
            "book_table_patiently" => book_table_patiently(&request, &context).await,
            "connect_account" => connect_account(&request, &context).await,
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no tool named {other}"),
                    None,
                ));
            }
        })
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = Restaurant.serve(rmcp::transport::stdio()).await?;
    service.waiting().await?;
    Ok(())
}
