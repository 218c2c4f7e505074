//! URL mode (2025-11-25 and later): sending the user to a page instead of showing a form.
//!
//! Use it for what form mode must not carry (passwords, API keys, payment details): the data goes
//! to your page, never through the client.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, DeserializeSeed, Deserializer};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value, json};

use crate::error::ElicitError;
use crate::protocol::jsonrpc::{self, RequestId};
use crate::reply;
use crate::reply::envelope::Envelope;
use crate::reply::sink::Sink;
use crate::result::ElicitAction;
use crate::schema::Lint;
use crate::schema::RequestedSchema;
use crate::version::ProtocolVersion;

/// A message that a protocol version cannot carry, or a URL request with bad parts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum UrlRequestError {
    /// The feature does not exist in this protocol version.
    Unsupported {
        /// What was asked for.
        feature: &'static str,
        /// The version that lacks it.
        version: ProtocolVersion,
    },
    /// The URL is not an absolute `http` or `https` URL with a host.
    InvalidUrl(String),
    /// The elicitation id is empty.
    EmptyElicitationId,
    /// A -32042 error lists no URL elicitation.
    NoElicitations,
}

impl fmt::Display for UrlRequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UrlRequestError::Unsupported { feature, version } => {
                write!(f, "{feature} is not part of MCP {version}")
            }
            UrlRequestError::InvalidUrl(url) => write!(
                f,
                "{url:?} is not an absolute http or https URL with a host (RFC 3986)"
            ),
            UrlRequestError::EmptyElicitationId => f.write_str("the elicitation id is empty"),
            UrlRequestError::NoElicitations => {
                f.write_str("a -32042 error must list at least one URL elicitation")
            }
        }
    }
}

impl std::error::Error for UrlRequestError {}

fn only_on(
    feature: &'static str,
    version: ProtocolVersion,
    allowed: impl Fn(ProtocolVersion) -> bool,
) -> Result<(), UrlRequestError> {
    if allowed(version) {
        Ok(())
    } else {
        Err(UrlRequestError::Unsupported { feature, version })
    }
}

/// The params of an `elicitation/create` request in URL mode:
/// `{"mode":"url","message":..,"url":..,"elicitationId":..}`.
///
/// 2025-11-25 sends the `elicitationId`, which the server later names in
/// [`ElicitationComplete`]. 2026-07-28 removed it from the wire: the request is identified by
/// its `inputRequests` key instead, so it is not written there.
///
/// ```
/// use elicit_core::{ProtocolVersion, UrlRequest};
///
/// let req = UrlRequest::new(
///     ProtocolVersion::V2025_11_25,
///     "Connect your GitHub account",
///     "https://example.com/connect?session=42",
///     "connect-42",
/// )
/// .unwrap();
/// assert_eq!(req.to_value()["elicitationId"], "connect-42");
/// assert!(UrlRequest::new(ProtocolVersion::V2025_06_18, "m", "https://example.com", "id").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlRequest<'a> {
    message: Cow<'a, str>,
    url: Cow<'a, str>,
    elicitation_id: Cow<'a, str>,
    version: ProtocolVersion,
}

impl<'a> UrlRequest<'a> {
    /// A URL-mode request. Fails on 2025-06-18, which has no URL mode; for a URL that is not an
    /// absolute `http` or `https` URL with a host (a `javascript:` or `data:` URL would run in
    /// the client); and for an empty id on 2025-11-25 (2026-07-28 does not send the id). An
    /// `http` URL is allowed; [`lint`](Self::lint) notes it, as the specification says servers
    /// SHOULD use HTTPS.
    pub fn new(
        version: ProtocolVersion,
        message: impl Into<Cow<'a, str>>,
        url: impl Into<Cow<'a, str>>,
        elicitation_id: impl Into<Cow<'a, str>>,
    ) -> Result<Self, UrlRequestError> {
        only_on("URL mode elicitation", version, ProtocolVersion::has_modes)?;
        let url = url.into();
        if crate::format::web_url(&url).is_none() {
            return Err(UrlRequestError::InvalidUrl(url.into_owned()));
        }
        let elicitation_id = elicitation_id.into();
        // 2026-07-28 sends no id (the `inputRequests` key names the request), so it may be empty.
        if elicitation_id.is_empty() && version < ProtocolVersion::V2026_07_28 {
            return Err(UrlRequestError::EmptyElicitationId);
        }
        Ok(UrlRequest {
            message: message.into(),
            url,
            elicitation_id,
            version,
        })
    }

