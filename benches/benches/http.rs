//! What Nagle's algorithm costs a call over streamable HTTP: a 2025-11-25 `tools/call` whose
//! tool asks one form, answered at once, against the examples' HTTP server with `TCP_NODELAY`
//! on each accepted connection (as it serves) and off. Run with
//! `cargo bench -p elicit-benches --bench http`; the figures are in `benches/README.md`.

#[allow(dead_code)] // Shared with the examples; this bench uses `serve_on`.
#[path = "../../examples/rmcp/examples/support/http.rs"]
mod http;

use criterion::{Criterion, criterion_group, criterion_main};
use elicit_core::ElicitResult;
use elicit_core::prelude::*;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ServiceExt, tool, tool_handler, tool_router};

/// What should we call you?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Name {
    name: String,
}

#[derive(Clone)]
struct Greeter;

#[tool_router]
impl Greeter {
    #[tool(description = "Greets the user by name.")]
    async fn greet(&self, ask: Ask) -> Asked<String> {
        ask.run(async {
            Ok(match ask.form::<Name>("name").await? {
                ElicitResult::Accept(name) => format!("Hello, {}!", name.name),
                _ => "Hello!".to_owned(),
            })
        })
        .await
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for Greeter {}

/// A client on 2025-11-25 that answers every form at once.
#[derive(Clone)]
struct Answers;

impl ClientHandler for Answers {
    fn get_info(&self) -> ClientConfig {
        let elicitation =
            ElicitationCapability::new().with_form(FormElicitationCapability::default());
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_elicitation_with(elicitation)
                .build(),
            Implementation::new("http-bench", "0"),
        )
        .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult_, ErrorData> {
        Ok(ElicitResult_::new(ElicitationAction::Accept)
            .with_content(serde_json::json!({"name": "Ada"})))
    }
}

type ElicitResult_ = rmcp::model::ElicitResult;

async fn connected(nodelay: bool) -> RunningService<RoleClient, Answers> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(http::serve_on(listener, "bench", Greeter, nodelay));
    Answers
        .serve(StreamableHttpClientTransport::from_uri(url))
        .await
        .unwrap()
}

fn nagle(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut group = c.benchmark_group("2025-11-25 tools/call over HTTP, one form");
    group.sample_size(20);
    for (name, nodelay) in [("TCP_NODELAY on", true), ("TCP_NODELAY off", false)] {
        let client = runtime.block_on(connected(nodelay));
        group.bench_function(name, |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let result = client
                        .call_tool(CallToolRequestParams::new("greet"))
                        .await
                        .unwrap();
                    assert_eq!(result.is_error, Some(false));
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, nagle);
criterion_main!(benches);
