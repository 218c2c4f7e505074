use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, Elicit)]
enum Color {
    Red,
    Blue,
}

#[derive(JsonSchema, Elicit)]
enum Size {
    Small,
    Large,
}

/// Pick a color and a size
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    color: Color,
    size: Size,
}
fn main() {}
