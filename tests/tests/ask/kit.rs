//! The test kit itself, on a server written for these tests only: the same script on every
//! version, its errors, and what an outcome records.

use std::time::{Duration, Instant};

use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::prelude::*;
use elicit_test::{Answer, ScriptedClient, TestError};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

/// What should we call you?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Name {
    #[schemars(length(min = 1, max = 20))]
    name: String,
}

/// Greets whoever answers; panics, reports progress or fails on request.
struct Greeter;

impl rmcp::ServerHandler for Greeter {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "greet" => {}
            "panic" => panic!("the greeter fell over"),
            "progress" => {
                let token = context.meta.get_progress_token().expect("a progress token");
                let _ = context
                    .peer
                    .notify_progress(
                        ProgressNotificationParam::new(token, 1.0).with_message("halfway"),
                    )
                    .await;
            }
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        }
        let ask = Ask::new(&request, &context);
        ask.run(async {
            let text = match ask.form::<Name>("name").await? {
                ElicitResult::Accept(Name { name }) => format!("Hello, {name}!"),
                ElicitResult::Decline => "No name given.".to_owned(),
                ElicitResult::Cancel => "Maybe later.".to_owned(),
            };
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        })
        .await
        .into_response()
    }
}

#[tokio::test]
async fn the_same_script_gives_the_same_result_on_every_version() {
    for answer in [
        Answer::accept(json!({"name": "Ada"})),
        Answer::decline(),
        Answer::cancel(),
    ] {
        let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(answer);
        let outcomes = client
            .call_tool_on_every_version(|| Greeter, "greet", Value::Null)
            .await
            .unwrap();
        let versions: Vec<_> = outcomes.iter().map(|(v, _)| *v).collect();
        assert_eq!(versions, ProtocolVersion::ALL);
        let first = &outcomes[0].1.result;
        for (version, outcome) in &outcomes {
            assert_eq!(&outcome.result, first, "{version}");
            assert_eq!(outcome.messages(), ["What should we call you?"]);
        }
    }
    // By hand, the documented loop does the same.
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(Answer::accept(json!({"name": "Ada"})));
        let outcome = client.call_tool(Greeter, "greet", json!({})).await.unwrap();
        assert_eq!(outcome.text(), "Hello, Ada!");
        assert_eq!(
            outcome.calls,
            if version.has_input_requests() { 2 } else { 1 }
        );
        assert_eq!(
            outcome.request_states.len(),
            usize::from(version.has_input_requests())
        );
    }
}

#[tokio::test]
async fn a_question_after_the_script_ran_out_names_it_at_once() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version);
        let outcome = tokio::time::timeout(
            Duration::from_secs(30),
            client.call_tool(Greeter, "greet", json!({})),
        )
        .await
        .expect("the kit never hangs");
        match outcome {
            Err(TestError::NoAnswer { message }) => {
                assert_eq!(message, "What should we call you?", "{version}")
            }
            other => panic!("{version}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn errors_of_the_server_and_of_the_call() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version);
        match client.call_tool(Greeter, "wave", json!({})).await {
            Err(TestError::Server(e)) => {
                assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
                assert_eq!(e.message, "no tool wave");
            }
            other => panic!("{version}: {other:?}"),
        }
        match client.call_tool(Greeter, "panic", json!({})).await {
            Err(TestError::Panicked { message }) => {
                assert_eq!(message, "the greeter fell over", "{version}")
            }
            other => panic!("{version}: {other:?}"),
        }
        let error = client
            .call_tool(Greeter, "greet", json!([1]))
            .await
            .unwrap_err();
        assert!(matches!(error, TestError::Arguments(_)), "{error:?}");
        assert_eq!(
            error.to_string(),
            "a tool's arguments are a JSON object or null, not [1]"
        );
    }
}

/// A server that serves 2025-06-18 only.
struct Old;

