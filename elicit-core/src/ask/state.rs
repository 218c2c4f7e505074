//! The sealed `requestState` of a tool that asks on 2026-07-28: what was asked and answered in
//! earlier rounds, encrypted so that nothing between the client and the server can read or
//! change it.
//!
//! The payload is sealed with XChaCha20-Poly1305 ([`seal`](super::seal)), bound by its
//! associated data to the tool's name, a digest of its arguments and the caller's principal,
//! and given a time to live. Each answer also records a digest of the question it answers.

use std::any::Any;
use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::memory::MemoryStore;
use super::seal::{Refused, Sealer, open};
use super::store::{DynStore, RoundStore};

/// What differs between two questions asked under one key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Change {
    /// What is asked: a form, a confirmation, a run-time form or a page to open.
    Kind,
    /// The message shown with it.
    Message,
    /// The choices of a select (compared as a set: their order is no change).
    Choices,
    /// The form's fields or rules.
    Form,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Change::Kind => "what it asks",
            Change::Message => "its message",
            Change::Choices => "its choices",
            Change::Form => "its form",
        })
    }
}

type JsonObject = Map<String, Value>;

/// Who the caller is, from an SDK's request context: `None` for nobody in particular, and
/// `Err` for a context of another type than the function reads.
type Principal = Arc<dyn Fn(&dyn Any) -> Result<Option<String>, StateError> + Send + Sync>;

/// The key that seals the `requestState` of tools that ask on 2026-07-28.
///
/// 2026-07-28 is stateless: the answers of earlier rounds travel with the client, and come back
/// with each retry. They are encrypted and authenticated with this key, so neither the client
/// nor anything between it and the server can read them, alter them, replay them against
/// another call or another user, or keep them past their time to live.
///
/// - A single-process server needs nothing: [`StateKey::installed`] makes a random key the
///   first time it is needed.
/// - Servers that share a key finish each other's calls (round 1 on one process, round 2 on
///   another): give every process the same secret, 32 random bytes (made once, with
///   `head -c 32 /dev/urandom | base64`, say, and kept as any other secret of the server's),
///   and [`install`](StateKey::install) it at start-up. The cipher's key is derived from the
///   secret with HKDF-SHA256, so the secret serves every process as it is; its bytes are
///   wiped once read.
/// - **Rotation**: seal with the new secret and still open states of the old one with
///   [`also_opening`](StateKey::also_opening); drop the old one after a time to live.
/// - **Users**: a state sealed for one caller opens for no other. Who the caller is comes from
///   the SDK by default: on rmcp, a digest of the `Authorization` header of the HTTP request
///   (streamable HTTP); on rust-mcp-sdk, the `client_id` and `user_id` of the caller's
///   `AuthInfo`, or its token's id where it names neither. A call without a credential (stdio,
///   or a server without auth) is nobody in particular: its state opens for any caller without
///   one, so there the state is a bearer token for its call. On rmcp the credential itself is
///   the caller, so a renewed token is another caller, whose retry is refused;
///   [`with_principal`](StateKey::with_principal) names the caller instead (an OAuth subject,
///   say), and so survives a renewal.
///
/// ```
/// use elicit_core::ask::StateKey;
///
/// // 32 random bytes, written as text where the server keeps its secrets.
/// let secret = "q6v4cX1bT1kq2p7HcQeP5y0XvU1N3jRf8sS2wZ9aL4E=";
/// # let last_month = "0x9cB3vRk2Jm8sQ1tN5wZ7yH4pL6dF2gA0eX3uV8iK1oM=";
/// let key = StateKey::new(secret)?.also_opening(last_month)?;
/// assert!(StateKey::new("too short").is_err());
/// # let _ = key;
/// # Ok::<(), elicit_core::ask::StateKeyError>(())
/// ```
///
/// **What is single-use, and what is not.**
///
/// - **An answer** counts only in the retry that carries the state of the round that asked for
///   it. A call without a state is a first call, whatever `inputResponses` it carries, so a
///   retry resent without its state asks its questions again: nobody can answer a question the
///   person was not shown.
/// - **A round** runs once. A retry's state and answers claim the round in the key's
///   [`RoundStore`] before the body runs: the same retry sent again, state and answers alike,
///   gets the response the first recorded and runs nothing, and the same state with other
///   answers is refused as used. A body that ends in a fault of the server releases the
///   round, so the client's retry runs. Each key has its own [`MemoryStore`], which serves one
///   process; a fleet shares one store ([`with_store`](StateKey::with_store)).
/// - **The call** is not: the same tool called again with the same arguments is a new call,
///   which asks again.
#[derive(Clone)]
pub struct StateKey {
    /// The first seals; every one opens.
    keys: Arc<Vec<Sealer>>,
    ttl: Duration,
    principal: Option<Principal>,
    store: Arc<dyn DynStore>,
    lease: Duration,
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKey")
            .field("keys", &self.keys.len())
            .field("ttl", &self.ttl)
            .field("principal", &self.principal.is_some())
            .field("lease", &self.lease)
            .finish_non_exhaustive()
    }
}

