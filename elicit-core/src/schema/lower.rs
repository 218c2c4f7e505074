//! Lowering a schemars root schema to the MCP subset.
//!
//! schemars describes a Rust type in full JSON Schema: `$ref`s, `null` for `Option`, `format`s
//! such as `uint16`, enum variants split into `oneOf` groups. This module rewrites that into
//! the wire form, then reads it with the strict parser, so a derived schema passes the same
//! checks as one that arrives as JSON.

use serde_json::{Map, Value};

use super::RequestedSchema;
use crate::error::SchemaError;
use crate::limits::Limits;

/// The largest integer every JSON peer reads exactly (2^53 - 1). 64- and 128-bit integer fields
/// are bounded by it, since JavaScript clients would round anything larger.
pub(crate) const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// What the derive knows of one field that the schemars output does not say: its wire name
/// (from serde, in declaration order) and, for choice fields, the variants in declaration order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FieldOrder {
    /// The property's wire name.
    pub(crate) name: &'static str,
    /// The enum's variant wire names in declaration order, for single- and multi-selects.
    pub(crate) variants: Option<&'static [&'static str]>,
    /// A titled single-select written as `enum` + `enumNames` (`#[elicit(enum_names)]` on
    /// the enum).
    pub(crate) enum_names: bool,
}

/// Lowers a schemars root schema. Properties are put in `order`; any not listed keep their
/// place after those that are.
pub(crate) fn lower(root: Value, order: &[FieldOrder]) -> Result<RequestedSchema, SchemaError> {
    let Value::Object(mut root) = root else {
        return Err(SchemaError::root("the type's schema is not an object"));
    };
    let defs = match root.remove("$defs") {
        Some(Value::Object(defs)) => defs,
        _ => Map::new(),
    };
    // The root can carry neither a title nor a description on the wire: clients refuse them.
    for key in ["$schema", "title", "description"] {
        root.remove(key);
    }
    // `deny_unknown_fields`: enforced on parse, never sent.
    let deny_unknown = root.remove("additionalProperties") == Some(Value::Bool(false));
    // Rust sets: `uniqueItems` is outside the MCP subset, and every multi-select refuses the
    // same choice twice on parse, so it is taken out here.
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        for (name, schema) in props.iter_mut() {
            if let Value::Object(obj) = schema {
                obj.remove("uniqueItems");
            }
            let field = order.iter().find(|f| f.name == name);
            let variants = field.and_then(|f| f.variants);
            lower_property(name, schema, &defs, variants)?;
            if field.is_some_and(|f| f.enum_names)
                && let Value::Object(obj) = schema
            {
                to_enum_names(obj);
            }
        }
    }
    // The type is the program's own: no limit applies to its schema, and its replies are read
    // under the default ones.
    let mut schema = super::parse::parse(Value::Object(root), &Limits::UNLIMITED, false)?;
    schema.limits = Limits::DEFAULT;
    schema.deny_unknown = deny_unknown;
    // A derived schema must be exactly the subset: anything else would be dropped on the way
    // to the wire, so it is refused.
    if let Some(lint) = schema.lints.first() {
        let message = format!(
            "the type's schema has something MCP cannot express: {}",
            lint.message
        );
        return Err(match &lint.property {
            Some(p) => SchemaError::property(&**p, message),
            None => SchemaError::root(message),
        });
    }
    schema.order_by(order.iter().map(|f| f.name));
    Ok(schema)
}

fn lower_property(
    name: &str,
    schema: &mut Value,
    defs: &Map<String, Value>,
    variants: Option<&[&str]>,
) -> Result<(), SchemaError> {
    normalize(name, schema, defs, 0)?;
    let Value::Object(obj) = schema else {
        return Ok(());
    };
    for key in ["deprecated", "readOnly", "writeOnly"] {
        obj.remove(key);
    }
    if obj.get("default") == Some(&Value::Null) {
        obj.remove("default");
    }
    collect_choices(obj, variants);
    match obj.get("type").and_then(Value::as_str) {
        Some("integer") => integer_bounds(obj),
        Some("number") => {
            obj.remove("format");
        }
        Some("array") => {
            if let Some(items) = obj.get_mut("items") {
                normalize(name, items, defs, 0)?;
            }
            if let Some(Value::Object(items)) = obj.get_mut("items") {
                normalize_items(items, variants);
                let lifted = items.remove("description");
                items.remove("title");
                if let Some(description) = lifted {
                    obj.entry("description").or_insert(description);
                }
            }
        }
        _ => {}
    }
    Ok(())
}

/// A titled single-select (`oneOf` of `{const, title}`) rewritten as `enum` + `enumNames`.
fn to_enum_names(obj: &mut Map<String, Value>) {
    let Some(Value::Array(branches)) = obj.get("oneOf") else {
        return;
    };
    let (values, titles): (Vec<Value>, Vec<Value>) = branches
        .iter()
        .filter_map(|b| Some((b.get("const")?.clone(), b.get("title")?.clone())))
        .unzip();
    if values.len() != branches.len() {
        return;
    }
    obj.remove("oneOf");
    obj.insert("enum".into(), Value::Array(values));
    obj.insert("enumNames".into(), Value::Array(titles));
}

fn normalize_items(items: &mut Map<String, Value>, variants: Option<&[&str]>) {
    collect_choices(items, variants);
    if let Some(Value::Array(branches)) = items.remove("oneOf") {
        // A titled multi-select lists its choices under `items.anyOf`.
        items.remove("type");
        items.insert("anyOf".into(), Value::Array(branches));
    }
}

