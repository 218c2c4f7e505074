//! The `time` crate's date types as form fields.
//!
//! schemars does not describe `time`'s types, and `time`'s own serde formats are not RFC 3339, so
//! these wrappers give them the MCP formats: [`Date`] is `format: date` (`2026-11-30`), and
//! [`OffsetDateTime`] is `format: date-time` (`2026-11-30T12:00:00+01:00`, offset required). Both
//! parse strictly and write the same form back.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer};
use serde::{Serialize, Serializer};
use time::format_description::well_known::Rfc3339;

use super::InvalidFormat;
use crate::derive_support::ElicitValue;
use crate::schema::Format;

/// A calendar date, sent and read as an RFC 3339 full-date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Date(pub time::Date);

/// A date and time with its UTC offset, sent and read as an RFC 3339 date-time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OffsetDateTime(pub time::OffsetDateTime);

impl FromStr for Date {
    type Err = InvalidFormat;

    fn from_str(s: &str) -> Result<Date, InvalidFormat> {
        let invalid = || InvalidFormat::new(Format::Date, s);
        if !Format::Date.is_valid(s) {
            return Err(invalid());
        }
        // The format check guarantees `YYYY-MM-DD` of ASCII digits.
        let year: i32 = s[0..4].parse().map_err(|_| invalid())?;
        let month: u8 = s[5..7].parse().map_err(|_| invalid())?;
        let day: u8 = s[8..10].parse().map_err(|_| invalid())?;
        let month = time::Month::try_from(month).map_err(|_| invalid())?;
        time::Date::from_calendar_date(year, month, day)
            .map(Date)
            .map_err(|_| invalid())
    }
}

impl fmt::Display for Date {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.0;
        write!(
            f,
            "{:04}-{:02}-{:02}",
            d.year(),
            u8::from(d.month()),
            d.day()
        )
    }
}

impl FromStr for OffsetDateTime {
    type Err = InvalidFormat;

    fn from_str(s: &str) -> Result<OffsetDateTime, InvalidFormat> {
        let invalid = || InvalidFormat::new(Format::DateTime, s);
        if !Format::DateTime.is_valid(s) {
            return Err(invalid());
        }
        time::OffsetDateTime::parse(s, &Rfc3339)
            .map(OffsetDateTime)
            .map_err(|_| invalid())
    }
}

impl fmt::Display for OffsetDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.format(&Rfc3339) {
            Ok(text) => f.write_str(&text),
            Err(_) => Err(fmt::Error),
        }
    }
}

macro_rules! string_type {
    ($ty:ident, $inner:ty, $format:literal) => {
        impl Deref for $ty {
            type Target = $inner;

            fn deref(&self) -> &$inner {
                &self.0
            }
        }

        impl From<$inner> for $ty {
            fn from(value: $inner) -> $ty {
                $ty(value)
            }
        }

        impl From<$ty> for $inner {
            fn from(value: $ty) -> $inner {
                value.0
            }
        }

        impl Serialize for $ty {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.collect_str(self)
            }
        }

        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<$ty, D::Error> {
                let text = Cow::<str>::deserialize(deserializer)?;
                text.parse().map_err(de::Error::custom)
            }
        }

        impl JsonSchema for $ty {
            fn inline_schema() -> bool {
                true
            }

            fn schema_name() -> Cow<'static, str> {
                stringify!($ty).into()
            }

            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                super::formatted($format)
            }
        }

        impl ElicitValue for $ty {}
    };
}

string_type!(Date, time::Date, "date");
string_type!(OffsetDateTime, time::OffsetDateTime, "date-time");
