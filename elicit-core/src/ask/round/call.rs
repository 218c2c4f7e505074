//! One call's machine, with no I/O: its state as it was opened (or why the call starts over,
//! or stops), the round it claims and, once claimed, that round's [`Machine`] (renewals, the
//! fence, the record or release), where its body is in this run (which await of each key,
//! what this round asks for, which keys were declined), the live rounds it has taken, and the
//! next round it seals. [`Ask`](crate::ask::Ask) holds it under its lock, shared with the
//! claimed round's keeper task, and drives it: every rule is a method here or on [`Machine`],
//! with a unit test, and each question's own rules are its
//! [`Step`](crate::ask::question::step::Step)'s.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{Map, Value};

use crate::ask::asked::Interrupt;
use crate::ask::key::call_digest;
use crate::ask::question::Asking;
use crate::ask::question::carry;
use crate::ask::question::retry::{AnswerSource, Attempt, Attempts};
use crate::ask::question::step::{Step, Stored};
use crate::ask::round::machine::{Claiming, Machine, Verdict};
use crate::ask::state::{Binding, Carried, QuestionKind, StateError, answers_digest, digest};
use crate::ask::store::{Claim, Round, StoreError};
use crate::protocol::client::Request;
use crate::protocol::input::InputRequests;

/// The machine of one call on this process.
#[derive(Default)]
pub(crate) struct CallMachine {
    /// The call's carried state, opened on first use.
    pub(crate) carried: Option<Result<Carried, StateError>>,
    /// The round a verified state names, for its claim.
    round: Option<RoundOf>,
    /// Why the call started over, if it did: its questions say so.
    pub(crate) restart: Option<Restart>,
    /// The claim of this retry's round while it waits for the same retry running elsewhere.
    claiming: Option<Claiming>,
    /// The round this process claimed for this retry, from its claim to its record.
    claimed: Option<Machine>,
    /// This round's unanswered questions (2026-07-28).
    pending: InputRequests,
    /// What the call knows of each key.
    keys: BTreeMap<String, KeyState>,
    /// Rounds of live requests so far (before 2026-07-28), for the round cap.
    live_rounds: u32,
    /// Inside [`Ask::all`](crate::ask::Ask::all): the live rounds its questions counted, and
    /// the keys it asked.
    batch: Option<Batch>,
    /// Whether a body is running under [`Ask::run`](crate::ask::Ask::run).
    running: bool,
    /// The last progress value sent: each notification's is higher.
    progress: f64,
}

/// What a verified state says of the round its retry is, beside the call and the generation
/// it carries.
struct RoundOf {
    number: u32,
    /// A digest of the answers this retry brought for it, as they are carried.
    answers: String,
    /// Who the caller is for the store's room.
    principal: String,
    expires: SystemTime,
    /// What the call's state is bound to, which its recorded ending is bound to too.
    binding: Binding,
}

/// What the driver knows as it opens a retry's state: the time by the key's clock, the
/// state's time to live, the answers the retry brought, and who the caller is.
pub(crate) struct Opening<'a> {
    /// Now, in milliseconds since the Unix epoch.
    pub(crate) now_ms: u64,
    pub(crate) ttl: Duration,
    pub(crate) responses: &'a Map<String, Value>,
    /// Who the caller is for the store's room.
    pub(crate) room: String,
    /// What the call's state is bound to.
    pub(crate) binding: Binding,
}

/// How a claim waits and holds: for the same retry running elsewhere up to `wait`, and a round
/// that is ours for `lease` at a time, never past `expires`, all on the driver's clock.
pub(crate) struct Hold {
    pub(crate) wait: Duration,
    pub(crate) lease: Duration,
    pub(crate) expires: Instant,
}

/// Why the store had no record of a call's round: what the call starting over says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lost {
    /// The store is the one the state was issued under: it let the round go, to make room.
    LetGo,
    /// The store has another generation: it lost its records.
    Records,
}