    /// The message shown to the user.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The page the user is sent to.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The id of this elicitation.
    #[must_use]
    pub fn elicitation_id(&self) -> &str {
        &self.elicitation_id
    }

    /// The protocol version the request is written for.
    #[must_use]
    pub fn version(&self) -> ProtocolVersion {
        self.version
    }

    /// The params as a JSON value.
    #[must_use]
    pub fn to_value(&self) -> Value {
        jsonrpc::to_value(self)
    }

    /// What a careful client may object to: an `http` URL, where the specification says servers
    /// SHOULD use HTTPS.
    #[must_use]
    pub fn lint(&self) -> Vec<Lint> {
        match crate::format::web_url(&self.url) {
            Some(false) => vec![Lint {
                property: None,
                message:
                    "the URL is http, not https: the specification says servers SHOULD use HTTPS"
                        .into(),
            }],
            _ => Vec::new(),
        }
    }

    /// The params written for another version that has URL mode.
    pub(crate) fn to_value_for(&self, version: ProtocolVersion) -> Value {
        let mut request = self.clone();
        request.version = version;
        request.to_value()
    }

    /// The whole JSON-RPC `elicitation/create` request. 2026-07-28 has no such request (a server
    /// returns it in `inputRequests`; see [`InputRequests::url`](crate::InputRequests::url)),
    /// so a request written for it is refused.
    pub fn to_jsonrpc(&self, id: impl Into<RequestId>) -> Result<Value, UrlRequestError> {
        only_on("an elicitation/create request", self.version, |v| {
            !v.has_input_requests()
        })?;
        Ok(jsonrpc::request(id.into(), "elicitation/create", self))
    }
}

impl Serialize for UrlRequest<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("mode", "url")?;
        map.serialize_entry("message", &self.message)?;
        map.serialize_entry("url", &self.url)?;
        if self.version < ProtocolVersion::V2026_07_28 {
            map.serialize_entry("elicitationId", &self.elicitation_id)?;
        }
        map.end()
    }
}

/// The answer to a URL-mode elicitation. Accept means the user agreed to open the page; it
/// carries no content, and any content sent with it is ignored.
#[must_use = "a URL elicitation result says whether the user agreed to open the page"]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UrlElicitResult {
    /// The user agreed to open the page.
    Accept,
    /// The user refused. Do not ask again.
    Decline,
    /// The user dismissed the request. Asking once more is fine.
    Cancel,
}

impl UrlElicitResult {
    /// The action the user took.
    #[must_use]
    pub fn action(self) -> ElicitAction {
        match self {
            UrlElicitResult::Accept => ElicitAction::Accept,
            UrlElicitResult::Decline => ElicitAction::Decline,
            UrlElicitResult::Cancel => ElicitAction::Cancel,
        }
    }

    /// Parses a reply from JSON text or bytes ([`JsonText`](crate::JsonText)), under the
    /// default [`Limits`](crate::Limits).
    pub fn from_json(json: &(impl crate::JsonText + ?Sized)) -> Result<Self, ElicitError> {
        let read = reply::consent_from_text(json, &crate::limits::Limits::DEFAULT)?;
        Ok(Self::from_action(read.action()))
    }

    /// Parses a reply held as a JSON value.
    pub fn from_value(reply: &Value) -> Result<Self, ElicitError> {
        reply::consent_from_value(reply).map(|r| Self::from_action(r.action()))
    }

