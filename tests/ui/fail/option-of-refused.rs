use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    maybe: Option<Option<String>>,
}
fn main() {}
