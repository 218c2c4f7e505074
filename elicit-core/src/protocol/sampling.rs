//! The other two requests a server makes of a client: `sampling/createMessage` (a completion
//! from the client's model) and `roots/list` (the client's roots), typed as the protocol
//! writes them.
//!
//! Both are deprecated in the specification (SEP-2577, on a twelve-month clock), and both are
//! still legal input requests on 2026-07-28, so a server that needs them asks through the same
//! [`Ask`](crate::ask::Ask) as for a form: `ask.sample(..)` and `ask.roots(..)`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// Who wrote a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The user.
    User,
    /// The model.
    Assistant,
}

/// One content block of a sampling message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum SamplingContent {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// The data, base64-encoded.
        data: String,
        /// Its MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// The data, base64-encoded.
        data: String,
        /// Its MIME type.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A call of one of the request's tools, by the model (2025-11-25 and later).
    ToolUse {
        /// The call's id, which its result names.
        id: String,
        /// The tool's name.
        name: String,
        /// Its arguments.
        input: Value,
    },
    /// A tool's result, sent back to the model (2025-11-25 and later).
    ToolResult {
        /// The id of the call it answers.
        #[serde(rename = "toolUseId")]
        tool_use_id: String,
        /// Its content blocks, as the protocol writes them.
        #[serde(default)]
        content: Vec<Value>,
        /// Whether the tool failed.
        #[serde(rename = "isError", default, skip_serializing_if = "Option::is_none")]
        is_error: Option<bool>,
    },
}

impl SamplingContent {
    /// A text block.
    #[must_use]
    pub fn text(text: impl Into<String>) -> Self {
        SamplingContent::Text { text: text.into() }
    }
}

/// A message's content: one block is written as an object, several as a list (2025-11-25 and
/// later); either is read.
mod blocks {
    use super::*;

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(SamplingContent),
        Many(Vec<SamplingContent>),
    }

    pub fn serialize<S: Serializer>(blocks: &[SamplingContent], s: S) -> Result<S::Ok, S::Error> {
        match blocks {
            [one] => one.serialize(s),
            many => many.serialize(s),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SamplingContent>, D::Error> {
        Ok(match OneOrMany::deserialize(d)? {
            OneOrMany::One(one) => vec![one],
            OneOrMany::Many(many) => many,
        })
    }
}

/// One message of a conversation sent for sampling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SamplingMessage {
    /// Who wrote it.
    pub role: Role,
    /// Its content blocks.
    #[serde(with = "blocks")]
    pub content: Vec<SamplingContent>,
}

impl SamplingMessage {
    /// A message of text.
    #[must_use]
    pub fn text(role: Role, text: impl Into<String>) -> Self {
        SamplingMessage {
            role,
            content: vec![SamplingContent::text(text)],
        }
    }
}

/// The params of `sampling/createMessage`: the conversation, and how to sample a reply to it.
///
/// ```
/// use elicit_core::SamplingRequest;
///
/// let request = SamplingRequest::new(100)
///     .user("What is the capital of France?")
///     .system_prompt("Answer in one sentence.");
/// let params = serde_json::to_value(&request).unwrap();
/// assert_eq!(params["maxTokens"], 100);
/// assert_eq!(params["messages"][0]["content"]["text"], "What is the capital of France?");
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct SamplingRequest {
    /// The conversation so far.
    pub messages: Vec<SamplingMessage>,
    /// The most tokens to sample.
    pub max_tokens: u32,
    /// A system prompt the client may use.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system_prompt: Option<String>,
    /// The server's preferences among models (`hints`, `costPriority`, ...), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_preferences: Option<Value>,
    /// Which servers' context to include: `none`, `thisServer` or `allServers`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_context: Option<String>,
    /// The sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Sequences that stop sampling.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
    /// Metadata for the provider, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Value>,
    /// Tools the model may call (2025-11-25 and later; the client must declare
    /// `sampling.tools`), as the protocol writes a `Tool`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Value>,
    /// How the model may use them (`{"mode": "auto"}`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<Value>,
}

