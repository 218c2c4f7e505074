//! Conversions between this crate's types and rmcp's model types.
//!
//! A schema is built into rmcp's model field by field (`schema.rs`), and read back from the JSON
//! rmcp writes, with its properties in order. Where one model can say what the other cannot, the
//! conversion fails rather than drop it.

use std::collections::BTreeMap;
use std::fmt;

use ::rmcp::model as m;
use serde::Serialize;
use serde_json::{Value, json};

use crate::error::SchemaError;
use crate::protocol::client::Request;
use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::url_mode::{UrlElicitResult, UrlRequest, UrlRequestError};
use crate::result::ElicitResult;
use crate::schema::RequestedSchema;
use crate::schema::request::FormRequest;
use crate::version::ProtocolVersion;

/// A value that one model can hold and the other cannot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unrepresentable(pub String);

impl fmt::Display for Unrepresentable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unrepresentable {}

impl TryFrom<&m::ElicitationSchema> for RequestedSchema {
    type Error = SchemaError;

    fn try_from(schema: &m::ElicitationSchema) -> Result<Self, SchemaError> {
        let text = serde_json::to_string(schema)
            .map_err(|e| SchemaError::root(format!("rmcp's schema does not serialize: {e}")))?;
        RequestedSchema::from_json(&text)
    }
}

impl TryFrom<&FormRequest<'_>> for m::ElicitRequestParams {
    type Error = SchemaError;

    fn try_from(request: &FormRequest<'_>) -> Result<Self, SchemaError> {
        Ok(m::ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: request.message().to_owned(),
            requested_schema: request.schema().try_into()?,
        })
    }
}

impl TryFrom<&m::ElicitRequestParams> for FormRequest<'static> {
    type Error = SchemaError;

    /// A form request; URL-mode params are refused.
    fn try_from(params: &m::ElicitRequestParams) -> Result<Self, SchemaError> {
        match params {
            m::ElicitRequestParams::FormElicitationParams {
                message,
                requested_schema,
                ..
            } => Ok(FormRequest::owned(
                message.clone(),
                RequestedSchema::try_from(requested_schema)?,
            )),
            _ => Err(SchemaError::root(
                "these are URL-mode params, not a form request",
            )),
        }
    }
}

impl From<&UrlRequest<'_>> for m::ElicitRequestParams {
    fn from(request: &UrlRequest<'_>) -> Self {
        m::ElicitRequestParams::UrlElicitationParams {
            meta: None,
            message: request.message().to_owned(),
            url: request.url().to_owned(),
            elicitation_id: if request.version() < ProtocolVersion::V2026_07_28 {
                request.elicitation_id().to_owned()
            } else {
                String::new()
            },
        }
    }
}

impl TryFrom<&m::ElicitRequestParams> for UrlRequest<'static> {
    type Error = UrlRequestError;

    /// A URL-mode request: for 2025-11-25 when it carries an `elicitationId`, else for
    /// 2026-07-28, which removed it.
    fn try_from(params: &m::ElicitRequestParams) -> Result<Self, UrlRequestError> {
        match params {
            m::ElicitRequestParams::UrlElicitationParams {
                message,
                url,
                elicitation_id,
                ..
            } => {
                let version = if elicitation_id.is_empty() {
                    ProtocolVersion::V2026_07_28
                } else {
                    ProtocolVersion::V2025_11_25
                };
                UrlRequest::new(
                    version,
                    message.clone(),
                    url.clone(),
                    elicitation_id.clone(),
                )
            }
            _ => Err(UrlRequestError::Unsupported {
                feature: "a form request read as URL mode",
                version: ProtocolVersion::LATEST,
            }),
        }
    }
}

fn rmcp_action(action: crate::result::ElicitAction) -> m::ElicitationAction {
    match action {
        crate::result::ElicitAction::Accept => m::ElicitationAction::Accept,
        crate::result::ElicitAction::Decline => m::ElicitationAction::Decline,
        crate::result::ElicitAction::Cancel => m::ElicitationAction::Cancel,
    }
}

