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
///   by `serde_json` (128 levels) whatever the limits. A reply held as a value has no text, so
///   its readers (`from_value`) do not measure it; [`Ask`](crate::ask::Ask), which gets its
///   replies as values from the SDK, does, on every version: a reply over `max_reply_bytes`
///   as it came, or over [`Ask::MAX_CARRIED_REPLY`](crate::ask::Ask::MAX_CARRIED_REPLY) once
///   cut to what its question reads, is refused with `ReplyTooLarge`. A schema's replies are
///   read under the limits it was read or built under, or those given to
///   [`RequestedSchema::with_limits`](crate::schema::RequestedSchema::with_limits) or
///   [`Form::with_limits`](crate::Form::with_limits); a derived type's, under the defaults.
/// - **Schemas**
///   ([`RequestedSchema::from_json_with`](crate::schema::RequestedSchema::from_json_with)):
///   at most `max_schema_bytes` of text, `max_properties` properties, `max_choices` choices per
///   select, and `pattern`s of at most `max_pattern_bytes`.
///
/// The defaults: 1 MiB per reply, 64 KiB per string, 100 violations kept, 2^28 units of pattern
/// work per reply; 1 MiB of schema text, 1,000 properties, 10,000 choices per select, patterns of
/// 1,000 bytes. [`Limits::UNLIMITED`] lifts them all.
///
/// ```
/// use elicit_core::{ElicitResult, Limits};
/// use elicit_core::schema::RequestedSchema;
///
/// let limits = Limits::default().with_max_string_bytes(1024);
/// assert_eq!(limits.max_reply_bytes(), 1 << 20);
/// assert_eq!(limits.max_properties(), 1000);
///
/// let schema = RequestedSchema::from_json(r#"{"type":"object","properties":{"note":{"type":"string"}}}"#)?;
/// let long = format!(r#"{{"action":"accept","content":{{"note":"{}"}}}}"#, "x".repeat(2000));
/// assert!(schema.parse_reply_json(&long).is_ok());
/// assert!(schema.with_limits(limits).parse_reply_json(&long).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Hostile input
///
/// Every case below has a test in the repository (`tests/tests/hostile.rs`, `tests/tests/costs.rs`,
/// `tests/tests/rules/`); none panics, and every cost is linear in the input with a small
/// constant.
///
/// | bad input | what you get |
/// |---|---|
/// | JSON nested 100,000 levels as the reply | error at the first `[`: "a reply must be a JSON object" |
/// | nested 100,000 levels inside content | the property's type error, or serde_json's "recursion limit exceeded" (128 levels) where the value is read |
/// | nested 100,000 levels where a value is skipped (decline content, `_meta`, an unknown key on the typed path) | skipped without recursion |
/// | a 10 MB string | `ReplyTooLarge` (default limit 1 MiB); with a larger reply limit, `TooLong` (default 64 KiB per string); the error never echoes more than 64 characters |
/// | 100,000 unknown keys | `ReplyTooLarge` by default; with no limits, ignored (typed) or kept (runtime), linear time; on a `deny_unknown_fields` form, one `UnknownProperty` each, up to the cap |
/// | `1e400`, `-1e400` | JSON error "number out of range" |
/// | `18446744073709551616`, `-9223372036854775809` for any integer width | `Maximum` / `Minimum` violation |
/// | `-0` for an integer | accepted as 0 |
/// | `0.5`, `0.9999999999999999` for an integer | `Type { expected: "integer" }` (read correctly rounded, never as 1) |
/// | `"\ud800"` (a lone surrogate), a raw control character in a string | JSON error |
/// | invalid UTF-8 bytes (`from_json` of bytes) | JSON error "invalid UTF-8" |
/// | a duplicate key | `DuplicateKey`, on the typed and runtime paths alike |
/// | `"Red"` for the choice `"red"`, `""` where `minLength` is 1 | `NotAChoice`, `MinLength(1)` |
/// | truncated JSON, an empty body, an array, a bare string, `null` | JSON error saying what was wrong |
/// | a reply that breaks 262,000 rules (1 MiB of bad items) | the first 100 violations and `Rule::More(n)`: "and n more violations" (`Limits::with_max_violations`) |
/// | 15 strings of 60 KB against a pattern whose search is slow (`(a\|aa){1,200}b`) | each search is charged its length times the compiled pattern's size against 2^28 per reply; past it, `Rule::PatternBudget`: refused unchecked, never accepted unchecked |
/// | a pattern of 10 KB, or one that compiles large (`a{1000}{1000}`) | schema refused: patterns of at most 1,000 bytes, 256 KiB once compiled |
/// | a schema of 20,000 properties (`from_json`) | refused over 1,000 properties; without limits, read in linear time |
/// | `required` listing 30,000 properties | linear time, without limits |
/// | a default on each of 30,000 properties | each default checked against its own property only |
/// | a multi-select default of 10,000 items over 10,000 choices | choices looked up by halves in a sorted list built once per schema |
/// | 10,000 property names alike (`p0000000…`) and as many unknown keys alike | keys looked up by halves in a sorted list of the schema's own names: no hash to collide |
/// | a multi-select answer of 30,000 items over 30,000 choices | linear time |
/// | one multi-select value repeated 100,000 times over 10,000 choices | the seen-set grows with the items, not the choices; `tests/costs.rs` bounds the bytes allocated |
/// | 10,000 values that break a 10 KB pattern | each violation shares the pattern, and the text cuts it at 64 characters |
/// | a property with a 100 KB name and 500 keywords to lint | the lints share the name (`tests/costs.rs`: under 20 times the input in heap) |
/// | 70,000 properties (past 16-bit indices) and 10,000 unknown keys | positions are `usize`: every key is looked up, none scans |
/// | two runtime contents of 10,000 unknown keys each, compared with `==` | each name looked up once, in a map of the other's values: linear time |
/// | a `SchemaBuilder` of 20,000 fields | refused over 1,000 properties before any field is read; without limits, repeated names found with a set, linear time |
/// | a choice listed twice, a schema text over 1 MiB, a select of 10,001 choices | schema refused |
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
