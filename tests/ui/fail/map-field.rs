use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    labels: std::collections::HashMap<String, String>,
}
fn main() {}
