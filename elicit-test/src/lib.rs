//! A test kit for MCP tools, prompts and resources that ask the user through elicit-core's
//! `Ask`: a real rmcp client, connected in the same process to the server under test, that
//! answers each question from a script. A server written with another SDK is tested with the
//! same scripts as a child process ([`ChildServer`]), and a server that serves streamable HTTP
//! over HTTP (`HttpServer`, feature `http`: see the elicit-core guide's "Serving over HTTP").
//! Add it as a dev-dependency, as `serde_test` and `tokio-test` are. For compile-fail tests of
//! your own forms, see the guide's "Compile-fail tests of your own forms", which keeps them
//! fast.
//!
//! [`ScriptedClient`] negotiates the version it is given the way real clients do: the
//! `initialize` handshake before 2026-07-28, and on it `server/discover`, with the client's
//! capabilities in each request's `_meta`. On 2026-07-28 it performs the rounds itself: it
//! answers each `inputRequests` entry and retries the request with `inputResponses` and the
//! `requestState`, as the official clients do. So one script tests one tool on every version:
//! [`call_tool`](ScriptedClient::call_tool) drives a `tools/call`,
//! [`get_prompt`](ScriptedClient::get_prompt) a `prompts/get` and
//! [`read_resource`](ScriptedClient::read_resource) a `resources/read`.
//!
//! ```
//! use elicit_core::ElicitResult;
//! use elicit_core::ProtocolVersion;
//! use elicit_core::prelude::*;
//! use elicit_test::{Answer, ScriptedClient};
//! use rmcp::model::*;
//! use rmcp::service::{RequestContext, RoleServer};
//! use serde_json::json;
//!
//! /// Where would you like to go?
//! #[derive(serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! struct Trip {
//!     city: String,
//!     #[schemars(range(min = 1, max = 30))]
//!     nights: u8,
//! }
//!
//! struct Planner;
//!
//! impl rmcp::ServerHandler for Planner {
//!     fn get_info(&self) -> ServerConfig {
//!         ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
//!     }
//!
//!     async fn call_tool(
//!         &self,
//!         request: CallToolRequestParams,
//!         context: RequestContext<RoleServer>,
//!     ) -> Result<CallToolResponse, ErrorData> {
//!         let ask = Ask::new(&request, &context);
//!         ask.run(async {
//!             let text = match ask.form::<Trip>("trip").await? {
//!                 ElicitResult::Accept(trip) => format!("{} nights in {}", trip.nights, trip.city),
//!                 _ => "no trip".to_owned(),
//!             };
//!             Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
//!         })
//!         .await
//!         .into_response()
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! for version in ProtocolVersion::ALL {
//!     let client = ScriptedClient::new(version)
//!         .answer(Answer::accept(json!({"city": "Oslo", "nights": 3})));
//!     let outcome = client.call_tool(Planner, "plan_trip", json!({})).await?;
//!     assert_eq!(outcome.text(), "3 nights in Oslo");
//!     assert_eq!(outcome.messages(), ["Where would you like to go?"]);
//!     // One call with a live request; on 2026-07-28, a round and the retry.
//!     assert_eq!(outcome.calls, if version.has_input_requests() { 2 } else { 1 });
//!
//!     // Content that breaks the form's rules is sent as given: the tool refuses it.
//!     let client = ScriptedClient::new(version)
//!         .answer(Answer::accept(json!({"city": "Oslo", "nights": 99})));
//!     let outcome = client.call_tool(Planner, "plan_trip", json!({})).await?;
//!     assert!(outcome.is_error());
//!     assert!(outcome.text().contains("`nights` must be at most 30"));
//! }
//! # Ok(())
//! # }
//! ```
//!
//! **Which answer goes to which question.** Answers are used in the order questions reach the
//! client, across all the calls of one client. Live requests arrive in the order the body asks
//! them. Within one 2026-07-28 round, several questions (from `Ask::all`)
//! arrive together, under their keys in `inputRequests`, which rmcp sorts: by arrival order
//! alone they take answers in the order of their keys. Two ways to write one script that
//! serves every version:
//!
//! - [`Answer::for_key`]: an answer for the question under its key only, wherever the round
//!   lists it. Write the script in the order the body asks (live requests carry no key, and
//!   take the next answer); on 2026-07-28 each keyed answer finds its question, and a script
//!   that runs short names the question left unanswered.
//! - Keys that sort in body order (`"1_trip"`, `"2_diet"`, or keys already in alphabetical
//!   order), with answers in that order.
//!
//! **Where one script cannot serve every version.** On 2025-06-18, which has no array
//! property, a multi-select reaches the client as one box per choice (`FIELD__CHOICE`), and
//! the kit ticks the boxes of the choices a scripted list names: a valid answer reads the same
//! on every version. An answer that breaks the multi-select's rules (a choice it does not
//! offer, one twice, too few) has no boxes to tick, so on 2025-06-18 it cannot be sent as the
//! same list. Script that case per version: test the list on 2025-11-25 and 2026-07-28, and on
//! 2025-06-18 send the boxes as the form shows them, with [`Answer::raw`]
//! (`{"action": "accept", "content": {"tags__Bug": true, "tags__Idea": false}}`), branching on
//! [`ScriptedClient::version`].
//!
//! [`ScriptedClient::call_tool_across`] spreads one call's rounds over several servers, each
//! with its own `StateKey`, as a load balancer would: scale-out on one secret and one store,
//! and key rotation.
//!
//! [`ScriptedClient::call_tool_on_every_version`] runs one script on every version, each with
//! a fresh client and server, to compare the results. [`ScriptedClient::call_tool_once`] sends
//! one `tools/call` with the `inputResponses` and `requestState` a test chooses and returns
//! the raw response, for tests of replay and tampering.
// docs.rs (`--cfg docsrs`, nightly) labels `HttpServer` with its feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod answer;
mod client;
mod guard;
mod log;
mod request;
mod server;
mod transcript;

use std::future::Future;
use std::sync::{Arc, Mutex};

use rmcp::ServiceExt;
use std::time::Duration;

use rmcp::model::{
    self as m, CallToolRequestParams, CallToolResponse, ClientCapabilities, ClientConfig,
    Implementation, InputRequest, InputRequiredResult,
};
use rmcp::service::PeerRequestOptions;
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService, ServiceError,
};
use serde_json::Value;

