//! When a client cannot show a question that may be answered from the tool's arguments, and
//! the arguments hold no answer: what the tool needs, said so that the model can ask the person
//! in the conversation and call again.

use serde_json::{Value, json};

use crate::schema::words;
use crate::schema::{Property, RequestedSchema};

/// Why no person answered a question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    /// The client cannot show it.
    CannotShow,
    /// The form came back without fields it needs, after every retry: the person left them
    /// empty, or the client showed them as something the person could not fill in.
    Unfilled,
}

/// A question no person could answer: the client cannot show it (and the arguments hold no
/// answer), or the form came back without the fields it needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Unavailable {
    /// The question's key: the argument that answers it.
    pub key: String,
    /// The question's message.
    pub message: String,
    /// Its `requestedSchema`, written for the request's version.
    pub requested_schema: Value,
    /// The fields, in words.
    pub(crate) fields: Vec<String>,
    /// Whether the result carries `structuredContent` (the tool declares no `outputSchema`).
    pub(crate) structured: bool,
    why: Why,
    /// What was wrong with the last answer, where one was refused.
    refused: Option<String>,
    /// Whether the answer may come in the arguments.
    arguments: bool,
}

impl Unavailable {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        key: &str,
        message: &str,
        schema: &RequestedSchema,
        written: &RequestedSchema,
        structured: bool,
        why: Why,
        refused: Option<String>,
        arguments: bool,
    ) -> Self {
        Unavailable {
            key: key.to_owned(),
            message: message.to_owned(),
            requested_schema: serde_json::to_value(written).unwrap_or(Value::Null),
            fields: schema.properties().iter().map(field).collect(),
            structured,
            why,
            refused,
            arguments,
        }
    }

    /// `{"elicitationUnavailable": {"key", "message", "requestedSchema"}}`.
    #[must_use]
    pub fn structured_content(&self) -> Value {
        json!({"elicitationUnavailable": {
            "key": self.key,
            "message": self.message,
            "requestedSchema": self.requested_schema,
        }})
    }
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.why {
            Why::CannotShow => writeln!(
                f,
                "The client cannot show forms, so this tool cannot ask the user: {}",
                self.message
            )?,
            Why::Unfilled => writeln!(
                f,
                "The form came back without fields this tool needs (left empty, or not \
                 shown in a way they could be filled in), so the tool cannot go on: {}",
                self.message
            )?,
        }
        if let Some(refused) = &self.refused {
            writeln!(f, "The answer was refused:\n{refused}")?;
        }
        writeln!(f, "It needs these fields:")?;
        for field in &self.fields {
            writeln!(f, "- {field}")?;
        }
        if self.arguments {
            write!(
                f,
                "Ask the user for them, then call the tool again with them as an object in the argument `{}`.",
                self.key
            )
        } else {
            f.write_str(
                "Ask the user for them another way: this tool cannot take them as arguments.",
            )
        }
    }
}

/// One field in words: `city` (City): text, 1–40 characters, required.
fn field(p: &Property) -> String {
    let mut out = format!("`{}`", p.name);
    if let Some(title) = &p.title {
        out.push_str(&format!(" ({title})"));
    }
    out.push_str(": ");
    out.push_str(&words::kind(&p.kind));
    if let Some(bounds) = words::bounds(p) {
        // The kind already says "a whole number".
        let whole = format!(", {}", words::json_type("integer"));
        let bounds = bounds.strip_suffix(whole.as_str()).unwrap_or(&bounds);
        out.push_str(&format!(", {bounds}"));
    }
    out.push_str(if p.required {
        ", required"
    } else {
        ", optional"
    });
    if let Some(description) = p.description.as_deref().filter(|d| !d.is_empty()) {
        out.push_str(&format!(". {description}"));
    }
    out
}

/// The `inputSchema` of a tool whose questions may be answered from its arguments
/// ([`or_arguments`](super::FormQuestion::or_arguments)): one optional property per question,
/// named by its key, holding that form's schema, so a model that cannot reach the person
/// through a form knows what to pass.
///
/// ```
/// use elicit_core::prelude::*;
///
/// /// Where would you like to go?
/// #[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
/// struct Trip {
///     city: String,
/// }
///
/// let schema = elicit_core::ask::input_schema([("trip", Trip::requested_schema())]);
/// assert_eq!(schema["properties"]["trip"]["properties"]["city"]["type"], "string");
/// assert!(schema.get("required").is_none());
/// ```
#[must_use]
pub fn input_schema<'a>(
    questions: impl IntoIterator<Item = (&'a str, &'a RequestedSchema)>,
) -> serde_json::Map<String, Value> {
    let properties: serde_json::Map<String, Value> = questions
        .into_iter()
        .map(|(key, schema)| {
            let mut form = serde_json::to_value(schema).unwrap_or(Value::Null);
            if let Value::Object(form) = &mut form {
                // A property's schema, not a document of its own.
                form.remove("$schema");
            }
            (key.to_owned(), form)
        })
        .collect();
    let mut schema = serde_json::Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    schema
}
