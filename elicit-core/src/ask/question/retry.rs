//! Asking again: what a question's retry policy does after a cancel, a decline, or content that
//! broke the rules, and where each attempt's answer came from.
//!
//! - **cancel**: ask again once, saying the form was dismissed;
//! - **decline**: stop, and never ask again;
//! - **invalid content**: ask again with the violations in the message, up to a limit.

use std::time::Duration;

use crate::error::ElicitError;
use crate::result::ElicitAction;
use crate::schema::RequestedSchema;

/// How many times to ask again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    retry_cancel: bool,
    max_invalid_retries: usize,
}

impl Default for RetryPolicy {
    /// One retry after a cancel, two after invalid content.
    fn default() -> Self {
        RetryPolicy {
            retry_cancel: true,
            max_invalid_retries: 2,
        }
    }
}

impl RetryPolicy {
    /// Never ask again: the first answer is final.
    pub const NONE: RetryPolicy = RetryPolicy {
        retry_cancel: false,
        max_invalid_retries: 0,
    };

    /// Whether a cancel is asked once more.
    #[must_use]
    pub fn with_cancel_retry(mut self, retry: bool) -> Self {
        self.retry_cancel = retry;
        self
    }

    /// How many times invalid content is asked again before giving up.
    #[must_use]
    pub fn with_max_invalid_retries(mut self, retries: usize) -> Self {
        self.max_invalid_retries = retries;
        self
    }
}

/// What one attempt came to.
#[derive(Debug, Clone, PartialEq)]
pub enum AttemptOutcome {
    /// The user accepted with valid content.
    Accepted,
    /// The user declined.
    Declined,
    /// The user dismissed the form.
    Cancelled,
    /// The user accepted, but the content broke the rules.
    Invalid(ElicitError),
    /// The request itself failed (transport, capability, timeout); the text says how.
    Failed(String),
}

impl std::fmt::Display for AttemptOutcome {
    /// In words: `accepted`, `declined`, `cancelled`, `invalid (..)` with the violations as
    /// [`ElicitError`] displays them, joined with `; `, and `failed (..)` with the reason.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AttemptOutcome::Accepted => f.write_str("accepted"),
            AttemptOutcome::Declined => f.write_str("declined"),
            AttemptOutcome::Cancelled => f.write_str("cancelled"),
            AttemptOutcome::Invalid(error) => {
                let problems: Vec<String> =
                    error.violations().iter().map(ToString::to_string).collect();
                write!(f, "invalid ({})", problems.join("; "))
            }
            AttemptOutcome::Failed(reason) => write!(f, "failed ({reason})"),
        }
    }
}

/// Where an attempt's answer came from.
///
/// What the client says is data, not proof of a person: some clients answer on their own when
/// they cannot show a form (Claude Code's stream-json path declines at once; Cowork cancels;
/// Codex has sent `accept` with `{}`). [`Attempt::took`] tells how long the answer took: a
/// decline within a second was rarely read by anyone, and a body that must know can treat
/// one as "not shown".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AnswerSource {
    /// The client, for the person.
    #[default]
    Person,
    /// The tool's arguments, where the client could not show the question (`or_arguments`).
    Arguments,
    /// Nobody: the question's deadline passed without a reply, and it ended as a cancel.
    TimedOut,
    /// The client, unasked: an answer it sent under the question's key that no round asked
    /// for, read only by a question that accepts one (`accepting_unasked`).
    Unasked,
}

/// One attempt: the message that was shown, what came of it, where the answer came from and
/// how long it took.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Attempt {
    /// The message sent with this attempt.
    pub message: String,
    /// What the attempt came to.
    pub outcome: AttemptOutcome,
    /// Where the answer came from.
    pub source: AnswerSource,
    /// How long the answer took, where it is known: for a live request, from request to
    /// reply; on 2026-07-28, from the round's result to the retry that carried it. A form
    /// answered in milliseconds was not read by a person.
    pub took: Option<Duration>,
}

impl Attempt {
    /// An attempt shown with `message`, answered by the person in an unknown time.
    #[must_use]
    pub fn new(message: impl Into<String>, outcome: AttemptOutcome) -> Self {
        Attempt {
            message: message.into(),
            outcome,
            source: AnswerSource::Person,
            took: None,
        }
    }
}

/// The message for the next attempt after a cancel.
fn message_after_cancel(base: &str) -> String {
    format!(
        "{base}\n\n(This was dismissed before. It is asked once more; decline if you prefer not to answer.)"
    )
}

