//! The ways to read a reply that the benchmarks compare, each a function from the reply bytes
//! to a typed value, so criterion and the paired harness time exactly the same code.

use elicit_core::{Elicit, ElicitResult, RequestedSchema};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

/// (f) The floor: serde's own derive into a plain envelope, no validation at all.
#[derive(Deserialize)]
pub struct Envelope<T> {
    /// The action, unchecked.
    pub action: String,
    /// The content, unchecked.
    pub content: Option<T>,
}

/// (f) The floor.
pub fn floor<T: DeserializeOwned>(reply: &str) -> Option<T> {
    let envelope: Envelope<T> = serde_json::from_str(reply).ok()?;
    (envelope.action == "accept")
        .then_some(envelope.content)
        .flatten()
}

/// The validating typed parse, through the reporting entry point.
pub fn typed<T: Elicit>(reply: &str) -> Option<T> {
    ElicitResult::<T>::from_json(reply).ok()?.accepted()
}

/// The validating typed parse, through the `Deserialize` impl.
pub fn typed_serde<T: Elicit>(reply: &str) -> Option<T> {
    serde_json::from_str::<ElicitResult<T>>(reply)
        .ok()?
        .accepted()
}

/// (a) `T` from the bare content, no envelope, no validation.
pub fn bare<T: DeserializeOwned>(content: &str) -> Option<T> {
    serde_json::from_str(content).ok()
}

/// (b) The envelope as a `Value`, then `from_value`, no validation.
pub fn value_envelope<T: DeserializeOwned>(reply: &str) -> Option<T> {
    let mut value: Value = serde_json::from_str(reply).ok()?;
    if value["action"] != "accept" {
        return None;
    }
    serde_json::from_value(value["content"].take()).ok()
}

/// (c) rmcp's `ElicitResult` model type, then `from_value`, no validation.
pub fn rmcp<T: DeserializeOwned>(reply: &str) -> Option<T> {
    let result: ::rmcp::model::ElicitResult = serde_json::from_str(reply).ok()?;
    match result.action {
        ::rmcp::model::ElicitationAction::Accept => serde_json::from_value(result.content?).ok(),
        _ => None,
    }
}

/// What rmcp's typed `Peer::elicit` does with the result it holds: clone the content, then
/// `from_value` (no validation).
pub fn rmcp_typed<T: DeserializeOwned>(result: &::rmcp::model::ElicitResult) -> Option<T> {
    match result.action {
        ::rmcp::model::ElicitationAction::Accept => {
            serde_json::from_value(result.content.clone()?).ok()
        }
        _ => None,
    }
}

/// Serde's derive reading the content where rmcp holds it, without a clone (no validation).
pub fn rmcp_borrowed<T: DeserializeOwned>(result: &::rmcp::model::ElicitResult) -> Option<T> {
    match result.action {
        ::rmcp::model::ElicitationAction::Accept => T::deserialize(result.content.as_ref()?).ok(),
        _ => None,
    }
}

/// The validating read of rmcp's result.
pub fn from_rmcp<T: Elicit>(result: &::rmcp::model::ElicitResult) -> Option<T> {
    ElicitResult::<T>::from_rmcp(result).ok()?.accepted()
}

/// The design with one reader per form: rmcp's result written out as text, then read by the
/// fast pass (`from_json`), as a reply the fast pass leaves is read again today.
pub fn rmcp_as_text<T: Elicit>(result: &::rmcp::model::ElicitResult) -> Option<T> {
    let text = serde_json::to_string(result).ok()?;
    typed::<T>(&text)
}

/// (d) A `jsonschema` validator of the requestedSchema, then `from_value`.
pub struct JsonSchemaPath {
    validator: jsonschema::Validator,
}

impl JsonSchemaPath {
    /// Compiles the validator for `schema` once.
    pub fn new(schema: &RequestedSchema) -> Self {
        let schema = serde_json::to_value(schema).expect("serializable");
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the requestedSchema compiles");
        JsonSchemaPath { validator }
    }

    /// Validates the content, then builds `T`.
    pub fn parse<T: DeserializeOwned>(&self, reply: &str) -> Option<T> {
        let mut value: Value = serde_json::from_str(reply).ok()?;
        if value["action"] != "accept" {
            return None;
        }
        let content = value["content"].take();
        if !self.validator.is_valid(&content) {
            return None;
        }
        serde_json::from_value(content).ok()
    }
}

/// The runtime path: `RequestedSchema::parse_result_json` into its `Content`.
pub fn runtime(schema: &RequestedSchema, reply: &str) -> Option<elicit_core::Content> {
    schema.parse_result_json(reply).ok()?.accepted()
}

/// The runtime path, then the content turned into a `serde_json` map.
pub fn runtime_map(
    schema: &RequestedSchema,
    reply: &str,
) -> Option<serde_json::Map<String, Value>> {
    runtime(schema, reply).map(elicit_core::Content::into_map)
}

/// serde's `IgnoredAny` over the bytes: the least any reader can do.
pub fn ignored(reply: &str) -> bool {
    serde_json::from_str::<IgnoredAny>(reply).is_ok()
}

/// The content part of an accept reply, as its own bytes.
pub fn content_of(reply: &str) -> String {
    let value: Value = serde_json::from_str(reply).expect("a reply");
    value["content"].to_string()
}
