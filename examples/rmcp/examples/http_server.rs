//! A whole streamable-HTTP server whose tool asks, in one file: the one the guide shows.
//!
//! ```sh
//! cargo run -p elicit-rmcp-examples --example http_server -- 127.0.0.1:8000
//! ```
//!
//! It serves `http://ADDRESS/mcp` (port 0, the default, for any free port) and prints that URL
//! as the first line of stdout. Tool `page` asks which team to page and how urgently, confirms,
//! and pages once per call.

use std::convert::Infallible;
use std::io::Write;
use std::sync::Arc;

use elicit_core::ElicitResult;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use rmcp::model::{CallToolResult, ContentBlock};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{tool, tool_handler, tool_router};

/// Which team should be paged?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Page {
    /// The team
    #[schemars(length(min = 1, max = 40))]
    team: String,
    /// How urgent, 1 (low) to 5 (wake them up)
    #[schemars(range(min = 1, max = 5))]
    severity: u8,
}

#[derive(Clone)]
struct Pager;

#[tool_router]
impl Pager {
    #[tool(description = "Page a team; asks which, and confirms.")]
    async fn page(&self, ask: Ask) -> Asked<CallToolResult> {
        ask.run(async {
            let ElicitResult::Accept(page) = ask.form::<Page>("page").await? else {
                return Ok(CallToolResult::success(vec![ContentBlock::text(
                    "Nobody paged.",
                )]));
            };
            let question = format!("Page {} at severity {}?", page.team, page.severity);
            if !ask.confirm("go", question).await?.is_confirmed() {
                return Ok(CallToolResult::success(vec![ContentBlock::text(
                    "Nobody paged.",
                )]));
            }
            // The page goes last, keyed by the call: the paging service pages once per key.
            let key = ask.call_id()?;
            let text = format!(
                "Paged {} (severity {}), key {key}.",
                page.team, page.severity
            );
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        })
        .await
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for Pager {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The key, once, before the service: a fleet makes it from a shared secret and a store.
    StateKey::random()?
        .install()
        .map_err(|_| "a key was installed already")?;
    // One server value per session, made in the factory closure: never a key there.
    let service = StreamableHttpService::new(
        || Ok(Pager),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".into());
    let listener = tokio::net::TcpListener::bind(address).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{}/mcp", listener.local_addr()?)?;
    stdout.flush()?;
    loop {
        let (stream, peer) = listener.accept().await?;
        let service = service.clone();
        // The peer's address, in each request: where no credential names the caller, `Ask`
        // tells callers apart by it.
        let handler = hyper::service::service_fn(move |mut request| {
            request.extensions_mut().insert(peer);
            let service = service.clone();
            async move {
                let response = service.handle(request).await;
                // rmcp refuses a body over its limit (4 MiB) before any tool sees it: the
                // client has a 413 that says so, and the operator a line here.
                if response.status() != hyper::StatusCode::PAYLOAD_TOO_LARGE {
                    return Ok::<_, Infallible>(response);
                }
                eprintln!("http_server: refused a request from {peer} over the body limit");
                let (mut parts, _) = response.into_parts();
                parts.headers.remove(hyper::header::CONTENT_LENGTH);
                let text = "the request is larger than the 4 MiB this server reads, so no tool \
                            read it; an answer to a form must stay within 1 MiB";
                let body = Full::new(hyper::body::Bytes::from(text)).boxed();
                Ok(hyper::Response::from_parts(parts, body))
            }
        });
        tokio::spawn(async move {
            let io = TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, handler)
                .await;
        });
    }
}