impl Lost {
    /// What the trace of the start-over says.
    pub(crate) fn words(&self) -> &'static str {
        match self {
            Lost::LetGo => "the store let the call's round go to make room: it may have run",
            Lost::Records => {
                "the store lost its records (a new generation): the round may have run"
            }
        }
    }
}

/// Why a call that carried a state starts over, as a first call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Restart {
    /// The state opened under no key of the server's, had expired, or holds what this build
    /// does not read.
    Unopened,
    /// The store may have lost the call's round: it may have run.
    Forgotten,
}

impl Restart {
    /// The sentence each question of the call adds to its message.
    pub(crate) fn sentence(self) -> &'static str {
        match self {
            Restart::Unopened => {
                "(The server could not continue your earlier answers, so it asks again; what \
                 they led to may already have happened.)"
            }
            Restart::Forgotten => {
                "(The server lost its record of your earlier answers, so it asks again; what \
                 they led to may already have happened.)"
            }
        }
    }
}

/// The questions of one [`Ask::all`](crate::ask::Ask::all) so far.
#[derive(Default)]
struct Batch {
    /// The live rounds the batch counted: its questions' first attempts share the first, their
    /// second attempts the second, and so on.
    rounds: usize,
}

/// What the call knows of one key.
#[derive(Default)]
struct KeyState {
    /// Every attempt at it, as of its last await.
    attempts: Vec<Attempt>,
    /// How many times the body awaited it in this run.
    awaits: usize,
    /// Whether its last await in this run ended declined: a decline is final.
    declined: bool,
    /// Which await of it this round's question is, where it asks one (2026-07-28).
    pending_at: Option<usize>,
    /// The awaits this round's `inputResponses` answered: their answers arrived now (for
    /// traces).
    fresh: Vec<usize>,
    /// Whether the current [`Ask::all`](crate::ask::Ask::all) asked it.
    batched: bool,
}

impl CallMachine {
    /// The body starts a run: each key's awaits count from the first again.
    pub(crate) fn begin_run(&mut self) {
        self.running = true;
        for state in self.keys.values_mut() {
            state.awaits = 0;
            state.declined = false;
        }
    }

    /// The body's run ended: what this round asks for, and which await of its key each
    /// question is.
    pub(crate) fn end_run(&mut self) -> (InputRequests, BTreeMap<String, usize>) {
        self.running = false;
        let at = (self.keys.iter_mut())
            .filter_map(|(key, state)| Some((key.clone(), state.pending_at.take()?)))
            .collect();
        (std::mem::take(&mut self.pending), at)
    }

    /// Which await of `key` this is in the run, counting it; `None` after an await whose final
    /// answer was a decline, which answers every later one.
    pub(crate) fn await_index(&mut self, key: &str) -> Result<Option<usize>, Interrupt> {
        if !self.running {
            return Err(Interrupt::OutsideRun);
        }
        let batch = self.batch.is_some();
        let state = self.keys.entry(key.to_owned()).or_default();
        if batch && std::mem::replace(&mut state.batched, true) {
            return Err(Interrupt::KeyReused {
                key: key.to_owned(),
            });
        }
        if state.declined {
            return Ok(None);
        }
        // An earlier await of the key is waiting for its answer in this round (the body went
        // on past it without `?`): this one is asked once that one is answered.
        if state.pending_at.is_some() {
            return Err(Interrupt::InputRequired);
        }
        state.awaits += 1;
        Ok(Some(state.awaits - 1))
    }

