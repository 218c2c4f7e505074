//! `http_server`, the server the guide shows, tested as it ships: started as a process, and
//! called over streamable HTTP by the test kit on every protocol version. Copy it to test your
//! own HTTP server.

#[allow(dead_code)] // Shared with the other tests; this one finds an example with it.
#[path = "../../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, HttpServer, ScriptedClient};
use serde_json::json;

/// The example's process, killed when dropped, and the URL it serves.
struct Served(Child, String);

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve() -> Served {
    serve_with(Stdio::inherit())
}

fn serve_with(stderr: Stdio) -> Served {
    let mut child = Command::new(common::example("http_server"))
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("http_server starts");
    let stdout = child.stdout.take().expect("its stdout");
    let mut url = String::new();
    BufReader::new(stdout).read_line(&mut url).expect("its URL");
    Served(child, url.trim().to_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn the_http_server_pages_once_approved_on_every_version() {
    let served = serve();
    let client = ScriptedClient::new(ProtocolVersion::LATEST)
        .answer(Answer::accept(json!({"team": "sre", "severity": 4})))
        .answer(Answer::accept(json!({"confirmed": true})));
    let outcomes = client
        .call_tool_on_every_version(|| HttpServer::new(served.1.clone()), "page", json!({}))
        .await
        .unwrap();
    assert_eq!(outcomes.len(), ProtocolVersion::ALL.len());
    for (version, outcome) in outcomes {
        let text = outcome.text();
        assert!(
            text.starts_with("Paged sre (severity 4), key "),
            "{version}: {text}"
        );
        assert_eq!(
            outcome.messages(),
            ["Which team should be paged?", "Page sre at severity 4?"],
            "{version}"
        );
        // On 2026-07-28 the questions are rounds of one call over HTTP: two, then the result.
        let calls = if version.has_input_requests() { 3 } else { 1 };
        assert_eq!(outcome.calls, calls, "{version}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_decline_over_http_pages_nobody() {
    let served = serve();
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .answer(Answer::decline())
            .call_tool(HttpServer::new(served.1.clone()), "page", json!({}))
            .await
            .unwrap();
        assert_eq!(outcome.text(), "Nobody paged.", "{version}");
    }
}

/// The guide shows this server whole: its text is the example's, less the module's docs.
#[test]
fn the_guide_shows_the_server_as_it_is() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let guide = std::fs::read_to_string(format!("{root}/elicit-core/src/guide.md")).unwrap();
    let example =
        std::fs::read_to_string(format!("{root}/examples/rmcp/examples/http_server.rs")).unwrap();
    let code: Vec<&str> = example.lines().filter(|l| !l.starts_with("//!")).collect();
    let code = code.join("\n");
    assert!(
        guide.contains(code.trim()),
        "the guide's server differs from the example"
    );
}

/// An answer too large for the transport ends its request with 413, before any tool sees it,
/// and the server says so where its operator looks; the connection is not dropped unanswered.
#[test]
fn a_request_over_the_body_limit_is_answered_413_and_logged() {
    use std::io::{Read, Write};
    let mut served = serve_with(Stdio::piped());
    let address = served
        .1
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"page","arguments":{{}},"pad":"{}"}}}}"#,
        "x".repeat(6 << 20)
    );
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    // The server may answer before the whole body is sent.
    let _ = stream.write_all(body.as_bytes());
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let response = String::from_utf8_lossy(&response);
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(
        response.ends_with("an answer to a form must stay within 1 MiB"),
        "{response}"
    );
    let stderr = served.0.stderr.take().unwrap();
    let mut line = String::new();
    BufReader::new(stderr).read_line(&mut line).unwrap();
    assert!(line.contains("over the body limit"), "{line}");
}