pub use answer::Answer;
#[cfg(feature = "http")]
pub use server::HttpServer;
pub use server::{ChildServer, TestServer};
pub use transcript::{AskedForm, TestError, Transcript};

use client::Scripted;
use log::{Log, Script, lock};
use request::{Asking, Reply};

use elicit_core::{ProtocolVersion, UnknownVersion};

/// A client that answers elicitations from a script, on one protocol version.
///
/// Made with [`new`](ScriptedClient::new), which declares form and URL elicitation, then
/// given its answers with [`answer`](ScriptedClient::answer). Each call connects a fresh
/// session to the server it is given. See the [crate] for an example.
#[derive(Debug, Clone)]
pub struct ScriptedClient {
    version: ProtocolVersion,
    /// The version on the wire: `version`'s, or one before elicitation.
    wire: m::ProtocolVersion,
    capabilities: ClientCapabilities,
    script: Script,
    max_rounds: u32,
    timeout: Option<Duration>,
}

impl ScriptedClient {
    /// How many `input_required` results a call answers by default, as rmcp's client allows.
    pub const MAX_ROUNDS: u32 = 10;

    /// A client on `version` that declares form and URL elicitation, sampling and roots, and
    /// has no answers yet.
    #[must_use]
    pub fn new(version: ProtocolVersion) -> Self {
        let declared = serde_json::json!({
            "elicitation": {"form": {}, "url": {}},
            "sampling": {},
            "roots": {"listChanged": true},
        });
        ScriptedClient {
            version,
            wire: wire(version),
            // The capabilities' wire form always reads as rmcp's model.
            capabilities: serde_json::from_value(declared).unwrap_or_default(),
            script: Arc::default(),
            max_rounds: Self::MAX_ROUNDS,
            timeout: None,
        }
    }

    /// A client on the protocol version written `version`: one with elicitation, as
    /// [`new`](ScriptedClient::new) makes, or one before it (2024-11-05, 2025-03-26), which
    /// declares no elicitation, as such clients cannot show forms.
    ///
    /// # Errors
    ///
    /// A version this crate does not know.
    pub fn on(version: &str) -> Result<Self, UnknownVersion> {
        let unknown = match version.parse::<ProtocolVersion>() {
            Ok(known) => return Ok(ScriptedClient::new(known)),
            Err(unknown) => unknown,
        };
        let wire = [
            m::ProtocolVersion::V_2024_11_05,
            m::ProtocolVersion::V_2025_03_26,
        ]
        .into_iter()
        .find(|older| older.as_str() == version)
        .ok_or(unknown)?;
        Ok(ScriptedClient {
            wire,
            ..ScriptedClient::new(ProtocolVersion::V2025_06_18).without_elicitation()
        })
    }

    /// Declares no elicitation capability, as a client that cannot show forms.
    #[must_use]
    pub fn without_elicitation(mut self) -> Self {
        self.capabilities.elicitation = None;
        self
    }

