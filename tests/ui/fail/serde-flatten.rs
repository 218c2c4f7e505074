use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Inner {
    a: String,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    #[serde(flatten)]
    inner: Inner,
}
fn main() {}
