//! The tools of the official MCP conformance suite's 2026-07-28 elicitation scenarios
//! (`input-required-result-*`, `@modelcontextprotocol/conformance` 0.2.0-alpha.12), written as a
//! user of this crate would write them: `#[tool]` functions that take an `Ask`.
//!
//! `cargo run -p elicit-rmcp-examples --example conformance_server` serves them over
//! streamable HTTP at `http://127.0.0.1:PORT/mcp` (port 0 by default: any free port, or the
//! first argument) and prints that URL as the first line of stdout. `tests/conformance/run.sh`
//! points the suite at it.
//!
//! - `test_input_required_result_elicitation`: one form, "What is your name?".
//! - `test_input_required_result_request_state`: one confirmation; the answer comes back with
//!   the sealed `requestState`, which is opened and checked before the body runs.
//! - `test_input_required_result_multi_round`: two forms, one round each.
//! - `test_input_required_result_tampered_state`: one form; an altered state is refused.
//! - `test_input_required_result_capabilities`: a form where the client can show one; where it
//!   cannot, the tool asks for what the client declared instead (a sampling request).
//! - the prompt `test_input_required_result_prompt`: `prompts/get` with one form, through the
//!   crate's SDK-free round-trip types (`Ask` serves tools).

#[path = "../../shared/conformance.rs"]
mod conformance;
#[path = "support/http.rs"]
mod http;

use conformance::UserContext;
use elicit_core::client::ElicitMode;
use elicit_core::prelude::*;
use elicit_core::{ElicitResult, InputRequests, InputResponse, InputResponses};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{tool, tool_handler, tool_router};
use serde_json::json;

#[derive(Clone)]
struct Conformance;

#[tool_router]
impl Conformance {
    #[tool(description = "Asks for the user's name in one round.")]
    async fn test_input_required_result_elicitation(&self, ask: Ask) -> Asked<String> {
        conformance::greet(ask).await
    }

    #[tool(description = "Asks for a confirmation; the answer returns with the sealed state.")]
    async fn test_input_required_result_request_state(&self, ask: Ask) -> Asked<String> {
        conformance::confirm(ask).await
    }

    #[tool(description = "Asks two questions, one round each.")]
    async fn test_input_required_result_multi_round(&self, ask: Ask) -> Asked<String> {
        conformance::two_steps(ask).await
    }

    #[tool(description = "Asks for the user's name; an altered state is refused.")]
    async fn test_input_required_result_tampered_state(&self, ask: Ask) -> Asked<String> {
        conformance::greet(ask).await
    }

    #[tool(description = "Asks only for what the client declared it can do.")]
    async fn test_input_required_result_capabilities(
        &self,
        ask: Ask,
    ) -> Result<CallToolResponse, ErrorData> {
        if ask.supports(ElicitMode::Form) {
            return conformance::greet(ask).await.into_response();
        }
        // No forms: a greeting written by the client's model instead, which this crate does
        // not ask for, so the tool writes rmcp's request itself.
        let sampling: InputRequest = serde_json::from_value(json!({
            "method": "sampling/createMessage",
            "params": {
                "messages": [{"role": "user", "content": {"type": "text", "text": "Generate a greeting"}}],
                "maxTokens": 50
            }
        }))
        .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        let requests = [("greeting".to_owned(), sampling)].into_iter().collect();
        Ok(InputRequiredResult::new(Some(requests), None).into())
    }
}

#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
impl rmcp::ServerHandler for Conformance {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_prompts()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompt = Prompt::new(
            "test_input_required_result_prompt",
            Some("A prompt that asks the user for its context"),
            None,
        );
        Ok(ListPromptsResult::with_all_items(vec![prompt]))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "test_input_required_result_prompt" {
            return Err(ErrorData::invalid_params("no such prompt", None));
        }
        let responses = InputResponses::from_rmcp(request.input_responses.as_ref(), None);
        let answer = responses
            .elicit::<UserContext>("user_context")
            .map_err(|e| ErrorData::invalid_params(e.to_string(), None))?;
        let context = match answer {
            InputResponse::Missing => {
                let mut requests = InputRequests::new();
                requests.elicit::<UserContext>("user_context");
                let required = elicit_core::InputRequired::new(requests);
                let result = InputRequiredResult::try_from(&required)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                return Ok(result.into());
            }
            InputResponse::Answered(ElicitResult::Accept(user)) => user.context,
            InputResponse::Answered(_) => "none".to_owned(),
        };
        let message =
            PromptMessage::new_text(Role::User, format!("Answer with this context: {context}"));
        Ok(GetPromptResult::new(vec![message]).into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let port = std::env::args().nth(1).unwrap_or_else(|| "0".to_owned());
    http::serve(
        &format!("127.0.0.1:{port}"),
        "conformance_server",
        Conformance,
    )
    .await
}
