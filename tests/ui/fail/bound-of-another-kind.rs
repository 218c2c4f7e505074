// A bound is asked of the kind of value it bounds: `range` of a number, `length` of a string or
// a multi-select. On another kind schemars would write it and the form would drop it.
use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// An expense claim
#[derive(Deserialize, JsonSchema, Elicit)]
struct Claim {
    #[schemars(range(min = 1))]
    reference: String,
    #[schemars(length(max = 9))]
    amount: u32,
    #[schemars(length(min = 1))]
    approved: Option<bool>,
    // Where they apply, both are taken.
    #[schemars(length(min = 1, max = 40))]
    payee: Option<String>,
    #[schemars(range(min = 1, max = 30))]
    nights: Option<u8>,
}

fn main() {}
