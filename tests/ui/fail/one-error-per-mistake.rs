use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Form {
    ok: String,
    first: Vec<String>,
    second: std::collections::BTreeMap<String, u8>,
}

fn use_it() -> &'static elicit_core::schema::RequestedSchema {
    <Form as Elicit>::requested_schema()
}
fn main() {}
