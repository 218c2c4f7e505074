//! The sealed `requestState` of a tool that asks on 2026-07-28: what was asked and answered in
//! earlier rounds, signed so the client cannot change it.
//!
//! The payload is integrity-protected with HMAC-SHA256 (rmcp's `RequestStateCodec`), bound to
//! the tool's name and a digest of its arguments, and given a time to live. It is readable by the
//! client (it holds the client's own answers), so it carries nothing secret.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::rmcp::model::{JsonObject, RequestStateCodec, RequestStateError, SealOptions};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// How long a sealed state stays valid by default: the time a user has to answer one round.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

/// The key that seals the `requestState` of tools that ask on 2026-07-28.
///
/// 2026-07-28 is stateless: the answers of earlier rounds travel with the client, and come back
/// with each retry. They are sealed with this key, so a client cannot alter them, replay them
/// against another call, or keep them past their time to live.
///
/// - A single-process server needs nothing: [`StateKey::installed`] makes a random key the
///   first time it is needed.
/// - Servers that share a key finish each other's calls (round 1 on one process, round 2 on
///   another): give every process the same secret of 32 bytes or more, and
///   [`install`](StateKey::install) it at start-up.
/// - For key rotation, build rmcp's `RequestStateCodec` with a keyring and pass it to
///   [`from_codec`](StateKey::from_codec).
///
/// ```
/// use elicit_core::rmcp::StateKey;
///
/// let key = StateKey::new(b"a secret of at least thirty-two bytes".to_vec()).unwrap();
/// assert!(StateKey::new(b"too short".to_vec()).is_err());
/// # let _ = key;
/// ```
#[derive(Clone)]
pub struct StateKey {
    inner: Arc<Keyed>,
}

struct Keyed {
    codec: RequestStateCodec,
    ttl: Duration,
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKey")
            .field("key", &"<redacted>")
            .field("ttl", &self.inner.ttl)
            .finish()
    }
}

/// A sealing key that cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum StateKeyError {
    /// The secret is shorter than 32 bytes, or the keyring is not valid.
    Key(RequestStateError),
    /// The operating system gave no random bytes for a key.
    Random(String),
}

impl fmt::Display for StateKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateKeyError::Key(e) => write!(f, "the requestState key cannot be used: {e}"),
            StateKeyError::Random(e) => write!(f, "no random bytes for a requestState key: {e}"),
        }
    }
}

impl std::error::Error for StateKeyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StateKeyError::Key(e) => Some(e),
            StateKeyError::Random(_) => None,
        }
    }
}

static INSTALLED: OnceLock<StateKey> = OnceLock::new();

impl StateKey {
    /// The shortest secret accepted, in bytes.
    pub const MIN_LEN: usize = RequestStateCodec::MIN_KEY_LENGTH;

    /// A key from a secret of at least [`MIN_LEN`](Self::MIN_LEN) bytes, with the default time
    /// to live ([`DEFAULT_TTL`]).
    pub fn new(secret: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        RequestStateCodec::try_new(secret)
            .map(Self::from_codec)
            .map_err(StateKeyError::Key)
    }

    /// A random key, for one process.
    pub fn random() -> Result<Self, StateKeyError> {
        let mut secret = vec![0u8; 32];
        getrandom::fill(&mut secret).map_err(|e| StateKeyError::Random(e.to_string()))?;
        Self::new(secret)
    }

    /// A key around a codec of rmcp's, for example one with a keyring for rotation.
    #[must_use]
    pub fn from_codec(codec: RequestStateCodec) -> Self {
        StateKey {
            inner: Arc::new(Keyed {
                codec,
                ttl: DEFAULT_TTL,
            }),
        }
    }

    /// How long a sealed state stays valid after it is sent: the time a user has to answer one
    /// round.
    #[must_use]
    pub fn with_ttl(self, ttl: Duration) -> Self {
        StateKey {
            inner: Arc::new(Keyed {
                codec: self.inner.codec.clone(),
                ttl,
            }),
        }
    }

    /// The time to live of each sealed state.
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.inner.ttl
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

    pub(crate) fn seal(&self, payload: &Carried, binding: &Binding) -> String {
        let options = SealOptions::new()
            .associated_data(&binding.0)
            .ttl(self.inner.ttl);
        // A map of strings and JSON values always serializes.
        let bytes = serde_json::to_vec(payload).unwrap_or_default();
        self.inner.codec.seal_with(&bytes, &options)
    }

    pub(crate) fn open(&self, sealed: &str, binding: &Binding) -> Result<Carried, StateError> {
        let bytes = self
            .inner
            .codec
            .open_with(sealed, &binding.0)
            .map_err(|e| match e {
                RequestStateError::Expired => StateError::Expired,
                other => StateError::Forged(other.to_string()),
            })?;
        let carried: Carried =
            serde_json::from_slice(&bytes).map_err(|e| StateError::Unreadable(e.to_string()))?;
        if carried.v != Carried::VERSION {
            return Err(StateError::Unreadable(format!(
                "payload version {} (this build reads {})",
                carried.v,
                Carried::VERSION
            )));
        }
        Ok(carried)
    }
}