    /// The step of the `index`-th await of `question`'s key, as the call's state knows it:
    /// registered, with the replies it has had (first the one the client sent `unasked`,
    /// where it takes one), each as `unfold` gives it to the body's form, to be read through
    /// its retry policy. Its message says why it is asked again, where it is: the question
    /// changed since it was answered, or the call started over.
    pub(crate) fn step(
        &mut self,
        question: &dyn Asking,
        index: usize,
        unasked: Option<Value>,
        unfold: &dyn Fn(&Value) -> Value,
    ) -> Result<Step, Interrupt> {
        let key = question.key();
        let restart = self.restart;
        let carried = self.state()?;
        carried
            .register(key, index, &question.identity())
            .map_err(|change| Interrupt::Changed {
                key: key.to_owned(),
                change,
            })?;
        if let Some(reply) = unasked {
            carried.push_unasked(key, reply);
        }
        let answers = &carried.keys[key][index];
        let base = match (answers.changed, restart) {
            (true, _) => Cow::Owned(format!(
                "{}\n\n(This question changed since it was answered, so it is asked again.)",
                question.base_message()
            )),
            (false, Some(restart)) => Cow::Owned(format!(
                "{}\n\n{}",
                question.base_message(),
                restart.sentence()
            )),
            (false, None) => question.base_message(),
        };
        let mut attempts = Attempts::new(question.policy(), base);
        if let Some(schema) = question.schema() {
            attempts = attempts.with_schema(schema);
        }
        let stored = (answers.replies.iter().enumerate())
            .map(|(i, reply)| Stored {
                reply: unfold(reply),
                took: answers.took(i),
                source: match i {
                    0 if answers.unasked => AnswerSource::Unasked,
                    _ => AnswerSource::Person,
                },
            })
            .collect();
        Ok(Step::new(attempts, stored, index))
    }

    /// The `index`-th await of `key` asks `request` in this round.
    pub(crate) fn pend(&mut self, key: &str, index: usize, request: &Request) {
        self.pending.add(key, request);
        self.keys.entry(key.to_owned()).or_default().pending_at = Some(index);
    }

    /// The question under `key` ended with `attempts`; where its final answer was a decline,
    /// `declined`, every later await of the key in this run is answered with it.
    pub(crate) fn settled(&mut self, key: &str, attempts: Vec<Attempt>, declined: bool) {
        let state = self.keys.entry(key.to_owned()).or_default();
        state.declined |= declined;
        state.attempts = attempts;
    }

    /// Every attempt at the question under `key` so far.
    pub(crate) fn attempts(&self, key: &str) -> &[Attempt] {
        self.keys.get(key).map_or(&[], |state| &state.attempts)
    }

    /// Counts a live request, the question's attempt number `attempt` (0 for its first),
    /// against the cap of `cap` rounds: each is a round of its own, but in one `all` a
    /// question's `n`-th attempt shares its round with every other's, as on 2026-07-28.
    pub(crate) fn count_live_round(&mut self, attempt: usize, cap: u32) -> Result<(), Interrupt> {
        if self.batch.as_ref().is_some_and(|b| attempt < b.rounds) {
            return Ok(());
        }
        if self.live_rounds >= cap {
            return Err(Interrupt::TooManyRounds {
                cap,
                pending: Vec::new(),
            });
        }
        self.live_rounds += 1;
        if let Some(batch) = self.batch.as_mut() {
            batch.rounds = attempt + 1;
        }
        Ok(())
    }

    /// The live rounds the call took.
    pub(crate) fn live_rounds(&self) -> u32 {
        self.live_rounds
    }

    /// The questions of one `all` begin, or (`false`) end.
    pub(crate) fn batch(&mut self, open: bool) {
        self.batch = open.then(Batch::default);
        for state in self.keys.values_mut() {
            state.batched = false;
        }
    }

    /// The value of the next progress notification: higher than the last.
    pub(crate) fn next_progress(&mut self) -> f64 {
        self.progress += 1.0;
        self.progress
    }

    /// The call's state could not be opened, nor the call start over: every use of the state
    /// stops the call with `refusal`.
    pub(crate) fn refused(&mut self, refusal: StateError) {
        self.carried = Some(Err(refusal));
    }

