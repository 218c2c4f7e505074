//! Multi-round-trip requests (2026-07-28), as plain data.
//!
//! On 2026-07-28 a server does not send requests to the client during a call. A `tools/call`,
//! `prompts/get` or `resources/read` instead returns an `InputRequiredResult` whose
//! `inputRequests` map holds the requests (elicitation, sampling, roots), each under a key the
//! server chooses. The client answers them and retries the request with `inputResponses`
//! (answers by the same keys) and the `requestState` the server gave, echoed verbatim.
//!
//! These types are the wire's, for clients, proxies and tests: they read and write the maps,
//! and hold no state of their own. A server asks through [`Ask`](crate::ask::Ask), which
//! seals the state, binds it to the call and counts an answer only through the state that
//! asked for it.
//!
//! ```
//! use elicit_core::{Elicit, ElicitResult, InputRequests, InputResponse, InputResponses};
//! use serde_json::json;
//!
//! /// Confirm the booking
//! #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
//! struct Confirm {
//!     ok: bool,
//! }
//!
//! // The requests a round carries, as a server writes them.
//! let mut requests = InputRequests::new();
//! requests.elicit::<Confirm>("confirm");
//! assert_eq!(requests.get("confirm").unwrap()["method"], "elicitation/create");
//!
//! // A retry, as a proxy or a test reads it: the answers by key, and the state, untrusted.
//! let retry = json!({
//!     "name": "book",
//!     "inputResponses": {"confirm": {"action": "accept", "content": {"ok": true}}},
//!     "requestState": "opaque",
//! });
//! let responses = InputResponses::from_params(&retry).unwrap();
//! assert_eq!(responses.request_state(), Some("opaque"));
//! match responses.elicit::<Confirm>("confirm").unwrap() {
//!     InputResponse::Answered(ElicitResult::Accept(c)) => assert!(c.ok),
//!     other => panic!("{other:?}"),
//! }
//! ```

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::elicit::Elicit;
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::protocol::client::Request;
use crate::protocol::jsonrpc;
use crate::protocol::url_mode::{UrlElicitResult, UrlRequest};
use crate::result::ElicitResult;
use crate::schema::request::FormRequest;
use crate::version::ProtocolVersion;

/// The `inputRequests` of an `InputRequiredResult`: requests by key, each an elicitation, a
/// sampling request or a roots request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputRequests {
    entries: Map<String, Value>,
}

impl InputRequests {
    /// Requests as written on the wire, by key.
    #[cfg(feature = "ask")]
    pub(crate) fn from_entries(entries: Map<String, Value>) -> Self {
        InputRequests { entries }
    }

    /// No requests yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Asks for a `T` under `key`, with `T`'s message and its 2026-07-28 schema.
    pub fn elicit<T: Elicit>(&mut self, key: impl Into<String>) -> &mut Self {
        self.form(key, &T::form_request())
    }

    /// Adds a form request under `key`, written for 2026-07-28.
    pub fn form(&mut self, key: impl Into<String>, request: &FormRequest<'_>) -> &mut Self {
        let params = request.clone().retagged(ProtocolVersion::V2026_07_28);
        self.insert(key.into(), "elicitation/create", jsonrpc::to_value(params))
    }

    /// Adds a URL-mode request under `key`. It is written for 2026-07-28, which identifies it by
    /// `key` and sends no `elicitationId`.
    pub fn url(&mut self, key: impl Into<String>, request: &UrlRequest<'_>) -> &mut Self {
        let params = request.to_value_for(ProtocolVersion::V2026_07_28);
        self.insert(key.into(), "elicitation/create", params)
    }

    /// Adds `request`, of any kind, under `key`, written for 2026-07-28.
    pub fn add(&mut self, key: impl Into<String>, request: &Request) -> &mut Self {
        let params = request.params(ProtocolVersion::V2026_07_28);
        self.insert(key.into(), request.method(), params)
    }

    /// Every entry by key: `{"method": .., "params": {..}}`.
    #[must_use]
    pub fn entries(&self) -> &Map<String, Value> {
        &self.entries
    }

    fn insert(&mut self, key: String, method: &str, params: Value) -> &mut Self {
        let mut entry = Map::new();
        entry.insert("method".into(), Value::String(method.into()));
        entry.insert("params".into(), params);
        self.entries.insert(key, Value::Object(entry));
        self
    }

    /// Whether no request was added.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many requests there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry under `key`: `{"method":"elicitation/create","params":{..}}`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.get(key)
    }
}

impl Serialize for InputRequests {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.entries.serialize(serializer)
    }
}

