//! JSON-RPC framing for the messages this crate builds, for transports that send raw JSON.

use serde::Serialize;
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
