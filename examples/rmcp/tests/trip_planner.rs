//! The `trip_planner` example's contract, with real processes: `form_client --answers` drives
//! it on every protocol version, and an rmcp client on 2026-07-28 carries one call's rounds
//! across processes, which ask a round they have no record of again, saying why.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::{VERSIONS, example};
use rmcp::model::*;
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RoleClient, RunningService};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientHandler, ServiceExt};
use serde_json::{Value, json};

fn run(protocol: &str, answers: Value) -> (bool, String) {
    common::form_client("trip_planner", protocol, "plan_trip", answers)
}

#[test]
fn a_short_trip_is_one_form() {
    for version in VERSIONS {
        let (ok, out) = run(
            version,
            json!([{"accept": {"city": "Lisbon", "nights": "3"}}]),
        );
        assert!(ok, "{version}: {out}");
        assert!(
            out.contains("── trip-planner asks ──\nWhere would you like to go?"),
            "{out}"
        );
        assert!(
            out.contains(
                r#"{"trip":{"action":"accept","content":{"city":"Lisbon","nights":3}},"extras":null}"#
            ),
            "{version}: {out}"
        );
        assert!(!out.contains("A week or more"), "no second form: {out}");
    }
}

#[test]
fn a_week_or_more_asks_for_extras() {
    for version in VERSIONS {
        let (ok, out) = run(
            version,
            json!([
                {"accept": {"city": "Kyoto", "nights": "9"}},
                {"accept": {"rental_car": "yes", "budget": "2"}}
            ]),
        );
        assert!(ok, "{version}: {out}");
        assert!(out.contains("A week or more: a few extras"), "{out}");
        assert!(out.contains("  1) Low\n  2) Medium\n  3) High"), "{out}");
        assert!(
            out.contains(
                r#"{"trip":{"action":"accept","content":{"city":"Kyoto","nights":9}},"extras":{"action":"accept","content":{"rental_car":true,"budget":"Medium"}}}"#
            ),
            "{version}: {out}"
        );
    }
}

#[test]
fn decline_and_invalid_content_at_round_two() {
    for version in VERSIONS {
        let long = json!({"accept": {"city": "Kyoto", "nights": "9"}});
        let (ok, out) = run(version, json!([long, "decline"]));
        assert!(ok, "{version}: {out}");
        assert!(
            out.contains(r#""extras":{"action":"decline"}"#),
            "{version}: {out}"
        );
        let (ok, out) = run(
            version,
            json!([long, {"raw": {"rental_car": "yes", "budget": "Lavish"}}]),
        );
        assert!(!ok, "a tool error: {out}");
        assert!(out.contains("plan_trip failed"), "{out}");
        for line in [
            "`rental_car` must be of type boolean",
            "`budget` must be one of the listed choices (enum)",
        ] {
            assert!(out.contains(line), "{version}: {line} in {out}");
        }
    }
}

/// A client that declares elicitation; the calls below drive the rounds by hand.
#[derive(Clone)]
struct Declares;

impl ClientHandler for Declares {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::builder()
                .enable_elicitation_with(
                    ElicitationCapability::new().with_form(FormElicitationCapability::default()),
                )
                .build(),
            Implementation::new("test", "0"),
        )
    }
}

async fn start(key: Option<&str>) -> RunningService<RoleClient, Declares> {
    let mut command = tokio::process::Command::new(example("trip_planner"));
    match key {
        Some(key) => command.env("TRIP_PLANNER_KEY", key),
        None => command.env_remove("TRIP_PLANNER_KEY"),
    };
    Declares
        .serve_with_lifecycle(
            TokioChildProcess::new(command).expect("trip_planner starts"),
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
        .expect("the client connects")
}

fn plan_trip(answers: Option<Value>, state: Option<&str>) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new("plan_trip");
    params.input_responses = answers.map(|a| serde_json::from_value(a).unwrap());
    params.request_state = state.map(str::to_owned);
    params
}

