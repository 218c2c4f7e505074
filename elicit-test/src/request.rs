//! The three requests that may ask: `tools/call`, `prompts/get` and `resources/read`, each
//! with its final result, driven alike.

use rmcp::model::{
    self as m, CallToolRequest, CallToolRequestParams, ClientRequest, GetPromptRequest,
    GetPromptRequestParams, InputRequiredResult, ReadResourceRequest, ReadResourceRequestParams,
    ServerResult,
};

/// What one request came back with.
pub(crate) enum Reply<R> {
    Complete(R),
    InputRequired(InputRequiredResult),
}

/// A request that may ask, as the kit sends it.
pub(crate) trait Asking: Clone + Send + 'static {
    /// Its final result.
    type Result: Send;

    /// The retry's answers and state.
    fn answer(&mut self, responses: m::InputResponses, state: Option<String>);

    /// The request on the wire.
    fn request(self) -> ClientRequest;

    /// What a result of the server's is to it, if it is one of its.
    fn reply(result: ServerResult) -> Option<Reply<Self::Result>>;
}

impl Asking for CallToolRequestParams {
    type Result = m::CallToolResult;

    fn answer(&mut self, responses: m::InputResponses, state: Option<String>) {
        self.input_responses = Some(responses);
        self.request_state = state;
    }

    fn request(self) -> ClientRequest {
        ClientRequest::CallToolRequest(CallToolRequest::new(self))
    }

    fn reply(result: ServerResult) -> Option<Reply<Self::Result>> {
        match result {
            ServerResult::CallToolResult(mut result) => {
                // 2026-07-28 marks every result `"resultType": "complete"`; without the mark,
                // one tool's results compare equal across versions.
                result.result_type = None;
                Some(Reply::Complete(result))
            }
            ServerResult::InputRequiredResult(required) => Some(Reply::InputRequired(required)),
            _ => None,
        }
    }
}

impl Asking for GetPromptRequestParams {
    type Result = m::GetPromptResult;

    fn answer(&mut self, responses: m::InputResponses, state: Option<String>) {
        self.input_responses = Some(responses);
        self.request_state = state;
    }

    fn request(self) -> ClientRequest {
        ClientRequest::GetPromptRequest(GetPromptRequest::new(self))
    }

    fn reply(result: ServerResult) -> Option<Reply<Self::Result>> {
        match result {
            ServerResult::GetPromptResult(result) => Some(Reply::Complete(result)),
            ServerResult::InputRequiredResult(required) => Some(Reply::InputRequired(required)),
            _ => None,
        }
    }
}

impl Asking for ReadResourceRequestParams {
    type Result = m::ReadResourceResult;

    fn answer(&mut self, responses: m::InputResponses, state: Option<String>) {
        self.input_responses = Some(responses);
        self.request_state = state;
    }

    fn request(self) -> ClientRequest {
        ClientRequest::ReadResourceRequest(ReadResourceRequest::new(self))
    }

    fn reply(result: ServerResult) -> Option<Reply<Self::Result>> {
        match result {
            ServerResult::ReadResourceResult(result) => Some(Reply::Complete(result)),
            ServerResult::InputRequiredResult(required) => Some(Reply::InputRequired(required)),
            _ => None,
        }
    }
}
