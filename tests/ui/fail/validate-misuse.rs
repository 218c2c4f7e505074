use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

fn check(_: &u8) -> Result<(), String> {
    Ok(())
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    name: String,
    #[serde(skip)]
    #[elicit(validate = check)]
    cache: u8,
}

#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(validate = check)]
enum Choice {
    A,
}

fn main() {}
