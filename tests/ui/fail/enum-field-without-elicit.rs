use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
enum Color {
    Red,
    Blue,
}

/// Pick a color
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    color: Color,
}
fn main() {}