    /// Declares exactly `capabilities`: form mode only, say.
    #[must_use]
    pub fn with_capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// Adds the answer to the next question not answered yet.
    #[must_use]
    pub fn answer(self, answer: Answer) -> Self {
        lock(&self.script).push_back(answer);
        self
    }

    /// Adds several answers, in order.
    #[must_use]
    pub fn answers(self, answers: impl IntoIterator<Item = Answer>) -> Self {
        lock(&self.script).extend(answers);
        self
    }

    /// Caps the `input_required` results one call answers ([`MAX_ROUNDS`](Self::MAX_ROUNDS)
    /// by default).
    /// Past it the call fails with [`TestError::TooManyRounds`].
    #[must_use]
    pub fn with_max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Gives up on a `tools/call` with no response after `timeout`, the timer reset by each
    /// progress notification of the call, as the TypeScript client does with
    /// `resetTimeoutOnProgress`. Past it the call fails with [`TestError::Timeout`]. Without
    /// it, the client waits as long as the server takes.
    #[must_use]
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The protocol version the client speaks: for one before elicitation, 2025-06-18, the
    /// first that has it (see [`wire_version`](ScriptedClient::wire_version)).
    #[must_use]
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The protocol version the client sends, as written on the wire.
    #[must_use]
    pub fn wire_version(&self) -> &str {
        self.wire.as_str()
    }

    /// The answers not used yet.
    #[must_use]
    pub fn remaining(&self) -> usize {
        lock(&self.script).len()
    }

    /// Calls `tool` on `server` with `arguments` (a JSON object, or `null` for none) and drives
    /// the call to its end, answering every question from the script.
    ///
    /// # Errors
    ///
    /// A [`TestError`]: the server answered with a JSON-RPC error, a question came after the
    /// script ran out, the server panicked or closed the connection, or it agreed to another
    /// version.
    pub async fn call_tool<S: TestServer>(
        &self,
        server: S,
        tool: &str,
        arguments: Value,
    ) -> Result<Transcript, TestError> {
        self.call_tool_across([server], tool, arguments).await
    }

    /// [`call_tool`](ScriptedClient::call_tool), with the call's `tools/call` requests spread
    /// over `servers` in turn: on 2026-07-28, round 1 goes to the first, the retry to the
    /// second, and so on, as behind a load balancer. Give each server its own
    /// `StateKey` to test scale-out (one secret, one store) and key rotation (a new secret that
    /// also opens the old one, `StateKey::also_opening`). Before
    /// 2026-07-28 a call is one request, so the first server serves it.
    ///
    /// # Errors
    ///
    /// As [`call_tool`](ScriptedClient::call_tool), and [`TestError::Arguments`] for no server.
    pub async fn call_tool_across<S: TestServer>(
        &self,
        servers: impl IntoIterator<Item = S>,
        tool: &str,
        arguments: Value,
    ) -> Result<Transcript, TestError> {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        params.arguments = arguments_of(arguments)?;
        self.drive(servers, params).await
    }

    /// Gets the prompt `name` from `server` with `arguments` (a JSON object, or `null` for
    /// none), and drives the `prompts/get` to its end as [`call_tool`](Self::call_tool) drives
    /// a call: a prompt asks as a tool does.
    ///
    /// # Errors
    ///
    /// As [`call_tool`](Self::call_tool).
    pub async fn get_prompt<S: TestServer>(
        &self,
        server: S,
        name: &str,
        arguments: Value,
    ) -> Result<Transcript<m::GetPromptResult>, TestError> {
        let mut params = m::GetPromptRequestParams::new(name.to_owned());
        params.arguments = arguments_of(arguments)?;
        self.drive([server], params).await
    }

    /// Reads the resource at `uri` from `server`, and drives the `resources/read` to its end
    /// as [`call_tool`](Self::call_tool) drives a call: a resource asks as a tool does.
    ///
    /// # Errors
    ///
    /// As [`call_tool`](Self::call_tool).
    pub async fn read_resource<S: TestServer>(
        &self,
        server: S,
        uri: &str,
    ) -> Result<Transcript<m::ReadResourceResult>, TestError> {
        let params = m::ReadResourceRequestParams::new(uri.to_owned());
        self.drive([server], params).await
    }

