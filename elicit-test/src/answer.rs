//! [`Answer`]: one scripted reply of the person at the client.

use std::time::Duration;

use serde_json::{Value, json};

/// What the person does with one question: accept with content, accept a URL-mode page,
/// decline or cancel, optionally after a while; or what the client answers a sampling or
/// roots request: a completion, a refusal, or its roots.
///
/// Answer a sampling or roots request with [`Answer::for_key`] under its key, so that the
/// script serves every version whatever the order of a round's requests.
///
/// Content is sent exactly as given, unchecked, so a test can send what breaks the form's rules
/// and see what the tool does with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    reply: Value,
    /// The method of the requests it can answer; `None` for any.
    method: Option<&'static str>,
    /// A refusal: the client's JSON-RPC error, with this message.
    refusal: Option<String>,
    after: Duration,
    key: Option<String>,
}

impl Answer {
    fn of(reply: Value) -> Self {
        Answer {
            reply,
            method: Some("elicitation/create"),
            refusal: None,
            after: Duration::ZERO,
            key: None,
        }
    }

    /// `answer`, for the question under `key` only, wherever it stands in the script.
    ///
    /// On 2026-07-28 a round's requests arrive under their keys, so `answer` goes to its
    /// question, in whatever order the round lists them (rmcp sorts its keys), and a script
    /// that runs short names the question left unanswered. A live request (before 2026-07-28)
    /// carries no key: there the script's next answer goes to it, keyed or not, so write the
    /// script in the order the body asks, and the same script serves every version.
    #[must_use]
    pub fn for_key(key: impl Into<String>, answer: Answer) -> Self {
        Answer {
            key: Some(key.into()),
            ..answer
        }
    }

    /// Accepts a form with `content`, sent as given.
    #[must_use]
    pub fn accept(content: Value) -> Self {
        Answer::of(json!({"action": "accept", "content": content}))
    }

    /// Accepts a URL-mode question: the person agreed to open the page. No content.
    #[must_use]
    pub fn accept_url() -> Self {
        Answer::of(json!({"action": "accept"}))
    }

    /// Replies with `reply` as the whole result, exactly as given, on every version: a reply no
    /// client should send (`{"action": "maybe"}`, say), to see what the tool makes of it.
    #[must_use]
    pub fn raw(reply: Value) -> Self {
        Answer {
            method: None,
            ..Answer::of(reply)
        }
    }

    /// Answers a sampling request with `text`, from a model named `scripted`, ended by the
    /// model's turn.
    #[must_use]
    pub fn sampled(text: impl Into<String>) -> Self {
        Answer {
            method: Some("sampling/createMessage"),
            ..Answer::of(json!({
                "role": "assistant",
                "content": {"type": "text", "text": text.into()},
                "model": "scripted",
                "stopReason": "endTurn",
            }))
        }
    }

    /// Answers a roots request with `roots`, each a URI and a name.
    #[must_use]
    pub fn roots<'a>(roots: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let roots: Vec<Value> = roots
            .into_iter()
            .map(|(uri, name)| json!({"uri": uri, "name": name}))
            .collect();
        Answer {
            method: Some("roots/list"),
            ..Answer::of(json!({ "roots": roots }))
        }
    }

    /// Refuses a sampling or roots request with a JSON-RPC error saying `message`, as a client
    /// whose user or policy refuses it does. Live (before 2026-07-28) the error answers the
    /// request; on 2026-07-28 a refusal has no `inputResponses` entry, so the client ends the
    /// call, as the official Python client does, with [`TestError::Refused`](super::TestError::Refused).
    #[must_use]
    pub fn refuse(message: impl Into<String>) -> Self {
        Answer {
            refusal: Some(message.into()),
            method: None,
            ..Answer::of(Value::Null)
        }
    }

    /// Declines: the person saw the question and refused.
    #[must_use]
    pub fn decline() -> Self {
        Answer::of(json!({"action": "decline"}))
    }

    /// Cancels: the person dismissed the question.
    #[must_use]
    pub fn cancel() -> Self {
        Answer::of(json!({"action": "cancel"}))
    }

    /// The person takes `delay` to answer: the reply is sent that long after the question
    /// arrives.
    #[must_use]
    pub fn after(mut self, delay: Duration) -> Self {
        self.after = delay;
        self
    }

    /// The reply as it goes on the wire, `{"action": .., "content"?: ..}`.
    #[must_use]
    pub fn reply(&self) -> &Value {
        &self.reply
    }

    /// How long the person takes.
    #[must_use]
    pub fn delay(&self) -> Duration {
        self.after
    }

    /// The refusal's message, for an answer made by [`refuse`](Answer::refuse).
    #[must_use]
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }

    /// Whether it can answer a request of `method`: a completion answers sampling only, roots
    /// answer `roots/list` only, a form's answer an elicitation only; a raw reply or a refusal
    /// answers any.
    #[must_use]
    pub fn answers(&self, method: &str) -> bool {
        self.method.is_none_or(|own| own == method)
    }

    /// The key of the question it answers, if it answers one only.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }
}
