//! One tool body, every version: rounds, answers, retries, URL mode and capabilities.

use elicit_core::ProtocolVersion;
use elicit_test::{Answer, ScriptedClient, TestError};
use rmcp::model::*;
use serde_json::{Value, json};

use crate::server::*;

#[tokio::test]
async fn one_round_and_two_rounds_on_every_version() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(short_trip()));
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(short_trip()), "extras": null}),
            "{version}"
        );
        assert_eq!(outcome.messages(), [TRIP], "{version}");

        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(accept(extras()));
        let outcome = client
            .call_tool(Server::new(), "plan", Value::Null)
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(long_trip()), "extras": accepted(extras())}),
            "{version}"
        );
        assert_eq!(outcome.messages(), [TRIP, EXTRAS], "{version}");
        // Each form is sent with its schema for the version.
        let schemas: Vec<_> = outcome
            .asked
            .iter()
            .map(|a| a.requested_schema.clone())
            .collect();
        assert_eq!(
            schemas,
            [
                Some(schema_for::<Trip>(version)),
                Some(schema_for::<Extras>(version))
            ]
        );
        assert!(outcome.asked.iter().all(|a| a.version == version));
        // Live requests share one call; on 2026-07-28 each question is a round.
        let calls = if version.has_input_requests() { 3 } else { 1 };
        assert_eq!(outcome.calls, calls, "{version}");
        assert_eq!(outcome.request_states.len() as u32, calls - 1, "{version}");
    }
}

/// On 2026-07-28 the code before the last question runs once per round; the code after the
/// questions runs once on every version.
#[tokio::test]
async fn code_after_the_questions_runs_once() {
    for version in ProtocolVersion::ALL {
        let server = Server::new();
        let count = server.effects.clone();
        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(accept(extras()));
        let outcome = client
            .call_tool(server, "effects", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome)["trip"], accepted(long_trip()));
        let (before, after) = *count.lock().unwrap();
        let rounds = if version.has_input_requests() { 3 } else { 1 };
        assert_eq!((before, after), (rounds, 1), "{version}");
    }
}

#[tokio::test]
async fn decline_and_cancel_at_each_round() {
    for version in ProtocolVersion::ALL {
        for (script, expected) in [
            (
                vec![Answer::decline()],
                json!({"trip": declined(), "extras": null}),
            ),
            (
                vec![Answer::cancel()],
                json!({"trip": cancelled(), "extras": null}),
            ),
            (
                vec![accept(long_trip()), Answer::decline()],
                json!({"trip": accepted(long_trip()), "extras": declined()}),
            ),
            (
                vec![accept(long_trip()), Answer::cancel()],
                json!({"trip": accepted(long_trip()), "extras": cancelled()}),
            ),
        ] {
            let client = ScriptedClient::new(version).answers(script);
            let outcome = client
                .call_tool(Server::new(), "plan", json!({}))
                .await
                .unwrap();
            assert_eq!(json_of(&outcome), expected, "{version}");
            assert_eq!(client.remaining(), 0);
        }
    }
}

#[tokio::test]
async fn invalid_content_at_each_round_is_a_tool_error_naming_every_property() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(json!({"city": "", "nights": 31})));
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        let text = outcome.text();
        assert!(outcome.is_error(), "{version}: {text}");
        assert!(
            text.contains("`city` must be at least 1 character long"),
            "{text}"
        );
        assert!(text.contains("`nights` must be at most 30"), "{text}");

        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(accept(json!({"rental_car": "yes", "budget": "Lavish"})));
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        let text = outcome.text();
        assert!(outcome.is_error(), "{version}: {text}");
        assert!(
            text.contains("`rental_car` must be of type boolean"),
            "{text}"
        );
        assert!(
            text.contains("`budget` must be one of the listed choices"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn two_forms_in_one_round() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .answer(accept(json!({"vegetarian": true})))
            .answer(accept(short_trip()));
        let outcome = client
            .call_tool(Server::new(), "both", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"trip": accepted(short_trip()), "diet": accepted(json!({"vegetarian": true}))}),
            "{version}"
        );
        // Keys in body order: the same order of questions on every version.
        assert_eq!(outcome.messages(), [DIET, TRIP], "{version}");
        if version.has_input_requests() {
            // One round asks for both.
            assert_eq!(outcome.calls, 2);
            let keys: Vec<_> = outcome.asked.iter().map(|a| a.key.as_deref()).collect();
            assert_eq!(keys, [Some("diet"), Some("trip")]);
        }
    }
}