    /// Sends `params` to `servers` in turn, answering each round from the script, to the end.
    async fn drive<S: TestServer, A: Asking>(
        &self,
        servers: impl IntoIterator<Item = S>,
        mut params: A,
    ) -> Result<Transcript<A::Result>, TestError> {
        // One log for every session: the questions in the order they came, whichever
        // server sent them.
        let log = Arc::new(Log::new(Arc::clone(&self.script)));
        let mut sessions = Vec::new();
        for server in servers {
            sessions.push(self.connect(server, Arc::clone(&log)).await?);
        }
        if sessions.is_empty() {
            return Err(TestError::Arguments(Value::Array(Vec::new())));
        }
        let (mut calls, mut request_states) = (0, Vec::new());
        let ended = loop {
            let session = &sessions[calls as usize % sessions.len()];
            calls += 1;
            let required = match session.send(params.clone()).await {
                Ok(Reply::Complete(result)) => break Ok(result),
                Ok(Reply::InputRequired(required)) => required,
                Err(error) => break Err(error),
            };
            if calls > self.max_rounds {
                break Err(TestError::TooManyRounds(self.max_rounds));
            }
            if let Some(state) = &required.request_state {
                request_states.push(state.clone());
            }
            match session.fulfil(required).await {
                Ok((responses, state)) => params.answer(responses, state),
                Err(error) => break Err(error),
            }
        };
        let asked = std::mem::take(&mut *lock(&log.asked));
        let progress = std::mem::take(&mut *lock(&log.progress));
        for session in sessions {
            session.close().await;
        }
        Ok(Transcript {
            result: ended?,
            asked,
            calls,
            request_states,
            progress,
        })
    }

    /// Sends one `tools/call` as given (`inputResponses` and `requestState` included) and
    /// returns the server's response as it came: an `input_required` result is not answered.
    /// Live requests before 2026-07-28 are still answered from the script.
    ///
    /// # Errors
    ///
    /// As [`call_tool`](ScriptedClient::call_tool).
    pub async fn call_tool_once<S: TestServer>(
        &self,
        server: S,
        request: CallToolRequestParams,
    ) -> Result<CallToolResponse, TestError> {
        let log = Arc::new(Log::new(Arc::clone(&self.script)));
        let session = self.connect(server, log).await?;
        let response = session.send(request).await;
        session.close().await;
        Ok(match response? {
            Reply::Complete(result) => CallToolResponse::Complete(result),
            Reply::InputRequired(required) => CallToolResponse::InputRequired(required),
        })
    }

    /// Runs the same call on every version, oldest first, each with a fresh client (a copy of
    /// this one's capabilities and remaining answers) and a fresh server from `server`.
    ///
    /// # Errors
    ///
    /// The first version's [`TestError`], as [`TestError::OnVersion`].
    pub async fn call_tool_on_every_version<S, F>(
        &self,
        server: F,
        tool: &str,
        arguments: Value,
    ) -> Result<Vec<(ProtocolVersion, Transcript)>, TestError>
    where
        S: TestServer,
        F: Fn() -> S,
    {
        let mut outcomes = Vec::with_capacity(ProtocolVersion::ALL.len());
        for version in ProtocolVersion::ALL {
            let client = ScriptedClient {
                version,
                wire: wire(version),
                script: Arc::new(Mutex::new(lock(&self.script).clone())),
                ..self.clone()
            };
            match client.call_tool(server(), tool, arguments.clone()).await {
                Ok(outcome) => outcomes.push((version, outcome)),
                Err(error) => {
                    return Err(TestError::OnVersion {
                        version,
                        error: Box::new(error),
                    });
                }
            }
        }
        Ok(outcomes)
    }

    /// Connects `handler` over `transport` on the client's version (`wire`): `initialize`
    /// before 2026-07-28, `server/discover` on it.
    async fn handshake<T, E, A>(
        &self,
        handler: Scripted,
        transport: T,
        wire: m::ProtocolVersion,
    ) -> Result<RunningService<RoleClient, Scripted>, rmcp::service::ClientInitializeError>
    where
        T: rmcp::transport::IntoTransport<RoleClient, E, A>,
        E: std::error::Error + Send + Sync + 'static,
    {
        if self.version.has_input_requests() {
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![wire],
            };
            handler.serve_with_lifecycle(transport, lifecycle).await
        } else {
            handler.serve(transport).await
        }
    }

    /// Starts `server` and connects to it on the client's version.
    async fn connect<S: TestServer>(&self, server: S, log: Arc<Log>) -> Result<Session, TestError> {
        let (link, server_task) = server.start(Arc::clone(&log))?;
        let wire = self.wire.clone();
        let handler = Scripted {
            log: Arc::clone(&log),
            info: ClientConfig::new(
                self.capabilities.clone(),
                Implementation::new("elicit-core-scripted-client", env!("CARGO_PKG_VERSION")),
            )
            .with_protocol_version(wire.clone()),
            version: self.version,
        };
        let connected = match link {
            server::Link::Stream(io) => self.handshake(handler, io, wire).await,
            #[cfg(feature = "http")]
            server::Link::Http(url) => {
                let transport =
                    rmcp::transport::StreamableHttpClientTransport::from_uri(url.as_str());
                self.handshake(handler, transport, wire).await
            }
        };
        let running = match connected {
            Ok(running) => running,
            Err(e) => {
                server_task.abort();
                return Err(log
                    .failure()
                    .unwrap_or(TestError::Connection(e.to_string())));
            }
        };
        let agreed = running
            .peer_info()
            .map(|info| info.protocol_version.as_str().to_owned());
        if agreed.as_deref() != Some(self.wire.as_str()) {
            let _ = running.cancel().await;
            server_task.abort();
            return Err(TestError::Version {
                asked: self.version,
                agreed,
            });
        }
        Ok(Session {
            running,
            log,
            version: self.version,
            timeout: self.timeout,
            server_task,
        })
    }
}

