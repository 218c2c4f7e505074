//! The sealed `requestState` of 2026-07-28 rounds, driven by hand through the kit's
//! `call_tool_once`: what is refused, what is carried, and the caps.

use std::time::Duration;

use elicit_core::ProtocolVersion;
use elicit_core::ask::RetryPolicy;
use elicit_core::ask::StateKey;
use elicit_test::{ScriptedClient, TestError};
use rmcp::model::*;
use serde_json::{Value, json};

use crate::server::*;

const V2026: ProtocolVersion = ProtocolVersion::V2026_07_28;

fn params(tool: &str, arguments: Option<Value>) -> CallToolRequestParams {
    let mut params = CallToolRequestParams::new(tool.to_owned());
    params.arguments = arguments.map(|a| match a {
        Value::Object(map) => map,
        _ => panic!("arguments are an object"),
    });
    params
}

fn retry(
    mut params: CallToolRequestParams,
    responses: Value,
    state: Option<&str>,
) -> CallToolRequestParams {
    params.input_responses =
        Some(serde_json::from_value(responses).expect("responses are an object"));
    params.request_state = state.map(str::to_owned);
    params
}

/// One `tools/call` to `server` on 2026-07-28, as sent.
async fn once(
    server: &Server,
    params: CallToolRequestParams,
) -> Result<CallToolResponse, TestError> {
    ScriptedClient::new(V2026)
        .call_tool_once(server.clone(), params)
        .await
}

async fn input_required(server: &Server, params: CallToolRequestParams) -> InputRequiredResult {
    match once(server, params).await {
        Ok(CallToolResponse::InputRequired(result)) => result,
        other => panic!("expected input_required, got {other:?}"),
    }
}

/// The call is refused as a JSON-RPC error about its state, and never succeeds.
async fn assert_refused(server: &Server, params: CallToolRequestParams, what: &str) {
    match once(server, params).await {
        Err(TestError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{what}: {e:?}");
            assert!(
                e.message.contains("requestState was refused"),
                "{what}: {e:?}"
            );
        }
        other => panic!("{what}: expected a refusal, got {other:?}"),
    }
}

/// The JSON result of a call that must finish.
async fn completed(server: &Server, params: CallToolRequestParams) -> Value {
    match once(server, params).await {
        Ok(CallToolResponse::Complete(done)) => json_of_result(&done),
        other => panic!("expected a result, got {other:?}"),
    }
}

