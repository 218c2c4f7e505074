// serde's keys written in #[schemars(..)] change the schema but not the parse: a form whose
// schema says `other` while serde reads `first_name` could never be accepted.
use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[schemars(rename_all = "camelCase")]
struct Form {
    #[schemars(rename = "other")]
    first_name: String,
    #[schemars(default)]
    last_name: String,
}

#[derive(Deserialize, JsonSchema, Elicit)]
enum Tone {
    Warm,
    #[schemars(skip)]
    Cold,
}

fn main() {}
