use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Doc comments are the message.
#[derive(Deserialize, JsonSchema, Elicit)]
#[schemars(title = "Form")]
struct Form {
    name: String,
}
fn main() {}
