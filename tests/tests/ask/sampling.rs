//! Sampling and roots through `Ask`: typed questions like forms, in straight-line code and in
//! one `all`, on every version, through the test kit.

use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::prelude::*;
use elicit_core::{SamplingRequest, StopReason};
use elicit_test::{Answer, ScriptedClient, TestError};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

/// What is your name?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Name {
    name: String,
}

const QUESTION: &str = "What is the capital of France?";

fn capital() -> SamplingRequest {
    SamplingRequest::new(100).user(QUESTION)
}

/// A tool per way of asking a form, a completion and the roots.
struct Research;

impl rmcp::ServerHandler for Research {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        let tool = request.name.to_string();
        ask.run(async {
            let (name, reply, roots) = match tool.as_str() {
                // One after another: a round each on 2026-07-28, sampling first.
                "straight" => {
                    let reply = ask.sample("capital", capital()).await?;
                    let name = ask.form::<Name>("name").await?;
                    let roots = ask.roots("roots").await?;
                    (name, reply, roots)
                }
                // Together: one round, or live requests sent at once.
                "together" => {
                    ask.all((
                        ask.form::<Name>("name"),
                        ask.sample("capital", capital()),
                        ask.roots("roots"),
                    ))
                    .await?
                }
                // What a client without a capability gives the body.
                "probe" => {
                    let sampled = match ask.sample("capital", capital()).await {
                        Ok(reply) => reply.text(),
                        Err(Interrupt::MissingCapability { capability, .. }) => {
                            format!("no {capability}")
                        }
                        Err(other) => return Err(other),
                    };
                    let listed = match ask.roots("roots").await {
                        Ok(roots) => roots.len().to_string(),
                        Err(Interrupt::MissingCapability { capability, .. }) => {
                            format!("no {capability}")
                        }
                        Err(other) => return Err(other),
                    };
                    return Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                        "{sampled}; {listed}"
                    ))]));
                }
                other => {
                    return Err(ErrorData::invalid_params(format!("no tool {other}"), None).into());
                }
            };
            let name = match name {
                ElicitResult::Accept(Name { name }) => name,
                _ => "nobody".into(),
            };
            let text = json!({
                "name": name,
                "capital": reply.text(),
                "model": reply.model,
                "ended": reply.stop_reason == Some(StopReason::EndTurn),
                "roots": roots.iter().map(|r| (r.uri.clone(), r.name.clone())).collect::<Vec<_>>(),
            });
            Ok(CallToolResult::success(vec![ContentBlock::text(
                text.to_string(),
            )]))
        })
        .await
        .into_response()
    }
}

fn script() -> Vec<Answer> {
    // Live requests carry no key and take the next answer: in the body's order.
    vec![
        Answer::for_key("capital", Answer::sampled("Paris.")),
        Answer::for_key("name", Answer::accept(json!({"name": "Ada"}))),
        Answer::for_key("roots", Answer::roots([("file:///work", "Work")])),
    ]
}

fn expected() -> Value {
    json!({
        "name": "Ada", "capital": "Paris.", "model": "scripted", "ended": true,
        "roots": [["file:///work", "Work"]],
    })
}

fn methods(outcome: &elicit_test::Transcript) -> Vec<&str> {
    outcome.asked.iter().map(|a| a.method.as_str()).collect()
}

#[tokio::test]
async fn a_form_a_completion_and_the_roots_in_straight_line_code_on_every_version() {
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .answers(script())
            .call_tool(Research, "straight", json!({}))
            .await
            .unwrap();
        assert_eq!(outcome.json(), Some(expected()), "{version}");
        // Each request asked once: the completion is carried in the sealed state, so the two
        // rounds after it never ask for it again.
        let asked = ["sampling/createMessage", "elicitation/create", "roots/list"];
        assert_eq!(methods(&outcome), asked, "{version}");
        assert_eq!(outcome.asked[0].message, QUESTION, "{version}");
        let calls = if version.has_input_requests() { 4 } else { 1 };
        assert_eq!(outcome.calls, calls, "{version}");
    }
}

#[tokio::test]
async fn one_all_asks_every_kind_in_one_round() {
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .answers(script())
            .call_tool(Research, "together", json!({}))
            .await
            .unwrap();
        assert_eq!(outcome.json(), Some(expected()), "{version}");
        assert_eq!(outcome.asked.len(), 3, "{version}");
        let calls = if version.has_input_requests() { 2 } else { 1 };
        assert_eq!(outcome.calls, calls, "{version}");
    }
}

#[tokio::test]
async fn a_client_without_the_capability_gives_the_same_interrupt_on_every_version() {
    for version in ProtocolVersion::ALL {
        let declared = serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        let client = ScriptedClient::new(version).with_capabilities(declared);
        let outcome = client
            .call_tool(Research, "probe", json!({}))
            .await
            .unwrap();
        assert_eq!(outcome.text(), "no sampling; no roots", "{version}");
        assert!(outcome.asked.is_empty(), "{version}: nothing was sent");
    }
    // Let through `?`, it ends the call: a tool error before 2026-07-28, -32021 on it.
    for version in ProtocolVersion::ALL {
        let declared = serde_json::from_value(json!({"elicitation": {"form": {}}})).unwrap();
        let client = ScriptedClient::new(version).with_capabilities(declared);
        let outcome = client.call_tool(Research, "straight", json!({})).await;
        match outcome {
            Ok(outcome) if !version.has_input_requests() => {
                assert!(outcome.is_error(), "{version}");
                assert_eq!(outcome.text(), "the client does not support sampling");
            }
            Err(TestError::Server(error)) if version.has_input_requests() => {
                assert_eq!(error.code.0, -32021);
                assert_eq!(
                    error.data.unwrap()["requiredCapabilities"],
                    json!({"sampling": {}})
                );
            }
            other => panic!("{version}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_refused_completion_ends_the_call() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(Answer::for_key("capital", Answer::refuse("not today")));
        match client.call_tool(Research, "straight", json!({})).await {
            // Live, the client's error answers the request: a tool error naming it.
            Ok(outcome) if !version.has_input_requests() => {
                assert!(outcome.is_error(), "{version}");
                assert!(outcome.text().contains("not today"), "{}", outcome.text());
            }
            // In rounds a refusal has no answer to send: the client ends the call.
            Err(TestError::Refused { key, message }) if version.has_input_requests() => {
                assert_eq!((key.as_str(), message.as_str()), ("capital", "not today"));
            }
            other => panic!("{version}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_completion_too_large_to_carry_is_refused_on_every_version() {
    let long = "x".repeat(Ask::MAX_CARRIED_REPLY);
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .answer(Answer::for_key("capital", Answer::sampled(long.clone())))
            .call_tool(Research, "straight", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        assert!(
            outcome
                .text()
                .contains("larger than the limit of 64 KiB for a whole answer"),
            "{version}: {}",
            outcome.text()
        );
        assert_eq!(outcome.asked.len(), 1, "{version}: nothing asked after it");
    }
}

#[tokio::test]
async fn a_reply_that_is_no_completion_names_the_rule() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(Answer::for_key(
            "capital",
            Answer::raw(json!({"role": "assistant", "content": {"type": "text", "text": "x"}})),
        ));
        match client.call_tool(Research, "straight", json!({})).await {
            Err(TestError::Server(error)) => {
                assert_eq!(error.code.0, -32602, "{version}");
                assert!(
                    error.message.contains("`capital` cannot be read"),
                    "{error:?}"
                );
                assert!(error.message.contains("model"), "{error:?}");
            }
            other => panic!("{version}: {other:?}"),
        }
    }
}
