use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Login.
#[derive(Deserialize, JsonSchema, Elicit)]
#[serde(rename_all = "camelCase")]
struct Login {
    user: String,
    password: String,
    #[serde(rename = "X-Api-Key")]
    key: String,
    card_number: String,
    #[serde(rename(deserialize = "api_key"))]
    label: String,
}
fn main() {}
