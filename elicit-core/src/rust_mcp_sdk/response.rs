//! How a tool that asks ends on rust-mcp-sdk: [`Asked`] and [`Interrupt`] as the result of
//! `handle_call_tool_request_mrtr` or of `handle_custom_request`, and the SDK's errors passed
//! through a body with `?`.

use ::rust_mcp_sdk::schema::{
    CallToolResult, GenericResult, GetPromptResult, ReadResourceResult, RpcError, ServerResult,
};
use serde_json::Value;

use crate::ask::{Asked, Ending, Interrupt, IntoInterrupt};
use crate::protocol::input::InputRequired;
use crate::protocol::jsonrpc::RpcError as Rpc;

impl Interrupt {
    /// The `tools/call` result this interrupt ends the call with: a tool error (`isError`)
    /// for what the user or the client's answers caused, a JSON-RPC error for a request the
    /// server refuses or a fault in the tool.
    ///
    /// # Errors
    ///
    /// The JSON-RPC error.
    pub fn into_server_result(self) -> Result<ServerResult, RpcError> {
        match self.ending() {
            Ending::ToolError { text, structured } => {
                let mut result = CallToolResult::text_content(vec![text.into()]);
                result.is_error = Some(true);
                result.structured_content = structured;
                Ok(result.into())
            }
            Ending::Rpc(error) => Err(rpc(error)),
        }
    }
}

/// What a tool body returns on rust-mcp-sdk: the SDK's `CallToolResult`, or a `String`, sent as
/// one text block as rmcp sends one. A body that answers with text is then the same text on
/// both SDKs.
pub trait IntoCallToolResult {
    /// The `tools/call` result.
    fn into_call_tool_result(self) -> CallToolResult;
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> CallToolResult {
        self
    }
}

impl IntoCallToolResult for String {
    fn into_call_tool_result(self) -> CallToolResult {
        CallToolResult::text_content(vec![self.into()])
    }
}

impl<R: IntoCallToolResult> Asked<R> {
    /// The result of `handle_call_tool_request_mrtr`.
    ///
    /// A round that asks goes out as the SDK's generic result, written by this crate: the
    /// SDK's own `InputRequiredResult` model would drop a select's choices, a `pattern` and
    /// the formats it does not know, write integer bounds as floats and sort the fields.
    ///
    /// # Errors
    ///
    /// A JSON-RPC error, as [`Interrupt::into_server_result`].
    pub fn into_server_result(self) -> Result<ServerResult, RpcError> {
        match self {
            Asked::Done(result) => Ok(ServerResult::CallToolResult(result.into_call_tool_result())),
            Asked::InputRequired(required) => input_required(&required),
            Asked::Stopped(interrupt) => interrupt.into_server_result(),
        }
    }

    /// The result of `handle_custom_request`, for a call read by
    /// [`ask_custom`](super::ask_custom).
    ///
    /// # Errors
    ///
    /// As [`into_server_result`](Asked::into_server_result).
    pub fn into_generic_result(self) -> Result<GenericResult, RpcError> {
        generic_result(self.into_server_result()?)
    }
}

impl Asked<GetPromptResult> {
    /// The result of `handle_get_prompt_request`, for a prompt that asks
    /// ([`ask_prompt`](super::ask_prompt)). A stop is a JSON-RPC error: a tool error does not
    /// exist outside `tools/call` (its text the error's message, code -32603).
    ///
    /// # Errors
    ///
    /// The JSON-RPC error.
    pub fn into_prompt_result(self) -> Result<ServerResult, RpcError> {
        self.map(ServerResult::GetPromptResult).into_other_result()
    }
}

impl Asked<ReadResourceResult> {
    /// The result of `handle_read_resource_request`, for a resource that asks
    /// ([`ask_resource`](super::ask_resource)), as [`into_prompt_result`](Asked::into_prompt_result).
    ///
    /// # Errors
    ///
    /// The JSON-RPC error.
    pub fn into_resource_result(self) -> Result<ServerResult, RpcError> {
        self.map(ServerResult::ReadResourceResult)
            .into_other_result()
    }
}

impl Asked<ServerResult> {
    fn into_other_result(self) -> Result<ServerResult, RpcError> {
        match self {
            Asked::Done(result) => Ok(result),
            Asked::InputRequired(required) => input_required(&required),
            Asked::Stopped(interrupt) => Err(match interrupt.ending() {
                Ending::ToolError { text, .. } => rpc(Rpc::internal(text)),
                Ending::Rpc(error) => rpc(error),
            }),
        }
    }
}

fn rpc(error: Rpc) -> RpcError {
    RpcError {
        code: error.code.into(),
        message: error.message,
        data: error.data,
    }
}

/// An `InputRequiredResult` of this crate's round-trip types as a result of the SDK, written
/// as this crate writes it: -32603 for a result with neither requests nor state.
fn input_required(required: &InputRequired) -> Result<ServerResult, RpcError> {
    generic(required).map(ServerResult::Result)
}

/// A result as the SDK's generic one, for `handle_custom_request`: -32603 for a result that
/// does not serialize as an object.
fn generic_result(result: ServerResult) -> Result<GenericResult, RpcError> {
    match result {
        ServerResult::Result(result) => Ok(result),
        other => generic(&other),
    }
}

/// A result as the SDK's generic one: its `resultType`, `_meta` and every other key as written.
fn generic(result: &impl serde::Serialize) -> Result<GenericResult, RpcError> {
    let fault = |e: serde_json::Error| RpcError {
        code: -32603,
        message: format!("the result does not serialize: {e}"),
        data: None,
    };
    let Value::Object(mut map) = serde_json::to_value(result).map_err(fault)? else {
        return Err(fault(serde::ser::Error::custom("not an object")));
    };
    let result_type = match map.shift_remove("resultType") {
        Some(Value::String(kind)) => kind,
        _ => "complete".to_owned(),
    };
    let meta = match map.shift_remove("_meta") {
        Some(meta) => Some(serde_json::from_value(meta).map_err(fault)?),
        None => None,
    };
    Ok(GenericResult {
        meta,
        result_type,
        extra: Some(map),
    })
}

/// The SDK's error, passed through a tool's body with `?`, ends the call with it.
#[diagnostic::do_not_recommend]
impl IntoInterrupt for RpcError {
    fn into_interrupt(self) -> Interrupt {
        Interrupt::Error(Rpc {
            code: i32::try_from(self.code).unwrap_or(-32603),
            message: self.message,
            data: self.data,
        })
    }
}

#[cfg(test)]
#[path = "../../unit/rust_mcp_sdk/response.rs"]
mod tests;
