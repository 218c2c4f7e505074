//! The messages of elicitation as they travel: URL mode, the 2026-07-28 round trip,
//! JSON-RPC framing, and the client side.

pub mod client;
mod filling;
pub(crate) mod input;
pub(crate) mod jsonrpc;
#[cfg(feature = "sampling")]
pub(crate) mod sampling;
pub(crate) mod url_mode;
