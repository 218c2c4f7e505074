//! Unit tests of `ask::question::carry`, beside the crate's sources so that they reach its private items.

use super::*;

#[test]
fn an_elicitation_keeps_its_action_and_an_accepts_content_only() {
    let padded = json!({"action": "cancel", "content": {"x": 1}, "_meta": {"pad": "x"}, "y": 2});
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
    let big = json!({"action": "accept", "content": {"note": "x".repeat(Ask::MAX_CARRIED_REPLY)}});
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
