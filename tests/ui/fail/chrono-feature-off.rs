// A chrono date with elicit-core's `chrono` feature off: the error names the feature.
use elicit_core::Elicit;

/// When do you leave?
#[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Leave {
    on: chrono::NaiveDate,
}

fn main() {}
