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
mod tests {
    use super::*;

    #[test]
    fn an_elicitation_keeps_its_action_and_an_accepts_content_only() {
        let padded =
            json!({"action": "cancel", "content": {"x": 1}, "_meta": {"pad": "x"}, "y": 2});
        assert_eq!(
            carry(QuestionKind::Form, &padded),
            json!({"action": "cancel"})
        );
        let accept = json!({"action": "accept", "content": {"x": 1}, "_meta": {}});
        assert_eq!(
            carry(QuestionKind::Confirm, &accept),
            json!({"action": "accept", "content": {"x": 1}})
        );
        // Not an object: carried as it came, to be refused when read.
        assert_eq!(carry(QuestionKind::Form, &json!([1])), json!([1]));
    }

    #[cfg(feature = "sampling")]
    #[test]
    fn a_completion_and_roots_keep_their_results_fields() {
        let sampled = json!({
            "role": "assistant", "model": "m", "stopReason": "endTurn",
            "content": {"type": "text", "text": "Paris"}, "_meta": {"pad": 1}, "extra": true
        });
        let carried = carry(QuestionKind::Sample, &sampled);
        assert!(
            carried.get("_meta").is_none() && carried.get("extra").is_none(),
            "{carried}"
        );
        assert_eq!(carried["model"], "m");
        let roots = json!({"roots": [{"uri": "file:///a", "name": "a", "x": 1}], "_meta": {}});
        assert_eq!(
            carry(QuestionKind::Roots, &roots),
            json!({"roots": [{"uri": "file:///a", "name": "a"}]})
        );
    }

    #[test]
    fn a_reply_past_the_documented_limit_as_it_came_is_refused_however_it_is_padded() {
        let padded = json!({"action": "cancel", "_meta": {"pad": "x".repeat(1 << 20)}});
        let error = too_large(&carry(QuestionKind::Form, &padded)).unwrap();
        assert_eq!(
            error.violations()[0].rule(),
            &Rule::ReplyTooLarge(Limits::DEFAULT.max_reply_bytes())
        );
    }

    #[test]
    fn past_the_limit_a_reply_is_a_stand_in_that_reads_as_too_large() {
        let big =
            json!({"action": "accept", "content": {"note": "x".repeat(Ask::MAX_CARRIED_REPLY)}});
        let carried = carry(QuestionKind::Form, &big);
        assert!(json_len(&carried) < 64, "{carried}");
        let error = too_large(&carried).unwrap();
        assert_eq!(
            error.violations()[0].rule(),
            &Rule::ReplyTooLarge(Ask::MAX_CARRIED_REPLY)
        );
        assert!(too_large(&carry(QuestionKind::Form, &json!({"action": "decline"}))).is_none());
    }

    #[test]
    fn each_limit_names_itself_and_the_field() {
        let read = |content: Value| {
            let reply = json!({"action": "accept", "content": content});
            too_large(&carry(QuestionKind::Form, &reply))
                .unwrap()
                .to_string()
        };
        // One field over the limit of one field's answer: named.
        assert_eq!(
            read(json!({"title": "x".repeat(900_000), "n": 1})),
            "`title` is longer than the limit of 64 KiB for one field's answer"
        );
        // Fields each within it, together over what one answer may carry.
        let forty = "x".repeat(40_000);
        assert_eq!(
            read(json!({"a": forty, "b": forty})),
            "content is larger than the limit of 64 KiB for a whole answer"
        );
        // Past the limit of a whole reply as it came.
        assert_eq!(
            read(json!({"title": "x".repeat(2_000_000)})),
            "content is larger than the limit of 1 MiB for a whole answer"
        );
    }
}
