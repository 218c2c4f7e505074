//! `form_client --answers` driving `stdio_server` end to end, on every protocol version: real
//! processes talking MCP over stdio through rmcp on both sides.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::VERSIONS;

fn run(protocol: &str, tool: &str, answers: serde_json::Value) -> (bool, String) {
    common::form_client("stdio_server", protocol, tool, answers)
}

#[test]
fn accept_with_mistakes_corrected_on_every_version() {
    let answers = serde_json::json!([{"accept": {"name": "Ada", "party_size": ["forty", "40", "4"], "seating": "2"}}]);
    for version in VERSIONS {
        let (ok, out) = run(version, "book_table", answers.clone());
        assert!(ok, "{version}: {out}");
        assert!(
            out.contains("── chez-ferris asks ──\nBook a table at Chez Ferris"),
            "{version}: {out}"
        );
        assert!(
            out.contains("✗ `party_size` must be of type integer; received \"forty\""),
            "{out}"
        );
        assert!(
            out.contains("✗ `party_size` must be at most 12 (maximum); received 40"),
            "{out}"
        );
        assert!(out.contains("  1) Indoor\n  2) Outdoor"), "{out}");
        assert!(
            out.contains(
                r#"{"action":"accept","content":{"name":"Ada","party_size":4,"seating":"Outdoor"}}"#
            ),
            "{version}: {out}"
        );
        let order: Vec<usize> = ["Name [", "Party size [", "Seating [", "Notes ["]
            .iter()
            .map(|f| out.find(f).unwrap())
            .collect();
        assert!(order.is_sorted(), "fields in declaration order: {out}");
    }
}

