use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
struct Silent {
    name: String,
}

#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(message = "  ")]
struct Blank {
    name: String,
}
fn main() {}
