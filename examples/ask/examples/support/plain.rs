//! `Ask` over plain JSON, with no SDK: a `tools/call`'s params in, its result out, on
//! 2026-07-28, where every question is a round and nothing is sent during a call.

use elicit_core::ProtocolVersion;
use elicit_core::SchemaError;
use elicit_core::ask::{Ask, Asked, Call, Ending, Port};
use elicit_core::client::ClientCapabilities;
use elicit_core::client::Request;
use serde_json::{Value, json};

/// The engine's port for a server that only answers requests: every form goes out whole.
struct Plain;

impl Port for Plain {
    fn carries(&self, _: &Request) -> Result<(), SchemaError> {
        Ok(())
    }
}

/// The `Ask` of one 2026-07-28 `tools/call`, from its params (the client's capabilities in
/// `_meta`, as that version sends them).
pub fn ask(params: &Value) -> Ask {
    let mut call = Call::new(params["name"].as_str().unwrap_or_default());
    call.arguments = params["arguments"].as_object().cloned();
    call.protocol_version = Some(ProtocolVersion::V2026_07_28.as_str().to_owned());
    let declared = &params["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    call.capabilities = ClientCapabilities::from_value(declared).unwrap_or_default();
    call.input_responses = params["inputResponses"].as_object().cloned();
    call.request_state = params["requestState"].as_str().map(str::to_owned);
    Ask::with_port(call, Plain)
}

/// The `tools/call` result, or the JSON-RPC error, of a tool's answer.
pub fn result(asked: Asked<String>) -> Value {
    let text = |text: String, error: bool| json!({"content": [{"type": "text", "text": text}], "isError": error});
    match asked {
        Asked::Done(answer) => text(answer, false),
        Asked::InputRequired(required) => required.to_value().unwrap_or_default(),
        Asked::Stopped(stop) => match stop.ending() {
            Ending::ToolError { text: said, .. } => text(said, true),
            Ending::Rpc(error) => json!({"error": {"code": error.code, "message": error.message}}),
        },
    }
}
