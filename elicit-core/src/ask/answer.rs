//! How a question is answered: from the replies the call has had, through the question's retry
//! policy, then by a live request (before 2026-07-28) or as a request of this round.

use std::borrow::Cow;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::asked::Interrupt;
use super::port::{Request, SendError};
use super::question::{Asking, Question, outcome};
use super::retry::{AnswerSource, Attempt, AttemptOutcome, Attempts};
use super::unavailable::{Unavailable, Why};
use super::{Ask, trace};
use crate::error::{ElicitError, Location, Rule};
use crate::protocol::client::ElicitMode;
use crate::protocol::jsonrpc::RpcError;
use crate::version::ProtocolVersion;

impl Ask {
    /// Whether the client can show a question of `mode`, as the stop that says it cannot.
    fn check_capability(
        &self,
        mode: ElicitMode,
        version: ProtocolVersion,
    ) -> Result<(), Interrupt> {
        if self.supports(mode) {
            Ok(())
        } else {
            Err(Interrupt::MissingCapability { mode, version })
        }
    }

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
        let progress = {
            let mut inner = self.lock();
            inner.progress += 1.0;
            inner.progress
        };
        let message = format!("Waiting for the user: {awaited}");
        self.port.progress(progress, message).await;
    }

    /// The typed answer to one question.
    pub(crate) async fn answer<Q: Question>(&self, question: &Q) -> Result<Q::Output, Interrupt> {
        let mut last = None;
        let mut read = |reply: &Value| {
            let answer = question.read(reply);
            let outcome = outcome::<Q>(&answer);
            last = Some(answer);
            outcome
        };
        let asking = question.asking();
        let resolved = self.resolve(asking, &mut read).await;
        let attempt = self
            .lock()
            .attempts
            .get(asking.key())
            .and_then(|a| a.last().cloned());
        let answer = match (resolved, last) {
            (Err(stop), _) => Err(stop),
            (Ok(()), Some(Ok(answer))) => Ok(answer),
            (Ok(()), Some(Err(error))) => Err(self.refused(asking, error, attempt.as_ref())),
            (Ok(()), None) => Err(Interrupt::Error(RpcError::internal(
                "a question ended without an answer",
            ))),
        };
        question.settle(answer, attempt.as_ref())
    }

    /// How a question ends whose final answer was refused: a reply that is no elicitation
    /// result is the client's fault (-32602); a form sent back without fields it needs, or an
    /// answer from the arguments that breaks the form, ends with what the tool needs, so the
    /// model can act on it; other content names what was wrong.
    fn refused(
        &self,
        question: &dyn Asking,
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
            return Interrupt::Error(RpcError::invalid_params(format!(
                "the response to `{key}` is not an elicitation result: {error}"
            )));
        }
        let from_arguments = last.is_some_and(|a| a.source == AnswerSource::Arguments);
        let unfilled = broke(|rule| matches!(rule, Rule::Required));
        if from_arguments || unfilled {
            let why = if from_arguments {
                Why::CannotShow
            } else {
                Why::Unfilled
            };
            if let Some(unavailable) = self.unavailable(question, why, Some(&error)) {
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
        &self,
        question: &dyn Asking,
        why: Why,
        refused: Option<&ElicitError>,
    ) -> Option<Unavailable> {
        let schema = question.schema()?;
        let version = self.version().ok()?;
        let Ok(Request::Form(form)) = question.request(version, &question.base_message(), None, 0)
        else {
            return None;
        };
        let core = question.core();
        Some(Unavailable::new(
            question.key(),
            &question.base_message(),
            schema,
            form.schema(),
            self.structured(),
            why,
            refused.map(ToString::to_string),
            core.arguments && !core.person_only,
        ))
    }

    /// Reads every answer this await of the key has had through its retry policy, then asks
    /// for another while the policy wants one: live, or as a pending request of this round.
    /// Returns once `read` has seen the final answer.
    ///
    /// Each await of a key is its own question: the `n`-th await in one run of the body is the
    /// `n`-th in every round. After an await whose final answer was a decline, the next await
    /// of its key is answered with that decline and asks nothing.
    async fn resolve(
        &self,
        question: &dyn Asking,
        read: &mut (dyn FnMut(&Value) -> AttemptOutcome + Send),
    ) -> Result<(), Interrupt> {
        if !self.lock().running {
            return Err(Interrupt::OutsideRun);
        }
        let version = self.version()?;
        let key = question.key();
        let index = {
            let mut inner = self.lock();
            if let Some(batch) = inner.batch.as_mut()
                && !batch.keys.insert(key.to_owned())
            {
                return Err(Interrupt::KeyReused {
                    key: key.to_owned(),
                });
            }
            if inner.declined.contains(key) {
                drop(inner);
                return self.declined_before(question, read);
            }
            // An earlier await of the key is waiting for its answer in this round (the body
            // went on past it without `?`): this one is asked once that one is answered.
            if inner.pending_at.contains_key(key) {
                return Err(Interrupt::InputRequired);
            }
            let awaits = inner.awaits.entry(key.to_owned()).or_default();
            *awaits += 1;
            *awaits - 1
        };
        let identity = question.identity();
        let unasked = self.unasked(question, index);
        let answers = self.carried(|carried| {
            carried
                .register(key, index, &identity)
                .map_err(|change| Interrupt::Changed {
                    key: key.to_owned(),
                    change,
                })?;
            if let Some(reply) = unasked {
                carried.push_unasked(key, reply);
            }
            Ok(carried.keys[key][index].clone())
        })?;
        let base = if answers.changed {
            Cow::Owned(format!(
                "{}\n\n(This question changed since it was answered, so it is asked again.)",
                question.base_message()
            ))
        } else {
            question.base_message()
        };
        let mut attempts = Attempts::new(question.policy(), base);
        if let Some(schema) = question.schema() {
            attempts = attempts.with_schema(schema);
        }
        // Replies as the body's form holds them (a 2025-06-18 multi-select's boxes as its list).
        let replies: Vec<Value> = answers
            .replies
            .iter()
            .map(|reply| unfold(question, version, reply))
            .collect();
        let deadline = question.deadline().unwrap_or(self.deadline);
        let mut again = true;
        for (i, reply) in replies.iter().enumerate() {
            let took = answers.took(i);
            // An answer that came after the question's deadline is a cancel that timed out,
            // as it is live.
            if took.is_some_and(|took| took > deadline) {
                let cancel = json!({"action": "cancel"});
                attempts.record_from(read(&cancel), AnswerSource::TimedOut, took);
                again = false;
                break;
            }
            let source = match i {
                0 if answers.unasked => AnswerSource::Unasked,
                _ => AnswerSource::Person,
            };
            let outcome = read(reply);
            let repeated = repeats(
                &outcome,
                i.checked_sub(1).map(|j| &answers.replies[j]),
                reply,
            );
            again = attempts.record_from(outcome, source, took) && !repeated;
            if !again {
                break;
            }
        }
        // A final answer from an earlier round was traced when it arrived.
        let arrived_now = self.answered_now(key, index);
        let result = if again {
            self.ask_until_final(
                question,
                index,
                version,
                &mut attempts,
                read,
                replies.last().cloned(),
            )
            .await
        } else {
            Ok(())
        };
        if result.is_ok() && (again || arrived_now)
            || matches!(result, Err(Interrupt::Unavailable(_)))
        {
            let round = self
                .carried(|carried| Ok(carried.round))
                .unwrap_or_default();
            let round = round.max(self.lock().live_rounds);
            trace::question(
                question,
                version,
                round,
                attempts.attempts().last(),
                result.as_ref().err(),
            );
        }
        let mut inner = self.lock();
        let last = attempts.attempts().last().map(|a| &a.outcome);
        if result.is_ok() && last == Some(&AttemptOutcome::Declined) {
            inner.declined.insert(key.to_owned());
        }
        inner
            .attempts
            .insert(key.to_owned(), attempts.into_attempts());
        result
    }

    /// The answer the client sent unasked for the `index`-th await of `question`'s key, where
    /// the question takes one: the first await, and an `inputResponses` entry no round asked
    /// for.
    fn unasked(&self, question: &dyn Asking, index: usize) -> Option<Value> {
        let key = question.key();
        if !question.core().unasked || index > 0 || self.answered_now(key, 0) {
            return None;
        }
        self.responses.get(key).cloned()
    }

    /// The answer to a key awaited again after its last await was declined: the decline,
    /// with nothing asked.
    fn declined_before(
        &self,
        question: &dyn Asking,
        read: &mut (dyn FnMut(&Value) -> AttemptOutcome + Send),
    ) -> Result<(), Interrupt> {
        let outcome = read(&json!({"action": "decline"}));
        let attempt = Attempt::new(question.base_message(), outcome);
        self.lock()
            .attempts
            .insert(question.key().to_owned(), vec![attempt]);
        Ok(())
    }

    /// Asks until `read` sees a final answer: live requests before 2026-07-28; on it, the
    /// question is added to this round's requests, as the `index`-th await of its key, and
    /// the body stops.
    async fn ask_until_final(
        &self,
        question: &dyn Asking,
        index: usize,
        version: ProtocolVersion,
        attempts: &mut Attempts,
        read: &mut (dyn FnMut(&Value) -> AttemptOutcome + Send),
        mut last_reply: Option<Value>,
    ) -> Result<(), Interrupt> {
        let key = question.key();
        loop {
            // After a refused answer, the form is asked again with what was right kept.
            let refused = match attempts.attempts().last().map(|a| &a.outcome) {
                Some(AttemptOutcome::Invalid(error)) => Some(error),
                _ => None,
            };
            let content = last_reply
                .as_ref()
                .and_then(|r| r.get("content"))
                .and_then(Value::as_object);
            let keep = refused
                .zip(content)
                .map(|(error, content)| (content, error));
            let request = question.request(version, attempts.message(), keep, index)?;
            if let Err(missing) = self.check_capability(request.mode(), version) {
                return self.answer_from_arguments(question, &request, attempts, read, missing);
            }
            // Refused before anything is sent, live or in a round: a form the SDK cannot
            // carry whole.
            self.port
                .carries(&request)
                .map_err(|e| Interrupt::Send(SendError::Schema(e)))?;
            if version.has_input_requests() {
                let mut inner = self.lock();
                request.add_to(key, &mut inner.pending);
                inner.pending_at.insert(key.to_owned(), index);
                return Err(Interrupt::InputRequired);
            }
            self.count_live_round()?;
            let keep_alive = question.keep_alive().unwrap_or(self.keep_alive);
            let deadline = question.deadline().unwrap_or(self.deadline);
            let started = Instant::now();
            let sent = self
                .send(
                    &request,
                    Some(deadline),
                    keep_alive,
                    &question.base_message(),
                )
                .await;
            let took = started.elapsed();
            let reply = match sent {
                Ok(reply) => reply,
                // Nobody answered in time: a cancel, and final (a client that dropped the
                // request would drop its retry too).
                Err(Interrupt::Send(SendError::Timeout(_))) => {
                    let cancel = json!({"action": "cancel"});
                    attempts.record_from(read(&cancel), AnswerSource::TimedOut, Some(took));
                    return Ok(());
                }
                Err(e) => {
                    attempts.record(AttemptOutcome::Failed(e.to_string()));
                    return Err(e);
                }
            };
            let reply = unfold(question, version, &reply);
            let outcome = read(&reply);
            let repeated = repeats(&outcome, last_reply.as_ref(), &reply);
            if !attempts.record_from(outcome, AnswerSource::Person, Some(took)) || repeated {
                return Ok(());
            }
            last_reply = Some(reply);
        }
    }

    /// The client cannot show the question: its answer is the object under its key in the
    /// call's arguments, if it opted in and is not a confirmation; without one, the call stops
    /// saying what the tool needs.
    fn answer_from_arguments(
        &self,
        question: &dyn Asking,
        request: &Request,
        attempts: &mut Attempts,
        read: &mut (dyn FnMut(&Value) -> AttemptOutcome + Send),
        missing: Interrupt,
    ) -> Result<(), Interrupt> {
        let core = question.core();
        if !core.arguments || core.person_only || !matches!(request, Request::Form(_)) {
            return Err(missing);
        }
        match self.argument(question.key()) {
            Some(value) => {
                let reply = json!({"action": "accept", "content": value});
                attempts.record_from(read(&reply), AnswerSource::Arguments, None);
                Ok(())
            }
            None => Err(self
                .unavailable(question, Why::CannotShow, None)
                .map_or(missing, |u| Interrupt::Unavailable(Box::new(u)))),
        }
    }

    /// Counts a live request against the round cap: each is a round of its own, but the
    /// questions of one [`Ask::all`] share one, as they would on 2026-07-28.
    fn count_live_round(&self) -> Result<(), Interrupt> {
        let mut inner = self.lock();
        if inner.batch.as_ref().is_some_and(|b| b.counted) {
            return Ok(());
        }
        if inner.live_rounds >= self.max_rounds {
            return Err(Interrupt::TooManyRounds {
                cap: self.max_rounds,
                pending: Vec::new(),
            });
        }
        inner.live_rounds += 1;
        if let Some(batch) = inner.batch.as_mut() {
            batch.counted = true;
        }
        Ok(())
    }

    /// Marks the start (`true`) or end of the questions of one [`Ask::all`].
    pub(crate) fn batch(&self, start: bool) {
        self.lock().batch = start.then(super::Batch::default);
    }

    /// Whether asking more questions after `stop` is pointless: live requests stop at any
    /// failure; a round goes on past unanswered questions.
    pub(crate) fn ends_at(&self, stop: &Interrupt) -> bool {
        !self.asks_in_rounds() || !stop.is_input_required()
    }
}

/// Whether `reply` was refused and, like the reply before it, sent the form back empty: a
/// client that cannot fill the form in (one that answers `{}` to every form, say) is not asked
/// again.
fn repeats(outcome: &AttemptOutcome, before: Option<&Value>, reply: &Value) -> bool {
    let empty = |reply: &Value| {
        reply
            .get("content")
            .is_none_or(|content| content.as_object().is_some_and(|c| c.is_empty()))
    };
    matches!(outcome, AttemptOutcome::Invalid(_)) && empty(reply) && before.is_some_and(empty)
}

/// A reply as the question's form holds it: on 2025-06-18, a multi-select's boxes folded back
/// into its list ([`RequestedSchema::unfold_reply`](crate::RequestedSchema::unfold_reply)).
fn unfold(question: &dyn Asking, version: ProtocolVersion, reply: &Value) -> Value {
    match question.schema() {
        Some(schema) => schema.unfold_reply(version, reply).into_owned(),
        None => reply.clone(),
    }
}
