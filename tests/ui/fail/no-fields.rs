use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
struct Empty {}

#[derive(Deserialize, JsonSchema, Elicit)]
struct AllSkipped {
    #[serde(skip)]
    cache: Vec<u8>,
}
fn main() {}
