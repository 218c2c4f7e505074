//! Claiming a round before its body runs, keeping the claim while it runs, and recording how
//! it ended: the engine's side of [`RoundStore`](super::RoundStore).

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::asked::{Asked, Ending, Interrupt};
use super::key::StateKey;
use super::state::StateError;
use super::store::{Claim, Round, RoundStore};
use super::{Ask, trace};
use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::jsonrpc::RpcError;

/// How often a retry looks again for the ending of the same retry running elsewhere.
const POLL: Duration = Duration::from_millis(50);

/// What the client gets for a round whose call was dropped mid-body: nobody can say how far
/// the body went.
const STOPPED_MIDWAY: &str = "the call was stopped before its tool finished (its request was cancelled, or its connection closed), so what the tool was doing may or may not have happened; call the tool again to start over";

/// A round's ending as a store keeps it, sealed: what the body came to, before any SDK
/// writes it.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Recorded {
    Done(Value),
    InputRequired {
        requests: Map<String, Value>,
        state: Option<String>,
    },
    Stopped(Ending),
}

/// What claiming a retry's round came to.
pub(super) enum Claimed<R> {
    /// The call carries no state: there is no round to claim.
    Unclaimed,
    /// The round is this call's to run.
    Ours(Held),
    /// The round ran: its ending, for the call to end with again.
    Ran(Asked<R>),
    /// The store may have lost the round: the call starts over.
    Forgotten,
}

/// A round this call holds, with what it takes to keep, record or release it, also from a
/// drop guard.
#[derive(Clone)]
pub(super) struct Held {
    round: Round,
    store: Arc<dyn RoundStore>,
    key: StateKey,
    /// What the recorded ending is bound to: the call's binding and the round.
    context: Vec<u8>,
}

impl Ask {
    /// Claims the round of a retry whose state verified, waiting up to
    /// [`StateKey::CLAIM_WAIT`] for the same retry running elsewhere.
    pub(super) async fn claim<R: DeserializeOwned>(&self) -> Result<Claimed<R>, Interrupt> {
        let Some((round, context)) = self.round() else {
            return Ok(Claimed::Unclaimed);
        };
        let key = self.key();
        let store = key.store();
        let waited = tokio::time::Instant::now();
        loop {
            let claim = store.claim(&round, key.lease()).await.map_err(|e| {
                trace::store_failed(&e);
                Interrupt::State(StateError::Store(e.0))
            })?;
            match claim {
                Claim::First => {
                    let held = Held {
                        round,
                        store,
                        key: key.clone(),
                        context,
                    };
                    return Ok(Claimed::Ours(held));
                }
                Claim::Recorded(sealed) => return Ok(Claimed::Ran(replay(key, &sealed, &context))),
                Claim::Used => return Err(Interrupt::State(StateError::Replayed)),
                Claim::Forgotten => return Ok(Claimed::Forgotten),
                Claim::Running if waited.elapsed() < StateKey::CLAIM_WAIT => {
                    tokio::time::sleep(POLL).await;
                }
                Claim::Running => return Err(Interrupt::State(StateError::InProgress)),
            }
        }
    }
}

impl Held {
    /// Renews the claim every third of its lease, for as long as it is awaited: while the body
    /// runs.
    pub(super) async fn keep(&self) -> Infallible {
        let lease = self.key.lease();
        loop {
            tokio::time::sleep(lease / 3).await;
            match self.store.renew(&self.round, lease).await {
                Ok(true) => {}
                Ok(false) => {
                    trace::lease_lost();
                    return std::future::pending().await;
                }
                Err(e) => trace::store_failed(&e),
            }
        }
    }

    /// Records what the round came to, whatever it was, or releases it where it stopped before
    /// any effect could have happened, so that the client's retry runs.
    pub(super) async fn settle<R: Serialize>(&self, asked: &Asked<R>) {
        let recorded = match asked {
            Asked::Stopped(stop) if stop.releases_round() => {
                if let Err(e) = self.store.release(&self.round).await {
                    trace::store_failed(&e);
                }
                return;
            }
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
            Asked::Stopped(stop) => Recorded::Stopped(stop.ending()),
        };
        self.record(&recorded).await;
    }

    async fn record(&self, recorded: &Recorded) {
        // A tagged enum of JSON values always serializes.
        let bytes = serde_json::to_vec(recorded).unwrap_or_default();
        let sealed = match self.key.seal_bytes(&bytes, &self.context) {
            Ok(sealed) => sealed,
            Err(e) => return trace::state_failed(&e),
        };
        match self.store.record(&self.round, &sealed).await {
            Ok(true) => {}
            Ok(false) => trace::late_record(),
            Err(e) => trace::store_failed(&e),
        }
    }

    /// A guard that records the round as stopped mid-way, if the call is dropped before it
    /// settles.
    pub(super) fn guard(&self) -> Unsettled {
        Unsettled(Some(self.clone()))
    }
}

/// The ending a round recorded, as the call ends with it again.
fn replay<R: DeserializeOwned>(key: &StateKey, sealed: &str, context: &[u8]) -> Asked<R> {
    let unreadable = |e: String| {
        trace::state_failed(&StateError::Unreadable(e));
        Asked::Stopped(Interrupt::Error(RpcError::internal(
            "this round ran, but its recorded ending cannot be read; call the tool again to start over",
        )))
    };
    let recorded = match key.open_bytes(sealed, context) {
        Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| e.to_string()),
        Err(e) => Err(e.to_string()),
    };
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

/// Records a claimed round as stopped mid-way if the call never settles it: the call's future
/// was dropped while the body ran, so nobody can say how far it went.
pub(super) struct Unsettled(Option<Held>);

impl Unsettled {
    /// The round was settled.
    pub(super) fn settled(mut self) {
        self.0 = None;
    }
}

impl Drop for Unsettled {
    fn drop(&mut self) {
        let (Some(held), Ok(runtime)) = (self.0.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        runtime.spawn(async move {
            let ending = Ending::Rpc(RpcError::internal(STOPPED_MIDWAY));
            held.record(&Recorded::Stopped(ending)).await;
        });
    }
}
