//! A real rmcp client and server in one process over a tokio duplex, each version negotiated
//! the way a client does it: the `initialize` handshake before 2026-07-28, `server/discover` on
//! it (no handshake, capabilities in each request's `_meta`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use elicit_core::ElicitResult;
use elicit_core::prelude::*;
use elicit_core::rmcp::Round;
use elicit_core::{InputRequests, ProtocolVersion};
use rmcp::model::*;
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient, RoleServer, RunningService,
};
use rmcp::{ClientHandler, ServerHandler, ServiceExt};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

pub const ALL: [ProtocolVersion; 3] = ProtocolVersion::ALL;

/// Where would you like to go?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Trip {
    #[schemars(length(min = 1, max = 40))]
    pub city: String,
    #[schemars(range(min = 1, max = 30))]
    pub nights: u8,
}

/// A week or more: a few extras
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Extras {
    pub rental_car: bool,
    pub budget: Budget,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub enum Budget {
    Low,
    Medium,
    High,
}

/// Anything you can't eat?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Diet {
    pub vegetarian: bool,
}

/// Open a pull request
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Pick {
    pub repo: String,
    #[schemars(length(min = 1))]
    pub branch: String,
}

pub const PICK: &str = "Open a pull request";
pub const OPEN: &str = "Open it now?";
pub const SIZE: &str = "Which size?";
pub const TRIP: &str = "Where would you like to go?";
pub const EXTRAS: &str = "A week or more: a few extras";
pub const DIET: &str = "Anything you can't eat?";
pub const PAGE: &str = "https://accounts.example.com/connect";

/// The server: hand-written `call_tool`, one `Ask` per call, sealed with its own key.
#[derive(Clone)]
pub struct Server {
    pub key: StateKey,
    pub max_rounds: u32,
    /// How often the `effects` tool ran the code before its questions, and after them.
    pub effects: Arc<Mutex<(usize, usize)>>,
}

impl Server {
    pub fn new() -> Self {
        Server {
            key: StateKey::random().unwrap(),
            max_rounds: elicit_core::rmcp::DEFAULT_MAX_ROUNDS,
            effects: Arc::default(),
        }
    }
}

pub fn json_result(value: Value) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(value.to_string())])
}

/// The trip planner's questions: a trip, then, for a week or more, extras.
pub async fn plan_body(ask: &Ask) -> Result<Value, Interrupt> {
    let trip = ask.form::<Trip>("trip").await?;
    let extras = match &trip {
        ElicitResult::Accept(trip) if trip.nights >= 7 => Some(ask.form::<Extras>("extras").await?),
        _ => None,
    };
    Ok(json!({"trip": trip, "extras": extras}))
}

async fn plan(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async { plan_body(ask).await.map(json_result) })
        .await
}

/// `plan`, counting the runs of the code before the questions and after them.
async fn effects(ask: &Ask, count: &Mutex<(usize, usize)>) -> Asked<CallToolResult> {
    ask.run(async {
        count.lock().unwrap().0 += 1;
        let trip = ask.form::<Trip>("trip").await?;
        if matches!(&trip, ElicitResult::Accept(trip) if trip.nights >= 7) {
            let _extras = ask.form::<Extras>("extras").await?;
        }
        count.lock().unwrap().1 += 1;
        Ok(json_result(json!({"trip": trip})))
    })
    .await
}

async fn both(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let (trip, diet) = ask
            .all((ask.form::<Trip>("trip"), ask.form::<Diet>("diet")))
            .await?;
        Ok(json_result(json!({"trip": trip, "diet": diet})))
    })
    .await
}

async fn patient(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let answer = ask
            .form::<Trip>("trip")
            .retrying(RetryPolicy::default())
            .await;
        let attempts: Vec<String> = ask
            .attempts("trip")
            .iter()
            .map(|a| format!("{:?}", a.outcome))
            .collect();
        let answer = match answer {
            Ok(answer) => json!(answer),
            Err(Interrupt::Invalid { error, .. }) => json!({"invalid": error.to_string()}),
            Err(other) => return Err(other),
        };
        Ok(json_result(json!({"answer": answer, "attempts": attempts})))
    })
    .await
}

