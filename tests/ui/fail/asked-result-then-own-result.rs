//! A tool that takes its body's result and otherwise returns one of its own would drop the
//! round that asks on 2026-07-28, where the question is that round: `Asked` has no accessor
//! for the result alone, so the shape does not compile. A tool returns `Asked` as it is, or
//! maps the result with `Asked::map`.
use elicit_core::ask::{Ask, Asked};

async fn tool(ask: &Ask) -> Asked<String> {
    let asked = ask.run(async { Ok("3 nights in Oslo".to_owned()) }).await;
    match asked.result() {
        Some(plan) => Asked::done(plan.clone()),
        None => Asked::done("no plan".to_owned()),
    }
}

fn main() {
    let _ = tool;
}
