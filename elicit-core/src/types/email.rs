//! [`Email`]: a string that is an email address, checked when it is deserialized or built.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::str::FromStr;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer};
use serde::{Serialize, Serializer};

use crate::derive_support::ElicitValue;
use crate::schema::Format;

/// A string that does not have the format its type requires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidFormat {
    format: Format,
    value: String,
}

impl InvalidFormat {
    pub(crate) fn new(format: Format, value: &str) -> Self {
        InvalidFormat {
            format,
            value: value.chars().take(64).collect(),
        }
    }

    /// The format the value should have had.
    #[must_use]
    pub fn format(&self) -> Format {
        self.format
    }
}

impl fmt::Display for InvalidFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a valid {}",
            self.value,
            self.format.describe()
        )
    }
}

impl std::error::Error for InvalidFormat {}

/// An email address: a form field sent as `{"type":"string","format":"email"}` and refused on
/// deserialize unless it is a valid address, wherever it is deserialized.
///
/// ```
/// use elicit_core::Email;
///
/// let email: Email = "ada@example.com".parse().unwrap();
/// assert_eq!(email.as_str(), "ada@example.com");
/// assert!("not-an-email".parse::<Email>().is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Email(String);

impl Email {
    /// Checks `address` and wraps it.
    pub fn new(address: impl Into<String>) -> Result<Email, InvalidFormat> {
        let address = address.into();
        if Format::Email.is_valid(&address) {
            Ok(Email(address))
        } else {
            Err(InvalidFormat::new(Format::Email, &address))
        }
    }

    /// The address.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The address as an owned string.
    #[must_use]
    pub fn into_inner(self) -> String {
        self.0
    }
}

impl Deref for Email {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Email {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl FromStr for Email {
    type Err = InvalidFormat;

    fn from_str(s: &str) -> Result<Email, InvalidFormat> {
        Email::new(s)
    }
}

impl From<Email> for String {
    fn from(email: Email) -> String {
        email.0
    }
}

impl Serialize for Email {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Email {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Email, D::Error> {
        let address = String::deserialize(deserializer)?;
        Email::new(address).map_err(de::Error::custom)
    }
}

impl JsonSchema for Email {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Email".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        super::formatted("email")
    }
}

impl ElicitValue for Email {}
