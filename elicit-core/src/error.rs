//! Errors: why a reply was refused ([`ElicitError`]) and why a schema was refused ([`SchemaError`]).

use std::fmt;
use std::sync::Arc;

use crate::bound::Bound;
use crate::format::Format;

/// Longest rendering of a received value kept in a [`Violation`], in characters.
const RECEIVED_MAX_CHARS: usize = 64;

/// Where in a reply a [`Violation`] was found.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Location {
    /// The reply envelope itself (`action`, or the JSON text).
    Envelope,
    /// The accepted content as a whole (its shape, or a rule about several fields).
    Content,
    /// A property of `content`, by its name on the wire.
    Property(String),
    /// One item of a multi-select property: the property's wire name and the item's index.
    Item(String, usize),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Envelope => f.write_str("reply"),
            Location::Content => f.write_str("content"),
            Location::Property(name) => write!(f, "`{name}`"),
            Location::Item(name, index) => write!(f, "`{name}[{index}]`"),
        }
    }
}

/// A size in bytes as a person reads it: in MiB or KiB where it is a whole number of them,
/// else in bytes with thousands separated.
struct Size(usize);

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            0 => f.write_str("0 bytes"),
            n if n % (1 << 20) == 0 => write!(f, "{} MiB", n >> 20),
            n if n % (1 << 10) == 0 => write!(f, "{} KiB", n >> 10),
            n => {
                let digits = n.to_string();
                let mut out = String::new();
                for (i, digit) in digits.chars().enumerate() {
                    if i > 0 && (digits.len() - i) % 3 == 0 {
                        out.push(',');
                    }
                    out.push(digit);
                }
                write!(f, "{out} bytes")
            }
        }
    }
}

/// The rule a [`Violation`] broke.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Rule {
    /// The reply cannot be read: it is not well-formed JSON or not UTF-8, or it is JSON of
    /// another shape than a reply's (an array where an object belongs); the text says which.
    Json(String),
    /// The reply has no `action`.
    ActionMissing,
    /// `action` is not exactly `"accept"`, `"decline"` or `"cancel"`.
    ActionInvalid,
    /// A key appears twice in the same object.
    DuplicateKey,
    /// Accepted `content` is not a JSON object.
    ContentNotObject,
    /// A required property is absent.
    Required,
    /// A property the schema does not list, in a form that refuses unknown properties.
    UnknownProperty,
    /// The value has the wrong JSON type; `expected` names the schema's type.
    Type {
        /// The JSON type the schema asks for (`string`, `integer`, `number`, `boolean`, `array`).
        expected: &'static str,
    },
    /// A string shorter than `minLength` (in Unicode scalar values).
    MinLength(u64),
    /// A string longer than `maxLength` (in Unicode scalar values).
    MaxLength(u64),
    /// A number below `minimum`.
    Minimum(Bound),
    /// A number above `maximum`.
    Maximum(Bound),
    /// A string that is not a valid value of the `format`.
    Format(Format),
    /// A string with no match for the schema's `pattern` (outside the MCP subset; enforced when
    /// a runtime schema carries it). The pattern is shared with the schema.
    Pattern(Arc<str>),
    /// A string the reply's pattern work had no room left to check
    /// ([`Limits::max_pattern_work`](crate::Limits::max_pattern_work)): refused unchecked.
    PatternBudget,
    /// A number not above `exclusiveMinimum`.
    ExclusiveMinimum(Bound),
    /// A number not below `exclusiveMaximum`.
    ExclusiveMaximum(Bound),
    /// A value that is not one of the choices of a single- or multi-select.
    NotAChoice,
    /// A multi-select with fewer items than `minItems`.
    MinItems(u64),
    /// A multi-select with more items than `maxItems`.
    MaxItems(u64),
    /// A multi-select that holds the same choice twice: no checkbox list sends it, so a
    /// broken or hostile client did.
    UniqueItems,
    /// A string longer than the configured string limit, in bytes.
    TooLong(usize),
    /// A reply larger than the configured size limit, in bytes.
    ReplyTooLarge(usize),
    /// The value passed the schema, but the Rust type refused it; the text is serde's message.
    Deserialize(String),
    /// A server-side rule failed; the text is its message.
    Custom(String),
    /// More violations than an error keeps ([`Limits::max_violations`](crate::Limits::max_violations)):
    /// how many more there were.
    More(usize),
}

