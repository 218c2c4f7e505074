//! What happens in production: keys of their own per tool, answers by key, a call's rounds on
//! several servers, key rotation, and a replayed final retry.

use elicit_core::ProtocolVersion;
use elicit_core::ask::MemoryStore;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use elicit_test::{Answer, ScriptedClient, TestError};
use rmcp::model::*;
use rmcp::{tool, tool_handler, tool_router};
use serde_json::json;

use crate::server::*;

const SECRET: &[u8] = b"the secret every server of the fleet holds";
const NEXT: &[u8] = b"next month's secret, which every server gets";

fn server(key: StateKey) -> Server {
    let mut server = Server::new();
    server.key = key;
    server
}

fn diet() -> serde_json::Value {
    json!({"vegetarian": true})
}

#[tokio::test]
async fn answers_for_keys_serve_every_version_whatever_the_round_lists_first() {
    // In body order: trip, then diet. A round lists `diet` first.
    let keyed = ScriptedClient::new(ProtocolVersion::LATEST).answers([
        Answer::for_key("trip", accept(short_trip())),
        Answer::for_key("diet", accept(diet())),
    ]);
    for (version, outcome) in keyed
        .call_tool_on_every_version(Server::new, "both_reversed", json!({}))
        .await
        .unwrap()
    {
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(short_trip()), "diet": accepted(diet())}),
            "{version}"
        );
    }
    // By arrival order alone, the round's first request takes the trip.
    let ordered = ScriptedClient::new(ProtocolVersion::V2026_07_28)
        .answers([accept(short_trip()), accept(diet())]);
    let outcome = ordered
        .call_tool(Server::new(), "both_reversed", json!({}))
        .await
        .unwrap();
    assert!(outcome.is_error(), "{}", outcome.text());
}

#[tokio::test]
async fn a_script_short_of_a_keyed_answer_names_the_question() {
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28)
        .answer(Answer::for_key("trip", accept(short_trip())));
    let Err(TestError::NoAnswer { message }) = client
        .call_tool(Server::new(), "both_reversed", json!({}))
        .await
    else {
        panic!("the diet has no answer")
    };
    assert_eq!(message, DIET);
}

#[tokio::test]
async fn rounds_spread_over_a_fleet_that_shares_a_secret_or_rotates_it() {
    let one = || StateKey::new(SECRET.to_vec()).unwrap();
    // Mid-rotation: servers still sealing with the old secret open the new one, and servers
    // sealing with the new one still open the old.
    let before = || one().also_opening(NEXT.to_vec()).unwrap();
    let rotated = || {
        StateKey::new(NEXT.to_vec())
            .unwrap()
            .also_opening(SECRET.to_vec())
            .unwrap()
    };
    for (what, first, second) in [
        ("one secret", one(), one()),
        ("rotating", before(), rotated()),
    ] {
        let client = ScriptedClient::new(ProtocolVersion::V2026_07_28)
            .answers([accept(long_trip()), accept(extras())]);
        let outcome = client
            .call_tool_across([server(first), server(second)], "plan", json!({}))
            .await
            .unwrap();
        assert_eq!(outcome.calls, 3, "{what}");
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(long_trip()), "extras": accepted(extras())}),
            "{what}"
        );
        assert_eq!(outcome.messages(), [TRIP, EXTRAS], "{what}");
    }
    // A server that does not hold the secret opens no state of round 1: it starts the call
    // over, asking the first question again and saying why.
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28).answer(accept(long_trip()));
    let stranger = StateKey::new(b"a secret no other server of the fleet holds".to_vec()).unwrap();
    let Err(TestError::NoAnswer { message }) = client
        .call_tool_across([server(one()), server(stranger)], "plan", json!({}))
        .await
    else {
        panic!("the stranger opens no state")
    };
    assert!(message.starts_with(TRIP), "{message}");
    assert!(
        message.contains("could not continue your earlier answers"),
        "{message}"
    );
    // Before 2026-07-28 a call is one request, to the first server.
    let client = ScriptedClient::new(ProtocolVersion::V2025_11_25)
        .answers([accept(long_trip()), accept(extras())]);
    let outcome = client
        .call_tool_across([server(one()), server(rotated())], "plan", json!({}))
        .await
        .unwrap();
    assert_eq!(outcome.calls, 1);
}

/// Round 1 of `effects` on `first`, then its final retry on `second`, and the same retry
/// again on `third`: the two responses.
async fn replay(
    first: Server,
    second: Server,
    third: Server,
) -> (CallToolResponse, Result<CallToolResponse, TestError>) {
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let call = CallToolRequestParams::new("effects");
    let CallToolResponse::InputRequired(round) =
        client.call_tool_once(first, call.clone()).await.unwrap()
    else {
        panic!("round 1 asks")
    };
    let mut retry = call;
    retry.input_responses =
        Some(serde_json::from_value(json!({"trip": accepted(short_trip())})).unwrap());
    retry.request_state = round.request_state;
    let done = client.call_tool_once(second, retry.clone()).await.unwrap();
    assert!(matches!(done, CallToolResponse::Complete(_)), "{done:?}");
    (done, client.call_tool_once(third, retry).await)
}