/// The message for the next attempt after invalid content, saying what was wrong. With the
/// form's `schema`, in the user's words ([`ElicitError::user_text`]: the labels the form
/// showed, one line); without it, as [`ElicitError`] displays it. The note is one parenthesized
/// paragraph, so it reads well in clients that show the message on one line.
fn message_after_invalid(
    base: &str,
    error: &ElicitError,
    schema: Option<&RequestedSchema>,
) -> String {
    let problems = match schema {
        Some(schema) => error.user_text(schema),
        None => error
            .violations()
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; "),
    };
    format!(
        "{base}\n\n(The last answer could not be used: {problems}. Please correct it and submit \
         again.)"
    )
}

/// Where the attempts at one question stand: the policy applied to every outcome so far. It
/// decides, after each outcome, whether to ask again, and with which message; the engine
/// drives it over the answers of earlier rounds and over live requests alike.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Attempts {
    policy: RetryPolicy,
    base: String,
    next: String,
    cancel_retried: bool,
    invalid_retries: usize,
    attempts: Vec<Attempt>,
    /// The form asked, for violations in the user's words.
    schema: Option<RequestedSchema>,
}

impl Attempts {
    /// No attempt yet; the first is asked with `base_message`.
    pub(crate) fn new(policy: RetryPolicy, base_message: impl Into<String>) -> Self {
        let base = base_message.into();
        Attempts {
            policy,
            next: base.clone(),
            base,
            cancel_retried: false,
            invalid_retries: 0,
            attempts: Vec::new(),
            schema: None,
        }
    }

    /// Words violations for the user with the labels of `schema`, the form being asked.
    #[must_use]
    pub(crate) fn with_schema(mut self, schema: &RequestedSchema) -> Self {
        // Kept only where the policy can ask again after invalid content: the one use of it.
        if self.policy.max_invalid_retries > 0 {
            self.schema = Some(schema.clone());
        }
        self
    }

    /// The message for the next attempt.
    #[must_use]
    pub(crate) fn message(&self) -> &str {
        &self.next
    }

    /// Records what the attempt asked with [`message`](Self::message) came to. Returns `true`
    /// when the policy asks again, `false` when this outcome is final.
    pub(crate) fn record(&mut self, outcome: AttemptOutcome) -> bool {
        self.record_from(outcome, AnswerSource::Person, None)
    }

    /// [`record`](Self::record), with where the answer came from and how long it took. An
    /// answer from the arguments, or a deadline that passed, is final: nobody is there to ask
    /// again (a client that dropped a request drops its retry too).
    pub(crate) fn record_from(
        &mut self,
        outcome: AttemptOutcome,
        source: AnswerSource,
        took: Option<Duration>,
    ) -> bool {
        let again = match &outcome {
            _ if source != AnswerSource::Person => None,
            AttemptOutcome::Cancelled if self.policy.retry_cancel && !self.cancel_retried => {
                self.cancel_retried = true;
                Some(message_after_cancel(&self.base))
            }
            AttemptOutcome::Invalid(error)
                if self.invalid_retries < self.policy.max_invalid_retries =>
            {
                self.invalid_retries += 1;
                Some(message_after_invalid(
                    &self.base,
                    error,
                    self.schema.as_ref(),
                ))
            }
            _ => None,
        };
        let message = match &again {
            Some(next) => std::mem::replace(&mut self.next, next.clone()),
            None => self.next.clone(),
        };
        self.attempts.push(Attempt {
            message,
            outcome,
            source,
            took,
        });
        again.is_some()
    }

    /// Every attempt recorded so far, in order.
    #[must_use]
    pub(crate) fn attempts(&self) -> &[Attempt] {
        &self.attempts
    }

    /// The attempts, taken out.
    #[must_use]
    pub(crate) fn into_attempts(self) -> Vec<Attempt> {
        self.attempts
    }
}

impl AttemptOutcome {
    /// The outcome of an answer whose action is `action`, or that was refused.
    pub(crate) fn from_action(action: Result<ElicitAction, &ElicitError>) -> Self {
        match action {
            Ok(ElicitAction::Accept) => AttemptOutcome::Accepted,
            Ok(ElicitAction::Decline) => AttemptOutcome::Declined,
            Ok(ElicitAction::Cancel) => AttemptOutcome::Cancelled,
            Err(error) => AttemptOutcome::Invalid(error.clone()),
        }
    }
}
