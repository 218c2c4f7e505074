//! How a tool that asks ends on rmcp: [`Asked`] and [`Interrupt`] as a `tools/call` response,
//! and rmcp's errors passed through a body with `?`.

use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData, InputRequiredResult,
};

use crate::ask::{Asked, Ending, Interrupt};
use crate::protocol::jsonrpc::RpcError;

impl Interrupt {
    /// The `tools/call` response this interrupt ends the call with: a tool error (`isError`)
    /// for what the user or the client's answers caused, a JSON-RPC error for a request the
    /// server refuses or a fault in the tool.
    pub fn into_response(self) -> Result<CallToolResponse, ErrorData> {
        match self.ending() {
            Ending::ToolError { text, structured } => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
                result.structured_content = structured;
                Ok(result.into())
            }
            Ending::Rpc(error) => Err(error_data(error)),
        }
    }
}

impl<R> Asked<R> {
    /// The `tools/call` response.
    pub fn into_response(self) -> Result<CallToolResponse, ErrorData>
    where
        R: IntoCallToolResult,
    {
        match self {
            Asked::Done(result) => result.into_call_tool_result(),
            Asked::InputRequired(required) => InputRequiredResult::try_from(&required)
                .map(Into::into)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None)),
            Asked::Stopped(interrupt) => interrupt.into_response(),
        }
    }
}

impl<R: IntoCallToolResult> IntoCallToolResult for Asked<R> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.into_response()
    }
}

/// rmcp's error, passed through a tool's body with `?`, ends the call with it.
impl From<ErrorData> for Interrupt {
    fn from(error: ErrorData) -> Self {
        Interrupt::Error(RpcError {
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        })
    }
}

fn error_data(error: RpcError) -> ErrorData {
    ErrorData::new(ErrorCode(error.code), error.message, error.data)
}