async fn asks(
    process: &RunningService<RoleClient, Declares>,
    params: CallToolRequestParams,
) -> InputRequiredResult {
    match process.call_tool_once(params).await {
        Ok(CallToolResponse::InputRequired(result)) => result,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// The first question of round 2, asked again: its message says why.
async fn asked_again(
    process: &RunningService<RoleClient, Declares>,
    params: CallToolRequestParams,
    says: &str,
) -> InputRequiredResult {
    let again = asks(process, params).await;
    let requests = again.input_requests.as_ref().unwrap();
    assert_eq!(requests.keys().collect::<Vec<_>>(), ["trip"]);
    let asked = serde_json::to_string(requests).unwrap();
    assert!(asked.contains(says), "{asked}");
    again
}

/// A round that reaches another process is never run blind. A process that shares the key
/// but keeps its rounds in its own memory has no record of the call, so it asks again, saying
/// the server lost its record; one with another key, or a random one, cannot open the state,
/// and asks again saying it could not continue. Answered again there, the call goes on.
#[tokio::test]
async fn a_round_that_reaches_another_process_is_asked_again() {
    const KEY: &str = "one key for every trip planner process, 32+ bytes";
    let a = start(Some(KEY)).await;
    let trip = json!({"trip": {"action": "accept", "content": {"city": "Kyoto", "nights": 9}}});
    let first = asks(&a, plan_trip(None, None)).await;
    let round_two = || plan_trip(Some(trip.clone()), first.request_state.as_deref());
    for (process, says) in [
        (
            start(Some(KEY)).await,
            "lost its record of your earlier answers",
        ),
        (
            start(Some("another key for another planner, 32+ bytes")).await,
            "could not continue",
        ),
        (start(None).await, "could not continue"),
    ] {
        let again = asked_again(&process, round_two(), says).await;
        let second = asks(
            &process,
            plan_trip(Some(trip.clone()), again.request_state.as_deref()),
        )
        .await;
        assert_eq!(
            second
                .input_requests
                .as_ref()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["extras"]
        );
    }
}

#[tokio::test]
async fn a_key_shorter_than_32_bytes_is_refused_at_start() {
    let output = std::process::Command::new(example("trip_planner"))
        .env("TRIP_PLANNER_KEY", "short")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("too short"), "{stderr}");
}

/// A person who takes 2.5 s, on 2025-11-25.
#[derive(Clone)]
struct Slow;

impl ClientHandler for Slow {
    fn get_info(&self) -> ClientConfig {
        Declares
            .get_info()
            .with_protocol_version(ProtocolVersion::V_2025_11_25)
    }

    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: rmcp::service::RequestContext<RoleClient>,
    ) -> Result<rmcp::model::ElicitResult, ErrorData> {
        tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
        Ok(serde_json::from_value(
            json!({"action": "accept", "content": {"city": "Lisbon", "nights": 3}}),
        )
        .unwrap())
    }
}

/// `TRIP_PLANNER_KEEP_ALIVE_MS` keeps a live request open for a client whose timeout (1.5 s,
/// reset by progress) is shorter than the person's answer (2.5 s); without it the call times
/// out. (Keep-alive is never more often than once a second.)
#[tokio::test]
async fn the_keep_alive_interval_comes_from_the_environment() {
    use rmcp::service::PeerRequestOptions;

    for interval in [Some("1000"), None] {
        let mut command = tokio::process::Command::new(example("trip_planner"));
        match interval {
            Some(ms) => command.env("TRIP_PLANNER_KEEP_ALIVE_MS", ms),
            None => command.env_remove("TRIP_PLANNER_KEEP_ALIVE_MS"),
        };
        let client = Slow
            .serve(TokioChildProcess::new(command).expect("trip_planner starts"))
            .await
            .expect("the client connects");
        let mut options = PeerRequestOptions::no_options();
        options.timeout = Some(std::time::Duration::from_millis(1500));
        options.reset_timeout_on_progress = true;
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(
            CallToolRequestParams::new("plan_trip"),
        ));
        let handle = client
            .peer()
            .send_request_with_option(request, options)
            .await
            .unwrap();
        let response = handle.await_response().await;
        match interval {
            Some(_) => assert!(
                matches!(response, Ok(ServerResult::CallToolResult(_))),
                "{response:?}"
            ),
            None => assert!(
                matches!(response, Err(rmcp::ServiceError::Timeout { .. })),
                "{response:?}"
            ),
        }
    }
}