/// Why a `requestState` was refused. The tool body does not run on refused state.
///
/// The client is told one thing for all of them (its state was refused); the variants are for
/// the server's own logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The state does not verify: altered, truncated, sealed under another key, or taken from
    /// a call to another tool or with other arguments. The text is the codec's reason.
    Forged(String),
    /// The state verified, but its time to live had passed.
    Expired,
    /// The state verified, but holds a payload this build does not read.
    Unreadable(String),
    /// The retry carried `inputResponses` without the `requestState` of the round that asked.
    Missing,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Forged(e) => write!(f, "the requestState does not verify: {e}"),
            StateError::Expired => f.write_str("the requestState has expired"),
            StateError::Unreadable(e) => write!(f, "the requestState cannot be read: {e}"),
            StateError::Missing => {
                f.write_str("inputResponses arrived without the requestState that asked for them")
            }
        }
    }
}

impl std::error::Error for StateError {}

/// What a sealed state binds to: a digest of the tool's name and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding([u8; 32]);

impl Binding {
    /// The binding of a call to `tool` with `arguments` (absent arguments read as `{}`). Object
    /// keys are sorted first, so a client that writes the same arguments in another key order
    /// still matches.
    pub(crate) fn of(tool: &str, arguments: Option<&JsonObject>) -> Self {
        let mut hash = Hashing(Sha256::new());
        hash.0.update(b"elicit-core/ask/v1\0");
        hash.0.update(tool.as_bytes());
        hash.0.update(b"\0");
        let empty = JsonObject::new();
        // Writing to a hasher cannot fail.
        let _ = canonical(&mut hash, arguments.unwrap_or(&empty));
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
    /// Every question asked so far, by key.
    pub keys: BTreeMap<String, Answers>,
    /// When the state was sealed, in milliseconds since the Unix epoch: the retry's answers
    /// took from then to their arrival.
    #[serde(default)]
    pub sealed_ms: u64,
}

impl Carried {
    pub const VERSION: u32 = 1;

    pub fn new() -> Self {
        Carried {
            v: Self::VERSION,
            ..Carried::default()
        }
    }

    /// The replies so far to the question under `key`, registered as `kind` if it is new; or,
    /// when the key was asked as something else, what that was.
    pub fn register(&mut self, key: &str, kind: &str) -> Result<&Answers, &str> {
        let answers = self.keys.entry(key.to_owned()).or_insert_with(|| Answers {
            kind: kind.to_owned(),
            replies: Vec::new(),
            took_ms: Vec::new(),
        });
        if answers.kind == kind {
            Ok(answers)
        } else {
            Err(&answers.kind)
        }
    }

    /// Adds a reply to the question under `key`, which was registered, and how long it took.
    pub fn push_reply(&mut self, key: &str, reply: Value, took: Option<Duration>) {
        if let Some(answers) = self.keys.get_mut(key) {
            answers.push(reply, took);
        }
    }
}

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
}

/// One question: what it was asked as, and every reply to it so far, oldest first, with how
/// long each took where that is known.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Answers {
    pub kind: String,
    pub replies: Vec<Value>,
    #[serde(default)]
    pub took_ms: Vec<Option<u64>>,
}

impl Answers {
    pub fn push(&mut self, reply: Value, took: Option<Duration>) {
        // Older states carry no times: keep the two lists the same length.
        self.took_ms.resize(self.replies.len(), None);
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

    #[test]
    fn bindings_ignore_key_order_but_not_values_or_tools() {
        let a = object(json!({"b": 1, "a": {"y": [1, {"q": 2, "p": 3}], "x": "s"}}));
        let b = object(json!({"a": {"x": "s", "y": [1, {"p": 3, "q": 2}]}, "b": 1}));
        assert_eq!(Binding::of("t", Some(&a)), Binding::of("t", Some(&b)));
        assert_ne!(Binding::of("t", Some(&a)), Binding::of("u", Some(&a)));
        let c = object(json!({"b": 2, "a": {"y": [1, {"q": 2, "p": 3}], "x": "s"}}));
        assert_ne!(Binding::of("t", Some(&a)), Binding::of("t", Some(&c)));
        assert_eq!(
            Binding::of("t", None),
            Binding::of("t", Some(&JsonObject::new()))
        );
        // The tool name and the arguments cannot trade bytes.
        assert_ne!(
            Binding::of("t\0{}", None),
            Binding::of("t", Some(&object(json!({}))))
        );
    }

    #[test]
    fn a_sealed_state_opens_only_with_its_key_and_binding() {
        let key = StateKey::new(vec![7u8; 32]).unwrap();
        let binding = Binding::of("t", None);
        let mut carried = Carried::new();
        carried.round = 2;
        carried.keys.insert(
            "k".into(),
            Answers {
                kind: "K".into(),
                replies: vec![serde_json::json!({"action": "cancel"})],
                took_ms: vec![Some(40)],
            },
        );
        let sealed = key.seal(&carried, &binding);
        assert_eq!(key.open(&sealed, &binding).unwrap(), carried);
        assert!(matches!(
            key.open(&sealed, &Binding::of("u", None)),
            Err(StateError::Forged(_))
        ));
        let other = StateKey::new(vec![8u8; 32]).unwrap();
        assert!(matches!(
            other.open(&sealed, &binding),
            Err(StateError::Forged(_))
        ));
        assert!(key.open(&sealed[..sealed.len() - 1], &binding).is_err());
    }
}
