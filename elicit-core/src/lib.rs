#![doc = include_str!("guide.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// docs.rs (`--cfg docsrs`, nightly) labels each item gated behind a feature with that feature.
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "ask")]
#[cfg_attr(docsrs, doc(cfg(feature = "ask")))]
pub mod ask;
mod bound;
mod custom;
mod elicit;
mod error;
mod form;
mod format;
mod limits;
pub mod prelude;
mod protocol;
mod reply;
mod result;
#[cfg(feature = "rmcp")]
pub mod rmcp;
#[cfg(feature = "rust-mcp-sdk")]
#[cfg_attr(docsrs, doc(cfg(feature = "rust-mcp-sdk")))]
pub mod rust_mcp_sdk;
pub mod schema;
mod sort;
mod types;
mod version;

/// What generated code uses. Not a public API: the name changes with any change to it.
#[doc(hidden)]
#[path = "derive_support/mod.rs"]
pub mod __private_v4;
use __private_v4 as derive_support;

pub use custom::Invalid;
pub use derive_support::{ElicitChoice, ElicitField, ElicitValue};
// Bounds of `Elicit` that say what to derive when one is missing: named in compile errors at
// the crate root, never written by a user.
#[doc(hidden)]
pub use derive_support::{HasDeserialize, HasJsonSchema};
pub use elicit::Elicit;
pub use error::{ElicitError, Location, Rule, SchemaError, Violation};
pub use form::Confirm;
pub use form::Form;
pub use limits::Limits;
pub use protocol::client;
pub use protocol::input::{InputRequests, InputRequired};
pub use protocol::jsonrpc::{RequestId, RpcError};
#[cfg(feature = "sampling")]
#[cfg_attr(docsrs, doc(cfg(feature = "sampling")))]
pub use protocol::sampling::{
    CreateMessageResult, Role, Root, SamplingContent, SamplingMessage, SamplingRequest, StopReason,
};
pub use protocol::url_mode::{
    ElicitationComplete, UrlElicitResult, UrlElicitationRequired, UrlRequest, UrlRequestError,
};
pub use reply::{Content, JsonText};
pub use result::{ElicitAction, ElicitResult};
pub use schema::request::FormRequest;
#[cfg(feature = "time")]
pub use types::time;
pub use types::{Email, InvalidFormat};
pub use version::{ProtocolVersion, UnknownVersion};

#[cfg(feature = "derive")]
pub use elicit_derive::Elicit;
