//! What the fleet's tests share: `fleet_server` processes, the payment service's books they
//! write, and one call's rounds over HTTP on 2026-07-28.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use rmcp::ServiceError;
use rmcp::model::*;
use serde_json::{Value, json};

use super::common;
use super::http::Client;

/// The secret every process of the fleet shares.
pub const SECRET: &str = "a fleet secret of thirty-two bytes or more, for tests";

/// One `fleet_server` process, killed (`kill -9`) when dropped.
pub struct Process {
    child: Child,
    pub url: String,
    /// Where it serves, to start it again there.
    pub address: String,
}

impl Process {
    /// A process on `address` (`127.0.0.1:0` for any port), paying into `ledger`, its
    /// payments taking `pay_ms` to confirm, its log appended to `log` (or the test's stderr).
    pub fn start(
        redis: &str,
        ledger: &Path,
        address: &str,
        pay_ms: u64,
        log: Option<&Path>,
    ) -> Process {
        Process::start_with(redis, ledger, address, pay_ms, log, &[])
    }

    /// [`start`](Process::start), with more of its environment (`FLEET_LEASE_MS`, say).
    pub fn start_with(
        redis: &str,
        ledger: &Path,
        address: &str,
        pay_ms: u64,
        log: Option<&Path>,
        env: &[(&str, String)],
    ) -> Process {
        let stderr = match log {
            Some(path) => Stdio::from(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .expect("a log file"),
            ),
            None => Stdio::inherit(),
        };
        let mut child = Command::new(common::example("fleet_server"))
            .arg(address)
            .env("FLEET_SECRET", SECRET)
            .env("FLEET_REDIS_URL", redis)
            .env("FLEET_LEDGER", ledger)
            .env("FLEET_PAY_MS", pay_ms.to_string())
            .envs(env.iter().map(|(name, value)| (*name, value.as_str())))
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("fleet_server starts");
        let mut url = String::new();
        BufReader::new(child.stdout.take().expect("its stdout"))
            .read_line(&mut url)
            .expect("it prints its URL");
        let url = url.trim().to_owned();
        let address = url
            .trim_start_matches("http://")
            .trim_end_matches("/mcp")
            .to_owned();
        Process {
            child,
            url,
            address,
        }
    }

    /// Kills it at once, as `kill -9` does: nothing it holds is let go.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// An empty directory for the payment service's books.
pub fn ledger(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("elicit-ledger-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a ledger directory");
    dir
}

/// Every payment made: the invoices, each with how many payments it had.
pub fn payments(ledger: &Path) -> BTreeMap<String, usize> {
    let mut paid = BTreeMap::new();
    for entry in std::fs::read_dir(ledger).expect("the ledger") {
        let entry = entry.expect("an entry");
        if entry.file_name() == "attempts" {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let invoice = text.split(' ').next().unwrap_or_default().to_owned();
        *paid.entry(invoice).or_default() += 1;
    }
    paid
}

/// How many times a body reached the payment, under any key.
pub fn attempts(ledger: &Path) -> usize {
    std::fs::read_to_string(ledger.join("attempts"))
        .unwrap_or_default()
        .lines()
        .count()
}

/// The bodies that reached the payment, by invoice: how many ran as a first run of their
/// round, and how many as a take-over.
pub fn bodies(ledger: &Path) -> BTreeMap<String, (usize, usize)> {
    let mut bodies: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let text = std::fs::read_to_string(ledger.join("attempts")).unwrap_or_default();
    for line in text.lines() {
        let invoice = line.split(' ').next().unwrap_or_default().to_owned();
        let counts = bodies.entry(invoice).or_default();
        match line.ends_with(" taken-over") {
            true => counts.1 += 1,
            false => counts.0 += 1,
        }
    }
    bodies
}

/// The call's next request: the answer to the round `previous` asked, with its state.
pub fn answering(previous: &InputRequiredResult, key: &str, reply: Value) -> CallToolRequestParams {
    let mut retry = CallToolRequestParams::new("pay_invoice");
    retry.input_responses = Some(serde_json::from_value(json!({ key: reply })).unwrap());
    retry.request_state = previous.request_state.clone();
    retry
}

/// The keys a round asks for, and the message of the first.
pub fn asked(round: &InputRequiredResult) -> (Vec<String>, String) {
    let requests = round.input_requests.as_ref().expect("requests");
    let keys = requests.keys().cloned().collect();
    let text = serde_json::to_value(requests).unwrap();
    let message = text
        .as_object()
        .and_then(|r| r.values().next())
        .and_then(|r| r["params"]["message"].as_str())
        .unwrap_or_default()
        .to_owned();
    (keys, message)
}

pub async fn asks(client: &Client, request: CallToolRequestParams) -> InputRequiredResult {
    match client.call_tool_once(request).await {
        Ok(CallToolResponse::InputRequired(round)) => round,
        other => panic!("expected a round, got {other:?}"),
    }
}

/// The text of a complete result.
pub fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|c| c.as_text())
        .map(|t| t.text.clone())
        .collect()
}

pub async fn text(client: &Client, request: CallToolRequestParams) -> Result<String, ServiceError> {
    match client.call_tool_once(request).await? {
        CallToolResponse::Complete(result) => Ok(text_of(&result)),
        other => panic!("expected a result, got {other:?}"),
    }
}

pub fn invoice(number: &str) -> Value {
    json!({"action": "accept", "content": {"number": number, "amount": 120}})
}

pub fn yes() -> Value {
    json!({"action": "accept", "content": {"confirmed": true}})
}
