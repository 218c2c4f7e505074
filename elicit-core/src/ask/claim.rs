//! Claiming a round before its body runs, and settling it after: the engine's side of
//! [`RoundStore`](super::RoundStore).

use std::sync::Arc;
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::StateKey;
use super::asked::{Asked, Ending, Interrupt};
use super::state::StateError;
use super::store::{Claim, DynStore, Round};
use super::{Ask, trace};
use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::jsonrpc::RpcError;

/// How often a retry looks again for the response of the same retry running elsewhere.
const POLL: Duration = Duration::from_millis(50);

/// A round's response as a store keeps it: what the body came to, before any SDK writes it.
/// (Tagged by its outer key, which serde reads without buffering the value.)
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Recorded {
    Done {
        result: Value,
    },
    InputRequired {
        requests: Map<String, Value>,
        state: Option<String>,
    },
    ToolError {
        text: String,
        structured: Option<Value>,
    },
    Rpc {
        code: i32,
        message: String,
        data: Option<Value>,
    },
}

/// What claiming a retry's round came to.
pub(super) enum Claimed<R> {
    /// The call carries no state: there is no round to claim.
    Unclaimed,
    /// The round is this call's to run.
    Ours(Round),
    /// The round ran: its response, for the call to end with.
    Ran(Asked<R>),
}

impl Ask {
    /// Claims the round of a retry whose state verified, waiting up to [`StateKey::CLAIM_WAIT`] for the
    /// same retry running elsewhere.
    pub(super) async fn claim<R: DeserializeOwned>(&self) -> Result<Claimed<R>, Interrupt> {
        let Some(round) = self.round() else {
            return Ok(Claimed::Unclaimed);
        };
        let store = self.key.store();
        let waited = tokio::time::Instant::now();
        loop {
            let claim = store
                .claim(&round, self.key.lease())
                .await
                .map_err(|e| Interrupt::State(StateError::Store(e.0)))?;
            match claim {
                Claim::First => return Ok(Claimed::Ours(round)),
                Claim::Recorded(response) => return Ok(Claimed::Ran(replay(response))),
                Claim::Used => return Err(Interrupt::State(StateError::Replayed)),
                Claim::Running if waited.elapsed() < StateKey::CLAIM_WAIT => {
                    tokio::time::sleep(POLL).await;
                }
                Claim::Running => return Err(Interrupt::State(StateError::InProgress)),
            }
        }
    }

    /// Records what the round came to, or releases it where the server failed, so that the
    /// client's retry runs.
    pub(super) async fn settle<R: Serialize>(&self, round: &Round, asked: &Asked<R>) {
        let store = self.key.store();
        let recorded = match asked {
            Asked::Done(result) => serde_json::to_value(result)
                .ok()
                .map(|result| Recorded::Done { result }),
            Asked::InputRequired(required) => Some(Recorded::InputRequired {
                requests: required.requests().entries().clone(),
                state: required.request_state().map(str::to_owned),
            }),
            Asked::Stopped(stop) if stop.is_fault() => None,
            Asked::Stopped(stop) => Some(match stop.ending() {
                Ending::ToolError { text, structured } => Recorded::ToolError { text, structured },
                Ending::Rpc(e) => Recorded::Rpc {
                    code: e.code,
                    message: e.message,
                    data: e.data,
                },
            }),
        };
        let settled = match recorded.and_then(|r| serde_json::to_value(r).ok()) {
            Some(response) => store.record(round, &response).await,
            None => store.release(round).await,
        };
        if let Err(e) = settled {
            trace::store_failed(&e);
        }
    }
}

/// The response a round recorded, as the call ends with it again.
fn replay<R: DeserializeOwned>(response: Value) -> Asked<R> {
    let unreadable = |e: serde_json::Error| {
        Asked::Stopped(Interrupt::Error(RpcError::internal(format!(
            "the recorded response of this round cannot be read: {e}"
        ))))
    };
    match serde_json::from_value(response) {
        Ok(Recorded::Done { result }) => match serde_json::from_value(result) {
            Ok(result) => Asked::Done(result),
            Err(e) => unreadable(e),
        },
        Ok(Recorded::InputRequired { requests, state }) => {
            let required = InputRequired::new(InputRequests::from_entries(requests));
            Asked::InputRequired(match state {
                Some(state) => required.with_request_state(state),
                None => required,
            })
        }
        Ok(Recorded::ToolError { text, structured }) => {
            Asked::Stopped(Interrupt::Recorded(Ending::ToolError { text, structured }))
        }
        Ok(Recorded::Rpc {
            code,
            message,
            data,
        }) => Asked::Stopped(Interrupt::Recorded(Ending::Rpc(RpcError {
            code,
            message,
            data,
        }))),
        Err(e) => unreadable(e),
    }
}

/// Releases a claimed round if the body never settles it: a panic, or a call dropped mid-way.
pub(super) struct Unsettled {
    store: Arc<dyn DynStore>,
    round: Option<Round>,
}

impl Unsettled {
    pub(super) fn new(store: Arc<dyn DynStore>, round: &Round) -> Self {
        Unsettled {
            store,
            round: Some(round.clone()),
        }
    }

    /// The round was settled.
    pub(super) fn settled(mut self) {
        self.round = None;
    }
}

impl Drop for Unsettled {
    fn drop(&mut self) {
        let (Some(round), Ok(runtime)) = (self.round.take(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let store = Arc::clone(&self.store);
        runtime.spawn(async move {
            if let Err(e) = store.release(&round).await {
                trace::store_failed(&e);
            }
        });
    }
}
