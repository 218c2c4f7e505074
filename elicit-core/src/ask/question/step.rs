//! The rules of one question, with no I/O: from the replies it has had and the facts of the
//! call, what to do next. The driver ([`Ask::resolve`](crate::ask::Ask)) does the rest: it loads the
//! replies, sends what the step says to send, and feeds the reply back.
//!
//! ```text
//!   replies of earlier rounds ─┐
//!                              ▼
//!              ┌──────────► next() ──► Final ─────────► the answer
//!   replied()  │               │
//!   timed_out()│               ├──► Send(request) ──► live (before 2026-07-28): the driver
//!              └───────────────┼─────────────────────  sends it, keeps the call alive, times it out
//!                              ├──► Pend(request) ──► this round's requests (2026-07-28): the
//!                              │                       body stops, and the retry brings the reply
//!                              └──► Stop(interrupt) ─► the call ends
//! ```
//!
//! The live path and the rounds path are one machine: they part only where `next` says `Send`
//! or `Pend`, and a reply from either is read by the same rules.

use std::collections::VecDeque;
use std::time::Duration;

use serde_json::{Value, json};

use super::retry::{AnswerSource, Attempt, AttemptOutcome, Attempts};
use super::unavailable::{Unavailable, Why};
use super::{Asking, Facts};
use crate::ask::asked::Interrupt;
use crate::ask::port::SendError;
use crate::error::{ElicitError, Location, Rule};
use crate::protocol::client::Request;

/// What to do next for one question.
#[derive(Debug)]
pub(crate) enum Next {
    /// The last answer read is final.
    Final,
    /// Send this request live, then feed the reply back.
    Send(Request),
    /// Add this request to the round's and stop the body (2026-07-28).
    Pend(Request),
    /// End the question, and the call, with this.
    Stop(Interrupt),
}

/// How a reply is read: the question's own reading, which keeps the typed answer and says what
/// it came to.
pub(crate) type Read<'r> = dyn FnMut(&Value) -> AttemptOutcome + Send + 'r;

/// One reply kept from an earlier round.
pub(crate) struct Stored {
    pub reply: Value,
    pub took: Option<Duration>,
    pub source: AnswerSource,
}

/// Where one question stands.
pub(crate) struct Step {
    /// Replies from earlier rounds not read yet.
    stored: VecDeque<Stored>,
    attempts: Attempts,
    /// The last reply read, for a form asked again to keep what was right.
    last: Option<Value>,
    /// Whether the policy wants another answer.
    again: bool,
    /// Which await of its key the question is.
    index: usize,
    /// Whether a reply of an earlier round was final: traced when it arrived.
    settled_before: bool,
}

impl Step {
    pub(crate) fn new(attempts: Attempts, stored: Vec<Stored>, index: usize) -> Self {
        Step {
            stored: stored.into(),
            attempts,
            last: None,
            again: true,
            index,
            settled_before: false,
        }
    }

    /// What to do next: read the replies kept from earlier rounds, then, while the policy
    /// wants another answer, ask for one (or take it from the arguments where no person can
    /// be asked).
    pub(crate) fn next(&mut self, question: &dyn Asking, facts: &Facts, read: &mut Read) -> Next {
        while self.again
            && let Some(stored) = self.stored.pop_front()
        {
            // An answer that came after the question's deadline is a cancel that timed out,
            // as it is live.
            if stored.took.is_some_and(|took| took > facts.deadline) {
                if let Some(stop) = self.timed_out(question, facts, stored.took, read) {
                    return Next::Stop(stop);
                }
            } else {
                self.read(stored.reply, stored.source, stored.took, read);
            }
            self.settled_before = !self.again;
        }
        if !self.again {
            return Next::Final;
        }
        // After a refused answer, the form is asked again with what was right kept.
        let refused = match self.attempts.attempts().last().map(|a| &a.outcome) {
            Some(AttemptOutcome::Invalid(error)) => Some(error),
            _ => None,
        };
        let content = self
            .last
            .as_ref()
            .and_then(|r| r.get("content"))
            .and_then(Value::as_object);
        let keep = refused
            .zip(content)
            .map(|(error, content)| (content, error));
        let request = match question.request(facts, self.attempts.message(), keep, self.index) {
            Ok(request) => request,
            Err(stop) => return Next::Stop(stop),
        };
        if !facts.shows {
            return self.answer_from_arguments(question, &request, facts, read);
        }
        // Refused before anything is sent, live or in a round: a form the SDK cannot carry
        // whole.
        if let Err(e) = (facts.carries)(&request) {
            return Next::Stop(Interrupt::Send(SendError::Schema(e)));
        }
        if facts.version.has_input_requests() {
            Next::Pend(request)
        } else {
            Next::Send(request)
        }
    }

    /// The reply to a request sent live, which took `took`.
    pub(crate) fn replied(&mut self, reply: Value, took: Duration, read: &mut Read) {
        self.read(reply, AnswerSource::Person, Some(took), read);
    }

