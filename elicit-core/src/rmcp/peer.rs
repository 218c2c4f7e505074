//! Typed elicitation on an rmcp server peer.

use std::fmt;
use std::future::Future;
use std::time::Duration;

use ::rmcp::model as m;
use ::rmcp::service::{Peer, RoleServer, ServiceError};

use crate::elicit::Elicit;
use crate::error::{ElicitError, SchemaError};
use crate::result::ElicitResult;
use crate::retry::{self, Retried, RetryPolicy};
use crate::version::ProtocolVersion;

/// Why a typed elicitation did not produce a result.
#[derive(Debug)]
#[non_exhaustive]
pub enum PeerElicitError {
    /// The client declared no `elicitation` capability. Nothing was sent.
    NoElicitationCapability,
    /// The client declared elicitation, but only URL mode. Nothing was sent.
    NoFormMode,
    /// The connection is on 2026-07-28 or later, where a server cannot send requests to the
    /// client. Ask through [`Ask`](super::Ask), which works on every version, or return an
    /// `InputRequired` from the tool (see [`InputRequests`](crate::InputRequests)). Nothing was
    /// sent.
    UseInputRequired,
    /// The client's protocol version predates elicitation (it began with 2025-06-18).
    VersionTooOld(String),
    /// The type cannot be expressed in the negotiated version (a multi-select on 2025-06-18).
    Schema(SchemaError),
    /// The client did not answer in time.
    Timeout(Duration),
    /// The user accepted, but the content broke the schema or the type's rules.
    Invalid(ElicitError),
    /// The request failed in the SDK or the transport.
    Service(ServiceError),
}

impl fmt::Display for PeerElicitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoElicitationCapability => {
                f.write_str("the client does not support elicitation")
            }
            Self::NoFormMode => f.write_str("the client supports only URL-mode elicitation"),
            Self::UseInputRequired => f.write_str(
                "server-to-client requests are not allowed on protocol 2026-07-28; return InputRequired from the tool",
            ),
            Self::VersionTooOld(v) => {
                write!(f, "the client's protocol {v} predates elicitation (2025-06-18)")
            }
            Self::Schema(e) => write!(f, "the form cannot be sent: {e}"),
            Self::Timeout(t) => write!(f, "the client did not answer within {t:?}"),
            Self::Invalid(e) => write!(f, "the answer was refused:\n{e}"),
            Self::Service(e) => write!(f, "the request failed: {e}"),
        }
    }
}

impl std::error::Error for PeerElicitError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Schema(e) => Some(e),
            Self::Invalid(e) => Some(e),
            Self::Service(e) => Some(e),
            _ => None,
        }
    }
}

/// Options of one typed elicitation.
#[derive(Debug, Clone, Default)]
pub struct ElicitOptions {
    message: Option<String>,
    timeout: Option<Duration>,
}

impl ElicitOptions {
    /// Defaults: the type's message, no timeout (the client's own applies).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Shows `message` instead of the type's.
    #[must_use]
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.message = Some(message.into());
        self
    }

    /// Gives up after `timeout`, with [`PeerElicitError::Timeout`].
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }
}

/// The newest protocol version this crate knows that is not newer than `version`: protocol
/// versions are dates, so they compare as strings. `None` before 2025-06-18.
#[must_use]
pub fn negotiated_version(version: &str) -> Option<ProtocolVersion> {
    ProtocolVersion::ALL
        .into_iter()
        .rev()
        .find(|known| known.as_str() <= version)
}

/// Checks what the client declared, and finds the version to write the form for.
fn preflight(peer: &Peer<RoleServer>) -> Result<ProtocolVersion, PeerElicitError> {
    // On 2026-07-28 there is no handshake, so no peer info: requests go through InputRequired.
    let Some(info) = peer.peer_info() else {
        return Err(PeerElicitError::UseInputRequired);
    };
    let version_text = info.protocol_version.to_string();
    let version = negotiated_version(&version_text)
        .ok_or_else(|| PeerElicitError::VersionTooOld(version_text.clone()))?;
    if version >= ProtocolVersion::V2026_07_28 {
        return Err(PeerElicitError::UseInputRequired);
    }
    let Some(capability) = &info.capabilities.elicitation else {
        return Err(PeerElicitError::NoElicitationCapability);
    };
    // `{"elicitation":{}}` means form mode, for clients written before modes existed.
    if capability.form.is_none() && capability.url.is_some() {
        return Err(PeerElicitError::NoFormMode);
    }
    Ok(version)
}

