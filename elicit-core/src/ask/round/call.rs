//! One call's machine, with no I/O: its opened state, where its body is in this run (which
//! await of each key, what this round asks for, which keys were declined), the live rounds it
//! has taken, and why it started over. [`Ask`](crate::ask::Ask) holds it under its lock and
//! drives it: every rule of what an await may do is a method here.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, SystemTime};

use serde_json::{Map, Value};

use crate::ask::asked::Interrupt;
use crate::ask::question::carry;
use crate::ask::question::retry::Attempt;
use crate::ask::state::{Binding, Carried, QuestionKind, StateError, answers_digest};
use crate::protocol::client::Request;
use crate::protocol::input::InputRequests;

/// The machine of one call on this process.
#[derive(Default)]
pub(crate) struct CallMachine {
    /// The call's carried state, opened on first use.
    pub(crate) carried: Option<Result<Carried, StateError>>,
    /// The awaits this round's `inputResponses` answered, by key and index: their answers
    /// arrived now (for traces).
    pub(crate) fresh: BTreeSet<(String, usize)>,
    /// The round a verified state names, for its claim.
    pub(crate) round: Option<RoundOf>,
    /// Why the call started over, if it did: its questions say so.
    pub(crate) restart: Option<Restart>,
    /// Whether this run of the round is a take-over of a claim that lapsed.
    pub(crate) taken_over: bool,
    /// This round's unanswered questions (2026-07-28).
    pending: InputRequests,
    /// Which await of its key each of this round's questions is.
    pending_at: BTreeMap<String, usize>,
    /// Every attempt at each key, as of its last await.
    attempts: BTreeMap<String, Vec<Attempt>>,
    /// How many times the body awaited each key in this run.
    awaits: BTreeMap<String, usize>,
    /// The keys whose last await in this run ended declined: a decline is final.
    declined: BTreeSet<String>,
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
pub(crate) struct RoundOf {
    pub(crate) number: u32,
    /// A digest of the answers this retry brought for it, as they are carried.
    pub(crate) answers: String,
    /// Who the caller is for the store's room.
    pub(crate) principal: String,
    pub(crate) expires: SystemTime,
    /// What the call's state is bound to, which its recorded ending is bound to too.
    pub(crate) binding: Binding,
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
    /// The keys asked.
    keys: BTreeSet<String>,
}

impl CallMachine {
    /// The body starts a run: each key's awaits count from the first again.
    pub(crate) fn begin_run(&mut self) {
        self.running = true;
        self.awaits.clear();
        self.declined.clear();
    }

    /// The body's run ended: what this round asks for, and which await of its key each
    /// question is.
    pub(crate) fn end_run(&mut self) -> (InputRequests, BTreeMap<String, usize>) {
        self.running = false;
        let at = std::mem::take(&mut self.pending_at);
        (std::mem::take(&mut self.pending), at)
    }

    /// Which await of `key` this is in the run, counting it; `None` after an await whose final
    /// answer was a decline, which answers every later one.
    pub(crate) fn await_index(&mut self, key: &str) -> Result<Option<usize>, Interrupt> {
        if !self.running {
            return Err(Interrupt::OutsideRun);
        }
        if let Some(batch) = self.batch.as_mut()
            && !batch.keys.insert(key.to_owned())
        {
            return Err(Interrupt::KeyReused {
                key: key.to_owned(),
            });
        }
        if self.declined.contains(key) {
            return Ok(None);
        }
        // An earlier await of the key is waiting for its answer in this round (the body went
        // on past it without `?`): this one is asked once that one is answered.
        if self.pending_at.contains_key(key) {
            return Err(Interrupt::InputRequired);
        }
        let awaits = self.awaits.entry(key.to_owned()).or_default();
        *awaits += 1;
        Ok(Some(*awaits - 1))
    }

    /// The `index`-th await of `key` asks `request` in this round.
    pub(crate) fn pend(&mut self, key: &str, index: usize, request: &Request) {
        self.pending.add(key, request);
        self.pending_at.insert(key.to_owned(), index);
    }

    /// The question under `key` ended with `attempts`; where its final answer was a decline,
    /// `declined`, every later await of the key in this run is answered with it.
    pub(crate) fn settled(&mut self, key: &str, attempts: Vec<Attempt>, declined: bool) {
        if declined {
            self.declined.insert(key.to_owned());
        }
        self.attempts.insert(key.to_owned(), attempts);
    }

    /// Every attempt at the question under `key` so far.
    pub(crate) fn attempts(&self, key: &str) -> &[Attempt] {
        self.attempts.get(key).map_or(&[], Vec::as_slice)
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
    }

    /// The value of the next progress notification: higher than the last.
    pub(crate) fn next_progress(&mut self) -> f64 {
        self.progress += 1.0;
        self.progress
    }

    /// The call starts over for `why`, its state now `fresh`: it runs as a first call.
    pub(crate) fn started_over(&mut self, fresh: Carried, why: Restart) {
        self.carried = Some(Ok(fresh));
        self.round = None;
        self.fresh.clear();
        self.restart = Some(why);
    }

