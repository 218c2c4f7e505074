//! Writing a [`RequestedSchema`] as the JSON that goes on the wire.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use super::hints::described;
use super::{Choice, Kind, MultiSelectRules, Pattern, Property, RequestedSchema, SelectStyle};
use crate::error::SchemaError;
use crate::format::Format;
use crate::version::ProtocolVersion;

impl Serialize for RequestedSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(dialect) = &self.dialect {
            map.serialize_entry("$schema", dialect)?;
        }
        map.serialize_entry("type", "object")?;
        let properties = Properties(&self.properties, self.bound_hints);
        map.serialize_entry("properties", &properties)?;
        if self.properties.iter().any(|p| p.required) {
            map.serialize_entry("required", &Required(&self.properties))?;
        }
        map.end()
    }
}

/// The properties, each description with its bound hint when the second field says so.
struct Properties<'a>(&'a [Property], bool);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let hints = self.1;
        serializer.collect_map(self.0.iter().map(|p| (&p.name, Written(p, hints))))
    }
}

struct Required<'a>(&'a [Property]);

impl Serialize for Required<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().filter(|p| p.required).map(|p| &p.name))
    }
}

impl Serialize for Property {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Written(self, false).serialize(serializer)
    }
}

/// A property as written in a schema, its description with its bound hint when the second
/// field says so.
struct Written<'a>(&'a Property, bool);

impl Serialize for Written<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Written(p, hints) = *self;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", p.kind.json_type())?;
        entry(&mut map, "title", &p.title)?;
        entry(&mut map, "description", &described(p, hints))?;
        match &p.kind {
            Kind::String(r) => {
                entry(&mut map, "minLength", &r.min_length)?;
                entry(&mut map, "maxLength", &r.max_length)?;
                entry(&mut map, "format", &r.format.map(Format::as_str))?;
                let pattern = r.pattern.as_ref().map(Pattern::as_str);
                entry(&mut map, "pattern", &pattern)?;
            }
            Kind::Number(r) => {
                entry(&mut map, "minimum", &r.minimum)?;
                entry(&mut map, "maximum", &r.maximum)?;
                entry(&mut map, "exclusiveMinimum", &r.exclusive_minimum)?;
                entry(&mut map, "exclusiveMaximum", &r.exclusive_maximum)?;
            }
            Kind::Boolean(_) => {}
            Kind::Select(r) => match r.style {
                SelectStyle::Untitled => map.serialize_entry("enum", &values(&r.choices))?,
                SelectStyle::Titled => map.serialize_entry("oneOf", &titled(&r.choices))?,
                SelectStyle::Legacy => {
                    map.serialize_entry("enum", &values(&r.choices))?;
                    map.serialize_entry("enumNames", &titles(&r.choices))?;
                }
            },
            Kind::MultiSelect(r) => {
                entry(&mut map, "minItems", &r.min_items)?;
                entry(&mut map, "maxItems", &r.max_items)?;
                if r.unique {
                    map.serialize_entry("uniqueItems", &true)?;
                }
                map.serialize_entry("items", &Items(r))?;
            }
        }
        if let Some(default) = p.kind.default_value() {
            map.serialize_entry("default", &default)?;
        }
        map.end()
    }
}

/// Writes `key: value` when there is a value.
fn entry<M: SerializeMap, T: Serialize>(
    map: &mut M,
    key: &str,
    value: &Option<T>,
) -> Result<(), M::Error> {
    match value {
        Some(value) => map.serialize_entry(key, value),
        None => Ok(()),
    }
}

/// A multi-select's `items`: `type` first, as every other schema object writes it.
struct Items<'a>(&'a MultiSelectRules);

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if self.0.titled {
            map.serialize_entry("anyOf", &titled(&self.0.choices))?;
        } else {
            map.serialize_entry("type", "string")?;
            map.serialize_entry("enum", &values(&self.0.choices))?;
        }
        map.end()
    }
}

/// The choices' values.
fn values(choices: &[Choice]) -> Vec<&str> {
    choices.iter().map(|c| c.value.as_str()).collect()
}

/// The choices' titles, each its value where it has none.
fn titles(choices: &[Choice]) -> Vec<&str> {
    choices
        .iter()
        .map(|c| c.title.as_deref().unwrap_or(&c.value))
        .collect()
}

/// The choices as `{"const": value, "title": title}` branches.
fn titled(choices: &[Choice]) -> Vec<Value> {
    let branches = values(choices).into_iter().zip(titles(choices));
    branches
        .map(|(value, title)| json!({"const": value, "title": title}))
        .collect()
}

