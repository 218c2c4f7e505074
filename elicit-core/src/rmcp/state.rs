//! The sealed `requestState` of a tool that asks on 2026-07-28: what was asked and answered in
//! earlier rounds, encrypted so that nothing between the client and the server can read or
//! change it.
//!
//! The payload is sealed with XChaCha20-Poly1305 ([`seal`](super::seal)), bound by its
//! associated data to the tool's name, a digest of its arguments and the caller's principal,
//! and given a time to live. Each answer also records a digest of the question it answers.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ::rmcp::model::JsonObject;
use ::rmcp::service::{RequestContext, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::seal::{Refused, Sealer, open};

/// How long a sealed state stays valid by default: the time a user has to answer one round.
pub const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

/// Who the caller is, from the request: `None` for nobody in particular.
type Principal = Arc<dyn Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync>;

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
///   another): give every process the same secret of 32 bytes or more, and
///   [`install`](StateKey::install) it at start-up. The cipher's key is derived from the secret
///   with HKDF-SHA256, so the secret serves every process as it is.
/// - **Rotation**: seal with the new secret and still open states of the old one with
///   [`also_opening`](StateKey::also_opening); drop the old one after a time to live.
/// - **Users**: [`with_principal`](StateKey::with_principal) names who the caller is, and a
///   state sealed for one principal opens for no other.
///
/// ```
/// use elicit_core::rmcp::StateKey;
///
/// let key = StateKey::new(b"a secret of at least thirty-two bytes".to_vec())?
///     .also_opening(b"last month's secret, thirty-two bytes".to_vec())?;
/// assert!(StateKey::new(b"too short".to_vec()).is_err());
/// # let _ = key;
/// # Ok::<(), elicit_core::rmcp::StateKeyError>(())
/// ```
#[derive(Clone)]
pub struct StateKey {
    /// The first seals; every one opens.
    keys: Arc<Vec<Sealer>>,
    ttl: Duration,
    principal: Option<Principal>,
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKey")
            .field("keys", &self.keys.len())
            .field("ttl", &self.ttl)
            .field("principal", &self.principal.is_some())
            .finish()
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

    /// A key from a secret of at least [`MIN_LEN`](Self::MIN_LEN) bytes, with the default time
    /// to live ([`DEFAULT_TTL`]).
    pub fn new(secret: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        Ok(StateKey {
            keys: Arc::new(vec![sealer(secret.into())?]),
            ttl: DEFAULT_TTL,
            principal: None,
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

    /// Names who the caller of a request is (an OAuth subject from the HTTP request parts rmcp
    /// puts in the context's extensions, say). A state sealed for one principal opens for no
    /// other, and not for a request without one. The id is bound into the seal's associated
    /// data, never written into the state.
    #[must_use]
    pub fn with_principal(
        mut self,
        principal: impl Fn(&RequestContext<RoleServer>) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(principal));
        self
    }

    /// The caller's principal for `context`, if the key names one.
    pub(crate) fn principal_of(&self, context: &RequestContext<RoleServer>) -> Option<String> {
        self.principal
            .as_ref()
            .and_then(|principal| principal(context))
    }

    /// How long a sealed state stays valid after it is sent: the time a user has to answer one
    /// round.
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

    /// Opens a state sealed for the call `binding` names, within its time to live.
    pub(crate) fn open(&self, sealed: &str, binding: &Binding) -> Result<Carried, StateError> {
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
        Ok(carried)
    }
}

/// The cipher key of a secret long enough to be one.
fn sealer(secret: Vec<u8>) -> Result<Sealer, StateKeyError> {
    if secret.len() < StateKey::MIN_LEN {
        return Err(StateKeyError::Short(secret.len()));
    }
    Ok(Sealer::derive(&secret))
}

/// Why a `requestState` was refused. The tool body does not run on refused state.
///
/// The client is told one thing for all of them (its state was refused); the variants are for
/// the server's own logs and tests.
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
    /// No state could be sealed: the operating system gave no random bytes, or the payload is
    /// too long for the cipher.
    Unsealed(String),
    /// Not a sealed state, or one that opened but holds a payload this build does not read.
    Unreadable(String),
    /// The retry carried `inputResponses` without the `requestState` of the round that asked.
    Missing,
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
            StateError::Missing => {
                f.write_str("inputResponses arrived without the requestState that asked for them")
            }
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
        hash.0.update(b"elicit-core/ask/v2\0");
        hash.0.update(tool.as_bytes());
        hash.0.update(b"\0");
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
    /// Every question asked so far, by key.
    pub keys: BTreeMap<String, Answers>,
    /// When the state was sealed, in milliseconds since the Unix epoch: the retry's answers
    /// took from then to their arrival.
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
    ///
    /// `question` is the digest of the question as the body asks it now. Replies to a question
    /// that has changed since (a field added between two rounds, say) are dropped: they answer
    /// something else, and the question is asked again.
    pub fn register(&mut self, key: &str, kind: &str, question: &str) -> Result<&Answers, &str> {
        let answers = self.keys.entry(key.to_owned()).or_insert_with(|| Answers {
            kind: kind.to_owned(),
            question: question.to_owned(),
            replies: Vec::new(),
            took_ms: Vec::new(),
        });
        if answers.kind != kind {
            return Err(&answers.kind);
        }
        if answers.question != question {
            answers.question = question.to_owned();
            answers.replies.clear();
            answers.took_ms.clear();
        }
        Ok(answers)
    }

    /// Adds a reply to the question under `key`, which was registered, and how long it took.
    pub fn push_reply(&mut self, key: &str, reply: Value, took: Option<Duration>) {
        if let Some(answers) = self.keys.get_mut(key) {
            answers.push(reply, took);
        }
    }
}

/// A short digest of a question, from its parts (its kind, schema and message): enough to
/// tell that a question changed between two rounds.
pub(crate) fn question_digest(parts: &[&[u8]]) -> String {
    use base64::Engine;

    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_be_bytes());
        hash.update(part);
    }
    let digest = hash.finalize();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&digest[..12])
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
    /// The digest of the question the replies answer ([`question_digest`]).
    pub question: String,
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

    fn carried() -> Carried {
        let mut carried = Carried::new();
        carried.round = 2;
        carried.keys.insert(
            "k".into(),
            Answers {
                kind: "K".into(),
                question: "q".into(),
                replies: vec![json!({"action": "accept", "content": {"city": "Quillacollo"}})],
                took_ms: vec![Some(40)],
            },
        );
        carried
    }

    #[test]
    fn each_refusal_is_its_own_error() {
        let key = StateKey::new(vec![7u8; 32]).unwrap();
        let binding = of("t", None);
        let sealed = key.seal(&carried(), &binding).unwrap();
        assert_eq!(key.open(&sealed, &binding).unwrap(), carried());

        // Another call, another principal, none, or a changed byte: the tag does not verify.
        let ada = Binding::of("t", None, Some("ada"));
        let for_ada = key.seal(&carried(), &ada).unwrap();
        for (state, binding) in [
            (&sealed, of("u", None)),
            (&sealed, ada.clone()),
            (&for_ada, Binding::of("t", None, Some("bob"))),
            (&for_ada, of("t", None)),
        ] {
            assert_eq!(key.open(state, &binding), Err(StateError::DoesNotOpen));
        }
        assert_eq!(key.open(&for_ada, &ada).unwrap(), carried());
        let mut bytes = sealed.clone().into_bytes();
        let last = bytes.len() - 3;
        bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
        let altered = String::from_utf8(bytes).unwrap();
        assert_eq!(key.open(&altered, &binding), Err(StateError::DoesNotOpen));

        // Sealed under a key this server does not hold, until it also opens that one.
        let other = StateKey::new(vec![8u8; 32]).unwrap();
        assert_eq!(other.open(&sealed, &binding), Err(StateError::UnknownKey));
        let rotated = other.also_opening(vec![7u8; 32]).unwrap();
        assert_eq!(rotated.open(&sealed, &binding).unwrap(), carried());
        // It seals with its own key, which the old one does not hold.
        let new = rotated.seal(&carried(), &binding).unwrap();
        assert_eq!(key.open(&new, &binding), Err(StateError::UnknownKey));

        // Issued longer ago than the time to live.
        let bytes = serde_json::to_vec(&carried()).unwrap();
        let old = key.keys[0]
            .seal(&bytes, &binding.0, now_ms() - 7_200_000)
            .unwrap();
        assert_eq!(key.open(&old, &binding), Err(StateError::Expired));
        let patient = key.clone().with_ttl(Duration::from_secs(3 * 3600));
        assert!(patient.open(&old, &binding).is_ok());

        // Not a state at all.
        for junk in ["", "step-2", &sealed[..sealed.len() / 2]] {
            assert!(matches!(
                key.open(junk, &binding),
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
    fn a_changed_question_drops_its_answers() {
        let mut carried = carried();
        assert_eq!(carried.register("k", "K", "q").unwrap().replies.len(), 1);
        assert!(carried.register("k", "K", "q2").unwrap().replies.is_empty());
        assert_eq!(carried.register("k", "L", "q2").unwrap_err(), "K");
    }
}
