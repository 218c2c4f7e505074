//! One `tracing` event per answered question (feature `tracing`): its key, the form's type
//! name (`runtime` for a run-time schema, `url` for URL mode), the protocol version, the round,
//! the mode, where the answer came from, and the outcome, with the names of the broken rules.
//! Never the content, a value, or the state.

use super::asked::Interrupt;
use super::question::Asking;
use super::question::retry::Attempt;
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

/// Tells the operator something about the server's setup that exactly-once depends on, once:
/// through `tracing` with that feature, else on stderr, so that it is never missed.
pub(crate) fn warn(message: &str) {
    #[cfg(feature = "tracing")]
    tracing::warn!(target: "elicit_core::ask", "{message}");
    #[cfg(not(feature = "tracing"))]
    eprintln!("elicit-core: warning: {message}");
}

/// The events below go to `tracing`, with that feature; without it, nowhere.
macro_rules! event {
    ($level:ident, $($field:tt)*) => {{
        #[cfg(feature = "tracing")]
        tracing::$level!(target: "elicit_core::ask", $($field)*);
    }};
}

/// A call that carried a state starts over, as a first call, for `why`.
pub(super) fn started_over(why: super::Restart, detail: &str) {
    #[cfg(not(feature = "tracing"))]
    let _ = (why, detail);
    event!(
        warn,
        ?why,
        detail,
        "a call's state could not be continued: its questions are asked again; where the \
         state came under a key this process does not hold, install one StateKey made from one \
         shared secret on every replica, and keep an old secret with `also_opening` while \
         rotating"
    );
}

/// A store failed: the call failed closed, or a round's ending could not be kept.
pub(super) fn store_failed(error: &super::StoreError) {
    #[cfg(not(feature = "tracing"))]
    let _ = error;
    event!(warn, %error, "the state store failed a step of a round");
}

/// A state or a recorded ending could not be sealed or opened.
pub(super) fn state_failed(error: &super::StateError) {
    #[cfg(not(feature = "tracing"))]
    let _ = error;
    event!(warn, %error, "a round's state or ending could not be sealed or opened");
}

/// The form asked under `key` has lints: a default its own rules refuse, dropped and never
/// sent, or what a strict client may refuse.
pub(super) fn linted(key: &str, lints: &[crate::schema::Lint]) {
    #[cfg(not(feature = "tracing"))]
    let _ = (key, lints);
    #[cfg(feature = "tracing")]
    for lint in lints {
        event!(warn, key, %lint, "a form asked has what its rules refuse or MCP does not allow");
    }
}

/// A round's ending came after its lease passed and another claimant took it over: it was not
/// kept, and the round may have run twice.
pub(super) fn late_record() {
    event!(
        warn,
        "a round's ending was not kept: the store no longer held its claim (its lease passed \
         while it ran and a retry took it over, or the store lost its records), so a retry of \
         it may run it again, or be asked again"
    );
}

/// A running round's claim was lost: another took it over, or the store lost it.
pub(super) fn lease_lost() {
    event!(
        warn,
        "a running round's claim was refused on renewal: another request took the round over \
         (its lease had lapsed in the store), or the store lost its records; its body is \
         stopped at its next await"
    );
}

/// A claim whose lease lapsed was taken over: the body runs again, knowing it.
pub(super) fn taken_over(round: u32) {
    #[cfg(not(feature = "tracing"))]
    let _ = round;
    event!(
        warn,
        round,
        "a round whose claim lapsed (its process died, or was cut off from the store and \
         stopped its body) is taken over: its body runs again, and `Ask::taken_over` says so; \
         an effect keyed by `Ask::call_id` happens once"
    );
}

/// A running body was stopped because its claim could lapse, or was lost.
pub(super) fn fenced(fence: super::round::machine::Fence) {
    #[cfg(not(feature = "tracing"))]
    let _ = fence;
    event!(
        warn,
        ?fence,
        "a round's body was stopped at an await: its claim could not be renewed in time \
         (the store is unreachable or too slow for the lease; see `StateKey::with_lease`), or \
         another request took the round over"
    );
}

/// A round's ending could not be recorded: the keeper tries again while it holds the claim.
pub(super) fn record_later() {
    event!(
        warn,
        "a round's ending could not be recorded yet: it is tried again in the background while \
         the claim is kept, and a retry of the round waits for it meanwhile"
    );
}

/// A store let `count` entries that were not running go to make room since the last report:
/// a retry of each is asked again.
pub(super) fn let_go(count: u64) {
    #[cfg(not(feature = "tracing"))]
    let _ = count;
    event!(
        warn,
        count,
        "the round store is full: entries of calls that were not running were let go to make \
         room, so a retry of each is asked again; give the store a larger cap"
    );
}

/// A tool's body panicked: its call ends with an internal error.
pub(super) fn panicked(message: &str) {
    #[cfg(not(feature = "tracing"))]
    let _ = message;
    event!(error, panic = message, "a tool's body panicked");
}
