//! The client side: reading what a server sends into typed values (an `elicitation/create`,
//! `sampling/createMessage` or `roots/list` request, the completion notification, the -32042
//! error), and the capabilities a client declares. For clients, proxies and tests, with or without rmcp.
//!
//! Some servers send a `pattern`, which the MCP subset does not have: a client reads such a
//! form with elicit-core's `pattern` feature, and without it gets [`ReadError::Schema`] naming
//! the property and the feature.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::error::SchemaError;
#[cfg(feature = "sampling")]
use crate::protocol::sampling::SamplingRequest;
use crate::protocol::url_mode::{
    ElicitationComplete, UrlElicitationRequired, UrlRequest, UrlRequestError,
};
use crate::schema::RequestedSchema;
use crate::schema::request::FormRequest;
use crate::version::ProtocolVersion;

/// Why a server's message could not be read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ReadError {
    /// A member is missing or of the wrong JSON type; the text names it.
    Shape(String),
    /// The `requestedSchema` is not one MCP elicitation allows.
    Schema(SchemaError),
    /// A URL-mode part the version does not have, or a bad URL or id.
    Url(UrlRequestError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Shape(what) => f.write_str(what),
            ReadError::Schema(e) => write!(f, "the requestedSchema cannot be used: {e}"),
            ReadError::Url(e) => write!(f, "the URL-mode request cannot be used: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

fn shape(what: impl Into<String>) -> ReadError {
    ReadError::Shape(what.into())
}

/// One request a server makes of a client: a form or a URL-mode page (`elicitation/create`),
/// a completion from the client's model (`sampling/createMessage`), or its roots
/// (`roots/list`). A server's [`Ask`](crate::ask::Ask) writes them; a client reads them.
///
/// ```
/// use elicit_core::client::Request;
/// use elicit_core::ProtocolVersion;
///
/// let params = serde_json::json!({
///     "mode": "form",
///     "message": "Book a table",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
/// });
/// let Request::Form(form) = Request::from_params(&params, ProtocolVersion::V2025_11_25)? else {
///     panic!("a form");
/// };
/// assert_eq!(form.message(), "Book a table");
/// assert_eq!(form.schema().properties()[0].name, "name");
/// # Ok::<(), elicit_core::client::ReadError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Request {
    /// A form: the message and the schema to fill in.
    Form(FormRequest<'static>),
    /// A page to open (2025-11-25 and later).
    Url(UrlRequest<'static>),
    /// A completion from the client's model (`sampling/createMessage`; feature `sampling`).
    #[cfg(feature = "sampling")]
    Sample(SamplingRequest),
    /// The client's roots (`roots/list`; feature `sampling`).
    #[cfg(feature = "sampling")]
    Roots,
}

impl Request {
    /// The request's JSON-RPC method.
    #[must_use]
    pub fn method(&self) -> &'static str {
        match self {
            Request::Form(_) | Request::Url(_) => "elicitation/create",
            #[cfg(feature = "sampling")]
            Request::Sample(_) => "sampling/createMessage",
            #[cfg(feature = "sampling")]
            Request::Roots => "roots/list",
        }
    }

    /// The capability a client must declare for it.
    #[must_use]
    pub fn needs(&self) -> Capability {
        match self {
            Request::Form(_) => Capability::Form,
            Request::Url(_) => Capability::Url,
            #[cfg(feature = "sampling")]
            Request::Sample(sample) if !sample.tools.is_empty() => Capability::SamplingTools,
            #[cfg(feature = "sampling")]
            Request::Sample(_) => Capability::Sampling,
            #[cfg(feature = "sampling")]
            Request::Roots => Capability::Roots,
        }
    }

    /// The message shown with an elicitation; empty for the others.
    #[must_use]
    pub fn message(&self) -> &str {
        match self {
            Request::Form(form) => form.message(),
            Request::Url(url) => url.message(),
            #[cfg(feature = "sampling")]
            Request::Sample(_) | Request::Roots => "",
        }
    }

    /// The params as written for `version`.
    #[must_use]
    pub fn params(&self, version: ProtocolVersion) -> Value {
        match self {
            Request::Form(form) => {
                crate::protocol::jsonrpc::to_value(form.clone().retagged(version))
            }
            Request::Url(url) => url.to_value_for(version),
            #[cfg(feature = "sampling")]
            Request::Sample(sample) => serde_json::to_value(sample).unwrap_or_default(),
            #[cfg(feature = "sampling")]
            Request::Roots => json!({}),
        }
    }

    /// Reads the params of a request of `method` sent on `version`.
    pub fn from_method(
        method: &str,
        params: &Value,
        version: ProtocolVersion,
    ) -> Result<Self, ReadError> {
        match method {
            "elicitation/create" => Self::from_params(params, version),
            #[cfg(feature = "sampling")]
            "sampling/createMessage" => serde_json::from_value(params.clone())
                .map(Request::Sample)
                .map_err(|e| shape(format!("the sampling request cannot be read: {e}"))),
            #[cfg(feature = "sampling")]
            "roots/list" => Ok(Request::Roots),
            #[cfg(not(feature = "sampling"))]
            "sampling/createMessage" | "roots/list" => Err(shape(format!(
                "{method} is read only with elicit-core's `sampling` feature"
            ))),
            other => Err(shape(format!(
                "the method {other:?} is not one a server asks"
            ))),
        }
    }

    /// Reads `params` sent on `version`. A form has `mode: "form"`, or no `mode` (2025-06-18 has
    /// none, and later versions take its absence as a form); its `requestedSchema` is read as
    /// [`RequestedSchema::from_value`] reads one, so what it only lints is kept and what it
    /// refuses is an error. URL mode needs 2025-11-25 or later, a `url`, and an
    /// `elicitationId` on 2025-11-25 (2026-07-28 removed it).
    pub fn from_params(params: &Value, version: ProtocolVersion) -> Result<Self, ReadError> {
        let params = params
            .as_object()
            .ok_or_else(|| shape("the params must be a JSON object"))?;
        let message = string(params, "message")?;
        match params.get("mode").map(|m| m.as_str()) {
            None | Some(Some("form")) => {
                let schema = params
                    .get("requestedSchema")
                    .ok_or_else(|| shape("a form request has no `requestedSchema`"))?;
                let schema =
                    RequestedSchema::from_value(schema.clone()).map_err(ReadError::Schema)?;
                // 2025-06-18 has no array property: a server writes a multi-select there as one
                // box per choice, so one that arrives as a list is not a 2025-06-18 form.
                let multi = schema
                    .properties()
                    .iter()
                    .find(|p| matches!(p.kind, crate::schema::Kind::MultiSelect(_)));
                if let Some(multi) = multi.filter(|_| version < ProtocolVersion::V2025_11_25) {
                    return Err(ReadError::Schema(SchemaError::property(
                        multi.name.as_str(),
                        "is a multi-select, which a 2025-06-18 form cannot hold (it sends one \
                         box per choice, `FIELD__CHOICE`)",
                    )));
                }
                let form = FormRequest::owned(message, schema)
                    .with_version(version)
                    .map_err(ReadError::Schema)?;
                Ok(Request::Form(form))
            }
            Some(Some("url")) => {
                let url = string(params, "url")?;
                let id = match params.get("elicitationId") {
                    Some(Value::String(id)) => id.clone(),
                    Some(_) => return Err(shape("`elicitationId` must be a string")),
                    None if version >= ProtocolVersion::V2026_07_28 => String::new(),
                    None => return Err(shape("a URL-mode request has no `elicitationId`")),
                };
                UrlRequest::new(version, message, url, id)
                    .map(Request::Url)
                    .map_err(ReadError::Url)
            }
            Some(Some(other)) => Err(shape(format!("unknown `mode` {other:?}"))),
            Some(None) => Err(shape("`mode` must be a string")),
        }
    }

    /// Reads a whole JSON-RPC request (or a 2026-07-28 `inputRequests` entry): its `method`
    /// and `params`.
    pub fn from_jsonrpc(request: &Value, version: ProtocolVersion) -> Result<Self, ReadError> {
        let method = request
            .get("method")
            .and_then(Value::as_str)
            .ok_or_else(|| shape("the request has no `method`"))?;
        let empty = json!({});
        let params = match request.get("params") {
            Some(params) => params,
            None if method == "roots/list" => &empty,
            None => return Err(shape("the request has no `params`")),
        };
        Self::from_method(method, params, version)
    }
}

fn string(params: &Map<String, Value>, key: &str) -> Result<String, ReadError> {
    match params.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(shape(format!("`{key}` must be a string"))),
        None => Err(shape(format!("the params have no `{key}`"))),
    }
}

impl ElicitationComplete {
    /// Reads the params of `notifications/elicitation/complete` (2025-11-25):
    /// `{"elicitationId": ..}`.
    pub fn from_params(params: &Value) -> Result<Self, ReadError> {
        let params = params
            .as_object()
            .ok_or_else(|| shape("the params must be a JSON object"))?;
        let id = string(params, "elicitationId")?;
        ElicitationComplete::new(ProtocolVersion::V2025_11_25, id).map_err(ReadError::Url)
    }
}

impl UrlElicitationRequired<'static> {
    /// Reads the JSON-RPC error object of a -32042 URL elicitation required error
    /// (2025-11-25): `{"code": -32042, "message": .., "data": {"elicitations": [..]}}`, each
    /// elicitation a URL-mode request.
    pub fn from_error(error: &Value) -> Result<Self, ReadError> {
        let code = UrlElicitationRequired::CODE;
        if error.get("code").and_then(Value::as_i64) != Some(code) {
            return Err(shape(format!("the error's code is not {code}")));
        }
        let message = error
            .get("message")
            .and_then(Value::as_str)
            .ok_or_else(|| shape("the error has no `message`"))?
            .to_owned();
        let list = error
            .pointer("/data/elicitations")
            .and_then(Value::as_array)
            .ok_or_else(|| shape("the error has no `data.elicitations` list"))?;
        let version = ProtocolVersion::V2025_11_25;
        let elicitations = list
            .iter()
            .map(|params| match Request::from_params(params, version)? {
                Request::Url(url) => Ok(url),
                _ => Err(shape(
                    "an elicitation of a -32042 error must be in URL mode",
                )),
            })
            .collect::<Result<Vec<_>, _>>()?;
        UrlElicitationRequired::new(version, message, elicitations).map_err(ReadError::Url)
    }
}

