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
}

impl Answer {
    fn of(reply: Value) -> Self {
        Answer {
            reply,
            after: Duration::ZERO,
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
}
