use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// When.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Window {
    hours: u8,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(deny_unknown_fields)]
struct Form {
    name: String,
    #[serde(flatten)]
    window: Window,
}
fn main() {}
