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
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

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
    /// The form's fields (by name: their order is no change) or rules.
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

/// Why a `requestState` was refused, or could not be sealed. The tool body does not run on a
/// refused state.
///
/// The client is told one thing for a state that was altered, unreadable or bound to another
/// call or caller (its state was refused); it is told the cause of the others: a state used
/// already, a round still running elsewhere, a state too large to carry. A state that opened
/// under no key of the server's, expired, or holds a payload this build does not read is not
/// refused: the call starts over, asking its questions again and saying so. The variants are
/// for the server's own logs and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum StateError {
    /// The state does not open: altered, or sealed for another call (another tool, other
    /// arguments) or another principal. One authentication tag cannot tell these apart.
    DoesNotOpen,
    /// Sealed under a key this server does not hold (see
    /// [`StateKey::also_opening`](super::StateKey::also_opening)). The call starts over.
    UnknownKey,
    /// The state opened, but its time to live had passed since it was issued. The call starts
    /// over.
    Expired,
    /// The state opened, but holds a payload this build does not read (a deploy between two
    /// rounds). The call starts over.
    Outdated(String),
    /// No state could be sealed: the operating system gave no random bytes, or the key's
    /// principal reads another SDK's request context. A fault in the server: the call ends
    /// with a JSON-RPC internal error, not a refused state.
    Unsealed(String),
    /// The answers so far would make a state larger than the key seals
    /// ([`StateKey::with_max_state`](super::StateKey::with_max_state)).
    TooLarge {
        /// The state's size, as JSON, in bytes.
        size: usize,
        /// The largest the key seals.
        limit: usize,
    },
    /// Not a sealed state.
    Unreadable(String),
    /// The state opened, but its round ran with other answers, or its call has moved on to a
    /// later round ([`RoundStore`](super::RoundStore)).
    Replayed,
    /// The same retry is running elsewhere, and did not finish within
    /// [`StateKey::CLAIM_WAIT`](super::StateKey::CLAIM_WAIT).
    InProgress,
    /// The store had no record of the call's round once more after the call had started over
    /// [`Ask::MAX_RESTARTS`](super::Ask::MAX_RESTARTS) times (each time the call starts over):
    /// the store keeps losing its records, or letting them go to make room.
    Forgotten,
    /// The store had no record of the call's round, and its generation is one an earlier
    /// round of the call was issued under: the call's rounds go back and forth between servers
    /// that do not share one store.
    Unshared,
    /// The key's store could not claim the round: unreachable, or full of running rounds. A
    /// fault in the server: the call ends with a JSON-RPC internal error, and no body runs
    /// unguarded.
    Store(String),
    /// The key's store could not keep a first call's round (unreachable, or full of running
    /// rounds), so its questions cannot be asked: the body ran up to them.
    Unkept(String),
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
            StateError::Expired => f.write_str("the requestState has expired"),
            StateError::Outdated(e) => {
                write!(
                    f,
                    "the requestState holds what this build does not read: {e}"
                )
            }
            StateError::Unsealed(e) => write!(f, "the requestState could not be sealed: {e}"),
            StateError::TooLarge { size, limit } => write!(
                f,
                "the answers so far take {size} bytes, more than the {limit} the server carries \
                 from round to round"
            ),
            StateError::Unreadable(e) => write!(f, "the requestState cannot be read: {e}"),
            StateError::Replayed => f.write_str("the requestState was used already"),
            StateError::InProgress => f.write_str("the same retry is still running elsewhere"),
            StateError::Forgotten => f.write_str(
                "the store had no record of this call's round again, after the call had started \
                 over for it as often as it may: the store keeps losing its records, or letting \
                 them go to make room",
            ),
            StateError::Unshared => f.write_str(
                "the store had no record of this call's round, and is one an earlier round of the \
                 call reached: its servers do not share one store",
            ),
            StateError::Store(e) => write!(f, "the state store is unavailable: {e}"),
            StateError::Unkept(e) => write!(
                f,
                "the state store could not keep the call's first round: {e}"
            ),
        }
    }
}

impl std::error::Error for StateError {}

/// What a sealed state binds to: a digest of the tool's name, its arguments and the caller's
/// principal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Binding([u8; 32]);

impl Binding {
    /// The digest, as a seal's associated data.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.0
    }

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
    crate::sort::stable(&mut keys, &Ord::cmp);
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
    /// The call's id ([`Ask::call_id`](super::Ask::call_id)): drawn on its first call, the same
    /// in every round after.
    pub call: String,
    /// The store's generation the state was issued under: empty until the first round ends.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generation: String,
    /// How many rounds ended asking for input.
    pub round: u32,
    /// The round the call started over at, where it did: the round cap counts from it.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from: u32,
    /// How many times the call started over because the store had no record of its round.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub restarts: u32,
    /// The store generations the call's states were issued under before each start-over: a
    /// round that reaches one of them again went to a server of another store.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seen: Vec<String>,
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
    pub const VERSION: u32 = 4;

    /// A first call's state: nothing asked yet, and an id of its own.
    pub fn new() -> Result<Self, StateError> {
        let mut id = [0u8; 16];
        getrandom::fill(&mut id)
            .map_err(|e| StateError::Unsealed(format!("no random bytes for a call's id: {e}")))?;
        Ok(Self::of(digest(&id)))
    }

    /// A first call's state, for the call `call` that starts over.
    pub fn of(call: String) -> Self {
        Carried {
            v: Self::VERSION,
            call,
            ..Carried::default()
        }
    }

    /// The state of this call started over: its id and its rounds' numbering kept (so that a
    /// copy of an earlier round's retry finds a later round in the store, and is refused as
    /// used), the rounds it may still take counted from here, and nothing asked yet.
    pub fn again(&self) -> Self {
        Carried {
            round: self.round,
            from: self.round,
            restarts: self.restarts,
            seen: self.seen.clone(),
            ..Carried::of(self.call.clone())
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

/// What a question asks: the one classification the engine makes of questions, for the
/// capability it needs, what of a reply is carried, and its identity.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum QuestionKind {
    /// A form.
    Form,
    /// A yes/no form that only the person may answer.
    Confirm,
    /// A URL-mode page.
    Url,
    /// A completion from the client's model.
    Sample,
    /// The client's roots.
    Roots,
}

/// What makes a question the same question in every round: what it asks, and digests of its
/// message, its choices (as a set) and the rest of its form. Never a Rust type name, which
/// may change with the compiler.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    #[serde(rename = "k")]
    pub kind: QuestionKind,
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

fn is_zero(n: &u32) -> bool {
    *n == 0
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

/// `span` in whole milliseconds (`u64::MAX` for a span longer than that).
pub(crate) fn millis(span: Duration) -> u64 {
    u64::try_from(span.as_millis()).unwrap_or(u64::MAX)
}

/// `at` in milliseconds since the Unix epoch (0 for a time before it).
pub(crate) fn epoch_ms(at: SystemTime) -> u64 {
    millis(at.duration_since(UNIX_EPOCH).unwrap_or_default())
}

/// Now, in milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> u64 {
    epoch_ms(SystemTime::now())
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
        self.took_ms.push(took.map(millis));
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
#[path = "../../unit/ask/state.rs"]
pub(crate) mod tests;
