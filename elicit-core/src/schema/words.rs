//! A schema's facts in words, said in one place: what a property takes, the bounds its value
//! keeps, and its choices. The hints a form's descriptions carry, the fields a tool lists when no
//! form can be shown, and the violations a person reads ([`ElicitError::user_text`], the field
//! labels they saw, no schema keywords, no backticks, one line) all say them through here, so
//! the three never describe one field two ways.

use super::{Choice, Kind, Property, RequestedSchema};
use crate::bound::Bound;
use crate::error::{ElicitError, Location, Rule, Violation, plural};

/// What a value of `kind` is: "text", "an email address", "a whole number",
/// `one of "in" (Indoor), "out"`. Choices are named by their values, which is what a caller
/// writes back.
#[cfg(feature = "ask")]
pub(crate) fn kind(kind: &Kind) -> String {
    match kind {
        Kind::String(r) => match r.format {
            Some(format) => self::format(format),
            None => json_type("string"),
        },
        Kind::Number(r) => json_type(if r.integer { "integer" } else { "number" }),
        Kind::Boolean(_) => json_type("boolean"),
        Kind::Select(r) => format!("one of {}", values(&r.choices)),
        Kind::MultiSelect(r) => format!("a list of any of {}", values(&r.choices)),
    }
}

/// A JSON type as a person names it: "integer" is "a whole number", "array" "a list of
/// choices".
pub(crate) fn json_type(name: &str) -> String {
    match name {
        "integer" => "a whole number".into(),
        "number" => "a number".into(),
        "boolean" => "true or false".into(),
        "string" => "text".into(),
        "array" => "a list of choices".into(),
        other => format!("a {other}"),
    }
}

/// A format with its article: "an email address", "a date, such as 2026-12-24".
#[cfg(feature = "ask")]
fn format(format: crate::format::Format) -> String {
    use crate::format::Format;
    let article = match format {
        Format::Email | Format::Uri => "an",
        Format::Date | Format::DateTime => "a",
    };
    format!("{article} {}", format.describe())
}

/// The choices as the form shows them, by title where one is written: "Indoor, Outdoor".
pub(crate) fn labels(choices: &[Choice]) -> String {
    let labels: Vec<&str> = choices
        .iter()
        .map(|c| c.title.as_deref().unwrap_or(&c.value))
        .collect();
    labels.join(", ")
}

/// The choices by value, each with its title where that differs: `"in" (Indoor), "out"`.
#[cfg(feature = "ask")]
fn values(choices: &[Choice]) -> String {
    let values: Vec<String> = choices
        .iter()
        .map(|c| match &c.title {
            Some(title) if title != &c.value => format!("\"{}\" ({title})", c.value),
            _ => format!("\"{}\"", c.value),
        })
        .collect();
    values.join(", ")
}

/// The bounds of `p` in words, if it has any a person needs to know: "1–40 characters",
/// "1–12, a whole number", "choose at most 3".
pub(crate) fn bounds(p: &Property) -> Option<String> {
    match &p.kind {
        Kind::String(r) => span(r.min_length.filter(|&n| n > 0), r.max_length, |lo, hi| {
            let unit = |n: u64| if n == 1 { "character" } else { "characters" };
            match (lo, hi) {
                (Some(lo), Some(hi)) if lo == hi => format!("exactly {lo} {}", unit(lo)),
                (Some(lo), Some(hi)) => format!("{lo}–{hi} characters"),
                (Some(lo), None) => format!("at least {lo} {}", unit(lo)),
                (None, Some(hi)) => format!("at most {hi} {}", unit(hi)),
                (None, None) => String::new(),
            }
        }),
        Kind::Number(r) => {
            let hi = r.maximum.filter(|b| !type_limit(*b));
            // An unsigned type's 0 is its limit too, when the top is not a rule either.
            let lo = r
                .minimum
                .filter(|b| !(type_limit(*b) || (hi.is_none() && *b == Bound::Int(0))));
            let mut parts = Vec::new();
            match (lo, hi) {
                (Some(lo), Some(hi)) => parts.push(format!("{lo}–{hi}")),
                (Some(lo), None) => parts.push(format!("at least {lo}")),
                (None, Some(hi)) => parts.push(format!("at most {hi}")),
                (None, None) => {}
            }
            if let Some(b) = r.exclusive_minimum {
                parts.push(format!("more than {b}"));
            }
            if let Some(b) = r.exclusive_maximum {
                parts.push(format!("less than {b}"));
            }
            if r.integer && !parts.is_empty() {
                parts.push(json_type("integer"));
            }
            (!parts.is_empty()).then(|| parts.join(", "))
        }
        Kind::MultiSelect(r) => span(
            r.min_items.filter(|&n| n > 0),
            r.max_items,
            |lo, hi| match (lo, hi) {
                (Some(lo), Some(hi)) if lo == hi => format!("choose {lo}"),
                (Some(lo), Some(hi)) => format!("choose {lo}–{hi}"),
                (Some(lo), None) => format!("choose at least {lo}"),
                (None, Some(hi)) => format!("choose at most {hi}"),
                (None, None) => String::new(),
            },
        ),
        Kind::Boolean(_) | Kind::Select(_) => None,
    }
}

/// `words(lo, hi)` when either bound is set.
fn span(
    lo: Option<u64>,
    hi: Option<u64>,
    words: impl FnOnce(Option<u64>, Option<u64>) -> String,
) -> Option<String> {
    (lo.is_some() || hi.is_some()).then(|| words(lo, hi))
}