    /// This round's retry opened `carried`: its `responses` answer the questions the sealed
    /// round asked for, and only those, each taking `took` since that round's result. The
    /// answers join the state, and the round is known for its claim, bound to `room`'s caller,
    /// the state's expiry and binding.
    pub(crate) fn answered(
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
            self.fresh.insert((key, index));
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
        self.fresh.contains(&(key.to_owned(), index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ask::question::retry::AttemptOutcome;
    use crate::protocol::client::Request;

    fn request() -> Request {
        let schema = crate::schema::RequestedSchema::builder().build().unwrap();
        Request::Form(crate::schema::request::FormRequest::owned("?", schema))
    }

    #[test]
    fn each_await_of_a_key_is_its_own_question_in_every_run() {
        let mut call = CallMachine::default();
        assert!(matches!(call.await_index("k"), Err(Interrupt::OutsideRun)));
        call.begin_run();
        assert_eq!(call.await_index("k").unwrap(), Some(0));
        assert_eq!(call.await_index("k").unwrap(), Some(1));
        // The next run counts from the first again.
        call.end_run();
        call.begin_run();
        assert_eq!(call.await_index("k").unwrap(), Some(0));
    }

    #[test]
    fn a_decline_answers_the_keys_later_awaits_in_the_run() {
        let mut call = CallMachine::default();
        call.begin_run();
        assert_eq!(call.await_index("k").unwrap(), Some(0));
        let declined = Attempt::new("?", AttemptOutcome::Declined);
        call.settled("k", vec![declined], true);
        assert_eq!(call.await_index("k").unwrap(), None);
        assert_eq!(call.attempts("k").len(), 1);
    }

    #[test]
    fn a_key_waiting_in_this_round_holds_its_next_await_and_the_round_ends_with_it() {
        let mut call = CallMachine::default();
        call.begin_run();
        let index = call.await_index("k").unwrap().unwrap();
        call.pend("k", index, &request());
        assert!(matches!(
            call.await_index("k"),
            Err(Interrupt::InputRequired)
        ));
        let (pending, at) = call.end_run();
        assert_eq!(pending.entries().len(), 1);
        assert_eq!(at.get("k"), Some(&0));
        assert!(matches!(call.await_index("k"), Err(Interrupt::OutsideRun)));
    }

    #[test]
    fn one_all_asks_each_key_once_and_shares_its_live_rounds() {
        let mut call = CallMachine::default();
        call.begin_run();
        call.batch(true);
        assert_eq!(call.await_index("a").unwrap(), Some(0));
        assert_eq!(call.await_index("b").unwrap(), Some(0));
        assert!(matches!(
            call.await_index("a"),
            Err(Interrupt::KeyReused { .. })
        ));
        // The first attempts of both share one round; a second attempt is another.
        call.count_live_round(0, 2).unwrap();
        call.count_live_round(0, 2).unwrap();
        assert_eq!(call.live_rounds(), 1);
        call.count_live_round(1, 2).unwrap();
        assert_eq!(call.live_rounds(), 2);
        call.batch(false);
        assert!(matches!(
            call.count_live_round(0, 2),
            Err(Interrupt::TooManyRounds { cap: 2, .. })
        ));
    }

    #[test]
    fn a_retrys_answers_count_only_for_what_its_round_asked() {
        use serde_json::json;
        // The state of a round that asked for `k`, not yet answered.
        let asked = || {
            let mut carried = crate::ask::state::tests::carried();
            let answers = &mut carried.keys.get_mut("k").unwrap()[0];
            answers.replies.clear();
            answers.took_ms.clear();
            carried.pending.insert("k".into(), 0);
            carried
        };
        let mut carried = asked();
        let responses = Map::from_iter([
            (
                "k".to_owned(),
                json!({"action": "accept", "content": {"city": "Oslo"}}),
            ),
            (
                "unasked".to_owned(),
                json!({"action": "accept", "content": {}}),
            ),
        ]);
        let bound = (
            String::new(),
            SystemTime::UNIX_EPOCH,
            Binding::of("t", None, None),
        );
        let mut call = CallMachine::default();
        call.answered(
            &mut carried,
            &responses,
            Duration::from_secs(4),
            bound.clone(),
        );
        assert!(call.answered_now("k", 0));
        assert!(!call.answered_now("unasked", 0));
        assert!(carried.pending.is_empty());
        let kept = &carried.keys["k"][0];
        assert_eq!(kept.replies.len(), 1);
        assert_eq!(kept.took(0), Some(Duration::from_secs(4)));
        // The round's claim names the answers, whatever order their keys came in.
        let digest = call.round.as_ref().unwrap().answers.clone();
        let mut again = asked();
        let reordered = Map::from_iter([(
            "k".to_owned(),
            json!({"content": {"city": "Oslo"}, "action": "accept"}),
        )]);
        let mut other = CallMachine::default();
        other.answered(&mut again, &reordered, Duration::ZERO, bound);
        assert_eq!(other.round.unwrap().answers, digest);
    }

    #[test]
    fn progress_only_grows() {
        let mut call = CallMachine::default();
        let (one, two) = (call.next_progress(), call.next_progress());
        assert!(two > one);
    }
}
