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
//! - `test_input_required_result_sampling`, `test_input_required_result_list_roots`: a
//!   completion from the client's model, and the client's roots, through `ask.sample` and
//!   `ask.roots`.
//! - `test_input_required_result_multiple_inputs`: a form, a completion and the roots in one
//!   round.
//! - the prompt `test_input_required_result_prompt`: `prompts/get` with one form, through
//!   `Ask::new`.

#[path = "../../shared/conformance.rs"]
mod conformance;
#[path = "support/http.rs"]
mod http;

use elicit_core::prelude::*;
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{tool, tool_handler, tool_router};

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
    async fn test_input_required_result_capabilities(&self, ask: Ask) -> Asked<String> {
        conformance::capabilities(ask).await
    }

    #[tool(description = "Asks the client's model for the capital of France.")]
    async fn test_input_required_result_sampling(&self, ask: Ask) -> Asked<String> {
        conformance::sampling(ask).await
    }

    #[tool(description = "Lists the client's roots.")]
    async fn test_input_required_result_list_roots(&self, ask: Ask) -> Asked<String> {
        conformance::list_roots(ask).await
    }

    #[tool(description = "Asks a form, a completion and the roots in one round.")]
    async fn test_input_required_result_multiple_inputs(&self, ask: Ask) -> Asked<String> {
        conformance::multiple(ask).await
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
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if request.name != "test_input_required_result_prompt" {
            return Err(ErrorData::invalid_params("no such prompt", None));
        }
        let ask = Ask::new(&request, &context);
        conformance::prompt_context(&ask)
            .await
            .map(|context| {
                let text = format!("Answer with this context: {context}");
                GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            })
            .into_prompt_response()
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
