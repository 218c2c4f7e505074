use elicit_core::Elicit;
use serde::Deserialize;

/// Fill in Form.
#[derive(Deserialize, Elicit)]
struct Form {
    name: String,
}
fn main() {}