/// Whether `b` is an end of a Rust integer type's range (or the ±(2^53 − 1) cap on wider ones):
/// the type's own limit, not a rule the form chose, and noise in a hint.
fn type_limit(b: Bound) -> bool {
    const LIMITS: [i128; 11] = [
        i8::MIN as i128,
        i8::MAX as i128,
        u8::MAX as i128,
        i16::MIN as i128,
        i16::MAX as i128,
        u16::MAX as i128,
        i32::MIN as i128,
        i32::MAX as i128,
        u32::MAX as i128,
        -9_007_199_254_740_991,
        9_007_199_254_740_991,
    ];
    matches!(b, Bound::Int(i) if LIMITS.contains(&i))
}

impl ElicitError {
    /// The violations as a person reads them, on one line, each naming the field by the label
    /// the form showed (its `title`, else its name):
    /// `Party size must be at most 12 (you entered 40); Seating must be one of: Indoor, Outdoor`.
    ///
    /// `Display` is for code and models (wire names, schema keywords); this is for the user,
    /// for example in the message of a form asked again. `schema` is the form the reply
    /// answered.
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use elicit_core::schema::Field;
    ///
    /// let schema = RequestedSchema::builder()
    ///     .field(Field::integer("party_size").title("Party size").range(1, 12).required())
    ///     .field(Field::titled_select("seating", [("in", "Indoor"), ("out", "Outdoor")]).title("Seating"))
    ///     .build()?;
    /// let reply = r#"{"action":"accept","content":{"party_size":40,"seating":"roof"}}"#;
    /// let error = schema.parse_reply_json(reply).unwrap_err();
    /// assert_eq!(
    ///     error.user_text(&schema),
    ///     "Party size must be at most 12 (you entered 40); \
    ///      Seating must be one of: Indoor, Outdoor (you entered \"roof\")"
    /// );
    /// # Ok::<(), elicit_core::SchemaError>(())
    /// ```
    #[must_use]
    pub fn user_text(&self, schema: &RequestedSchema) -> String {
        let mut parts: Vec<String> = Vec::new();
        for v in self.violations() {
            let part = sentence(v, schema);
            if !parts.contains(&part) {
                parts.push(part);
            }
        }
        parts.join("; ")
    }
}

/// One violation as a sentence.
fn sentence(v: &Violation, schema: &RequestedSchema) -> String {
    let property = v
        .property()
        .and_then(|name| schema.properties().iter().find(|p| p.name == name));
    let label = match (v.location(), property) {
        (Location::Envelope, _) => return "The answer could not be read".into(),
        (Location::Content, _) => {
            return match v.rule() {
                rule @ (Rule::Custom(_) | Rule::More(_)) => rule_text(rule, None),
                _ => "The answer could not be read".into(),
            };
        }
        (_, Some(p)) => p.title.clone().unwrap_or_else(|| p.name.clone()),
        (_, None) => v.property().unwrap_or_default().to_owned(),
    };
    let label = match v.location() {
        Location::Item(_, index) => format!("{label}, choice {}", index + 1),
        _ => label,
    };
    let mut text = format!("{label} {}", rule_text(v.rule(), property));
    if let Some(received) = v.received().filter(|_| shows_received(v.rule())) {
        text.push_str(&format!(" (you entered {received})"));
    }
    text
}

/// Whether the value received helps the user see the mistake.
fn shows_received(rule: &Rule) -> bool {
    !matches!(
        rule,
        Rule::Required
            | Rule::TooLong(_)
            | Rule::Custom(_)
            | Rule::More(_)
            | Rule::PatternBudget
            | Rule::MinItems(_)
            | Rule::MaxItems(_)
    )
}

/// What the rule asks, in words, for the property (when known) it is about.
fn rule_text(rule: &Rule, property: Option<&Property>) -> String {
    match rule {
        Rule::Required => "is required".into(),
        Rule::Type { expected } => format!("must be {}", json_type(expected)),
        Rule::MinLength(n) => format!("must be at least {}", plural(*n, "character", "characters")),
        Rule::MaxLength(n) => format!("must be at most {}", plural(*n, "character", "characters")),
        Rule::Minimum(n) => format!("must be at least {n}"),
        Rule::Maximum(n) => format!("must be at most {n}"),
        Rule::ExclusiveMinimum(n) => format!("must be more than {n}"),
        Rule::ExclusiveMaximum(n) => format!("must be less than {n}"),
        Rule::Format(format) => format!("must be a valid {}", format.describe()),
        Rule::Pattern(_) | Rule::PatternBudget => "is not in the expected form".into(),
        Rule::NotAChoice => match property.and_then(|p| p.kind.choices()) {
            Some(list) if list.len() <= 12 => format!("must be one of: {}", labels(list)),
            _ => "must be one of the choices offered".into(),
        },
        Rule::MinItems(n) => format!("needs at least {}", plural(*n, "choice", "choices")),
        Rule::MaxItems(n) => format!("allows at most {}", plural(*n, "choice", "choices")),
        Rule::UniqueItems => "cannot hold the same choice twice".into(),
        Rule::TooLong(_) => "is too long".into(),
        Rule::UnknownProperty => "is not part of this form".into(),
        Rule::DuplicateKey => "was sent twice".into(),
        Rule::Custom(message) => message.clone(),
        Rule::More(n) => {
            let n = u64::try_from(*n).unwrap_or(u64::MAX);
            format!("and {}", plural(n, "more problem", "more problems"))
        }
        Rule::Deserialize(_)
        | Rule::Json(_)
        | Rule::ActionMissing
        | Rule::ActionInvalid
        | Rule::ContentNotObject
        | Rule::ReplyTooLarge(_) => match property.map(|p| &p.kind) {
            Some(Kind::Number(r)) if r.integer => {
                format!("must be {}", json_type("integer"))
            }
            _ => "was not accepted".into(),
        },
    }
}