    /// The retry's state, as the key opened it (with the time it was issued, in milliseconds
    /// since the Unix epoch), or `None` for a call that carried none, which is a first call.
    /// A state no key opens, or that this build cannot read, starts the call over; one that
    /// expired does too, keeping its call's id and rounds. Otherwise the retry's answers join
    /// it. Returns why the call started over, for its trace, where it did.
    pub(crate) fn opened(
        &mut self,
        opened: Option<Result<(Carried, u64), StateError>>,
        at: Opening<'_>,
    ) -> Option<String> {
        let (carried, restarted) = match opened {
            None => (Carried::new(), None),
            Some(Err(e @ (StateError::UnknownKey | StateError::Outdated(_)))) => {
                (Carried::new(), Some(e.to_string()))
            }
            Some(Err(e)) => (Err(e), None),
            Some(Ok((carried, issued))) => {
                // This round's answers took from the round's result to this retry.
                let took = Duration::from_millis(at.now_ms.saturating_sub(issued));
                if took > at.ttl {
                    (Ok(carried.again()), Some(StateError::Expired.to_string()))
                } else {
                    let expires = SystemTime::UNIX_EPOCH + Duration::from_millis(issued) + at.ttl;
                    let mut carried = carried;
                    self.answered(
                        &mut carried,
                        at.responses,
                        took,
                        (at.room, expires, at.binding),
                    );
                    (Ok(carried), None)
                }
            }
        };
        if restarted.is_some() {
            self.restart = Some(Restart::Unopened);
        }
        self.carried = Some(carried);
        restarted
    }

    /// The store had no record of the call's round, and its generation is `now`: the call
    /// starts over as a first call, its id kept, and says why; or stops, where its rounds went
    /// back to a generation it left (its servers do not share one store), or it started over
    /// `max` times already (the store keeps losing its rounds).
    pub(crate) fn forgotten(&mut self, now: &str, max: u32) -> Result<Lost, StateError> {
        let carried = match &self.carried {
            Some(Ok(carried)) => carried,
            Some(Err(refused)) => return Err(refused.clone()),
            // Nothing was opened, so nothing was claimed or lost.
            None => return Ok(Lost::LetGo),
        };
        if carried.seen.iter().any(|generation| generation == now) {
            return Err(StateError::Unshared);
        }
        if carried.restarts >= max {
            return Err(StateError::Forgotten);
        }
        let lost = match carried.generation == now {
            true => Lost::LetGo,
            false => Lost::Records,
        };
        let mut fresh = carried.again();
        fresh.restarts = carried.restarts + 1;
        fresh.seen.push(carried.generation.clone());
        self.carried = Some(Ok(fresh));
        self.round = None;
        for state in self.keys.values_mut() {
            state.fresh.clear();
        }
        self.restart = Some(Restart::Forgotten);
        Ok(lost)
    }

    /// The round this retry claims, by `claimant`, with what its recorded ending is bound to;
    /// `None` for a call whose state named no round (a first call, or one that started over).
    pub(crate) fn claim(&self, claimant: &[u8]) -> Option<(Round, Vec<u8>)> {
        let of = self.round.as_ref()?;
        let Some(Ok(carried)) = &self.carried else {
            return None;
        };
        let call = call_digest(&carried.call);
        let context = [
            of.binding.as_bytes(),
            call.as_bytes(),
            &of.number.to_be_bytes(),
        ]
        .concat();
        let round = Round::new(
            call,
            of.number,
            of.answers.clone(),
            digest(claimant),
            carried.generation.clone(),
            of.expires,
        )
        .with_principal(of.principal.clone());
        Some((round, context))
    }

    /// The entry the call makes in the store as its first round (or its first after it started
    /// over) ends, for `room`'s caller, kept until `expires`: a later claim that finds none
    /// then knows the store let it go or lost it. `None` once the call has its entry.
    pub(crate) fn first_round(&mut self, room: String, expires: SystemTime) -> Option<Round> {
        let carried = self.state().ok()?;
        if !carried.generation.is_empty() {
            return None;
        }
        let call = call_digest(&carried.call);
        Some(Round::new(call, carried.round + 1, "", "", "", expires).with_principal(room))
    }

