//! What a scripted call gives back: the tool's [`Transcript`], each question as the client saw it
//! ([`AskedForm`]), or why there was no result ([`TestError`]).

use std::fmt;

use rmcp::model::{self as m, CallToolResult, ErrorData, ProgressNotificationParam};
use serde_json::Value;

use elicit_core::ProtocolVersion;

/// One question as it reached the client.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AskedForm {
    /// The request's method: `elicitation/create`, `sampling/createMessage` or `roots/list`.
    pub method: String,
    /// The message shown to the person; for a sampling request, the text of its messages.
    pub message: String,
    /// The form's `requestedSchema`, as sent; `None` in URL mode.
    pub requested_schema: Option<Value>,
    /// The page to open, in URL mode.
    pub url: Option<String>,
    /// The version of the request that carried it.
    pub version: ProtocolVersion,
    /// Its key in `inputRequests` (2026-07-28); `None` for a live request.
    pub key: Option<String>,
    /// The `elicitationId` of a URL-mode request that carried one (2025-11-25); `None` for a
    /// form, and for an empty one (rmcp writes `""` on 2026-07-28, which has none).
    pub elicitation_id: Option<String>,
}

impl AskedForm {
    /// The first property whose `default` its own rules refuse, with why: a client would show
    /// the form ready to submit, and its answer would be refused.
    pub(super) fn broken_default(&self) -> Option<(String, String)> {
        let schema = self.requested_schema.as_ref()?;
        let properties = schema.get("properties")?.as_object()?;
        let read = elicit_core::schema::RequestedSchema::from_value(schema.clone()).ok()?;
        properties.iter().find_map(|(name, property)| {
            let default = property.get("default")?;
            let refused = read.validate_property(name, default).err()?;
            Some((name.clone(), refused.to_string()))
        })
    }

    pub(super) fn of(
        params: &m::ElicitRequestParams,
        version: ProtocolVersion,
        key: Option<String>,
    ) -> Self {
        let (message, requested_schema, url, elicitation_id) = match params {
            m::ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => (
                message.clone(),
                serde_json::to_value(requested_schema).ok(),
                None,
                None,
            ),
            m::ElicitRequestParams::UrlElicitationParams {
                message,
                url,
                elicitation_id,
                ..
            } => (
                message.clone(),
                None,
                Some(url.clone()),
                Some(elicitation_id.clone()).filter(|id| !id.is_empty()),
            ),
            _ => (String::new(), None, None, None),
        };
        AskedForm {
            method: "elicitation/create".into(),
            message,
            requested_schema,
            url,
            version,
            key,
            elicitation_id,
        }
    }
}

impl AskedForm {
    /// A sampling or roots request, from its wire form.
    pub(super) fn other(
        method: &str,
        params: &Value,
        version: ProtocolVersion,
        key: Option<String>,
    ) -> Self {
        let texts = params
            .get("messages")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| m.pointer("/content/text").and_then(Value::as_str));
        AskedForm {
            method: method.to_owned(),
            message: texts.collect::<Vec<_>>().join("\n"),
            requested_schema: None,
            url: None,
            version,
            key,
            elicitation_id: None,
        }
    }
}

/// How a scripted call ended: by default a `tools/call`'s; a `prompts/get`'s is a
/// `Transcript<GetPromptResult>`, a `resources/read`'s a `Transcript<ReadResourceResult>`.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Transcript<R = CallToolResult> {
    /// The final result, without the `resultType` mark 2026-07-28 adds, so that one tool's
    /// results compare equal across versions.
    pub result: R,
    /// Every question, in the order it reached the client.
    pub asked: Vec<AskedForm>,
    /// The requests sent: 1 with live requests; on 2026-07-28, one per round plus the last.
    pub calls: u32,
    /// Each round's `requestState`, as the server sent it (2026-07-28).
    pub request_states: Vec<String>,
    /// The progress notifications received during the call.
    pub progress: Vec<ProgressNotificationParam>,
}

impl<R> Transcript<R> {
    /// The messages of the questions asked, in order.
    #[must_use]
    pub fn messages(&self) -> Vec<&str> {
        self.asked.iter().map(|a| a.message.as_str()).collect()
    }
}

impl Transcript {
    /// The text of the result's text blocks, joined.
    #[must_use]
    pub fn text(&self) -> String {
        self.result
            .content
            .iter()
            .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
            .collect()
    }

