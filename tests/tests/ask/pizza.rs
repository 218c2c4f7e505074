//! A multi-select on every version: on 2025-06-18, which has no array property, one box per
//! choice, read back into the same `Vec`.

use elicit_core::ElicitResult;
use elicit_core::ProtocolVersion;
use elicit_core::ask::RetryPolicy;
use elicit_core::prelude::*;
use elicit_test::{Answer, ScriptedClient};
use rmcp::model::*;
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
enum Topping {
    /// Mozzarella
    Cheese,
    Olives,
    Basil,
}

/// Your pizza
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Pizza {
    /// Pick at least one
    #[schemars(length(min = 1))]
    toppings: Vec<Topping>,
    large: bool,
}

struct PizzaServer;

impl rmcp::ServerHandler for PizzaServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let ask = Ask::new(&request, &context).with_retry(RetryPolicy::default());
        ask.run(async {
            let pizza = ask.form::<Pizza>("pizza").await?;
            let ElicitResult::Accept(pizza) = pizza else {
                return Ok(CallToolResult::success(vec![ContentBlock::text(
                    "no pizza",
                )]));
            };
            let order = ask.confirm("order", "Order it?").await?;
            let text = json!({"pizza": pizza, "ordered": order.is_confirmed()});
            Ok(CallToolResult::success(vec![ContentBlock::text(
                text.to_string(),
            )]))
        })
        .await
        .into_response()
    }
}

fn accept(content: Value) -> Answer {
    Answer::accept(content)
}

fn yes() -> Answer {
    accept(json!({"confirmed": true}))
}

/// One script on every version, and the results, which must agree.
async fn every_version(script: Vec<Answer>) -> Vec<(ProtocolVersion, String, Vec<Option<Value>>)> {
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answers(script);
    let outcomes = client
        .call_tool_on_every_version(|| PizzaServer, "pizza", json!({}))
        .await
        .unwrap();
    let results: Vec<_> = outcomes
        .into_iter()
        .map(|(version, outcome)| {
            let forms = outcome
                .asked
                .iter()
                .map(|a| a.requested_schema.clone())
                .collect();
            (version, outcome.text(), forms)
        })
        .collect();
    for (version, text, _) in &results {
        assert_eq!(text, &results[0].1, "{version} against {}", results[0].0);
    }
    results
}

#[tokio::test]
async fn a_pizza_on_every_version() {
    let results = every_version(vec![
        accept(json!({"toppings": ["Cheese", "Basil"], "large": true})),
        yes(),
    ])
    .await;
    assert_eq!(
        results[0].1,
        json!({"pizza": {"toppings": ["Cheese", "Basil"], "large": true}, "ordered": true})
            .to_string()
    );
    // On 2025-06-18 the form holds one box per choice, titled from the field and the choice,
    // with the field's description on the first; the person ticks boxes.
    let (version, _, forms) = &results[0];
    assert_eq!(*version, ProtocolVersion::V2025_06_18);
    let form = forms[0].as_ref().unwrap();
    let properties = form["properties"].as_object().unwrap();
    let names: Vec<&str> = properties.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "toppings__Cheese",
            "toppings__Olives",
            "toppings__Basil",
            "large"
        ]
    );
    assert_eq!(properties["toppings__Cheese"]["type"], "boolean");
    assert_eq!(
        properties["toppings__Cheese"]["title"],
        "Toppings: Mozzarella"
    );
    assert_eq!(properties["toppings__Olives"]["title"], "Toppings: Olives");
    assert!(
        properties["toppings__Cheese"]["description"]
            .as_str()
            .unwrap()
            .starts_with("Pick at least one")
    );
    assert!(properties["toppings__Olives"].get("description").is_none());
    assert_eq!(form["required"], json!(["large"]));
    // Newer versions send the list.
    let newest = results[2].2[0].as_ref().unwrap();
    assert_eq!(newest["properties"]["toppings"]["type"], "array");
}

#[tokio::test]
async fn a_decline_on_every_version() {
    let results = every_version(vec![Answer::decline()]).await;
    assert_eq!(results[0].1, "no pizza");
}

#[tokio::test]
async fn nothing_ticked_is_refused_naming_the_field_then_asked_again() {
    let results = every_version(vec![
        accept(json!({"toppings": [], "large": false})),
        accept(json!({"toppings": ["Olives"], "large": false})),
        yes(),
    ])
    .await;
    assert_eq!(
        results[0].1,
        json!({"pizza": {"toppings": ["Olives"], "large": false}, "ordered": true}).to_string()
    );
    for (version, _, forms) in &results {
        assert_eq!(forms.len(), 3, "{version}: asked again once");
    }
}

#[tokio::test]
async fn the_field_names_its_rule_on_every_version() {
    // Asked three times, always with nothing ticked: the field's own rule, by its name.
    let client = ScriptedClient::new(ProtocolVersion::LATEST).answers(std::iter::repeat_n(
        accept(json!({"toppings": [], "large": true})),
        3,
    ));
    for (version, outcome) in client
        .call_tool_on_every_version(|| PizzaServer, "pizza", json!({}))
        .await
        .unwrap()
    {
        assert!(outcome.is_error(), "{version}");
        let text = outcome.text();
        assert!(
            text.contains("`toppings` must have at least 1 choice selected"),
            "{version}: {text}"
        );
        assert!(!text.contains("toppings__"), "{version}: {text}");
    }
}

#[test]
fn the_runtime_schema_writes_and_reads_the_boxes_the_same_way() {
    let schema = Pizza::requested_schema();
    let old = schema.for_version(ProtocolVersion::V2025_06_18).unwrap();
    let written = serde_json::to_value(&old).unwrap();
    assert_eq!(written["properties"]["toppings__Basil"]["type"], "boolean");
    // A proxy reads the reply against the form it saw; the server folds it back.
    let reply = json!({"action": "accept", "content": {"toppings__Cheese": true, "toppings__Olives": false, "large": true}});
    assert!(old.parse_reply_value(&reply).is_ok());
    let unfolded = schema.unfold_reply(ProtocolVersion::V2025_06_18, &reply);
    assert_eq!(
        unfolded["content"],
        json!({"large": true, "toppings": ["Cheese"]})
    );
    assert!(schema.parse_reply_value(&unfolded).is_ok());
    // A default list ticks its boxes where the version allows a boolean default.
    let with_default = elicit_core::schema::RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["b"]}}
    }))
    .unwrap();
    let old = serde_json::to_value(
        with_default
            .for_version(ProtocolVersion::V2025_06_18)
            .unwrap(),
    )
    .unwrap();
    assert_eq!(old["properties"]["tags__a"]["default"], false);
    assert_eq!(old["properties"]["tags__b"]["default"], true);
    // A field whose name is a box's is refused, naming it.
    let clash = elicit_core::schema::RequestedSchema::from_value(json!({
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"enum": ["a"]}},
            "tags__a": {"type": "boolean"}
        }
    }))
    .unwrap();
    let refused = clash.for_version(ProtocolVersion::V2025_06_18).unwrap_err();
    assert_eq!(refused.property_name(), Some("tags__a"));
}
