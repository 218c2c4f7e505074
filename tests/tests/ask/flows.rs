//! One tool body, every version: rounds, answers, retries, URL mode and capabilities.

use elicit_core::{Elicit, ProtocolVersion};
use rmcp::model::*;
use serde_json::{Value, json};

use crate::harness::*;

fn schema_of(params: &ElicitRequestParams) -> Value {
    match params {
        ElicitRequestParams::FormElicitationParams {
            requested_schema, ..
        } => serde_json::to_value(requested_schema).unwrap(),
        _ => Value::Null,
    }
}

#[tokio::test]
async fn one_round_and_two_rounds_on_every_version() {
    for version in ALL {
        let client = Client::new(version).answers(TRIP, [accept(short_trip())]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        assert_eq!(
            call_json(&c, "plan").await,
            json!({"trip": accept(short_trip()), "extras": null}),
            "{version}"
        );
        assert_eq!(seen.messages(), [TRIP], "{version}");

        let client = Client::new(version)
            .answers(TRIP, [accept(long_trip())])
            .answers(EXTRAS, [accept(extras())]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        assert_eq!(
            call_json(&c, "plan").await,
            json!({"trip": accept(long_trip()), "extras": accept(extras())}),
            "{version}"
        );
        assert_eq!(seen.messages(), [TRIP, EXTRAS], "{version}");
        // Each form is sent with its schema for the version.
        let sent = seen.seen.lock().unwrap();
        assert_eq!(
            schema_of(&sent[0]),
            serde_json::to_value(Trip::requested_schema_for(version).unwrap()).unwrap()
        );
        assert_eq!(
            schema_of(&sent[1]),
            serde_json::to_value(Extras::requested_schema_for(version).unwrap()).unwrap()
        );
    }
}

/// On 2026-07-28 the code before the last question runs once per round; the code after the
/// questions runs once on every version.
#[tokio::test]
async fn code_after_the_questions_runs_once() {
    for version in ALL {
        let server = Server::new();
        let count = server.effects.clone();
        let client = Client::new(version)
            .answers(TRIP, [accept(long_trip())])
            .answers(EXTRAS, [accept(extras())]);
        let c = connect_to(server, client).await;
        assert_eq!(call_json(&c, "effects").await["trip"], accept(long_trip()));
        let (before, after) = *count.lock().unwrap();
        let rounds = if version.has_input_requests() { 3 } else { 1 };
        assert_eq!((before, after), (rounds, 1), "{version}");
    }
}

#[tokio::test]
async fn decline_and_cancel_at_each_round() {
    for version in ALL {
        for (round_1, round_2, expected) in [
            (decline(), None, json!({"trip": decline(), "extras": null})),
            (cancel(), None, json!({"trip": cancel(), "extras": null})),
            (
                accept(long_trip()),
                Some(decline()),
                json!({"trip": accept(long_trip()), "extras": decline()}),
            ),
            (
                accept(long_trip()),
                Some(cancel()),
                json!({"trip": accept(long_trip()), "extras": cancel()}),
            ),
        ] {
            let client = Client::new(version)
                .answers(TRIP, [round_1])
                .answers(EXTRAS, round_2);
            let c = connect_to(Server::new(), client).await;
            assert_eq!(call_json(&c, "plan").await, expected, "{version}");
        }
    }
}

#[tokio::test]
async fn invalid_content_at_each_round_is_a_tool_error_naming_every_property() {
    for version in ALL {
        let client =
            Client::new(version).answers(TRIP, [accept(json!({"city": "", "nights": 31}))]);
        let c = connect_to(Server::new(), client).await;
        let (text, is_error) = call(&c, "plan").await.unwrap();
        assert!(is_error, "{version}: {text}");
        assert!(
            text.contains("`city` must be at least 1 character long"),
            "{text}"
        );
        assert!(text.contains("`nights` must be at most 30"), "{text}");

        let client = Client::new(version)
            .answers(TRIP, [accept(long_trip())])
            .answers(
                EXTRAS,
                [accept(json!({"rental_car": "yes", "budget": "Lavish"}))],
            );
        let c = connect_to(Server::new(), client).await;
        let (text, is_error) = call(&c, "plan").await.unwrap();
        assert!(is_error, "{version}: {text}");
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
    for version in ALL {
        let client = Client::new(version)
            .answers(TRIP, [accept(short_trip())])
            .answers(DIET, [accept(json!({"vegetarian": true}))]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        if version.has_input_requests() {
            // One round asks for both.
            let first = c
                .call_tool_once(CallToolRequestParams::new("both"))
                .await
                .unwrap();
            let CallToolResponse::InputRequired(first) = first else {
                panic!("{first:?}")
            };
            let keys: Vec<&String> = first.input_requests.as_ref().unwrap().keys().collect();
            assert_eq!(keys, ["diet", "trip"]);
        }
        assert_eq!(
            call_json(&c, "both").await,
            json!({"trip": accept(short_trip()), "diet": accept(json!({"vegetarian": true}))}),
            "{version}"
        );
        let mut messages = seen.messages();
        if version.has_input_requests() {
            // The client answers a round's requests concurrently, in any order.
            messages.sort();
            assert_eq!(messages, [DIET, TRIP]);
        } else {
            assert_eq!(messages, [TRIP, DIET], "live requests go one after another");
        }
    }
}

#[tokio::test]
async fn the_retry_policy_on_every_version() {
    for version in ALL {
        // Cancel, then invalid content, then a valid answer: three attempts, each visible.
        let client = Client::new(version).answers(
            TRIP,
            [
                cancel(),
                accept(json!({"city": "Kyoto"})),
                accept(short_trip()),
            ],
        );
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        let out = call_json(&c, "patient").await;
        assert_eq!(out["answer"], accept(short_trip()), "{version}");
        let attempts = out["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), 3, "{version}: {out}");
        assert_eq!(attempts[0], "Cancelled");
        assert!(attempts[1].as_str().unwrap().starts_with("Invalid("));
        assert_eq!(attempts[2], "Accepted");
        let messages = seen.messages();
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
        let schemas: Vec<Value> = seen
            .seen
            .lock()
            .unwrap()
            .iter()
            .map(|r| match r {
                ElicitRequestParams::FormElicitationParams {
                    requested_schema, ..
                } => serde_json::to_value(requested_schema).unwrap(),
                _ => Value::Null,
            })
            .collect();
        assert_eq!(schemas[0]["properties"]["city"].get("default"), None);
        assert_eq!(schemas[1]["properties"]["city"].get("default"), None);
        let kept = schemas[2]["properties"]["city"].get("default");
        if version >= ProtocolVersion::V2025_11_25 {
            assert_eq!(kept, Some(&json!("Kyoto")), "{version}");
        } else {
            assert_eq!(kept, None, "{version}: 2025-06-18 has no string defaults");
        }
        assert_eq!(schemas[2]["properties"]["nights"].get("default"), None);

        // Decline stops at once; a second cancel stops too.
        for (replies, expected) in [
            (vec![decline(), accept(short_trip())], json!(["Declined"])),
            (
                vec![cancel(), cancel(), accept(short_trip())],
                json!(["Cancelled", "Cancelled"]),
            ),
        ] {
            let c = connect_to(Server::new(), Client::new(version).answers(TRIP, replies)).await;
            assert_eq!(call_json(&c, "patient").await["attempts"], expected);
        }
        // Invalid content is asked again up to the limit (two retries), then reported.
        let bad = accept(json!({"city": ""}));
        let client = Client::new(version).answers(TRIP, [bad.clone(), bad.clone(), bad]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        let out = call_json(&c, "patient").await;
        assert!(
            out["answer"]["invalid"]
                .as_str()
                .unwrap()
                .contains("`city` must be at least 1"),
            "{out}"
        );
        assert_eq!(out["attempts"].as_array().unwrap().len(), 3);
        assert_eq!(seen.messages().len(), 3);
    }
}

#[tokio::test]
async fn url_mode_where_the_version_has_it() {
    let c = connect_to(Server::new(), Client::new(ProtocolVersion::V2025_06_18)).await;
    let (text, is_error) = call(&c, "connect").await.unwrap();
    assert!(is_error);
    assert_eq!(text, "URL mode elicitation is not part of MCP 2025-06-18");

    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        let client =
            Client::new(version).answers("Sign in on our page", [json!({"action": "accept"})]);
        let seen = client.clone();
        let c = connect_to(Server::new(), client).await;
        assert_eq!(call_json(&c, "connect").await, json!({"action": "accept"}));
        let sent = seen.seen.lock().unwrap();
        let ElicitRequestParams::UrlElicitationParams {
            url,
            elicitation_id,
            ..
        } = &sent[0]
        else {
            panic!("{:?}", sent[0])
        };
        assert_eq!(url, PAGE);
        // 2025-11-25 sends an id (the key); 2026-07-28 has none, its key names the request.
        let expected = if version.has_input_requests() {
            ""
        } else {
            "connect"
        };
        assert_eq!(elicitation_id, expected, "{version}");
    }
}

fn capabilities(form: bool, url: bool) -> ClientCapabilities {
    if !form && !url {
        return ClientCapabilities::default();
    }
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
    for version in [ProtocolVersion::V2025_11_25, ProtocolVersion::V2026_07_28] {
        for (form, url, tool, missing) in [
            (false, false, "plan", "form"),
            (false, true, "plan", "form"),
            (false, false, "connect", "url"),
            (true, false, "connect", "url"),
        ] {
            let mut client = Client::new(version)
                .answers(TRIP, [accept(short_trip())])
                .answers("Sign in on our page", [json!({"action": "accept"})]);
            client.capabilities = capabilities(form, url);
            let seen = client.clone();
            let c = connect_to(Server::new(), client).await;
            let out = call(&c, tool).await;
            if version.has_input_requests() {
                // MissingRequiredClientCapability (-32021), naming what is required.
                let e = c
                    .call_tool_once(CallToolRequestParams::new(tool.to_owned()))
                    .await
                    .unwrap_err();
                let rmcp::ServiceError::McpError(e) = e else {
                    panic!("{e:?}")
                };
                assert_eq!(e.code, ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY);
                let required = &e.data.unwrap()["requiredCapabilities"]["elicitation"];
                assert!(required.get(missing).is_some(), "{required}");
                assert!(out.is_err(), "{out:?}");
            } else {
                let (text, is_error) = out.unwrap();
                assert!(is_error);
                let mode = if missing == "url" { "URL" } else { "form" };
                assert_eq!(
                    text,
                    format!("the client does not support {mode}-mode elicitation")
                );
            }
            assert!(seen.seen.lock().unwrap().is_empty(), "{version} {tool}");
        }
    }
    // `{"elicitation":{}}`, from clients written before modes existed, means form mode.
    for version in ALL {
        let mut client = Client::new(version).answers(TRIP, [accept(short_trip())]);
        client.capabilities = ClientCapabilities::builder().enable_elicitation().build();
        let c = connect_to(Server::new(), client).await;
        assert_eq!(call_json(&c, "plan").await["trip"], accept(short_trip()));
    }
}

#[tokio::test]
async fn a_multi_select_on_2025_06_18_is_refused_before_sending() {
    use elicit_core::prelude::*;

    #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
    enum Topping {
        Cheese,
        Olives,
    }
    /// Toppings
    #[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
    struct Pizza {
        toppings: Vec<Topping>,
    }

    #[derive(Clone)]
    struct PizzaServer;
    impl rmcp::ServerHandler for PizzaServer {
        fn get_info(&self) -> ServerConfig {
            ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
        }
        async fn call_tool(
            &self,
            request: CallToolRequestParams,
            context: rmcp::service::RequestContext<rmcp::service::RoleServer>,
        ) -> Result<CallToolResponse, ErrorData> {
            let ask = Ask::new(&request, &context);
            ask.run(async {
                let pizza = ask.form::<Pizza>("pizza").await?;
                let toppings = pizza.accepted().map_or(0, |p| p.toppings.len());
                Ok(CallToolResult::success(vec![ContentBlock::text(
                    toppings.to_string(),
                )]))
            })
            .await
            .into_response()
        }
    }
    let client = Client::new(ProtocolVersion::V2025_06_18);
    let seen = client.clone();
    let c = connect_to(PizzaServer, client).await;
    let (text, is_error) = call(&c, "pizza").await.unwrap();
    assert!(is_error);
    assert!(
        text.contains("`toppings`") || text.contains("toppings"),
        "{text}"
    );
    assert!(text.contains("multi-select"), "{text}");
    assert!(seen.seen.lock().unwrap().is_empty());
}
