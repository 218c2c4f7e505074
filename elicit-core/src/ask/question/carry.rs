//! What a reply is carried and read as: only what its question reads, and no more than
//! [`Ask::MAX_CARRIED_REPLY`](crate::ask::Ask::MAX_CARRIED_REPLY), on every version.
//!
//! A reply larger than [`Limits::max_reply_bytes`] as it came is refused, as a reply's text
//! is. An elicitation's reply is then its `action` and, on an accept only, its `content`: a
//! decline's content, `_meta` and members no version defines are dropped. A completion is cut
//! to the fields of its result, and roots to theirs. What is left, if it is still larger than
//! the limit, is carried as a stand-in that reads as a reply too large, whatever the
//! question.

use std::io::{self, Write};

#[cfg(feature = "sampling")]
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::ask::Ask;
use crate::ask::state::QuestionKind;
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::limits::Limits;
#[cfg(feature = "sampling")]
use crate::protocol::sampling::{CreateMessageResult, Root};

/// The member of the stand-in for a reply too large: no normal reply has it.
const TOO_LARGE: &str = "replyTooLarge";

/// The member of the stand-in that names the field whose answer made it too large.
const FIELD: &str = "field";

/// The client's answer to `roots/list`, as it is carried.
#[cfg(feature = "sampling")]
#[derive(serde::Serialize, Deserialize)]
pub(crate) struct ListRootsResult {
    pub roots: Vec<Root>,
}

/// `reply` to a question of `kind` (see [`Asking::kind`](super::Asking::kind)), as
/// it is carried.
pub(crate) fn carry(kind: QuestionKind, reply: &Value) -> Value {
    let limit = Limits::DEFAULT.max_reply_bytes();
    if json_len(reply) > limit {
        return json!({ TOO_LARGE: limit });
    }
    let normal = match kind {
        #[cfg(feature = "sampling")]
        QuestionKind::Sample => CreateMessageResult::deserialize(reply)
            .ok()
            .and_then(|r| serde_json::to_value(r).ok()),
        #[cfg(feature = "sampling")]
        QuestionKind::Roots => ListRootsResult::deserialize(reply)
            .ok()
            .and_then(|r| serde_json::to_value(r).ok()),
        _ => reply.as_object().map(|reply| {
            let mut kept = Map::new();
            if let Some(action) = reply.get("action") {
                kept.insert("action".into(), action.clone());
                if action == "accept"
                    && let Some(content) = reply.get("content")
                {
                    kept.insert("content".into(), content.clone());
                }
            }
            Value::Object(kept)
        }),
    };
    // What its question cannot read is carried as it came, to be refused by the same reading.
    let normal = normal.unwrap_or_else(|| reply.clone());
    if json_len(&normal) <= Ask::MAX_CARRIED_REPLY {
        return normal;
    }
    // One field's answer over the limit of one: named, as the reading would name it.
    let longest = (normal.get("content").and_then(Value::as_object))
        .and_then(|content| content.iter().max_by_key(|(_, value)| json_len(value)))
        .filter(|(_, value)| {
            value
                .as_str()
                .is_some_and(|s| s.len() > Limits::DEFAULT.max_string_bytes())
        });
    match longest {
        Some((field, _)) => json!({ TOO_LARGE: Limits::DEFAULT.max_string_bytes(), FIELD: field }),
        None => json!({ TOO_LARGE: Ask::MAX_CARRIED_REPLY }),
    }
}

/// The error of a reply that was too large to carry, where `reply` is its stand-in: it names
/// the limit the reply was over.
pub(crate) fn too_large(reply: &Value) -> Option<ElicitError> {
    let limit = usize::try_from(reply.get(TOO_LARGE)?.as_u64()?).unwrap_or(usize::MAX);
    let (location, rule) = match reply.get(FIELD).and_then(Value::as_str) {
        Some(field) => (Location::Property(field.to_owned()), Rule::TooLong(limit)),
        None => (Location::Content, Rule::ReplyTooLarge(limit)),
    };
    Some(ElicitError::new(vec![Violation::new(location, rule, None)]))
}

/// The length of `value` as compact JSON, without writing it anywhere.
pub(crate) fn json_len(value: &Value) -> usize {
    struct Count(usize);
    impl Write for Count {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0 += bytes.len();
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` to a writer that never fails cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

#[cfg(test)]
#[path = "../../../unit/ask/question/carry.rs"]
mod tests;
