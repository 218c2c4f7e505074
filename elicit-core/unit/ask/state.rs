//! Unit tests of `ask::state`, beside the crate's sources so that they reach its private items.

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

/// A question's identity with no choices and no form: shared with the key's tests.
pub(crate) fn identity(kind: QuestionKind, message: &str) -> Identity {
    Identity {
        kind,
        message: message.into(),
        choices: String::new(),
        form: String::new(),
    }
}

/// A call's state with one answered form question: shared with the key's tests.
pub(crate) fn carried() -> Carried {
    let mut carried = Carried::of("call".into());
    carried.keys.insert(
        "k".into(),
        vec![Answers {
            identity: identity(QuestionKind::Form, "q"),
            changed: false,
            unasked: false,
            replies: vec![json!({"action": "accept", "content": {"city": "Quillacollo"}})],
            took_ms: vec![Some(40)],
        }],
    );
    carried
}

#[test]
fn a_changed_question_drops_its_answers_once() {
    let mut carried = carried();
    assert_eq!(
        carried
            .register("k", 0, &identity(QuestionKind::Form, "q"))
            .unwrap()
            .replies
            .len(),
        1
    );
    let again = carried
        .register("k", 0, &identity(QuestionKind::Form, "q2"))
        .unwrap();
    assert!(again.replies.is_empty() && again.changed);
    // The same again is no change.
    assert!(
        carried
            .register("k", 0, &identity(QuestionKind::Form, "q2"))
            .is_ok()
    );
    // A second change is the error, saying what changed.
    assert_eq!(
        carried
            .register("k", 0, &identity(QuestionKind::Url, "q2"))
            .unwrap_err(),
        Change::Kind
    );
    assert_eq!(
        carried
            .register("k", 0, &identity(QuestionKind::Form, "q3"))
            .unwrap_err(),
        Change::Message
    );
    // The next await of the key is a question of its own, with no replies yet.
    let next = carried
        .register("k", 1, &identity(QuestionKind::Url, "other"))
        .unwrap();
    assert!(next.replies.is_empty() && !next.changed);
}
