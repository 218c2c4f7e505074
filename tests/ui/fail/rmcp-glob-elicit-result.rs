//! Both globs bring an `ElicitResult`: rmcp's model has an untyped one of its own. The fix is
//! to import what the file uses by name, or `use elicit_core::ElicitResult;` explicitly.
use elicit_core::prelude::*;
use rmcp::model::*;

/// Where to?
#[derive(Debug, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Trip {
    city: String,
}

async fn plan(ask: Ask) -> Asked<CallToolResult> {
    ask.run(async {
        let text = match ask.form::<Trip>("trip").await? {
            ElicitResult::Accept(trip) => trip.city,
            _ => "nowhere".to_owned(),
        };
        Ok(CallToolResult::success(vec![ContentBlock::text(text)]))
    })
    .await
}

fn main() {
    let _ = plan;
}
