//! The trip planner's forms, its tool body and its sealing key, shared by the rmcp and the
//! rust-mcp-sdk examples: the body is one text on both SDKs, and each example only obtains the
//! `Ask` and serves the tool.

use elicit_core::ElicitResult;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Where would you like to go?
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Trip {
    /// The city to visit
    #[schemars(length(min = 1, max = 40))]
    pub city: String,
    /// How many nights to stay
    #[schemars(range(min = 1, max = 30))]
    pub nights: u8,
}

/// A week or more: a few extras
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
pub struct Extras {
    /// Rent a car for the stay?
    pub rental_car: bool,
    /// How much to spend on the extras
    pub budget: Budget,
}

/// How much to spend on the extras.
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
pub enum Budget {
    Low,
    Medium,
    High,
}

/// `plan_trip`'s body: asks for a `Trip`, then for `Extras` when the trip is 7 nights or more,
/// and answers with one text, `{"trip": T, "extras": E}`. Where the client cannot show forms,
/// each answer comes from the argument under its key.
pub async fn plan_trip(ask: Ask) -> Asked<String> {
    ask.run(async {
        let trip = ask.form::<Trip>("trip").or_arguments().await?;
        let extras = match &trip {
            ElicitResult::Accept(trip) if trip.nights >= 7 => {
                Some(ask.form::<Extras>("extras").or_arguments().await?)
            }
            _ => None,
        };
        // Every question is answered: anything with effects belongs here, after them.
        let plan = serde_json::json!({ "trip": trip, "extras": extras });
        Ok(plan.to_string())
    })
    .await
}

/// Installs `TRIP_PLANNER_KEY` as the sealing key, when it is set.
pub fn install_key() -> Result<(), String> {
    let Some(secret) = std::env::var_os("TRIP_PLANNER_KEY") else {
        return Ok(()); // A random key, made on first use.
    };
    let key =
        StateKey::new(secret.into_encoded_bytes()).map_err(|e| format!("TRIP_PLANNER_KEY: {e}"))?;
    key.install()
        .map_err(|_| "a requestState key was installed already".to_owned())
}