impl rmcp::ServerHandler for Old {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    fn supported_protocol_versions(
        &self,
    ) -> std::borrow::Cow<'static, [rmcp::model::ProtocolVersion]> {
        std::borrow::Cow::Owned(vec![rmcp::model::ProtocolVersion::V_2025_06_18])
    }
}

#[tokio::test]
async fn a_server_that_refuses_the_version_is_an_error_not_a_hang() {
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let outcome = tokio::time::timeout(
            Duration::from_secs(30),
            ScriptedClient::new(version).call_tool(Old, "greet", json!({})),
        )
        .await
        .expect("the kit never hangs");
        assert!(
            matches!(
                outcome,
                Err(TestError::Version { .. } | TestError::Connection(_))
            ),
            "{version}: {outcome:?}"
        );
    }
}

#[tokio::test]
async fn a_person_who_takes_a_while_and_the_progress_received() {
    let delay = Duration::from_millis(300);
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(Answer::accept(json!({"name": "Ada"})).after(delay));
        let start = Instant::now();
        let outcome = client
            .call_tool(Greeter, "progress", json!({}))
            .await
            .unwrap();
        assert!(start.elapsed() >= delay, "{version}");
        assert_eq!(outcome.text(), "Hello, Ada!");
        // The notification of the first call, and on 2026-07-28 of the retry too.
        let messages: Vec<_> = outcome
            .progress
            .iter()
            .map(|p| p.message.as_deref())
            .collect();
        let calls = outcome.calls as usize;
        assert_eq!(messages, vec![Some("halfway"); calls], "{version}");
    }
}

#[test]
fn versions_of_either_crate_and_answers() {
    let rmcp_version = rmcp::model::ProtocolVersion::V_2025_06_18;
    assert_eq!(
        ScriptedClient::on(rmcp_version.as_str()).unwrap().version(),
        ProtocolVersion::V2025_06_18
    );
    let newest = ScriptedClient::on(rmcp::model::ProtocolVersion::V_2026_07_28.as_str()).unwrap();
    assert_eq!(newest.version(), ProtocolVersion::V2026_07_28);
    // Sent exactly as given.
    let answer = Answer::accept(json!({"name": 7, "extra": true}));
    assert_eq!(
        answer.reply(),
        &json!({"action": "accept", "content": {"name": 7, "extra": true}})
    );
    assert_eq!(Answer::accept_url().reply(), &json!({"action": "accept"}));
    assert_eq!(
        Answer::decline().after(Duration::from_secs(2)).delay(),
        Duration::from_secs(2)
    );
}

/// How long, by rmcp's own typed path: its default of 0 breaks its own minimum.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Hours {
    #[schemars(range(min = 1, max = 24))]
    #[serde(default)]
    hours: u8,
}

rmcp::elicit_safe!(Hours);

/// Asks with rmcp's own `elicit`, which sends the schema as schemars writes it.
struct Untyped;

impl rmcp::ServerHandler for Untyped {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        _request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let hours = context.peer.elicit::<Hours>("How long?").await;
        let text = format!("{hours:?}");
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]).into())
    }
}

#[tokio::test]
async fn a_form_whose_default_breaks_its_rules_fails_the_call() {
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let client = ScriptedClient::new(version).answer(Answer::accept(json!({"hours": 3})));
        match client.call_tool(Untyped, "hours", json!({})).await {
            Err(TestError::BrokenDefault {
                message,
                property,
                why,
            }) => {
                assert_eq!(
                    (message.as_str(), property.as_str()),
                    ("How long?", "hours")
                );
                assert!(why.contains("at least 1"), "{why}");
            }
            other => panic!("{version}: {other:?}"),
        }
    }
    // Every form of this crate's keeps its defaults within their rules, so its calls pass.
    let client = ScriptedClient::new(ProtocolVersion::V2025_11_25)
        .answer(Answer::accept(json!({"name": "Ada"})));
    assert!(client.call_tool(Greeter, "greet", json!({})).await.is_ok());
}