impl Rule {
    /// The rule's name, as the JSON Schema keyword it checks where there is one (`minLength`,
    /// `enum`, `required`, ...): for logs and traces, which must not hold the value.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Rule::Json(_) => "json",
            Rule::ActionMissing | Rule::ActionInvalid => "action",
            Rule::DuplicateKey => "duplicateKey",
            Rule::ContentNotObject => "content",
            Rule::Required => "required",
            Rule::UnknownProperty => "unknownProperty",
            Rule::Type { .. } => "type",
            Rule::MinLength(_) => "minLength",
            Rule::MaxLength(_) => "maxLength",
            Rule::Minimum(_) => "minimum",
            Rule::Maximum(_) => "maximum",
            Rule::Format(_) => "format",
            Rule::Pattern(_) => "pattern",
            Rule::PatternBudget => "patternBudget",
            Rule::ExclusiveMinimum(_) => "exclusiveMinimum",
            Rule::ExclusiveMaximum(_) => "exclusiveMaximum",
            Rule::NotAChoice => "enum",
            Rule::MinItems(_) => "minItems",
            Rule::MaxItems(_) => "maxItems",
            Rule::UniqueItems => "uniqueItems",
            Rule::TooLong(_) => "maxStringLength",
            Rule::ReplyTooLarge(_) => "maxReplySize",
            Rule::Deserialize(_) => "deserialize",
            Rule::Custom(_) => "custom",
            Rule::More(_) => "more",
        }
    }
}

/// `n` and its noun: "1 character", "2 characters".
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Json(msg) => write!(f, "cannot be read: {msg}"),
            Rule::ActionMissing => f.write_str("has no `action`"),
            Rule::ActionInvalid => {
                f.write_str("`action` must be exactly \"accept\", \"decline\" or \"cancel\"")
            }
            Rule::DuplicateKey => f.write_str("appears more than once"),
            Rule::ContentNotObject => f.write_str("must be a JSON object"),
            Rule::Required => f.write_str("is required but missing"),
            Rule::UnknownProperty => f.write_str("is not a property of this form"),
            Rule::Type { expected } => write!(f, "must be of type {expected}"),
            Rule::MinLength(n) => write!(
                f,
                "must be at least {} long (minLength)",
                plural(*n, "character", "characters")
            ),
            Rule::MaxLength(n) => write!(
                f,
                "must be at most {} long (maxLength)",
                plural(*n, "character", "characters")
            ),
            Rule::Minimum(n) => write!(f, "must be at least {n} (minimum)"),
            Rule::Maximum(n) => write!(f, "must be at most {n} (maximum)"),
            Rule::Format(format) => write!(f, "must be a valid {} (format)", format.describe()),
            Rule::Pattern(p) => write!(f, "must match the pattern {:?}", Shortened(p)),
            Rule::PatternBudget => f.write_str(
                "could not be checked against its pattern: the reply's pattern work is spent",
            ),
            Rule::ExclusiveMinimum(n) => {
                write!(f, "must be greater than {n} (exclusiveMinimum)")
            }
            Rule::ExclusiveMaximum(n) => {
                write!(f, "must be less than {n} (exclusiveMaximum)")
            }
            Rule::NotAChoice => f.write_str("must be one of the listed choices (enum)"),
            Rule::MinItems(n) => write!(
                f,
                "must have at least {} (minItems)",
                plural(*n, "choice selected", "choices selected")
            ),
            Rule::MaxItems(n) => write!(
                f,
                "must have at most {} (maxItems)",
                plural(*n, "choice selected", "choices selected")
            ),
            Rule::UniqueItems => f.write_str("must not select the same choice twice"),
            Rule::TooLong(n) => write!(
                f,
                "is longer than the limit of {} for one field's answer",
                Size(*n)
            ),
            Rule::ReplyTooLarge(n) => {
                write!(
                    f,
                    "is larger than the limit of {} for a whole answer",
                    Size(*n)
                )
            }
            Rule::Deserialize(msg) => write!(f, "was refused by the Rust type: {msg}"),
            Rule::Custom(msg) => f.write_str(msg),
            Rule::More(n) => write!(
                f,
                "and {n} more {}",
                if *n == 1 { "violation" } else { "violations" }
            ),
        }
    }
}

