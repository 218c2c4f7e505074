//! `trip_planner` on rust-mcp-sdk, driven as a child process by the test kit's client (rmcp's):
//! each test is an interop test between the two SDKs, on 2026-07-28, the one version the
//! server's SDK speaks. The contract is the rmcp example's.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ChildServer, ScriptedClient, TestError, Transcript};
use rmcp::model::{CallToolRequestParams, CallToolResponse, ErrorCode};
use serde_json::{Value, json};

/// The one version rust-mcp-sdk 2 speaks.
const VERSION: ProtocolVersion = ProtocolVersion::V2026_07_28;
const SECRET: &str = "a secret the planner's processes share, 32 bytes or more";

fn planner() -> ChildServer {
    ChildServer::new(env!("CARGO_BIN_EXE_trip_planner"))
}

fn keyed(secret: &str) -> ChildServer {
    planner().env("TRIP_PLANNER_KEY", secret)
}

fn accept(content: &Value) -> Value {
    json!({"action": "accept", "content": content})
}

async fn call(client: &ScriptedClient, arguments: Value) -> Transcript {
    client
        .call_tool(planner(), "plan_trip", arguments)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_short_trip_is_one_form() {
    let trip = json!({"city": "Lisbon", "nights": 3});
    let client = ScriptedClient::new(VERSION).answer(Answer::accept(trip.clone()));
    let outcome = call(&client, json!({})).await;
    assert_eq!(
        outcome.json(),
        Some(json!({"trip": accept(&trip), "extras": null})),
        "{}",
        outcome.text()
    );
    assert_eq!(outcome.messages(), ["Where would you like to go?"]);
    assert_eq!(outcome.calls, 2);
}

#[tokio::test]
async fn a_week_or_more_asks_for_extras_in_a_round_of_its_own() {
    let extras = json!({"rental_car": true, "budget": "Medium"});
    let client = ScriptedClient::new(VERSION).answers([
        Answer::accept(json!({"city": "Kyoto", "nights": 9})),
        Answer::accept(extras.clone()),
    ]);
    let outcome = call(&client, json!({})).await;
    assert_eq!(outcome.json().unwrap()["extras"], accept(&extras));
    assert_eq!(
        outcome.messages(),
        [
            "Where would you like to go?",
            "A week or more: a few extras"
        ]
    );
    assert_eq!(outcome.calls, 3);
}

/// The forms reach the client whole and in their order, though the SDK's own model would sort
/// the fields, drop the choices and write integer bounds as floats.
#[tokio::test]
async fn the_forms_reach_the_client_whole_and_in_order() {
    let client = ScriptedClient::new(VERSION).answers([
        Answer::accept(json!({"city": "Kyoto", "nights": 9})),
        Answer::accept(json!({"rental_car": true, "budget": "Medium"})),
    ]);
    let outcome = call(&client, json!({})).await;
    let trip = outcome.asked[0].requested_schema.as_ref().unwrap();
    let extras = outcome.asked[1].requested_schema.as_ref().unwrap();
    let names = |schema: &Value| -> Vec<String> {
        schema["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(names(trip), ["city", "nights"]);
    assert_eq!(names(extras), ["rental_car", "budget"]);
    let nights = &trip["properties"]["nights"];
    assert_eq!(nights["type"], "integer");
    assert!(
        nights["minimum"].is_u64() && nights["maximum"].is_u64(),
        "{nights}"
    );
    assert_eq!(
        (nights["minimum"].as_u64(), nights["maximum"].as_u64()),
        (Some(1), Some(30))
    );
    assert_eq!(trip["properties"]["city"]["maxLength"], 40);
    let budget = &extras["properties"]["budget"];
    assert_eq!(budget["enum"], json!(["Low", "Medium", "High"]), "{budget}");
}

#[tokio::test]
async fn invalid_content_is_a_tool_error_and_decline_is_an_answer() {
    let client = ScriptedClient::new(VERSION).answers([
        Answer::accept(json!({"city": "", "nights": 31})),
        Answer::decline(),
    ]);
    let outcome = call(&client, json!({})).await;
    assert!(outcome.is_error());
    assert!(
        outcome.text().contains("`nights` must be at most 30"),
        "{}",
        outcome.text()
    );
    assert!(
        outcome
            .text()
            .contains("`city` must be at least 1 character long")
    );
    let outcome = call(&client, json!({})).await;
    assert_eq!(
        outcome.json().unwrap()["trip"],
        json!({"action": "decline"})
    );
}

/// A retry whose answer holds `3.0` or `2.5` is a `tools/call` the SDK cannot read: it reaches
/// the tool all the same, `3.0` as the integer 3 and `2.5` as the form's own error.
#[tokio::test]
async fn a_fractional_number_gets_the_forms_own_reading() {
    let client = ScriptedClient::new(VERSION)
        .answer(Answer::accept(json!({"city": "Lisbon", "nights": 3.0})));
    let outcome = call(&client, json!({})).await;
    assert_eq!(
        outcome.json(),
        Some(json!({"trip": accept(&json!({"city": "Lisbon", "nights": 3})), "extras": null})),
        "{}",
        outcome.text()
    );
    let client = ScriptedClient::new(VERSION)
        .answer(Answer::accept(json!({"city": "Lisbon", "nights": 2.5})));
    let outcome = call(&client, json!({})).await;
    assert!(outcome.is_error());
    assert!(outcome.text().contains("`nights`"), "{}", outcome.text());
    assert!(!outcome.text().contains("not found"), "{}", outcome.text());
}

/// With `TRIP_PLANNER_RETRY`, content that breaks the rules is asked again, the violation in
/// the message: `2.5` included.
#[tokio::test]
async fn a_fractional_number_is_asked_again_naming_the_field() {
    let trip = json!({"city": "Lisbon", "nights": 2});
    let client = ScriptedClient::new(VERSION).answers([
        Answer::accept(json!({"city": "Lisbon", "nights": 2.5})),
        Answer::accept(trip.clone()),
    ]);
    let outcome = client
        .call_tool(
            planner().env("TRIP_PLANNER_RETRY", "1"),
            "plan_trip",
            json!({}),
        )
        .await
        .unwrap();
    assert_eq!(
        outcome.json().unwrap()["trip"],
        accept(&trip),
        "{}",
        outcome.text()
    );
    let messages = outcome.messages();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[1].contains("Nights must be a whole number (you entered 2.5)"),
        "{messages:?}"
    );
    assert_eq!(outcome.calls, 3);
}

/// What `plan_trip` answers a client that cannot show forms, for each set of arguments.
#[tokio::test]
async fn a_client_without_forms_answers_through_the_arguments() {
    let short = json!({"city": "Lisbon", "nights": 3});
    let long = json!({"city": "Kyoto", "nights": 9});
    let extras = json!({"rental_car": false, "budget": "Low"});
    let client = ScriptedClient::new(VERSION).without_elicitation();
    let unavailable = |outcome: &Transcript| {
        assert!(outcome.is_error(), "{}", outcome.text());
        outcome.unavailable().expect("unavailable")["key"].clone()
    };
    assert_eq!(unavailable(&call(&client, json!({})).await), "trip");
    assert_eq!(
        call(&client, json!({"trip": short})).await.json(),
        Some(json!({"trip": accept(&short), "extras": null}))
    );
    assert_eq!(
        unavailable(&call(&client, json!({"trip": long})).await),
        "extras"
    );
    assert_eq!(
        call(&client, json!({"trip": long, "extras": extras}))
            .await
            .json(),
        Some(json!({"trip": accept(&long), "extras": accept(&extras)}))
    );
    let outcome = call(&client, json!({"trip": {"city": "", "nights": 31}})).await;
    assert!(outcome.is_error());
    assert!(
        outcome.text().contains("`nights` must be at most 30"),
        "{}",
        outcome.text()
    );
}

#[tokio::test]
async fn a_trip_argument_pre_fills_the_form() {
    let client =
        ScriptedClient::new(VERSION).answer(Answer::accept(json!({"city": "Lisbon", "nights": 3})));
    let outcome = call(&client, json!({"trip": {"city": "Oslo", "nights": 5}})).await;
    assert_eq!(
        outcome.json().unwrap()["trip"]["content"],
        json!({"city": "Lisbon", "nights": 3})
    );
    let schema = outcome.asked[0].requested_schema.as_ref().unwrap();
    assert_eq!(schema["properties"]["city"]["default"], "Oslo");
    assert_eq!(schema["properties"]["nights"]["default"], json!(5));
}

/// A round that reaches another process is never run blind: one that shares
/// `TRIP_PLANNER_KEY` keeps its rounds in its own memory, so it has no record of the call and
/// asks again, saying the server lost its record; one with another key asks again, saying it
/// could not continue. (Processes that finish each other's calls share a store too.)
#[tokio::test]
async fn a_round_that_reaches_another_process_is_asked_again() {
    let stranger = "another secret, that no other process holds";
    for (second, says) in [
        (SECRET, "lost its record of your earlier answers"),
        (stranger, "could not continue your earlier answers"),
    ] {
        let client = ScriptedClient::new(VERSION)
            .answer(Answer::accept(json!({"city": "Kyoto", "nights": 9})));
        let Err(TestError::NoAnswer { message }) = client
            .call_tool_across([keyed(SECRET), keyed(second)], "plan_trip", json!({}))
            .await
        else {
            panic!("the second process asks again")
        };
        assert!(message.contains(says), "{message}");
    }
}

/// Round 1's state, and the retry that answers it.
async fn round_one(client: &ScriptedClient) -> (CallToolRequestParams, String) {
    let call = CallToolRequestParams::new("plan_trip");
    let CallToolResponse::InputRequired(round) = client
        .call_tool_once(keyed(SECRET), call.clone())
        .await
        .unwrap()
    else {
        panic!("round 1 asks")
    };
    let state = round.request_state.expect("a state");
    let mut retry = call;
    retry.input_responses = Some(
        serde_json::from_value(json!({"trip": accept(&json!({"city": "Oslo", "nights": 2}))}))
            .unwrap(),
    );
    retry.request_state = Some(state.clone());
    (retry, state)
}

fn refused(response: Result<CallToolResponse, TestError>) {
    match response {
        Err(TestError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{e:?}");
            assert!(e.message.contains("requestState was refused"), "{e:?}");
        }
        other => panic!("the state was taken: {other:?}"),
    }
}

/// The sealed state opens only as it was sealed, only for its own call.
#[tokio::test]
async fn an_altered_or_moved_state_is_refused() {
    let client = ScriptedClient::new(VERSION);
    let (retry, state) = round_one(&client).await;

    // One bit changed in the sealed bytes.
    let mut bytes = URL_SAFE_NO_PAD
        .decode(state.rsplit('.').next().unwrap())
        .unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    let head = &state[..state.len() - state.rsplit('.').next().unwrap().len()];
    let mut altered = retry.clone();
    altered.request_state = Some(format!("{head}{}", URL_SAFE_NO_PAD.encode(&bytes)));
    refused(client.call_tool_once(keyed(SECRET), altered).await);

    // The same state with other arguments: another call.
    let mut moved = retry.clone();
    moved.arguments =
        Some(serde_json::from_value(json!({"trip": {"city": "Rome", "nights": 2}})).unwrap());
    refused(client.call_tool_once(keyed(SECRET), moved).await);

    // Each process (the kit starts one per request) keeps its rounds in a memory store of its
    // own: the untouched retry, on another process that shares only the secret, is not run
    // there, where nothing says whether it ran; it is asked again, saying so (a fleet shares
    // a store, as the docs say).
    let again = client.call_tool_once(keyed(SECRET), retry).await.unwrap();
    let CallToolResponse::InputRequired(again) = again else {
        panic!("the round ran again on another process: {again:?}")
    };
    let asked = serde_json::to_string(&again.input_requests).unwrap();
    assert!(asked.contains("may already have happened"), "{asked}");
}
