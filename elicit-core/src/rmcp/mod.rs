//! Integration with rmcp, the official Rust MCP SDK (feature `rmcp`, rmcp 3.11 or later).
//!
//! The adapter of the [ask engine](crate::ask) for rmcp:
//!
//! - [`Ask`](crate::ask::Ask): a tool's typed questions in straight-line code that works on every protocol
//!   version. Before 2026-07-28 each question is a live `elicitation/create`; on 2026-07-28,
//!   where a server cannot send requests mid-call, each is a round of `InputRequiredResult`
//!   and retry, with the answers so far sealed in `requestState` ([`StateKey`](crate::ask::StateKey)). A `#[tool]`
//!   function takes it as an argument, served through [`keep_arguments`]; a hand-written
//!   `call_tool`, `get_prompt` or `read_resource` builds one with
//!   [`Ask::new`](crate::ask::Ask::new) from its request ([`AskingRequest`]). It is the one way
//!   to ask.
//! - `TryFrom` conversions, both ways, between rmcp's model types and this crate's schema
//!   (`RequestedSchema`), requests (`FormRequest`, `UrlRequest`), results (`ElicitResult`,
//!   `UrlElicitResult`), the 2026-07-28 `InputRequests` and `InputRequired`, and
//!   `ProtocolVersion`.
//!
//! In this module `::rmcp` names the SDK crate.
//!
//! ```
//! use elicit_core::ElicitResult;
//! use elicit_core::prelude::*;
//! // By name, not `rmcp::model::*`: rmcp's model has an untyped `ElicitResult` of its own, and
//! // beside its glob `ElicitResult::Accept` finds that struct, not this crate's enum.
//! use rmcp::model::{CallToolResult, ContentBlock};
//! use rmcp::{tool, tool_handler, tool_router};
//!
//! # /// Where would you like to go?
//! # #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! # struct Trip { city: String, nights: u8 }
//! # /// A week or more: a few extras
//! # #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! # struct Extras { rental_car: bool }
//! #[derive(Clone)]
//! struct TripPlanner;
//!
//! #[tool_router]
//! impl TripPlanner {
//!     // `Asked`, not `Result<CallToolResult, _>`: on 2026-07-28 a call may end asking for
//!     // input, which only `Asked` carries.
//!     #[tool(description = "Plan a trip")]
//!     async fn plan_trip(&self, ask: Ask) -> Asked<CallToolResult> {
//!         ask.run(async {
//!             let trip = ask.form::<Trip>("trip").await?;
//!             let extras = match &trip {
//!                 ElicitResult::Accept(trip) if trip.nights >= 7 => {
//!                     Some(ask.form::<Extras>("extras").await?)
//!                 }
//!                 _ => None,
//!             };
//!             let plan = serde_json::json!({ "trip": trip, "extras": extras });
//!             Ok(CallToolResult::success(vec![ContentBlock::text(plan.to_string())]))
//!         })
//!         .await
//!     }
//! }
//!
//! #[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]
//! impl rmcp::ServerHandler for TripPlanner {}
//! # fn main() {}
//! ```
//!
//! `Ask` reads the call's arguments: serve the tools with
//! `#[tool_handler(router = elicit_core::rmcp::keep_arguments(Self::tool_router()))]`
//! ([`keep_arguments`]), which keeps them for `Ask` whatever the order of the extractors
//! (rmcp's `Parameters` takes them), and reads a call without `arguments` as `{}`. Where `Ask`
//! finds none for a tool that takes some, the call fails on every version with an error that
//! says so, rather than bind the sealed state to arguments it did not see. A question awaited
//! outside [`Ask::run`](crate::ask::Ask::run) is refused on every version with [`Interrupt::OutsideRun`](crate::ask::Interrupt::OutsideRun).
//!
//! **Retrying.** Without a policy a question is asked once: a cancel is the answer, and content
//! that breaks the form's rules ends the call with a tool error. [`Ask::with_retry`](crate::ask::Ask::with_retry) gives every
//! question of the call a policy, and a question's own `retrying` overrides it:
//!
//! ```
//! use elicit_core::prelude::*;
//! use elicit_core::ask::RetryPolicy;
//! use rmcp::model::*;
//!
//! /// Where would you like to go?
//! #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! struct Trip {
//!     city: String,
//! }
//!
//! async fn plan_trip(ask: Ask) -> Asked<CallToolResult> {
//!     // A cancel is asked once more; invalid content is asked again with the violations in
//!     // the message, up to twice. A decline stops at once.
//!     let ask = ask.with_retry(RetryPolicy::default());
//!     ask.run(async {
//!         let trip = ask.form::<Trip>("trip").await?;
//!         Ok(CallToolResult::success(vec![ContentBlock::text(format!("{trip:?}"))]))
//!     })
//!     .await
//! }
//! ```
//!
//! **When the client can't show a form.** A question that opts in with
//! [`FormQuestion::or_arguments`](crate::ask::FormQuestion::or_arguments) takes its answer from the tool's argument under its key, and
//! without one the call ends with [`Interrupt::Unavailable`](crate::ask::Interrupt::Unavailable), which says what the tool needs and
//! in which argument; [`input_schema`](crate::ask::input_schema) writes the tool's `inputSchema` for those arguments.
//! While a live request waits for the person, [`Ask::with_keep_alive`](crate::ask::Ask::with_keep_alive) sends progress.
//!
//! **Testing.** The `elicit-test` crate (a dev-dependency) runs a tool, a prompt or a resource
//! against a scripted client in the same process, on every version.
//!
//! **How a call ends.**
//!
//! - Content that breaks a form's rules (after any retries) is a tool error (`isError: true`)
//!   naming every offending property; so are a live request that failed, a question the
//!   client cannot show that opted into the arguments, and, before 2026-07-28, a client
//!   without the capability a question needs.
//! - A question whose deadline passes ends as a cancel that timed out, on every version: the
//!   body reads it as any cancel, and its `Attempt` says it timed out.
//! - A refused `requestState`, a missing capability on 2026-07-28
//!   (`MissingRequiredClientCapability`, -32021, with the `requiredCapabilities`), a reused key,
//!   a question outside `ask.run` and the round cap are JSON-RPC errors.
//!
//! **Who may continue a call.** A sealed state opens only for the caller it was sealed for.
//! On rmcp that is, by default, a digest of the `Authorization` header of the HTTP request
//! that carried the call (rmcp's streamable HTTP transport keeps the request's parts in the
//! context): a state sealed for one credential is refused with another, or with none. Over
//! stdio, or without a credential, the caller is nobody in particular, and any caller without
//! one may continue a call whose state it holds. A renewed token is another credential; a key
//! with [`StateKey::with_principal`](crate::ask::StateKey::with_principal) names the caller from the request context instead (a
//! verified OAuth subject, say), which survives a renewal.
//!
//! **Capabilities** are read per request before anything is sent
//! (`RequestContext::client_capabilities`: on 2026-07-28 they travel in each request's `_meta`,
//! before that they are the handshake's). `{"elicitation":{}}` means form mode.
//!
//! **Imports.** [`prelude`](crate::prelude) holds what a tool file needs. Its names do not clash
//! with `rmcp::model::*`, except `ElicitResult`: rmcp's model has an untyped struct of that name,
//! and with both globs `ElicitResult::Accept` is "no associated item named `Accept` found for
//! struct `rmcp::model::ElicitResult`". Import rmcp's types by name, as above, or add one
//! explicit `use elicit_core::ElicitResult;` (an explicit import takes precedence over both
//! globs).
//!
//! **What a tool returns.** A `#[tool]` function that asks returns `Asked<CallToolResult>`, the
//! run's ending as it is: on 2026-07-28 a call may end asking for input, which a
//! `Result<CallToolResult, ErrorData>` cannot carry, so a tool declared to return `Result` that
//! ends with `ask.run(..).await` is "expected `Result<CallToolResult, ErrorData>`, found
//! `Asked<CallToolResult>`". A hand-written `call_tool` ends with `.into_response()`, rmcp's
//! `CallToolResponse`.
//!
//! **`?` in a body** takes this crate's and rmcp's errors (`ErrorData`) as they are. Any other
//! error says first what it means for the call ([`IntoInterrupt`](crate::ask::IntoInterrupt)):
//! `.map_err(|e| RpcError::internal(e.to_string()))?` ends the call with an error the client
//! sees, and `.map_err(|e| Interrupt::retryable(RpcError::internal(e.to_string())))?` lets the
//! client retry the round, only where nothing happened yet.

mod convert;
mod extract;
mod port;
mod response;
mod schema;

pub use convert::Unrepresentable;
pub use extract::{KeepArguments, keep_arguments};
pub use port::AskingRequest;