    fn from_action(action: ElicitAction) -> Self {
        match action {
            ElicitAction::Accept => UrlElicitResult::Accept,
            ElicitAction::Decline => UrlElicitResult::Decline,
            ElicitAction::Cancel => UrlElicitResult::Cancel,
        }
    }
}

impl<'de> Deserialize<'de> for UrlElicitResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let sink = Sink::new(RequestedSchema::empty(), &crate::limits::Limits::DEFAULT);
        match Envelope::consent(&sink).deserialize(d) {
            Ok(result) => Ok(Self::from_action(result.action())),
            Err(e) if sink.is_empty() => Err(e),
            Err(_) => Err(serde::de::Error::custom(sink.into_error())),
        }
    }
}

impl Serialize for UrlElicitResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("action", self.action().as_str())?;
        map.end()
    }
}

/// `notifications/elicitation/complete` (2025-11-25): tells the client that the page of a URL
/// elicitation was completed, so it can retry what waited on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElicitationComplete {
    elicitation_id: String,
}

impl ElicitationComplete {
    /// The notification for `elicitation_id`. Only 2025-11-25 has it: 2025-06-18 has no URL mode,
    /// and 2026-07-28 completes a URL elicitation by the retried request instead.
    pub fn new(
        version: ProtocolVersion,
        elicitation_id: impl Into<String>,
    ) -> Result<Self, UrlRequestError> {
        only_on("notifications/elicitation/complete", version, |v| {
            v == ProtocolVersion::V2025_11_25
        })?;
        let elicitation_id = elicitation_id.into();
        if elicitation_id.is_empty() {
            return Err(UrlRequestError::EmptyElicitationId);
        }
        Ok(ElicitationComplete { elicitation_id })
    }

    /// The params: `{"elicitationId":..}`.
    #[must_use]
    pub fn params(&self) -> Value {
        json!({ "elicitationId": self.elicitation_id })
    }

    /// The whole JSON-RPC notification.
    #[must_use]
    pub fn to_jsonrpc(&self) -> Value {
        jsonrpc::notification("notifications/elicitation/complete", self.params())
    }
}

/// The `-32042` URLElicitationRequiredError (2025-11-25): a request failed because the user must
/// first complete one or more URL elicitations, listed in `data.elicitations`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UrlElicitationRequired<'a> {
    message: Cow<'a, str>,
    elicitations: Vec<UrlRequest<'a>>,
}

impl<'a> UrlElicitationRequired<'a> {
    /// Its JSON-RPC error code.
    pub const CODE: i64 = -32042;

    /// The error, with its message and the URL elicitations to complete. Only 2025-11-25 has it;
    /// every elicitation must be written for that version.
    pub fn new(
        version: ProtocolVersion,
        message: impl Into<Cow<'a, str>>,
        elicitations: Vec<UrlRequest<'a>>,
    ) -> Result<Self, UrlRequestError> {
        let is_2025_11_25 = |v| v == ProtocolVersion::V2025_11_25;
        only_on(
            "the -32042 URL elicitation required error",
            version,
            is_2025_11_25,
        )?;
        if elicitations.is_empty() {
            return Err(UrlRequestError::NoElicitations);
        }
        if let Some(other) = elicitations.iter().find(|e| !is_2025_11_25(e.version)) {
            return Err(UrlRequestError::Unsupported {
                feature: "a URL elicitation inside a -32042 error",
                version: other.version,
            });
        }
        Ok(UrlElicitationRequired {
            message: message.into(),
            elicitations,
        })
    }

    /// The JSON-RPC error object: `{"code":-32042,"message":..,"data":{"elicitations":[..]}}`.
    pub fn error_object(&self) -> Value {
        json!({
            "code": Self::CODE,
            "message": self.message,
            "data": { "elicitations": self.elicitations.iter().map(UrlRequest::to_value).collect::<Vec<_>>() },
        })
    }

    /// The whole JSON-RPC error response to the request `id`.
    pub fn to_jsonrpc(&self, id: impl Into<RequestId>) -> Value {
        json!({ "jsonrpc": "2.0", "id": id.into(), "error": self.error_object() })
    }
}
