//! The kit drives the three requests that may ask, `tools/call`, `prompts/get` and
//! `resources/read`, to their end on every version: one script each.

use elicit_core::prelude::*;
use elicit_core::{ElicitResult, ProtocolVersion};
use elicit_test::{Answer, ScriptedClient};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::json;

/// Anything you can't eat?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Diet {
    vegetarian: bool,
}

/// The dish for the diet the person gives.
async fn dish(ask: &Ask) -> Result<&'static str, Interrupt> {
    Ok(match ask.form::<Diet>("diet").await? {
        ElicitResult::Accept(Diet { vegetarian: true }) => "Ratatouille",
        ElicitResult::Accept(_) => "Bouillabaisse",
        _ => "The chef's choice",
    })
}

/// A server whose prompt and resource ask, as its tool does.
struct Kitchen;

impl rmcp::ServerHandler for Kitchen {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .enable_resources()
            .build();
        ServerConfig::new(capabilities)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        let text = |dish: &str| CallToolResult::success(vec![ContentBlock::text(dish)]);
        ask.run(async { Ok(text(dish(&ask).await?)) })
            .await
            .into_response()
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        ask.run(async {
            let text = format!("Suggest a wine for {}.", dish(&ask).await?);
            Ok(GetPromptResult::new(vec![PromptMessage::new_text(
                Role::User,
                text,
            )]))
        })
        .await
        .into_prompt_response()
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let ask = Ask::new(&request, &context);
        let uri = request.uri.clone();
        ask.run(async {
            let contents = ResourceContents::text(dish(&ask).await?, uri.clone());
            Ok(ReadResourceResult::new(vec![contents]))
        })
        .await
        .into_resource_response()
    }
}

fn vegetarian() -> Answer {
    Answer::accept(json!({"vegetarian": true}))
}

#[tokio::test(flavor = "current_thread")]
async fn a_tool_a_prompt_and_a_resource_ask_alike_on_every_version() {
    for version in ProtocolVersion::ALL {
        let rounds = if version.has_input_requests() { 2 } else { 1 };
        let client = ScriptedClient::new(version).answer(vegetarian());
        let tool = client.call_tool(Kitchen, "dish", json!({})).await.unwrap();
        assert_eq!(tool.text(), "Ratatouille", "{version}");
        assert_eq!(tool.calls, rounds, "{version}");

        let client = ScriptedClient::new(version).answer(vegetarian());
        let prompt = client.get_prompt(Kitchen, "wine", json!({})).await.unwrap();
        let text = serde_json::to_value(&prompt.result.messages).unwrap();
        assert_eq!(
            text[0]["content"]["text"], "Suggest a wine for Ratatouille.",
            "{version}"
        );
        assert_eq!(prompt.messages(), ["Anything you can't eat?"], "{version}");
        assert_eq!(prompt.calls, rounds, "{version}");

        let client = ScriptedClient::new(version).answer(Answer::decline());
        let resource = client
            .read_resource(Kitchen, "menu://tonight")
            .await
            .unwrap();
        let contents = serde_json::to_value(&resource.result.contents).unwrap();
        assert_eq!(contents[0]["text"], "The chef's choice", "{version}");
        assert_eq!(resource.calls, rounds, "{version}");
    }
}
