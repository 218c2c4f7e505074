//! A schema's facts in words, said in one place: what a property takes, the bounds its value
//! keeps, and its choices. The hints a form's descriptions carry, the fields a tool lists when no
//! form can be shown, and the violations a person reads all say them through here, so the three
//! never describe one field two ways.

use super::{Choice, Kind, Property};
use crate::bound::Bound;

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
