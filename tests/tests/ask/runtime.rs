//! Run-time choices (`Ask::form_with`), confirmations (`Ask::confirm`) and run-time schemas
//! (`Ask::schema`), one body on every version.

use elicit_core::ProtocolVersion;
use rmcp::model::*;
use serde_json::{Value, json};

use crate::harness::*;

fn pick_params(repos: &[&str]) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new("pick".to_owned());
    params.arguments = match json!({"repos": repos}) {
        Value::Object(map) => Some(map),
        _ => None,
    };
    params
}

async fn pick(client: Client, repos: &[&str]) -> (Value, Vec<ElicitRequestParams>) {
    let seen = client.seen.clone();
    let connected = connect_to(Server::new(), client).await;
    let (text, is_error) = call_with(&connected, pick_params(repos))
        .await
        .expect("the call succeeds");
    assert!(!is_error, "{text}");
    let seen = seen.lock().unwrap().clone();
    (serde_json::from_str(&text).expect("JSON"), seen)
}

fn schema_of(params: &ElicitRequestParams) -> Value {
    match params {
        ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } => serde_json::to_value(requested_schema).unwrap(),
        other => panic!("not a form: {other:?}"),
    }
}

#[tokio::test]
async fn run_time_choices_and_a_confirmation_on_every_version() {
    for version in ALL {
        let client = Client::new(version)
            .answers(PICK, [accept(json!({"repo": "web", "branch": "main"}))])
            .answers(OPEN, [accept(json!({"confirmed": true}))]);
        let (result, seen) = pick(client, &["api", "web"]).await;
        assert_eq!(
            result,
            json!({"pick": {"action": "accept", "content": {"repo": "web", "branch": "main"}}, "open": true}),
            "{version}"
        );
        // The schema sent holds this call's choices, and the confirmation is one boolean.
        let sent = schema_of(&seen[0]);
        assert_eq!(
            sent["properties"]["repo"]["enum"],
            json!(["api", "web"]),
            "{version}"
        );
        let confirm = schema_of(&seen[1]);
        assert_eq!(confirm["properties"]["confirmed"]["type"], "boolean");
        assert_eq!(confirm["required"], json!(["confirmed"]));
        assert_eq!(message_of(&seen[1]), OPEN);
    }
}

#[tokio::test]
async fn a_choice_of_another_call_is_refused_on_every_version() {
    for version in ALL {
        // "cli" was valid for another call; this call offers api and web only.
        let client =
            Client::new(version).answers(PICK, [accept(json!({"repo": "cli", "branch": "main"}))]);
        let connected = connect_to(Server::new(), client).await;
        let (text, is_error) = call_with(&connected, pick_params(&["api", "web"]))
            .await
            .expect("a tool result");
        assert!(is_error, "{version}: {text}");
        assert!(text.contains("repo"), "{version}: {text}");
    }
}

#[tokio::test]
async fn an_unchecked_box_is_not_a_confirmation() {
    for version in ALL {
        let client = Client::new(version)
            .answers(PICK, [accept(json!({"repo": "api", "branch": "x"}))])
            .answers(OPEN, [accept(json!({"confirmed": false}))]);
        let (result, _) = pick(client, &["api"]).await;
        assert_eq!(result["open"], false, "{version}");
        let client = Client::new(version)
            .answers(PICK, [accept(json!({"repo": "api", "branch": "x"}))])
            .answers(OPEN, [decline()]);
        let (result, _) = pick(client, &["api"]).await;
        assert_eq!(result["open"], false, "{version}");
    }
}

#[tokio::test]
async fn choices_the_form_cannot_take_end_the_call_before_anything_is_sent() {
    let client = Client::new(ProtocolVersion::V2025_11_25);
    let seen = client.seen.clone();
    let connected = connect_to(Server::new(), client).await;
    let outcome = call_with(&connected, pick_params(&[])).await;
    let text = match outcome {
        Ok((text, is_error)) => {
            assert!(is_error, "{text}");
            text
        }
        Err(e) => e,
    };
    assert!(text.contains("at least one choice"), "{text}");
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_run_time_schema_is_answered_as_content_on_every_version() {
    for version in ALL {
        let client = Client::new(version).answers(SIZE, [accept(json!({"size": "m", "count": 3}))]);
        let connected = connect_to(Server::new(), client).await;
        let result = call_json(&connected, "sized").await;
        assert_eq!(
            result["size"],
            json!({"action": "accept", "content": {"size": "m", "count": 3}}),
            "{version}"
        );
        let client = Client::new(version).answers(SIZE, [accept(json!({"size": "xl"}))]);
        let connected = connect_to(Server::new(), client).await;
        let (text, is_error) = call(&connected, "sized").await.expect("a tool result");
        assert!(is_error, "{version}: {text}");
        assert!(text.contains("size"), "{text}");
    }
}