/// A sealing key that cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum StateKeyError {
    /// The secret is shorter than [`StateKey::MIN_LEN`] bytes: its length.
    Short(usize),
    /// The operating system gave no random bytes for a key.
    Random(String),
}

impl fmt::Display for StateKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateKeyError::Short(len) => write!(
                f,
                "the requestState secret is too short: {len} bytes, where {} or more are needed",
                StateKey::MIN_LEN
            ),
            StateKeyError::Random(e) => write!(f, "no random bytes for a requestState key: {e}"),
        }
    }
}

impl std::error::Error for StateKeyError {}

static INSTALLED: OnceLock<StateKey> = OnceLock::new();

impl StateKey {
    /// The shortest secret accepted, in bytes.
    pub const MIN_LEN: usize = 32;

    /// How long a sealed state stays valid by default: an hour, six times the default deadline
    /// of a question ([`Ask::DEFAULT_DEADLINE`](super::Ask::DEFAULT_DEADLINE)), so that an
    /// answer that comes after its deadline is read as a cancel that timed out, not refused
    /// with its state. See [`Ask::with_deadline`](super::Ask::with_deadline) for how the waits
    /// fit together.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

    /// How long a claim holds a round while its body runs, by default: past it, a retry may
    /// take the round over, so a server that died mid-body does not hold it until the state
    /// expires.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

    /// How long a retry waits for the same retry, running elsewhere, to record its response;
    /// then it ends with an "in progress" error, and the client may retry it.
    pub const CLAIM_WAIT: Duration = Duration::from_secs(10);

    /// A key from a secret of at least [`MIN_LEN`](Self::MIN_LEN) bytes: 32 random bytes, or
    /// text that holds as many (`head -c 32 /dev/urandom | base64`), with the default time to
    /// live ([`DEFAULT_TTL`](Self::DEFAULT_TTL)).
    pub fn new(secret: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        Ok(StateKey {
            keys: Arc::new(vec![sealer(secret.into())?]),
            ttl: Self::DEFAULT_TTL,
            principal: None,
            store: Arc::new(MemoryStore::new()),
            lease: Self::DEFAULT_LEASE,
        })
    }

    /// A random key, for one process.
    pub fn random() -> Result<Self, StateKeyError> {
        let mut secret = vec![0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| StateKeyError::Random(e.to_string()))?;
        Self::new(secret)
    }

    /// Also opens states sealed with `previous`, an earlier secret, for rotation: this key
    /// still seals with its own.
    pub fn also_opening(mut self, previous: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        let previous = sealer(previous.into())?;
        Arc::make_mut(&mut self.keys).push(previous);
        Ok(self)
    }

