//! Server-side rules that MCP schemas cannot express: `#[elicit(validate = ..)]`.
//!
//! A field validator is a `fn(&FieldType) -> Result<(), E>` with `E: Display`; a struct
//! validator is a `fn(&Self) -> Result<(), Invalid>`. Both run after the schema's rules pass
//! and `T` is built, and their failures come back in the same [`ElicitError`](crate::ElicitError),
//! named by field. The client never sees these rules, so say them in the message.

use std::fmt::Display;

/// What a struct-level validator found wrong: messages about named fields, or about the form.
///
/// ```
/// use elicit_core::Invalid;
///
/// fn check(start: u32, end: u32) -> Result<(), Invalid> {
///     if end < start {
///         return Err(Invalid::field("end", "must not be before start"));
///     }
///     Ok(())
/// }
/// assert!(check(3, 1).is_err());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Invalid {
    entries: Vec<(Option<String>, String)>,
}

impl Invalid {
    /// Nothing wrong yet; add entries with [`push_field`](Self::push_field) and
    /// [`push_form`](Self::push_form).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// One problem with the field named `property` on the wire.
    pub fn field(property: impl Into<String>, message: impl Display) -> Self {
        let mut invalid = Self::new();
        invalid.push_field(property, message);
        invalid
    }

    /// One problem with the form as a whole.
    pub fn form(message: impl Display) -> Self {
        let mut invalid = Self::new();
        invalid.push_form(message);
        invalid
    }

    /// Adds a problem with the field named `property` on the wire.
    pub fn push_field(&mut self, property: impl Into<String>, message: impl Display) {
        self.entries
            .push((Some(property.into()), message.to_string()));
    }

    /// Adds a problem with the form as a whole.
    pub fn push_form(&mut self, message: impl Display) {
        self.entries.push((None, message.to_string()));
    }

    /// Whether nothing was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub(crate) fn into_entries(self) -> Vec<(Option<String>, String)> {
        self.entries
    }
}
