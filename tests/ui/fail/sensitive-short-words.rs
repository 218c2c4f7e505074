use elicit_core::Elicit;
use schemars::JsonSchema;
use serde::Deserialize;

/// Short words are matched as whole words of the name: these fields ask for secrets.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Payment {
    user_pin: String,
    #[serde(rename = "otpCode")]
    code: String,
    iban: String,
    ssn: String,
    card_cvc: String,
    routing_number: String,
    credentials: String,
}

/// And these do not: the words only appear inside others.
#[derive(Deserialize, JsonSchema, Elicit)]
struct Shipping {
    spinner: String,
    shipping: String,
    classname: String,
}

fn main() {}
