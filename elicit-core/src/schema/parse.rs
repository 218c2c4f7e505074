//! Reading a requestedSchema from JSON: strict about structure, tolerant of annotations, and
//! noting everything outside the strict subset for [`RequestedSchema::lint`].

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::keywords::{Applies, Reader};
use super::rules::value_breaks;
use super::sensitive::secret_word;
use super::{
    Choice, Kind, MultiSelectRules, NumberRules, Pattern, Property, RequestedSchema, SelectRules,
    SelectStyle, StringRules,
};
use crate::bound::Bound;
use crate::error::SchemaError;
use crate::format::Format;
use crate::limits::Limits;

/// The keywords every property reads, besides its kind's own (given where its kind is read);
/// every other keyword goes through [`Reader::keywords`].
const ANNOTATED: &[&str] = &["type", "title", "description", "default"];
/// The keywords the root reads.
const ROOT: &[&str] = &[
    "type",
    "properties",
    "required",
    "$schema",
    "additionalProperties",
];

/// [`RequestedSchema::from_value_with`]; `names` lints property names that ask for
/// secrets (off for a derived type, whose names the derive checked, with its
/// `not_sensitive` escape).
pub(crate) fn parse(
    value: Value,
    limits: &Limits,
    names: bool,
) -> Result<RequestedSchema, SchemaError> {
    let Value::Object(root) = value else {
        return Err(SchemaError::root(format!(
            "a requestedSchema must be a JSON object, got {}",
            json_type(&value)
        )));
    };
    let mut cx = Reader::new(*limits);
    let mut schema = parse_root(&mut cx, &root)?;
    let mut broken_defaults = Vec::new();
    for (i, prop) in schema.properties.iter().enumerate() {
        let name = cx.names[i].clone();
        if let Some(word) = names.then(|| secret_word(&prop.name)).flatten() {
            cx.push(
                Some(&name),
                format!("the name looks like it asks for a secret ({word}): since 2025-11-25, form mode must not ask for passwords, API keys, tokens or payment credentials; use URL mode"),
            );
        }
        if let Some(broken) = prop
            .kind
            .default_value()
            .and_then(|d| value_breaks(&schema, i, &d))
        {
            let default = prop.kind.default_value().unwrap_or_default();
            cx.push(
                Some(&name),
                format!(
                    "`default` {default} breaks its own rules (it {}), so it is dropped: never \
                     sent, and never filled in",
                    broken
                ),
            );
            broken_defaults.push(i);
        }
    }
    // A client would show the form ready to submit, and the answer would be refused.
    for i in broken_defaults {
        schema.properties[i].kind.clear_default();
    }
    schema.lints = cx.lints;
    schema.limits = *limits;
    Ok(schema)
}

/// [`RequestedSchema::from_json_with`].
pub(super) fn from_json_with(json: &str, limits: &Limits) -> Result<RequestedSchema, SchemaError> {
    if json.len() > limits.max_schema_bytes() {
        return Err(SchemaError::root(format!(
            "the schema is {} bytes, over the limit of {}",
            json.len(),
            limits.max_schema_bytes()
        )));
    }
    let order = std::cell::RefCell::new(Vec::new());
    let mut text = serde_json::Deserializer::from_str(json);
    let value = serde::de::DeserializeSeed::deserialize(Strict::root(&order), &mut text)
        .and_then(|value| text.end().map(|()| value))
        .map_err(|e| SchemaError::root(format!("not valid JSON: {e}")))?;
    let mut schema = parse(value, limits, true)?;
    schema.order_by(order.borrow().iter().map(String::as_str));
    Ok(schema)
}

/// Reads JSON text as a `Value`, refusing a key that appears twice in one object, at any level,
/// and noting the order of the root's `properties` keys (a `serde_json::Map` may sort them).
struct Strict<'a> {
    /// Where the value is, as a JSON pointer.
    at: String,
    /// Where the keys go, for the root's `properties`.
    order: &'a std::cell::RefCell<Vec<String>>,
    /// Whether this is the root, or the root's `properties`.
    depth: Depth,
}

#[derive(Clone, Copy, PartialEq)]
enum Depth {
    Root,
    Properties,
    Below,
}

