//! The rmcp integration, with a real rmcp client and server in one process over a tokio duplex:
//! typed elicitation, capability checks, the retry loop, the 2026-07-28 round trip, and the
//! conversions between this crate's types and rmcp's.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::retry::{AttemptOutcome, RetryPolicy};
use elicit_core::rmcp::{ElicitOptions, ElicitPeerExt, PeerElicitError, negotiated_version};
use elicit_core::{
    Elicit, ElicitResult, FormRequest, InputRequests, InputRequired, InputResponse, InputResponses,
    ProtocolVersion, RequestedSchema, UrlElicitResult, UrlRequest,
};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleClient, RoleServer, RunningService, serve_directly};
use rmcp::{ClientHandler, ServerHandler};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
enum Seating {
    /// Inside
    Indoor,
    /// On the terrace
    Outdoor,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Elicit,
)]
enum Extra {
    Cake,
    Flowers,
}

/// Book a table
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Booking {
    #[schemars(length(min = 1, max = 50))]
    name: String,
    #[schemars(range(min = 1, max = 12))]
    party_size: u8,
    seating: Seating,
    notes: Option<String>,
}

/// Add extras
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Elicit)]
struct Extras {
    extras: Vec<Extra>,
}

/// The server: each tool elicits and reports what it got as the tool's text, in JSON.
#[derive(Clone)]
struct Server;

fn text(report: Value) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(report.to_string())]).into()
}

/// The kind of a rule: `Required`, `Type`, ...
fn rule_kind(rule: &elicit_core::Rule) -> String {
    format!("{rule:?}")
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// Each violation as `[property, rule kind]`.
fn violations(e: &elicit_core::ElicitError) -> Value {
    e.violations()
        .iter()
        .map(|v| json!([v.property(), rule_kind(v.rule())]))
        .collect()
}

/// A typed elicitation's outcome: `{"ok": <the wire result>}` or `{"error": <kind>, ..}`.
fn report<T: Serialize>(result: &Result<ElicitResult<T>, PeerElicitError>) -> Value {
    match result {
        Ok(answer) => json!({"ok": answer}),
        Err(e) => {
            let (kind, detail) = match e {
                PeerElicitError::NoElicitationCapability => {
                    ("NoElicitationCapability", json!(null))
                }
                PeerElicitError::NoFormMode => ("NoFormMode", json!(null)),
                PeerElicitError::UseInputRequired => ("UseInputRequired", json!(null)),
                PeerElicitError::VersionTooOld(v) => ("VersionTooOld", json!(v)),
                PeerElicitError::Schema(e) => ("Schema", json!(e.property_name())),
                PeerElicitError::Timeout(t) => ("Timeout", json!(t.as_millis() as u64)),
                PeerElicitError::Invalid(e) => ("Invalid", violations(e)),
                _ => ("Other", json!(e.to_string())),
            };
            json!({"error": kind, "detail": detail})
        }
    }
}

/// An attempt's outcome, by name.
fn outcome_name(outcome: &AttemptOutcome) -> &'static str {
    match outcome {
        AttemptOutcome::Accepted => "Accepted",
        AttemptOutcome::Declined => "Declined",
        AttemptOutcome::Cancelled => "Cancelled",
        AttemptOutcome::Invalid(_) => "Invalid",
        AttemptOutcome::Failed(_) => "Failed",
    }
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
        let peer = &context.peer;
        Ok(match request.name.as_ref() {
            "book" => text(report(&peer.elicit_typed::<Booking>().await)),
            "extras" => text(report(&peer.elicit_typed::<Extras>().await)),
            "book_quickly" => text(report(
                &peer
                    .elicit_typed_with::<Booking>(
                        ElicitOptions::new()
                            .timeout(Duration::from_millis(200))
                            .message("Quick!"),
                    )
                    .await,
            )),
            "book_retrying" => {
                let retried = peer
                    .elicit_typed_retrying::<Booking>(RetryPolicy::default(), ElicitOptions::new())
                    .await;
                let attempts: Vec<&str> = retried
                    .attempts
                    .iter()
                    .map(|a| outcome_name(&a.outcome))
                    .collect();
                let mut out = report(&retried.result);
                out["attempts"] = json!(attempts);
                text(out)
            }
            "book_round_trip" => {
                let responses = InputResponses::from_rmcp(
                    request.input_responses.as_ref(),
                    request.request_state.as_deref(),
                );
                match responses.elicit::<Booking>("booking") {
                    Ok(InputResponse::Missing) => {
                        let mut requests = InputRequests::new();
                        requests.elicit::<Booking>("booking");
                        let required = InputRequired::new(requests).with_request_state("round-1");
                        InputRequiredResult::try_from(&required)
                            .expect("converts")
                            .into()
                    }
                    Ok(InputResponse::Answered(answer)) => text(json!({
                        "answered": report(&Ok(answer)),
                        "state": responses.request_state(),
                    })),
                    Err(e) => text(json!({"invalid": violations(&e)})),
                }
            }
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        })
    }
}

