//! A new user's rmcp deploy server over streamable HTTP, with its key made where it should not
//! be: in the service's factory closure (one per session), or in the tool (one per call).
//! Either way a final retry sent again, on another session, deploys once, on 2026-07-28; and
//! so does a tool that fails with rmcp's own error after it deployed.

#[allow(dead_code)] // Shared with the other HTTP tests; this one serves with its own factory.
#[path = "support/http.rs"]
mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use rmcp::model::*;
use rmcp::{ErrorData, tool, tool_handler, tool_router};
use serde_json::json;

const SECRET: &str = "a deploy server's secret, thirty-two bytes or more";

/// Which build should go out?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Build {
    /// The build's tag
    tag: String,
}

/// A deploy server, as a new user writes it: the key is a field, made with the server.
#[derive(Clone)]
struct Deployer {
    key: StateKey,
    /// Make a key per call instead, in the tool.
    per_call: bool,
    deploys: Arc<AtomicU32>,
}

#[tool_router]
impl Deployer {
    #[tool(description = "Deploy a build, once approved.")]
    async fn deploy(&self, ask: Ask) -> Asked<CallToolResult> {
        self.deploying(ask, false).await
    }

    #[tool(description = "Deploy a build, once approved, then fail to report it.")]
    async fn deploy_then_fail(&self, ask: Ask) -> Asked<CallToolResult> {
        self.deploying(ask, true).await
    }
}

impl Deployer {
    async fn deploying(&self, ask: Ask, fail: bool) -> Asked<CallToolResult> {
        let key = match self.per_call {
            true => StateKey::new(SECRET).unwrap(),
            false => self.key.clone(),
        };
        let ask = ask.with_key(key);
        ask.run(async {
            let build = ask.form::<Build>("build").await?;
            if !ask.confirm("go", "Deploy it?").await?.is_confirmed() {
                return Ok(CallToolResult::success(vec![ContentBlock::text(
                    "Not deployed.",
                )]));
            }
            self.deploys.fetch_add(1, Ordering::SeqCst);
            if fail {
                // rmcp's own error, through `?`, after the effect.
                Err(ErrorData::internal_error("the deploy log is full", None))?;
            }
            let tag = build.accepted().map(|b| b.tag).unwrap_or_default();
            Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                "Deployed {tag}."
            ))]))
        })
        .await
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for Deployer {}

/// Serves a `Deployer` over streamable HTTP, each session's made by the factory closure, with
/// a key of its own.
async fn serve(per_call: bool, deploys: Arc<AtomicU32>) -> String {
    support::serve_sessions(move || Deployer {
        key: StateKey::new(SECRET).unwrap(),
        per_call,
        deploys: deploys.clone(),
    })
    .await
}

fn answering(
    round: &InputRequiredResult,
    tool: &str,
    key: &str,
    reply: serde_json::Value,
) -> CallToolRequestParams {
    let mut retry = CallToolRequestParams::new(tool.to_owned());
    retry.input_responses = Some(serde_json::from_value(json!({ key: reply })).unwrap());
    retry.request_state = round.request_state.clone();
    retry
}

async fn round(client: &support::Client, request: CallToolRequestParams) -> InputRequiredResult {
    match client.call_tool_once(request).await.unwrap() {
        CallToolResponse::InputRequired(round) => round,
        other => panic!("{other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_made_per_session_or_per_call_deploy_once() {
    for per_call in [false, true] {
        for tool in ["deploy", "deploy_then_fail"] {
            let deploys = Arc::new(AtomicU32::new(0));
            let url = serve(per_call, deploys.clone()).await;
            let one = support::connect(&url, None).await;
            let first = round(&one, CallToolRequestParams::new(tool.to_owned())).await;
            let build = json!({"action": "accept", "content": {"tag": "v1.2"}});
            let second = round(&one, answering(&first, tool, "build", build)).await;
            let yes = json!({"action": "accept", "content": {"confirmed": true}});
            let last = answering(&second, tool, "go", yes);
            // The approval sent three times, each on a session of its own.
            let mut endings = Vec::new();
            for _ in 0..3 {
                let client = support::connect(&url, None).await;
                endings.push(format!("{:?}", client.call_tool_once(last.clone()).await));
            }
            assert_eq!(
                deploys.load(Ordering::SeqCst),
                1,
                "{tool}, per call: {per_call}"
            );
            assert!(endings.windows(2).all(|e| e[0] == e[1]), "{endings:?}");
            let expected = match tool {
                "deploy" => "Deployed v1.2.",
                _ => "the deploy log is full",
            };
            assert!(endings[0].contains(expected), "{endings:?}");
        }
    }
}
