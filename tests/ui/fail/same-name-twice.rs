use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    email: String,
    #[serde(rename = "email")]
    work_email: String,
}
fn main() {}
