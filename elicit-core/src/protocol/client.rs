//! The client side: reading what a server sends into typed values (an `elicitation/create`
//! request, the completion notification, the -32042 error), and the capability a client
//! declares. For clients, proxies and tests, with or without rmcp.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::error::SchemaError;
use crate::protocol::url_mode::{
    ElicitationComplete, URL_ELICITATION_REQUIRED, UrlElicitationRequired, UrlRequest,
    UrlRequestError,
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

/// The params of an `elicitation/create` request, read on the client: a form or a URL-mode
/// page.
///
/// ```
/// use elicit_core::client::ElicitRequest;
/// use elicit_core::ProtocolVersion;
///
/// let params = serde_json::json!({
///     "mode": "form",
///     "message": "Book a table",
///     "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
/// });
/// let ElicitRequest::Form(form) = ElicitRequest::from_params(&params, ProtocolVersion::V2025_11_25)? else {
///     panic!("a form");
/// };
/// assert_eq!(form.message(), "Book a table");
/// assert_eq!(form.schema().properties()[0].name, "name");
/// # Ok::<(), elicit_core::client::ReadError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ElicitRequest {
    /// A form: the message and the schema to fill in.
    Form(FormRequest<'static>),
    /// A page to open (2025-11-25 and later).
    Url(UrlRequest<'static>),
}

impl ElicitRequest {
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
                Ok(ElicitRequest::Form(form))
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
                    .map(ElicitRequest::Url)
                    .map_err(ReadError::Url)
            }
            Some(Some(other)) => Err(shape(format!("unknown `mode` {other:?}"))),
            Some(None) => Err(shape("`mode` must be a string")),
        }
    }

    /// Reads a whole JSON-RPC `elicitation/create` request: its `params`.
    pub fn from_jsonrpc(request: &Value, version: ProtocolVersion) -> Result<Self, ReadError> {
        match request.get("method").and_then(Value::as_str) {
            Some("elicitation/create") => {}
            Some(other) => {
                return Err(shape(format!(
                    "the method is {other:?}, not elicitation/create"
                )));
            }
            None => return Err(shape("the request has no `method`")),
        }
        let params = request
            .get("params")
            .ok_or_else(|| shape("the request has no `params`"))?;
        Self::from_params(params, version)
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
        if error.get("code").and_then(Value::as_i64) != Some(URL_ELICITATION_REQUIRED) {
            return Err(shape(format!(
                "the error's code is not {URL_ELICITATION_REQUIRED}"
            )));
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
            .map(
                |params| match ElicitRequest::from_params(params, version)? {
                    ElicitRequest::Url(url) => Ok(url),
                    ElicitRequest::Form(_) => Err(shape(
                        "an elicitation of a -32042 error must be in URL mode",
                    )),
                },
            )
            .collect::<Result<Vec<_>, _>>()?;
        UrlElicitationRequired::new(version, message, elicitations).map_err(ReadError::Url)
    }
}

/// The two modes of elicitation a client may declare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ElicitMode {
    /// A form, with a `requestedSchema`.
    Form,
    /// A page the user opens (URL mode).
    Url,
}

impl std::fmt::Display for ElicitMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ElicitMode::Form => "form",
            ElicitMode::Url => "URL",
        })
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

    /// Whether the client can show a request of `mode`.
    #[must_use]
    pub fn supports(self, mode: ElicitMode) -> bool {
        match mode {
            ElicitMode::Form => self.form,
            ElicitMode::Url => self.url,
        }
    }

    /// Whether a server may send `request` to this client.
    #[must_use]
    pub fn allows(self, request: &ElicitRequest) -> bool {
        match request {
            ElicitRequest::Form(_) => self.form,
            ElicitRequest::Url(_) => self.url,
        }
    }
}
