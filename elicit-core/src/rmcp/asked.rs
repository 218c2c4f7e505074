//! How a tool that asks ends: [`Interrupt`] stops its body through `?`, and [`Asked`] is the
//! tool's result, which rmcp turns into a `tools/call` response.

use std::fmt;

use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, ElicitationCapability,
    ErrorData, FormElicitationCapability, InputRequiredResult, UrlElicitationCapability,
};

use super::peer::PeerElicitError;
use super::state::StateError;
use super::unavailable::Unavailable;
use crate::error::{ElicitError, SchemaError};
use crate::protocol::url_mode::UrlRequestError;
use crate::version::ProtocolVersion;

/// The two modes of elicitation a client may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElicitMode {
    /// A form, with a `requestedSchema`.
    Form,
    /// A page the user opens (URL mode).
    Url,
}

impl fmt::Display for ElicitMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ElicitMode::Form => "form",
            ElicitMode::Url => "URL",
        })
    }
}

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
    /// The client did not declare the elicitation mode the question needs. Nothing was sent.
    /// On 2026-07-28 the call fails with `MissingRequiredClientCapability` (-32021); on older
    /// versions the tool's result is a tool error.
    MissingCapability {
        /// The mode the question needs.
        mode: ElicitMode,
        /// The request's protocol version.
        version: ProtocolVersion,
    },
    /// The request names no protocol version, or one older than elicitation (2025-06-18).
    Version(Option<String>),
    /// A URL-mode question the version cannot carry (2025-06-18), or a URL that is not absolute.
    Url(UrlRequestError),
    /// A live request failed: the form cannot be written for the version (a multi-select on
    /// 2025-06-18), the client did not answer in time, or the transport failed.
    Peer(PeerElicitError),
    /// The `requestState` of the retry was refused. The body did not run.
    State(StateError),
    /// One key was asked as two different questions in the same call.
    KeyReused {
        /// The key.
        key: String,
        /// What it was asked as first.
        first: String,
        /// What it was asked as now.
        now: String,
    },
    /// The call took more rounds than the cap allows.
    TooManyRounds(u32),
    /// The client cannot show a question that may be answered from the tool's arguments
    /// ([`FormQuestion::or_arguments`](super::FormQuestion::or_arguments)), and they hold no
    /// answer. The tool's result is a tool error, on every version, saying what the tool needs
    /// and in which argument.
    Unavailable(Box<Unavailable>),
    /// A question was awaited outside [`Ask::run`](super::Ask::run): on 2026-07-28 nothing
    /// would turn its wait for an answer into the round that asks for it, so it is refused on
    /// every version. Nothing was sent.
    OutsideRun,
    /// An error of the tool's own, passed through `?`.
    Error(ErrorData),
}

impl fmt::Display for Interrupt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Interrupt::InputRequired => f.write_str("the tool is waiting for the user's answers"),
            Interrupt::Invalid { error, .. } => write!(f, "the answer was refused:\n{error}"),
            // 2025-06-18 has no modes: a client there supports elicitation or does not.
            Interrupt::MissingCapability {
                version: ProtocolVersion::V2025_06_18,
                ..
            } => f.write_str("the client does not support elicitation"),
            Interrupt::MissingCapability { mode, .. } => {
                write!(f, "the client does not support {mode}-mode elicitation")
            }
            Interrupt::Version(None) => f.write_str("the request names no protocol version"),
            Interrupt::Version(Some(v)) => {
                write!(
                    f,
                    "the client's protocol {v} predates elicitation (2025-06-18)"
                )
            }
            Interrupt::Url(e) => e.fmt(f),
            Interrupt::Peer(e) => e.fmt(f),
            Interrupt::State(e) => e.fmt(f),
            Interrupt::KeyReused { key, first, now } => write!(
                f,
                "the key {key:?} was asked as {first} and again as {now}; give each question its own key"
            ),
            Interrupt::TooManyRounds(cap) => write!(
                f,
                "the call still had unanswered questions after {cap} rounds"
            ),
            Interrupt::Unavailable(u) => u.fmt(f),
            Interrupt::OutsideRun => f.write_str(
                "a question was asked outside `ask.run`: write the tool's body as `ask.run(async { .. }).await`",
            ),
            Interrupt::Error(e) => write!(f, "{}", e.message),
        }
    }
}

