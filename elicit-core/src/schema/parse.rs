//! Reading a requestedSchema from JSON: strict about structure, tolerant of annotations, and
//! noting everything outside the strict subset for [`RequestedSchema::lint`].

use serde_json::{Map, Value};

use super::{
    Bound, Choice, Format, Kind, Lint, MultiSelectRules, NumberRules, Pattern, Property,
    RequestedSchema, SelectRules, SelectStyle, StringRules,
};
use crate::error::SchemaError;

/// Keywords that change what a schema accepts, are outside the MCP subset, and are not enforced
/// here. A schema holding one is refused: enforcing part of a schema would accept what its author
/// meant to refuse.
const REFUSED: &[&str] = &[
    "$ref",
    "$defs",
    "definitions",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "const",
    "multipleOf",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "minProperties",
    "maxProperties",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "nullable",
];

/// Keywords outside the subset that are enforced when present; noted by `lint`.
const ENFORCED_EXTRAS: &[&str] = &[
    "pattern",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "uniqueItems",
];

/// Keywords each kind of property may carry in the strict subset.
const COMMON: &[&str] = &["type", "title", "description", "default"];
const STRING: &[&str] = &["minLength", "maxLength", "format"];
const NUMBER: &[&str] = &["minimum", "maximum"];
const SELECT: &[&str] = &["enum", "oneOf", "enumNames"];
const MULTI: &[&str] = &["items", "minItems", "maxItems"];

struct Ctx {
    lints: Vec<Lint>,
}

impl Ctx {
    fn lint(&mut self, property: Option<&str>, message: impl Into<String>) {
        self.lints.push(Lint {
            property: property.map(str::to_owned),
            message: message.into(),
        });
    }

    /// Notes every key of `obj` that is neither in the subset for its kind nor enforced.
    fn lint_extra_keys(&mut self, name: &str, obj: &Map<String, Value>, allowed: &[&[&str]]) {
        for key in obj.keys() {
            let known = allowed.iter().any(|set| set.contains(&key.as_str()));
            if ENFORCED_EXTRAS.contains(&key.as_str()) {
                self.lint(Some(name), format!("`{key}` is outside the MCP schema subset; it is enforced here, but clients may refuse the schema"));
            } else if !known {
                self.lint(
                    Some(name),
                    format!("`{key}` is not an MCP schema keyword; it is ignored"),
                );
            }
        }
    }
}

impl RequestedSchema {
    /// Parses a requestedSchema as a client receives it.
    ///
    /// Structure is checked strictly: the root must be `type: object` with a `properties` object,
    /// each property one of the primitive kinds MCP allows, every keyword of the right JSON type,
    /// `required` naming only listed properties, and no `min` above its `max`. Annotations that
    /// do not change what is accepted (a root `title`, an extra `title` on multi-select items,
    /// unknown keywords) are tolerated and listed by [`lint`](Self::lint). `pattern`,
    /// `exclusiveMinimum`, `exclusiveMaximum` and `uniqueItems` are outside the subset too, but
    /// are enforced rather than ignored.
    pub fn from_value(value: Value) -> Result<RequestedSchema, SchemaError> {
        let Value::Object(root) = value else {
            return Err(SchemaError::root(format!(
                "a requestedSchema must be a JSON object, got {}",
                json_type(&value)
            )));
        };
        let mut cx = Ctx { lints: Vec::new() };
        let mut schema = parse_root(&mut cx, &root)?;
        schema.lints = cx.lints;
        Ok(schema)
    }
}

impl RequestedSchema {
    /// Parses a requestedSchema from JSON text, keeping the properties in the order the text
    /// lists them, which is the order clients render the form in. ([`from_value`](Self::from_value)
    /// cannot know it: a `serde_json::Map` sorts its keys unless serde_json's `preserve_order`
    /// feature is on.)
    pub fn from_json(json: &str) -> Result<RequestedSchema, SchemaError> {
        let value: Value = serde_json::from_str(json)
            .map_err(|e| SchemaError::root(format!("not valid JSON: {e}")))?;
        let mut schema = RequestedSchema::from_value(value)?;
        // The text parsed once already, so reading its key order cannot fail.
        if let Ok(order) = serde_json::from_str::<PropertyOrder>(json) {
            schema.properties.sort_by_key(|p| {
                order
                    .0
                    .iter()
                    .position(|name| *name == p.name)
                    .unwrap_or(usize::MAX)
            });
            schema.reindex();
        }
        Ok(schema)
    }
}

/// The keys of a schema's `properties`, in the order they are written.
struct PropertyOrder(Vec<String>);

impl<'de> serde::Deserialize<'de> for PropertyOrder {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, Visitor};

        struct Root;
        impl<'de> Visitor<'de> for Root {
            type Value = PropertyOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a schema object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PropertyOrder, A::Error> {
                let mut order = Vec::new();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == "properties" {
                        order = map.next_value::<Keys>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(PropertyOrder(order))
            }
        }

        struct Keys(Vec<String>);
        impl<'de> serde::Deserialize<'de> for Keys {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct KeysVisitor;
                impl<'de> Visitor<'de> for KeysVisitor {
                    type Value = Keys;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Keys, A::Error> {
                        let mut keys = Vec::new();
                        while let Some(key) = map.next_key::<String>()? {
                            map.next_value::<IgnoredAny>()?;
                            keys.push(key);
                        }
                        Ok(Keys(keys))
                    }
                }
                d.deserialize_map(KeysVisitor)
            }
        }

        d.deserialize_map(Root)
    }
}

