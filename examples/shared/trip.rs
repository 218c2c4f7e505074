//! The trip planner's forms and its tool body, shared by the rmcp and the rust-mcp-sdk
//! examples: the body is one text on both SDKs, and each example only obtains the `Ask` and
//! serves the tool.

use elicit_core::ElicitResult;
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