/// An `InputRequiredResult`: `{"resultType":"input_required","inputRequests":{..},"requestState":..}`.
#[derive(Debug, Clone, PartialEq)]
pub struct InputRequired {
    requests: InputRequests,
    request_state: Option<String>,
}

impl InputRequired {
    /// A result asking for `requests`.
    #[must_use]
    pub fn new(requests: InputRequests) -> Self {
        InputRequired {
            requests,
            request_state: None,
        }
    }

    /// Adds the opaque state the client echoes back on retry. The client can change it, so a
    /// server must not trust what comes back: [`Ask`](crate::ask::Ask) seals its own.
    #[must_use]
    pub fn with_request_state(mut self, state: impl Into<String>) -> Self {
        self.request_state = Some(state.into());
        self
    }

    /// The requests.
    #[must_use]
    pub fn requests(&self) -> &InputRequests {
        &self.requests
    }

    /// The request state, exactly as given.
    #[must_use]
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    /// The result as a JSON value. Fails when it has neither requests nor state: the
    /// specification requires at least one.
    pub fn to_value(&self) -> Result<Value, serde_json::Error> {
        serde_json::to_value(self)
    }

    /// Whether it has neither requests nor state, which the specification forbids.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.requests.is_empty() && self.request_state.is_none()
    }
}

/// The wire form. Serializing one with neither requests nor state fails: the specification
/// requires an `InputRequiredResult` to carry at least one.
impl Serialize for InputRequired {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.is_empty() {
            return Err(serde::ser::Error::custom(
                "an InputRequiredResult needs inputRequests or a requestState",
            ));
        }
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("resultType", "input_required")?;
        if !self.requests.is_empty() {
            map.serialize_entry("inputRequests", &self.requests)?;
        }
        if let Some(state) = &self.request_state {
            map.serialize_entry("requestState", state)?;
        }
        map.end()
    }
}

/// What a retried request says about one input request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputResponse<T> {
    /// The client answered under this key.
    Answered(T),
    /// No answer under this key: the first call, or a client that skipped it. This is not a
    /// decline or a cancel; asking for it is the usual next step.
    Missing,
}

impl<T> InputResponse<T> {
    /// The answer, if there is one.
    pub fn answered(self) -> Option<T> {
        match self {
            InputResponse::Answered(answer) => Some(answer),
            InputResponse::Missing => None,
        }
    }
}

/// The `inputResponses` and `requestState` of a retried request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputResponses {
    responses: Map<String, Value>,
    request_state: Option<String>,
}

fn malformed(message: &str) -> ElicitError {
    ElicitError::new(vec![Violation::new(
        Location::Envelope,
        Rule::Json(message.into()),
        None,
    )])
}

impl InputResponses {
    /// Reads `inputResponses` and `requestState` from the params of a request (`tools/call`,
    /// `prompts/get`, `resources/read`). Both may be absent, as on a first call; neither may be
    /// `null`.
    pub fn from_params(params: &Value) -> Result<Self, ElicitError> {
        let responses = match params.get("inputResponses") {
            None => Map::new(),
            Some(Value::Object(map)) => map.clone(),
            Some(_) => return Err(malformed("`inputResponses` must be an object")),
        };
        let request_state = match params.get("requestState") {
            None => None,
            Some(Value::String(state)) => Some(state.clone()),
            Some(_) => return Err(malformed("`requestState` must be a string")),
        };
        Ok(InputResponses {
            responses,
            request_state,
        })
    }

    /// Responses already taken apart, as an SDK hands them over.
    #[must_use]
    pub fn new(responses: Map<String, Value>, request_state: Option<String>) -> Self {
        InputResponses {
            responses,
            request_state,
        }
    }

    /// The request state the client echoed, exactly as received. Untrusted.
    #[must_use]
    pub fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }

    /// The keys the client answered.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.responses.keys().map(String::as_str)
    }

    /// The typed answer to the form asked under `key`, validated against `T`'s schema.
    pub fn elicit<T: Elicit>(
        &self,
        key: &str,
    ) -> Result<InputResponse<ElicitResult<T>>, ElicitError> {
        match self.responses.get(key) {
            None => Ok(InputResponse::Missing),
            Some(value) => ElicitResult::from_value(value).map(InputResponse::Answered),
        }
    }

    /// The answer to the URL-mode request asked under `key`.
    pub fn url(&self, key: &str) -> Result<InputResponse<UrlElicitResult>, ElicitError> {
        match self.responses.get(key) {
            None => Ok(InputResponse::Missing),
            Some(value) => UrlElicitResult::from_value(value).map(InputResponse::Answered),
        }
    }
}