async fn connect(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let answer = ask.url("connect", "Sign in on our page", PAGE).await?;
        Ok(json_result(json!(answer)))
    })
    .await
}

async fn reuse(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let trip = ask.form::<Trip>("k").await?;
        let again = ask.form::<Trip>("k").await?;
        if trip != again {
            return Err(
                ErrorData::internal_error("a key asked twice got two answers", None).into(),
            );
        }
        let extras = ask.form::<Extras>("k").await?;
        Ok(json_result(json!({"trip": trip, "extras": extras})))
    })
    .await
}

async fn endless(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        for round in 0.. {
            let _answer = ask.form::<Diet>(format!("q{round}")).await?;
        }
        unreachable!("the loop ends at an ask")
    })
    .await
}

/// A handler written for 2026-07-28: it reads `inputResponses` and returns `InputRequired`.
async fn rounds_style(ask: &Ask, endless: bool) -> Asked<CallToolResult> {
    ask.rounds(|responses| async move {
        let seen_state = responses.request_state().map(str::to_owned);
        match responses.elicit::<Trip>("trip") {
            Ok(elicit_core::InputResponse::Answered(trip)) if !endless => Ok(Round::Done(
                json_result(json!({"trip": trip, "state": seen_state})),
            )),
            Ok(_) => {
                let mut requests = InputRequests::new();
                requests.elicit::<Trip>("trip");
                Ok(Round::Ask(
                    InputRequired::new(requests).with_request_state("handler-state"),
                ))
            }
            Err(e) => Ok(Round::Done(CallToolResult::error(vec![
                ContentBlock::text(e.to_string()),
            ]))),
        }
    })
    .await
}

/// Run-time choices from the call's `repos` argument, then a confirmation.
async fn pick(ask: &Ask, repos: Vec<String>) -> Asked<CallToolResult> {
    ask.run(async {
        let form = Form::<Pick>::new()
            .choices("repo", repos)
            .map_err(|e| Interrupt::Peer(elicit_core::rmcp::PeerElicitError::Schema(e)))?;
        let pick = ask.form_with("pick", &form).await?;
        let open = match &pick {
            ElicitResult::Accept(_) => Some(ask.confirm(OPEN).await?.is_confirmed()),
            _ => None,
        };
        Ok(json_result(json!({"pick": pick, "open": open})))
    })
    .await
}

/// A form built at run time, answered as `Content`.
async fn sized(ask: &Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let schema = elicit_core::RequestedSchema::builder()
            .field(elicit_core::schema::Field::select("size", ["s", "m", "l"]).required())
            .field(elicit_core::schema::Field::integer("count").range(1, 9))
            .build()
            .map_err(|e| Interrupt::Peer(elicit_core::rmcp::PeerElicitError::Schema(e)))?;
        let answer = ask.schema("size", SIZE, &schema).await?;
        Ok(json_result(json!({"size": answer})))
    })
    .await
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask =
            Ask::with_key(&request, &context, self.key.clone()).with_max_rounds(self.max_rounds);
        match request.name.as_ref() {
            "plan" | "plan_too" => plan(&ask).await.into_response(),
            "both" => both(&ask).await.into_response(),
            "effects" => effects(&ask, &self.effects).await.into_response(),
            "patient" => patient(&ask).await.into_response(),
            "connect" => connect(&ask).await.into_response(),
            "reuse" => reuse(&ask).await.into_response(),
            "endless" => endless(&ask).await.into_response(),
            "rounds" => rounds_style(&ask, false).await.into_response(),
            "rounds_endless" => rounds_style(&ask, true).await.into_response(),
            "pick" => {
                let repos = request
                    .arguments
                    .as_ref()
                    .and_then(|a| a.get("repos"))
                    .and_then(|r| serde_json::from_value(r.clone()).ok())
                    .unwrap_or_default();
                pick(&ask, repos).await.into_response()
            }
            "sized" => sized(&ask).await.into_response(),
            other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        }
    }
}

/// A client that answers each form from a script kept per form (by the first line of its
/// message, so a retry's longer message finds the same script), and records every request.
#[derive(Clone)]
pub struct Client {
    pub capabilities: ClientCapabilities,
    pub version: ProtocolVersion,
    replies: Arc<Mutex<HashMap<String, VecDeque<Value>>>>,
    pub seen: Arc<Mutex<Vec<ElicitRequestParams>>>,
}