/// Whether the schema needs no rewriting for `version`.
pub(crate) fn is_written_for(schema: &RequestedSchema, version: ProtocolVersion) -> bool {
    version >= ProtocolVersion::V2025_11_25
        || (schema.dialect.is_none()
            && schema.properties.iter().all(|p| match &p.kind {
                Kind::MultiSelect(_) => false,
                Kind::Select(r) => r.style != SelectStyle::Titled && r.default.is_none(),
                Kind::String(r) => r.default.is_none(),
                Kind::Number(r) => r.default.is_none(),
                Kind::Boolean(_) => true,
            }))
}

/// Rewrites a schema of the newest version for `version`, or says which field needs a newer one.
pub(crate) fn downlevel(
    schema: &RequestedSchema,
    version: ProtocolVersion,
) -> Result<RequestedSchema, SchemaError> {
    let mut out = schema.clone();
    if version >= ProtocolVersion::V2025_11_25 {
        return Ok(out);
    }
    out.dialect = None;
    let mut properties = Vec::with_capacity(out.properties.len());
    for mut prop in std::mem::take(&mut out.properties) {
        if let Kind::MultiSelect(rules) = &prop.kind {
            properties.extend(ticks(&prop, rules, schema.bound_hints));
            continue;
        }
        match &mut prop.kind {
            Kind::MultiSelect(_) => {}
            Kind::Select(rules) => {
                if rules.style == SelectStyle::Titled {
                    rules.style = SelectStyle::Legacy;
                }
                rules.default = None;
            }
            Kind::String(rules) => rules.default = None,
            Kind::Number(rules) => rules.default = None,
            // 2025-06-18 allows `default` on booleans only.
            Kind::Boolean(_) => {}
        }
        properties.push(prop);
    }
    if let Some(name) = duplicate(&properties) {
        return Err(SchemaError::property(
            name,
            "is the name of one of a multi-select's checkboxes on 2025-06-18 \
             (`FIELD__CHOICE`) as well: rename one of them",
        ));
    }
    out.properties = properties;
    out.reindex();
    Ok(out)
}

/// The property that holds whether `choice` of the multi-select `field` is ticked, on
/// 2025-06-18, which has no array property: `FIELD__CHOICE`.
#[must_use]
pub(crate) fn tick_name(field: &str, choice: &str) -> String {
    format!("{field}__{choice}")
}

/// A multi-select as one optional boolean per choice, for 2025-06-18: titled "Field: Choice",
/// the field's description (with its bound hint, when `hints`) on the first, and its default
/// list ticking its choices.
fn ticks(prop: &Property, rules: &MultiSelectRules, hints: bool) -> Vec<Property> {
    let label = prop.title.as_deref().unwrap_or(&prop.name);
    rules
        .choices
        .iter()
        .enumerate()
        .map(|(i, choice)| {
            let ticked = rules
                .default
                .as_ref()
                .map(|default| default.contains(&choice.value));
            let title = choice.title.as_deref().unwrap_or(&choice.value);
            Property {
                name: tick_name(&prop.name, &choice.value),
                title: Some(format!("{label}: {title}")),
                description: if i == 0 {
                    described(prop, hints).map(Cow::into_owned)
                } else {
                    None
                },
                required: false,
                kind: Kind::Boolean(ticked),
            }
        })
        .collect()
}

/// A name two properties share, if any.
fn duplicate(properties: &[Property]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    properties
        .iter()
        .map(|p| p.name.as_str())
        .find(|name| !seen.insert(*name))
}

/// [`RequestedSchema::unfold_reply`].
pub(super) fn unfold_reply<'r>(
    schema: &RequestedSchema,
    version: ProtocolVersion,
    reply: &'r Value,
) -> Cow<'r, Value> {
    let multi = |p: &&Property| matches!(p.kind, Kind::MultiSelect(_));
    if version >= ProtocolVersion::V2025_11_25 || !schema.properties.iter().any(|p| multi(&p)) {
        return Cow::Borrowed(reply);
    }
    let Some(content) = reply.get("content").and_then(Value::as_object) else {
        return Cow::Borrowed(reply);
    };
    let mut content = content.clone();
    for prop in schema.properties.iter().filter(multi) {
        let Kind::MultiSelect(rules) = &prop.kind else {
            continue;
        };
        let mut seen = false;
        let mut ticked = Vec::new();
        for choice in &rules.choices {
            match content.remove(&tick_name(&prop.name, &choice.value)) {
                Some(Value::Bool(true)) => {
                    seen = true;
                    ticked.push(Value::String(choice.value.clone()));
                }
                Some(Value::Bool(false)) => seen = true,
                // Not a boolean: left for the reader to refuse, under its own name.
                Some(other) => {
                    content.insert(tick_name(&prop.name, &choice.value), other);
                }
                None => {}
            }
        }
        if (seen || prop.required) && !content.contains_key(&prop.name) {
            content.insert(prop.name.clone(), Value::Array(ticked));
        }
    }
    let mut reply = reply.clone();
    reply["content"] = Value::Object(content);
    Cow::Owned(reply)
}