/// A client that answers every elicitation from a script and records what it was asked.
#[derive(Clone)]
struct Client {
    capabilities: ClientCapabilities,
    replies: Arc<Mutex<VecDeque<Value>>>,
    seen: Arc<Mutex<Vec<ElicitRequestParams>>>,
    delay: Option<Duration>,
}

impl Client {
    fn new(replies: Vec<Value>) -> Self {
        Client {
            capabilities: ClientCapabilities::builder().enable_elicitation().build(),
            replies: Arc::new(Mutex::new(replies.into())),
            seen: Arc::default(),
            delay: None,
        }
    }
}

impl ClientHandler for Client {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            self.capabilities.clone(),
            Implementation::new("scripted", "0"),
        )
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, ErrorData> {
        self.seen.lock().unwrap().push(request);
        if let Some(delay) = self.delay {
            tokio::time::sleep(delay).await;
        }
        let reply = self
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or(json!({"action": "cancel"}));
        Ok(serde_json::from_value(reply).expect("a scripted reply is an ElicitResult"))
    }
}

/// Runs `body` with a connected client and server that negotiated `version`.
async fn with_pair<F, Fut, R>(client: Client, version: ProtocolVersion, body: F) -> R
where
    F: FnOnce(RunningService<RoleClient, Client>) -> Fut,
    Fut: std::future::Future<Output = R>,
{
    let (server_io, client_io) = tokio::io::duplex(64 * 1024);
    let version: rmcp::model::ProtocolVersion =
        serde_json::from_value(json!(version.as_str())).unwrap();
    let client_info = InitializeRequestParams::new(
        client.capabilities.clone(),
        Implementation::new("scripted", "0"),
    )
    .with_protocol_version(version.clone());
    let mut server_info =
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build());
    server_info.protocol_version = version;
    let server = serve_directly::<RoleServer, _, _, _, _>(Server, server_io, Some(client_info));
    let client =
        serve_directly::<RoleClient, _, _, _, _>(client, client_io, Some(server_info.into()));
    let out = body(client).await;
    drop(server);
    out
}

async fn call(client: &RunningService<RoleClient, Client>, tool: &str) -> String {
    match client
        .call_tool(CallToolRequestParams::new(tool.to_owned()))
        .await
    {
        Ok(result) => result.content[0]
            .as_text()
            .map(|t| t.text.clone())
            .unwrap_or_default(),
        Err(e) => format!("call failed: {e}"),
    }
}

/// The tool's JSON report.
async fn report_of(client: &RunningService<RoleClient, Client>, tool: &str) -> Value {
    let text = call(client, tool).await;
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("a JSON report: {text}"))
}

fn accept(content: Value) -> Value {
    json!({"action": "accept", "content": content})
}

fn ada() -> Value {
    json!({"name": "Ada", "party_size": 4, "seating": "Outdoor"})
}

const LEGACY: [ProtocolVersion; 2] = [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25];

#[tokio::test]
async fn accept_decline_cancel_on_both_legacy_versions() {
    for version in LEGACY {
        for (reply, expected) in [
            (accept(ada()), json!({"ok": accept(ada())})),
            (
                json!({"action": "decline", "content": {"junk": true}}),
                json!({"ok": {"action": "decline"}}),
            ),
            (
                json!({"action": "cancel"}),
                json!({"ok": {"action": "cancel"}}),
            ),
        ] {
            let client = Client::new(vec![reply]);
            let seen = client.seen.clone();
            let out = with_pair(
                client,
                version,
                |c| async move { report_of(&c, "book").await },
            )
            .await;
            assert_eq!(out, expected, "{version}");
            // The schema sent is the one for the negotiated version.
            let sent = seen.lock().unwrap().remove(0);
            let ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } = sent
            else {
                panic!("a form request")
            };
            assert_eq!(message, "Book a table");
            let wire = serde_json::to_value(&requested_schema).unwrap();
            let ours =
                serde_json::to_value(Booking::requested_schema_for(version).unwrap()).unwrap();
            assert_eq!(wire, ours, "{version}");
            let seating = &wire["properties"]["seating"];
            match version {
                ProtocolVersion::V2025_06_18 => assert!(seating.get("enumNames").is_some()),
                _ => assert!(seating.get("oneOf").is_some()),
            }
        }
    }
}

