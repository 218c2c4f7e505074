//! One `tracing` event per answered question (feature `tracing`): its key, the form's type
//! name (`runtime` for a run-time schema, `url` for URL mode), the protocol version, the round,
//! the mode, where the answer came from, and the outcome, with the names of the broken rules.
//! Never the content, a value, or the state.

use super::asked::Interrupt;
use super::question::Asking;
use super::retry::Attempt;
use crate::version::ProtocolVersion;

/// Emits the event for `question`, whose last attempt is `last`, or which stopped at `stop`;
/// without the `tracing` feature, nothing.
pub(super) fn question(
    question: &dyn Asking,
    version: ProtocolVersion,
    round: u32,
    last: Option<&Attempt>,
    stop: Option<&Interrupt>,
) {
    #[cfg(not(feature = "tracing"))]
    let _ = (question, version, round, last, stop);
    #[cfg(feature = "tracing")]
    {
        use crate::ask::{AnswerSource, AttemptOutcome};

        use crate::protocol::client::Capability;

        let form = question.trace_name();
        let mode = match question.needs() {
            Capability::Url => "url",
            Capability::Form => "form",
            Capability::Sampling | Capability::SamplingTools => "sampling",
            _ => "roots",
        };
        let source = match last.map(|a| a.source) {
            Some(AnswerSource::Arguments) => "arguments",
            Some(AnswerSource::TimedOut) => "timed_out",
            Some(AnswerSource::Unasked) => "unasked",
            _ => "person",
        };
        let mut rules = String::new();
        let outcome = match (stop, last.map(|a| (&a.outcome, a.source))) {
            (Some(Interrupt::Unavailable(_)), _) => "unavailable",
            (_, Some((AttemptOutcome::Accepted, AnswerSource::Arguments))) => "from_arguments",
            (_, Some((AttemptOutcome::Accepted, _))) => "accepted",
            (_, Some((AttemptOutcome::Declined, _))) => "declined",
            (_, Some((AttemptOutcome::Cancelled, _))) => "cancelled",
            (_, Some((AttemptOutcome::Invalid(error), _))) => {
                let names: Vec<&str> = error.violations().iter().map(|v| v.rule().name()).collect();
                rules = names.join(",");
                "invalid"
            }
            _ => "failed",
        };
        tracing::info!(
            target: "elicit_core::ask",
            key = question.key(),
            form = %form,
            version = version.as_str(),
            round,
            mode,
            source,
            outcome,
            rules = rules.as_str(),
            "question answered"
        );
    }
}

/// Tells the operator, with the `tracing` feature, that a retry's state was sealed under a key
/// this process does not hold: the cause is a restart or a fleet without one shared key.
pub(super) fn unknown_key() {
    #[cfg(feature = "tracing")]
    tracing::warn!(
        target: "elicit_core::ask",
        "a requestState sealed under a key this process does not hold was refused: the \
         process restarted, or serves beside others with keys of their own; install one \
         StateKey made from one shared secret on every replica at start-up \
         (StateKey::new(secret)?.install()), and keep an old secret with `also_opening` while \
         rotating"
    );
}

/// Tells the operator, with the `tracing` feature, that a store failed to record or release a
/// round whose body ran: a retry of it may run again.
pub(super) fn store_failed(error: &super::StoreError) {
    #[cfg(not(feature = "tracing"))]
    let _ = error;
    #[cfg(feature = "tracing")]
    tracing::warn!(
        target: "elicit_core::ask",
        %error,
        "a round's response could not be kept, so a retry of it may run again"
    );
}
