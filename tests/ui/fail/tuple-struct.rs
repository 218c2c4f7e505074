use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Pair.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Pair(String, u8);
fn main() {}
