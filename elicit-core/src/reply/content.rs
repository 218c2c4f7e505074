//! Reading replies against a [`RequestedSchema`] known at run time, into [`Content`], on the
//! server's side; the client's side (checking and coercing what it sends) is in
//! `protocol/filling.rs`.
//!
//! A reply is read with exactly the rules of the typed path, into the `Map<String, Value>` that
//! rmcp and every serde user already hold.

use serde_json::{Map, Value};

use super::JsonText;
use crate::error::ElicitError;
use crate::result::ElicitResult;
use crate::schema::RequestedSchema;
use crate::schema::rules::usable_default;

/// Accepted content read against a runtime schema.
pub type Content = Map<String, Value>;

impl RequestedSchema {
    /// Reads a reply from JSON text or bytes ([`JsonText`]) against this schema, with exactly
    /// the rules of the typed path, under the schema's [`limits`](Self::limits), reporting every
    /// violation. Accepted content gets the schema's defaults for the
    /// properties it leaves out (not a default that breaks its own property's rules).
    ///
    /// ```
    /// use elicit_core::schema::RequestedSchema;
    /// use serde_json::json;
    ///
    /// let schema = RequestedSchema::from_value(json!({
    ///     "type": "object",
    ///     "properties": {
    ///         "name": {"type": "string"},
    ///         "newsletter": {"type": "boolean", "default": false}
    ///     },
    ///     "required": ["name"]
    /// }))?;
    /// let reply = r#"{"action":"accept","content":{"name":"Ada"}}"#;
    /// let content = schema.parse_reply_json(reply)?.accepted().expect("accepted");
    /// assert_eq!(content, *json!({"name": "Ada", "newsletter": false}).as_object().unwrap());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_reply_json(
        &self,
        json: &(impl JsonText + ?Sized),
    ) -> Result<ElicitResult<Content>, ElicitError> {
        self.with_defaults(super::from_text(self, json, &self.limits)?)
    }

    /// [`parse_reply_json`](Self::parse_reply_json) of a reply already held as a JSON value. A
    /// value has no text, so [`Limits::max_reply_bytes`](crate::Limits::max_reply_bytes) does
    /// not apply.
    pub fn parse_reply_value(&self, reply: &Value) -> Result<ElicitResult<Content>, ElicitError> {
        self.with_defaults(super::from_value(self, reply, &self.limits)?)
    }

    /// Accepted content as it was read, with the defaults filled in.
    pub(crate) fn with_defaults(
        &self,
        mut outcome: ElicitResult<Content>,
    ) -> Result<ElicitResult<Content>, ElicitError> {
        if let ElicitResult::Accept(content) = &mut outcome {
            self.fill_defaults(content);
        }
        Ok(outcome)
    }

    /// Inserts the schema's default for every property absent from `content`. A default that
    /// breaks its own property's rules is never filled in ([`lint`](Self::lint) names it).
    pub fn fill_defaults(&self, content: &mut Map<String, Value>) {
        for (i, prop) in self.properties.iter().enumerate() {
            if !content.contains_key(&prop.name)
                && let Some(default) = usable_default(self, i)
            {
                content.insert(prop.name.clone(), default);
            }
        }
    }
}