fn keys(result: &InputRequiredResult) -> Vec<String> {
    result
        .input_requests
        .as_ref()
        .map(|r| r.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn round_one_then_round_two_carries_the_first_answer() {
    let c = Server::new();
    let first = input_required(&c, params("plan", None)).await;
    assert_eq!(keys(&first), ["trip"]);
    let state = first.request_state.clone().expect("a sealed state");
    let second = input_required(
        &c,
        retry(
            params("plan", None),
            json!({"trip": accepted(long_trip())}),
            Some(&state),
        ),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
    // Round 3 carries only the extras; the trip comes from the state.
    let done = completed(
        &c,
        retry(
            params("plan", None),
            json!({"extras": accepted(extras())}),
            second.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(
        done,
        json!({"trip": accepted(long_trip()), "extras": accepted(extras())})
    );
}

#[tokio::test]
async fn altered_truncated_or_foreign_state_is_refused() {
    let c = Server::new();
    let args = Some(json!({"party": 2, "when": "May"}));
    let first = input_required(&c, params("plan", args.clone())).await;
    let state = first.request_state.unwrap();
    let answer = json!({"trip": accepted(long_trip())});
    let at = state.len() - 10;
    let flipped = format!(
        "{}{}{}",
        &state[..at],
        if &state[at..=at] == "A" { "B" } else { "A" },
        &state[at + 1..]
    );
    for (what, bad) in [
        ("altered", flipped.as_str()),
        ("truncated", &state[..state.len() / 2]),
        ("tag cut off", &state[..state.len() - 1]),
        ("not a sealed state", "step-2"),
        ("empty", ""),
    ] {
        assert_refused(
            &c,
            retry(params("plan", args.clone()), answer.clone(), Some(bad)),
            what,
        )
        .await;
    }
    // From a call with other arguments, or to another tool.
    assert_refused(
        &c,
        retry(
            params("plan", Some(json!({"party": 3, "when": "May"}))),
            answer.clone(),
            Some(&state),
        ),
        "other arguments",
    )
    .await;
    assert_refused(
        &c,
        retry(params("plan", None), answer.clone(), Some(&state)),
        "no arguments",
    )
    .await;
    assert_refused(
        &c,
        retry(
            params("plan_too", args.clone()),
            answer.clone(),
            Some(&state),
        ),
        "another tool",
    )
    .await;
    // Sealed under another server's key: not refused, but started over (see below).
    let other = Server::new();
    started_over(
        &other,
        retry(params("plan", args.clone()), answer.clone(), Some(&state)),
    )
    .await;
    // The untouched state still works, with the same arguments in another key order.
    let reordered = Some(json!({"when": "May", "party": 2}));
    let second = input_required(
        &c,
        retry(params("plan", reordered), answer.clone(), Some(&state)),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
    // Answers without a state answer nothing: the call is a first call.
    let stateless = input_required(&c, retry(params("plan", args), answer, None)).await;
    assert_eq!(keys(&stateless), ["trip"]);
}

/// The call starts over, as a first call: its first question is asked again, saying that the
/// server could not continue the earlier answers.
async fn started_over(server: &Server, params: CallToolRequestParams) -> InputRequiredResult {
    let again = input_required(server, params).await;
    assert_eq!(keys(&again), ["trip"]);
    let asked = serde_json::to_string(&again.input_requests).unwrap();
    assert!(
        asked.contains("could not continue your earlier answers, so it asks again"),
        "{asked}"
    );
    again
}

/// A state sealed under a key this server does not hold (a restart with a random key, a
/// replica with a key of its own, a rotation past it) starts the call over: the person answers
/// again, and the call completes, rather than fail.
#[tokio::test]
async fn a_state_under_a_key_this_server_does_not_hold_starts_the_call_over() {
    let first = input_required(&Server::new(), params("plan", None)).await;
    let restarted = Server::new();
    let answer = json!({"trip": accepted(long_trip())});
    let again = started_over(
        &restarted,
        retry(
            params("plan", None),
            answer.clone(),
            first.request_state.as_deref(),
        ),
    )
    .await;
    let second = input_required(
        &restarted,
        retry(params("plan", None), answer, again.request_state.as_deref()),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
}

/// A state past its time to live starts the call over too.
#[tokio::test]
async fn an_expired_state_starts_the_call_over() {
    let mut server = Server::new();
    server.key = server.key.with_ttl(Duration::from_millis(1));
    let first = input_required(&server, params("plan", None)).await;
    tokio::time::sleep(Duration::from_millis(50)).await;
    started_over(
        &server,
        retry(
            params("plan", None),
            json!({"trip": accepted(long_trip())}),
            first.request_state.as_deref(),
        ),
    )
    .await;
}

#[tokio::test]
async fn answers_are_read_only_for_questions_the_call_asked() {
    let c = Server::new();
    let first = input_required(&c, params("plan", None)).await;
    // The retry also answers `extras`, which round 1 did not ask: it is not taken, and round 2
    // asks for it.
    let second = input_required(
        &c,
        retry(
            params("plan", None),
            json!({"trip": accepted(long_trip()), "extras": accepted(extras())}),
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
    // A retry without the answer asks again.
    let again = input_required(
        &c,
        retry(
            params("plan", None),
            json!({}),
            second.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(keys(&again), ["extras"]);
    // A new answer to a question already answered is not read: the trip stays the first one.
    let done = completed(
        &c,
        retry(
            params("plan", None),
            json!({"trip": accepted(short_trip()), "extras": accepted(extras())}),
            again.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(
        done,
        json!({"trip": accepted(long_trip()), "extras": accepted(extras())})
    );
}

#[tokio::test]
async fn each_await_of_a_key_is_its_own_question_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answers([
            accept(short_trip()),
            accept(long_trip()),
            accept(extras()),
        ]);
        let outcome = client
            .call_tool(Server::new(), "reuse", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({
                "trip": accepted(short_trip()),
                "again": accepted(long_trip()),
                "extras": accepted(extras()),
            }),
            "{version}"
        );
        assert_eq!(outcome.asked.len(), 3, "{version}");
        assert_eq!(client.remaining(), 0, "{version}");
    }
}

#[tokio::test]
async fn the_round_cap() {
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.max_rounds = 3;
        let client = ScriptedClient::new(version).answers(std::iter::repeat_n(
            accept(json!({"vegetarian": false})),
            20,
        ));
        let Err(TestError::Server(e)) = client.call_tool(server, "endless", json!({})).await else {
            panic!("{version}: the cap ends the call")
        };
        assert!(
            e.message
                .contains("still had unanswered questions after 3 rounds"),
            "{version}: {e:?}"
        );
        assert_eq!(client.remaining(), 17, "{version}");
    }
}

#[tokio::test]
async fn a_default_state_key_and_custom_ttl() {
    let key = StateKey::new(vec![1u8; 32])
        .unwrap()
        .with_ttl(Duration::from_secs(5));
    assert_eq!(key.ttl(), Duration::from_secs(5));
    assert!(
        !format!("{key:?}").contains('\u{1}'),
        "the key is not printed"
    );
    assert!(StateKey::new(vec![1u8; 31]).is_err());
    assert_eq!(
        StateKey::random().unwrap().ttl(),
        elicit_core::ask::StateKey::DEFAULT_TTL
    );
}

#[tokio::test]
async fn an_answer_to_a_question_that_changed_is_dropped_and_asked_again() {
    let before = Server::new();
    let mut after = before.clone();
    after.trip_message = "Where to? (now with a new wording)".to_owned();

    // The retry answers the old question, and meets the new deployment: asked again.
    let first = input_required(&before, params("reworded", None)).await;
    let answer = json!({"trip": accepted(short_trip())});
    let again = input_required(
        &after,
        retry(
            params("reworded", None),
            answer.clone(),
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(keys(&again), ["trip"]);
    // The same deployment takes it (in a call of its own: a round runs once).
    let first = input_required(&before, params("reworded", None)).await;
    let done = completed(
        &before,
        retry(
            params("reworded", None),
            answer,
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(done["trip"], accepted(short_trip()));

    // An answer carried from an earlier round is dropped too.
    let first = input_required(&before, params("reworded", None)).await;
    let second = input_required(
        &before,
        retry(
            params("reworded", None),
            json!({"trip": accepted(long_trip())}),
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
    let third = input_required(
        &after,
        retry(
            params("reworded", None),
            json!({"extras": accepted(extras())}),
            second.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(
        keys(&third),
        ["trip"],
        "the carried trip answered the old question"
    );
}

/// Answers count only through the state that asked for them: without one, a call that
/// carries answers (even the right ones) is asked as a first call; with it, keys nobody asked
/// for are ignored, and an answer that breaks the form is refused as any answer is.
#[tokio::test]
async fn answers_without_a_state_answer_nothing() {
    let c = Server::new();
    for stray in [
        json!({"wrong_key": accepted(json!({"x": 1}))}),
        json!({"trip": accepted(short_trip())}),
    ] {
        let asked = input_required(&c, retry(params("plan", None), stray, None)).await;
        assert_eq!(keys(&asked), ["trip"]);
    }
    let first = input_required(&c, params("plan", None)).await;
    let extra = completed(
        &c,
        retry(
            params("plan", None),
            json!({
                "trip": accepted(short_trip()),
                "unknown_extra_key": accepted(json!({"foo": "bar"})),
            }),
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(extra["trip"], accepted(short_trip()));
    let first = input_required(&c, params("plan", None)).await;
    let state = first.request_state.as_deref();
    let invalid = once(
        &c,
        retry(
            params("plan", None),
            json!({"trip": accepted(json!({"city": ""}))}),
            state,
        ),
    )
    .await;
    assert!(
        matches!(&invalid, Ok(CallToolResponse::Complete(r)) if r.is_error == Some(true)),
        "{invalid:?}"
    );
}

#[tokio::test]
async fn a_response_that_is_no_elicitation_result_is_a_protocol_error() {
    let c = Server::new();
    let first = input_required(&c, params("plan", None)).await;
    let state = first.request_state.as_deref();
    match once(
        &c,
        retry(params("plan", None), json!({"trip": 12345}), state),
    )
    .await
    {
        Err(TestError::Server(e)) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{e:?}");
            assert!(
                e.message.contains("`trip` is not an elicitation result"),
                "{e:?}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_state_keeps_answers_only_to_the_questions_its_round_asked() {
    let mut c = Server::new();
    c.retry = Some(RetryPolicy::default());
    let first = input_required(&c, params("plan", None)).await;
    let second = input_required(
        &c,
        retry(
            params("plan", None),
            json!({"trip": accepted(long_trip())}),
            first.request_state.as_deref(),
        ),
    )
    .await;
    assert_eq!(keys(&second), ["extras"]);
    // Round 2 asked for the extras only; a client that sends every answer again gets the same
    // state as one that sends the extras alone.
    let bad_extras = accepted(json!({"rental_car": "yes", "budget": "Low"}));
    let mut states = Vec::new();
    for responses in [
        json!({"extras": bad_extras}),
        json!({"extras": bad_extras, "trip": accepted(short_trip())}),
    ] {
        let third = input_required(
            &c,
            retry(
                params("plan", None),
                responses,
                second.request_state.as_deref(),
            ),
        )
        .await;
        assert_eq!(keys(&third), ["extras"]);
        states.push(third.request_state.unwrap().len());
    }
    // The state also holds how long each reply took, in milliseconds, so the two may differ
    // by a digit or two (a third more in base64); the trip's answer, had it been kept, is far
    // longer than that.
    let kept_trip = serde_json::to_string(&accepted(short_trip()))
        .unwrap()
        .len();
    assert!(kept_trip > 40, "{kept_trip}");
    let apart = states[0].abs_diff(states[1]);
    assert!(
        apart <= 8,
        "{states:?}: the state kept an answer its round did not ask for"
    );
}
