//! Writing a [`RequestedSchema`] as the JSON that goes on the wire.

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::format::Format;
use super::{Choice, Kind, Pattern, Property, RequestedSchema, SelectStyle};
use crate::error::SchemaError;
use crate::version::ProtocolVersion;

impl Serialize for RequestedSchema {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if let Some(dialect) = &self.dialect {
            map.serialize_entry("$schema", dialect)?;
        }
        map.serialize_entry("type", "object")?;
        map.serialize_entry("properties", &Properties(&self.properties))?;
        if self.properties.iter().any(|p| p.required) {
            map.serialize_entry("required", &Required(&self.properties))?;
        }
        map.end()
    }
}

struct Properties<'a>(&'a [Property]);

impl Serialize for Properties<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|p| (&p.name, p)))
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
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", self.kind.json_type())?;
        entry(&mut map, "title", &self.title)?;
        entry(&mut map, "description", &self.description)?;
        match &self.kind {
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
                SelectStyle::Untitled => map.serialize_entry("enum", &Values(&r.choices))?,
                SelectStyle::Titled => map.serialize_entry("oneOf", &Titled(&r.choices))?,
                SelectStyle::Legacy => {
                    map.serialize_entry("enum", &Values(&r.choices))?;
                    map.serialize_entry("enumNames", &Titles(&r.choices))?;
                }
            },
            Kind::MultiSelect(r) => {
                entry(&mut map, "minItems", &r.min_items)?;
                entry(&mut map, "maxItems", &r.max_items)?;
                map.serialize_entry(
                    "items",
                    &Items {
                        choices: &r.choices,
                        titled: r.titled,
                    },
                )?;
            }
        }
        if let Some(default) = self.kind.default_value() {
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

struct Values<'a>(&'a [Choice]);

impl Serialize for Values<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|c| &c.value))
    }
}

struct Titles<'a>(&'a [Choice]);

impl Serialize for Titles<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|c| c.title.as_ref().unwrap_or(&c.value)))
    }
}

struct Titled<'a>(&'a [Choice]);

impl Serialize for Titled<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(TitledChoice))
    }
}

struct TitledChoice<'a>(&'a Choice);

impl Serialize for TitledChoice<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("const", &self.0.value)?;
        map.serialize_entry("title", self.0.title.as_ref().unwrap_or(&self.0.value))?;
        map.end()
    }
}

struct Items<'a> {
    choices: &'a [Choice],
    titled: bool,
}

impl Serialize for Items<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        if self.titled {
            map.serialize_entry("anyOf", &Titled(self.choices))?;
        } else {
            map.serialize_entry("type", "string")?;
            map.serialize_entry("enum", &Values(self.choices))?;
        }
        map.end()
    }
}

impl RequestedSchema {
    /// This schema written for `version`: for 2025-06-18, titled choices become `enum` with
    /// `enumNames`, and only booleans keep a `default`; newer versions take it as it is. Fails,
    /// naming the field, for what the version cannot express (a multi-select on 2025-06-18).
    pub fn for_version(&self, version: ProtocolVersion) -> Result<RequestedSchema, SchemaError> {
        downlevel(self, version)
    }

    /// Whether the schema needs no rewriting for `version`.
    pub(crate) fn is_written_for(&self, version: ProtocolVersion) -> bool {
        version >= ProtocolVersion::V2025_11_25
            || (self.dialect.is_none()
                && self.properties.iter().all(|p| match &p.kind {
                    Kind::MultiSelect(_) => false,
                    Kind::Select(r) => r.style != SelectStyle::Titled && r.default.is_none(),
                    Kind::String(r) => r.default.is_none(),
                    Kind::Number(r) => r.default.is_none(),
                    Kind::Boolean(_) => true,
                }))
    }
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
    for prop in &mut out.properties {
        match &mut prop.kind {
            Kind::MultiSelect(_) => {
                return Err(SchemaError::property(
                    prop.name.as_str(),
                    "is a multi-select, which needs protocol 2025-11-25 or later",
                ));
            }
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
    }
    Ok(out)
}
