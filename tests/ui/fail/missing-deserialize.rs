use elicit_core::Elicit;
use schemars::JsonSchema;

/// Sign in
#[derive(JsonSchema, Elicit)]
struct Form {
    name: String,
}
fn main() {}