fn parse_root(cx: &mut Ctx, root: &Map<String, Value>) -> Result<RequestedSchema, SchemaError> {
    match root.get("type") {
        Some(Value::String(t)) if t == "object" => {}
        Some(other) => {
            return Err(SchemaError::root(format!(
                "the root must have `type: \"object\"`, got {other}"
            )));
        }
        None => return Err(SchemaError::root("the root must have `type: \"object\"`")),
    }
    refuse(root, None)?;
    for key in ["anyOf", "oneOf", "items", "enum"] {
        if root.contains_key(key) {
            return Err(SchemaError::root(format!(
                "`{key}` is not allowed at the root: a form is a flat object"
            )));
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
        cx.lint(None, "the form has no properties: some clients render an empty form that cannot be submitted");
    }
    let mut properties = Vec::with_capacity(props.len());
    for (name, schema) in props {
        properties.push(parse_property(cx, name, schema)?);
    }
    if let Some(required) = root.get("required") {
        let Value::Array(required) = required else {
            return Err(SchemaError::root("`required` must be an array of strings"));
        };
        for name in required {
            let Value::String(name) = name else {
                return Err(SchemaError::root("`required` must be an array of strings"));
            };
            match properties.iter_mut().find(|p| &p.name == name) {
                Some(p) => p.required = true,
                None => {
                    return Err(SchemaError::property(
                        name.as_str(),
                        "is listed in `required` but not in `properties`",
                    ));
                }
            }
        }
    }
    let deny_unknown = match root.get("additionalProperties") {
        None => false,
        Some(Value::Bool(allow)) => {
            cx.lint(
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
    for key in root.keys() {
        match key.as_str() {
            "type" | "properties" | "required" | "$schema" | "additionalProperties" => {}
            "title" | "description" => cx.lint(
                None,
                format!(
                    "a root `{key}` is outside the subset; some clients refuse the whole request"
                ),
            ),
            other => cx.lint(
                None,
                format!("`{other}` is not an MCP schema keyword; it is ignored"),
            ),
        }
    }
    let schema = RequestedSchema::build(properties, deny_unknown, dialect, Vec::new());
    check_defaults(&schema)?;
    Ok(schema)
}

/// Every default must pass its own property's rules (length, format, range, item count...),
/// checked by the same rules that check a reply: a client fills it in as the user's answer,
/// and a server fills it into accepted content.
fn check_defaults(schema: &RequestedSchema) -> Result<(), SchemaError> {
    for prop in &schema.properties {
        let Some(default) = prop.kind.default_value() else {
            continue;
        };
        if let Err(e) = schema.validate_property(&prop.name, &default) {
            let rule = e
                .violations()
                .first()
                .map_or_else(String::new, |v| v.rule().to_string());
            return Err(SchemaError::property(
                prop.name.as_str(),
                format!("`default` {default} breaks its own rules: it {rule}"),
            ));
        }
    }
    Ok(())
}

fn refuse(obj: &Map<String, Value>, name: Option<&str>) -> Result<(), SchemaError> {
    if let Some(key) = REFUSED.iter().find(|k| obj.contains_key(**k)) {
        let message = format!("`{key}` is outside the MCP elicitation schema subset");
        return Err(match name {
            Some(name) => SchemaError::property(name, message),
            None => SchemaError::root(message),
        });
    }
    Ok(())
}

fn parse_property(cx: &mut Ctx, name: &str, schema: &Value) -> Result<Property, SchemaError> {
    let err = |msg: String| SchemaError::property(name, msg);
    let Value::Object(obj) = schema else {
        return Err(err(format!(
            "a property schema must be an object, got {}",
            json_type(schema)
        )));
    };
    refuse(obj, Some(name))?;
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
    if obj.contains_key("anyOf") {
        return Err(err(
            "`anyOf` is not allowed on a property; titled choices use `oneOf`".into(),
        ));
    }
    let title = opt_string(obj, "title", name)?;
    let description = opt_string(obj, "description", name)?;
    let kind = match ty {
        "string" if obj.contains_key("enum") || obj.contains_key("oneOf") => {
            cx.lint_extra_keys(name, obj, &[COMMON, SELECT]);
            Kind::Select(parse_select(cx, name, obj)?)
        }
        "string" => {
            cx.lint_extra_keys(name, obj, &[COMMON, STRING]);
            Kind::String(parse_string(name, obj)?)
        }
        "number" | "integer" => {
            cx.lint_extra_keys(name, obj, &[COMMON, NUMBER]);
            Kind::Number(parse_number(name, obj, ty == "integer")?)
        }
        "boolean" => {
            cx.lint_extra_keys(name, obj, &[COMMON]);
            Kind::Boolean(match obj.get("default") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => return Err(err("`default` must be a boolean".into())),
            })
        }
        "array" => {
            cx.lint_extra_keys(name, obj, &[COMMON, MULTI]);
            Kind::MultiSelect(parse_multi(cx, name, obj)?)
        }
        "object" => return Err(err("nested objects are not allowed; a form is flat".into())),
        "null" => return Err(err("`null` is not a property type".into())),
        other => return Err(err(format!("unknown type `{other}`"))),
    };
    Ok(Property {
        name: name.to_owned(),
        title,
        description,
        required: false,
        kind,
    })
}

fn parse_string(name: &str, obj: &Map<String, Value>) -> Result<StringRules, SchemaError> {
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
            Some(Value::String(p)) => Some(Pattern::new(p).map_err(|e| {
                SchemaError::property(name, format!("`pattern` {p:?} is not supported: {e}"))
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
    Ok(rules)
}

/// A default as the kind holds it: an integer kind's as an integer (`30.0` is `30`), a number
/// kind's as a float, so a schema reads the same whichever way its numbers were written.
fn canonical(n: &serde_json::Number, integer: bool) -> serde_json::Number {
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

fn parse_select(
    cx: &mut Ctx,
    name: &str,
    obj: &Map<String, Value>,
) -> Result<SelectRules, SchemaError> {
    let (choices, style) = match (obj.get("enum"), obj.get("oneOf")) {
        (Some(_), Some(_)) => {
            return Err(SchemaError::property(name, "has both `enum` and `oneOf`"));
        }
        (Some(values), None) => {
            let mut choices = enum_values(name, values)?;
            match obj.get("enumNames") {
                None => (choices, SelectStyle::Untitled),
                Some(Value::Array(names)) if names.len() == choices.len() => {
                    for (choice, title) in choices.iter_mut().zip(names) {
                        let Value::String(title) = title else {
                            return Err(SchemaError::property(
                                name,
                                "`enumNames` must be an array of strings",
                            ));
                        };
                        choice.title = Some(title.clone());
                    }
                    (choices, SelectStyle::Legacy)
                }
                Some(_) => {
                    return Err(SchemaError::property(
                        name,
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
                name,
                "a single-select needs `enum` or `oneOf`",
            ));
        }
    };
    let default = opt_string(obj, "default", name)?;
    if let Some(d) = &default
        && !choices.iter().any(|c| &c.value == d)
    {
        return Err(SchemaError::property(
            name,
            format!("`default` {d:?} is not a choice"),
        ));
    }
    Ok(SelectRules {
        choices,
        style,
        default,
    })
}

fn parse_multi(
    cx: &mut Ctx,
    name: &str,
    obj: &Map<String, Value>,
) -> Result<MultiSelectRules, SchemaError> {
    let err = |msg: &str| SchemaError::property(name, msg);
    let Some(Value::Object(items)) = obj.get("items") else {
        return Err(err(
            "an array must have `items` holding an enum: only multi-selects are allowed",
        ));
    };
    refuse(items, Some(name))?;
    let (choices, titled) = match (items.get("enum"), items.get("anyOf")) {
        (Some(values), None) => {
            match items.get("type") {
                Some(Value::String(t)) if t == "string" => {}
                None => cx.lint(
                    Some(name),
                    "multi-select `items` should say `type: \"string\"`",
                ),
                Some(_) => return Err(err("multi-select items must be of type string")),
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
    for key in items.keys() {
        if !["type", "enum", "anyOf"].contains(&key.as_str()) {
            cx.lint(
                Some(name),
                format!("`items.{key}` is outside the MCP schema subset; it is ignored"),
            );
        }
    }
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
                    Value::String(s) if choices.iter().any(|c| &c.value == s) => {
                        out.push(s.clone())
                    }
                    _ => return Err(err("`default` must list choice values")),
                }
            }
            Some(out)
        }
        Some(_) => return Err(err("`default` must be an array of choice values")),
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
    values
        .iter()
        .map(|v| match v {
            Value::String(s) => Ok(Choice {
                value: s.clone(),
                title: None,
            }),
            _ => Err(err()),
        })
        .collect()
}

fn titled_choices(
    cx: &mut Ctx,
    name: &str,
    branches: &Value,
    key: &str,
) -> Result<Vec<Choice>, SchemaError> {
    let err = || {
        SchemaError::property(
            name,
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
                cx.lint(
                    Some(name),
                    format!("choice {value:?} in `{key}` has no `title`"),
                );
                Some(value.clone())
            }
            Some(Value::String(t)) => Some(t.clone()),
            Some(_) => return Err(err()),
        };
        if let Some(extra) = branch
            .keys()
            .find(|k| !["const", "title"].contains(&k.as_str()))
        {
            cx.lint(
                Some(name),
                format!("`{extra}` in a choice of `{key}` is outside the MCP schema subset"),
            );
        }
        choices.push(Choice {
            value: value.clone(),
            title,
        });
    }
    Ok(choices)
}

fn opt_string(
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

fn opt_u64(obj: &Map<String, Value>, key: &str, name: &str) -> Result<Option<u64>, SchemaError> {
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

fn check_order(
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
