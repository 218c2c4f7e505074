//! The engine's [`Port`] over rust-mcp-sdk, and building an [`Ask`] from a `tools/call`: the
//! SDK's own params, or a custom request the SDK could not read as one.

use std::sync::Arc;

use ::rust_mcp_sdk::McpServer;
use ::rust_mcp_sdk::auth::AuthInfo;
use ::rust_mcp_sdk::mcp_server::ServerHandler;
use ::rust_mcp_sdk::schema::schema_utils::CustomRequest;
use ::rust_mcp_sdk::schema::{
    CallToolRequestParams, ClientCapabilities, GetPromptRequestParams, InputResponses,
    ReadResourceRequestParams, RequestMetaObject, RpcError,
};
use serde_json::{Map, Value};

use crate::ask::{Ask, Call, Method, Port};
use crate::client::Request;
use crate::error::SchemaError;

/// A `tools/call` on rust-mcp-sdk, as the engine sees it. The SDK speaks 2026-07-28 only, so
/// every question is a round: nothing is sent during a call, and no progress either.
struct RustMcpSdk {
    /// The caller's auth, the context a key's principal function reads.
    auth: Option<AuthInfo>,
}

impl Port for RustMcpSdk {
    /// Every form is carried whole: rounds go out as this crate writes them (see
    /// [`Asked::into_server_result`](crate::ask::Asked::into_server_result)), never through the
    /// SDK's schema model, which would drop choices, patterns and formats.
    fn carries(&self, _request: &Request) -> Result<(), SchemaError> {
        Ok(())
    }

    fn context(&self) -> &dyn std::any::Any {
        &self.auth
    }
}

/// The questions of one rust-mcp-sdk `tools/call`, from the params
/// `handle_call_tool_request_mrtr` receives, sealed with the
/// [installed](crate::ask::StateKey::installed) key (or another, with [`Ask::with_key`]).
///
/// The sealed state is bound to the caller: by default to the `client_id` and `user_id` of
/// `runtime.auth_info_cloned()`, or to its `token_unique_id` where the token names neither,
/// and to nobody in particular without auth (any caller without auth may then continue a call
/// whose state it holds). A key with [`with_principal`](crate::ask::StateKey::with_principal) over
/// `Option<AuthInfo>` names the principal itself.
pub async fn ask(params: &CallToolRequestParams, runtime: &Arc<dyn McpServer>) -> Ask {
    let tool = Tool {
        method: Method::ToolsCall,
        name: params.name.clone(),
        arguments: params.arguments.clone(),
        input_responses: responses(params.input_responses.as_ref()),
        request_state: params.request_state.clone(),
        meta: params.meta.clone(),
    };
    tool.ask(runtime).await
}

/// The questions of one rust-mcp-sdk `prompts/get`, from the params
/// `handle_get_prompt_request` receives: its arguments are the prompt's, and its state is
/// sealed and bound as [`ask`]'s is. End the handler with
/// [`Asked::into_prompt_result`](crate::ask::Asked::into_prompt_result).
pub async fn ask_prompt(params: &GetPromptRequestParams, runtime: &Arc<dyn McpServer>) -> Ask {
    let arguments = params.arguments.as_ref().map(|arguments| {
        (arguments.iter())
            .map(|(name, value)| (name.clone(), Value::String(value.clone())))
            .collect()
    });
    let prompt = Tool {
        method: Method::PromptsGet,
        name: params.name.clone(),
        arguments,
        input_responses: responses(params.input_responses.as_ref()),
        request_state: params.request_state.clone(),
        meta: params.meta.clone(),
    };
    prompt.ask(runtime).await
}

/// The questions of one rust-mcp-sdk `resources/read`, from the params
/// `handle_read_resource_request` receives, bound to the resource's URI. End the handler with
/// [`Asked::into_resource_result`](crate::ask::Asked::into_resource_result).
pub async fn ask_resource(params: &ReadResourceRequestParams, runtime: &Arc<dyn McpServer>) -> Ask {
    let resource = Tool {
        method: Method::ResourcesRead,
        name: params.uri.clone(),
        arguments: None,
        input_responses: responses(params.input_responses.as_ref()),
        request_state: params.request_state.clone(),
        meta: params.meta.clone(),
    };
    resource.ask(runtime).await
}

/// A request's `inputResponses`, each by its wire form.
fn responses(responses: Option<&InputResponses>) -> Option<Map<String, Value>> {
    let responses = responses?;
    Some(
        (responses.0.iter())
            .map(|(key, response)| {
                let value = serde_json::to_value(response).unwrap_or(Value::Null);
                (key.clone(), value)
            })
            .collect(),
    )
}

