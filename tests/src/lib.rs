//! Helpers shared by the integration tests: the official protocol definitions, a strict
//! keyword allowlist, and schema snapshots.

use std::path::PathBuf;

use elicit_core::ProtocolVersion;
use serde_json::{Value, json};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The official elicitation definitions of `version` (see `fixtures/README.md`).
pub fn spec(version: ProtocolVersion) -> Value {
    let path = root().join(format!("fixtures/spec/elicitation-{version}.json"));
    let text = std::fs::read_to_string(&path).expect("spec fixture is readable");
    serde_json::from_str(&text).expect("spec fixture is JSON")
}

/// A validator for `#/$defs/{definition}` of `version`'s official definitions.
pub fn official(version: ProtocolVersion, definition: &str) -> jsonschema::Validator {
    let mut schema = spec(version);
    schema["$ref"] = json!(format!("#/$defs/{definition}"));
    jsonschema::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("official definitions compile")
}

/// Errors of `instance` against `#/$defs/{definition}` of `version`, as text.
pub fn official_errors(
    version: ProtocolVersion,
    definition: &str,
    instance: &Value,
) -> Vec<String> {
    official(version, definition)
        .iter_errors(instance)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

const ANNOTATIONS: &[&str] = &["type", "title", "description", "default"];

/// Every keyword in `schema` outside the strict MCP subset for its kind of property, as text.
/// The official definitions allow unknown keywords; this does not.
pub fn allowlist_errors(schema: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let Some(root) = schema.as_object() else {
        return vec!["root is not an object".into()];
    };
    for key in root.keys() {
        if !["$schema", "type", "properties", "required"].contains(&key.as_str()) {
            errors.push(format!("root keyword `{key}`"));
        }
    }
    if root.get("type") != Some(&json!("object")) {
        errors.push("root type is not object".into());
    }
    let Some(props) = root.get("properties").and_then(Value::as_object) else {
        errors.push("no properties object".into());
        return errors;
    };
    if let Some(required) = root.get("required") {
        for name in required.as_array().into_iter().flatten() {
            if !name.as_str().is_some_and(|n| props.contains_key(n)) {
                errors.push(format!("required {name} is not a property"));
            }
        }
    }
    for (name, prop) in props {
        property_allowlist(name, prop, &mut errors);
    }
    errors
}

fn property_allowlist(name: &str, prop: &Value, errors: &mut Vec<String>) {
    let Some(obj) = prop.as_object() else {
        errors.push(format!("{name}: not an object"));
        return;
    };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("");
    let extra: &[&str] = match ty {
        "string" if obj.contains_key("oneOf") => &["oneOf"],
        "string" if obj.contains_key("enumNames") => &["enum", "enumNames"],
        "string" if obj.contains_key("enum") => &["enum"],
        "string" => &["minLength", "maxLength", "format"],
        "number" | "integer" => &["minimum", "maximum"],
        "boolean" => &[],
        "array" => &["items", "minItems", "maxItems"],
        other => {
            errors.push(format!("{name}: type {other:?} is not a primitive"));
            return;
        }
    };
    for key in obj.keys() {
        if !ANNOTATIONS.contains(&key.as_str()) && !extra.contains(&key.as_str()) {
            errors.push(format!("{name}: keyword `{key}` not allowed on a {ty}"));
        }
    }
    if let Some(format) = obj.get("format")
        && !["email", "uri", "date", "date-time"].contains(&format.as_str().unwrap_or(""))
    {
        errors.push(format!("{name}: format {format}"));
    }
    for (lo, hi) in [
        ("minLength", "maxLength"),
        ("minimum", "maximum"),
        ("minItems", "maxItems"),
    ] {
        if let (Some(lo), Some(hi)) = (
            obj.get(lo).and_then(Value::as_f64),
            obj.get(hi).and_then(Value::as_f64),
        ) && lo > hi
        {
            errors.push(format!("{name}: {lo} > {hi}"));
        }
    }
    if let Some(branches) = obj.get("oneOf") {
        const_title_list(name, branches, errors);
    }
    if let Some(items) = obj.get("items") {
        let keys: Vec<&str> = items
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        match keys.as_slice() {
            ["anyOf"] => const_title_list(name, &items["anyOf"], errors),
            ["enum", "type"] | ["type", "enum"] if items["type"] == "string" => {}
            _ => errors.push(format!("{name}: items {items}")),
        }
    }
}

fn const_title_list(name: &str, branches: &Value, errors: &mut Vec<String>) {
    for branch in branches.as_array().into_iter().flatten() {
        let keys: Vec<&str> = branch
            .as_object()
            .map(|o| o.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if !(keys == ["const", "title"] || keys == ["title", "const"]) {
            errors.push(format!("{name}: choice {branch}"));
        }
    }
}

/// Checks a requestedSchema against the official definition of `version` and the allowlist.
pub fn assert_conforms(version: ProtocolVersion, schema: &Value) {
    let official = official_errors(version, "ElicitRequestedSchema", schema);
    assert!(
        official.is_empty(),
        "{version}: {schema:#}\nofficial: {official:#?}"
    );
    let strict = allowlist_errors(schema);
    assert!(
        strict.is_empty(),
        "{version}: {schema:#}\nallowlist: {strict:#?}"
    );
}

/// Checks `T`'s schema for every protocol version that can express it, and that the newest can.
pub fn assert_type_conforms<T: elicit_core::Elicit>() {
    assert_conforms(
        ProtocolVersion::LATEST,
        &serde_json::to_value(T::requested_schema()).unwrap(),
    );
    for version in ProtocolVersion::ALL {
        if let Ok(schema) = T::requested_schema_for(version) {
            assert_conforms(version, &serde_json::to_value(schema).unwrap());
        }
    }
}

/// Compares the wire JSON of `value` (keys in the order it writes them) with
/// `snapshots/{name}.json`. With `ELICIT_BLESS=1` the file is written instead; CI never sets it,
/// so a missing or different snapshot fails.
/// [`assert_snapshot`] of a JSON value built through a `serde_json::Map`, with its keys sorted at
/// every level: such a map keeps insertion order only when serde_json's `preserve_order` is on,
/// which depends on what else the build holds.
pub fn assert_sorted_snapshot(name: &str, value: &serde_json::Value) {
    assert_snapshot(name, &Sorted(value));
}

/// A value written with the keys of each object sorted.
struct Sorted<'a>(&'a serde_json::Value);

impl serde::Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self.0 {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for key in keys {
                    out.serialize_entry(key, &Sorted(&map[key]))?;
                }
                out.end()
            }
            serde_json::Value::Array(items) => {
                let mut out = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    out.serialize_element(&Sorted(item))?;
                }
                out.end()
            }
            other => other.serialize(serializer),
        }
    }
}

pub fn assert_snapshot(name: &str, value: &impl serde::Serialize) {
    let path = root().join("snapshots").join(format!("{name}.json"));
    let text = serde_json::to_string_pretty(value).expect("serializable") + "\n";
    if std::env::var_os("ELICIT_BLESS").is_some() {
        std::fs::write(&path, &text).expect("snapshot written");
        return;
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing snapshot {}; run with ELICIT_BLESS=1",
            path.display()
        )
    });
    assert_eq!(stored, text, "snapshot {name} differs");
}

/// The README's Rust code blocks, compiled and run as this crate's doctests: each is a whole
/// program, as a reader would paste it.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
