//! When the client cannot show a form: answers from the tool's arguments, the
//! `elicitationUnavailable` result, pre-filled forms, where each answer came from, and calls
//! kept alive while the person types. Every behaviour on every version, through the kit.

use std::time::Duration;

use elicit_core::ProtocolVersion;
use elicit_test::{ScriptedClient, TestError};
use serde_json::{Value, json};

use crate::server::*;

fn bare(version: ProtocolVersion) -> ScriptedClient {
    ScriptedClient::new(version).without_elicitation()
}

#[tokio::test]
async fn without_forms_and_without_arguments_the_tool_says_what_it_needs() {
    for version in ProtocolVersion::ALL {
        let outcome = bare(version)
            .call_tool(Server::new(), "plan_args", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}: isError on every version");
        let text = outcome.text();
        for needed in [
            "The client cannot show forms",
            TRIP,
            "`city` (City): text, 1–40 characters, required",
            "`nights` (Nights): a whole number, 1–30, required",
            "the argument `trip`",
        ] {
            assert!(text.contains(needed), "{version}: {needed:?} in {text}");
        }
        let unavailable = outcome.unavailable().unwrap();
        assert_eq!(unavailable["key"], "trip");
        assert_eq!(unavailable["message"], TRIP);
        assert_eq!(
            unavailable["requestedSchema"],
            schema_for::<Trip>(version),
            "{version}"
        );
        assert!(outcome.asked.is_empty());
    }
}

#[tokio::test]
async fn structured_content_only_without_an_output_schema() {
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.output_schema = true;
        let outcome = bare(version)
            .call_tool(server, "plan_args", json!({}))
            .await
            .unwrap();
        assert!(outcome.is_error());
        assert_eq!(outcome.result.structured_content, None, "{version}");
        assert_eq!(outcome.unavailable(), None);
        assert!(
            outcome.text().contains("the argument `trip`"),
            "the text says the same"
        );
    }
}

#[tokio::test]
async fn the_arguments_answer_each_question_the_client_cannot_show() {
    for version in ProtocolVersion::ALL {
        // A short trip: one answer.
        let outcome = bare(version)
            .call_tool(Server::new(), "plan_args", json!({"trip": short_trip()}))
            .await
            .unwrap();
        assert_eq!(outcome.unavailable(), None, "no tool error");
        let out = json_of(&outcome);
        assert_eq!(out["trip"], accepted(short_trip()), "{version}");
        assert_eq!(out["extras"], Value::Null);
        assert_eq!(
            out["attempts"]["trip"],
            json!([{"source": "Arguments", "took_ms": null}])
        );

        // A long trip without extras: the second question is unavailable.
        let outcome = bare(version)
            .call_tool(Server::new(), "plan_args", json!({"trip": long_trip()}))
            .await
            .unwrap();
        assert!(outcome.is_error());
        let unavailable = outcome.unavailable().unwrap();
        assert_eq!(unavailable["key"], "extras", "{version}");
        assert!(
            outcome
                .text()
                .contains("`budget` (Budget): one of \"Low\", \"Medium\", \"High\""),
            "{}",
            outcome.text()
        );

        // Both.
        let args = json!({"trip": long_trip(), "extras": extras()});
        let outcome = bare(version)
            .call_tool(Server::new(), "plan_args", args)
            .await
            .unwrap();
        let out = json_of(&outcome);
        assert_eq!(out["trip"], accepted(long_trip()), "{version}");
        assert_eq!(out["extras"], accepted(extras()), "{version}");
        assert_eq!(outcome.calls, 1, "{version}: nothing to ask, no round");
    }
}

#[tokio::test]
async fn invalid_arguments_meet_the_forms_own_rules() {
    for version in ProtocolVersion::ALL {
        for trip in [
            json!({"city": "", "nights": 31}),
            json!("Oslo"),
            json!({"city": 7}),
        ] {
            let outcome = bare(version)
                .call_tool(Server::new(), "plan_args", json!({"trip": trip}))
                .await
                .unwrap();
            // What was wrong, and what the tool needs, for the model to call again.
            assert!(outcome.is_error(), "{version}: {trip}");
            let unavailable = outcome.unavailable().unwrap();
            assert_eq!(unavailable["key"], "trip", "{version}");
            let text = outcome.text();
            assert!(text.contains("The answer was refused"), "{version}: {text}");
            assert!(
                text.contains("- `city` (City): text, 1–40 characters, required"),
                "{version}: {text}"
            );
            assert!(text.contains("in the argument `trip`"), "{version}: {text}");
        }
        let outcome = bare(version)
            .call_tool(
                Server::new(),
                "plan_args",
                json!({"trip": {"city": "", "nights": 31}}),
            )
            .await
            .unwrap();
        let text = outcome.text();
        assert!(
            text.contains("`city` must be at least 1 character long"),
            "{text}"
        );
        assert!(text.contains("`nights` must be at most 30"), "{text}");
    }
}