impl<'a> Strict<'a> {
    fn root(order: &'a std::cell::RefCell<Vec<String>>) -> Self {
        Strict {
            at: String::new(),
            order,
            depth: Depth::Root,
        }
    }

    fn child(&self, key: &str, depth: Depth) -> Self {
        Strict {
            at: format!("{}/{}", self.at, key.replace('~', "~0").replace('/', "~1")),
            order: self.order,
            depth,
        }
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                let at = if self.at.is_empty() { "/" } else { &self.at };
                return Err(serde::de::Error::custom(format!(
                    "the key {key:?} appears twice in the object at {at}"
                )));
            }
            let depth = match self.depth {
                Depth::Root if key == "properties" => Depth::Properties,
                Depth::Properties => {
                    self.order.borrow_mut().push(key.clone());
                    Depth::Below
                }
                _ => Depth::Below,
            };
            let value = map.next_value_seed(self.child(&key, depth))?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) =
            seq.next_element_seed(self.child(&items.len().to_string(), Depth::Below))?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
}

fn parse_root(cx: &mut Reader, root: &Map<String, Value>) -> Result<RequestedSchema, SchemaError> {
    match root.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            return Err(SchemaError::root(format!(
                "the root must have `type: \"object\"`, got {other}"
            )));
        }
        None => return Err(SchemaError::root("the root must have `type: \"object\"`")),
    }
    cx.keywords(
        None,
        "",
        root,
        Applies::Objects,
        &[ROOT, &["title", "description"]],
    )?;
    for key in ["title", "description"] {
        if root.contains_key(key) {
            cx.push(
                None,
                format!(
                    "a root `{key}` is outside the subset; some clients refuse the whole request"
                ),
            );
        }
    }
    let Some(props) = root.get("properties") else {
        return Err(SchemaError::root(
            "`properties` is missing: a form needs the `properties` object",
        ));
    };
    let Value::Object(props) = props else {
        return Err(SchemaError::root("`properties` must be an object"));
    };
    if props.is_empty() {
        cx.push(None, "the form has no properties: some clients render an empty form that cannot be submitted");
    }
    if props.len() > cx.limits.max_properties() {
        return Err(SchemaError::root(format!(
            "the schema has {} properties, over the limit of {}",
            props.len(),
            cx.limits.max_properties()
        )));
    }
    let mut properties = Vec::with_capacity(props.len());
    for (name, schema) in props {
        properties.push(parse_property(cx, name, schema)?);
    }
    if let Some(required) = root.get("required") {
        let Value::Array(required) = required else {
            return Err(SchemaError::root("`required` must be an array of strings"));
        };
        let place: std::collections::HashMap<&str, usize> = properties
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        let mut listed = Vec::with_capacity(required.len());
        for name in required {
            let Value::String(name) = name else {
                return Err(SchemaError::root("`required` must be an array of strings"));
            };
            match place.get(name.as_str()) {
                Some(&i) => listed.push(i),
                None => {
                    return Err(SchemaError::property(
                        name.as_str(),
                        "is listed in `required` but not in `properties`",
                    ));
                }
            }
        }
        for i in listed {
            properties[i].required = true;
        }
    }
    let deny_unknown = match root.get("additionalProperties") {
        None => false,
        Some(Value::Bool(allow)) => {
            cx.push(
                None,
                "`additionalProperties` is outside the MCP schema subset",
            );
            !allow
        }
        Some(_) => {
            return Err(SchemaError::root(
                "`additionalProperties` other than a boolean is not allowed",
            ));
        }
    };
    let dialect = match root.get("$schema") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(SchemaError::root("`$schema` must be a string")),
    };
    Ok(RequestedSchema::build(
        properties,
        deny_unknown,
        dialect,
        Vec::new(),
    ))
}