    /// Nobody answered in time: for an elicitation, a cancel, and final (a client that
    /// dropped the request would drop its retry too); a request of another kind has no
    /// cancel, and ends the call as a request that timed out, naming the deadline.
    pub(crate) fn timed_out(
        &mut self,
        question: &dyn Asking,
        facts: &Facts,
        took: Option<Duration>,
        read: &mut Read,
    ) -> Option<Interrupt> {
        self.again = false;
        if !question.needs().is_elicitation() {
            let stop = Interrupt::Send(SendError::Timeout(facts.deadline));
            self.attempts
                .record(AttemptOutcome::Failed(stop.to_string()));
            return Some(stop);
        }
        let cancel = json!({"action": "cancel"});
        self.attempts
            .record_from(read(&cancel), AnswerSource::TimedOut, took);
        None
    }

    /// The request sent live brought no reply.
    pub(crate) fn failed(&mut self, stop: &Interrupt) {
        self.attempts
            .record(AttemptOutcome::Failed(stop.to_string()));
        self.again = false;
    }

    /// Whether the final answer is a reply of an earlier round.
    pub(crate) fn settled_before(&self) -> bool {
        self.settled_before
    }

    /// Every attempt so far, in order.
    pub(crate) fn attempts(&self) -> &[Attempt] {
        self.attempts.attempts()
    }

    pub(crate) fn into_attempts(self) -> Vec<Attempt> {
        self.attempts.into_attempts()
    }

    /// Reads one reply through the policy: whether another answer is wanted. A form sent
    /// back empty twice running is not asked a third time: the same form would most likely
    /// come back empty again.
    fn read(
        &mut self,
        reply: Value,
        source: AnswerSource,
        took: Option<Duration>,
        read: &mut Read,
    ) {
        let outcome = read(&reply);
        let empty = |reply: &Value| {
            reply
                .get("content")
                .is_none_or(|content| content.as_object().is_some_and(|c| c.is_empty()))
        };
        let repeated = matches!(outcome, AttemptOutcome::Invalid(_))
            && empty(&reply)
            && self.last.as_ref().is_some_and(empty);
        self.again = self.attempts.record_from(outcome, source, took) && !repeated;
        self.last = Some(reply);
    }

    /// The client cannot show the question: its answer is the object under its key in the
    /// call's arguments, if it opted in and is not a confirmation; without one, the call stops
    /// saying what the tool needs.
    fn answer_from_arguments(
        &mut self,
        question: &dyn Asking,
        request: &Request,
        facts: &Facts,
        read: &mut Read,
    ) -> Next {
        let missing = Interrupt::MissingCapability {
            capability: request.needs(),
            version: facts.version,
        };
        let core = question.core();
        if !core.arguments || core.person_only || !matches!(request, Request::Form(_)) {
            return Next::Stop(missing);
        }
        match facts.argument {
            Some(value) => {
                let reply = json!({"action": "accept", "content": value});
                self.read(reply, AnswerSource::Arguments, None, read);
                self.again = false;
                Next::Final
            }
            None => Next::Stop(
                unavailable(question, facts, Why::CannotShow, None)
                    .map_or(missing, |u| Interrupt::Unavailable(Box::new(u))),
            ),
        }
    }
}

/// How a question ends whose final answer was refused: a reply that is no elicitation result
/// is refused as invalid params (-32602); a form that came back without fields it needs, or an
/// answer from the arguments that breaks the form, ends with what the tool needs, so the model
/// can act on it; other content names what was wrong.
pub(crate) fn refused(
    question: &dyn Asking,
    facts: &Facts,
    error: ElicitError,
    last: Option<&Attempt>,
) -> Interrupt {
    let key = question.key();
    let broke = |rule: fn(&Rule) -> bool| error.violations().iter().any(|v| rule(v.rule()));
    if error
        .violations()
        .iter()
        .any(|v| *v.location() == Location::Envelope)
    {
        let what = match question.needs().is_elicitation() {
            true => "is not an elicitation result",
            false => "cannot be read",
        };
        return Interrupt::Error(crate::protocol::jsonrpc::RpcError::invalid_params(format!(
            "the response to `{key}` {what}: {error}"
        )));
    }
    let from_arguments = last.is_some_and(|a| a.source == AnswerSource::Arguments);
    if from_arguments || broke(|rule| matches!(rule, Rule::Required)) {
        let why = if from_arguments {
            Why::CannotShow
        } else {
            Why::Unfilled
        };
        if let Some(unavailable) = unavailable(question, facts, why, Some(&error)) {
            return Interrupt::Unavailable(Box::new(unavailable));
        }
    }
    Interrupt::Invalid {
        key: key.to_owned(),
        error,
    }
}

/// What the tool needs for `question`, said for the model: its fields, their bounds and
/// choices, the form written for the request's version, and why no person answered.
fn unavailable(
    question: &dyn Asking,
    facts: &Facts,
    why: Why,
    refused: Option<&ElicitError>,
) -> Option<Unavailable> {
    let schema = question.schema()?;
    let base = question.base_message();
    let Ok(Request::Form(form)) = question.request(facts, &base, None, 0) else {
        return None;
    };
    let core = question.core();
    Some(Unavailable::new(
        question.key(),
        &base,
        schema,
        form.schema(),
        facts.structured,
        why,
        refused.map(ToString::to_string),
        core.arguments && !core.person_only,
    ))
}

#[cfg(test)]
#[path = "../../../unit/ask/question/step.rs"]
mod tests;