#[tokio::test]
async fn invalid_content_is_refused_naming_every_property() {
    let client = Client::new(vec![accept(
        json!({"name": "", "party_size": 40, "seating": "Roof"}),
    )]);
    let out = with_pair(client, ProtocolVersion::V2025_11_25, |c| async move {
        report_of(&c, "book").await
    })
    .await;
    assert_eq!(
        out,
        json!({"error": "Invalid", "detail": [
            ["name", "MinLength"],
            ["party_size", "Maximum"],
            ["seating", "NotAChoice"],
        ]})
    );
}

#[tokio::test]
async fn missing_capabilities_send_nothing() {
    for (capabilities, expected) in [
        (ClientCapabilities::default(), "NoElicitationCapability"),
        (
            ClientCapabilities::builder()
                .enable_elicitation_with(
                    ElicitationCapability::new().with_url(UrlElicitationCapability::default()),
                )
                .build(),
            "NoFormMode",
        ),
    ] {
        let mut client = Client::new(vec![accept(ada())]);
        client.capabilities = capabilities;
        let seen = client.seen.clone();
        let out = with_pair(client, ProtocolVersion::V2025_11_25, |c| async move {
            report_of(&c, "book").await
        })
        .await;
        assert_eq!(out["error"], expected);
        assert!(seen.lock().unwrap().is_empty(), "nothing was sent");
    }
}

#[tokio::test]
async fn a_form_the_version_cannot_express_is_refused_before_sending() {
    let client = Client::new(vec![accept(json!({"extras": ["Cake"]}))]);
    let seen = client.seen.clone();
    let out = with_pair(client, ProtocolVersion::V2025_06_18, |c| async move {
        report_of(&c, "extras").await
    })
    .await;
    assert_eq!(out, json!({"error": "Schema", "detail": "extras"}));
    assert!(seen.lock().unwrap().is_empty());
    let client = Client::new(vec![accept(json!({"extras": ["Cake"]}))]);
    let out = with_pair(client, ProtocolVersion::V2025_11_25, |c| async move {
        report_of(&c, "extras").await
    })
    .await;
    assert_eq!(out, json!({"ok": accept(json!({"extras": ["Cake"]}))}));
}

#[tokio::test]
async fn timeouts_are_their_own_error() {
    let mut client = Client::new(vec![accept(ada())]);
    client.delay = Some(Duration::from_secs(5));
    let out = with_pair(client, ProtocolVersion::V2025_11_25, |c| async move {
        report_of(&c, "book_quickly").await
    })
    .await;
    assert_eq!(out, json!({"error": "Timeout", "detail": 200}));
}