fn parse_property(cx: &mut Reader, key: &str, schema: &Value) -> Result<Property, SchemaError> {
    let name: Arc<str> = key.into();
    cx.names.push(name.clone());
    let name = &name;
    let err = |msg: String| SchemaError::property(key, msg);
    let Value::Object(obj) = schema else {
        return Err(err(format!(
            "a property schema must be an object, got {}",
            json_type(schema)
        )));
    };
    if obj.contains_key("$ref") {
        return Err(err(
            "`$ref` is outside the MCP subset: write the property inline (clients render a choice behind a `$ref` as free text)".into(),
        ));
    }
    let ty = match obj.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(Value::Array(_)) => {
            return Err(err(
                "a type array is not allowed; use one primitive type".into()
            ));
        }
        Some(other) => return Err(err(format!("`type` must be a string, got {other}"))),
        None if obj.contains_key("anyOf") || obj.contains_key("oneOf") => {
            return Err(err(
                "a union without `type` is not allowed; a property has one primitive type".into(),
            ));
        }
        None => return Err(err("`type` is missing".into())),
    };
    if ty == "string" && obj.contains_key("anyOf") {
        return Err(err(
            "`anyOf` is not allowed on a property; titled choices use `oneOf`".into(),
        ));
    }
    let title = opt_string(obj, "title", key)?;
    let description = opt_string(obj, "description", key)?;
    let kind = match ty {
        "string" if obj.contains_key("enum") || obj.contains_key("oneOf") => {
            let own = ["enum", "oneOf", "enumNames"];
            cx.keywords(Some(name), "", obj, Applies::Strings, &[ANNOTATED, &own])?;
            Kind::Select(parse_select(cx, name, obj)?)
        }
        "string" => {
            let own = ["minLength", "maxLength", "format", "pattern"];
            cx.keywords(Some(name), "", obj, Applies::Strings, &[ANNOTATED, &own])?;
            Kind::String(parse_string(key, obj, &cx.limits)?)
        }
        "number" | "integer" => {
            let own = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"];
            cx.keywords(Some(name), "", obj, Applies::Numbers, &[ANNOTATED, &own])?;
            Kind::Number(parse_number(key, obj, ty == "integer")?)
        }
        "boolean" => {
            cx.keywords(Some(name), "", obj, Applies::Booleans, &[ANNOTATED])?;
            Kind::Boolean(match obj.get("default") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => return Err(err("`default` must be a boolean".into())),
            })
        }
        "array" => {
            let own = ["items", "minItems", "maxItems", "uniqueItems"];
            cx.keywords(Some(name), "", obj, Applies::Arrays, &[ANNOTATED, &own])?;
            Kind::MultiSelect(parse_multi(cx, name, obj)?)
        }
        "object" => return Err(err("nested objects are not allowed; a form is flat".into())),
        "null" => return Err(err("`null` is not a property type".into())),
        other => return Err(err(format!("unknown type `{other}`"))),
    };
    Ok(Property {
        name: key.to_owned(),
        title,
        description,
        required: false,
        kind,
    })
}

fn parse_string(
    name: &str,
    obj: &Map<String, Value>,
    limits: &Limits,
) -> Result<StringRules, SchemaError> {
    let rules = StringRules {
        min_length: opt_u64(obj, "minLength", name)?,
        max_length: opt_u64(obj, "maxLength", name)?,
        format: match obj.get("format") {
            None => None,
            Some(Value::String(f)) => Some(Format::from_wire(f).ok_or_else(|| {
                SchemaError::property(
                    name,
                    format!("format `{f}` is not one of email, uri, date, date-time"),
                )
            })?),
            Some(_) => return Err(SchemaError::property(name, "`format` must be a string")),
        },
        pattern: match obj.get("pattern") {
            None => None,
            Some(Value::String(p)) => Some(Pattern::with_limits(p, limits).map_err(|e| {
                SchemaError::property(name, format!("`pattern` is not supported: {e}"))
            })?),
            Some(_) => return Err(SchemaError::property(name, "`pattern` must be a string")),
        },
        default: opt_string(obj, "default", name)?,
    };
    check_order(
        name,
        rules.min_length,
        rules.max_length,
        "minLength",
        "maxLength",
    )?;
    Ok(rules)
}

