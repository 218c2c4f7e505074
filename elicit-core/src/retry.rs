//! The elicitation loop: what to do after a cancel, a decline, or content that broke the rules.
//!
//! - **cancel**: ask again once, saying the form was dismissed;
//! - **decline**: stop, and never ask again;
//! - **invalid content**: ask again with the violations in the message, up to a limit.
//!
//! The loop is independent of any SDK: it drives an `ask` function. The rmcp integration
//! (feature `rmcp`) runs it over a peer.

use std::future::Future;

use crate::error::ElicitError;
use crate::result::ElicitResult;

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
    /// Whether a cancel is asked once more.
    pub fn with_cancel_retry(mut self, retry: bool) -> Self {
        self.retry_cancel = retry;
        self
    }

    /// How many times invalid content is asked again before giving up.
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

/// One attempt: the message that was shown and what came of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The message sent with this attempt.
    pub message: String,
    /// What the attempt came to.
    pub outcome: AttemptOutcome,
}

/// The end of the loop, with every attempt.
#[derive(Debug)]
pub struct Retried<T, E> {
    /// The final answer: the last attempt's result, or the error that ended the loop (the last
    /// invalid content is returned as `Err` with the caller's error type).
    pub result: Result<ElicitResult<T>, E>,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt>,
}

/// The message for the next attempt after a cancel.
pub fn message_after_cancel(base: &str) -> String {
    format!(
        "{base}\n\n(This was dismissed before. It is asked once more; decline if you prefer not to answer.)"
    )
}

/// The message for the next attempt after invalid content, listing what was wrong.
pub fn message_after_invalid(base: &str, error: &ElicitError) -> String {
    let mut message = format!("{base}\n\nThe last answer could not be used:");
    for violation in error.violations() {
        message.push_str("\n- ");
        message.push_str(&violation.to_string());
    }
    message.push_str("\nPlease correct it and submit again.");
    message
}

/// Runs the loop. `ask(message)` makes one attempt: `Ok(Ok(result))` for an answer,
/// `Ok(Err(error))` for content that broke the rules (asked again), and `Err(e)` for a failure
/// that ends the loop. `invalid(e)` turns the last invalid content into the caller's error type.
pub async fn run<T, E, F, Fut>(
    policy: &RetryPolicy,
    base_message: &str,
    mut ask: F,
    invalid: impl Fn(ElicitError) -> E,
) -> Retried<T, E>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = Result<Result<ElicitResult<T>, ElicitError>, E>>,
    E: std::fmt::Display,
{
    let mut attempts = Vec::new();
    let mut message = base_message.to_owned();
    let mut cancel_retried = false;
    let mut invalid_retries = 0;
    loop {
        let answer = ask(message.clone()).await;
        let (outcome, next) = match answer {
            Err(e) => {
                attempts.push(Attempt {
                    message,
                    outcome: AttemptOutcome::Failed(e.to_string()),
                });
                return Retried {
                    result: Err(e),
                    attempts,
                };
            }
            Ok(Ok(ElicitResult::Cancel)) if policy.retry_cancel && !cancel_retried => {
                cancel_retried = true;
                (
                    AttemptOutcome::Cancelled,
                    message_after_cancel(base_message),
                )
            }
            Ok(Err(error)) if invalid_retries < policy.max_invalid_retries => {
                invalid_retries += 1;
                let next = message_after_invalid(base_message, &error);
                (AttemptOutcome::Invalid(error), next)
            }
            Ok(Err(error)) => {
                attempts.push(Attempt {
                    message,
                    outcome: AttemptOutcome::Invalid(error.clone()),
                });
                return Retried {
                    result: Err(invalid(error)),
                    attempts,
                };
            }
            Ok(Ok(result)) => {
                let outcome = match &result {
                    ElicitResult::Accept(_) => AttemptOutcome::Accepted,
                    ElicitResult::Decline => AttemptOutcome::Declined,
                    ElicitResult::Cancel => AttemptOutcome::Cancelled,
                };
                attempts.push(Attempt { message, outcome });
                return Retried {
                    result: Ok(result),
                    attempts,
                };
            }
        };
        attempts.push(Attempt { message, outcome });
        message = next;
    }
}