    /// The store made the call's entry under its `generation`, which the state is issued under.
    pub(crate) fn began(&mut self, generation: String) {
        if let Ok(carried) = self.state() {
            carried.generation = generation;
        }
    }

    /// The round ends asking for the awaits `at` names, unless the call took `cap` rounds
    /// already: the state to seal for the retry.
    pub(crate) fn next_round(
        &mut self,
        at: BTreeMap<String, usize>,
        cap: u32,
    ) -> Result<&Carried, Interrupt> {
        let carried = self.state()?;
        if carried.round - carried.from >= cap {
            return Err(Interrupt::TooManyRounds {
                cap,
                pending: at.into_keys().collect(),
            });
        }
        carried.round += 1;
        carried.pending = at;
        Ok(carried)
    }

    /// The opened state, or what refused it.
    fn state(&mut self) -> Result<&mut Carried, Interrupt> {
        match self.carried.as_mut() {
            Some(Ok(carried)) => Ok(carried),
            Some(Err(refused)) => Err(Interrupt::State(refused.clone())),
            None => Err(Interrupt::InputRequired),
        }
    }

    /// The store's `answer` to the claim of this retry's round sent at `sent`, read at `now`:
    /// what it means. A duplicate waits, up to `hold.wait` since the first claim; a round that
    /// is ours is held from here, its claim kept for `hold.lease`, and nothing kept past
    /// `hold.expires`.
    pub(crate) fn claim_answered(
        &mut self,
        (sent, now): (Instant, Instant),
        answer: Result<Claim, StoreError>,
        hold: &Hold,
    ) -> Verdict {
        let claiming = (self.claiming).get_or_insert_with(|| Claiming::new(sent, hold.wait));
        let verdict = claiming.answered(now, answer);
        if let Verdict::Run { taken_over } = verdict {
            self.claimed = Some(Machine::claimed(sent, hold.lease, hold.expires, taken_over));
        }
        verdict
    }

    /// The claimed round's machine. Outside a claim, one with nothing to keep: it renews
    /// nothing, fences nothing and records nothing.
    pub(crate) fn held(&mut self, now: Instant) -> &mut Machine {
        self.claimed.get_or_insert_with(|| Machine::settled(now))
    }

    /// Whether this run of the round is a take-over of a claim that lapsed.
    pub(crate) fn taken_over(&self) -> bool {
        self.claimed.as_ref().is_some_and(Machine::taken_over)
    }

    /// This round's retry opened `carried`: its `responses` answer the questions the sealed
    /// round asked for, and only those, each taking `took` since that round's result. The
    /// answers join the state, and the round is known for its claim, bound to `room`'s caller,
    /// the state's expiry and binding.
    fn answered(
        &mut self,
        carried: &mut Carried,
        responses: &Map<String, Value>,
        took: Duration,
        (room, expires, binding): (String, SystemTime, Binding),
    ) {
        let mut answers = Map::new();
        for (key, index) in std::mem::take(&mut carried.pending) {
            let Some(reply) = responses.get(&key) else {
                continue;
            };
            let kind = carried.keys.get(&key).and_then(|a| a.get(index));
            let kind = kind.map_or(QuestionKind::Form, |a| a.identity.kind);
            let reply = carry::carry(kind, reply);
            answers.insert(key.clone(), reply.clone());
            carried.push_reply(&key, index, reply, Some(took));
            self.keys.entry(key).or_default().fresh.push(index);
        }
        self.round = Some(RoundOf {
            number: carried.round,
            answers: answers_digest(&answers),
            principal: room,
            expires,
            binding,
        });
    }

    /// Whether this round's `inputResponses` answered the `index`-th await of `key`.
    pub(crate) fn answered_now(&self, key: &str, index: usize) -> bool {
        self.keys
            .get(key)
            .is_some_and(|state| state.fresh.contains(&index))
    }
}

#[cfg(test)]
#[path = "../../../unit/ask/round/call.rs"]
mod tests;
