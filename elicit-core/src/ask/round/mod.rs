//! The call's machine ([`CallMachine`], with a claimed round's [`Machine`] inside it) and the
//! driver of its round: the claim, the keeper task that renews it while the body runs (and
//! records an ending whose first record failed), the fence that stops the body, and the record
//! or release of how it ended. Every decision is the machine's; this file only does the I/O
//! and feeds the answers back.

pub(super) mod call;
pub(super) mod machine;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tokio::sync::Notify;

use super::asked::{Asked, Ending, Interrupt};
use super::key::StateKey;
use super::state::StateError;
use super::store::{Round, RoundStore};
use super::{Ask, Boxed, trace};
use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::jsonrpc::RpcError;
use call::{CallMachine, Hold};
use machine::{Fence, Keep, Machine, Recorded as Kept, Settle, Verdict};

/// What the client gets for a round whose call was dropped mid-body: nobody can say how far
/// the body went.
const STOPPED_MIDWAY: &str = "the call was stopped before its tool finished (its request was cancelled, or its connection closed), so what the tool was doing may or may not have happened; call the tool again to start over";

/// What the client gets for a body stopped because its claim could not be renewed in time.
const FENCED_LAPSING: &str = "the server could not renew its hold on this round in time (its state store was out of reach or slow, or the server too busy), so it stopped the tool before another server could run it: what the tool was doing may or may not have happened; call the tool again to start over";

/// What the client gets for a body stopped because another took its round over.
const FENCED_LOST: &str = "this round was taken over by another copy of the same request while its tool ran, so the tool was stopped here: what it was doing may or may not have happened, and the other copy's result is the call's";

/// A round's ending as a store keeps it, sealed: what the body came to, before any SDK
/// writes it.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Recorded {
    Done(Value),
    InputRequired {
        requests: Map<String, Value>,
        state: Option<String>,
    },
    Stopped(Ending),
}

/// What claiming a retry's round came to.
pub(super) enum Claimed {
    /// The call carries no state: there is no round to claim.
    Unclaimed,
    /// The round is this call's to run.
    Ours(Held),
    /// The round ran: its recorded ending, for the call to end with again, or why it cannot
    /// be read.
    Ran(Result<Recorded, String>),
    /// The store may have lost the round: the call starts over.
    Forgotten,
}

/// A round this call holds: the call's machine, shared with the keeper task.
pub(super) struct Held(Arc<Shared>);

struct Shared {
    round: Round,
    store: Arc<dyn RoundStore>,
    key: StateKey,
    /// What the recorded ending is bound to: the call's binding and the round.
    context: Vec<u8>,
    call: Arc<Mutex<CallMachine>>,
    /// Wakes the keeper: the machine changed.
    changed: Notify,
    /// Wakes the call: its body is fenced.
    fenced: Notify,
}

/// The call's machine. No code panics while holding the lock; a poisoned one still holds
/// consistent data.
pub(super) fn lock(call: &Mutex<CallMachine>) -> MutexGuard<'_, CallMachine> {
    call.lock().unwrap_or_else(|e| e.into_inner())
}

/// Now, on the driver's clock: tokio's, so that a paused clock drives the machine too.
fn now() -> Instant {
    tokio::time::Instant::now().into_std()
}

impl Ask {
    /// Claims the round of a retry whose state verified, waiting, with a growing pause between
    /// claims, up to [`StateKey::claim_wait`] for the same retry running elsewhere.
    pub(super) async fn claim(&self) -> Result<Claimed, Interrupt> {
        let Some((round, context)) = self.round() else {
            return Ok(Claimed::Unclaimed);
        };
        let key = self.key();
        let store = key.store();
        let remaining = round.expires.duration_since(key.now()).unwrap_or_default();
        let hold = Hold {
            wait: key.claim_wait(),
            lease: key.lease(),
            expires: now() + remaining + StateKey::MAX_CLOCK_SKEW,
        };
        loop {
            let sent = now();
            let answer = store.claim(&round, key.lease()).await;
            let verdict = self.lock().claim_answered((sent, now()), answer, &hold);
            match verdict {
                Verdict::Run { taken_over } => {
                    if taken_over {
                        trace::taken_over(round.number);
                    }
                    let shared = Shared {
                        round,
                        store,
                        key: key.clone(),
                        context,
                        call: Arc::clone(&self.call),
                        changed: Notify::new(),
                        fenced: Notify::new(),
                    };
                    return Ok(Claimed::Ours(Held(Arc::new(shared))));
                }
                Verdict::Wait(pause) => tokio::time::sleep(pause).await,
                Verdict::Replay(sealed) => {
                    return Ok(Claimed::Ran(replay(key, &sealed, &context)));
                }
                Verdict::Used => return Err(Interrupt::State(StateError::Replayed)),
                Verdict::Forgotten => return Ok(Claimed::Forgotten),
                Verdict::InProgress => return Err(Interrupt::State(StateError::InProgress)),
                Verdict::Failed(e) => {
                    trace::store_failed(&e);
                    return Err(Interrupt::State(StateError::Store(e.0)));
                }
            }
        }
    }
}