fn parse_number(
    name: &str,
    obj: &Map<String, Value>,
    integer: bool,
) -> Result<NumberRules, SchemaError> {
    let num = |key: &str| match obj.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => Ok(Some(Bound::of(n))),
        Some(_) => Err(SchemaError::property(
            name,
            format!("`{key}` must be a number"),
        )),
    };
    let mut rules = NumberRules {
        integer,
        minimum: num("minimum")?,
        maximum: num("maximum")?,
        exclusive_minimum: None,
        exclusive_maximum: None,
        default: match obj.get("default") {
            None => None,
            Some(Value::Number(n)) if !integer || is_integral(n) => Some(canonical(n, integer)),
            Some(_) => {
                let what = if integer { "an integer" } else { "a number" };
                return Err(SchemaError::property(
                    name,
                    format!("`default` must be {what}"),
                ));
            }
        },
    };
    // Draft 2020-12 writes exclusive bounds as numbers; draft 4 as booleans on the inclusive one.
    for (key, inclusive, exclusive) in [
        (
            "exclusiveMinimum",
            &mut rules.minimum,
            &mut rules.exclusive_minimum,
        ),
        (
            "exclusiveMaximum",
            &mut rules.maximum,
            &mut rules.exclusive_maximum,
        ),
    ] {
        match obj.get(key) {
            None | Some(Value::Bool(false)) => {}
            Some(Value::Number(n)) => *exclusive = Some(Bound::of(n)),
            Some(Value::Bool(true)) => *exclusive = inclusive.take(),
            Some(_) => {
                return Err(SchemaError::property(
                    name,
                    format!("`{key}` must be a number"),
                ));
            }
        }
    }
    let low = rules
        .minimum
        .into_iter()
        .chain(rules.exclusive_minimum)
        .max_by(|a, b| a.total_cmp(*b));
    let high = rules
        .maximum
        .into_iter()
        .chain(rules.exclusive_maximum)
        .min_by(|a, b| a.total_cmp(*b));
    if let (Some(low), Some(high)) = (low, high)
        && low.total_cmp(high).is_gt()
    {
        return Err(SchemaError::property(
            name,
            "`minimum` is greater than `maximum`",
        ));
    }
    if !satisfiable(&rules) {
        return Err(SchemaError::property(
            name,
            if rules.integer {
                "its bounds leave no integer that could be accepted"
            } else {
                "its bounds leave no number that could be accepted"
            },
        ));
    }
    Ok(rules)
}

/// Whether some value meets every bound of `rules`: a lower bound below the upper (or equal to
/// it, both inclusive), and for an integer kind a whole number between them.
fn satisfiable(rules: &NumberRules) -> bool {
    // The tightest bound of each side, with whether it is exclusive.
    let tightest = |inclusive: Option<Bound>, exclusive: Option<Bound>, low: bool| {
        let sides = inclusive
            .map(|b| (b, false))
            .into_iter()
            .chain(exclusive.map(|b| (b, true)));
        sides.reduce(|a, b| {
            let order = a.0.total_cmp(b.0);
            let b_tighter = if low { order.is_lt() } else { order.is_gt() };
            if b_tighter || (order.is_eq() && b.1) {
                b
            } else {
                a
            }
        })
    };
    let low = tightest(rules.minimum, rules.exclusive_minimum, true);
    let high = tightest(rules.maximum, rules.exclusive_maximum, false);
    if rules.integer {
        // The smallest and the largest whole number the bounds allow, exactly: an integer bound
        // is held as one, and a float bound has a fraction (or lies beyond every `i128`).
        let least = low.map(|(b, ex)| match b {
            Bound::Int(i) if ex => i.saturating_add(1),
            Bound::Int(i) => i,
            Bound::Float(f) => f.ceil() as i128,
        });
        let most = high.map(|(b, ex)| match b {
            Bound::Int(i) if ex => i.saturating_sub(1),
            Bound::Int(i) => i,
            Bound::Float(f) => f.floor() as i128,
        });
        return match (least, most) {
            (Some(least), Some(most)) => least <= most,
            _ => true,
        };
    }
    match (low, high) {
        (Some((low, low_ex)), Some((high, high_ex))) => match low.total_cmp(high) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Equal => !low_ex && !high_ex,
            std::cmp::Ordering::Greater => false,
        },
        _ => true,
    }
}

