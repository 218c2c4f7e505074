//! Caps on what a reply may cost to read.

/// Limits applied while reading a reply.
///
/// A reply over `max_reply_bytes` is refused before it is parsed; a string property over
/// `max_string_bytes` is refused with [`Rule::TooLong`](crate::Rule::TooLong). Nesting depth is
/// capped by `serde_json` (128 levels) whatever the limits.
///
/// ```
/// use elicit_core::Limits;
///
/// let limits = Limits::default().with_max_string_bytes(1024);
/// assert_eq!(limits.max_reply_bytes(), 1 << 20);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    max_reply_bytes: usize,
    max_string_bytes: usize,
}

impl Limits {
    /// 1 MiB per reply, 64 KiB per string: far above any form a person fills in.
    pub const DEFAULT: Limits = Limits {
        max_reply_bytes: 1 << 20,
        max_string_bytes: 64 << 10,
    };

    /// No caps.
    pub const UNLIMITED: Limits = Limits {
        max_reply_bytes: usize::MAX,
        max_string_bytes: usize::MAX,
    };

    /// Sets the largest reply, in bytes.
    pub fn with_max_reply_bytes(mut self, bytes: usize) -> Self {
        self.max_reply_bytes = bytes;
        self
    }

    /// Sets the longest string property value, in bytes.
    pub fn with_max_string_bytes(mut self, bytes: usize) -> Self {
        self.max_string_bytes = bytes;
        self
    }

    /// The largest reply, in bytes.
    pub fn max_reply_bytes(&self) -> usize {
        self.max_reply_bytes
    }

    /// The longest string property value, in bytes.
    pub fn max_string_bytes(&self) -> usize {
        self.max_string_bytes
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