    /// Names who the caller of a request is, from the SDK's request context `C`, in place of
    /// the SDK's default (see [`StateKey`]): on rmcp `C` is `RequestContext<RoleServer>` (an
    /// OAuth subject from the HTTP request parts it holds in its extensions, say), on
    /// rust-mcp-sdk `Option<AuthInfo>`. A state sealed for one principal opens for no other,
    /// and not for a request without one. The id is bound into the seal's associated data,
    /// never written into the state. An adapter whose context is not a `C` refuses the call
    /// with a fault of the server's.
    #[must_use]
    pub fn with_principal<C: 'static>(
        mut self,
        principal: impl Fn(&C) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(move |context: &dyn Any| {
            context.downcast_ref::<C>().map(&principal).ok_or_else(|| {
                StateError::Unsealed(format!(
                    "the key's principal reads a {}, not this SDK's request context",
                    std::any::type_name::<C>()
                ))
            })
        }));
        self
    }

    /// Whether the key names its callers itself ([`with_principal`](Self::with_principal)).
    #[must_use]
    pub fn names_principals(&self) -> bool {
        self.principal.is_some()
    }

    /// The caller's principal for an SDK's request `context`, if the key names one.
    pub(super) fn principal_of(&self, context: &dyn Any) -> Result<Option<String>, StateError> {
        match &self.principal {
            Some(principal) => principal(context),
            None => Ok(None),
        }
    }

    /// Claims each round of a call in `store` before its body runs, and records its response
    /// there, so that each round runs once ([`RoundStore`]). A key has its own
    /// [`MemoryStore`] until this gives it another; give every process of a fleet the same
    /// shared store (the `redis` feature's `RedisStore`), so that a retry runs once on any
    /// of them.
    #[must_use]
    pub fn with_store(mut self, store: impl RoundStore) -> Self {
        self.store = Arc::new(store);
        self
    }

    /// How long a claim holds a round while its body runs ([`DEFAULT_LEASE`](Self::DEFAULT_LEASE), a minute, by
    /// default). Past it, a retry of the round may take it over: a server that died mid-body
    /// does not hold the round until its state expires. A body that may run longer needs a
    /// longer lease, or a retry of it could run beside it.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    pub(super) fn store(&self) -> Arc<dyn DynStore> {
        Arc::clone(&self.store)
    }

    pub(super) fn lease(&self) -> Duration {
        self.lease
    }

    /// How long a sealed state stays valid after it is sent: the longest a retry may take to
    /// come back. Past it, the state is refused and the call starts again. Keep it longer than
    /// the longest deadline of a question ([`Ask::with_deadline`](super::Ask::with_deadline)),
    /// which measures how long the person had.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The time to live of each sealed state.
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Makes this the key of every [`Ask`](super::Ask) built without one of its own, which
    /// includes the one rmcp's `#[tool]` functions extract. Call it at start-up: it fails, giving
    /// the key back, once a key is installed or was already made for a state.
    pub fn install(self) -> Result<(), StateKey> {
        INSTALLED.set(self)
    }

    /// The installed key, or a random one made on first use for the life of the process.
    ///
    /// # Panics
    ///
    /// If the operating system has no source of random bytes and no key was installed.
    pub fn installed() -> &'static StateKey {
        INSTALLED.get_or_init(|| match StateKey::random() {
            Ok(key) => key,
            Err(e) => panic!("elicit: {e}; install a StateKey at start-up"),
        })
    }

    /// Seals `payload` for the call `binding` names.
    pub(crate) fn seal(&self, payload: &Carried, binding: &Binding) -> Result<String, StateError> {
        // A map of strings and JSON values always serializes.
        let bytes = serde_json::to_vec(payload).unwrap_or_default();
        self.keys[0]
            .seal(&bytes, &binding.0, now_ms())
            .map_err(StateError::Unsealed)
    }

    /// Opens a state sealed for the call `binding` names, within its time to live. Returns it
    /// with its issue time (milliseconds since the Unix epoch) and its seal, unique to it.
    pub(crate) fn open(
        &self,
        sealed: &str,
        binding: &Binding,
    ) -> Result<(Carried, u64, String), StateError> {
        let opened = open(&self.keys, sealed, &binding.0).map_err(|refused| match refused {
            Refused::Malformed => StateError::Unreadable("not a sealed requestState".into()),
            Refused::UnknownKey => StateError::UnknownKey,
            Refused::DoesNotOpen => StateError::DoesNotOpen,
        })?;
        let age = Duration::from_millis(now_ms().saturating_sub(opened.issued));
        if age > self.ttl {
            return Err(StateError::Expired);
        }
        let carried: Carried = serde_json::from_slice(&opened.payload)
            .map_err(|e| StateError::Unreadable(e.to_string()))?;
        if carried.v != Carried::VERSION {
            return Err(StateError::Unreadable(format!(
                "payload version {} (this build reads {})",
                carried.v,
                Carried::VERSION
            )));
        }
        Ok((carried, opened.issued, digest(&opened.nonce)))
    }
}

