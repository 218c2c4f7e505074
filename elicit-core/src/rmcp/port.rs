//! The engine's [`Port`] over rmcp: a tool call's request context, and building an [`Ask`] from
//! a `tools/call`.

use std::time::Duration;

use ::rmcp::model::{self as m, CallToolRequestParams, JsonObject};
use ::rmcp::service::{RequestContext, RoleServer, ServiceError};
use serde_json::Value;

use super::convert::reply_value;
use crate::ask::{Ask, Call, Port, PortFuture, Request, SendError, StateKey};
use crate::error::SchemaError;
use crate::protocol::client::ElicitationCapability;

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
            let params = to_rmcp(request).map_err(SendError::Schema)?;
            let reply = self
                .context
                .peer
                .create_elicitation_with_timeout(params, timeout)
                .await
                .map_err(|e| match e {
                    ServiceError::Timeout { timeout } => SendError::Timeout(timeout),
                    other => SendError::Transport(other.to_string()),
                })?;
            Ok(reply_value(&reply))
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
}

/// A request as rmcp's model holds it, or the rule the model would drop.
fn to_rmcp(request: &Request) -> Result<m::ElicitRequestParams, SchemaError> {
    match request {
        Request::Form(form) => m::ElicitRequestParams::try_from(form),
        Request::Url(url) => Ok(url.into()),
    }
}

impl Ask {
    /// The questions of one rmcp `tools/call`, sealed with the
    /// [installed](StateKey::installed) key.
    #[must_use]
    pub fn new(request: &CallToolRequestParams, context: &RequestContext<RoleServer>) -> Self {
        Self::with_key(request, context, StateKey::installed().clone())
    }

    /// [`new`](Ask::new), sealed with `key`.
    #[must_use]
    pub fn with_key(
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        key: StateKey,
    ) -> Self {
        Self::of_rmcp(
            context.clone(),
            &request.name,
            request.arguments.as_ref(),
            request.input_responses.as_ref(),
            request.request_state.clone(),
            key,
            false,
        )
    }

    /// One call's `Ask` over rmcp, from its parts.
    pub(super) fn of_rmcp(
        context: RequestContext<RoleServer>,
        tool: &str,
        arguments: Option<&JsonObject>,
        responses: Option<&m::InputResponses>,
        request_state: Option<String>,
        key: StateKey,
        output_schema: bool,
    ) -> Self {
        let mut call = Call::new(tool);
        call.arguments = arguments.cloned();
        call.protocol_version = context.protocol_version().map(|v| v.to_string());
        call.elicitation = context
            .client_capabilities()
            .and_then(|capabilities| capabilities.elicitation)
            .map(|e| ElicitationCapability::declared(e.form.is_some(), e.url.is_some()));
        call.input_responses =
            responses.map(|r| r.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        call.request_state = request_state;
        call.output_schema = output_schema;
        let principal = key.principal_of(&context);
        call.principal = principal.clone().unwrap_or_default();
        let ask = Ask::with_port(call, Rmcp { context }, key);
        match principal {
            Ok(_) => ask,
            Err(e) => ask.refusing(e),
        }
    }
}
