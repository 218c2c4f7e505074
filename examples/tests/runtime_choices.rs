//! The `runtime_choices` contract: line 1 the schema sent, line 2 the typed result or the error,
//! exit codes 0, 1 and 2.

#[allow(dead_code)] // Shared by the example tests; this one only finds the example.
mod common;

use std::process::Command;

use serde_json::{Value, json};

/// (exit code, stdout lines) of `runtime_choices --choices CHOICES [--reply REPLY]`.
fn run(choices: &str, reply: Option<Value>) -> (i32, Vec<String>) {
    let mut command = Command::new(common::example("runtime_choices"));
    command.args(["--choices", choices]);
    if let Some(reply) = reply {
        command.args(["--reply", &reply.to_string()]);
    }
    let out = command.output().expect("runtime_choices runs");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8");
    (
        out.status.code().unwrap_or(-1),
        stdout.lines().map(str::to_owned).collect(),
    )
}

#[test]
fn line_one_is_the_schema_with_exactly_the_choices_given() {
    for choices in ["a,b,c", "only", "zeta,alpha"] {
        let (code, lines) = run(choices, None);
        assert_eq!(code, 0);
        let schema: Value = serde_json::from_str(&lines[0]).unwrap();
        let given: Vec<&str> = choices.split(',').collect();
        assert_eq!(schema["properties"]["repo"]["type"], "string");
        assert_eq!(schema["properties"]["repo"]["enum"], json!(given));
        assert_eq!(schema["properties"]["repo"].get("oneOf"), None);
        assert_eq!(schema["properties"]["branch"]["type"], "string");
        assert_eq!(schema["properties"]["branch"]["minLength"], 1);
        assert_eq!(schema["required"], json!(["repo", "branch"]));
        assert!(!lines[0].contains(": "), "compact: {}", lines[0]);
    }
}

#[test]
fn a_valid_reply_is_written_back_typed() {
    let reply = json!({"action": "accept", "content": {"repo": "b", "branch": "main"}});
    let (code, lines) = run("a,b,c", Some(reply.clone()));
    assert_eq!(code, 0, "{lines:?}");
    assert_eq!(lines.len(), 2);
    assert_eq!(serde_json::from_str::<Value>(&lines[1]).unwrap(), reply);
    let (code, lines) = run("a,b,c", Some(json!({"action": "cancel"})));
    assert_eq!((code, lines[1].as_str()), (0, r#"{"action":"cancel"}"#));
}

#[test]
fn an_invalid_reply_names_every_property_and_exits_1() {
    let reply = json!({"action": "accept", "content": {"repo": "d", "branch": ""}});
    let (code, lines) = run("a,b,c", Some(reply));
    assert_eq!(code, 1);
    let error = lines[1..].join("\n");
    assert!(error.contains("`repo`"), "{error}");
    assert!(error.contains("`branch`"), "{error}");
    // A choice of another run is not a choice of this one.
    let reply = json!({"action": "accept", "content": {"repo": "x", "branch": "main"}});
    assert_eq!(run("x,y", Some(reply.clone())).0, 0);
    let (code, lines) = run("a,b,c", Some(reply));
    assert_eq!(code, 1);
    assert!(lines[1].contains("`repo`"), "{lines:?}");
}

#[test]
fn bad_arguments_exit_2() {
    for choices in ["", "a,,b", "a,a"] {
        assert_eq!(run(choices, None).0, 2, "{choices:?}");
    }
}