/// The cipher key of a secret long enough to be one. The secret's bytes are wiped once read.
fn sealer(secret: Vec<u8>) -> Result<Sealer, StateKeyError> {
    let secret = zeroize::Zeroizing::new(secret);
    if secret.len() < StateKey::MIN_LEN {
        return Err(StateKeyError::Short(secret.len()));
    }
    Ok(Sealer::derive(&secret))
}

/// Why a `requestState` was refused. The tool body does not run on refused state.
///
/// The client is told one thing for a state that was altered, expired, unreadable or bound to
/// another call or caller (its state was refused); it is told the cause of the others: a key
/// this server does not hold (a restart, or a fleet without a shared key), and a state used
/// already (the same state with other answers). The variants are for the server's own
/// logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The state does not open: altered, or sealed for another call (another tool, other
    /// arguments) or another principal. One authentication tag cannot tell these apart.
    DoesNotOpen,
    /// Sealed under a key this server does not hold (see [`StateKey::also_opening`]).
    UnknownKey,
    /// The state opened, but its time to live had passed since it was issued.
    Expired,
    /// No state could be sealed: the operating system gave no random bytes, the payload is
    /// too long for the cipher, or the key's principal reads another SDK's request context. A
    /// fault in the server: the call ends with a JSON-RPC internal error, not a refused state.
    Unsealed(String),
    /// Not a sealed state, or one that opened but holds a payload this build does not read.
    Unreadable(String),
    /// The state opened, but its round ran with other answers ([`RoundStore`]).
    Replayed,
    /// The same retry is running elsewhere, and did not finish within
    /// [`StateKey::CLAIM_WAIT`].
    InProgress,
    /// The key's store could not claim the round: unreachable, or full. A fault in the server:
    /// the call ends with a JSON-RPC internal error, and no body runs unguarded.
    Store(String),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::DoesNotOpen => f.write_str(
                "the requestState does not open: altered, or sealed for another call or principal",
            ),
            StateError::UnknownKey => {
                f.write_str("the requestState was sealed under a key this server does not hold")
            }
            StateError::Unsealed(e) => write!(f, "the requestState could not be sealed: {e}"),
            StateError::Expired => f.write_str("the requestState has expired"),
            StateError::Unreadable(e) => write!(f, "the requestState cannot be read: {e}"),
            StateError::Replayed => {
                f.write_str("the requestState was used already, with other answers")
            }
            StateError::InProgress => f.write_str("the same retry is still running elsewhere"),
            StateError::Store(e) => write!(f, "the state store is unavailable: {e}"),
        }
    }
}

impl std::error::Error for StateError {}

/// What a sealed state binds to: a digest of the tool's name, its arguments and the caller's
/// principal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding([u8; 32]);

impl Binding {
    /// The binding of a call to `tool` with `arguments` (absent arguments read as `{}`). Object
    /// keys are sorted first, so a client that writes the same arguments in another key order
    /// still matches.
    pub(crate) fn of(tool: &str, arguments: Option<&JsonObject>, principal: Option<&str>) -> Self {
        let mut hash = Hashing(Sha256::new());
        hash.0.update(b"elicit-core/ask/v3\0");
        hash.0.update((tool.len() as u64).to_be_bytes());
        hash.0.update(tool.as_bytes());
        let empty = JsonObject::new();
        // Writing to a hasher cannot fail.
        let _ = canonical(&mut hash, arguments.unwrap_or(&empty));
        match principal {
            None => hash.0.update([0]),
            Some(id) => {
                hash.0.update([1]);
                hash.0.update((id.len() as u64).to_be_bytes());
                hash.0.update(id.as_bytes());
            }
        }
        Binding(hash.0.finalize().into())
    }
}

