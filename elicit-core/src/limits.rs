//! Caps on what a reply, or a schema that arrives as JSON, may cost to read.

/// Limits applied while reading a reply or a schema.
///
/// Every cost of reading is linear in the input; these caps bound the input, so that a hostile
/// peer can make a read neither long nor large. The defaults sit far above any form a person
/// fills in.
///
/// - **Replies**: a reply over `max_reply_bytes` is refused before it is parsed; a string
///   property over `max_string_bytes` is refused with [`Rule::TooLong`](crate::Rule::TooLong);
///   checking strings against `pattern`s costs at most `max_pattern_work` per reply (a string
///   past it is refused with [`Rule::PatternBudget`](crate::Rule::PatternBudget)); an error
///   keeps the first `max_violations` violations and counts the rest. Nesting depth is capped
///   by `serde_json` (128 levels) whatever the limits.
/// - **Schemas** ([`RequestedSchema::from_json_with`](crate::RequestedSchema::from_json_with)):
///   at most `max_schema_bytes` of text, `max_properties` properties, `max_choices` choices per
///   select, and `pattern`s of at most `max_pattern_bytes`.
///
/// ```
/// use elicit_core::Limits;
///
/// let limits = Limits::default().with_max_string_bytes(1024);
/// assert_eq!(limits.max_reply_bytes(), 1 << 20);
/// assert_eq!(limits.max_properties(), 1000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    max_reply_bytes: usize,
    max_string_bytes: usize,
    max_violations: usize,
    max_pattern_work: u64,
    max_schema_bytes: usize,
    max_properties: usize,
    max_choices: usize,
    max_pattern_bytes: usize,
}

impl Limits {
    /// 1 MiB per reply, 64 KiB per string, 100 violations, 2^28 units of pattern work (at most
    /// about a tenth of a second of searching); 1 MiB of schema, 1,000 properties, 10,000
    /// choices per select and patterns of 1,000 bytes.
    pub const DEFAULT: Limits = Limits {
        max_reply_bytes: 1 << 20,
        max_string_bytes: 64 << 10,
        max_violations: 100,
        max_pattern_work: 1 << 28,
        max_schema_bytes: 1 << 20,
        max_properties: 1_000,
        max_choices: 10_000,
        max_pattern_bytes: 1_000,
    };

    /// No caps.
    pub const UNLIMITED: Limits = Limits {
        max_reply_bytes: usize::MAX,
        max_string_bytes: usize::MAX,
        max_violations: usize::MAX,
        max_pattern_work: u64::MAX,
        max_schema_bytes: usize::MAX,
        max_properties: usize::MAX,
        max_choices: usize::MAX,
        max_pattern_bytes: usize::MAX,
    };

    /// Sets how many violations an error keeps (the rest are counted); at least one.
    #[must_use]
    pub fn with_max_violations(mut self, violations: usize) -> Self {
        self.max_violations = violations.max(1);
        self
    }

    /// How many violations an error keeps.
    #[must_use]
    pub fn max_violations(&self) -> usize {
        self.max_violations
    }
}

/// The other limits' setters and getters, each documented by what it bounds.
macro_rules! limits {
    ($($get:ident $set:ident: $ty:ty, $what:literal;)*) => {
        impl Limits {
            $(
                #[doc = concat!("Sets ", $what, ".")]
                #[must_use]
                pub fn $set(mut self, value: $ty) -> Self {
                    self.$get = value;
                    self
                }

                #[doc = concat!("The limit on ", $what, ".")]
                #[must_use]
                pub fn $get(&self) -> $ty {
                    self.$get
                }
            )*
        }
    };
}

limits! {
    max_reply_bytes with_max_reply_bytes: usize, "the size of a reply, in bytes";
    max_string_bytes with_max_string_bytes: usize, "the length of a string property's value, in bytes";
    max_pattern_work with_max_pattern_work: u64, "the pattern work of one reply: for each string checked against a `pattern`, its length plus one, times the size of the compiled pattern in bytes";
    max_schema_bytes with_max_schema_bytes: usize, "the size of a schema's text, in bytes";
    max_properties with_max_properties: usize, "how many properties a schema may have";
    max_choices with_max_choices: usize, "how many choices one select may have";
    max_pattern_bytes with_max_pattern_bytes: usize, "the length of a `pattern`, in bytes";
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}
