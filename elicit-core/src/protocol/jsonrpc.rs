//! JSON-RPC framing for the messages this crate builds, for transports that send raw JSON.

use serde::{Deserialize, Serialize};

use crate::error::SchemaError;
use crate::schema::request::FormRequest;
use serde_json::{Value, json};

/// A JSON-RPC request id: a string or an integer.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum RequestId {
    /// An integer id.
    Number(i64),
    /// A string id.
    String(String),
}

impl From<i64> for RequestId {
    fn from(id: i64) -> Self {
        RequestId::Number(id)
    }
}

impl From<&str> for RequestId {
    fn from(id: &str) -> Self {
        RequestId::String(id.to_owned())
    }
}

impl From<String> for RequestId {
    fn from(id: String) -> Self {
        RequestId::String(id)
    }
}

/// `{"jsonrpc":"2.0","id":..,"method":..,"params":..}`.
pub(crate) fn request(id: RequestId, method: &str, params: impl Serialize) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": to_value(params) })
}

/// `{"jsonrpc":"2.0","method":..,"params":..}`.
pub(crate) fn notification(method: &str, params: impl Serialize) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": to_value(params) })
}

/// Serializes one of this crate's own message types. They are maps with string keys, which
/// `serde_json` always represents; `Null` is unreachable.
pub(crate) fn to_value(value: impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A JSON-RPC error object, `{"code", "message", "data"?}`: how a call ends when the server
/// refuses the request or the tool fails, rather than with a tool result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RpcError {
    /// The error code.
    pub code: i32,
    /// What went wrong, in one line.
    pub message: String,
    /// More about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

impl RpcError {
    /// `-32602`: the request's params were refused.
    pub const INVALID_PARAMS: i32 = -32602;
    /// `-32603`: the server failed.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// `-32021` (2026-07-28): the request needs a capability the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;

    /// An error with `code` and `message`, and no data.
    #[must_use]
    pub fn new(code: i32, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// `-32603` with `message`.
    #[must_use]
    pub fn internal(message: impl Into<String>) -> Self {
        RpcError::new(Self::INTERNAL_ERROR, message)
    }

    /// `-32602` with `message`.
    #[must_use]
    pub fn invalid_params(message: impl Into<String>) -> Self {
        RpcError::new(Self::INVALID_PARAMS, message)
    }

    /// `-32021`, with `{"requiredCapabilities": required}` as its data.
    #[must_use]
    pub fn missing_capability(required: Value) -> Self {
        RpcError {
            data: Some(json!({ "requiredCapabilities": required })),
            ..RpcError::new(
                Self::MISSING_REQUIRED_CLIENT_CAPABILITY,
                "Missing required client capability",
            )
        }
    }
}

impl std::fmt::Display for RpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for RpcError {}

impl FormRequest<'_> {
    /// The whole JSON-RPC `elicitation/create` request. 2026-07-28 has no such request (the
    /// request goes in `inputRequests`; see [`InputRequests`](crate::InputRequests)), so a
    /// request written for it is refused.
    pub fn to_jsonrpc(&self, id: impl Into<RequestId>) -> Result<serde_json::Value, SchemaError> {
        if self.version().has_input_requests() {
            return Err(SchemaError::root(format!(
                "MCP {} has no elicitation/create request: return the form in an InputRequiredResult's inputRequests",
                self.version()
            )));
        }
        Ok(request(id.into(), "elicitation/create", self))
    }
}