/// Text cut, as received values are, to `RECEIVED_MAX_CHARS` characters.
struct Shortened<'a>(&'a str);

impl fmt::Debug for Shortened<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(RECEIVED_MAX_CHARS) {
            Some((cut, _)) => write!(f, "{:?}…", &self.0[..cut]),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// One broken rule in a reply: where, which rule, and what was received.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    location: Location,
    rule: Rule,
    received: Option<String>,
}

impl Violation {
    /// Creates a violation; `received` is truncated to a short rendering.
    pub fn new(location: Location, rule: Rule, received: Option<String>) -> Self {
        Violation {
            location,
            rule,
            received: received.map(truncate),
        }
    }

    /// Where the violation is.
    #[must_use]
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The property's wire name, when the violation is about a property or one of its items.
    #[must_use]
    pub fn property(&self) -> Option<&str> {
        match &self.location {
            Location::Property(name) | Location::Item(name, _) => Some(name),
            Location::Envelope | Location::Content => None,
        }
    }

    /// The rule that was broken.
    #[must_use]
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// A short rendering of the value received, when there was one.
    #[must_use]
    pub fn received(&self) -> Option<&str> {
        self.received.as_deref()
    }
}

fn truncate(text: String) -> String {
    match text.char_indices().nth(RECEIVED_MAX_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.location, self.rule)?;
        if let Some(received) = &self.received {
            write!(f, "; received {received}")?;
        }
        Ok(())
    }
}

/// A reply that could not be turned into a typed result, with every violation found.
///
/// `Display` writes one violation per line.
#[derive(Debug, Clone, PartialEq)]
pub struct ElicitError {
    violations: Vec<Violation>,
}

impl ElicitError {
    /// An error holding `violations`. An empty list is given a generic entry so that an error
    /// always says something.
    #[must_use]
    pub fn new(mut violations: Vec<Violation>) -> Self {
        if violations.is_empty() {
            violations.push(Violation::new(
                Location::Envelope,
                Rule::Deserialize("the reply was refused".into()),
                None,
            ));
        }
        ElicitError { violations }
    }

    /// Every violation found: envelope problems first, then by property in form order.
    #[must_use]
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Whether the reply was refused for its content (a form field), as opposed to its envelope.
    /// A content error is worth showing the user and asking again.
    #[must_use]
    pub fn is_content_error(&self) -> bool {
        self.violations
            .iter()
            .any(|v| v.property().is_some() || v.location == Location::Content)
    }
}

impl fmt::Display for ElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, violation) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ElicitError {}

/// A schema that cannot be used for MCP elicitation, or cannot be expressed in a protocol version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    property: Option<String>,
    message: String,
}

impl SchemaError {
    /// An error about the schema as a whole.
    pub fn root(message: impl Into<String>) -> Self {
        SchemaError {
            property: None,
            message: message.into(),
        }
    }

    /// An error about one property, by its wire name.
    pub fn property(property: impl Into<String>, message: impl Into<String>) -> Self {
        SchemaError {
            property: Some(property.into()),
            message: message.into(),
        }
    }

    /// The property the error is about, if any.
    #[must_use]
    pub fn property_name(&self) -> Option<&str> {
        self.property.as_deref()
    }

    /// What is wrong, in plain words.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.property {
            Some(property) => write!(f, "property `{property}`: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for SchemaError {}

#[cfg(test)]
#[path = "../unit/error.rs"]
mod tests;
