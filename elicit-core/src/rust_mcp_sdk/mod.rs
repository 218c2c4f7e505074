//! Integration with rust-mcp-sdk 2.x (feature `rust-mcp-sdk`), the other Rust MCP SDK.
//!
//! The adapter of the [ask engine](crate::ask) for rust-mcp-sdk. The SDK speaks 2026-07-28
//! only, so each question is a round of `InputRequiredResult` and retry, with the answers so
//! far sealed in `requestState` ([`StateKey`](crate::ask::StateKey)). A tool body is the text
//! it is over rmcp ([`crate::rmcp`]); a body that answers with a `String` (one text block on
//! both SDKs, see [`IntoCallToolResult`]) is the same text, and one that builds the SDK's
//! `CallToolResult` differs in that line. [`ask_routes!`](crate::ask_routes) writes the
//! server's routes to its tools:
//!
//! ```
//! use elicit_core::ElicitResult;
//! use elicit_core::prelude::*;
//! use rust_mcp_sdk::mcp_server::ServerHandler;
//! use rust_mcp_sdk::schema::CallToolResult;
//! use serde_json::{Map, Value};
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
//! impl TripPlanner {
//!     /// Every tool of the server: its name, its arguments and its `Ask`.
//!     async fn call(&self, tool: &str, _arguments: Map<String, Value>, ask: Ask) -> Asked<CallToolResult> {
//!         match tool {
//!             "plan_trip" => plan_trip(ask).await,
//!             other => Asked::Stopped(Interrupt::Error(elicit_core::RpcError::invalid_params(
//!                 format!("no tool {other}"),
//!             ))),
//!         }
//!     }
//! }
//!
//! #[async_trait::async_trait]
//! impl ServerHandler for TripPlanner {
//!     // `tools/call`, and a retry whose answers hold a number the SDK cannot read (`2.5`),
//!     // both to `TripPlanner::call`.
//!     elicit_core::ask_routes!(TripPlanner::call);
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
//!   found" before the tool runs. [`ask_routes!`](crate::ask_routes) writes that route with
//!   the other (or write `handle_custom_request` with [`ask_custom`]): the call then reaches
//!   the same body, `3.0` reads as 3 in an integer field, and `2.5` is the form's own
//!   field-level error or re-ask. The SDK's checks of a `tools/call` hold there too: the
//!   version, and the capabilities the server (`self`) requires for `tools/call` and the tool.
//! - **Rounds are written by this crate.** [`Asked::into_server_result`](crate::ask::Asked::into_server_result) sends a round as the
//!   SDK's generic result, so nothing of a form is lost: the SDK's schema model would drop a
//!   select's choices (through serde), a `pattern` and the formats it does not know, write
//!   integer bounds and defaults as floats and sort the fields by name. Fields reach the client
//!   in the form's order.
//! - **Capabilities.** Do not declare `required_capabilities_for_tool_call(Elicitation)`: the
//!   SDK would then refuse a client without forms before the tool runs, and a question's
//!   fallback to the arguments ([`FormQuestion::or_arguments`](crate::ask::FormQuestion::or_arguments)) would never be reached. The
//!   engine reads the capability from each request's `_meta` and answers -32021 itself where a
//!   question needs one.
//! - **The user.** The state is bound to the principal of `runtime.auth_info_cloned()` (see
//!   [`ask`]).
//!
//! **How a call ends** is as with rmcp: content that breaks a form's rules (after any retries)
//! is a tool error naming every offending property; a refused `requestState`, a missing
//! capability, a question outside `ask.run` and the round cap are JSON-RPC errors.
//!
//! In this module `::rust_mcp_sdk` names the SDK crate.

mod port;
mod response;
mod routes;

pub use port::{CustomCall, ask, ask_custom, ask_prompt, ask_resource};

/// The SDK, for [`ask_routes!`](crate::ask_routes) to name its types wherever it is used.
#[doc(hidden)]
pub use ::rust_mcp_sdk as __sdk;
pub use response::IntoCallToolResult;

/// What a route of [`ask_routes!`](crate::ask_routes) returns: the SDK's `async_trait` future.
#[doc(hidden)]
pub type __Route<'a, T> = std::pin::Pin<
    Box<dyn Future<Output = Result<T, ::rust_mcp_sdk::schema::RpcError>> + Send + 'a>,
>;