async fn ask<T: Elicit>(
    peer: &Peer<RoleServer>,
    version: ProtocolVersion,
    message: String,
    timeout: Option<Duration>,
) -> Result<Result<ElicitResult<T>, ElicitError>, PeerElicitError> {
    let request = T::form_request_for(version).map_err(PeerElicitError::Schema)?;
    let params = m::ElicitRequestParams::FormElicitationParams {
        meta: None,
        message,
        requested_schema: request
            .schema()
            .try_into()
            .map_err(PeerElicitError::Schema)?,
    };
    let reply = create(peer, params, timeout).await?;
    Ok(ElicitResult::from_rmcp(&reply))
}

/// Sends one `elicitation/create` and waits for the reply, up to `timeout`.
pub(crate) async fn create(
    peer: &Peer<RoleServer>,
    params: m::ElicitRequestParams,
    timeout: Option<Duration>,
) -> Result<m::ElicitResult, PeerElicitError> {
    peer.create_elicitation_with_timeout(params, timeout)
        .await
        .map_err(|e| match e {
            ServiceError::Timeout { timeout } => PeerElicitError::Timeout(timeout),
            other => PeerElicitError::Service(other),
        })
}

/// Typed elicitation on a server's peer. Named apart from rmcp's own `Peer::elicit`.
pub trait ElicitPeerExt {
    /// Asks the client for a `T` with the type's message, and validates the answer.
    fn elicit_typed<T: Elicit + Send>(
        &self,
    ) -> impl Future<Output = Result<ElicitResult<T>, PeerElicitError>> + Send;

    /// [`elicit_typed`](Self::elicit_typed) with a message or a timeout of your own.
    fn elicit_typed_with<T: Elicit + Send>(
        &self,
        options: ElicitOptions,
    ) -> impl Future<Output = Result<ElicitResult<T>, PeerElicitError>> + Send;

    /// Asks for a `T` until there is an answer worth keeping: once more after a cancel, and
    /// again with the violations in the message after invalid content, as `policy` allows.
    /// Every attempt is returned.
    fn elicit_typed_retrying<T: Elicit + Send>(
        &self,
        policy: RetryPolicy,
        options: ElicitOptions,
    ) -> impl Future<Output = Retried<T, PeerElicitError>> + Send;
}

impl ElicitPeerExt for Peer<RoleServer> {
    fn elicit_typed<T: Elicit + Send>(
        &self,
    ) -> impl Future<Output = Result<ElicitResult<T>, PeerElicitError>> + Send {
        self.elicit_typed_with(ElicitOptions::new())
    }

    async fn elicit_typed_with<T: Elicit + Send>(
        &self,
        options: ElicitOptions,
    ) -> Result<ElicitResult<T>, PeerElicitError> {
        let version = preflight(self)?;
        let message = options.message.unwrap_or_else(|| T::message().to_owned());
        ask::<T>(self, version, message, options.timeout)
            .await?
            .map_err(PeerElicitError::Invalid)
    }

    async fn elicit_typed_retrying<T: Elicit + Send>(
        &self,
        policy: RetryPolicy,
        options: ElicitOptions,
    ) -> Retried<T, PeerElicitError> {
        let base = options.message.unwrap_or_else(|| T::message().to_owned());
        let version = match preflight(self) {
            Ok(version) => version,
            Err(e) => {
                return Retried {
                    attempts: vec![retry::Attempt::new(
                        base,
                        retry::AttemptOutcome::Failed(e.to_string()),
                    )],
                    result: Err(e),
                };
            }
        };
        let timeout = options.timeout;
        retry::run(
            &policy,
            &base,
            T::requested_schema_for(version).ok(),
            |message| ask::<T>(self, version, message, timeout),
            PeerElicitError::Invalid,
        )
        .await
    }
}
