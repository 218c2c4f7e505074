use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(mesage = "typo")]
struct Form {
    #[elicit(sensitive)]
    name: String,
}
fn main() {}