/// A default as the kind holds it: an integer kind's as an integer (`30.0` is `30`), a number
/// kind's as a float, so a schema reads the same whichever way its numbers were written.
pub(crate) fn canonical(n: &serde_json::Number, integer: bool) -> serde_json::Number {
    let as_float = n.as_f64().and_then(serde_json::Number::from_f64);
    if !integer {
        return as_float.unwrap_or_else(|| n.clone());
    }
    if n.is_i64() || n.is_u64() {
        return n.clone();
    }
    match n.as_f64() {
        Some(f) if (0.0..1.8e19).contains(&f) => serde_json::Number::from(f as u64),
        Some(f) if (-9.2e18..0.0).contains(&f) => serde_json::Number::from(f as i64),
        _ => n.clone(),
    }
}

pub(crate) fn is_integral(n: &serde_json::Number) -> bool {
    n.is_i64() || n.is_u64() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

pub(super) fn opt_string(
    obj: &Map<String, Value>,
    key: &str,
    name: &str,
) -> Result<Option<String>, SchemaError> {
    match obj.get(key) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(SchemaError::property(
            name,
            format!("`{key}` must be a string"),
        )),
    }
}

pub(super) fn opt_u64(
    obj: &Map<String, Value>,
    key: &str,
    name: &str,
) -> Result<Option<u64>, SchemaError> {
    let err = || SchemaError::property(name, format!("`{key}` must be a non-negative integer"));
    match obj.get(key) {
        None => Ok(None),
        Some(Value::Number(n)) => match (n.as_u64(), n.as_f64()) {
            (Some(n), _) => Ok(Some(n)),
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 1.8e19 => Ok(Some(f as u64)),
            _ => Err(err()),
        },
        Some(_) => Err(err()),
    }
}

pub(super) fn check_order(
    name: &str,
    min: Option<u64>,
    max: Option<u64>,
    min_key: &str,
    max_key: &str,
) -> Result<(), SchemaError> {
    match (min, max) {
        (Some(min), Some(max)) if min > max => Err(SchemaError::property(
            name,
            format!("`{min_key}` {min} is greater than `{max_key}` {max}"),
        )),
        _ => Ok(()),
    }
}

pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

// The choices of single- and multi-selects.

fn parse_select(
    cx: &mut Reader,
    name: &Arc<str>,
    obj: &Map<String, Value>,
) -> Result<SelectRules, SchemaError> {
    let (choices, style) = match (obj.get("enum"), obj.get("oneOf")) {
        (Some(_), Some(_)) => {
            return Err(SchemaError::property(
                &**name,
                "has both `enum` and `oneOf`",
            ));
        }
        (Some(values), None) => {
            let mut choices = enum_values(name, values)?;
            match obj.get("enumNames") {
                None => (choices, SelectStyle::Untitled),
                Some(Value::Array(names)) if names.len() == choices.len() => {
                    for (choice, title) in choices.iter_mut().zip(names) {
                        let Value::String(title) = title else {
                            return Err(SchemaError::property(
                                &**name,
                                "`enumNames` must be an array of strings",
                            ));
                        };
                        choice.title = Some(title.clone());
                    }
                    (choices, SelectStyle::Legacy)
                }
                Some(_) => {
                    return Err(SchemaError::property(
                        &**name,
                        "`enumNames` must be an array of strings as long as `enum`",
                    ));
                }
            }
        }
        (None, Some(branches)) => (
            titled_choices(cx, name, branches, "oneOf")?,
            SelectStyle::Titled,
        ),
        (None, None) => {
            return Err(SchemaError::property(
                &**name,
                "a single-select needs `enum` or `oneOf`",
            ));
        }
    };
    within(cx, name, &choices)?;
    let default = opt_string(obj, "default", name)?;
    Ok(SelectRules {
        choices,
        style,
        default,
    })
}

