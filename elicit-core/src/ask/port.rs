//! What an SDK adapter gives the engine: the facts of one call ([`Call`]) and the few things
//! only the SDK can do ([`Port`]): send a live request, send progress, say what its model can
//! carry.

use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use serde_json::{Map, Value};

use crate::error::SchemaError;
use crate::protocol::client::{ClientCapabilities, Request};
use crate::protocol::jsonrpc::RpcError;

/// A future an adapter returns, boxed so that [`Port`] stays object-safe.
pub type PortFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// The request a [`Call`] is: the three that may ask the client for input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// `tools/call`.
    #[default]
    ToolsCall,
    /// `prompts/get`.
    PromptsGet,
    /// `resources/read`.
    ResourcesRead,
}

impl Method {
    /// The method as written on the wire.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Method::ToolsCall => "tools/call",
            Method::PromptsGet => "prompts/get",
            Method::ResourcesRead => "resources/read",
        }
    }
}

/// One request that may ask (`tools/call`, `prompts/get` or `resources/read`) as it arrived:
/// what the engine reads of it.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct Call {
    /// Which request it is.
    pub method: Method,
    /// The tool's or the prompt's name, or the resource's URI.
    pub name: String,
    /// The call's arguments (a prompt's too); `None` (the client sent none) reads as `{}`.
    pub arguments: Option<Map<String, Value>>,
    /// The protocol version the request names, as written on the wire.
    pub protocol_version: Option<String>,
    /// The capabilities the client declared for this request: elicitation, sampling, roots.
    /// On 2026-07-28 they travel in each request's `_meta`; before, they are the handshake's.
    pub capabilities: ClientCapabilities,
    /// This round's `inputResponses` (2026-07-28).
    pub input_responses: Option<Map<String, Value>>,
    /// The `requestState` the client echoed (2026-07-28).
    pub request_state: Option<String>,
    /// Who the caller is, by the SDK's own notion of a caller, for the sealed state: `None`
    /// for nobody in particular. A key that names its callers itself
    /// ([`StateKey::with_principal`](super::StateKey::with_principal)) replaces it, reading
    /// the SDK's request context ([`Port::context`]).
    pub principal: Option<String>,
    /// Where the call came from, where no principal names the caller: the best identity the
    /// transport gives (an HTTP session, a peer address). A store tells callers apart by it
    /// for its room (one caller's flood lets go of its own entries first), and nothing is
    /// bound to it. `None` for nobody in particular: a server without authentication whose
    /// transport tells nothing has no isolation between its callers.
    pub origin: Option<String>,
    /// Whether the tool declares an `outputSchema` (then results carry no `structuredContent`
    /// of this crate's).
    pub output_schema: bool,
}

impl Call {
    /// A call to `tool`, with nothing else known yet.
    #[must_use]
    pub fn new(tool: impl Into<String>) -> Self {
        Call::of(Method::ToolsCall, tool)
    }

    /// A request of `method` for `name` (a prompt's name, a resource's URI), with nothing else
    /// known yet.
    #[must_use]
    pub fn of(method: Method, name: impl Into<String>) -> Self {
        Call {
            method,
            name: name.into(),
            ..Call::default()
        }
    }
}

/// Why a live request brought no reply.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum SendError {
    /// The form cannot be written for the version, or the SDK's model cannot carry it whole.
    Schema(SchemaError),
    /// The client did not answer within the question's deadline: the deadline.
    Timeout(Duration),
    /// The request failed in the SDK or the transport: what it said.
    Transport(String),
    /// The client answered with a JSON-RPC error (a sampling request its user or its policy
    /// refused, say).
    Refused(RpcError),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Schema(e) => write!(f, "the form cannot be sent: {e}"),
            SendError::Timeout(t) => write!(f, "the client did not answer within {t:?}"),
            SendError::Transport(e) => write!(f, "the request failed: {e}"),
            SendError::Refused(e) => write!(f, "the client refused the request: {}", e.message),
        }
    }
}

impl std::error::Error for SendError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SendError::Schema(e) => Some(e),
            _ => None,
        }
    }
}

/// What an SDK does for the engine during one call. An adapter implements it over its SDK's
/// request context; everything else (questions, retries, rounds, the sealed state, the
/// fallback to arguments, keep-alive, traces) is the engine's.
pub trait Port: Send + Sync {
    /// Refuses a request the SDK's model cannot carry whole, before anything is sent: a rule
    /// it would drop. Checked for live requests and for a round's requests alike.
    fn carries(&self, request: &Request) -> Result<(), SchemaError>;

    /// Sends one live request (before 2026-07-28) and waits for the client's reply, as JSON
    /// (`{"action": .., "content"?: ..}` for an elicitation, the result for the others), up to
    /// `timeout`. A client's JSON-RPC error is [`SendError::Refused`]. An SDK that speaks only
    /// 2026-07-28, where every question is a round, keeps the default, which is never called.
    fn send<'a>(
        &'a self,
        request: &'a Request,
        timeout: Option<Duration>,
    ) -> PortFuture<'a, Result<Value, SendError>> {
        let _ = (request, timeout);
        Box::pin(async {
            Err(SendError::Transport(
                "this SDK sends no requests during a call".into(),
            ))
        })
    }

    /// Whether the call carried a progress token, so that [`progress`](Port::progress) reaches
    /// the client. No, by default.
    fn reports_progress(&self) -> bool {
        false
    }

    /// Sends one progress notification for the call. A lost one changes nothing; by default,
    /// none is sent.
    fn progress(&self, progress: f64, message: String) -> PortFuture<'_, ()> {
        let _ = (progress, message);
        Box::pin(async {})
    }

    /// The SDK's request context, which a key's
    /// [`with_principal`](super::StateKey::with_principal) reads to name the caller. An
    /// adapter without one keeps the default, which no principal function reads.
    fn context(&self) -> &dyn Any {
        &()
    }
}
