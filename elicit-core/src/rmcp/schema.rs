//! A [`RequestedSchema`] built into rmcp's `ElicitationSchema`, field by field.
//!
//! Each property becomes the rmcp type that holds exactly what it writes: rmcp's model can hold
//! every keyword of the MCP subset, and [`check_representable`] refuses the few outside it
//! before anything is built. The result serializes as the schema itself does.

use std::borrow::Cow;
use std::collections::BTreeMap;

use ::rmcp::model as m;
use serde_json::Number;

use crate::bound::Bound;
use crate::error::SchemaError;
use crate::format::Format;
use crate::schema::hints::described;
use crate::schema::{
    Choice, Kind, MultiSelectRules, NumberRules, Property, RequestedSchema, SelectRules,
    SelectStyle, StringRules,
};

impl TryFrom<&RequestedSchema> for m::ElicitationSchema {
    type Error = SchemaError;

    fn try_from(schema: &RequestedSchema) -> Result<Self, SchemaError> {
        check_representable(schema)?;
        let mut properties = BTreeMap::new();
        for prop in &schema.properties {
            let written = primitive(prop, schema.bound_hints)
                .map_err(|what| SchemaError::property(prop.name.as_str(), what))?;
            properties.insert(prop.name.clone(), written);
        }
        let mut out = m::ElicitationSchema::new(properties);
        out.property_order = Some(schema.properties.iter().map(|p| p.name.clone()).collect());
        out.schema = schema.dialect.clone().map(Cow::Owned);
        let required: Vec<String> = schema
            .properties
            .iter()
            .filter(|p| p.required)
            .map(|p| p.name.clone())
            .collect();
        out.required = (!required.is_empty()).then_some(required);
        Ok(out)
    }
}

/// rmcp's schema has no `pattern`, no exclusive bounds and no `uniqueItems`; a runtime schema
/// carrying them cannot be converted without dropping a rule.
fn check_representable(schema: &RequestedSchema) -> Result<(), SchemaError> {
    for prop in schema.properties() {
        let lost = match &prop.kind {
            Kind::String(r) if r.pattern.is_some() => Some("`pattern`"),
            Kind::Number(r) if r.exclusive_minimum.is_some() || r.exclusive_maximum.is_some() => {
                Some("an exclusive bound")
            }
            Kind::MultiSelect(r) if r.unique => Some("`uniqueItems`"),
            _ => None,
        };
        if let Some(what) = lost {
            return Err(SchemaError::property(
                prop.name.as_str(),
                format!("has {what}, which rmcp's ElicitationSchema cannot hold"),
            ));
        }
    }
    Ok(())
}

/// The title and the description (with its bound hint when `hints`) every kind carries.
struct Labels {
    title: Option<Cow<'static, str>>,
    description: Option<Cow<'static, str>>,
}

/// One property as rmcp's model holds it, or what of it rmcp cannot hold.
fn primitive(prop: &Property, hints: bool) -> Result<m::PrimitiveSchemaDefinition, String> {
    let labels = Labels {
        title: prop.title.clone().map(Cow::Owned),
        description: described(prop, hints).map(|d| Cow::Owned(d.into_owned())),
    };
    Ok(match &prop.kind {
        Kind::String(rules) => m::PrimitiveSchemaDefinition::String(string(rules, labels)?),
        Kind::Number(rules) if rules.integer => {
            m::PrimitiveSchemaDefinition::Integer(integer(rules, labels)?)
        }
        Kind::Number(rules) => m::PrimitiveSchemaDefinition::Number(number(rules, labels)),
        Kind::Boolean(default) => {
            let mut out = m::BooleanSchema::new();
            out.title = labels.title;
            out.description = labels.description;
            out.default = *default;
            m::PrimitiveSchemaDefinition::Boolean(out)
        }
        Kind::Select(rules) => m::PrimitiveSchemaDefinition::Enum(select(rules, labels)?),
        Kind::MultiSelect(rules) => m::PrimitiveSchemaDefinition::Enum(multi(rules, labels)?),
    })
}

fn string(rules: &StringRules, labels: Labels) -> Result<m::StringSchema, String> {
    let mut out = m::StringSchema::new();
    out.title = labels.title;
    out.description = labels.description;
    out.min_length = rules.min_length.map(length).transpose()?;
    out.max_length = rules.max_length.map(length).transpose()?;
    out.format = rules.format.map(|format| match format {
        Format::Email => m::StringFormat::Email,
        Format::Uri => m::StringFormat::Uri,
        Format::Date => m::StringFormat::Date,
        Format::DateTime => m::StringFormat::DateTime,
    });
    out.default.clone_from(&rules.default);
    Ok(out)
}

