//! The adapter driven in process through the SDK's own server runtime: the sealed state is
//! bound to the caller the runtime names (`auth_info`; an HTTP transport with an auth provider
//! sets it from each request's bearer token, as `update_auth_info` does here), and a
//! `tools/call` read as a custom request sets the runtime's log level as the SDK's dispatch
//! does for one it reads.

#[path = "../../shared/trip.rs"]
#[allow(dead_code)] // The body and its forms; not the key, which is the process's own here.
mod trip;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use elicit_core::ask::StateKey;
use rust_mcp_sdk::auth::AuthInfo;
use rust_mcp_sdk::error::SdkResult;
use rust_mcp_sdk::mcp_server::{McpServerOptions, ServerHandler, server_runtime};
use rust_mcp_sdk::schema::schema_utils::{ClientMessage, CustomRequest, MessageFromServer};
use rust_mcp_sdk::schema::{
    CallToolRequestParams, LoggingLevel, RequestId, RpcError, ServerCapabilities,
    SubscriptionFilter,
};
use rust_mcp_sdk::{
    McpServer, ServerDetails, SessionId, StdioTransport, ToMcpServerHandler, TransportOptions,
};
use serde_json::{Value, json};
use tokio::sync::RwLockReadGuard;

/// A server that serves nothing itself: the test calls the adapter with its runtime.
struct Runtime;
impl ServerHandler for Runtime {}

/// A server runtime that is never started, so it reads nothing from stdin.
fn runtime() -> Arc<dyn McpServer> {
    let details =
        elicit_rust_mcp_sdk_examples::details("principal", ServerCapabilities::default(), None);
    server_runtime::create_server(McpServerOptions {
        server_details: details,
        transport: StdioTransport::new(TransportOptions::default()).unwrap(),
        handler: Runtime.to_mcp_server_handler(),
        message_observer: None,
    })
}

fn auth(token: &str, client: Option<&str>, user: Option<&str>) -> AuthInfo {
    serde_json::from_value(json!({
        "token_unique_id": token, "client_id": client, "user_id": user
    }))
    .unwrap()
}

/// `plan_trip` called through the adapter as `handle_call_tool_request_mrtr` calls it, as
/// `auth` (none when `None`): the result as JSON, or the JSON-RPC error.
async fn plan_trip(
    runtime: &Arc<dyn McpServer>,
    auth: Option<AuthInfo>,
    retry: Option<&str>,
) -> Result<Value, RpcError> {
    plan_trip_with(runtime, auth, retry, StateKey::installed().clone()).await
}

/// [`plan_trip`], sealed with `key`.
async fn plan_trip_with(
    runtime: &Arc<dyn McpServer>,
    auth: Option<AuthInfo>,
    retry: Option<&str>,
    key: StateKey,
) -> Result<Value, RpcError> {
    runtime.update_auth_info(auth).await;
    let trip = json!({"action": "accept", "content": {"city": "Lisbon", "nights": 3}});
    let params: CallToolRequestParams = serde_json::from_value(json!({
        "name": "plan_trip",
        "inputResponses": retry.map(|_| json!({"trip": trip})),
        "requestState": retry,
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
        }
    }))
    .unwrap();
    let ask = elicit_core::rust_mcp_sdk::ask(&params, runtime)
        .await
        .with_key(key);
    let result = trip::plan_trip(ask).await.into_server_result()?;
    Ok(serde_json::to_value(result).unwrap())
}

/// The state a first call is asked to send back.
async fn first_round(runtime: &Arc<dyn McpServer>, auth: Option<AuthInfo>) -> String {
    let round = plan_trip(runtime, auth, None).await.unwrap();
    assert_eq!(round["resultType"], "input_required", "{round}");
    round["requestState"].as_str().unwrap().to_owned()
}

