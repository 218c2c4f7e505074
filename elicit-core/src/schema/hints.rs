//! What makes a form readable by a person: titles made from property names (clients show the
//! raw name when a property has no `title`), and the bounds a value must keep written into the
//! description (clients enforce `minimum` or `maxLength` without showing them: the MCP
//! Inspector silently turns 40 into 12 when a field's maximum is 12).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::parse::canonical;
use super::rules::value_breaks;
use super::{Kind, Property, RequestedSchema};
use crate::bound::Bound;
use crate::error::ElicitError;

/// [`RequestedSchema::prefilled`].
pub(super) fn prefilled(
    schema: &RequestedSchema,
    content: &Map<String, Value>,
    error: &ElicitError,
) -> RequestedSchema {
    let original = schema;
    let mut schema = original.clone();
    let mut changed = false;
    for (i, p) in schema.properties.iter_mut().enumerate() {
        let Some(value) = content.get(&p.name) else {
            continue;
        };
        if error
            .violations()
            .iter()
            .any(|v| v.property() == Some(&p.name))
            || value_breaks(original, i, value).is_some()
        {
            continue;
        }
        changed |= set_default(&mut p.kind, value);
    }
    if changed {
        schema.reindex();
    }
    schema
}

/// Makes `value` the default of `kind`, when it is a value of that kind.
fn set_default(kind: &mut Kind, value: &Value) -> bool {
    match (kind, value) {
        (Kind::String(r), Value::String(s)) => r.default = Some(s.clone()),
        (Kind::Number(r), Value::Number(n)) => r.default = Some(canonical(n, r.integer)),
        (Kind::Boolean(d), Value::Bool(b)) => *d = Some(*b),
        (Kind::Select(r), Value::String(s)) => r.default = Some(s.clone()),
        (Kind::MultiSelect(r), Value::Array(items)) => {
            let Some(values) = items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<Vec<String>>>()
            else {
                return false;
            };
            r.default = Some(values);
        }
        _ => return false,
    }
    true
}

/// Gives every property without a title one made from its name.
pub(crate) fn title_untitled(schema: &mut RequestedSchema) {
    for p in &mut schema.properties {
        if p.title.is_none() {
            let title = human_title(&p.name);
            if !title.is_empty() {
                p.title = Some(title);
            }
        }
    }
}

/// `p`'s description as written on the wire: with `hints`, the bounds its value must keep are
/// appended, "Guests (1–12)", or stand alone as a sentence when it has none.
pub(crate) fn described(p: &Property, hints: bool) -> Option<Cow<'_, str>> {
    let description = p.description.as_deref().filter(|d| !d.is_empty());
    let Some(hint) = bound_hint(p).filter(|_| hints) else {
        return p.description.as_deref().map(Cow::Borrowed);
    };
    Some(Cow::Owned(match description {
        Some(d) => format!("{d} ({hint})"),
        None => capitalized(&hint),
    }))
}

/// The bounds of `p` in words, if it has any a person needs to know.
pub(crate) fn bound_hint(p: &Property) -> Option<String> {
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
            let ex_lo = r.exclusive_minimum;
            let ex_hi = r.exclusive_maximum;
            let mut parts = Vec::new();
            match (lo, hi) {
                (Some(lo), Some(hi)) => parts.push(format!("{lo}–{hi}")),
                (Some(lo), None) => parts.push(format!("at least {lo}")),
                (None, Some(hi)) => parts.push(format!("at most {hi}")),
                (None, None) => {}
            }
            if let Some(b) = ex_lo {
                parts.push(format!("more than {b}"));
            }
            if let Some(b) = ex_hi {
                parts.push(format!("less than {b}"));
            }
            if r.integer && !parts.is_empty() {
                parts.push("a whole number".into());
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

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
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

/// `party_size`, `partySize`, `party-size` → "Party size"; `user_id` → "User id";
/// `HTTPPort` → "HTTP port"; `address2` → "Address2". Words split at `_`, `-`, spaces and
/// lower-to-upper case changes; the first word is capitalized, the rest lower-cased, except
/// words written all in capitals (acronyms), which are kept.
pub(crate) fn human_title(name: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let chars: Vec<char> = name.chars().collect();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if matches!(c, '_' | '-' | ' ' | '.') {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1);
        // A new word at `aB`, and at the last capital of a run followed by a lower-case letter
        // (`HTTPPort`: `HTTP`, `Port`).
        let starts = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if starts && !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        word.push(c);
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut title = String::new();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            title.push(' ');
        }
        let acronym = word.chars().count() > 1 && word.chars().all(|c| !c.is_lowercase());
        if acronym {
            title.push_str(word);
        } else if i == 0 {
            let mut cs = word.chars();
            if let Some(first) = cs.next() {
                title.extend(first.to_uppercase());
                title.push_str(&cs.as_str().to_lowercase());
            }
        } else {
            title.push_str(&word.to_lowercase());
        }
    }
    title
}

#[cfg(test)]
mod tests {
    use super::human_title;

    #[test]
    fn names_become_sentence_case_titles() {
        for (name, title) in [
            ("party_size", "Party size"),
            ("partySize", "Party size"),
            ("party-size", "Party size"),
            ("PartySize", "Party size"),
            ("name", "Name"),
            ("user_id", "User id"),
            ("HTTPPort", "HTTP port"),
            ("api_URL", "Api URL"),
            ("address2", "Address2"),
            ("check_in_2", "Check in 2"),
            ("__weird__", "Weird"),
            ("été_prévu", "Été prévu"),
            ("x", "X"),
            // One capital is the start of a camelCase word, not an acronym.
            ("pointX", "Point x"),
            ("_", ""),
            ("", ""),
        ] {
            assert_eq!(human_title(name), title, "{name}");
        }
    }
}
