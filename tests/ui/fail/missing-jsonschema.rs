use elicit_core::Elicit;
use serde::Deserialize;

#[derive(Deserialize, Elicit)]
struct Form {
    name: String,
}
fn main() {}
