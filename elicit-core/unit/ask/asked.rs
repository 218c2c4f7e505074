//! Unit tests of `ask::asked`, beside the crate's sources so that they reach its private items.

use super::*;

/// A state the client sent is refused with one message whatever was wrong with it, but a
/// replay (where it guards against one) is said; a state the server could not seal, and a
/// store it could not reach, are the server's fault, the store's in fixed words.
#[test]
fn a_refused_state_is_the_clients_and_an_unsealed_one_the_servers() {
    let code = |error| match Interrupt::State(error).ending() {
        Ending::Rpc(e) => (e.code, e.message),
        other => panic!("{other:?}"),
    };
    for refused in [
        StateError::DoesNotOpen,
        StateError::Unreadable("not a sealed requestState".into()),
    ] {
        let (code, message) = code(refused);
        assert_eq!((code, message.as_str()), (-32602, STATE_REFUSED));
        // Only a state whose round ran is said to be used.
        assert!(!message.contains("used already"), "{message}");
    }
    assert_eq!(code(StateError::Replayed), (-32602, STATE_USED.to_owned()));
    let (fault, message) = code(StateError::Unsealed("no random bytes".into()));
    assert_eq!(fault, -32603);
    assert!(
        message.contains("could not be sealed: no random bytes"),
        "{message}"
    );
    // The store's own words stay in the server's traces.
    let (fault, message) = code(StateError::Store("ECONNREFUSED 10.0.0.7:6379".into()));
    assert_eq!((fault, message.as_str()), (-32603, STORE_UNAVAILABLE));
}

/// Only the constructor that says no effect happened releases a round; every other
/// ending of a body is recorded.
#[test]
fn only_a_retryable_error_releases_its_round() {
    assert!(Interrupt::retryable(RpcError::internal("down")).releases_round());
    assert!(!Interrupt::Error(RpcError::internal("down")).releases_round());
    assert!(!Interrupt::Send(SendError::Transport("gone".into())).releases_round());
}
