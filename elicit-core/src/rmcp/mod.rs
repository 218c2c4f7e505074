//! Integration with rmcp, the official Rust MCP SDK (feature `rmcp`).
//!
//! - [`ElicitPeerExt::elicit_typed`] on a server's `Peer<RoleServer>`: checks the client's
//!   capabilities, sends `T`'s schema for the negotiated protocol version, and returns a validated
//!   `ElicitResult<T>`. rmcp's own `Peer::elicit` sends a schema from the type but never checks
//!   the reply against it.
//! - [`ElicitPeerExt::elicit_typed_retrying`] runs the [retry loop](crate::retry).
//! - Conversions between this crate's schema, request and result types and rmcp's model types,
//!   both ways, and between the 2026-07-28 multi-round-trip types (`InputRequests`,
//!   `InputRequired`, `InputResponses`) and rmcp's.
//!
//! In this module `::rmcp` names the SDK crate.

mod convert;
mod peer;

pub use convert::Unrepresentable;
pub use peer::{ElicitOptions, ElicitPeerExt, PeerElicitError, negotiated_version};