struct Hashing(Sha256);

impl Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes an object as compact JSON with its keys sorted at every level.
fn canonical(out: &mut impl Write, object: &JsonObject) -> io::Result<()> {
    let mut keys: Vec<&String> = object.keys().collect();
    keys.sort();
    out.write_all(b"{")?;
    for (i, key) in keys.into_iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, key)?;
        out.write_all(b":")?;
        canonical_value(out, &object[key])?;
    }
    out.write_all(b"}")
}

fn canonical_value(out: &mut impl Write, value: &Value) -> io::Result<()> {
    match value {
        Value::Object(object) => canonical(out, object),
        Value::Array(items) => {
            out.write_all(b"[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.write_all(b",")?;
                }
                canonical_value(out, item)?;
            }
            out.write_all(b"]")
        }
        scalar => Ok(serde_json::to_writer(out, scalar)?),
    }
}

/// What a call carries from round to round.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Carried {
    /// The payload's format.
    pub v: u32,
    /// How many rounds ended asking for input.
    pub round: u32,
    /// Every question asked so far: by key, one entry per time the body awaited the key, in
    /// the order of the awaits.
    pub keys: BTreeMap<String, Vec<Answers>>,
    /// The questions the sealed round asked for, by key, with the await each one is: the only
    /// `inputResponses` that are read.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending: BTreeMap<String, usize>,
    /// Values the body computed once ([`Ask::once`](super::Ask::once)), by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub memo: BTreeMap<String, Value>,
}

impl Carried {
    pub const VERSION: u32 = 3;

    pub fn new() -> Self {
        Carried {
            v: Self::VERSION,
            ..Carried::default()
        }
    }

    /// The replies so far to the `index`-th await of `key`, whose question is `now`,
    /// registered if it is new.
    ///
    /// Replies to a question that has changed since (a field added between two rounds, a
    /// price in its message, say) are dropped: they answer something else, and the question is
    /// asked again, once. If it has changed before, what changed is the error.
    pub fn register(
        &mut self,
        key: &str,
        index: usize,
        now: &Identity,
    ) -> Result<&Answers, Change> {
        let awaits = self.keys.entry(key.to_owned()).or_default();
        while awaits.len() <= index {
            awaits.push(Answers {
                identity: now.clone(),
                changed: false,
                unasked: false,
                replies: Vec::new(),
                took_ms: Vec::new(),
            });
        }
        let answers = &mut awaits[index];
        if let Some(change) = answers.identity.change_to(now) {
            if answers.changed {
                return Err(change);
            }
            answers.identity = now.clone();
            answers.changed = true;
            answers.replies.clear();
            answers.took_ms.clear();
        }
        Ok(answers)
    }

    /// Adds the reply the client sent unasked as the first of the first await of `key`, which
    /// was registered and has none.
    pub fn push_unasked(&mut self, key: &str, reply: Value) {
        if let Some(answers) = self.keys.get_mut(key).and_then(|a| a.first_mut())
            && answers.replies.is_empty()
        {
            answers.unasked = true;
            answers.push(reply, None);
        }
    }

    /// Adds a reply to the `index`-th await of `key`, which was registered, and how long it
    /// took.
    pub fn push_reply(&mut self, key: &str, index: usize, reply: Value, took: Option<Duration>) {
        if let Some(answers) = self.keys.get_mut(key).and_then(|a| a.get_mut(index)) {
            answers.push(reply, took);
        }
    }
}

/// What makes a question the same question in every round: what it asks, and digests of its
/// message, its choices (as a set) and the rest of its form. Never a Rust type name, which
/// may change with the compiler.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    #[serde(rename = "k")]
    pub kind: String,
    #[serde(rename = "m")]
    pub message: String,
    #[serde(rename = "c", default, skip_serializing_if = "String::is_empty")]
    pub choices: String,
    #[serde(rename = "f", default, skip_serializing_if = "String::is_empty")]
    pub form: String,
}

