//! A form made of two flattened parts, asked through `Ask` on every version by the kit: by a
//! person, from the tool's arguments where the client shows no forms, and refused with every
//! part's rule named.

use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::prelude::*;
use elicit_test::{Answer, ScriptedClient};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

/// How to reach you.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Contact {
    #[schemars(email)]
    email_address: String,
    #[schemars(length(min = 3))]
    phone: Option<String>,
}

/// For how long.
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Window {
    #[schemars(range(min = 1, max = 24))]
    hours: u8,
}

/// Who is on call?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct OnCall {
    #[schemars(length(min = 1))]
    name: String,
    #[serde(flatten)]
    contact: Contact,
    #[serde(flatten)]
    window: Window,
}

#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
#[serde(rename_all = "lowercase")]
enum Team {
    Sre,
    Ops,
}

/// Who to notify?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Notify {
    teams: Vec<Team>,
}

/// Asks who is on call (tool `on_call`), or whom to notify (`notify`), and says what it read.
struct Roster;

impl rmcp::ServerHandler for Roster {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        if request.name == "notify" {
            return ask
                .run(async {
                    let teams = ask.form::<Notify>("notify").or_arguments().await?;
                    Ok(CallToolResult::success(vec![ContentBlock::text(format!(
                        "{teams:?}"
                    ))]))
                })
                .await
                .into_response();
        }
        ask.run(async {
            let text = match ask.form::<OnCall>("on_call").or_arguments().await? {
                ElicitResult::Accept(OnCall {
                    name,
                    contact,
                    window,
                }) => format!(
                    "{name} <{}> {:?} for {}h",
                    contact.email_address, contact.phone, window.hours
                ),
                other => format!("{:?}", other.action()),
            };
            Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
        })
        .await
        .into_response()
    }
}

fn content() -> Value {
    json!({"name": "Ada", "emailAddress": "ada@example.com", "phone": "", "hours": 8})
}

#[tokio::test]
async fn a_form_of_parts_is_asked_and_read_on_every_version() {
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answer(Answer::accept(content()));
    let outcomes = client
        .call_tool_on_every_version(|| Roster, "on_call", Value::Null)
        .await
        .unwrap();
    assert_eq!(outcomes.len(), ProtocolVersion::ALL.len());
    for (version, outcome) in outcomes {
        assert_eq!(
            outcome.text(),
            "Ada <ada@example.com> None for 8h",
            "{version}"
        );
        let schema = outcome.asked[0].requested_schema.as_ref().unwrap();
        let fields: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
        assert_eq!(
            fields,
            ["name", "emailAddress", "phone", "hours"],
            "{version}"
        );
        assert_eq!(
            schema["required"],
            json!(["name", "emailAddress", "hours"]),
            "{version}"
        );
    }
}

#[tokio::test]
async fn a_form_of_parts_is_answered_from_the_arguments_without_forms() {
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .without_elicitation()
            .call_tool(Roster, "on_call", json!({"on_call": content()}))
            .await
            .unwrap();
        assert_eq!(
            outcome.text(),
            "Ada <ada@example.com> None for 8h",
            "{version}"
        );
        assert!(outcome.asked.is_empty());
        // Every part's rule holds there too, named as the argument's fields.
        let mut broken = content();
        broken["emailAddress"] = json!("nobody");
        broken["hours"] = json!(0);
        let outcome = ScriptedClient::new(version)
            .without_elicitation()
            .call_tool(Roster, "on_call", json!({"on_call": broken}))
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        let text = outcome.text();
        for field in ["emailAddress", "hours"] {
            assert!(text.contains(field), "{version}: {field} in {text}");
        }
    }
}

#[tokio::test]
async fn a_repeated_choice_in_the_arguments_is_refused_naming_it() {
    for version in ProtocolVersion::ALL {
        let outcome = ScriptedClient::new(version)
            .without_elicitation()
            .call_tool(
                Roster,
                "notify",
                json!({"notify": {"teams": ["sre", "sre"]}}),
            )
            .await
            .unwrap();
        assert!(outcome.is_error(), "{version}");
        let text = outcome.text();
        assert!(
            text.contains("teams") && text.contains("same choice twice") && text.contains("sre"),
            "{version}: {text}"
        );
    }
}
