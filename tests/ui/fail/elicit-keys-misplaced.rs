use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

// `enum_names` shapes a choice enum; `no_auto_titles` and `no_bound_hints` shape a form.
/// Fill in Form.
#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(enum_names)]
struct Form {
    name: String,
}

#[derive(Deserialize, JsonSchema, Elicit)]
#[elicit(no_auto_titles, no_bound_hints)]
enum Choice {
    A,
    B,
}

fn main() {}
