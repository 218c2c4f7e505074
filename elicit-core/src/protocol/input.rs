//! Multi-round-trip requests (2026-07-28), as plain data.
//!
//! On 2026-07-28 a server does not send requests to the client during a call. A `tools/call`,
//! `prompts/get` or `resources/read` instead returns an `InputRequiredResult` whose
//! `inputRequests` map holds the requests (elicitation, sampling, roots), each under a key the
//! server chooses. The client answers them and retries the request with `inputResponses`
//! (answers by the same keys) and the `requestState` the server gave, echoed verbatim.
//!
//! These types are the wire's, for clients, proxies and tests: they write the maps, and hold
//! no state of their own; each answer reads as any reply does
//! ([`ElicitResult::from_value`](crate::ElicitResult::from_value)).
//! A server asks through [`Ask`](crate::ask::Ask), which seals the state, binds it to the call
//! and counts an answer only through the state that asked for it.
//!
//! ```
//! use elicit_core::{Elicit, ElicitResult, InputRequests};
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
//! match ElicitResult::<Confirm>::from_value(&retry["inputResponses"]["confirm"]).unwrap() {
//!     ElicitResult::Accept(c) => assert!(c.ok),
//!     other => panic!("{other:?}"),
//! }
//! ```

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Map, Value};

use crate::elicit::Elicit;
use crate::protocol::client::Request;
use crate::protocol::jsonrpc;
use crate::protocol::url_mode::UrlRequest;
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