fn parse_multi(
    cx: &mut Reader,
    name: &Arc<str>,
    obj: &Map<String, Value>,
) -> Result<MultiSelectRules, SchemaError> {
    let err = |msg: &str| SchemaError::property(&**name, msg);
    let Some(Value::Object(items)) = obj.get("items") else {
        return Err(err(
            "an array must have `items` holding an enum: only multi-selects are allowed",
        ));
    };
    let own = ["type", "enum", "anyOf"];
    cx.keywords(Some(name), "items.", items, Applies::Strings, &[&own])?;
    let (choices, titled) = match (items.get("enum"), items.get("anyOf")) {
        (Some(values), None) => {
            if items.get("type").is_none() {
                cx.push(
                    Some(name),
                    "multi-select `items` should say `type: \"string\"`",
                );
            }
            (enum_values(name, values)?, false)
        }
        (None, Some(branches)) => (titled_choices(cx, name, branches, "items.anyOf")?, true),
        _ => {
            return Err(err(
                "an array's `items` must be an enum (`enum` or `anyOf` of const/title): only multi-selects are allowed",
            ));
        }
    };
    // The choices are strings, whichever way they are written.
    match items.get("type") {
        Some(Value::String(t)) if t == "string" => {}
        None => {}
        Some(_) => return Err(err("multi-select items must be of type string")),
    }
    within(cx, name, &choices)?;
    let min_items = opt_u64(obj, "minItems", name)?;
    let max_items = opt_u64(obj, "maxItems", name)?;
    check_order(name, min_items, max_items, "minItems", "maxItems")?;
    let unique = match obj.get("uniqueItems") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(err("`uniqueItems` must be a boolean")),
    };
    let default = match obj.get("default") {
        None => None,
        Some(Value::Array(values)) => {
            let mut out = Vec::with_capacity(values.len());
            for v in values {
                match v {
                    Value::String(s) => out.push(s.clone()),
                    _ => return Err(err("`default` must be an array of strings")),
                }
            }
            Some(out)
        }
        Some(_) => return Err(err("`default` must be an array of strings")),
    };
    Ok(MultiSelectRules {
        choices,
        titled,
        min_items,
        max_items,
        unique,
        default,
    })
}

fn enum_values(name: &str, values: &Value) -> Result<Vec<Choice>, SchemaError> {
    let err = || SchemaError::property(name, "`enum` must be a non-empty array of strings");
    let Value::Array(values) = values else {
        return Err(err());
    };
    if values.is_empty() {
        return Err(err());
    }
    let choices = values
        .iter()
        .map(|v| match v {
            Value::String(s) => Ok(Choice {
                value: s.clone(),
                title: None,
            }),
            _ => Err(err()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    unique(name, choices)
}

/// Refuses more choices than the limits allow.
fn within(cx: &Reader, name: &str, choices: &[Choice]) -> Result<(), SchemaError> {
    let max = cx.limits.max_choices();
    if choices.len() > max {
        return Err(SchemaError::property(
            name,
            format!("has {} choices, over the limit of {max}", choices.len()),
        ));
    }
    Ok(())
}

/// Refuses a choice listed twice: a client would show it twice, and its title is ambiguous.
fn unique(name: &str, choices: Vec<Choice>) -> Result<Vec<Choice>, SchemaError> {
    let mut seen = HashSet::with_capacity(choices.len());
    for choice in &choices {
        if !seen.insert(choice.value.as_str()) {
            return Err(SchemaError::property(
                name,
                format!("the choice {:?} is listed more than once", choice.value),
            ));
        }
    }
    Ok(choices)
}

fn titled_choices(
    cx: &mut Reader,
    name: &Arc<str>,
    branches: &Value,
    key: &str,
) -> Result<Vec<Choice>, SchemaError> {
    let err = || {
        SchemaError::property(
            &**name,
            format!(
                "`{key}` must be a non-empty array of {{\"const\": string, \"title\": string}}"
            ),
        )
    };
    let Value::Array(branches) = branches else {
        return Err(err());
    };
    if branches.is_empty() {
        return Err(err());
    }
    let mut choices = Vec::with_capacity(branches.len());
    for branch in branches {
        let Value::Object(branch) = branch else {
            return Err(err());
        };
        let Some(Value::String(value)) = branch.get("const") else {
            return Err(err());
        };
        let title = match branch.get("title") {
            // The wire requires a title; the value stands in, as it does when written out.
            None => {
                cx.push(
                    Some(name),
                    format!("choice {value:?} in `{key}` has no `title`"),
                );
                Some(value.clone())
            }
            Some(Value::String(t)) => Some(t.clone()),
            Some(_) => return Err(err()),
        };
        let at = format!("{key}[].");
        cx.keywords(
            Some(name),
            &at,
            branch,
            Applies::Strings,
            &[&["const", "title"]],
        )?;
        choices.push(Choice {
            value: value.clone(),
            title,
        });
    }
    unique(name, choices)
}
