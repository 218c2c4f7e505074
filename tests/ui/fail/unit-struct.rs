use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Nothing.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Nothing;
fn main() {}
