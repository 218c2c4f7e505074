//! The tools of the official MCP conformance suite's 2026-07-28 elicitation scenarios
//! (`input-required-result-*`, `@modelcontextprotocol/conformance` 0.2.0-alpha.12) on
//! rust-mcp-sdk 2.x, as the rmcp example `conformance_server` serves them: the same tool bodies,
//! each taking an `Ask`.
//!
//! `cargo run -p elicit-rust-mcp-sdk-examples --bin conformance_server` serves them with the
//! SDK's streamable HTTP handler at `http://127.0.0.1:PORT/mcp` (port 0 by default: any free
//! port, or the first argument) and prints that URL as the first line of stdout.
//! `tests/conformance/run.sh` points the suite at it.

use std::convert::Infallible;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

#[path = "../../../shared/conformance.rs"]
mod conformance;

use conformance::{confirm, greet, two_steps};
use elicit_core::prelude::*;
use elicit_rust_mcp_sdk_examples::fault;
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper_util::rt::TokioIo;
use rust_mcp_sdk::id_generator::{FastIdGenerator, UuidGenerator};
use rust_mcp_sdk::mcp_http::{GenericBody, McpAppState, McpHttpHandler};
use rust_mcp_sdk::mcp_server::ServerHandler;
use rust_mcp_sdk::schema::schema_utils::CustomRequest;
use rust_mcp_sdk::schema::{
    CallToolRequestParams, GenericResult, GetPromptRequestParams, GetPromptResult,
    ListPromptsResult, ListPromptsResultCacheScope, ListToolsResult, PaginatedRequestParams,
    Prompt, RpcError, ServerCapabilities, ServerCapabilitiesPrompts, ServerResult,
};
use rust_mcp_sdk::{McpServer, RequestContext, ToMcpServerHandler};
use serde_json::json;

const TOOLS: [(&str, &str); 8] = [
    (
        "test_input_required_result_elicitation",
        "Asks for the user's name in one round.",
    ),
    (
        "test_input_required_result_request_state",
        "Asks for a confirmation; the answer returns with the sealed state.",
    ),
    (
        "test_input_required_result_multi_round",
        "Asks two questions, one round each.",
    ),
    (
        "test_input_required_result_tampered_state",
        "Asks for the user's name; an altered state is refused.",
    ),
    (
        "test_input_required_result_capabilities",
        "Asks only for what the client declared it can do.",
    ),
    (
        "test_input_required_result_sampling",
        "Asks the client's model for the capital of France.",
    ),
    (
        "test_input_required_result_list_roots",
        "Lists the client's roots.",
    ),
    (
        "test_input_required_result_multiple_inputs",
        "Asks a form, a completion and the roots in one round.",
    ),
];
const PROMPT: &str = "test_input_required_result_prompt";

struct Conformance;

impl Conformance {
    async fn call(&self, name: &str, ask: Ask) -> Asked<String> {
        match name {
            "test_input_required_result_elicitation"
            | "test_input_required_result_tampered_state" => greet(ask).await,
            "test_input_required_result_request_state" => confirm(ask).await,
            "test_input_required_result_multi_round" => two_steps(ask).await,
            "test_input_required_result_capabilities" => conformance::capabilities(ask).await,
            "test_input_required_result_sampling" => conformance::sampling(ask).await,
            "test_input_required_result_list_roots" => conformance::list_roots(ask).await,
            "test_input_required_result_multiple_inputs" => conformance::multiple(ask).await,
            other => Asked::Stopped(Interrupt::Error(elicit_core::RpcError::new(
                -32602,
                format!("unknown tool `{other}`"),
            ))),
        }
    }
}

#[async_trait::async_trait]
impl ServerHandler for Conformance {
    async fn handle_list_tools_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListToolsResult, RpcError> {
        let object = || json!({"type": "object"});
        elicit_rust_mcp_sdk_examples::tools(TOOLS.map(|(name, about)| (name, about, object())))
    }

    async fn handle_call_tool_request_mrtr(
        &self,
        params: CallToolRequestParams,
        _context: &RequestContext,
        runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        let ask = elicit_core::rust_mcp_sdk::ask(&params, &runtime).await;
        self.call(&params.name, ask).await.into_server_result()
    }

    async fn handle_custom_request(
        &self,
        request: CustomRequest,
        _context: &RequestContext,
        runtime: Arc<dyn McpServer>,
    ) -> Result<GenericResult, RpcError> {
        let Some(call) = elicit_core::rust_mcp_sdk::ask_custom(&request, &runtime, self).await?
        else {
            return Err(RpcError::method_not_found());
        };
        self.call(&call.name, call.ask).await.into_generic_result()
    }