/// rmcp's result as the JSON a client sent. The action goes through its serde form, so an
/// action rmcp adds later is refused by the parse rather than guessed.
pub(crate) fn reply_value(result: &m::ElicitResult) -> Value {
    let action = serde_json::to_value(&result.action).unwrap_or(Value::Null);
    let mut reply = json!({ "action": action });
    if let Some(content) = &result.content {
        reply["content"] = content.clone();
    }
    reply
}

impl<T: Serialize> TryFrom<&ElicitResult<T>> for m::ElicitResult {
    type Error = serde_json::Error;

    /// The result as rmcp holds it: the action, and the content on accept.
    fn try_from(result: &ElicitResult<T>) -> Result<Self, serde_json::Error> {
        let wire = serde_json::to_value(result)?;
        let mut out = m::ElicitResult::new(rmcp_action(result.action()));
        out.content = wire.get("content").cloned();
        Ok(out)
    }
}

impl From<UrlElicitResult> for m::ElicitResult {
    fn from(result: UrlElicitResult) -> Self {
        m::ElicitResult::new(rmcp_action(result.action()))
    }
}

impl TryFrom<&InputRequests> for m::InputRequests {
    type Error = Unrepresentable;

    /// Each entry is read as the elicitation request it is, then written in rmcp's model; a
    /// form with a rule that model cannot hold is refused, not sent without the rule.
    fn try_from(requests: &InputRequests) -> Result<Self, Unrepresentable> {
        let mut out = BTreeMap::new();
        for (key, entry) in requests.entries() {
            let fail =
                |e: &dyn fmt::Display| Unrepresentable(format!("input request `{key}`: {e}"));
            // Sampling and roots by their wire form, which this crate wrote.
            match entry.get("method").and_then(Value::as_str) {
                #[cfg(feature = "sampling")]
                Some("sampling/createMessage") => {
                    let params = entry.get("params").cloned().unwrap_or_default();
                    let params = sampling(params).map_err(|e| fail(&e))?;
                    let request = m::InputRequest::CreateMessage(m::Request::new(params));
                    out.insert(key.clone(), request);
                    continue;
                }
                #[cfg(feature = "sampling")]
                Some("roots/list") => {
                    out.insert(key.clone(), m::InputRequest::ListRoots(Default::default()));
                    continue;
                }
                Some("elicitation/create") => {}
                other => return Err(fail(&format!("the method {other:?}"))),
            }
            let params = entry.get("params").cloned().unwrap_or_default();
            let request = match Request::from_params(&params, ProtocolVersion::V2026_07_28)
                .map_err(|e| fail(&e))?
            {
                Request::Form(form) => {
                    let params = m::ElicitRequestParams::try_from(&form).map_err(|e| fail(&e))?;
                    m::InputRequest::Elicitation(m::Request::new(params))
                }
                Request::Url(url) => m::InputRequest::Elicitation(m::Request::new(
                    m::ElicitRequestParams::from(&url),
                )),
                #[cfg(feature = "sampling")]
                other => {
                    return Err(fail(&format!("a request of method {}", other.method())));
                }
            };
            out.insert(key.clone(), request);
        }
        Ok(out)
    }
}

impl TryFrom<&m::InputRequests> for InputRequests {
    type Error = Unrepresentable;