fn finished(result: Result<Value, RpcError>) {
    let result = result.unwrap();
    let text = result["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("Lisbon"), "{result}");
}

fn refused(result: Result<Value, RpcError>) {
    let e = result.unwrap_err();
    assert_eq!(e.code, -32602, "{e:?}");
    assert!(e.message.contains("requestState was refused"), "{e:?}");
}

#[tokio::test]
async fn a_state_opens_for_the_client_and_user_it_was_sealed_for() {
    let runtime = runtime();
    let ada = || Some(auth("t1", Some("app"), Some("ada")));
    let state = first_round(&runtime, ada()).await;
    finished(plan_trip(&runtime, ada(), Some(&state)).await);
    // A new token of the same client and user is the same caller.
    let renewed = Some(auth("t2", Some("app"), Some("ada")));
    finished(plan_trip(&runtime, renewed, Some(&state)).await);
}

#[tokio::test]
async fn a_state_opens_for_no_other_caller() {
    let runtime = runtime();
    let state = first_round(&runtime, Some(auth("t1", Some("app"), Some("ada")))).await;
    let bob = Some(auth("t2", Some("app"), Some("bob")));
    refused(plan_trip(&runtime, bob, Some(&state)).await);
    let other_client = Some(auth("t3", Some("cli"), Some("ada")));
    refused(plan_trip(&runtime, other_client, Some(&state)).await);
    refused(plan_trip(&runtime, None, Some(&state)).await);
}

#[tokio::test]
async fn a_state_sealed_without_auth_opens_only_without_it() {
    let runtime = runtime();
    let state = first_round(&runtime, None).await;
    let ada = Some(auth("t1", Some("app"), Some("ada")));
    refused(plan_trip(&runtime, ada, Some(&state)).await);
    finished(plan_trip(&runtime, None, Some(&state)).await);
}

#[tokio::test]
async fn a_token_that_names_no_client_or_user_is_its_own_caller() {
    let runtime = runtime();
    let state = first_round(&runtime, Some(auth("t1", None, None))).await;
    refused(plan_trip(&runtime, Some(auth("t2", None, None)), Some(&state)).await);
    finished(plan_trip(&runtime, Some(auth("t1", None, None)), Some(&state)).await);
}

#[tokio::test]
async fn a_key_may_name_the_caller_itself() {
    let runtime = runtime();
    // The user alone, whichever client acts for them.
    let key = StateKey::random()
        .unwrap()
        .with_principal(|auth: &Option<AuthInfo>| auth.as_ref()?.user_id.clone());
    let round = plan_trip_with(
        &runtime,
        Some(auth("t1", Some("app"), Some("ada"))),
        None,
        key.clone(),
    );
    let round = round.await.unwrap();
    let state = round["requestState"].as_str().unwrap();
    let from = |token: &str, client: &str, user: &str| Some(auth(token, Some(client), Some(user)));
    let retry = |auth| plan_trip_with(&runtime, auth, Some(state), key.clone());
    finished(retry(from("t2", "cli", "ada")).await);
    refused(retry(from("t3", "app", "bob")).await);
}

#[tokio::test]
async fn a_key_that_reads_another_sdks_context_refuses_the_call() {
    let runtime = runtime();
    let key = StateKey::random()
        .unwrap()
        .with_principal(|_: &String| Some("ada".to_owned()));
    // The server's fault, not the client's state: no retry would mend it.
    let e = plan_trip_with(&runtime, None, None, key).await.unwrap_err();
    assert_eq!(e.code, -32603, "{e:?}");
    assert!(
        e.message.contains("not this SDK's request context"),
        "{e:?}"
    );
}

/// The SDK's runtime, with every log level set on it recorded.
struct Recording {
    runtime: Arc<dyn McpServer>,
    levels: Mutex<Vec<Option<LoggingLevel>>>,
}

#[async_trait::async_trait]
impl McpServer for Recording {
    async fn start(self: Arc<Self>) -> SdkResult<()> {
        Arc::clone(&self.runtime).start().await
    }
    async fn auth_info(&self) -> RwLockReadGuard<'_, Option<AuthInfo>> {
        self.runtime.auth_info().await
    }
    async fn auth_info_cloned(&self) -> Option<AuthInfo> {
        self.runtime.auth_info_cloned().await
    }
    async fn update_auth_info(&self, auth_info: Option<AuthInfo>) {
        self.runtime.update_auth_info(auth_info).await;
    }
    async fn stderr_message(&self, message: String) -> SdkResult<()> {
        self.runtime.stderr_message(message).await
    }
    fn session_id(&self) -> Option<SessionId> {
        self.runtime.session_id()
    }
    fn server_details(&self) -> &ServerDetails {
        self.runtime.server_details()
    }
    fn store_subscription(&self, filter: SubscriptionFilter) {
        self.runtime.store_subscription(filter);
    }
    fn clear_subscription(&self) {
        self.runtime.clear_subscription();
    }
    fn subscription_filter(&self) -> Option<SubscriptionFilter> {
        self.runtime.subscription_filter()
    }
    fn set_active_log_level(&self, level: Option<LoggingLevel>) {
        self.levels.lock().unwrap().push(level.clone());
        self.runtime.set_active_log_level(level);
    }
    async fn send(
        &self,
        message: MessageFromServer,
        request_id: Option<RequestId>,
        request_timeout: Option<Duration>,
    ) -> SdkResult<Option<ClientMessage>> {
        self.runtime
            .send(message, request_id, request_timeout)
            .await
    }
}

