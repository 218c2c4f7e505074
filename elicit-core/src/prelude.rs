//! What a tool file needs, in one import: `use elicit_core::prelude::*;`.
//!
//! No name here clashes with rmcp's `rmcp::model::*` but [`ElicitResult`]: rmcp's model has an
//! untyped `ElicitResult` of its own. Where a file imports both globs, name this crate's with one
//! explicit import, which takes precedence over both:
//!
//! ```
//! # #[cfg(feature = "rmcp")]
//! # mod tool_file {
//! use elicit_core::prelude::*;
//! use elicit_core::ElicitResult;
//! use rmcp::model::*;
//! # pub fn names(_: ElicitResult<Confirm>, _: CallToolResult, _: Option<Ask>) {}
//! # }
//! ```
//!
//! The crate's `InputRequests`, `InputResponses`, `ProtocolVersion` and `RequestId` are left
//! out for the same reason: rmcp's model has types of those names. Tools written with
//! [`Ask`], the one way to ask (feature `ask`, turned on by each SDK's
//! feature), do not need them.

#[cfg(feature = "ask")]
pub use crate::ask::{Ask, Asked, Interrupt, RetryPolicy, StateKey};
pub use crate::{Confirm, ElicitError, ElicitResult, Form, UrlElicitResult};

/// `#[derive(Elicit)]`, and the trait it implements.
pub use crate::Elicit;
