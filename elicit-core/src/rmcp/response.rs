//! How a tool that asks ends on rmcp: [`Asked`] and [`Interrupt`] as a `tools/call` response,
//! and rmcp's errors passed through a body with `?`.

use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ErrorCode, ErrorData, GetPromptResponse,
    GetPromptResult, InputRequiredResult, ReadResourceResponse, ReadResourceResult,
};

use crate::ask::{Asked, Ending, Interrupt, IntoInterrupt};
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

impl<R> Asked<R> {
    /// The result, or the round that asks, of a request that is no tool call: a stop is a
    /// JSON-RPC error, as a tool error does not exist outside `tools/call` (its text the
    /// error's message, code -32603).
    fn into_other<T>(
        self,
        input: impl FnOnce(InputRequiredResult) -> T,
    ) -> Result<R, Result<T, ErrorData>> {
        match self {
            Asked::Done(result) => Ok(result),
            Asked::InputRequired(required) => Err(InputRequiredResult::try_from(&required)
                .map(input)
                .map_err(|e| ErrorData::internal_error(e.to_string(), None))),
            Asked::Stopped(interrupt) => Err(Err(match interrupt.ending() {
                Ending::ToolError { text, .. } => ErrorData::internal_error(text, None),
                Ending::Rpc(error) => error_data(error),
            })),
        }
    }
}

impl Asked<GetPromptResult> {
    /// The `prompts/get` response of a prompt that asks ([`Ask::new`](crate::ask::Ask::new) of a `prompts/get`).
    pub fn into_prompt_response(self) -> Result<GetPromptResponse, ErrorData> {
        self.into_other(GetPromptResponse::InputRequired)
            .map_or_else(|other| other, |done| Ok(GetPromptResponse::Complete(done)))
    }
}

impl Asked<ReadResourceResult> {
    /// The `resources/read` response of a resource that asks
    /// ([`Ask::new`](crate::ask::Ask::new) of a `resources/read`).
    pub fn into_resource_response(self) -> Result<ReadResourceResponse, ErrorData> {
        self.into_other(ReadResourceResponse::InputRequired)
            .map_or_else(
                |other| other,
                |done| Ok(ReadResourceResponse::Complete(done)),
            )
    }
}

impl<R: IntoCallToolResult> IntoCallToolResult for Asked<R> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.into_response()
    }
}

/// rmcp's error, passed through a tool's body with `?`, ends the call with it, recorded as
/// every ending of a body that began ([`Interrupt::Error`]).
#[diagnostic::do_not_recommend]
impl IntoInterrupt for ErrorData {
    fn into_interrupt(self) -> Interrupt {
        Interrupt::Error(self.into())
    }
}

/// rmcp's error as a JSON-RPC error of this crate's: for
/// [`Interrupt::retryable`](crate::ask::Interrupt::retryable), say.
impl From<ErrorData> for RpcError {
    fn from(error: ErrorData) -> Self {
        RpcError {
            code: error.code.0,
            message: error.message.into_owned(),
            data: error.data,
        }
    }
}

fn error_data(error: RpcError) -> ErrorData {
    ErrorData::new(ErrorCode(error.code), error.message, error.data)
}