impl Identity {
    /// The first difference from `now`, if there is one.
    pub fn change_to(&self, now: &Identity) -> Option<Change> {
        if self.kind != now.kind {
            Some(Change::Kind)
        } else if self.message != now.message {
            Some(Change::Message)
        } else if self.choices != now.choices {
            Some(Change::Choices)
        } else if self.form != now.form {
            Some(Change::Form)
        } else {
            None
        }
    }
}

/// A short digest of a question's part: enough to tell that it changed between two rounds.
pub(crate) fn digest(part: &[u8]) -> String {
    use base64::Engine;

    let digest = Sha256::digest(part);
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..12])
}

/// A digest of a round's answers, whatever order their keys (at any level) were written in.
pub(crate) fn answers_digest(answers: &JsonObject) -> String {
    let mut bytes = Vec::new();
    // Writing to a vector cannot fail.
    let _ = canonical(&mut bytes, answers);
    digest(&bytes)
}

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// One question: what it is, and every reply to it so far, oldest first, with how long each
/// took where that is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Answers {
    #[serde(rename = "id")]
    pub identity: Identity,
    /// Whether it was asked again once already for having changed.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub changed: bool,
    /// Whether the first reply came unasked ([`AnswerSource::Unasked`](crate::ask::AnswerSource::Unasked)).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unasked: bool,
    pub replies: Vec<Value>,
    /// How long each reply took, where known, in milliseconds.
    pub took_ms: Vec<Option<u64>>,
}

