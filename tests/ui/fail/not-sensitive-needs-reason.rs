use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Usage.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Usage {
    #[elicit(not_sensitive = "")]
    token_count: u32,
}
fn main() {}