impl Held {
    /// Starts the keeper, a task of its own, so that a body that blocks its thread does not
    /// keep it from renewing the claim on a multi-thread runtime. The call yields once, so that
    /// the keeper is polled before the body runs: a task spawned from a worker waits in that
    /// worker's own next slot, which no other worker takes, and a body that blocks the worker
    /// at once would hold it there.
    pub(super) async fn keep(&self) {
        tokio::spawn(keeper(Arc::clone(&self.0)));
        tokio::task::yield_now().await;
    }

    /// Waits until the body must stop, and says why, as the call's stop: woken by the keeper
    /// (a renewal refused), or by the fence's own time.
    pub(super) fn fenced(&self) -> Boxed<'_, Interrupt> {
        Box::pin(self.fence())
    }

    async fn fence(&self) -> Interrupt {
        loop {
            let notified = self.0.fenced.notified();
            let wake = match self.0.machine(|m| m.watch(now())) {
                Ok(wake) => wake,
                Err(fence) => {
                    trace::fenced(fence);
                    let text = match fence {
                        Fence::Lapsing => FENCED_LAPSING,
                        Fence::Lost => FENCED_LOST,
                    };
                    return Interrupt::Error(RpcError::internal(text));
                }
            };
            tokio::select! {
                () = tokio::time::sleep_until(wake.into()) => {}
                () = notified => {}
            }
        }
    }

    /// Records what the round came to, whatever it was, or releases it (`None`) where it
    /// stopped before any effect could have happened, so that the client's retry runs. A
    /// record that fails is left to the keeper, which tries again while the claim holds.
    pub(super) fn settle(&self, recorded: Option<Recorded>) -> Boxed<'_, ()> {
        Box::pin(self.settled(recorded))
    }

    async fn settled(&self, recorded: Option<Recorded>) {
        let ending = match recorded {
            None => None,
            Some(recorded) => match self.0.seal(&recorded) {
                Some(sealed) => Some(sealed),
                None => return self.0.give_up(),
            },
        };
        let settle = self.0.machine(|m| m.ended(now(), ending));
        self.0.changed.notify_one();
        match settle {
            Settle::Record(sealed) => {
                let answer = self.0.store.record(&self.0.round, &sealed).await;
                self.0.recorded(answer);
            }
            Settle::Release => {
                if let Err(e) = self.0.store.release(&self.0.round).await {
                    trace::store_failed(&e);
                }
            }
            Settle::Nothing => trace::late_record(),
        }
    }

    /// A guard that records the round as stopped mid-way, if the call is dropped before it
    /// settles.
    pub(super) fn guard(&self) -> Unsettled {
        Unsettled(Some(Arc::clone(&self.0)))
    }
}

impl Shared {
    /// Runs `f` on the claimed round's machine, under the call's lock.
    fn machine<T>(&self, f: impl FnOnce(&mut Machine) -> T) -> T {
        f(lock(&self.call).held(now()))
    }

    /// `recorded`, sealed for this round, or `None` (traced) where it cannot be sealed.
    fn seal(&self, recorded: &Recorded) -> Option<String> {
        // A tagged enum of JSON values always serializes.
        let bytes = serde_json::to_vec(recorded).unwrap_or_default();
        match self.key.seal_bytes(&bytes, &self.context) {
            Ok(sealed) => Some(sealed),
            Err(e) => {
                trace::state_failed(&e);
                None
            }
        }
    }

    /// Ends the round with nothing recorded: its ending could not be sealed (traced).
    fn give_up(&self) {
        self.machine(Machine::give_up);
        self.changed.notify_one();
    }

    /// Feeds a record's answer to the machine, and wakes the keeper where it has more to do.
    fn recorded(&self, answer: Result<bool, super::StoreError>) {
        if let Err(e) = &answer {
            trace::store_failed(e);
        }
        match self.machine(|m| m.recorded(now(), answer)) {
            Kept::Landed => {}
            Kept::Lost => trace::late_record(),
            Kept::Later => trace::record_later(),
        }
        self.changed.notify_one();
    }
}

