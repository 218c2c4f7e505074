//! The engine's [`Port`] over rmcp: a tool call's request context, and building an [`Ask`] from
//! a `tools/call`.

use std::time::Duration;

use ::rmcp::model::{
    self as m, CallToolRequestParams, GetPromptRequestParams, JsonObject, ReadResourceRequestParams,
};
use ::rmcp::service::{PeerRequestOptions, RequestContext, RoleServer, ServiceError};
use serde_json::Value;

use super::convert::{reply_value, to_rmcp};
use crate::ask::{Ask, Call, Method, Port, PortFuture, SendError};
use crate::client::Request;
use crate::error::SchemaError;
use crate::protocol::client::{ClientCapabilities, ElicitationCapability};
use crate::protocol::jsonrpc::RpcError;

/// A `tools/call` on rmcp, as the engine sees it.
struct Rmcp {
    context: RequestContext<RoleServer>,
}

impl Port for Rmcp {
    fn carries(&self, request: &Request) -> Result<(), SchemaError> {
        to_rmcp(request).map(drop)
    }

    fn send<'a>(
        &'a self,
        request: &'a Request,
        timeout: Option<Duration>,
    ) -> PortFuture<'a, Result<Value, SendError>> {
        Box::pin(async move {
            let request = to_rmcp(request).map_err(SendError::Schema)?;
            let mut options = PeerRequestOptions::no_options();
            options.timeout = timeout;
            let failed = |e: ServiceError| match e {
                ServiceError::Timeout { timeout } => SendError::Timeout(timeout),
                ServiceError::McpError(e) => SendError::Refused(RpcError {
                    code: e.code.0,
                    message: e.message.into_owned(),
                    data: e.data,
                }),
                other => SendError::Transport(other.to_string()),
            };
            let reply = self
                .context
                .peer
                .send_request_with_option(request, options)
                .await
                .map_err(failed)?
                .await_response()
                .await
                .map_err(failed)?;
            // rmcp reads a reply that is no elicitation result (an unknown action, say) as
            // another kind of result: the reply goes to the form's reader as it came, which
            // names the rule it breaks.
            Ok(match reply {
                m::ClientResult::ElicitResult(reply) => reply_value(&reply),
                other => serde_json::to_value(other).unwrap_or(Value::Null),
            })
        })
    }

    fn reports_progress(&self) -> bool {
        self.context.meta.get_progress_token().is_some()
    }

    fn progress(&self, progress: f64, message: String) -> PortFuture<'_, ()> {
        Box::pin(async move {
            let Some(token) = self.context.meta.get_progress_token() else {
                return;
            };
            let param = m::ProgressNotificationParam::new(token, progress).with_message(message);
            // A client that went away ends the request itself; a lost notification changes
            // nothing.
            let _ = self.context.peer.notify_progress(param).await;
        })
    }

    fn context(&self) -> &dyn std::any::Any {
        &self.context
    }
}

/// Who the caller is by default: a digest of the `Authorization` header of the HTTP request
/// that carried the call (rmcp's streamable HTTP transport puts the request's parts in the
/// context), or nobody in particular where there is none (stdio, or no credential).
fn credential(context: &RequestContext<RoleServer>) -> Option<String> {
    let parts = context.extensions.get::<::http::request::Parts>()?;
    let value = parts.headers.get(::http::header::AUTHORIZATION)?;
    Some(format!(
        "authorization:{}",
        crate::ask::digest(value.as_bytes())
    ))
}

/// Where a call came from, where no credential names the caller: the HTTP session it belongs
/// to (2025-era sessions), or the peer's address where the server put one in the request's
/// extensions (a `std::net::SocketAddr`, as `examples/rmcp`'s HTTP server does). Nothing is
/// bound to it: the store only tells callers apart by it for its room.
fn origin(context: &RequestContext<RoleServer>) -> Option<String> {
    let parts = context.extensions.get::<::http::request::Parts>()?;
    // A name known when compiled: looking one up by text would parse it first.
    const SESSION: ::http::HeaderName = ::http::HeaderName::from_static("mcp-session-id");
    if let Some(session) = parts.headers.get(&SESSION) {
        return Some(format!(
            "session:{}",
            String::from_utf8_lossy(session.as_bytes())
        ));
    }
    let peer = parts.extensions.get::<std::net::SocketAddr>()?;
    Some(format!("peer:{}", peer.ip()))
}

