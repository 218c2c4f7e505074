//! How a question is answered: from the replies the call has had, through the question's retry
//! policy, then by a live request (before 2026-07-28) or as a request of this round.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::carry;
use super::retry::{Attempt, AttemptOutcome};
use super::step::{self, Next, Read, Step};
use super::{Asking, Facts, Question};
use crate::ElicitAction;
use crate::ask::Boxed;
use crate::ask::asked::Interrupt;
use crate::ask::port::SendError;
use crate::ask::{Ask, trace};
use crate::error::ElicitError;
use crate::protocol::client::Capability;
use crate::protocol::client::Request;
use crate::protocol::jsonrpc::RpcError;
use crate::version::ProtocolVersion;

impl Ask {
    /// Sends one live request (before 2026-07-28) and returns the reply as JSON. While it
    /// waits, progress goes out every `keep_alive`, naming `awaited`, when the call carried a
    /// `progressToken`.
    async fn send(
        &self,
        request: &Request,
        timeout: Option<Duration>,
        keep_alive: Duration,
        awaited: &str,
    ) -> Result<Value, Interrupt> {
        let create = self.port.send(request, timeout);
        let reply = if self.port.reports_progress() {
            let mut create = std::pin::pin!(create);
            loop {
                match tokio::time::timeout(keep_alive.max(Ask::MIN_KEEP_ALIVE), create.as_mut())
                    .await
                {
                    Ok(reply) => break reply,
                    Err(_) => self.waiting(awaited).await,
                }
            }
        } else {
            create.await
        };
        reply.map_err(Interrupt::Send)
    }

    /// One progress notification: still waiting for the person to answer `awaited`.
    async fn waiting(&self, awaited: &str) {
        let progress = { self.lock().next_progress() };
        let message = format!("Waiting for the user: {awaited}");
        self.port.progress(progress, message).await;
    }

    /// The typed answer to one question. Only its read is made for each question's type; the
    /// asking is [`answered`](Ask::answered), made once.
    pub(crate) async fn answer<Q: Question>(&self, question: &Q) -> Result<Q::Output, Interrupt> {
        let mut last = None;
        let mut read = |reply: &Value| {
            let answer = match carry::too_large(reply) {
                Some(error) => Err(error),
                None => question.read(reply),
            };
            last = None;
            let answer = answer?;
            let action = Q::action(&answer);
            last = Some(answer);
            Ok(action)
        };
        let (answered, attempt) = self.answered(question.asking(), &mut read).await?;
        let answer = answered.and_then(|()| last.ok_or_else(no_answer));
        question.settle(answer, attempt.as_ref())
    }

