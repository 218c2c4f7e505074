//! `?` on an error of another crate inside a tool's body: the error says how to map it.
use elicit_core::ask::{Ask, Asked};

async fn tool(ask: &Ask, nights: &str) -> Asked<String> {
    ask.run(async {
        let nights: u8 = nights.parse()?;
        Ok(format!("{nights} nights"))
    })
    .await
}

fn main() {
    let _ = tool;
}
