//! What the kit connects to: an rmcp server in this process, or any MCP server run as a child
//! process over stdio ([`ChildServer`]), such as one written with another SDK.

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

/// A server the kit can call: every rmcp `ServerHandler`, served in this process, and a
/// [`ChildServer`].
pub trait TestServer: sealed::Start {}

impl<S: sealed::Start> TestServer for S {}

pub(super) mod sealed {
    use super::{Arc, Io, JoinHandle, Log, TestError};

    /// Starts the server and returns the client's end and the task that runs it; aborting
    /// the task stops the server.
    pub trait Start: Send + 'static {
        fn start(self, log: Arc<Log>) -> Result<(Io, JoinHandle<()>), TestError>;
    }
}

impl<S: rmcp::ServerHandler> sealed::Start for S {
    fn start(self, log: Arc<Log>) -> Result<(Io, JoinHandle<()>), TestError> {
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
        Ok((tokio::io::join(Box::new(read), Box::new(write)), task))
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
    fn start(self, _log: Arc<Log>) -> Result<(Io, JoinHandle<()>), TestError> {
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
        Ok((tokio::io::join(Box::new(stdout), Box::new(stdin)), task))
    }
}
