use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Address {
    street: String,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    name: String,
    address: Address,
}
fn main() {}
