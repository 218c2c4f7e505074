//! Integration with rust-mcp-sdk 2.x (feature `rust-mcp-sdk`), the other Rust MCP SDK.
//!
//! The adapter of the [ask engine](crate::ask) for rust-mcp-sdk. The SDK speaks 2026-07-28
//! only, so each question is a round of `InputRequiredResult` and retry, with the answers so
//! far sealed in `requestState` ([`StateKey`]). A tool body is the text it is over rmcp
//! ([`crate::rmcp`]) apart from the line that obtains the [`Ask`]. A body that answers with a
//! `String` (one text block on both SDKs, see [`IntoCallToolResult`]) is the same text; one
//! that builds the SDK's `CallToolResult` differs in that line:
//!
//! ```
//! use std::sync::Arc;
//!
//! use elicit_core::ElicitResult;
//! use elicit_core::prelude::*;
//! use rust_mcp_sdk::McpServer;
//! use rust_mcp_sdk::mcp_server::ServerHandler;
//! use rust_mcp_sdk::schema::schema_utils::CustomRequest;
//! use rust_mcp_sdk::schema::{
//!     CallToolRequestParams, CallToolResult, GenericResult, RpcError, ServerResult,
//! };
//!
//! # /// Where would you like to go?
//! # #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! # struct Trip { city: String, nights: u8 }
//! # /// A week or more: a few extras
//! # #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! # struct Extras { rental_car: bool }
//! async fn plan_trip(ask: Ask) -> Asked<CallToolResult> {
//!     ask.run(async {
//!         let trip = ask.form::<Trip>("trip").await?;
//!         let extras = match &trip {
//!             ElicitResult::Accept(trip) if trip.nights >= 7 => {
//!                 Some(ask.form::<Extras>("extras").await?)
//!             }
//!             _ => None,
//!         };
//!         let plan = serde_json::json!({ "trip": trip, "extras": extras });
//!         Ok(CallToolResult::text_content(vec![plan.to_string().into()]))
//!     })
//!     .await
//! }
//!
//! struct TripPlanner;
//!
//! #[async_trait::async_trait]
//! impl ServerHandler for TripPlanner {
//!     async fn handle_call_tool_request_mrtr(
//!         &self,
//!         params: CallToolRequestParams,
//!         _context: &rust_mcp_sdk::RequestContext,
//!         runtime: Arc<dyn McpServer>,
//!     ) -> Result<ServerResult, RpcError> {
//!         let ask = elicit_core::rust_mcp_sdk::ask(&params, &runtime).await;
//!         plan_trip(ask).await.into_server_result()
//!     }
//!
//!     // A retry whose answers hold a number the SDK's model cannot (`2.5`, `3.0`) comes here.
//!     async fn handle_custom_request(
//!         &self,
//!         request: CustomRequest,
//!         _context: &rust_mcp_sdk::RequestContext,
//!         runtime: Arc<dyn McpServer>,
//!     ) -> Result<GenericResult, RpcError> {
//!         match elicit_core::rust_mcp_sdk::ask_custom(&request, &runtime, self).await? {
//!             Some((_tool, ask)) => plan_trip(ask).await.into_generic_result(),
//!             None => Err(RpcError::method_not_found()),
//!         }
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! What differs from rmcp, and why:
//!
//! - **2026-07-28 only.** The SDK refuses every other version before a tool runs, so there
//!   are no live requests and no keep-alive. A question's deadline holds in rounds, measured
//!   from the round's result to the retry, and the sealed state's time to live bounds how late
//!   a retry may come. Its own client gives each round 30 seconds.
//! - **Fractional numbers.** The SDK reads a `tools/call` whose `inputResponses` hold a number
//!   it cannot (`2.5`, `3.0`, `1e2`, `-0`) as a custom request, and would answer "method not
//!   found". Route `handle_custom_request` through [`ask_custom`], as above: the call then
//!   reaches the same body, `3.0` reads as 3 in an integer field, and `2.5` is the form's own
//!   field-level error or re-ask. The SDK's checks of a `tools/call` hold there too: the
//!   version, and the capabilities the server (`self`) requires for `tools/call` and the tool.
//! - **Rounds are written by this crate.** [`Asked::into_server_result`] sends a round as the
//!   SDK's generic result, so nothing of a form is lost: the SDK's schema model would drop a
//!   select's choices (through serde), a `pattern` and the formats it does not know, write
//!   integer bounds and defaults as floats and sort the fields by name. Fields reach the client
//!   in the form's order.
//! - **Capabilities.** Do not declare `required_capabilities_for_tool_call(Elicitation)`: the
//!   SDK would then refuse a client without forms before the tool runs, and a question's
//!   fallback to the arguments ([`FormQuestion::or_arguments`]) would never be reached. The
//!   engine reads the capability from each request's `_meta` and answers -32021 itself where a
//!   question needs one.
//! - **The user.** The state is bound to the principal of `runtime.auth_info_cloned()` (see
//!   [`ask_with_key`]).
//!
//! **How a call ends** is as with rmcp: content that breaks a form's rules (after any retries)
//! is a tool error naming every offending property; a refused `requestState`, a missing
//! capability, a question outside `ask.run` and the round cap are JSON-RPC errors.
//!
//! In this module `::rust_mcp_sdk` names the SDK crate.

mod port;
mod response;

pub use port::{ask, ask_custom, ask_custom_with_key, ask_with_key};
pub use response::{IntoCallToolResult, generic_result, input_required};

/// The engine's names, where rust-mcp-sdk users look for them: the same items as in
/// [`elicit_core::ask`](crate::ask).
pub use crate::ask::{
    Ask, Asked, DEFAULT_MAX_ROUNDS, DEFAULT_TTL, ElicitMode, FormQuestion, Interrupt, MemoryStore,
    Question, Questions, RoundStore, SchemaQuestion, StateError, StateKey, StateKeyError,
    Unavailable, UrlQuestion, input_schema,
};