    /// The requests of rmcp's map, each read as the request it is.
    fn try_from(requests: &m::InputRequests) -> Result<Self, Unrepresentable> {
        let mut out = InputRequests::new();
        for (key, request) in requests {
            let fail =
                |e: &dyn fmt::Display| Unrepresentable(format!("input request `{key}`: {e}"));
            let m::InputRequest::Elicitation(request) = request else {
                let entry = serde_json::to_value(request).map_err(|e| fail(&e))?;
                let read = Request::from_jsonrpc(&entry, ProtocolVersion::V2026_07_28)
                    .map_err(|e| fail(&e))?;
                out.add(key.clone(), &read);
                continue;
            };
            // Read through the typed requests, so the entry comes back in this crate's form
            // (rmcp writes an empty `elicitationId` that 2026-07-28 does not have).
            match &request.params {
                params @ m::ElicitRequestParams::FormElicitationParams { .. } => {
                    let form = FormRequest::try_from(params).map_err(|e| fail(&e))?;
                    out.form(key.clone(), &form);
                }
                params => {
                    let url = UrlRequest::try_from(params).map_err(|e| fail(&e))?;
                    out.url(key.clone(), &url);
                }
            }
        }
        Ok(out)
    }
}

impl TryFrom<&InputRequired> for m::InputRequiredResult {
    type Error = Unrepresentable;

    /// Fails for a result with neither requests nor state, which the specification forbids.
    fn try_from(result: &InputRequired) -> Result<Self, Unrepresentable> {
        if result.is_empty() {
            return Err(Unrepresentable(
                "an InputRequiredResult needs inputRequests or a requestState".into(),
            ));
        }
        let requests = m::InputRequests::try_from(result.requests())?;
        let requests = (!requests.is_empty()).then_some(requests);
        Ok(m::InputRequiredResult::new(
            requests,
            result.request_state().map(str::to_owned),
        ))
    }
}

impl TryFrom<&m::InputRequiredResult> for InputRequired {
    type Error = Unrepresentable;

    fn try_from(result: &m::InputRequiredResult) -> Result<Self, Unrepresentable> {
        let requests = match &result.input_requests {
            Some(requests) => InputRequests::try_from(requests)?,
            None => InputRequests::new(),
        };
        let required = InputRequired::new(requests);
        Ok(match &result.request_state {
            Some(state) => required.with_request_state(state.clone()),
            None => required,
        })
    }
}

/// rmcp's version as this crate's, exactly: a version without elicitation (2024-11-05,
/// 2025-03-26) or one this crate does not know is refused.
impl TryFrom<m::ProtocolVersion> for ProtocolVersion {
    type Error = crate::version::UnknownVersion;

    fn try_from(version: m::ProtocolVersion) -> Result<Self, Self::Error> {
        version.as_str().parse()
    }
}

impl From<ProtocolVersion> for m::ProtocolVersion {
    fn from(version: ProtocolVersion) -> Self {
        match version {
            ProtocolVersion::V2025_06_18 => m::ProtocolVersion::V_2025_06_18,
            ProtocolVersion::V2025_11_25 => m::ProtocolVersion::V_2025_11_25,
            ProtocolVersion::V2026_07_28 => m::ProtocolVersion::V_2026_07_28,
        }
    }
}

/// A request as rmcp's model holds it, or the rule the model would drop.
pub(super) fn to_rmcp(request: &Request) -> Result<m::ServerRequest, SchemaError> {
    let elicit = |params| m::ServerRequest::ElicitRequest(m::ElicitRequest::new(params));
    match request {
        Request::Form(form) => m::ElicitRequestParams::try_from(form).map(elicit),
        Request::Url(url) => Ok(elicit(url.into())),
        #[cfg(feature = "sampling")]
        Request::Sample(sample) => sampling(serde_json::to_value(sample).unwrap_or_default())
            .map(|params| m::ServerRequest::CreateMessageRequest(m::Request::new(params))),
        #[cfg(feature = "sampling")]
        Request::Roots => Ok(m::ServerRequest::ListRootsRequest(Default::default())),
    }
}

/// A sampling request in rmcp's model, from its wire form (`params`): the same on every
/// version.
#[cfg(feature = "sampling")]
#[allow(deprecated)] // Sampling is deprecated in the specification, and still a legal request.
fn sampling(params: Value) -> Result<m::CreateMessageRequestParams, SchemaError> {
    serde_json::from_value(params)
        .map_err(|e| SchemaError::root(format!("rmcp cannot carry this sampling request: {e}")))
}
