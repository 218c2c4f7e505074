use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// How to reach you.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Contact {
    email: String,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    name: String,
    contact: Contact,
}
fn main() {}