/// An rmcp request whose handler can ask: `tools/call` ([`CallToolRequestParams`]),
/// `prompts/get` ([`GetPromptRequestParams`]) or `resources/read`
/// ([`ReadResourceRequestParams`]). [`Ask::new`] takes any of them.
pub trait AskingRequest: sealed::Sealed {
    /// The questions of this request, from its context.
    #[doc(hidden)]
    fn ask(&self, context: &RequestContext<RoleServer>) -> Ask;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::CallToolRequestParams {}
    impl Sealed for super::GetPromptRequestParams {}
    impl Sealed for super::ReadResourceRequestParams {}
}

impl AskingRequest for CallToolRequestParams {
    fn ask(&self, context: &RequestContext<RoleServer>) -> Ask {
        Ask::of_rmcp(
            context.clone(),
            Method::ToolsCall,
            &self.name,
            self.arguments.as_ref(),
            self.input_responses.as_ref(),
            self.request_state.clone(),
            false,
        )
    }
}

impl AskingRequest for GetPromptRequestParams {
    fn ask(&self, context: &RequestContext<RoleServer>) -> Ask {
        Ask::of_rmcp(
            context.clone(),
            Method::PromptsGet,
            &self.name,
            self.arguments.as_ref(),
            self.input_responses.as_ref(),
            self.request_state.clone(),
            false,
        )
    }
}

impl AskingRequest for ReadResourceRequestParams {
    fn ask(&self, context: &RequestContext<RoleServer>) -> Ask {
        Ask::of_rmcp(
            context.clone(),
            Method::ResourcesRead,
            &self.uri,
            None,
            self.input_responses.as_ref(),
            self.request_state.clone(),
            false,
        )
    }
}

impl Ask {
    /// The questions of one rmcp request, sealed with the
    /// [installed](crate::ask::StateKey::installed) key (or another, with [`Ask::with_key`]):
    /// a `tools/call`, or a `prompts/get` (its arguments are the call's; end the handler with
    /// [`Asked::into_prompt_response`](crate::ask::Asked::into_prompt_response)) or a
    /// `resources/read` (bound to the resource's URI; end it with
    /// [`Asked::into_resource_response`](crate::ask::Asked::into_resource_response)).
    #[must_use]
    pub fn new(request: &impl AskingRequest, context: &RequestContext<RoleServer>) -> Self {
        request.ask(context)
    }

    /// One call's `Ask` over rmcp, from its parts.
    pub(super) fn of_rmcp(
        context: RequestContext<RoleServer>,
        method: Method,
        tool: &str,
        arguments: Option<&JsonObject>,
        responses: Option<&m::InputResponses>,
        request_state: Option<String>,
        output_schema: bool,
    ) -> Self {
        let mut call = Call::of(method, tool);
        call.arguments = arguments.cloned();
        call.protocol_version = context.protocol_version().map(|v| v.to_string());
        if let Some(declared) = context.client_capabilities() {
            let elicitation = declared.elicitation.as_ref();
            call.capabilities = ClientCapabilities {
                elicitation: elicitation
                    .map(|e| ElicitationCapability::declared(e.form.is_some(), e.url.is_some())),
                sampling: declared.sampling.as_ref().map(|s| s.tools.is_some()),
                roots: declared.roots.is_some(),
            };
        }
        call.input_responses =
            responses.map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        call.request_state = request_state;
        call.output_schema = output_schema;
        call.principal = credential(&context);
        call.origin = origin(&context);
        Ask::with_port(call, Rmcp { context })
    }
}
