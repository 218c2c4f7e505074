//! `form_client --answers` driving `stdio_server` end to end, on every protocol version: real
//! processes talking MCP over stdio through rmcp on both sides.
//!
//! Cargo builds a package's examples before running its tests; this finds them next to the
//! test binary.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary has a path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/<profile>/deps");
    let path = dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing; cargo test builds examples first",
        path.display()
    );
    path
}

/// Runs the client with `answers` against the server and returns (success, stdout).
fn run(protocol: &str, tool: &str, answers: serde_json::Value) -> (bool, String) {
    // Tests run in parallel: each run gets its own file.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::SeqCst);
    let file = std::env::temp_dir().join(format!("elicit-answers-{}-{n}.json", std::process::id()));
    std::fs::write(&file, answers.to_string()).unwrap();
    let output = Command::new(example("form_client"))
        .args(["--protocol", protocol, "--answers"])
        .arg(&file)
        .args(["--tool", tool, "--"])
        .arg(example("stdio_server"))
        .output()
        .expect("form_client runs");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.success(), stdout)
}

const VERSIONS: [&str; 3] = ["2025-06-18", "2025-11-25", "2026-07-28"];

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
        let order: Vec<usize> = ["name [", "party_size [", "seating [", "notes ["]
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
        out.contains("The last answer could not be used:\n- `party_size` is required but missing"),
        "{out}"
    );
    assert!(
        out.contains(
            r#"{"action":"accept","content":{"name":"Ada","party_size":2,"seating":"Indoor"}}"#
        ),
        "{out}"
    );
    assert!(out.contains("attempts: Cancelled, Invalid("), "{out}");
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
