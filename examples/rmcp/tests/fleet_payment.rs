//! `fleet_server`'s payment: an error is retryable only where the payment service refused
//! before acting. One after the payment may stand is the call's ending, recorded, never run
//! again: copied onto an API that records and then answers 500, the other way would pay twice.

#[allow(dead_code)] // The example's `main` and its tool are not called here.
#[path = "../examples/fleet_server.rs"]
mod fleet_server;

use elicit_core::ask::Interrupt;
use fleet_server::{Invoice, Payment, paid, pay};

#[test]
fn only_a_payment_refused_before_acting_is_retryable() {
    // The service cannot even take the attempt: its ledger is a file, not a directory.
    let ledger = std::env::temp_dir().join(format!("fleet-ledger-{}", std::process::id()));
    std::fs::write(&ledger, "").unwrap();
    // SAFETY: the only test of this binary; nothing else reads the environment meanwhile.
    unsafe { std::env::set_var("FLEET_LEDGER", &ledger) };
    let invoice = Invoice {
        number: "A-1".into(),
        amount: 10,
    };
    let refused = pay("key", &invoice, false);
    assert!(matches!(refused, Err(Payment::Refused(_))));
    assert!(matches!(paid(refused), Err(Interrupt::Retryable(_))));
    // One that may stand ends the call with its error, recorded.
    let unknown = Err(Payment::Unknown(
        "the service failed after it took it".into(),
    ));
    assert!(matches!(paid(unknown), Err(Interrupt::Error(_))));
    assert!(paid(Ok(())).is_ok());
    let _ = std::fs::remove_file(ledger);
}
