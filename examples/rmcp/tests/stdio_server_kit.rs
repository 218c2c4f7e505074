//! `stdio_server`'s `book_table` through the test kit: the form, and its answer from the
//! `booking` argument when the client cannot show forms, on every protocol version.

#[allow(dead_code)] // The example's `main` and helpers are not called here.
#[path = "../examples/stdio_server.rs"]
mod stdio_server;

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ScriptedClient};
use serde_json::json;
use stdio_server::Restaurant;

#[tokio::test]
async fn book_table_asks_or_takes_the_booking_argument() {
    let booking = json!({"name": "Ada", "party_size": 2, "seating": "Indoor"});
    let written = json!({"action": "accept", "content": booking});
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(Answer::accept(booking.clone()));
        let outcome = client
            .call_tool(Restaurant, "book_table", json!({}))
            .await
            .unwrap();
        assert_eq!(
            outcome.json(),
            Some(written.clone()),
            "{version}: {}",
            outcome.text()
        );

        let bare = ScriptedClient::new(version).without_elicitation();
        let outcome = bare
            .call_tool(Restaurant, "book_table", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        assert_eq!(outcome.unavailable().unwrap()["key"], "booking");
        let outcome = bare
            .call_tool(Restaurant, "book_table", json!({"booking": booking}))
            .await
            .unwrap();
        assert_eq!(
            outcome.json(),
            Some(json!({"action": "accept", "content": booking}))
        );
    }
}
