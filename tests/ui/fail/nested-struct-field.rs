use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema)]
struct Address {
    street: String,
}

#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    name: String,
    address: Address,
}
fn main() {}