fn result_of(response: &CallToolResponse) -> serde_json::Value {
    match response {
        CallToolResponse::Complete(result) => serde_json::to_value(result).unwrap(),
        other => panic!("expected a result: {other:?}"),
    }
}

/// Servers that share a store run each round once: the same final retry, sent again to any of
/// them, gets the same result and runs nothing; the same state with other answers is refused
/// as used. Servers that share only a secret each keep their own rounds, so a round that moves
/// between them is asked again.
#[tokio::test]
async fn a_shared_store_runs_each_round_once_on_every_server() {
    let store = MemoryStore::new();
    let base = Server::new();
    let with = |key: StateKey| Server {
        key,
        ..base.clone()
    };
    let shared = || {
        with(
            StateKey::new(SECRET.to_vec())
                .unwrap()
                .with_store(store.clone()),
        )
    };
    let (done, again) = replay(shared(), shared(), shared()).await;
    assert_eq!(result_of(&again.unwrap()), result_of(&done));
    // Round 1 ran the code before the question; the final retry ran the body once.
    assert_eq!(*base.effects.lock().unwrap(), (2, 1));

    // The same state with other answers.
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let call = CallToolRequestParams::new("effects");
    let CallToolResponse::InputRequired(round) =
        client.call_tool_once(shared(), call.clone()).await.unwrap()
    else {
        panic!("round 1 asks")
    };
    let mut retry = call;
    retry.request_state = round.request_state;
    for trip in [short_trip(), json!({"city": "Lyon", "nights": 2})] {
        retry.input_responses =
            Some(serde_json::from_value(json!({"trip": accepted(trip)})).unwrap());
        let _ = client.call_tool_once(shared(), retry.clone()).await;
    }
    match client.call_tool_once(shared(), retry).await {
        Err(TestError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{e:?}");
            assert!(
                e.message.contains("used already, with other answers"),
                "{e:?}"
            );
        }
        other => panic!("other answers ran the round again: {other:?}"),
    }

    // Servers that share only a secret, each with a store of its own (as processes that share
    // no store): a round that moves to another server is not run blindly there, where nothing
    // says whether it ran. It is asked again, saying so, and the body stops at the question.
    let base = Server::new();
    let own = || Server {
        key: StateKey::new(SECRET.to_vec())
            .unwrap()
            .with_store(MemoryStore::new()),
        ..base.clone()
    };
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28);
    let call = CallToolRequestParams::new("effects");
    let CallToolResponse::InputRequired(round) =
        client.call_tool_once(own(), call.clone()).await.unwrap()
    else {
        panic!("round 1 asks")
    };
    let mut retry = call;
    retry.input_responses =
        Some(serde_json::from_value(json!({"trip": accepted(short_trip())})).unwrap());
    retry.request_state = round.request_state;
    let Ok(CallToolResponse::InputRequired(again)) = client.call_tool_once(own(), retry).await
    else {
        panic!("the round is asked again")
    };
    let asked = serde_json::to_string(&again.input_requests).unwrap();
    assert!(asked.contains("may already have happened"), "{asked}");
    assert_eq!(*base.effects.lock().unwrap(), (2, 0));
}

/// A `#[tool]` server whose `book` tool seals with a key of its own.
#[derive(Clone)]
struct Keyed(StateKey);

#[tool_router]
impl Keyed {
    #[tool(description = "Plan a trip")]
    async fn book(&self, ask: Ask) -> Asked<CallToolResult> {
        ask.run(async {
            let trip = ask.form::<Trip>("trip").await?;
            Ok(json_result(json!({"trip": trip})))
        })
        .await
    }
}

#[tool_handler(
    router = elicit_core::rmcp::keep_arguments(Self::tool_router()).with_tool_key("book", self.0.clone())
)]
impl rmcp::ServerHandler for Keyed {}

#[tokio::test]
async fn a_tool_function_seals_with_its_own_key() {
    let key = || StateKey::new(SECRET.to_vec()).unwrap();
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28).answer(accept(short_trip()));
    let outcome = client
        .call_tool_across([Keyed(key()), Keyed(key())], "book", json!({}))
        .await
        .unwrap();
    assert_eq!(json_of(&outcome), json!({"trip": accepted(short_trip())}));
    // Both servers share the process's installed key: only the tool's own keys tell them
    // apart, and the other's state opens under neither, so the call starts over there.
    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28).answer(accept(short_trip()));
    let other = StateKey::new(NEXT.to_vec()).unwrap();
    let refused = client
        .call_tool_across([Keyed(key()), Keyed(other)], "book", json!({}))
        .await;
    assert!(
        matches!(&refused, Err(TestError::NoAnswer { message }) if message.contains("could not continue")),
        "{refused:?}"
    );
}
