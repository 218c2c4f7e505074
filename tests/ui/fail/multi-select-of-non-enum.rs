use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    picks: std::collections::BTreeSet<u8>,
}
fn main() {}
