//! How a tool that asks ends: [`Interrupt`] stops its body through `?`, and [`Asked`] is the
//! tool's result, which an adapter turns into its SDK's `tools/call` response.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::port::SendError;
use super::question::unavailable::Unavailable;
use super::state::{Change, StateError};
use crate::error::{ElicitError, SchemaError};
use crate::protocol::client::Capability;
use crate::protocol::input::InputRequired;
use crate::protocol::jsonrpc::RpcError;
use crate::protocol::url_mode::UrlRequestError;
use crate::version::ProtocolVersion;

/// Why a tool's body stopped at an ask. Asks return it as their error, so `?` ends the body;
/// [`Ask::run`](super::Ask::run) turns it into the tool's result.
#[derive(Debug)]
#[non_exhaustive]
pub enum Interrupt {
    /// A question has no answer yet (2026-07-28): the tool's result asks the client for it, and
    /// the retried call runs the body again. Let it through with `?`.
    InputRequired,
    /// The user accepted, but the content broke the form's rules, after every retry the policy
    /// allowed. The tool's result is a tool error naming each offending property.
    Invalid {
        /// The question's key.
        key: String,
        /// Every violation.
        error: ElicitError,
    },
    /// The client did not declare what the question needs: the elicitation mode, sampling
    /// (with tools, where the request gives tools) or roots. Nothing was sent. On 2026-07-28
    /// the call fails with `MissingRequiredClientCapability` (-32021); on older versions the
    /// tool's result is a tool error.
    MissingCapability {
        /// What the question needs.
        capability: Capability,
        /// The version the question was written for.
        version: ProtocolVersion,
    },
    /// The request names no protocol version, or one this crate does not know.
    Version(Option<String>),
    /// A URL-mode question the version cannot carry (2025-06-18), or a URL that is not absolute.
    Url(UrlRequestError),
    /// A request could not be sent: the form cannot be written for the version or carried
    /// whole by the SDK, or (live) the transport failed. A deadline that passes is no
    /// interrupt: the question ends as a cancel that timed out.
    Send(SendError),
    /// The `requestState` of the retry was refused, or the server could seal none
    /// ([`StateError::Unsealed`]). The body did not run.
    State(StateError),
    /// One key was asked twice in one [`Ask::all`](super::Ask::all): a round asks each key
    /// once.
    KeyReused {
        /// The key.
        key: String,
    },
    /// A question changed again after it was asked again for having changed once: on
    /// 2026-07-28 the body computes it anew in every round, so it can never be answered.
    Changed {
        /// The question's key.
        key: String,
        /// What changed.
        change: Change,
    },
    /// The call took more rounds than the cap allows.
    TooManyRounds {
        /// The cap.
        cap: u32,
        /// The keys still unanswered.
        pending: Vec<String>,
    },
    /// The client cannot show a question that may be answered from the tool's arguments
    /// ([`FormQuestion::or_arguments`](super::FormQuestion::or_arguments)), and they hold no
    /// answer. The tool's result is a tool error, on every version, saying what the tool needs
    /// and in which argument.
    Unavailable(Box<Unavailable>),
    /// A question was awaited outside [`Ask::run`](super::Ask::run): on 2026-07-28 nothing
    /// would turn its wait for an answer into the round that asks for it, so it is refused on
    /// every version. Nothing was sent.
    OutsideRun,
    /// An error of the tool's own, passed through `?`: the call ends with it as a JSON-RPC
    /// error. Like every ending of a body that began, it is recorded: the same retry sent
    /// again gets it, and the body does not run again.
    Error(RpcError),
    /// An error the tool says came before any effect ([`Interrupt::retryable`]): the call ends
    /// with it as a JSON-RPC error, and its round is released, so a retry runs the body again.
    Retryable(RpcError),
    /// The same retry ran before and ended this way, as its store recorded: the call ends the
    /// same way again, and the body did not run.
    Recorded(Ending),
}

