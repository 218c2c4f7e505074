use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

fn takes_a_number(_: &u32) -> Result<(), String> {
    Ok(())
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    #[elicit(validate = takes_a_number)]
    name: String,
}

fn main() {}