impl Answers {
    pub fn push(&mut self, reply: Value, took: Option<Duration>) {
        self.replies.push(reply);
        self.took_ms
            .push(took.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)));
    }

    /// How long the `index`-th reply took.
    pub fn took(&self, index: usize) -> Option<Duration> {
        self.took_ms
            .get(index)
            .copied()
            .flatten()
            .map(Duration::from_millis)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            _ => unreachable!(),
        }
    }

    fn of(tool: &str, arguments: Option<&JsonObject>) -> Binding {
        Binding::of(tool, arguments, None)
    }

    #[test]
    fn bindings_ignore_key_order_but_not_values_tools_or_principals() {
        let a = object(json!({"b": 1, "a": {"y": [1, {"q": 2, "p": 3}], "x": "s"}}));
        let b = object(json!({"a": {"x": "s", "y": [1, {"p": 3, "q": 2}]}, "b": 1}));
        assert_eq!(of("t", Some(&a)), of("t", Some(&b)));
        assert_ne!(of("t", Some(&a)), of("u", Some(&a)));
        let c = object(json!({"b": 2, "a": {"y": [1, {"q": 2, "p": 3}], "x": "s"}}));
        assert_ne!(of("t", Some(&a)), of("t", Some(&c)));
        assert_eq!(of("t", None), of("t", Some(&JsonObject::new())));
        // The tool name and the arguments cannot trade bytes.
        assert_ne!(of("t\0{}", None), of("t", Some(&object(json!({})))));
        // Nor the principal, and none is not the empty one.
        assert_ne!(
            Binding::of("t", None, Some("ada")),
            Binding::of("t", None, Some("bob"))
        );
        assert_ne!(Binding::of("t", None, Some("")), of("t", None));
    }

    fn identity(kind: &str, message: &str) -> Identity {
        Identity {
            kind: kind.into(),
            message: message.into(),
            choices: String::new(),
            form: String::new(),
        }
    }

    /// Opens `sealed`, without its issue time.
    fn opened(key: &StateKey, sealed: &str, binding: &Binding) -> Result<Carried, StateError> {
        key.open(sealed, binding).map(|(carried, _, _)| carried)
    }

    fn carried() -> Carried {
        let mut carried = Carried::new();
        carried.round = 2;
        carried.keys.insert(
            "k".into(),
            vec![Answers {
                identity: identity("K", "q"),
                changed: false,
                unasked: false,
                replies: vec![json!({"action": "accept", "content": {"city": "Quillacollo"}})],
                took_ms: vec![Some(40)],
            }],
        );
        carried
    }

    #[test]
    fn each_refusal_is_its_own_error() {
        let key = StateKey::new(vec![7u8; 32]).unwrap();
        let binding = of("t", None);
        let sealed = key.seal(&carried(), &binding).unwrap();
        assert_eq!(opened(&key, &sealed, &binding).unwrap(), carried());

        // Another call, another principal, none, or a changed byte: the tag does not verify.
        let ada = Binding::of("t", None, Some("ada"));
        let for_ada = key.seal(&carried(), &ada).unwrap();
        for (state, binding) in [
            (&sealed, of("u", None)),
            (&sealed, ada.clone()),
            (&for_ada, Binding::of("t", None, Some("bob"))),
            (&for_ada, of("t", None)),
        ] {
            assert_eq!(opened(&key, state, &binding), Err(StateError::DoesNotOpen));
        }
        assert_eq!(opened(&key, &for_ada, &ada).unwrap(), carried());
        let mut bytes = sealed.clone().into_bytes();
        let last = bytes.len() - 3;
        bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(bytes).unwrap();
        assert_eq!(
            opened(&key, &altered, &binding),
            Err(StateError::DoesNotOpen)
        );

        // Sealed under a key this server does not hold, until it also opens that one.
        let other = StateKey::new(vec![8u8; 32]).unwrap();
        assert_eq!(
            opened(&other, &sealed, &binding),
            Err(StateError::UnknownKey)
        );
        let rotated = other.also_opening(vec![7u8; 32]).unwrap();
        assert_eq!(opened(&rotated, &sealed, &binding).unwrap(), carried());
        // It seals with its own key, which the old one does not hold.
        let new = rotated.seal(&carried(), &binding).unwrap();
        assert_eq!(opened(&key, &new, &binding), Err(StateError::UnknownKey));

        // Issued longer ago than the time to live.
        let bytes = serde_json::to_vec(&carried()).unwrap();
        let old = key.keys[0]
            .seal(&bytes, &binding.0, now_ms() - 7_200_000)
            .unwrap();
        assert_eq!(opened(&key, &old, &binding), Err(StateError::Expired));
        let patient = key.clone().with_ttl(Duration::from_secs(3 * 3600));
        assert!(opened(&patient, &old, &binding).is_ok());

        // Not a state at all.
        for junk in ["", "step-2", &sealed[..sealed.len() / 2]] {
            assert!(matches!(
                opened(&key, junk, &binding),
                Err(StateError::Unreadable(_) | StateError::DoesNotOpen)
            ));
        }
    }

    #[test]
    fn a_sealed_state_reads_as_nothing() {
        use base64::Engine;
        let key = StateKey::new(vec![7u8; 32]).unwrap();
        let sealed = key.seal(&carried(), &of("t", None)).unwrap();
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(&sealed)
            .unwrap();
        let text = String::from_utf8_lossy(&bytes);
        for word in ["Quillacollo", "city", "accept", "\"K\""] {
            assert!(!text.contains(word), "{word} in {text}");
        }
        // Two seals of one payload differ: each has its own nonce.
        assert_ne!(sealed, key.seal(&carried(), &of("t", None)).unwrap());
    }

    #[test]
    fn a_changed_question_drops_its_answers_once() {
        let mut carried = carried();
        assert_eq!(
            carried
                .register("k", 0, &identity("K", "q"))
                .unwrap()
                .replies
                .len(),
            1
        );
        let again = carried.register("k", 0, &identity("K", "q2")).unwrap();
        assert!(again.replies.is_empty() && again.changed);
        // The same again is no change.
        assert!(carried.register("k", 0, &identity("K", "q2")).is_ok());
        // A second change is the error, saying what changed.
        assert_eq!(
            carried.register("k", 0, &identity("L", "q2")).unwrap_err(),
            Change::Kind
        );
        assert_eq!(
            carried.register("k", 0, &identity("K", "q3")).unwrap_err(),
            Change::Message
        );
        // The next await of the key is a question of its own, with no replies yet.
        let next = carried.register("k", 1, &identity("L", "other")).unwrap();
        assert!(next.replies.is_empty() && !next.changed);
    }
}