impl fmt::Display for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interrupt::InputRequired => f.write_str("the tool is waiting for the user's answers"),
            Interrupt::Invalid { error, .. } => write!(f, "the answer was refused:\n{error}"),
            // 2025-06-18 has no modes: a client there supports elicitation or does not.
            Interrupt::MissingCapability {
                capability: Capability::Form,
                version: ProtocolVersion::V2025_06_18,
            } => f.write_str("the client does not support elicitation"),
            Interrupt::MissingCapability { capability, .. } => {
                write!(f, "the client does not support {capability}")
            }
            Interrupt::Version(None) => f.write_str("the request names no protocol version"),
            Interrupt::Version(Some(v)) => {
                write!(f, "the request's protocol version {v:?} is not one this server knows")
            }
            Interrupt::Url(e) => e.fmt(f),
            Interrupt::Send(e) => e.fmt(f),
            Interrupt::State(e) => e.fmt(f),
            Interrupt::KeyReused { key } => write!(
                f,
                "the key {key:?} was asked twice in one `ask.all(..)`, where a round asks each \
                 key once; give each question its own key"
            ),
            Interrupt::Changed { key, change } => write!(
                f,
                "the question {key:?} changed again after it was asked again ({change} is \
                 different in every round), so it can never be answered: on 2026-07-28 the \
                 tool's body runs once per round, so compute what the question shows once, \
                 with `ask.once(..)`, to keep it the same in every round"
            ),
            Interrupt::TooManyRounds { cap, pending } => {
                write!(f, "the call still had unanswered questions after {cap} rounds")?;
                if !pending.is_empty() {
                    write!(f, ": {}", pending.join(", "))?;
                }
                Ok(())
            }
            Interrupt::Unavailable(u) => u.fmt(f),
            Interrupt::OutsideRun => f.write_str(
                "a question was asked outside `ask.run`: write the tool's body as `ask.run(async { .. }).await`",
            ),
            Interrupt::Error(e) | Interrupt::Retryable(e) => f.write_str(&e.message),
            Interrupt::Recorded(Ending::ToolError { text, .. }) => f.write_str(text),
            Interrupt::Recorded(Ending::Rpc(e)) => f.write_str(&e.message),
        }
    }
}

impl std::error::Error for Interrupt {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Interrupt::Invalid { error, .. } => Some(error),
            Interrupt::Url(e) => Some(e),
            Interrupt::Send(e) => Some(e),
            Interrupt::State(e) => Some(e),
            _ => None,
        }
    }
}

/// An error that `?` turns into an [`Interrupt`] in a tool's body: the JSON-RPC error of this
/// crate and of each SDK, which ends the call with it, and a form that cannot be built. Any
/// other error says first what it means for the call: `?` on one is a compile error that says
/// how to map it.
#[diagnostic::on_unimplemented(
    message = "`?` cannot turn a `{Self}` into an `Interrupt`: say first what it means for the call",
    label = "map it first: `.map_err(|e| RpcError::internal(e.to_string()))?` ends the call with an error the client sees; `.map_err(|e| Interrupt::retryable(RpcError::internal(e.to_string())))?` lets the client try again, where nothing happened yet",
    note = "`RpcError` is `elicit_core::protocol::jsonrpc::RpcError`; an SDK's own error type (rmcp's `ErrorData`) works as well"
)]
pub trait IntoInterrupt {
    /// What the error stops the body with.
    fn into_interrupt(self) -> Interrupt;
}

impl<E: IntoInterrupt> From<E> for Interrupt {
    fn from(error: E) -> Self {
        error.into_interrupt()
    }
}

#[diagnostic::do_not_recommend]
impl IntoInterrupt for RpcError {
    fn into_interrupt(self) -> Interrupt {
        Interrupt::Error(self)
    }
}

/// A form that cannot be built (`Form::choices(..)?` naming no field of the form, say) stops
/// the body with a fault in the tool, which names the field.
#[diagnostic::do_not_recommend]
impl IntoInterrupt for SchemaError {
    fn into_interrupt(self) -> Interrupt {
        Interrupt::Send(SendError::Schema(self))
    }
}

/// What the client is told of a state that was used already.
const STATE_USED: &str = "the requestState was refused: it was used already, with other answers or in a round its call has moved on from; call the tool again without it";