/// The elicitation capability a client declares in `capabilities.elicitation`: which modes it
/// can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ElicitationCapability {
    /// Forms.
    pub form: bool,
    /// Pages to open (2025-11-25 and later).
    pub url: bool,
}

impl ElicitationCapability {
    /// Forms only: what every version has.
    pub const FORM: ElicitationCapability = ElicitationCapability {
        form: true,
        url: false,
    };
    /// Forms and URL mode.
    pub const ALL: ElicitationCapability = ElicitationCapability {
        form: true,
        url: true,
    };

    /// The value of `capabilities.elicitation` for `version`: `{}` on 2025-06-18 (it has no
    /// modes), `{"form": {}, "url": {}}` with the modes declared after. URL mode is left out
    /// where the version has none.
    #[must_use]
    pub fn to_value(self, version: ProtocolVersion) -> Value {
        if version < ProtocolVersion::V2025_11_25 {
            return json!({});
        }
        let mut modes = Map::new();
        if self.form {
            modes.insert("form".into(), json!({}));
        }
        if self.url {
            modes.insert("url".into(), json!({}));
        }
        Value::Object(modes)
    }

    /// Reads `capabilities.elicitation` as a server does: `{}` means forms only, for clients
    /// written before modes existed.
    pub fn from_value(value: &Value) -> Result<Self, ReadError> {
        let modes = value
            .as_object()
            .ok_or_else(|| shape("`elicitation` must be a JSON object"))?;
        Ok(Self::declared(
            modes.contains_key("form"),
            modes.contains_key("url"),
        ))
    }

