//! The installed key is made only where a call needs it: an `Ask` whose adapter or tool set a
//! key of its own never makes it, so a key installed later still installs. (A process of its
//! own: the installed key is one per process.)
#![cfg(all(feature = "ask", feature = "derive"))]

#[allow(dead_code)] // Shared with the engine's tests.
#[path = "support/scripted.rs"]
mod scripted;

use elicit_core::ProtocolVersion;
use elicit_core::ask::{Ask, Asked, StateKey};

use scripted::*;

#[tokio::test(flavor = "current_thread")]
async fn an_ask_with_a_key_of_its_own_never_makes_the_installed_one() {
    let version = ProtocolVersion::V2026_07_28;
    let ask = Ask::with_port(call(version, None, None), Scripted::default()).with_key(key());
    let Asked::InputRequired(round) = plan(&ask).await else {
        panic!("round 1 asks")
    };
    let state = round.request_state().map(str::to_owned);
    let retry = call(version, answers(&[("trip", oslo())]), state);
    let ask = Ask::with_port(retry, Scripted::default()).with_key(key());
    assert_eq!(done(plan(&ask).await), "3 nights in Oslo for 120");
    assert!(
        StateKey::new(vec![5u8; 32]).unwrap().install().is_ok(),
        "a key installs after calls that had their own"
    );
}