/// One connected session: the running client, its log and the server's task.
struct Session {
    running: RunningService<RoleClient, Scripted>,
    log: Arc<Log>,
    version: ProtocolVersion,
    timeout: Option<Duration>,
    server_task: tokio::task::JoinHandle<()>,
}

impl Session {
    /// Sends one request, ending at once if the call fails on the client's side, and giving
    /// up after the client's timeout, which each progress notification resets.
    async fn send<A: Asking>(&self, params: A) -> Result<Reply<A::Result>, TestError> {
        let mut options = PeerRequestOptions::no_options();
        options.timeout = self.timeout;
        options.reset_timeout_on_progress = self.timeout.is_some();
        self.race(async {
            let handle = self
                .running
                .peer()
                .send_request_with_option(params.request(), options)
                .await?;
            A::reply(handle.await_response().await?).ok_or(ServiceError::UnexpectedResponse)
        })
        .await
    }

    async fn race<T>(
        &self,
        call: impl Future<Output = Result<T, ServiceError>>,
    ) -> Result<T, TestError> {
        tokio::select! {
            biased;
            error = self.log.failed() => Err(error),
            result = call => result.map_err(|e| self.log.failure().unwrap_or_else(|| from_service(e))),
        }
    }

    /// Answers each input request of a round, in the order of its keys, and returns the
    /// retry's `inputResponses` and `requestState`.
    async fn fulfil(
        &self,
        required: InputRequiredResult,
    ) -> Result<(m::InputResponses, Option<String>), TestError> {
        let mut responses = m::InputResponses::new();
        for (key, request) in required.input_requests.unwrap_or_default() {
            let asked = match &request {
                InputRequest::Elicitation(request) => {
                    AskedForm::of(&request.params, self.version, Some(key.clone()))
                }
                other => {
                    let wire = serde_json::to_value(other).unwrap_or_default();
                    let method = wire.get("method").and_then(Value::as_str).unwrap_or("");
                    let params = wire.get("params").cloned().unwrap_or_default();
                    AskedForm::other(method, &params, self.version, Some(key.clone()))
                }
            };
            let Some(answer) = self.log.answer(asked).await else {
                return Err(self.log.failed().await);
            };
            if let Some(message) = answer.refusal() {
                return Err(TestError::Refused {
                    key,
                    message: message.to_owned(),
                });
            }
            responses.insert(key, answer.reply().clone());
        }
        Ok((responses, required.request_state))
    }

    async fn close(self) {
        let _ = self.running.cancel().await;
        self.server_task.abort();
    }
}

/// `version` as rmcp writes it.
fn wire(version: ProtocolVersion) -> m::ProtocolVersion {
    let known = [
        m::ProtocolVersion::V_2025_06_18,
        m::ProtocolVersion::V_2025_11_25,
        m::ProtocolVersion::V_2026_07_28,
    ];
    known
        .into_iter()
        .find(|wire| wire.as_str() == version.as_str())
        .unwrap_or_default()
}

fn arguments_of(arguments: Value) -> Result<Option<m::JsonObject>, TestError> {
    match arguments {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(TestError::Arguments(other)),
    }
}

fn from_service(error: ServiceError) -> TestError {
    match error {
        ServiceError::McpError(e) => TestError::Server(e),
        ServiceError::InputRequiredRoundsExceeded { max_rounds } => {
            TestError::TooManyRounds(u32::try_from(max_rounds).unwrap_or(u32::MAX))
        }
        ServiceError::Timeout { timeout } => TestError::Timeout(timeout),
        ServiceError::UnexpectedResponse => {
            TestError::Unexpected("a response of another type".to_owned())
        }
        other => TestError::Connection(other.to_string()),
    }
}