#[tokio::test]
async fn the_retry_policy_on_every_version() {
    for version in ProtocolVersion::ALL {
        // Cancel, then invalid content, then a valid answer: three attempts, each visible.
        let client = ScriptedClient::new(version).answers([
            Answer::cancel(),
            accept(json!({"city": "Kyoto"})),
            accept(short_trip()),
        ]);
        let outcome = client
            .call_tool(Server::new(), "patient", json!({}))
            .await
            .unwrap();
        let out = json_of(&outcome);
        assert_eq!(out["answer"], accepted(short_trip()), "{version}");
        let attempts = out["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), 3, "{version}: {out}");
        assert_eq!(attempts[0], "Cancelled");
        assert!(attempts[1].as_str().unwrap().starts_with("Invalid("));
        assert_eq!(attempts[2], "Accepted");
        let messages = outcome.messages();
        assert_eq!(messages.len(), 3);
        assert_eq!(messages[0], TRIP);
        assert!(messages[1].contains("dismissed"), "{}", messages[1]);
        // In the user's words, with the label the form showed, on one line.
        assert!(
            messages[2].ends_with(
                "\n\n(The last answer could not be used: Nights is required. Please correct it \
                 and submit again.)"
            ),
            "{}",
            messages[2]
        );

        // The form asked again keeps what was right: the city, as its default, where the
        // version sends defaults; the first two asks carry none.
        let city = |i: usize| {
            outcome.asked[i].requested_schema.as_ref().unwrap()["properties"]["city"]
                .get("default")
                .cloned()
        };
        assert_eq!((city(0), city(1)), (None, None));
        if version >= ProtocolVersion::V2025_11_25 {
            assert_eq!(city(2), Some(json!("Kyoto")), "{version}");
        } else {
            assert_eq!(
                city(2),
                None,
                "{version}: 2025-06-18 has no string defaults"
            );
        }

        // Decline stops at once; a second cancel stops too.
        for (script, expected) in [
            (vec![Answer::decline()], json!(["Declined"])),
            (
                vec![Answer::cancel(), Answer::cancel()],
                json!(["Cancelled", "Cancelled"]),
            ),
        ] {
            let client = ScriptedClient::new(version).answers(script);
            let outcome = client
                .call_tool(Server::new(), "patient", json!({}))
                .await
                .unwrap();
            assert_eq!(json_of(&outcome)["attempts"], expected);
        }
        // Invalid content is asked again up to the limit (two retries), then reported.
        let bad = accept(json!({"city": "", "nights": 3}));
        let client = ScriptedClient::new(version).answers([bad.clone(), bad.clone(), bad]);
        let outcome = client
            .call_tool(Server::new(), "patient", json!({}))
            .await
            .unwrap();
        let out = json_of(&outcome);
        let invalid = out["answer"]["invalid"].as_str().unwrap();
        assert!(invalid.contains("`city` must be at least 1"), "{out}");
        assert_eq!(out["attempts"].as_array().unwrap().len(), 3);
        assert_eq!(outcome.asked.len(), 3);
    }
}

#[tokio::test]
async fn url_mode_where_the_version_has_it() {
    let client = ScriptedClient::new(ProtocolVersion::V2025_06_18);
    let outcome = client
        .call_tool(Server::new(), "connect", json!({}))
        .await
        .unwrap();
    assert!(outcome.is_error());
    assert_eq!(
        outcome.text(),
        "URL mode elicitation is not part of MCP 2025-06-18"
    );
    assert!(outcome.asked.is_empty());

    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let client = ScriptedClient::new(version).answer(Answer::accept_url());
        let outcome = client
            .call_tool(Server::new(), "connect", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome), json!({"action": "accept"}));
        let asked = &outcome.asked[0];
        assert_eq!(asked.url.as_deref(), Some(PAGE));
        assert_eq!(asked.requested_schema, None);
        assert_eq!(asked.message, "Sign in on our page");
    }
}

