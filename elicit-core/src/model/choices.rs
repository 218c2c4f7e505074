//! Reading the choices of single- and multi-selects.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::{Map, Value};

use super::keywords::{Applies, Reader};
use super::parse::{check_order, opt_string, opt_u64};
use super::{Choice, MultiSelectRules, SelectRules, SelectStyle};
use crate::error::SchemaError;

pub(super) fn parse_select(
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

pub(super) fn parse_multi(
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
    cx.keywords(
        Some(name),
        "items.",
        items,
        Applies::Strings,
        &["type", "enum", "anyOf"],
    )?;
    let (choices, titled) = match (items.get("enum"), items.get("anyOf")) {
        (Some(values), None) => {
            match items.get("type") {
                Some(Value::String(t)) if t == "string" => {}
                None => cx.push(
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
        cx.keywords(
            Some(name),
            &format!("{key}[]."),
            branch,
            Applies::Strings,
            &["const", "title"],
        )?;
        choices.push(Choice {
            value: value.clone(),
            title,
        });
    }
    unique(name, choices)
}