#[tokio::test]
async fn without_the_opt_in_behaviour_is_as_before() {
    for version in ProtocolVersion::ALL {
        let outcome = bare(version)
            .call_tool(Server::new(), "plan", json!({"trip": short_trip()}))
            .await;
        if version.has_input_requests() {
            assert!(
                matches!(outcome, Err(TestError::Server(_))),
                "{version}: {outcome:?}"
            );
        } else {
            let outcome = outcome.unwrap();
            assert!(
                outcome.text().starts_with("the client does not support"),
                "{}",
                outcome.text()
            );
        }
    }
}

#[tokio::test]
async fn a_confirmation_never_comes_from_the_arguments() {
    for version in ProtocolVersion::ALL {
        let args = json!({"sure": {"confirmed": true}});
        let outcome = bare(version)
            .call_tool(Server::new(), "confirm_args", args.clone())
            .await
            .unwrap();
        // Not confirmed, in one shape on every version: the body decides what to do.
        assert!(!outcome.is_error(), "{version}: {}", outcome.text());
        assert_eq!(
            json_of(&outcome),
            json!({"confirmed": false, "reason": "no person could be asked"}),
            "{version}"
        );
        // With a client that can show it, the arguments do not pre-fill it either.
        let client = ScriptedClient::new(version).answer(accept(json!({"confirmed": false})));
        let outcome = client
            .call_tool(Server::new(), "confirm_args", args)
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome),
            json!({"confirmed": false, "reason": "the box was not checked"})
        );
        let schema = outcome.asked[0].requested_schema.as_ref().unwrap();
        assert_ne!(
            schema["properties"]["confirmed"].get("default"),
            Some(&json!(true)),
            "{version}"
        );
    }
}

#[tokio::test]
async fn arguments_pre_fill_the_form_and_the_person_decides() {
    for version in ProtocolVersion::ALL {
        // The model guessed a city and an impossible number of nights.
        let args = json!({"trip": {"city": "Oslo", "nights": 99}});
        let client = ScriptedClient::new(version).answer(accept(short_trip()));
        let outcome = client
            .call_tool(Server::new(), "plan_args", args)
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome)["trip"],
            accepted(short_trip()),
            "{version}: the answer counts"
        );
        let properties = &outcome.asked[0].requested_schema.as_ref().unwrap()["properties"];
        let city = properties["city"].get("default");
        if version >= ProtocolVersion::V2025_11_25 {
            assert_eq!(city, Some(&json!("Oslo")), "{version}");
        } else {
            assert_eq!(city, None, "2025-06-18 has defaults on booleans only");
        }
        assert_eq!(
            properties["nights"].get("default"),
            None,
            "{version}: 99 breaks its rule"
        );

        // A boolean pre-fills on every version.
        let args = json!({"extras": {"rental_car": true, "budget": "Lavish"}});
        let client = ScriptedClient::new(version)
            .answer(accept(long_trip()))
            .answer(accept(extras()));
        let outcome = client
            .call_tool(Server::new(), "plan_args", args)
            .await
            .unwrap();
        let properties = &outcome.asked[1].requested_schema.as_ref().unwrap()["properties"];
        assert_eq!(properties["rental_car"]["default"], true, "{version}");
        assert_eq!(
            properties["budget"].get("default"),
            None,
            "{version}: not a choice"
        );
    }
}

#[tokio::test]
async fn every_attempt_says_how_long_the_person_took() {
    let delay = Duration::from_millis(200);
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version).answer(accept(short_trip()).after(delay));
        let outcome = client
            .call_tool(Server::new(), "plan_args", json!({}))
            .await
            .unwrap();
        let attempt = &json_of(&outcome)["attempts"]["trip"][0];
        assert_eq!(attempt["source"], "Person");
        let took = attempt["took_ms"]
            .as_u64()
            .expect("a time, on every version");
        assert!(took >= 200, "{version}: {took} ms");
    }
}

