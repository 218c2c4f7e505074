// A schemars key is refused unless listed, on the container as on a field.
use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Deserialize, JsonSchema, Elicit)]
#[schemars(_unstable_ref_variants)]
enum Tone {
    Warm,
    Cold,
}

/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[schemars(extend("x-widget" = "slider"))]
struct Form {
    #[schemars(extend("x-widget" = "slider"))]
    level: u8,
}

fn main() {}