#[test]
fn decline_and_cancel_on_every_version() {
    for version in VERSIONS {
        for (answer, expected) in [
            ("decline", r#"{"action":"decline"}"#),
            ("cancel", r#"{"action":"cancel"}"#),
        ] {
            let (ok, out) = run(version, "book_table", serde_json::json!([answer]));
            assert!(ok, "{version}: {out}");
            assert!(out.contains(expected), "{version} {answer}: {out}");
        }
        // End of input in a field is a cancel, as Esc would be.
        let (ok, out) = run(
            version,
            "book_table",
            serde_json::json!([{"accept": {"name": "Ada", "party_size": []}}]),
        );
        assert!(
            ok && out.contains(r#"{"action":"cancel"}"#),
            "{version}: {out}"
        );
    }
}

#[test]
fn invalid_content_is_a_tool_error_naming_every_property() {
    let raw = serde_json::json!([{"raw": {"name": "", "party_size": 40, "seating": "Roof"}}]);
    for version in VERSIONS {
        let (ok, out) = run(version, "book_table", raw.clone());
        assert!(!ok, "a tool error: {out}");
        assert!(out.contains("book_table failed"), "{out}");
        for line in [
            "`name` must be at least 1 character long (minLength)",
            "`party_size` must be at most 12 (maximum)",
            "`seating` must be one of the listed choices (enum)",
        ] {
            assert!(out.contains(line), "{version}: {line} in {out}");
        }
    }
}

#[test]
fn the_retry_tool_asks_again() {
    let answers = serde_json::json!(["cancel", {"raw": {"name": "Ada"}}, {"accept": {"name": "Ada", "party_size": "2", "seating": "1"}}]);
    let (ok, out) = run("2025-11-25", "book_table_patiently", answers);
    assert!(ok, "{out}");
    assert!(out.contains("This was dismissed before"), "{out}");
    assert!(
        out.contains(
            "(The last answer could not be used: Party size is required; Seating is required. \
             Please correct it and submit again.)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            r#"{"action":"accept","content":{"name":"Ada","party_size":2,"seating":"Indoor"}}"#
        ),
        "{out}"
    );
    assert!(
        out.contains("attempts: cancelled, invalid (`party_size` is required but missing; "),
        "{out}"
    );
    assert!(
        !out.contains("ElicitError"),
        "no Debug output reaches the user: {out}"
    );
}

#[test]
fn url_mode() {
    for version in ["2025-11-25", "2026-07-28"] {
        let (ok, out) = run(version, "connect_account", serde_json::json!(["accept"]));
        assert!(ok, "{version}: {out}");
        assert!(out.contains("asks you to open a page"), "{out}");
        assert!(
            out.contains("https://accounts.example.com/connect?client=chez-ferris"),
            "{out}"
        );
        assert!(out.contains(r#"{"action":"accept"}"#), "{version}: {out}");
    }
    let (ok, out) = run(
        "2025-06-18",
        "connect_account",
        serde_json::json!(["accept"]),
    );
    assert!(
        !ok && out.contains("URL mode elicitation is not part of MCP 2025-06-18"),
        "{out}"
    );
}

#[test]
fn run_time_choices_and_a_confirmation_through_tool_arguments() {
    let tables = serde_json::json!({"tables": ["window", "terrace"]});
    for version in VERSIONS {
        let answers = serde_json::json!([
            // "bar" is a table, but not one offered on this call; then the second choice.
            {"accept": {"table": ["bar", "2"], "party_size": "3"}},
            {"accept": {"confirmed": "true"}}
        ]);
        let (ok, out) = common::form_client_with(
            "stdio_server",
            version,
            "choose_table",
            Some(tables.clone()),
            answers,
        );
        assert!(ok, "{version}: {out}");
        assert!(
            out.contains("  1) window\n  2) terrace"),
            "{version}: {out}"
        );
        assert!(
            out.contains(r#"{"action":"accept","content":{"table":"terrace","party_size":3}}"#),
            "{version}: {out}"
        );
        assert!(
            out.contains("Book the terrace table for 3?"),
            "{version}: {out}"
        );
        assert!(out.contains("booked: true"), "{version}: {out}");
    }
    // Without the arguments the tool says what it needs.
    let (ok, out) = run("2025-11-25", "choose_table", serde_json::json!([]));
    assert!(!ok, "{out}");
}

/// `stdio_server --http` on a port the system chose, stopped when dropped.
struct HttpServer {
    child: std::process::Child,
    url: String,
}

impl HttpServer {
    fn start() -> Self {
        use std::io::BufRead;
        let mut child = std::process::Command::new(common::example("stdio_server"))
            .args(["--http", "127.0.0.1:0"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("stdio_server starts");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        std::io::BufReader::new(stdout)
            .read_line(&mut line)
            .expect("stdio_server prints its URL");
        HttpServer {
            child,
            url: line.trim().to_owned(),
        }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn streamable_http_on_every_version() {
    let server = HttpServer::start();
    assert!(
        server.url.starts_with("http://127.0.0.1:") && server.url.ends_with("/mcp"),
        "{}",
        server.url
    );
    let url = ["--url".into(), server.url.clone().into()];
    let tables = serde_json::json!({"tables": ["window", "terrace"]});
    for version in VERSIONS {
        let answers = serde_json::json!([{"accept": {"name": "Ada", "party_size": ["40", "4"], "seating": "2"}}]);
        let (ok, out) = common::form_client_to(&url, version, "book_table", None, answers);
        assert!(ok, "{version}: {out}");
        assert!(out.contains("── chez-ferris asks ──"), "{version}: {out}");
        assert!(
            out.contains("✗ `party_size` must be at most 12 (maximum); received 40"),
            "{version}: {out}"
        );
        assert!(
            out.contains(
                r#"{"action":"accept","content":{"name":"Ada","party_size":4,"seating":"Outdoor"}}"#
            ),
            "{version}: {out}"
        );

        let answers = serde_json::json!(["decline"]);
        let (ok, out) = common::form_client_to(&url, version, "book_table", None, answers);
        assert!(
            ok && out.contains(r#"{"action":"decline"}"#),
            "{version}: {out}"
        );

        // Two questions in one call, with the tool's arguments.
        let answers = serde_json::json!([
            {"accept": {"table": "1", "party_size": "2"}},
            {"accept": {"confirmed": "false"}}
        ]);
        let (ok, out) =
            common::form_client_to(&url, version, "choose_table", Some(tables.clone()), answers);
        assert!(ok, "{version}: {out}");
        assert!(
            out.contains(r#"{"action":"accept","content":{"table":"window","party_size":2}}"#),
            "{version}: {out}"
        );
        assert!(out.contains("booked: false"), "{version}: {out}");
    }
}

#[test]
fn the_server_command_may_follow_the_options_without_a_separator() {
    let server = [common::example("stdio_server").into_os_string()];
    let answers = serde_json::json!(["cancel"]);
    let (ok, out) = common::form_client_to(&server, "2026-07-28", "book_table", None, answers);
    assert!(ok && out.contains(r#"{"action":"cancel"}"#), "{out}");
}

#[test]
fn a_server_is_named_once() {
    let usage = |args: &[&str]| {
        let out = std::process::Command::new(common::example("form_client"))
            .args(args)
            .output()
            .expect("form_client runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let stdio_server = common::example("stdio_server");
    let stdio_server = stdio_server.to_str().expect("a UTF-8 path");
    for args in [
        vec![],
        vec!["--tool", "book_table"],
        vec!["--url", "http://127.0.0.1:1/mcp", "--", stdio_server],
        vec!["--url", "http://127.0.0.1:1/mcp", stdio_server],
        vec!["--bogus", stdio_server],
    ] {
        let (code, stderr) = usage(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("usage: form_client"),
            "{args:?}: {stderr}"
        );
    }
}