/// What the client is told while the same retry runs elsewhere.
const STATE_IN_PROGRESS: &str =
    "this retry is still being answered by an earlier copy of it; send it again shortly";

/// What the client is told of any other refused state, whatever was wrong with it, as rmcp's
/// codec advises.
const STATE_REFUSED: &str = "the requestState was refused: it was altered, has expired, or belongs to another call or caller; call the tool again without it";

/// What the client is told of a store that failed before the body ran: its own text goes to
/// the server's traces.
const STORE_UNAVAILABLE: &str = "the state store is unavailable; nothing ran, try again shortly";

/// What the client is told of a store that could not keep a first call's round: the body ran
/// up to its first question.
const STORE_UNKEPT: &str = "the state store is unavailable, so the tool's questions could not be asked; call the tool again shortly";

/// What the client is told of a call whose rounds go to servers that do not share one store.
const STATE_UNSHARED: &str = "this call cannot go on: its rounds reach servers that have no record of them (they do not share one store), so its earlier answers may or may not have taken effect";

/// What the client is told of a call whose store kept losing its rounds.
const STATE_FORGOTTEN: &str = "this call cannot go on: the server lost its record of the call's rounds again and again (its store restarted, or let them go to make room), so its earlier answers may or may not have taken effect; call the tool again";

/// How an interrupted call ends on the wire, whatever the SDK.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// A tool result with `isError: true`: what the user or the client's answers caused.
    ToolError {
        /// Its one text block.
        text: String,
        /// Its `structuredContent`, where it has one.
        structured: Option<Value>,
    },
    /// A JSON-RPC error: a request the server refuses, or a fault in the tool.
    Rpc(RpcError),
}

impl Interrupt {
    /// Whether this is the stop of a round that asks the client for answers.
    #[must_use]
    pub fn is_input_required(&self) -> bool {
        matches!(self, Interrupt::InputRequired)
    }

    /// The stop of a body that knows its error came before any effect: a store that failed,
    /// an input that was wrong, a service it checked first that was down. The call ends with
    /// `error` as a JSON-RPC error, as with `?`, but its round is released rather than
    /// recorded, so that the client's retry runs the body again. Every other ending of a body
    /// that began is recorded, and a retry gets it again without running anything: use this
    /// only where nothing happened yet.
    ///
    /// ```
    /// # use elicit_core::prelude::*;
    /// # use elicit_core::RpcError;
    /// # async fn balance() -> Result<u32, String> { Ok(200) }
    /// # async fn body(ask: &Ask) -> Result<String, Interrupt> {
    /// // Nothing was paid yet: a retry may run this again.
    /// let funds = balance()
    ///     .await
    ///     .map_err(|e| Interrupt::retryable(RpcError::internal(e)))?;
    /// # Ok(funds.to_string())
    /// # }
    /// ```
    #[must_use]
    pub fn retryable(error: impl Into<RpcError>) -> Self {
        Interrupt::Retryable(error.into())
    }

    /// Whether a round that ended this way is released rather than recorded: it stopped
    /// before any effect could have happened.
    pub(crate) fn releases_round(&self) -> bool {
        matches!(
            self,
            Interrupt::Retryable(_) | Interrupt::State(StateError::Unsealed(_))
        )
    }