impl SamplingRequest {
    /// A request for at most `max_tokens`, with no messages yet.
    #[must_use]
    pub fn new(max_tokens: u32) -> Self {
        SamplingRequest {
            messages: Vec::new(),
            max_tokens,
            system_prompt: None,
            model_preferences: None,
            include_context: None,
            temperature: None,
            stop_sequences: Vec::new(),
            metadata: None,
            tools: Vec::new(),
            tool_choice: None,
        }
    }

    /// Adds a message of the user's.
    #[must_use]
    pub fn user(self, text: impl Into<String>) -> Self {
        self.message(SamplingMessage::text(Role::User, text))
    }

    /// Adds a message of the model's.
    #[must_use]
    pub fn assistant(self, text: impl Into<String>) -> Self {
        self.message(SamplingMessage::text(Role::Assistant, text))
    }

    /// Adds `message`.
    #[must_use]
    pub fn message(mut self, message: SamplingMessage) -> Self {
        self.messages.push(message);
        self
    }

    /// Sets the system prompt.
    #[must_use]
    pub fn system_prompt(mut self, prompt: impl Into<String>) -> Self {
        self.system_prompt = Some(prompt.into());
        self
    }
}

/// Why sampling stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum StopReason {
    /// The model ended its turn.
    EndTurn,
    /// It met a stop sequence.
    StopSequence,
    /// It reached `maxTokens`.
    MaxTokens,
    /// It called a tool (2025-11-25 and later).
    ToolUse,
    /// Another reason, as the client wrote it.
    Other(String),
}

impl From<String> for StopReason {
    fn from(reason: String) -> Self {
        match reason.as_str() {
            "endTurn" => StopReason::EndTurn,
            "stopSequence" => StopReason::StopSequence,
            "maxTokens" => StopReason::MaxTokens,
            "toolUse" => StopReason::ToolUse,
            _ => StopReason::Other(reason),
        }
    }
}

impl From<StopReason> for String {
    fn from(reason: StopReason) -> Self {
        match reason {
            StopReason::EndTurn => "endTurn".into(),
            StopReason::StopSequence => "stopSequence".into(),
            StopReason::MaxTokens => "maxTokens".into(),
            StopReason::ToolUse => "toolUse".into(),
            StopReason::Other(reason) => reason,
        }
    }
}

/// The client's answer to `sampling/createMessage`: the sampled message, the model that wrote
/// it, and why it stopped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct CreateMessageResult {
    /// Who wrote it: the model.
    pub role: Role,
    /// Its content blocks.
    #[serde(with = "blocks")]
    pub content: Vec<SamplingContent>,
    /// The model's name.
    pub model: String,
    /// Why sampling stopped, where the client says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_reason: Option<StopReason>,
}

impl CreateMessageResult {
    /// A reply of `text` from `model`, ended by the model's turn.
    #[must_use]
    pub fn text_from(model: impl Into<String>, text: impl Into<String>) -> Self {
        CreateMessageResult {
            role: Role::Assistant,
            content: vec![SamplingContent::text(text)],
            model: model.into(),
            stop_reason: Some(StopReason::EndTurn),
        }
    }

    /// The text of its text blocks, joined.
    #[must_use]
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter_map(|block| match block {
                SamplingContent::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// One root the client lists: a directory or file the server may work in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// Its URI (`file://` in the protocol's versions so far).
    pub uri: String,
    /// A name to show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Root {
    /// The root at `uri`, named `name`.
    #[must_use]
    pub fn new(uri: impl Into<String>, name: Option<String>) -> Self {
        Root {
            uri: uri.into(),
            name,
        }
    }
}

#[cfg(test)]
#[path = "../../unit/protocol/sampling.rs"]
mod tests;
