use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Empty.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Empty {}

/// Fill in AllSkipped.
#[derive(Deserialize, JsonSchema, Elicit)]
struct AllSkipped {
    #[serde(skip)]
    cache: Vec<u8>,
}
fn main() {}