    /// The capability of a client that declared the `form` and `url` keys it did: none at all
    /// (`{"elicitation":{}}`) means forms only, for clients written before modes existed.
    #[must_use]
    pub fn declared(form: bool, url: bool) -> Self {
        if !form && !url {
            ElicitationCapability::FORM
        } else {
            ElicitationCapability { form, url }
        }
    }
}

/// What a request needs the client to have declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Capability {
    /// Form-mode elicitation.
    Form,
    /// URL-mode elicitation.
    Url,
    /// Sampling.
    Sampling,
    /// Sampling with tools (`sampling.tools`).
    SamplingTools,
    /// Roots.
    Roots,
}

impl Capability {
    /// Whether it is a mode of elicitation.
    #[must_use]
    pub fn is_elicitation(self) -> bool {
        matches!(self, Capability::Form | Capability::Url)
    }

    /// The capabilities object that declares it, as a -32021 error's `data.requiredCapabilities`
    /// names it on 2026-07-28.
    #[must_use]
    pub fn required(self) -> Value {
        match self {
            Capability::Form => json!({"elicitation": {"form": {}}}),
            Capability::Url => json!({"elicitation": {"url": {}}}),
            Capability::Sampling => json!({"sampling": {}}),
            Capability::SamplingTools => json!({"sampling": {"tools": {}}}),
            Capability::Roots => json!({"roots": {}}),
        }
    }
}

