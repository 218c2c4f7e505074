//! A fleet: two `fleet_server` processes over HTTP that share one secret and one real Redis,
//! on 2026-07-28. Rounds move between them, a final retry sent to both at once pays once, a
//! Redis that went away fails retries closed, and a process restarted between rounds still
//! finishes the call.

#[allow(dead_code)] // Shared with the other tests; this one finds an example with it.
#[path = "../../tests/common/mod.rs"]
mod common;
#[allow(dead_code)] // Shared with the other HTTP tests; the fleet serves from its own processes.
#[path = "support/http.rs"]
mod http;
#[allow(dead_code)] // Shared with elicit-core's tests; this one starts a Redis of its own.
#[path = "../../../elicit-core/tests/support/redis_server.rs"]
mod redis_server;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use rmcp::ServiceError;
use rmcp::model::*;
use serde_json::{Value, json};

use http::Client;
use redis_server::TestRedis;

const SECRET: &str = "a fleet secret of thirty-two bytes or more, for tests";

/// One `fleet_server` process, stopped when dropped.
struct Process {
    child: Child,
    url: String,
}

impl Process {
    fn start(redis: &str, ledger: &PathBuf) -> Process {
        let mut child = Command::new(common::example("fleet_server"))
            .env("FLEET_SECRET", SECRET)
            .env("FLEET_REDIS_URL", redis)
            .env("FLEET_LEDGER", ledger)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("fleet_server starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("its stdout"))
            .read_line(&mut url)
            .expect("it prints its URL");
        Process {
            child,
            url: url.trim().to_owned(),
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

async fn connect(process: &Process) -> Client {
    http::connect(&process.url, None).await
}

/// The call's next request: the answer to the round `previous` asked, with its state.
fn answering(previous: &InputRequiredResult, key: &str, reply: Value) -> CallToolRequestParams {
    let mut retry = CallToolRequestParams::new("pay_invoice");
    retry.input_responses = Some(serde_json::from_value(json!({ key: reply })).unwrap());
    retry.request_state = previous.request_state.clone();
    retry
}

async fn asks(client: &Client, request: CallToolRequestParams) -> InputRequiredResult {
    match client.call_tool_once(request).await {
        Ok(CallToolResponse::InputRequired(round)) => round,
        other => panic!("expected a round, got {other:?}"),
    }
}

async fn text(client: &Client, request: CallToolRequestParams) -> Result<String, ServiceError> {
    match client.call_tool_once(request).await? {
        CallToolResponse::Complete(result) => Ok(result
            .content
            .iter()
            .filter_map(|c| c.as_text())
            .map(|t| t.text.clone())
            .collect()),
        other => panic!("expected a result, got {other:?}"),
    }
}

fn invoice(number: &str) -> Value {
    json!({"action": "accept", "content": {"number": number, "amount": 120}})
}

fn yes() -> Value {
    json!({"action": "accept", "content": {"confirmed": true}})
}

fn ledger_lines(ledger: &PathBuf) -> Vec<String> {
    std::fs::read_to_string(ledger)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The first two rounds of a call to pay `number`: the first on `one`, the second on `two`.
/// Returns the final retry.
async fn two_rounds(one: &Client, two: &Client, number: &str) -> CallToolRequestParams {
    let first = asks(one, CallToolRequestParams::new("pay_invoice")).await;
    let second = asks(two, answering(&first, "invoice", invoice(number))).await;
    answering(&second, "pay", yes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fleet_runs_each_round_once() {
    let Some(mut redis) = TestRedis::own("a_fleet_runs_each_round_once") else {
        return;
    };
    let ledger = std::env::temp_dir().join(format!("elicit-fleet-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&ledger);
    let a = Process::start(&redis.url, &ledger);
    let b = Process::start(&redis.url, &ledger);
    let (on_a, on_b) = (connect(&a).await, connect(&b).await);

    // Round 1 on A, round 2 on B; the final retry to both at once.
    let last = two_rounds(&on_a, &on_b, "INV-1").await;
    let (from_a, from_b) = tokio::join!(text(&on_a, last.clone()), text(&on_b, last.clone()));
    let (from_a, from_b) = (from_a.unwrap(), from_b.unwrap());
    assert_eq!(from_a, "Paid 120 EUR for invoice INV-1.");
    assert_eq!(from_a, from_b, "both copies get the same result");
    // Its response lost, the client sends it once more: the same result, nothing paid again.
    assert_eq!(text(&on_a, last).await.unwrap(), from_a);
    assert_eq!(ledger_lines(&ledger), ["paid INV-1 120"]);

    // Redis goes away mid-call: the retry is refused, saying why, and nothing is paid.
    let last = two_rounds(&on_a, &on_b, "INV-2").await;
    redis.stop();
    for client in [&on_a, &on_b] {
        match text(client, last.clone()).await {
            Err(ServiceError::McpError(e)) => {
                assert_eq!(e.code, ErrorCode::INTERNAL_ERROR, "{e:?}");
                assert!(
                    e.message.contains("the state store is unavailable"),
                    "{e:?}"
                );
            }
            other => panic!("a retry ran without its store: {other:?}"),
        }
    }
    assert_eq!(ledger_lines(&ledger), ["paid INV-1 120"]);
    // Back again, the retry runs once.
    redis.start().unwrap();
    let mut paid = Err(ServiceError::UnexpectedResponse);
    for _ in 0..50 {
        paid = text(&on_b, last.clone()).await;
        if paid.is_ok() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(paid.unwrap(), "Paid 120 EUR for invoice INV-2.");
    assert_eq!(
        text(&on_a, last).await.unwrap(),
        "Paid 120 EUR for invoice INV-2."
    );
    assert_eq!(ledger_lines(&ledger), ["paid INV-1 120", "paid INV-2 120"]);

    // A process restarted between rounds still finishes the call.
    let first = asks(&on_a, CallToolRequestParams::new("pay_invoice")).await;
    drop(on_a);
    drop(a);
    let a = Process::start(&redis.url, &ledger);
    let on_a = connect(&a).await;
    let second = asks(&on_a, answering(&first, "invoice", invoice("INV-3"))).await;
    let done = text(&on_b, answering(&second, "pay", yes())).await.unwrap();
    assert_eq!(done, "Paid 120 EUR for invoice INV-3.");
    assert_eq!(ledger_lines(&ledger).len(), 3);
    let _ = std::fs::remove_file(&ledger);
}
