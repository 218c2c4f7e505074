//! A derived form whose choices are known only at run time.
//!
//! ```sh
//! cargo run -p elicit-examples --example runtime_choices -- --choices a,b,c --reply '<reply JSON>'
//! ```
//!
//! - `--choices`: a comma-separated list of repositories, at least one.
//! - Line 1 of stdout: the requestedSchema sent, as compact JSON: `repo`, a required
//!   single-select of exactly those choices in that order (a plain `enum`), and `branch`, a
//!   required string of at least one character.
//! - With `--reply`, the reply is read against that schema: when valid, line 2 is the typed
//!   result written back in wire form and the exit code is 0; when not, the error (every
//!   violation, naming each property) goes to stdout and the exit code is 1. A `repo` that was a
//!   choice on another run is refused.
//! - Bad arguments: a message on stderr, exit code 2.

use std::process::ExitCode;

use elicit_core::{Elicit, ElicitResult, Form};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Open a pull request.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct PullRequest {
    /// The repository, one of yours.
    repo: String,
    /// The branch to merge.
    #[schemars(length(min = 1))]
    branch: String,
}

const USAGE: &str = "usage: runtime_choices --choices a,b,c [--reply '<reply JSON>']";

fn main() -> ExitCode {
    let (choices, reply) = match arguments(std::env::args().skip(1)) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("{message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let form = match Form::<PullRequest>::new().choices("repo", choices) {
        Ok(form) => form,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match serde_json::to_string(form.schema()) {
        Ok(schema) => println!("{schema}"),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    }
    let Some(reply) = reply else {
        return ExitCode::SUCCESS;
    };
    match form.parse_reply_json(&reply) {
        Ok(result) => {
            let wire = serde_json::to_string(&result).unwrap_or_else(|e| e.to_string());
            println!("{wire}");
            if let ElicitResult::Accept(pr) = &result {
                eprintln!("opening a pull request from {} on {}", pr.branch, pr.repo);
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// `--choices` (split on commas, at least one) and `--reply`, if given.
fn arguments(
    mut args: impl Iterator<Item = String>,
) -> Result<(Vec<String>, Option<String>), String> {
    let (mut choices, mut reply) = (None, None);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--choices" => choices = Some(value),
            "--reply" => reply = Some(value),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    let choices = choices.ok_or("--choices is required")?;
    let choices: Vec<String> = choices.split(',').map(str::to_owned).collect();
    if choices.iter().any(String::is_empty) {
        return Err("--choices needs at least one entry, and no empty ones".into());
    }
    Ok((choices, reply))
}