    async fn handle_list_prompts_request(
        &self,
        _params: Option<PaginatedRequestParams>,
        _context: &RequestContext,
        _runtime: Arc<dyn McpServer>,
    ) -> Result<ListPromptsResult, RpcError> {
        let prompt: Prompt = serde_json::from_value(json!({
            "name": PROMPT,
            "description": "A prompt that asks the user for its context",
        }))
        .map_err(fault)?;
        Ok(ListPromptsResult {
            cache_scope: ListPromptsResultCacheScope::Private,
            meta: None,
            next_cursor: None,
            prompts: vec![prompt],
            result_type: "complete".to_owned(),
            ttl_ms: 0,
        })
    }

    /// A prompt that asks, through the same `Ask` as the tools.
    async fn handle_get_prompt_request(
        &self,
        params: GetPromptRequestParams,
        _context: &RequestContext,
        runtime: Arc<dyn McpServer>,
    ) -> Result<ServerResult, RpcError> {
        if params.name != PROMPT {
            return Err(RpcError::invalid_params().with_message("no such prompt".to_owned()));
        }
        let ask = elicit_core::rust_mcp_sdk::ask_prompt(&params, &runtime).await;
        let context = match conformance::prompt_context(&ask).await {
            Asked::Done(context) => context,
            Asked::InputRequired(required) => {
                return Asked::InputRequired(required).into_prompt_result();
            }
            Asked::Stopped(stop) => return Asked::Stopped(stop).into_prompt_result(),
        };
        let result: GetPromptResult = serde_json::from_value(json!({
            "resultType": "complete",
            "messages": [{
                "role": "user",
                "content": {"type": "text", "text": format!("Answer with this context: {context}")}
            }]
        }))
        .map_err(fault)?;
        Ok(ServerResult::GetPromptResult(result))
    }
}

/// One HTTP request, handed to the SDK's streamable HTTP handler at `/mcp`.
async fn route(
    handler: Arc<McpHttpHandler>,
    state: Arc<McpAppState>,
    request: hyper::Request<Incoming>,
) -> Result<hyper::Response<GenericBody>, Infallible> {
    let plain = |status: u16, text: String| {
        let body = Full::new(Bytes::from(text))
            .map_err(|never| match never {})
            .boxed();
        let mut response = hyper::Response::new(body);
        *response.status_mut() = hyper::StatusCode::from_u16(status).unwrap_or_default();
        response
    };
    if request.uri().path() != "/mcp" {
        return Ok(plain(404, "not found".to_owned()));
    }
    let (parts, body) = request.into_parts();
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(e) => return Ok(plain(400, e.to_string())),
    };
    let text = String::from_utf8_lossy(&bytes);
    let request =
        McpHttpHandler::create_request(parts.method, parts.uri, parts.headers, Some(&text));
    Ok(match handler.handle_streamable_http(request, state).await {
        Ok(response) => response,
        Err(e) => plain(500, e.to_string()),
    })
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "0".to_owned());
    let capabilities = ServerCapabilities {
        prompts: Some(ServerCapabilitiesPrompts { list_changed: None }),
        ..Default::default()
    };
    let details = elicit_rust_mcp_sdk_examples::details("conformance_server", capabilities, None);
    let state = Arc::new(McpAppState {
        id_generator: Arc::new(UuidGenerator {}),
        stream_id_gen: Arc::new(FastIdGenerator::new(Some("s_"))),
        server_details: Arc::new(details),
        handler: Conformance.to_mcp_server_handler(),
        ping_interval: Duration::from_secs(12),
        transport_options: Arc::default(),
        enable_json_response: true,
        message_observer: None,
        extensions: Arc::new(tokio::sync::RwLock::new(None)),
        active_listen_streams: Arc::new(tokio::sync::Mutex::new(Vec::new())),
        max_listen_streams: 16,
    });
    let handler = Arc::new(McpHttpHandler::new(Vec::new(), None));
    let listener = tokio::net::TcpListener::bind(format!("127.0.0.1:{port}")).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{}/mcp", listener.local_addr()?)?;
    stdout.flush()?;
    loop {
        let (stream, _) = listener.accept().await?;
        let (handler, state) = (Arc::clone(&handler), Arc::clone(&state));
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |request| {
                route(Arc::clone(&handler), Arc::clone(&state), request)
            });
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            // A client that closes an idle connection is not worth a line.
            if let Err(e) = connection.await
                && !e.is_incomplete_message()
            {
                eprintln!("conformance_server: connection ended: {e}");
            }
        });
    }
}