/// The `Ask` of a `tools/call` that reached `handle_custom_request`, with the
/// [installed](crate::ask::StateKey::installed) key: the SDK reads a `tools/call` as a custom request when
/// its `inputResponses` hold a number it cannot (`2.5`, `3.0`, `1e2`, `-0`, or an integer
/// beyond `i64`), and would answer it "method not found" before the tool runs. Here its
/// params are read as JSON, so the answer gets the form's own reading: `3.0` is 3 in an integer
/// field, and `2.5` a field-level error.
///
/// The SDK's own checks of a `tools/call` are made here as it makes them for one it can read:
/// the protocol version, and the capabilities `handler` (the server's, usually `self`)
/// requires for the method `tools/call` and for the named tool, so that a gate the server
/// declares holds on this path too.
///
/// `Ok(None)` for a request that is not a `tools/call`; otherwise the tool's name, its
/// arguments (`{}` where the call sent none) and its `Ask`.
///
/// # Errors
///
/// The SDK's -32022 for a protocol version it does not speak, its -32021 for a capability
/// `handler` requires that the client did not declare, and -32602 for params that are not a
/// `tools/call`'s.
pub async fn ask_custom(
    request: &CustomRequest,
    runtime: &Arc<dyn McpServer>,
    handler: &dyn ServerHandler,
) -> Result<Option<CustomCall>, RpcError> {
    let Some(tool) = read_custom(request, handler)? else {
        return Ok(None);
    };
    #[allow(deprecated)] // The SDK sets it from every request it reads.
    runtime.set_active_log_level(tool.meta.log_level.clone());
    let name = tool.name.clone();
    let arguments = tool.arguments.clone().unwrap_or_default();
    Ok(Some(CustomCall {
        name,
        arguments,
        ask: tool.ask(runtime).await,
    }))
}

/// A `tools/call` that reached `handle_custom_request`, as [`ask_custom`] reads it.
#[derive(Debug)]
#[non_exhaustive]
pub struct CustomCall {
    /// The tool's name.
    pub name: String,
    /// The call's arguments, as JSON (`{}` where it sent none), numbers as written.
    pub arguments: Map<String, Value>,
    /// The call's questions.
    pub ask: Ask,
}

/// The `tools/call` in a custom request, read from its JSON params as the SDK would read them,
/// numbers as they were written, and checked as the SDK checks one it reads; `None` for
/// another method.
fn read_custom(
    request: &CustomRequest,
    handler: &dyn ServerHandler,
) -> Result<Option<Tool>, RpcError> {
    if request.method != "tools/call" {
        return Ok(None);
    }
    let params = request.params.clone().unwrap_or_default();
    let field = |name: &str| params.get(name).cloned().unwrap_or(Value::Null);
    let invalid = |what: &str| RpcError {
        code: -32602,
        message: format!("invalid tools/call params: {what}"),
        data: None,
    };
    let name = match field("name") {
        Value::String(name) => name,
        _ => return Err(invalid("`name` must be a string")),
    };
    let object = |name: &str| match field(name) {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        _ => Err(invalid(&format!("`{name}` must be an object"))),
    };
    let (arguments, input_responses) = (object("arguments")?, object("inputResponses")?);
    let request_state = match field("requestState") {
        Value::Null => None,
        Value::String(state) => Some(state),
        _ => return Err(invalid("`requestState` must be a string")),
    };
    let meta: RequestMetaObject =
        serde_json::from_value(field("_meta")).map_err(|e| invalid(&format!("`_meta`: {e}")))?;
    // The checks the SDK makes on every `tools/call` it can read, in its order.
    let context = ::rust_mcp_sdk::RequestContext::from_request_meta(&meta)?;
    let method = "tools/call";
    context.ensure_capabilities(method, &handler.required_capabilities_for_method(method))?;
    context.ensure_capabilities(method, &handler.required_capabilities_for_tool_call(&name))?;
    Ok(Some(Tool {
        method: Method::ToolsCall,
        name,
        arguments,
        input_responses,
        request_state,
        meta,
    }))
}

/// What the engine reads of a request that asks, from either path.
struct Tool {
    method: Method,
    name: String,
    arguments: Option<Map<String, Value>>,
    input_responses: Option<Map<String, Value>>,
    request_state: Option<String>,
    meta: RequestMetaObject,
}

impl Tool {
    async fn ask(self, runtime: &Arc<dyn McpServer>) -> Ask {
        let mut call = Call::of(self.method, self.name);
        call.arguments = self.arguments;
        call.protocol_version = Some(self.meta.protocol_version.clone());
        call.capabilities = capabilities(&self.meta.client_capabilities);
        call.input_responses = self.input_responses;
        call.request_state = self.request_state;
        let auth = runtime.auth_info_cloned().await;
        call.principal = auth.as_ref().map(principal);
        Ask::with_port(call, RustMcpSdk { auth })
    }
}

/// The capabilities declared in the request's `_meta`, read by their wire form.
fn capabilities(declared: &ClientCapabilities) -> crate::client::ClientCapabilities {
    serde_json::to_value(declared)
        .ok()
        .and_then(|declared| crate::client::ClientCapabilities::from_value(&declared).ok())
        .unwrap_or_default()
}

/// Who a token speaks for: its client and user, or the token itself where it names neither.
fn principal(auth: &AuthInfo) -> String {
    match (&auth.client_id, &auth.user_id) {
        (None, None) => format!("token:{}", auth.token_unique_id),
        (client, user) => serde_json::json!([client, user]).to_string(),
    }
}

#[cfg(test)]
#[path = "../../unit/rust_mcp_sdk/port.rs"]
mod tests;