impl Client {
    pub fn new(version: ProtocolVersion) -> Self {
        Client {
            capabilities: ClientCapabilities::builder()
                .enable_elicitation_with(
                    ElicitationCapability::new()
                        .with_form(FormElicitationCapability::default())
                        .with_url(UrlElicitationCapability::default()),
                )
                .build(),
            version,
            replies: Arc::default(),
            seen: Arc::default(),
        }
    }

    /// Answers the form whose message starts with `message` with `replies`, in order.
    pub fn answers(self, message: &str, replies: impl IntoIterator<Item = Value>) -> Self {
        self.replies
            .lock()
            .unwrap()
            .entry(message.to_owned())
            .or_default()
            .extend(replies);
        self
    }

    /// The messages of the requests seen, in order.
    pub fn messages(&self) -> Vec<String> {
        self.seen.lock().unwrap().iter().map(message_of).collect()
    }
}

pub fn message_of(params: &ElicitRequestParams) -> String {
    match params {
        ElicitRequestParams::FormElicitationParams { message, .. }
        | ElicitRequestParams::UrlElicitationParams { message, .. } => message.clone(),
        _ => String::new(),
    }
}

fn rmcp_version(version: ProtocolVersion) -> rmcp::model::ProtocolVersion {
    serde_json::from_value(json!(version.as_str())).unwrap()
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(self.capabilities.clone(), Implementation::new("test", "0"))
            .with_protocol_version(rmcp_version(self.version))
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, ErrorData> {
        let message = message_of(&request);
        self.seen.lock().unwrap().push(request);
        let base = message.split("\n\n").next().unwrap_or_default().to_owned();
        let reply = self
            .replies
            .lock()
            .unwrap()
            .get_mut(&base)
            .and_then(VecDeque::pop_front)
            .unwrap_or(json!({"action": "cancel"}));
        Ok(serde_json::from_value(reply).expect("a scripted reply is an ElicitResult"))
    }
}

pub type Connected = RunningService<RoleClient, Client>;

/// Serves `server` and connects `client` to it on the client's version.
pub async fn connect_to<S: ServerHandler>(server: S, client: Client) -> Connected {
    let (server_io, client_io) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_io).await {
            let _ = running.waiting().await;
        }
    });
    let version = client.version;
    let connected = if version.has_input_requests() {
        client
            .serve_with_lifecycle(
                client_io,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![rmcp_version(version)],
                },
            )
            .await
    } else {
        client.serve(client_io).await
    };
    let connected = connected.expect("the client connects");
    let negotiated = connected
        .peer_info()
        .map(|info| info.protocol_version.to_string());
    assert_eq!(negotiated.as_deref(), Some(version.as_str()));
    connected
}

/// Calls `tool`, running every round, and returns the tool's text, whether it is a tool error,
/// or the JSON-RPC error.
pub async fn call(client: &Connected, tool: &str) -> Result<(String, bool), String> {
    call_with(client, CallToolRequestParams::new(tool.to_owned())).await
}

pub async fn call_with(
    client: &Connected,
    params: CallToolRequestParams,
) -> Result<(String, bool), String> {
    match client.call_tool(params).await {
        Ok(result) => Ok((text_of(&result), result.is_error == Some(true))),
        Err(e) => Err(e.to_string()),
    }
}

pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect()
}

/// The tool's JSON result of a call that must succeed.
pub async fn call_json(client: &Connected, tool: &str) -> Value {
    let (text, is_error) = call(client, tool).await.expect("the call succeeds");
    assert!(!is_error, "{tool}: {text}");
    serde_json::from_str(&text).expect("JSON text")
}

pub fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

pub fn decline() -> Value {
    json!({"action": "decline"})
}

pub fn cancel() -> Value {
    json!({"action": "cancel"})
}

pub fn long_trip() -> Value {
    json!({"city": "Kyoto", "nights": 9})
}

pub fn short_trip() -> Value {
    json!({"city": "Lisbon", "nights": 3})
}

pub fn extras() -> Value {
    json!({"rental_car": true, "budget": "Medium"})
}
