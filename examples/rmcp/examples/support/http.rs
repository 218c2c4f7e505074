//! Serving an rmcp server over streamable HTTP, for the examples that offer it.

use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use std::io::Write;

/// Serves `server` at `http://ADDRESS/mcp` and prints that URL (with the port the system chose,
/// for port 0) as the first line of stdout. `name` starts the lines it writes to stderr.
///
/// Sessions serve 2025-06-18 and 2025-11-25, whose questions are live requests on the call's
/// event stream; 2026-07-28 calls are served without one, as that version requires.
pub async fn serve<S>(
    address: &str,
    name: &'static str,
    server: S,
) -> Result<(), Box<dyn std::error::Error>>
where
    S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    let listener = tokio::net::TcpListener::bind(address).await?;
    let mut stdout = std::io::stdout();
    writeln!(stdout, "http://{}/mcp", listener.local_addr()?)?;
    stdout.flush()?;
    serve_on(listener, name, server, true).await?;
    Ok(())
}

/// Serves `server` on `listener` until accepting fails. With `nodelay`, each connection sends
/// what it writes at once (`TCP_NODELAY`): without it, Nagle's algorithm holds a response's
/// last segment until the client acknowledges the one before, which a client that delays its
/// acknowledgements does for about 40 ms on every call.
pub async fn serve_on<S>(
    listener: tokio::net::TcpListener,
    name: &'static str,
    server: S,
    nodelay: bool,
) -> std::io::Result<()>
where
    S: rmcp::ServerHandler + Clone + Send + Sync + 'static,
{
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        std::sync::Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    loop {
        let (stream, peer) = listener.accept().await?;
        stream.set_nodelay(nodelay)?;
        // The peer's address, in each request's extensions: where no credential names the
        // caller, `Ask` tells callers apart by it in the round store.
        let service = service.clone();
        let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            request.extensions_mut().insert(peer);
            let service = service.clone();
            async move {
                let response = service.handle(request).await;
                // rmcp refuses a body over its limit before any tool sees it: the client has a
                // 413, and the operator a line here.
                if response.status() == hyper::StatusCode::PAYLOAD_TOO_LARGE {
                    eprintln!("{name}: refused a request from {peer} over the body limit");
                }
                Ok::<_, std::convert::Infallible>(response)
            }
        });
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service);
            // A client that closes an idle connection is not worth a line.
            if let Err(e) = connection.await
                && !e.is_incomplete_message()
            {
                eprintln!("{name}: connection ended: {e}");
            }
        });
    }
}
