//! URL mode: send the user to a page for what a form must not carry (here, a payment), on
//! 2025-11-25 and on 2026-07-28.
//!
//! Run with `cargo run -p elicit-ask-examples --example url_mode`.

#[path = "support/plain.rs"]
mod plain;

use elicit_core::ask::{Ask, Asked};
use elicit_core::{
    ElicitationComplete, ProtocolVersion, UrlElicitResult, UrlElicitationRequired, UrlRequest,
};
use serde_json::json;

fn show(title: &str, value: &serde_json::Value) {
    println!(
        "{title}:\n{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

const PAY_URL: &str = "https://shop.example.com/pay?order=1234";

/// A tool that sends the user to the payment page, through `Ask`: the same body on every
/// version.
async fn book(ask: &Ask) -> Asked<String> {
    ask.run(async {
        Ok(
            match ask.url("payment", "Pay the deposit", PAY_URL).await? {
                UrlElicitResult::Accept => "the user is paying".to_owned(),
                UrlElicitResult::Decline => "the user declined to pay: stop".to_owned(),
                UrlElicitResult::Cancel => "dismissed: ask once more".to_owned(),
            },
        )
    })
    .await
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pay_url = PAY_URL;

    // 2025-11-25: the server sends elicitation/create with mode "url" and an elicitationId...
    let request = UrlRequest::new(
        ProtocolVersion::V2025_11_25,
        "Pay the deposit for order 1234 on our payment page",
        pay_url,
        "pay-1234",
    )?;
    show("2025-11-25 request", &request.to_jsonrpc(1)?);

    // ...the client answers with consent only: no content travels through it.
    let answer = UrlElicitResult::from_json(r#"{"action":"accept"}"#)?;
    println!("the user {} opening the page\n", answer.action());

    // When the page is done, the server says so, and the client may retry what waited on it.
    show(
        "completion notification",
        &ElicitationComplete::new(ProtocolVersion::V2025_11_25, "pay-1234")?.to_jsonrpc(),
    );

    // A request that cannot go on until the user visits a page fails with -32042.
    let required = UrlElicitationRequired::new(
        ProtocolVersion::V2025_11_25,
        "Payment is required before booking",
        vec![request],
    )?;
    show("-32042 error response", &required.to_jsonrpc(2));

    // URL mode does not exist on 2025-06-18.
    let refused = UrlRequest::new(ProtocolVersion::V2025_06_18, "Pay", pay_url, "pay-1234");
    println!("on 2025-06-18: {}\n", refused.unwrap_err());

    // 2026-07-28: the tool call returns the request in `inputRequests`, with the sealed
    // state; there is no elicitationId on the wire, the key names it.
    let meta = json!({"io.modelcontextprotocol/clientCapabilities": {"elicitation": {"url": {}}}});
    let first = json!({"name": "book", "_meta": meta});
    let round = plain::result(book(&plain::ask(&first)).await);
    show("2026-07-28 tool result", &round);

    // The retry carries the user's answer under the key, and the state.
    let retry = json!({
        "name": "book",
        "_meta": meta,
        "inputResponses": {"payment": {"action": "decline"}},
        "requestState": round["requestState"],
    });
    show(
        "the retry's result",
        &plain::result(book(&plain::ask(&retry)).await),
    );
    Ok(())
}
