use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Window {
    hours: u8,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    name: String,
    #[serde(flatten)]
    window: Window,
}
fn main() {}