impl std::error::Error for Interrupt {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Interrupt::Invalid { error, .. } => Some(error),
            Interrupt::Url(e) => Some(e),
            Interrupt::Peer(e) => Some(e),
            Interrupt::State(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ErrorData> for Interrupt {
    fn from(error: ErrorData) -> Self {
        Interrupt::Error(error)
    }
}

/// A form that cannot be built (`Form::choices(..)?` naming no field of the form, say) stops
/// the body with a fault in the tool, which names the field.
impl From<SchemaError> for Interrupt {
    fn from(error: SchemaError) -> Self {
        Interrupt::Peer(PeerElicitError::Schema(error))
    }
}

/// The client is told one thing whatever was wrong with its state, as rmcp's codec advises.
const STATE_REFUSED: &str = "the requestState was refused: it was altered, has expired, or belongs to another call; call the tool again without it";

impl Interrupt {
    /// Whether this is the stop of a round that asks the client for answers.
    #[must_use]
    pub fn is_input_required(&self) -> bool {
        matches!(self, Interrupt::InputRequired)
    }

    /// The `tools/call` response this interrupt ends the call with: a tool error (`isError`)
    /// for what the user or the client's answers caused, a JSON-RPC error for a request the
    /// server refuses or a fault in the tool.
    pub fn into_response(self) -> Result<CallToolResponse, ErrorData> {
        match self {
            Interrupt::MissingCapability { mode, version } if version.has_input_requests() => {
                let elicitation =
                    match mode {
                        ElicitMode::Form => ElicitationCapability::new()
                            .with_form(FormElicitationCapability::default()),
                        ElicitMode::Url => ElicitationCapability::new()
                            .with_url(UrlElicitationCapability::default()),
                    };
                let required = ClientCapabilities::builder()
                    .enable_elicitation_with(elicitation)
                    .build();
                Err(ErrorData::missing_required_client_capability(required))
            }
            Interrupt::State(_) => Err(ErrorData::invalid_params(STATE_REFUSED, None)),
            Interrupt::Unavailable(u) => {
                let mut result = CallToolResult::error(vec![ContentBlock::text(u.to_string())]);
                if u.structured {
                    result.structured_content = Some(u.structured_content());
                }
                Ok(result.into())
            }
            Interrupt::Error(e) => Err(e),
            e @ (Interrupt::InputRequired
            | Interrupt::OutsideRun
            | Interrupt::KeyReused { .. }
            | Interrupt::TooManyRounds(_)) => Err(ErrorData::internal_error(e.to_string(), None)),
            other => Ok(CallToolResult::error(vec![ContentBlock::text(other.to_string())]).into()),
        }
    }
}

/// What a tool that asks returns: its own result, a request for the user's answers
/// (2026-07-28), or the [`Interrupt`] that stopped it.
///
/// A `#[tool]` function can return it directly: it implements rmcp's `IntoCallToolResult`
/// when `R` does. In a hand-written `call_tool`, use [`into_response`](Asked::into_response).
#[must_use = "the tool's result must be returned to the client"]
#[derive(Debug)]
pub struct Asked<R> {
    outcome: Outcome<R>,
}

#[derive(Debug)]
enum Outcome<R> {
    Done(R),
    InputRequired(Box<InputRequiredResult>),
    Stopped(Interrupt),
}

impl<R> Asked<R> {
    /// The tool finished with `result`.
    pub fn done(result: R) -> Self {
        Asked {
            outcome: Outcome::Done(result),
        }
    }

    /// The tool stopped.
    pub fn stopped(interrupt: Interrupt) -> Self {
        Asked {
            outcome: Outcome::Stopped(interrupt),
        }
    }

    pub(crate) fn input_required(result: InputRequiredResult) -> Self {
        Asked {
            outcome: Outcome::InputRequired(Box::new(result)),
        }
    }

    /// The tool's own result, if it finished.
    pub fn result(&self) -> Option<&R> {
        match &self.outcome {
            Outcome::Done(result) => Some(result),
            _ => None,
        }
    }

    /// The request for answers, if the round ended asking (2026-07-28).
    pub fn input_requests(&self) -> Option<&InputRequiredResult> {
        match &self.outcome {
            Outcome::InputRequired(result) => Some(result),
            _ => None,
        }
    }

    /// What stopped the tool, if something did.
    pub fn interrupt(&self) -> Option<&Interrupt> {
        match &self.outcome {
            Outcome::Stopped(interrupt) => Some(interrupt),
            _ => None,
        }
    }

    /// The `tools/call` response.
    pub fn into_response(self) -> Result<CallToolResponse, ErrorData>
    where
        R: IntoCallToolResult,
    {
        match self.outcome {
            Outcome::Done(result) => result.into_call_tool_result(),
            Outcome::InputRequired(result) => Ok((*result).into()),
            Outcome::Stopped(interrupt) => interrupt.into_response(),
        }
    }
}

impl<R: IntoCallToolResult> IntoCallToolResult for Asked<R> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        self.into_response()
    }
}

/// Of two stops, the one that ends the call: a failure over a wait for answers.
pub(crate) fn graver(first: Option<Interrupt>, next: Interrupt) -> Interrupt {
    match first {
        Some(first) if !first.is_input_required() || next.is_input_required() => first,
        _ => next,
    }
}