    /// Asks one question, whatever its answer's type, reading each reply with `typed`: how the
    /// asking ended, and the attempt that ended it. An error is a stop before anything was
    /// asked, which the question's own settling does not see.
    fn answered<'a, 'r: 'a>(
        &'a self,
        asking: &'a dyn Asking,
        typed: &'a mut Typed<'r>,
    ) -> Boxed<'a, Result<Answered, Interrupt>> {
        Box::pin(async move {
            // The last read's error, where it broke the form; `None` before any read.
            let mut last: Option<Option<ElicitError>> = None;
            let mut read = |reply: &Value| {
                let read = typed(reply);
                let outcome = AttemptOutcome::from_action(read.as_ref().copied());
                last = Some(read.err());
                outcome
            };
            let version = self.version()?;
            let carries = |request: &Request| self.port.carries(request);
            let url_ids = asking.needs() == Capability::Url && !version.has_input_requests();
            let facts = Facts {
                version,
                shows: self.supports(asking.needs()),
                argument: self.argument(asking.key()),
                carries: &carries,
                deadline: asking.deadline().unwrap_or(self.deadline),
                structured: self.structured(),
                call_id: if url_ids { self.call_id().ok() } else { None },
            };
            let resolved = self.resolve(asking, &facts, &mut read).await;
            let attempt = self.lock().attempts(asking.key()).last().cloned();
            let answered = match (resolved, last) {
                (Err(stop), _) => Err(stop),
                (Ok(()), Some(None)) => Ok(()),
                (Ok(()), Some(Some(error))) => {
                    Err(step::refused(asking, &facts, error, attempt.as_ref()))
                }
                (Ok(()), None) => Err(no_answer()),
            };
            Ok((answered, attempt))
        })
    }

    /// Drives one question's [`Step`] to its end: it loads the replies the question has had,
    /// then sends what the step says to send (with keep-alive and the deadline's timer) or
    /// adds it to the round, until the step has a final answer or a stop.
    ///
    /// Each await of a key is its own question: the `n`-th await in one run of the body is the
    /// `n`-th in every round. After an await whose final answer was a decline, the next await
    /// of its key is answered with that decline and asks nothing.
    async fn resolve(
        &self,
        question: &dyn Asking,
        facts: &Facts<'_>,
        read: &mut Read<'_>,
    ) -> Result<(), Interrupt> {
        let key = question.key();
        let Some(index) = self.lock().await_index(key)? else {
            return self.declined_before(question, read);
        };
        let mut step = self.load(question, facts.version, index)?;
        if let Some(schema) = question.schema().filter(|s| !s.lint().is_empty()) {
            trace::linted(key, schema.lint());
        }
        let keep_alive = question.keep_alive().unwrap_or(self.keep_alive);
        let result = loop {
            match step.next(question, facts, read) {
                Next::Final => break Ok(()),
                Next::Stop(stop) => break Err(stop),
                Next::Pend(request) => {
                    self.lock().pend(key, index, &request);
                    break Err(Interrupt::InputRequired);
                }
                Next::Send(request) => {
                    if let Err(stop) = self
                        .lock()
                        .count_live_round(step.attempts().len(), self.max_rounds)
                    {
                        break Err(stop);
                    }
                    let started = Instant::now();
                    let awaited = question.base_message();
                    let sent = self
                        .send(&request, Some(facts.deadline), keep_alive, &awaited)
                        .await;
                    let took = started.elapsed();
                    match sent {
                        Ok(reply) => {
                            let reply = carry::carry(question.kind(), &reply);
                            step.replied(unfold(question, facts.version, &reply), took, read)
                        }
                        Err(Interrupt::Send(SendError::Timeout(_))) => {
                            if let Some(stop) = step.timed_out(question, facts, Some(took), read) {
                                break Err(stop);
                            }
                        }
                        Err(stop) => {
                            step.failed(&stop);
                            break Err(stop);
                        }
                    }
                }
            }
        };
        // A final answer from an earlier round was traced when it arrived.
        let traced = match &result {
            Ok(()) => !step.settled_before() || self.answered_now(key, index),
            Err(stop) => matches!(stop, Interrupt::Unavailable(_)),
        };
        if traced {
            let round = self
                .carried(|carried| Ok(carried.round))
                .unwrap_or_default();
            let round = round.max(self.lock().live_rounds());
            let last = step.attempts().last();
            trace::question(question, facts.version, round, last, result.as_ref().err());
        }
        let last = step.attempts().last().map(|a| &a.outcome);
        let declined = result.is_ok() && last == Some(&AttemptOutcome::Declined);
        self.lock().settled(key, step.into_attempts(), declined);
        result
    }

    /// The `index`-th await of `question`'s key as the call's machine knows it (see
    /// [`CallMachine::step`](crate::ask::round::call::CallMachine::step)).
    fn load(
        &self,
        question: &dyn Asking,
        version: ProtocolVersion,
        index: usize,
    ) -> Result<Step, Interrupt> {
        let unasked = self.unasked(question, index);
        self.carried(|_| Ok(()))?;
        let unfold = |reply: &Value| unfold(question, version, reply);
        self.lock().step(question, index, unasked, &unfold)
    }

    /// The answer the client sent unasked for the `index`-th await of `question`'s key, where
    /// the question takes one: the first await, and an `inputResponses` entry no round asked
    /// for.
    fn unasked(&self, question: &dyn Asking, index: usize) -> Option<Value> {
        let key = question.key();
        if !question.core().unasked || index > 0 || self.answered_now(key, 0) {
            return None;
        }
        let reply = self.responses.get(key)?;
        Some(carry::carry(question.kind(), reply))
    }

    /// The answer to a key awaited again after its last await was declined: the decline,
    /// with nothing asked.
    fn declined_before(&self, question: &dyn Asking, read: &mut Read<'_>) -> Result<(), Interrupt> {
        let outcome = read(&json!({"action": "decline"}));
        let attempt = Attempt::new(question.base_message(), outcome);
        self.lock().settled(question.key(), vec![attempt], false);
        Ok(())
    }

    /// Marks the start of the questions of one [`Ask::all`], until the guard it returns is
    /// dropped.
    pub(crate) fn batch(&self) -> BatchGuard<'_> {
        self.lock().batch(true);
        BatchGuard(self)
    }
}

/// Ends the questions of one [`Ask::all`] when dropped: when its answers are in, or when the
/// future that asks them is dropped mid-way (by `select!`, say).
pub(crate) struct BatchGuard<'a>(&'a Ask);

impl Drop for BatchGuard<'_> {
    fn drop(&mut self) {
        self.0.lock().batch(false);
    }
}

/// What a question comes to that ended without a read answer: a fault of the engine's.
fn no_answer() -> Interrupt {
    Interrupt::Error(RpcError::internal("a question ended without an answer"))
}

/// How a question's asking ended, and the attempt that ended it.
type Answered = (Result<(), Interrupt>, Option<Attempt>);

/// A question's own read of a reply: what the user did, or how the reply broke the form.
pub(crate) type Typed<'r> = dyn FnMut(&Value) -> Result<ElicitAction, ElicitError> + Send + 'r;

/// A reply as the question's form holds it: on 2025-06-18, a multi-select's boxes folded back
/// into its list ([`RequestedSchema::unfold_reply`](crate::schema::RequestedSchema::unfold_reply)).
fn unfold(question: &dyn Asking, version: ProtocolVersion, reply: &Value) -> Value {
    match question.schema() {
        Some(schema) => schema.unfold_reply(version, reply).into_owned(),
        None => reply.clone(),
    }
}