/// The keeper of a claimed round: it renews the claim, stops the body where the claim could
/// lapse, and records an ending the call could not, until the machine has nothing more to do.
async fn keeper(shared: Arc<Shared>) {
    loop {
        let changed = shared.changed.notified();
        let (next, fenced) = shared.machine(|m| (m.next(now()), m.fence().is_some()));
        if fenced {
            shared.fenced.notify_one();
        }
        match next {
            Keep::Stop => return,
            Keep::Sleep(until) => {
                tokio::select! {
                    () = tokio::time::sleep_until(until.into()) => {}
                    () = changed => {}
                }
            }
            Keep::Renew => {
                let sent = now();
                let answer = shared.store.renew(&shared.round, shared.key.lease()).await;
                match &answer {
                    Err(e) => trace::store_failed(e),
                    Ok(false) => trace::lease_lost(),
                    Ok(true) => {}
                }
                shared.machine(|m| m.renewed(sent, now(), answer));
            }
            Keep::Record(sealed) => {
                let answer = shared.store.record(&shared.round, &sealed).await;
                shared.recorded(answer);
            }
        }
    }
}

/// What a round that ended as `asked` records; `None` where it releases the round, having
/// stopped before any effect could have happened.
pub(super) fn record_of<R: Serialize>(asked: &Asked<R>) -> Option<Recorded> {
    Some(match asked {
        Asked::Done(result) => match serde_json::to_value(result) {
            Ok(result) => Recorded::Done(result),
            Err(e) => Recorded::Stopped(Ending::Rpc(RpcError::internal(format!(
                "the tool's result cannot be recorded: {e}"
            )))),
        },
        Asked::InputRequired(required) => Recorded::InputRequired {
            requests: required.requests().entries().clone(),
            state: required.request_state().map(str::to_owned),
        },
        Asked::Stopped(stop) if stop.releases_round() => return None,
        Asked::Stopped(stop) => Recorded::Stopped(stop.ending()),
    })
}

/// The ending a round recorded, or why it cannot be read.
fn replay(key: &StateKey, sealed: &str, context: &[u8]) -> Result<Recorded, String> {
    let bytes = key.open_bytes(sealed, context).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// A recorded ending, as the call ends with it again: its result read as the tool's own.
pub(super) fn replayed<R: DeserializeOwned>(recorded: Result<Recorded, String>) -> Asked<R> {
    match recorded {
        Ok(Recorded::Done(result)) => match serde_json::from_value(result) {
            Ok(result) => Asked::Done(result),
            Err(e) => unreadable(e.to_string()),
        },
        Ok(Recorded::InputRequired { requests, state }) => {
            let required = InputRequired::new(InputRequests::from_entries(requests));
            Asked::InputRequired(match state {
                Some(state) => required.with_request_state(state),
                None => required,
            })
        }
        Ok(Recorded::Stopped(ending)) => Asked::Stopped(Interrupt::Recorded(ending)),
        Err(e) => unreadable(e),
    }
}

/// The ending of a round whose recorded ending cannot be read (traced).
fn unreadable<R>(e: String) -> Asked<R> {
    trace::state_failed(&StateError::Unreadable(e));
    Asked::Stopped(Interrupt::Error(RpcError::internal(
        "this round ran, but its recorded ending cannot be read; call the tool again to start over",
    )))
}

/// Records a claimed round as stopped mid-way if the call never settles it: the call's future
/// was dropped while the body ran, so nobody can say how far it went. It needs no runtime of
/// its own: the keeper, already running, makes the record.
pub(super) struct Unsettled(Option<Arc<Shared>>);

impl Unsettled {
    /// The round was settled.
    pub(super) fn settled(mut self) {
        self.0 = None;
    }
}

impl Drop for Unsettled {
    fn drop(&mut self) {
        let Some(shared) = self.0.take() else {
            return;
        };
        let ending = Recorded::Stopped(Ending::Rpc(RpcError::internal(STOPPED_MIDWAY)));
        let Some(sealed) = shared.seal(&ending) else {
            return shared.give_up();
        };
        shared.machine(|machine| {
            if let Settle::Record(_) = machine.ended(now(), Some(sealed)) {
                machine.hand_over(now());
            }
        });
        shared.changed.notify_one();
    }
}