#[tokio::test]
async fn keep_alive_holds_a_call_open_while_the_person_types() {
    // The client gives up after 1.5 s without a response or progress; the person takes 2.5 s.
    let client = |version| {
        ScriptedClient::new(version)
            .with_timeout(Duration::from_millis(1500))
            .answer(accept(short_trip()).after(Duration::from_millis(2500)))
    };
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.keep_alive = Some(Duration::from_secs(1));
        let outcome = client(version)
            .call_tool(server, "plan", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome)["trip"],
            accepted(short_trip()),
            "{version}"
        );
        if version.has_input_requests() {
            // Each round has its own request: nothing waits inside one.
            assert!(outcome.progress.is_empty());
            continue;
        }
        assert!(
            outcome.progress.len() >= 2,
            "{version}: {:?}",
            outcome.progress
        );
        let values: Vec<f64> = outcome.progress.iter().map(|p| p.progress).collect();
        assert!(
            values.windows(2).all(|w| w[0] < w[1]),
            "increasing: {values:?}"
        );
        let message = outcome.progress[0].message.as_deref();
        assert_eq!(
            message,
            Some("Waiting for the user: Where would you like to go?")
        );

        // With the default interval (15 s), the same person is too slow for this client.
        let outcome = client(version)
            .call_tool(Server::new(), "plan", json!({}))
            .await;
        assert!(
            matches!(outcome, Err(TestError::Timeout(_))),
            "{version}: {outcome:?}"
        );
    }
}

#[tokio::test]
async fn a_question_sets_its_own_keep_alive() {
    for version in ProtocolVersion::ALL {
        let client = ScriptedClient::new(version)
            .with_timeout(Duration::from_millis(1500))
            .answer(accept(short_trip()).after(Duration::from_millis(2500)));
        let outcome = client
            .call_tool(Server::new(), "keep_question", json!({}))
            .await
            .unwrap();
        assert_eq!(
            json_of(&outcome)["trip"],
            accepted(short_trip()),
            "{version}"
        );
        let live = !version.has_input_requests();
        assert_eq!(
            outcome.progress.len() >= 2,
            live,
            "{version}: {:?}",
            outcome.progress
        );
    }
}

#[tokio::test]
async fn a_zero_keep_alive_sends_progress_once_a_second() {
    for version in ProtocolVersion::ALL {
        let mut server = Server::new();
        server.keep_alive = Some(Duration::ZERO);
        let client = ScriptedClient::new(version)
            .answer(accept(short_trip()).after(Duration::from_millis(1500)));
        let outcome = client.call_tool(server, "plan", json!({})).await.unwrap();
        assert_eq!(
            json_of(&outcome)["trip"],
            accepted(short_trip()),
            "{version}"
        );
        // At most one a second, not one per poll.
        let expected = if version.has_input_requests() { 0 } else { 1 };
        assert_eq!(
            outcome.progress.len(),
            expected,
            "{version}: {:?}",
            outcome.progress
        );
    }
}

/// The fields a tool lists when no form can be shown name each kind as the form's hints and the
/// person's error text do: one set of words for a schema's facts.
#[tokio::test]
async fn the_fields_listed_without_a_form_name_each_kind_in_the_same_words() {
    for version in ProtocolVersion::ALL {
        let outcome = bare(version)
            .call_tool(Server::new(), "contact_args", json!({}))
            .await
            .unwrap();
        let text = outcome.text();
        for needed in [
            "- `email`: an email address, required",
            "- `site`: an absolute URI, optional",
            "- `day`: a date, such as 2026-12-24, optional",
            "- `at`: a date and time with its time zone, such as 2026-12-24T19:30:00Z, optional",
            "- `news`: true or false, optional",
        ] {
            assert!(text.contains(needed), "{version}: {needed:?} in {text}");
        }
    }
    // A person who sent the wrong type reads the same words for it.
    let schema = elicit_core::schema::RequestedSchema::builder()
        .field(elicit_core::schema::Field::boolean("news").title("News"))
        .build()
        .unwrap();
    let error = schema
        .parse_reply_json(r#"{"action":"accept","content":{"news":"yes"}}"#)
        .unwrap_err();
    assert_eq!(
        error.user_text(&schema),
        "News must be true or false (you entered \"yes\")"
    );
}
