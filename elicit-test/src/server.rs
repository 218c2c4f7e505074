//! What the kit connects to: an rmcp server in this process, any MCP server run as a child
//! process over stdio ([`ChildServer`]), such as one written with another SDK, or one serving
//! streamable HTTP ([`HttpServer`], feature `http`).

use std::ffi::OsString;
use std::sync::Arc;

use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite, Join};
use tokio::task::JoinHandle;

use crate::guard::Guarded;
use crate::log::Log;
use crate::transcript::TestError;

/// The client's end of a connection to a server under test.
pub(super) type Io = Join<Box<dyn AsyncRead + Send + Unpin>, Box<dyn AsyncWrite + Send + Unpin>>;

/// How the client reaches a server under test. Public only in name: its module is private,
/// so no user can reach it; the sealed [`TestServer`] trait names it.
pub enum Link {
    /// A byte stream of JSON-RPC lines: a server in this process, or a child's stdio.
    Stream(Io),
    /// Streamable HTTP at this URL.
    #[cfg(feature = "http")]
    Http(String),
}

/// A server the kit can call: every rmcp `ServerHandler`, served in this process, and a
/// [`ChildServer`].
pub trait TestServer: sealed::Start {}

impl<S: sealed::Start> TestServer for S {}

pub(super) mod sealed {
    use super::{Arc, JoinHandle, Link, Log, TestError};

    /// Starts the server and returns the client's end and the task that runs it; aborting
    /// the task stops the server.
    pub trait Start: Send + 'static {
        fn start(self, log: Arc<Log>) -> Result<(Link, JoinHandle<()>), TestError>;
    }
}

impl<S: rmcp::ServerHandler> sealed::Start for S {
    fn start(self, log: Arc<Log>) -> Result<(Link, JoinHandle<()>), TestError> {
        let (server_io, client_io) = tokio::io::duplex(1 << 16);
        let guarded = Guarded {
            server: Arc::new(self),
            log,
        };
        let task = tokio::spawn(async move {
            if let Ok(running) = guarded.serve(server_io).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_io);
        let io = tokio::io::join(Box::new(read) as _, Box::new(write) as _);
        Ok((Link::Stream(io), task))
    }
}

/// An MCP server run as a child process, spoken to over its stdin and stdout: a server
/// written with another SDK, tested with the same scripts as an rmcp one. Each session starts
/// a fresh process, and ending the session kills it. Its stderr is the test's.
///
/// ```no_run
/// use elicit_core::ProtocolVersion;
/// use elicit_test::{Answer, ChildServer, ScriptedClient};
/// use serde_json::json;
///
/// # async fn run() -> Result<(), elicit_test::TestError> {
/// let client = ScriptedClient::new(ProtocolVersion::V2026_07_28)
///     .answer(Answer::accept(json!({"city": "Oslo", "nights": 3})));
/// let server = ChildServer::new("target/debug/examples/trip_planner");
/// let outcome = client.call_tool(server, "plan_trip", json!({})).await?;
/// # let _ = outcome;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct ChildServer {
    program: OsString,
    args: Vec<OsString>,
    env: Vec<(OsString, OsString)>,
}

impl ChildServer {
    /// The server `program`, with no arguments.
    #[must_use]
    pub fn new(program: impl Into<OsString>) -> Self {
        ChildServer {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
        }
    }

    /// Adds an argument to its command line.
    #[must_use]
    pub fn arg(mut self, arg: impl Into<OsString>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// Sets an environment variable for it.
    #[must_use]
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }
}

impl sealed::Start for ChildServer {
    fn start(self, _log: Arc<Log>) -> Result<(Link, JoinHandle<()>), TestError> {
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(&self.args)
            .envs(self.env)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|e| {
            TestError::Connection(format!("{} does not start: {e}", self.program.display()))
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(TestError::Connection("the child has no stdio".to_owned()));
        };
        // The task owns the child: aborting it drops the child, which kills it.
        let task = tokio::spawn(async move {
            let _ = child.wait().await;
        });
        let io = tokio::io::join(Box::new(stdout) as _, Box::new(stdin) as _);
        Ok((Link::Stream(io), task))
    }
}

/// An MCP server serving streamable HTTP at a URL (`http://127.0.0.1:8000/mcp`), as it does in
/// production: one started by the test (its own serve function on a port of the test's), or
/// one already running. Each session of the kit is a session of its own on the server (none on
/// 2026-07-28, which has no sessions), and a question reaches the client as the transport
/// carries it: on the call's event stream before 2026-07-28, as an `InputRequiredResult` on
/// it. Feature `http`.
///
/// ```no_run
/// use elicit_core::ProtocolVersion;
/// use elicit_test::{Answer, HttpServer, ScriptedClient};
/// use serde_json::json;
///
/// # async fn run() -> Result<(), elicit_test::TestError> {
/// let client = ScriptedClient::new(ProtocolVersion::LATEST)
///     .answer(Answer::accept(json!({"city": "Oslo", "nights": 3})));
/// let outcomes = client
///     .call_tool_on_every_version(|| HttpServer::new("http://127.0.0.1:8000/mcp"), "plan_trip", json!({}))
///     .await?;
/// # let _ = outcomes;
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "http")]
#[cfg_attr(docsrs, doc(cfg(feature = "http")))]
#[derive(Debug, Clone)]
pub struct HttpServer {
    url: String,
}

#[cfg(feature = "http")]
impl HttpServer {
    /// The server serving streamable HTTP at `url`.
    #[must_use]
    pub fn new(url: impl Into<String>) -> Self {
        HttpServer { url: url.into() }
    }
}

#[cfg(feature = "http")]
impl sealed::Start for HttpServer {
    fn start(self, _log: Arc<Log>) -> Result<(Link, JoinHandle<()>), TestError> {
        // The server runs on its own: there is nothing to stop.
        Ok((Link::Http(self.url), tokio::spawn(async {})))
    }
}