/// A URL-mode request's `elicitationId` is made for the call: unique to it and to the question,
/// never the key, and the same on every attempt (2025-11-25); 2026-07-28 has none.
#[tokio::test]
async fn an_elicitation_id_is_unique_to_its_call() {
    let mut server = Server::new();
    server.retry = Some(elicit_core::ask::RetryPolicy::default());
    let ids = |outcome: &elicit_test::Transcript| -> Vec<Option<String>> {
        outcome
            .asked
            .iter()
            .map(|a| a.elicitation_id.clone())
            .collect()
    };
    let client = ScriptedClient::new(ProtocolVersion::V2025_11_25).answers([
        Answer::cancel(),
        Answer::accept_url(),
        Answer::accept_url(),
    ]);
    let first = client
        .call_tool(server.clone(), "connect", json!({}))
        .await
        .unwrap();
    let second = client
        .call_tool(server, "connect", json!({}))
        .await
        .unwrap();
    let (first, second) = (ids(&first), ids(&second));
    assert_eq!(first.len(), 2, "a cancel, asked once more");
    assert_eq!(first[0], first[1], "the same question keeps its id");
    let id = first[0].clone().expect("an id on 2025-11-25");
    assert_ne!(id, "connect");
    assert_ne!(second[0].as_ref(), Some(&id), "another call, another id");

    let client = ScriptedClient::new(ProtocolVersion::V2026_07_28).answer(Answer::accept_url());
    let outcome = client
        .call_tool(Server::new(), "connect", json!({}))
        .await
        .unwrap();
    assert_eq!(ids(&outcome), [None]);
}

fn capabilities(form: bool, url: bool) -> ClientCapabilities {
    let mut elicitation = ElicitationCapability::new();
    if form {
        elicitation = elicitation.with_form(FormElicitationCapability::default());
    }
    if url {
        elicitation = elicitation.with_url(UrlElicitationCapability::default());
    }
    ClientCapabilities::builder()
        .enable_elicitation_with(elicitation)
        .build()
}

#[tokio::test]
async fn missing_capabilities_send_nothing() {
    for version in ProtocolVersion::ALL {
        let mut cases = vec![(None, "plan", "form")];
        if version >= ProtocolVersion::V2025_11_25 {
            cases.extend([
                (Some(capabilities(false, true)), "plan", "form"),
                (None, "connect", "url"),
                (Some(capabilities(true, false)), "connect", "url"),
            ]);
        }
        for (declared, tool, missing) in cases {
            let client = ScriptedClient::new(version)
                .answer(accept(short_trip()))
                .answer(Answer::accept_url());
            let client = match declared {
                Some(capabilities) => client.with_capabilities(capabilities),
                None => client.without_elicitation(),
            };
            let outcome = client.call_tool(Server::new(), tool, json!({})).await;
            if version.has_input_requests() {
                // MissingRequiredClientCapability (-32021), naming what is required.
                let Err(TestError::Server(e)) = outcome else {
                    panic!("{outcome:?}")
                };
                assert_eq!(e.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
                let required = &e.data.unwrap()["requiredCapabilities"]["elicitation"];
                assert!(required.get(missing).is_some(), "{required}");
            } else {
                let outcome = outcome.unwrap();
                assert!(outcome.is_error());
                // Each version's own terms: 2025-06-18 has no modes.
                let expected = match (version, missing) {
                    (ProtocolVersion::V2025_06_18, _) => "the client does not support elicitation",
                    (_, "url") => "the client does not support URL-mode elicitation",
                    _ => "the client does not support form-mode elicitation",
                };
                assert_eq!(outcome.text(), expected, "{version}");
            }
            assert_eq!(client.remaining(), 2, "{version} {tool}: nothing was asked");
        }
    }
    // `{"elicitation":{}}`, from clients written before modes existed, means form mode.
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .with_capabilities(ClientCapabilities::builder().enable_elicitation().build())
            .answer(accept(short_trip()));
        let outcome = client
            .call_tool(Server::new(), "plan", json!({}))
            .await
            .unwrap();
        assert_eq!(json_of(&outcome)["trip"], accepted(short_trip()));
    }
}

/// A reply that is no elicitation result (an action nobody knows) names the rule it breaks, on
/// every version: live requests read the reply as it came, as rounds do.
#[tokio::test]
async fn a_malformed_reply_names_the_rule_on_every_version() {
    let mut messages = Vec::new();
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(Answer::raw(json!({"action": "maybe"})));
        let outcome = client.call_tool(Server::new(), "plan", json!({})).await;
        let Err(TestError::Server(e)) = outcome else {
            panic!("{version}: {outcome:?}")
        };
        assert_eq!(e.code, ErrorCode::INVALID_PARAMS, "{version}: {e:?}");
        assert!(
            e.message
                .contains("the response to `trip` is not an elicitation result")
                && e.message.contains("`action`")
                && e.message.contains("\"maybe\""),
            "{version}: {}",
            e.message
        );
        messages.push(e.message);
    }
    messages.dedup();
    assert_eq!(
        messages.len(),
        1,
        "one message on every version: {messages:?}"
    );
}