    /// The result's text read as JSON, `None` when it is not JSON.
    #[must_use]
    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.text()).ok()
    }

    /// Whether the result is a tool error (`isError: true`).
    #[must_use]
    pub fn is_error(&self) -> bool {
        self.result.is_error == Some(true)
    }

    /// The `elicitationUnavailable` object of a tool error: the question no person could
    /// answer, with its `key`, `message` and `requestedSchema` (`elicit_core::ask::Unavailable`).
    /// `None` when the result is no tool error or carries no `structuredContent` (a tool that
    /// declares an `outputSchema` gets the text alone).
    #[must_use]
    pub fn unavailable(&self) -> Option<&Value> {
        let content = self.result.structured_content.as_ref()?;
        self.is_error()
            .then(|| content.get("elicitationUnavailable"))
            .flatten()
    }
}

/// Why a scripted call has no [`Transcript`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum TestError {
    /// The server answered the call with a JSON-RPC error.
    Server(ErrorData),
    /// A question arrived after the script ran out of answers.
    NoAnswer {
        /// The question's message.
        message: String,
    },
    /// `arguments` was neither a JSON object nor `null`.
    Arguments(Value),
    /// The server panicked while handling a request.
    Panicked {
        /// The panic's message, when it was a string.
        message: String,
    },
    /// The connection failed or closed before the call ended.
    Connection(String),
    /// The server agreed to another protocol version than the one asked for.
    Version {
        /// The version the client asked for.
        asked: ProtocolVersion,
        /// The version the server agreed to, if any.
        agreed: Option<String>,
    },
    /// No response came within the client's timeout
    /// ([`with_timeout`](super::ScriptedClient::with_timeout)), progress included.
    Timeout(std::time::Duration),
    /// The server kept answering `input_required` past the client's round cap.
    TooManyRounds(u32),
    /// The script refused a sampling or roots request of a round (2026-07-28), which ends the
    /// call: a refusal has no `inputResponses` entry.
    Refused {
        /// The request's key.
        key: String,
        /// The refusal's message.
        message: String,
    },
    /// The server sent a reply no client can use: an input request of another kind, or a
    /// result of another type.
    Unexpected(String),
    /// A form arrived whose `default` for `property` its own rules refuse (`why`): a client
    /// shows it ready to submit, and the answer is refused. The kit checks every form it
    /// scripts.
    BrokenDefault {
        /// The form's message.
        message: String,
        /// The property.
        property: String,
        /// The rule its default breaks.
        why: String,
    },
    /// A call of [`call_tool_on_every_version`](super::ScriptedClient::call_tool_on_every_version)
    /// failed on `version`.
    OnVersion {
        /// The version whose call failed.
        version: ProtocolVersion,
        /// Why it failed.
        error: Box<TestError>,
    },
}

impl fmt::Display for TestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestError::Server(e) => write!(
                f,
                "the server answered with error {}: {}",
                e.code.0, e.message
            ),
            TestError::NoAnswer { message } => {
                write!(
                    f,
                    "the script has no answer left for the question {message:?}"
                )
            }
            TestError::Arguments(value) => {
                write!(
                    f,
                    "a tool's arguments are a JSON object or null, not {value}"
                )
            }
            TestError::Panicked { message } => write!(f, "the server panicked: {message}"),
            TestError::Connection(e) => write!(f, "the connection failed: {e}"),
            TestError::Version { asked, agreed } => write!(
                f,
                "the client asked for protocol {asked} and the server agreed to {}",
                agreed.as_deref().unwrap_or("none")
            ),
            TestError::Timeout(after) => {
                write!(
                    f,
                    "the call timed out: no response or progress for {after:?}"
                )
            }
            TestError::TooManyRounds(cap) => {
                write!(f, "the call was still asking for input after {cap} rounds")
            }
            TestError::Unexpected(what) => write!(f, "the server sent {what}"),
            TestError::BrokenDefault {
                message,
                property,
                why,
            } => write!(
                f,
                "the form {message:?} sends a default for `{property}` that its own rules \
                 refuse ({why}): a client shows it ready to submit, and the answer is refused"
            ),
            TestError::Refused { key, message } => {
                write!(f, "the client refused the request `{key}`: {message}")
            }
            TestError::OnVersion { version, error } => write!(f, "on {version}: {error}"),
        }
    }
}

impl std::error::Error for TestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TestError::OnVersion { error, .. } => Some(error),
            _ => None,
        }
    }
}
