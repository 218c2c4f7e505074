use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
enum Shape {
    Dot,
    Circle { radius: f64 },
    Square(f64),
}
fn main() {}
