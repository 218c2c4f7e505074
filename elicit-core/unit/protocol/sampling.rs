//! Unit tests of `protocol::sampling`, beside the crate's sources so that they reach its private items.

use super::*;
use serde_json::json;

#[test]
fn a_result_reads_one_block_or_many_and_any_stop_reason() {
    let one: CreateMessageResult = serde_json::from_value(json!({
        "role": "assistant", "content": {"type": "text", "text": "Paris."},
        "model": "m", "stopReason": "endTurn"
    }))
    .unwrap();
    assert_eq!(one, CreateMessageResult::text_from("m", "Paris."));
    let many: CreateMessageResult = serde_json::from_value(json!({
        "role": "assistant", "model": "m", "stopReason": "refusal",
        "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    }))
    .unwrap();
    assert_eq!(many.text(), "ab");
    assert_eq!(many.stop_reason, Some(StopReason::Other("refusal".into())));
    assert_eq!(
        serde_json::to_value(&many).unwrap()["content"][1]["text"],
        "b"
    );
}