/// Resolves `$ref`s and strips the `null` that schemars adds for `Option`.
fn normalize(
    name: &str,
    schema: &mut Value,
    defs: &Map<String, Value>,
    depth: usize,
) -> Result<(), SchemaError> {
    if depth > 16 {
        return Err(SchemaError::property(
            name,
            "the type's schema is recursive",
        ));
    }
    let Value::Object(obj) = schema else {
        return Ok(());
    };
    if let Some(Value::String(reference)) = obj.remove("$ref") {
        let target = reference
            .strip_prefix("#/$defs/")
            .and_then(|key| defs.get(key))
            .and_then(Value::as_object)
            .ok_or_else(|| SchemaError::property(name, format!("unresolved `$ref` {reference}")))?;
        merge_under(obj, target);
        return normalize(name, schema, defs, depth + 1);
    }
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(values)) = obj.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = obj.get_mut(key) else {
            continue;
        };
        branches.retain(|b| !is_null_schema(b));
        if key == "anyOf" && branches.len() == 1 {
            let only = branches.remove(0);
            obj.remove(key);
            if let Value::Object(only) = &only {
                merge_under(obj, only);
            }
            // `depth` counts references followed: a branch is smaller than its schema.
            return normalize(name, schema, defs, depth);
        }
    }
    Ok(())
}

fn is_null_schema(schema: &Value) -> bool {
    match schema {
        Value::Object(obj) => {
            obj.get("type").and_then(Value::as_str) == Some("null")
                || obj.get("const") == Some(&Value::Null)
                || obj.get("enum") == Some(&Value::Array(vec![Value::Null]))
        }
        _ => false,
    }
}

/// Copies `from`'s keys into `obj` where `obj` has none: the referencing schema's own keys
/// (a field's doc comment, say) win over the referenced type's.
fn merge_under(obj: &mut Map<String, Value>, from: &Map<String, Value>) {
    for (key, value) in from {
        if !obj.contains_key(key) {
            obj.insert(key.clone(), value.clone());
        }
    }
}

/// Rewrites schemars' enum shapes (`enum`, or `oneOf` mixing `{enum}` groups and `{const}`
/// variants) into one choice list in declaration order: `enum` when no choice has a title,
/// `oneOf: [{const, title}]` when any has.
fn collect_choices(obj: &mut Map<String, Value>, variants: Option<&[&str]>) {
    let mut choices: Vec<(String, Option<String>)> = Vec::new();
    if let Some(Value::Array(branches)) = obj.get("oneOf") {
        for branch in branches {
            let Value::Object(branch) = branch else {
                return;
            };
            if let Some(Value::String(value)) = branch.get("const") {
                choices.push((value.clone(), branch_title(branch)));
            } else if let Some(Value::Array(values)) = branch.get("enum") {
                for v in values {
                    let Value::String(v) = v else { return };
                    choices.push((v.clone(), None));
                }
            } else {
                return;
            }
        }
        obj.remove("oneOf");
    } else if let Some(Value::Array(values)) = obj.get("enum") {
        for v in values {
            let Value::String(v) = v else { return };
            choices.push((v.clone(), None));
        }
    } else {
        return;
    }
    if let Some(order) = variants {
        let rank = |value: &String| order.iter().position(|v| v == value).unwrap_or(usize::MAX);
        crate::sort::stable(&mut choices, &|(a, _), (b, _)| rank(a).cmp(&rank(b)));
    }
    obj.insert("type".into(), Value::String("string".into()));
    if choices.iter().any(|(_, title)| title.is_some()) {
        obj.remove("enum");
        let branches = choices
            .into_iter()
            .map(|(value, title)| {
                let title = title.unwrap_or_else(|| value.clone());
                serde_json::json!({ "const": value, "title": title })
            })
            .collect();
        obj.insert("oneOf".into(), Value::Array(branches));
    } else {
        let values = choices.into_iter().map(|(v, _)| Value::String(v)).collect();
        obj.insert("enum".into(), Value::Array(values));
    }
}

/// A variant's display title: its schemars title, else the first paragraph of its doc comment.
fn branch_title(branch: &Map<String, Value>) -> Option<String> {
    if let Some(Value::String(title)) = branch.get("title") {
        return Some(title.clone());
    }
    let Value::String(doc) = branch.get("description")? else {
        return None;
    };
    let first = doc.split("\n\n").next().unwrap_or(doc).trim();
    (!first.is_empty()).then(|| first.replace('\n', " "))
}

/// Turns schemars' integer `format` into the Rust type's range, kept inside the user's bounds.
fn integer_bounds(obj: &mut Map<String, Value>) {
    let Some(Value::String(format)) = obj.remove("format") else {
        return;
    };
    let (lo, hi) = match format.as_str() {
        "int8" => (i8::MIN as f64, i8::MAX as f64),
        "int16" => (i16::MIN as f64, i16::MAX as f64),
        "int32" => (i32::MIN as f64, i32::MAX as f64),
        "uint8" => (0.0, u8::MAX as f64),
        "uint16" => (0.0, u16::MAX as f64),
        "uint32" => (0.0, u32::MAX as f64),
        "uint64" | "uint128" | "uint" => (0.0, MAX_SAFE_INTEGER),
        _ => (-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER),
    };
    let tighten =
        |obj: &mut Map<String, Value>, key: &str, bound: f64, pick: fn(f64, f64) -> f64| {
            let current = obj.get(key).and_then(Value::as_f64);
            let value = current.map_or(bound, |c| pick(c, bound));
            obj.insert(key.into(), number(value));
        };
    tighten(obj, "minimum", lo, f64::max);
    tighten(obj, "maximum", hi, f64::min);
}

fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() <= MAX_SAFE_INTEGER {
        Value::from(value as i64)
    } else {
        Value::from(value)
    }
}