/// A length bound, which rmcp holds as a `u32`.
fn length(n: u64) -> Result<u32, String> {
    u32::try_from(n).map_err(|_| format!("has a length bound of {n}, above rmcp's limit"))
}

fn integer(rules: &NumberRules, labels: Labels) -> Result<m::IntegerSchema, String> {
    let whole = |bound: Bound| match bound {
        Bound::Int(n) => i64::try_from(n).ok(),
        Bound::Float(_) => None,
    };
    let bound = |bound: Option<Bound>| {
        bound
            .map(|b| {
                whole(b).ok_or_else(|| {
                    format!("has the integer bound {b}, which rmcp holds as an i64 only")
                })
            })
            .transpose()
    };
    let mut out = m::IntegerSchema::new();
    out.title = labels.title;
    out.description = labels.description;
    out.minimum = bound(rules.minimum)?;
    out.maximum = bound(rules.maximum)?;
    out.default = match &rules.default {
        Some(n) => Some(
            n.as_i64()
                .ok_or_else(|| format!("has the default {n}, which rmcp holds as an i64 only"))?,
        ),
        None => None,
    };
    Ok(out)
}

fn number(rules: &NumberRules, labels: Labels) -> m::NumberSchema {
    let mut out = m::NumberSchema::new();
    out.title = labels.title;
    out.description = labels.description;
    out.minimum = rules.minimum.map(Bound::as_f64);
    out.maximum = rules.maximum.map(Bound::as_f64);
    out.default = rules.default.as_ref().and_then(Number::as_f64);
    out
}

fn values(choices: &[Choice]) -> Vec<String> {
    choices.iter().map(|c| c.value.clone()).collect()
}

fn titles(choices: &[Choice]) -> Vec<String> {
    let title = |c: &Choice| c.title.clone().unwrap_or_else(|| c.value.clone());
    choices.iter().map(title).collect()
}

fn select(rules: &SelectRules, labels: Labels) -> Result<m::EnumSchema, String> {
    if rules.style == SelectStyle::Legacy {
        let mut out = m::LegacyEnumSchema::new(values(&rules.choices));
        out.title = labels.title;
        out.description = labels.description;
        out.enum_names = Some(titles(&rules.choices));
        out.default.clone_from(&rules.default);
        return Ok(m::EnumSchema::Legacy(out));
    }
    let mut builder = m::EnumSchema::builder(values(&rules.choices));
    if rules.style == SelectStyle::Titled {
        builder = builder.enum_titles(titles(&rules.choices))?;
    }
    let mut built = builder.build();
    match &mut built {
        m::EnumSchema::Single(m::SingleSelectEnumSchema::Untitled(out)) => {
            out.title = labels.title;
            out.description = labels.description;
            out.default.clone_from(&rules.default);
        }
        m::EnumSchema::Single(m::SingleSelectEnumSchema::Titled(out)) => {
            out.title = labels.title;
            out.description = labels.description;
            out.default.clone_from(&rules.default);
        }
        _ => return Err("is a single-select rmcp built as another kind".to_owned()),
    }
    Ok(built)
}

fn multi(rules: &MultiSelectRules, labels: Labels) -> Result<m::EnumSchema, String> {
    let mut builder = m::EnumSchema::builder(values(&rules.choices));
    if rules.titled {
        builder = builder.enum_titles(titles(&rules.choices))?;
    }
    let mut built = builder.multiselect().build();
    match &mut built {
        m::EnumSchema::Multi(m::MultiSelectEnumSchema::Untitled(out)) => {
            out.title = labels.title;
            out.description = labels.description;
            out.min_items = rules.min_items;
            out.max_items = rules.max_items;
            out.default.clone_from(&rules.default);
        }
        m::EnumSchema::Multi(m::MultiSelectEnumSchema::Titled(out)) => {
            out.title = labels.title;
            out.description = labels.description;
            out.min_items = rules.min_items;
            out.max_items = rules.max_items;
            out.default.clone_from(&rules.default);
        }
        _ => return Err("is a multi-select rmcp built as another kind".to_owned()),
    }
    Ok(built)
}