    /// How the call ends: a tool error (`isError`) for what the user or the client's answers
    /// caused, a JSON-RPC error for a request the server refuses or a fault in the tool.
    #[must_use]
    pub fn ending(&self) -> Ending {
        match self {
            Interrupt::MissingCapability {
                capability,
                version,
            } if version.has_input_requests() => {
                Ending::Rpc(RpcError::missing_capability(capability.required()))
            }
            // The server could not seal, its key cannot tell who the caller is, or its store
            // is unreachable: its fault, which no change of the client's mends. The cause went
            // to traces where it arose.
            Interrupt::State(e @ StateError::Unsealed(_)) => {
                Ending::Rpc(RpcError::internal(e.to_string()))
            }
            Interrupt::State(StateError::Store(_)) => {
                Ending::Rpc(RpcError::internal(STORE_UNAVAILABLE))
            }
            Interrupt::State(StateError::Forgotten) => {
                Ending::Rpc(RpcError::internal(STATE_FORGOTTEN))
            }
            Interrupt::State(StateError::Unshared) => {
                Ending::Rpc(RpcError::internal(STATE_UNSHARED))
            }
            Interrupt::State(StateError::Unkept(_)) => {
                Ending::Rpc(RpcError::internal(STORE_UNKEPT))
            }
            Interrupt::State(e @ StateError::TooLarge { .. }) => Ending::ToolError {
                text: e.to_string(),
                structured: None,
            },
            Interrupt::State(StateError::InProgress) => {
                Ending::Rpc(RpcError::internal(STATE_IN_PROGRESS))
            }
            Interrupt::State(StateError::Replayed) => {
                Ending::Rpc(RpcError::invalid_params(STATE_USED))
            }
            Interrupt::State(_) => Ending::Rpc(RpcError::invalid_params(STATE_REFUSED)),
            Interrupt::Unavailable(u) => Ending::ToolError {
                text: u.to_string(),
                structured: u.structured.then(|| u.structured_content()),
            },
            Interrupt::Error(e) | Interrupt::Retryable(e) => Ending::Rpc(e.clone()),
            Interrupt::Recorded(ending) => ending.clone(),
            e @ (Interrupt::InputRequired
            | Interrupt::OutsideRun
            | Interrupt::KeyReused { .. }
            | Interrupt::Changed { .. }
            | Interrupt::TooManyRounds { .. }) => Ending::Rpc(RpcError::internal(e.to_string())),
            other => Ending::ToolError {
                text: other.to_string(),
                structured: None,
            },
        }
    }
}

/// What a tool that asks returns: its own result, a request for the user's answers
/// (2026-07-28), or the [`Interrupt`] that stopped it.
///
/// Return it as it is: a `#[tool]` function of rmcp can return it directly (it implements
/// rmcp's `IntoCallToolResult` when `R` does), and elsewhere an adapter's `into_response`
/// turns it into the SDK's response. To change the tool's own result, [`map`](Asked::map) it:
/// the other two variants carry questions still to be answered, or why the call stopped, and
/// a tool that drops them behaves differently on 2026-07-28, where
/// [`InputRequired`](Asked::InputRequired) is the question itself, than before it, where the
/// question was asked live while the body ran.
///
/// ```
/// # use elicit_core::ask::{Ask, Asked};
/// # async fn plan(ask: &Ask) -> Asked<String> { ask.run(async { Ok("3 nights".to_owned()) }).await }
/// async fn shout(ask: &Ask) -> Asked<String> {
///     plan(ask).await.map(|plan| plan.to_uppercase())
/// }
/// # let _ = shout;
/// ```
#[must_use = "the tool's result must be returned to the client: it may hold the questions of this round"]
#[derive(Debug)]
pub enum Asked<R> {
    /// The tool finished with its own result.
    Done(R),
    /// The round ended asking for answers (2026-07-28): the requests and the sealed state.
    InputRequired(InputRequired),
    /// The tool stopped.
    Stopped(Interrupt),
}

impl<R> Asked<R> {
    /// The tool's own result changed by `f`; a round that asks and a stop stay as they are.
    pub fn map<S>(self, f: impl FnOnce(R) -> S) -> Asked<S> {
        match self {
            Asked::Done(result) => Asked::Done(f(result)),
            Asked::InputRequired(required) => Asked::InputRequired(required),
            Asked::Stopped(interrupt) => Asked::Stopped(interrupt),
        }
    }
}

/// Of two stops, the one that ends the call: a failure over a wait for answers.
pub(crate) fn graver(first: Option<Interrupt>, next: Interrupt) -> Interrupt {
    match first {
        Some(first) if !first.is_input_required() || next.is_input_required() => first,
        _ => next,
    }
}

#[cfg(test)]
#[path = "../../unit/ask/asked.rs"]
mod tests;
