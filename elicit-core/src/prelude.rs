//! What every tool file that asks needs, in one import: `use elicit_core::prelude::*;`. The
//! question the tool asks, the result it returns, the stop `?` passes on, and the derive.
//!
//! No name here clashes with rmcp's `rmcp::model::*`; the crate's `ElicitResult`,
//! `InputRequests`, `ProtocolVersion` and `RequestId` are left out because rmcp's model has
//! types of those names. Import what else a file uses by its path:
//!
//! ```
//! # #[cfg(feature = "rmcp")]
//! # mod tool_file {
//! use elicit_core::prelude::*;
//! use elicit_core::ElicitResult;
//! use elicit_core::ask::{RetryPolicy, StateKey};
//! use rmcp::model::*;
//! # pub fn names(_: ElicitResult<elicit_core::Confirm>, _: CallToolResult, _: Option<Ask>) {}
//! # pub fn more(_: RetryPolicy, _: StateKey) {}
//! # }
//! ```

#[cfg(feature = "ask")]
pub use crate::ask::{Ask, Asked, Interrupt};

/// `#[derive(Elicit)]`, and the trait it implements.
pub use crate::Elicit;
