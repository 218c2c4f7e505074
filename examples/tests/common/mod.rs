//! Finding the built examples, and running `form_client --answers` against a server.
//!
//! Cargo builds a package's examples before running its tests; they sit next to the test
//! binary's folder.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const VERSIONS: [&str; 3] = ["2025-06-18", "2025-11-25", "2026-07-28"];

/// The path of the built example `name`.
pub fn example(name: &str) -> PathBuf {
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

/// Runs `form_client` with `answers` against the example `server`, calling `tool`, and returns
/// (success, stdout).
pub fn form_client(
    server: &str,
    protocol: &str,
    tool: &str,
    answers: serde_json::Value,
) -> (bool, String) {
    form_client_with(server, protocol, tool, None, answers)
}

/// [`form_client`] passing `arguments` to the tool.
pub fn form_client_with(
    server: &str,
    protocol: &str,
    tool: &str,
    arguments: Option<serde_json::Value>,
    answers: serde_json::Value,
) -> (bool, String) {
    let server = ["--".into(), example(server).into_os_string()];
    form_client_to(&server, protocol, tool, arguments, answers)
}

/// Runs `form_client` with `answers`, naming its server with `server` (the arguments that end
/// its command line), calling `tool`, and returns (success, stdout).
pub fn form_client_to(
    server: &[OsString],
    protocol: &str,
    tool: &str,
    arguments: Option<serde_json::Value>,
    answers: serde_json::Value,
) -> (bool, String) {
    // Tests run in parallel: each run gets its own file.
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let n = RUNS.fetch_add(1, Ordering::SeqCst);
    let file = std::env::temp_dir().join(format!("elicit-answers-{}-{n}.json", std::process::id()));
    std::fs::write(&file, answers.to_string()).unwrap();
    let output = Command::new(example("form_client"))
        .args(["--protocol", protocol, "--answers"])
        .arg(&file)
        .args(["--tool", tool])
        .args(
            arguments
                .map(|a| vec!["--arguments".to_owned(), a.to_string()])
                .unwrap_or_default(),
        )
        .args(server)
        .output()
        .expect("form_client runs");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.success(), stdout)
}
