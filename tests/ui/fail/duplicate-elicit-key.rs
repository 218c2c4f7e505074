use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(message = "one", message = "two")]
struct Form {
    name: String,
}
fn main() {}
