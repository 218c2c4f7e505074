use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    #[schemars(regex(pattern = r"^[0-9]{5}$"))]
    zip: String,
}
fn main() {}
