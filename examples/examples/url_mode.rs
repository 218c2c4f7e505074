//! URL mode: send the user to a page for what a form must not carry (here, a payment), on
//! 2025-11-25 and on 2026-07-28.
//!
//! Run with `cargo run -p elicit-examples --example url_mode`.

use elicit_core::{
    ElicitationComplete, InputRequests, InputRequired, InputResponse, InputResponses,
    ProtocolVersion, UrlElicitResult, UrlElicitationRequired, UrlRequest,
};
use serde_json::json;

fn show(title: &str, value: &serde_json::Value) {
    println!(
        "{title}:\n{}\n",
        serde_json::to_string_pretty(value).unwrap_or_default()
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let pay_url = "https://shop.example.com/pay?order=1234";

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

    // 2026-07-28: the tool call returns the request in `inputRequests`; there is no
    // elicitationId on the wire, the key names it.
    let request = UrlRequest::new(
        ProtocolVersion::V2026_07_28,
        "Pay the deposit",
        pay_url,
        "pay-1234",
    )?;
    let mut requests = InputRequests::new();
    requests.url("payment", &request);
    show(
        "2026-07-28 tool result",
        &InputRequired::new(requests).to_value()?,
    );

    let retry = json!({"name": "book", "inputResponses": {"payment": {"action": "decline"}}});
    match InputResponses::from_params(&retry)?.url("payment")? {
        InputResponse::Answered(UrlElicitResult::Accept) => println!("the user is paying"),
        InputResponse::Answered(UrlElicitResult::Decline) => {
            println!("the user declined to pay: stop")
        }
        InputResponse::Answered(UrlElicitResult::Cancel) => println!("dismissed: ask once more"),
        InputResponse::Missing => println!("not answered yet: ask"),
    }
    Ok(())
}
