//! What makes a form readable by a person: titles made from property names (clients show the
//! raw name when a property has no `title`), and the bounds a value must keep written into the
//! description (clients enforce `minimum` or `maxLength` without showing them: the MCP
//! Inspector silently turns 40 into 12 when a field's maximum is 12).

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::parse::canonical;
use super::rules::value_breaks;
use super::{Kind, Property, RequestedSchema, words};
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
    let Some(hint) = words::bounds(p).filter(|_| hints) else {
        return p.description.as_deref().map(Cow::Borrowed);
    };
    Some(Cow::Owned(match description {
        Some(d) => format!("{d} ({hint})"),
        None => capitalized(&hint),
    }))
}

/// `text` with its first letter in upper case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
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
#[path = "../../unit/schema/hints.rs"]
mod tests;
