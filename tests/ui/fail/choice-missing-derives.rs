use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(JsonSchema, Elicit)]
enum NoDeserialize {
    A,
}

#[derive(Deserialize, Elicit)]
enum NoJsonSchema {
    A,
}
fn main() {}
