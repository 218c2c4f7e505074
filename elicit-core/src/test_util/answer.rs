//! [`Answer`]: one scripted reply of the person at the client.

use std::time::Duration;

use serde_json::{Value, json};

/// What the person does with one question: accept with content, accept a URL-mode page,
/// decline or cancel, optionally after a while.
///
/// Content is sent exactly as given, unchecked, so a test can send what breaks the form's rules
/// and see what the tool does with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    reply: Value,
    after: Duration,
    key: Option<String>,
}

impl Answer {
    fn of(reply: Value) -> Self {
        Answer {
            reply,
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
        Answer::of(reply)
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

    /// The key of the question it answers, if it answers one only.
    #[must_use]
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }
}