/// Log messages go out only for a request that sets a level (SEP-2575), and the SDK sets none
/// for a custom request: the adapter sets the one the `tools/call` carries, or clears the last.
#[tokio::test]
async fn a_custom_tools_call_sets_the_log_level_it_carries() {
    let recording = Arc::new(Recording {
        runtime: runtime(),
        levels: Mutex::new(Vec::new()),
    });
    let runtime: Arc<dyn McpServer> = recording.clone();
    let call = |level: Option<&str>| -> CustomRequest {
        let mut meta = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
        });
        if let Some(level) = level {
            meta["io.modelcontextprotocol/logLevel"] = json!(level);
        }
        serde_json::from_value(json!({
            "method": "tools/call",
            "params": {"name": "plan_trip", "_meta": meta}
        }))
        .unwrap()
    };
    for level in [Some("debug"), None] {
        let asked = elicit_core::rust_mcp_sdk::ask_custom(&call(level), &runtime, &Runtime).await;
        assert!(asked.unwrap().is_some());
    }
    let levels = serde_json::to_value(&*recording.levels.lock().unwrap()).unwrap();
    assert_eq!(levels, json!(["debug", null]));
}

/// Anything the party can't eat?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, elicit_core::Elicit)]
struct Diet {
    vegetarian: bool,
}

/// `menu://tonight` read through the adapter as `handle_read_resource_request` would: a
/// resource that asks for the party's diet with the same sealed state as a tool.
async fn read_menu(
    runtime: &Arc<dyn McpServer>,
    uri: &str,
    retry: Option<(&str, bool)>,
) -> Result<Value, RpcError> {
    use rust_mcp_sdk::schema::{ReadResourceRequestParams, ReadResourceResult};
    let params: ReadResourceRequestParams = serde_json::from_value(json!({
        "uri": uri,
        "inputResponses": retry.map(|(_, vegetarian)| json!({"diet": {
            "action": "accept", "content": {"vegetarian": vegetarian}
        }})),
        "requestState": retry.map(|(state, _)| state),
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}}
        }
    }))
    .unwrap();
    let ask = elicit_core::rust_mcp_sdk::ask_resource(&params, runtime).await;
    let asked = ask
        .run(async {
            let dish = match ask.form::<Diet>("diet").await? {
                elicit_core::ElicitResult::Accept(diet) if diet.vegetarian => "Ratatouille",
                _ => "Bouillabaisse",
            };
            let contents = json!({
                "contents": [{"uri": uri, "text": dish}],
                "cacheScope": "private", "ttlMs": 0, "resultType": "complete",
            });
            Ok(serde_json::from_value::<ReadResourceResult>(contents).unwrap())
        })
        .await;
    let result = asked.into_resource_result()?;
    Ok(serde_json::to_value(result).unwrap())
}

#[tokio::test]
async fn a_resource_asks_with_a_state_bound_to_its_uri() {
    let runtime = runtime();
    let round = read_menu(&runtime, "menu://tonight", None).await.unwrap();
    assert_eq!(round["resultType"], "input_required", "{round}");
    assert_eq!(
        round["inputRequests"]["diet"]["method"],
        "elicitation/create"
    );
    let state = round["requestState"].as_str().unwrap();
    let menu = read_menu(&runtime, "menu://tonight", Some((state, true)))
        .await
        .unwrap();
    assert_eq!(menu["contents"][0]["text"], "Ratatouille", "{menu}");
    // The state of one resource does not open for another.
    refused(read_menu(&runtime, "menu://tomorrow", Some((state, false))).await);
}