impl fmt::Display for Capability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Capability::Form => "form-mode elicitation",
            Capability::Url => "URL-mode elicitation",
            Capability::Sampling => "sampling",
            Capability::SamplingTools => "sampling with tools",
            Capability::Roots => "roots",
        })
    }
}

/// The capabilities a client declares that concern what a server asks of it: elicitation,
/// sampling and roots.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ClientCapabilities {
    /// `elicitation`, if declared.
    pub elicitation: Option<ElicitationCapability>,
    /// `sampling`, if declared: `Some(true)` where it declares `sampling.tools`.
    pub sampling: Option<bool>,
    /// Whether it declares `roots`.
    pub roots: bool,
}

impl ClientCapabilities {
    /// Reads a client's `capabilities` object (the handshake's, or a 2026-07-28 request's
    /// `_meta`). Members it does not know are ignored.
    pub fn from_value(value: &Value) -> Result<Self, ReadError> {
        let caps = value
            .as_object()
            .ok_or_else(|| shape("`capabilities` must be a JSON object"))?;
        let elicitation = match caps.get("elicitation") {
            None | Some(Value::Null) => None,
            Some(e) => Some(ElicitationCapability::from_value(e)?),
        };
        let sampling = match caps.get("sampling") {
            None | Some(Value::Null) => None,
            Some(s) => Some(s.get("tools").is_some_and(|t| !t.is_null())),
        };
        let roots = caps.get("roots").is_some_and(|r| !r.is_null());
        Ok(ClientCapabilities {
            elicitation,
            sampling,
            roots,
        })
    }

    /// With `elicitation` declared.
    #[must_use]
    pub fn with_elicitation(mut self, elicitation: ElicitationCapability) -> Self {
        self.elicitation = Some(elicitation);
        self
    }

    /// Whether the client declared `capability`.
    #[must_use]
    pub fn supports(&self, capability: Capability) -> bool {
        match capability {
            Capability::Form => self.elicitation.is_some_and(|e| e.form),
            Capability::Url => self.elicitation.is_some_and(|e| e.url),
            Capability::Sampling => self.sampling.is_some(),
            Capability::SamplingTools => self.sampling == Some(true),
            Capability::Roots => self.roots,
        }
    }

    /// Whether a server may send `request` to this client.
    #[must_use]
    pub fn allows(&self, request: &Request) -> bool {
        self.supports(request.needs())
    }
}

#[cfg(test)]
#[path = "../../unit/protocol/client.rs"]
mod tests;
