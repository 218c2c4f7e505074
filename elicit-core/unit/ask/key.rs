//! Unit tests of `ask::key`, beside the crate's sources so that they reach its private items.

use super::*;

fn of(tool: &str) -> Binding {
    Binding::of(tool, None, None)
}

/// Opens `sealed`, without its issue time.
fn opened(key: &StateKey, sealed: &str, binding: &Binding) -> Result<Carried, StateError> {
    key.open(sealed, binding).map(|(carried, _)| carried)
}

/// The state's own test state, in its second round.
fn carried() -> Carried {
    let mut carried = crate::ask::state::tests::carried();
    carried.round = 2;
    carried
}

#[test]
fn each_refusal_is_its_own_error() {
    let key = StateKey::new(vec![7u8; 32]).unwrap();
    let binding = of("t");
    let sealed = key.seal(&carried(), &binding).unwrap();
    assert_eq!(opened(&key, &sealed, &binding).unwrap(), carried());

    // Another call, another principal, none, or a changed byte: the tag does not verify.
    let ada = Binding::of("t", None, Some("ada"));
    let for_ada = key.seal(&carried(), &ada).unwrap();
    for (state, binding) in [
        (&sealed, of("u")),
        (&sealed, ada.clone()),
        (&for_ada, Binding::of("t", None, Some("bob"))),
        (&for_ada, of("t")),
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

    // Its issue time is the one it was sealed with, which the call machine reads against
    // the key's clock.
    let bytes = serde_json::to_vec(&carried()).unwrap();
    let stamp = key.now_ms() - 7_200_000;
    let old = key.keys[0].seal(&bytes, binding.as_bytes(), stamp).unwrap();
    assert_eq!(key.open(&old, &binding).unwrap().1, stamp);
    let behind = key
        .clone()
        .with_clock(|| SystemTime::now() - Duration::from_secs(7_200));
    assert!(behind.now_ms().abs_diff(stamp) < 60_000);

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
    let sealed = key.seal(&carried(), &of("t")).unwrap();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(&sealed)
        .unwrap();
    let text = String::from_utf8_lossy(&bytes);
    for word in ["Quillacollo", "city", "accept", "\"K\""] {
        assert!(!text.contains(word), "{word} in {text}");
    }
    // Two seals of one payload differ: each has its own nonce.
    assert_ne!(sealed, key.seal(&carried(), &of("t")).unwrap());
}