#[tokio::test]
async fn the_retry_policy() {
    // Cancel, then invalid, then valid: three attempts, each visible.
    let client = Client::new(vec![
        json!({"action": "cancel"}),
        accept(json!({"name": "Ada"})),
        accept(ada()),
    ]);
    let seen = client.seen.clone();
    let out = with_pair(client, ProtocolVersion::V2025_11_25, |c| async move {
        report_of(&c, "book_retrying").await
    })
    .await;
    assert_eq!(
        out,
        json!({"ok": accept(ada()), "attempts": ["Cancelled", "Invalid", "Accepted"]})
    );
    let messages: Vec<String> = seen
        .lock()
        .unwrap()
        .iter()
        .map(|r| match r {
            ElicitRequestParams::FormElicitationParams { message, .. } => message.clone(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(messages[0], "Book a table");
    assert!(messages[1].contains("dismissed"), "{}", messages[1]);
    assert!(
        messages[2].contains("could not be used: Party size is required"),
        "{}",
        messages[2]
    );

    // Decline stops at once; a second cancel stops too.
    for (replies, attempts) in [
        (
            vec![json!({"action": "decline"}), accept(ada())],
            json!(["Declined"]),
        ),
        (
            vec![
                json!({"action": "cancel"}),
                json!({"action": "cancel"}),
                accept(ada()),
            ],
            json!(["Cancelled", "Cancelled"]),
        ),
    ] {
        let out = with_pair(
            Client::new(replies),
            ProtocolVersion::V2025_11_25,
            |c| async move { report_of(&c, "book_retrying").await },
        )
        .await;
        assert_eq!(out["attempts"], attempts);
    }
    // Invalid content is asked again up to the limit (two retries), then reported.
    let bad = accept(json!({"name": ""}));
    let out = with_pair(
        Client::new(vec![bad.clone(), bad.clone(), bad.clone(), accept(ada())]),
        ProtocolVersion::V2025_11_25,
        |c| async move { report_of(&c, "book_retrying").await },
    )
    .await;
    assert_eq!(
        out,
        json!({
            "error": "Invalid",
            "detail": [["name", "MinLength"], ["party_size", "Required"], ["seating", "Required"]],
            "attempts": ["Invalid", "Invalid", "Invalid"],
        })
    );
}

#[tokio::test]
async fn the_2026_07_28_round_trip() {
    let client = Client::new(vec![accept(ada())]);
    let seen = client.seen.clone();
    let (direct, round_trip) = with_pair(client, ProtocolVersion::V2026_07_28, |c| async move {
        (
            report_of(&c, "book").await,
            report_of(&c, "book_round_trip").await,
        )
    })
    .await;
    assert_eq!(
        direct["error"], "UseInputRequired",
        "no server-to-client request on 2026-07-28"
    );
    assert_eq!(
        round_trip,
        json!({"answered": {"ok": accept(ada())}, "state": "round-1"})
    );
    let seen = seen.lock().unwrap();
    assert_eq!(seen.len(), 1, "the client answered the input request once");
    let ElicitRequestParams::FormElicitationParams {
        requested_schema, ..
    } = &seen[0]
    else {
        panic!()
    };
    assert_eq!(
        serde_json::to_value(requested_schema).unwrap(),
        serde_json::to_value(Booking::requested_schema()).unwrap()
    );
}

#[test]
fn versions_are_matched_to_the_newest_known() {
    assert_eq!(
        negotiated_version("2025-06-18"),
        Some(ProtocolVersion::V2025_06_18)
    );
    assert_eq!(
        negotiated_version("2025-09-01"),
        Some(ProtocolVersion::V2025_06_18)
    );
    assert_eq!(
        negotiated_version("2027-01-01"),
        Some(ProtocolVersion::V2026_07_28)
    );
    assert_eq!(negotiated_version("2025-03-26"), None);
    let e = PeerElicitError::VersionTooOld("2025-03-26".into());
    assert!(e.to_string().contains("predates"));
}

#[test]
fn schema_conversions_are_lossless_both_ways() {
    let schemas = [
        Booking::requested_schema(),
        Booking::requested_schema_for(ProtocolVersion::V2025_06_18).unwrap(),
        Extras::requested_schema(),
    ];
    for schema in schemas {
        let theirs = ElicitationSchema::try_from(schema).unwrap();
        let back = RequestedSchema::try_from(&theirs).unwrap();
        assert_eq!(back.properties(), schema.properties());
        assert_eq!(
            serde_json::to_value(&theirs).unwrap(),
            serde_json::to_value(schema).unwrap()
        );
    }
    // Every schema of the peer corpus that rmcp can hold survives the trip.
    let corpus = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/peer_cases.jsonl"
    ))
    .unwrap();
    let mut converted = 0;
    for line in corpus.lines() {
        let case: Value = serde_json::from_str(line).unwrap();
        let Ok(schema) = RequestedSchema::from_json(&case["schema"].to_string()) else {
            continue;
        };
        match ElicitationSchema::try_from(&schema) {
            Ok(theirs) => {
                let back = RequestedSchema::try_from(&theirs).unwrap();
                assert_eq!(back.properties(), schema.properties(), "{}", case["id"]);
                converted += 1;
            }
            Err(e) => assert!(e.to_string().contains("cannot hold"), "{}: {e}", case["id"]),
        }
    }
    assert!(converted > 100, "{converted}");
    let with_pattern = RequestedSchema::from_value(
        json!({"type": "object", "properties": {"z": {"type": "string", "pattern": "^x$"}}}),
    )
    .unwrap();
    assert!(
        ElicitationSchema::try_from(&with_pattern).is_err(),
        "a rule is never dropped silently"
    );
}

#[test]
fn request_and_result_conversions_both_ways() {
    let form = Booking::form_request();
    let params = ElicitRequestParams::try_from(&form).unwrap();
    let back = FormRequest::try_from(&params).unwrap();
    assert_eq!(back.message(), form.message());
    assert_eq!(back.schema(), form.schema());
    assert_eq!(serde_json::to_value(&params).unwrap(), form.to_value());

    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let url = UrlRequest::new(version, "Pay", "https://example.com/pay", "pay-1").unwrap();
        let params = ElicitRequestParams::from(&url);
        assert_eq!(
            serde_json::to_value(&params).unwrap()["url"],
            "https://example.com/pay"
        );
        let back = UrlRequest::try_from(&params).unwrap();
        assert_eq!(back.to_value(), url.to_value(), "{version}");
    }
    assert!(UrlRequest::try_from(&ElicitRequestParams::try_from(&form).unwrap()).is_err());

    let ours: ElicitResult<Booking> = ElicitResult::from_value(&accept(ada())).unwrap();
    let theirs = rmcp::model::ElicitResult::try_from(&ours).unwrap();
    assert_eq!(ElicitResult::<Booking>::from_rmcp(&theirs).unwrap(), ours);
    for ours in [ElicitResult::<Booking>::Decline, ElicitResult::Cancel] {
        let theirs = rmcp::model::ElicitResult::try_from(&ours).unwrap();
        assert!(theirs.content.is_none());
        assert_eq!(ElicitResult::<Booking>::from_rmcp(&theirs).unwrap(), ours);
    }
    let invalid = serde_json::from_value(accept(json!({"name": 3}))).unwrap();
    assert!(
        ElicitResult::<Booking>::from_rmcp(&invalid).is_err(),
        "content is validated"
    );
    // Content `Booking` itself would take, but that breaks the schema's rules.
    let mut too_many = ada();
    too_many["party_size"] = json!(13);
    let too_many = serde_json::from_value(accept(too_many)).unwrap();
    let e = ElicitResult::<Booking>::from_rmcp(&too_many).unwrap_err();
    assert_eq!(
        e.violations()
            .iter()
            .map(|v| (v.property(), v.rule().clone()))
            .collect::<Vec<_>>(),
        [(
            Some("party_size"),
            elicit_core::Rule::Maximum(elicit_core::schema::Bound::Int(12))
        )]
    );
    for url in [
        UrlElicitResult::Accept,
        UrlElicitResult::Decline,
        UrlElicitResult::Cancel,
    ] {
        assert_eq!(UrlElicitResult::from_rmcp(&url.into()).unwrap(), url);
    }

    let mut requests = InputRequests::new();
    requests.elicit::<Booking>("a");
    requests.url(
        "b",
        &UrlRequest::new(
            ProtocolVersion::V2026_07_28,
            "Pay",
            "https://example.com",
            "",
        )
        .unwrap(),
    );
    let required = InputRequired::new(requests).with_request_state("s");
    let theirs = InputRequiredResult::try_from(&required).unwrap();
    assert_eq!(InputRequired::try_from(&theirs).unwrap(), required);
    let wire = serde_json::to_value(&theirs).unwrap();
    assert_eq!(
        wire["inputRequests"]["a"],
        required.to_value().unwrap()["inputRequests"]["a"]
    );
    assert_eq!(wire["requestState"], "s");
    // rmcp writes an empty `elicitationId` on 2026-07-28, where the protocol has none.
    assert_eq!(wire["inputRequests"]["b"]["params"]["elicitationId"], "");

    // A form whose rule rmcp's model cannot hold is refused, not sent without it.
    let zip = RequestedSchema::from_value(
        json!({"type": "object", "properties": {"zip": {"type": "string", "pattern": "^x$"}}}),
    )
    .unwrap();
    let mut requests = InputRequests::new();
    requests.form("zip", &FormRequest::new("ZIP?", &zip));
    let error = InputRequiredResult::try_from(&InputRequired::new(requests)).unwrap_err();
    assert!(error.to_string().contains("input request `zip`"), "{error}");
    assert!(error.to_string().contains("has `pattern`"), "{error}");
}
