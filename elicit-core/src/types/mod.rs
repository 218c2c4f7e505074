//! Field types for the string formats, each parsed strictly on deserialize.
//!
//! - [`Email`] (always available): an email address, `format: email`.
//! - With feature `chrono`: `chrono::NaiveDate` (`date`), `DateTime<Utc>` and
//!   `DateTime<FixedOffset>` (`date-time`) are field types.
//! - With feature `time`: `time::Date` and `time::OffsetDateTime` wrap the `time` crate's
//!   types (`date`, `date-time`).
//! - With feature `url`: `url::Url` is a field type (`uri`).
//!
//! Inside an [`ElicitResult`](crate::ElicitResult) the format is checked by the schema's rules
//! before the type sees the value, so a lenient parser never widens what is accepted.

#[cfg(feature = "chrono")]
mod chrono;
mod email;
#[cfg(feature = "time")]
pub mod time;
#[cfg(feature = "url")]
mod url;

pub use email::{Email, InvalidFormat};

use schemars::{Schema, json_schema};

/// `{"type":"string","format":..}`: the schema of a formatted string.
pub(crate) fn formatted(format: &str) -> Schema {
    json_schema!({ "type": "string", "format": format })
}
