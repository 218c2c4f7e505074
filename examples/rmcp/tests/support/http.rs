//! What the HTTP tests share: a server on rmcp's streamable HTTP transport on a free port, and
//! a 2026-07-28 client that declares form elicitation and is answered by hand.

use std::sync::Arc;

use rmcp::model::*;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ClientHandler, ServerHandler};

/// Serves `server` over streamable HTTP on a free port, and returns its URL.
pub async fn serve<S: ServerHandler + Clone>(server: S) -> String {
    serve_sessions(move || server.clone()).await
}

/// Serves over streamable HTTP on a free port, each session's server made by `factory` (as
/// rmcp's `StreamableHttpService` makes them), and returns its URL.
pub async fn serve_sessions<S: ServerHandler>(
    factory: impl Fn() -> S + Send + Sync + 'static,
) -> String {
    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let service = StreamableHttpService::new(
        move || Ok(factory()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = TowerToHyperService::new(service.clone());
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    url
}

/// A client that declares form elicitation; the test answers by hand.
#[derive(Clone)]
pub struct Declares;

impl ClientHandler for Declares {
    fn get_info(&self) -> ClientConfig {
        let elicitation =
            ElicitationCapability::new().with_form(FormElicitationCapability::default());
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_elicitation_with(elicitation)
                .build(),
            Implementation::new("http-test", "0"),
        )
        .with_protocol_version(ProtocolVersion::V_2026_07_28)
    }
}

/// A connected client.
pub type Client = RunningService<RoleClient, Declares>;

/// Connects a client to `url` on 2026-07-28, with `token` as its bearer token if any.
pub async fn connect(url: &str, token: Option<&str>) -> Client {
    try_connect(url, token).await.expect("the client connects")
}

/// [`connect`], saying why where it cannot.
pub async fn try_connect(url: &str, token: Option<&str>) -> Result<Client, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url);
    if let Some(token) = token {
        config = config.auth_header(token);
    }
    let lifecycle = ClientLifecycleMode::Discover {
        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
    };
    Declares
        .serve_with_lifecycle(
            StreamableHttpClientTransport::from_config(config),
            lifecycle,
        )
        .await
        .map_err(|e| e.to_string())
}
