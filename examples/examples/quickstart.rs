//! The quick start: a form type, its requestedSchema, and four replies parsed into typed values.
//!
//! Run with `cargo run -p elicit-examples --example quickstart`.

use elicit_core::{Elicit, ElicitResult};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Sign in to the build server
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
struct Creds {
    /// Your account name
    #[schemars(length(min = 3, max = 32))]
    username: String,
    /// Where to send build reports
    #[schemars(email)]
    email: Option<String>,
    #[schemars(range(min = 1, max = 65535))]
    port: u16,
    /// Stay signed in on this machine
    remember: bool,
    level: Level,
}

/// How much to log
#[derive(Debug, Serialize, Deserialize, JsonSchema, Elicit)]
enum Level {
    /// Errors only
    Low,
    /// Everything
    High,
}

fn show(reply: &str) {
    println!("reply: {reply}");
    match ElicitResult::<Creds>::from_json(reply) {
        Ok(ElicitResult::Accept(creds)) => println!("  accepted: {creds:?}"),
        Ok(ElicitResult::Decline) => println!("  declined: stop, and don't ask again"),
        Ok(ElicitResult::Cancel) => println!("  cancelled: asking once more is fine"),
        Err(error) => {
            println!("  refused:");
            for line in error.to_string().lines() {
                println!("    {line}");
            }
        }
    }
}

fn main() -> Result<(), serde_json::Error> {
    println!("elicitation/create params:");
    println!("{}", serde_json::to_string_pretty(&Creds::form_request())?);
    println!();
    show(
        r#"{"action":"accept","content":{"username":"ada","email":"ada@example.com","port":8080,"remember":true,"level":"High"}}"#,
    );
    show(r#"{"action":"decline"}"#);
    show(r#"{"action":"cancel","content":{"anything":"is ignored"}}"#);
    show(
        r#"{"action":"accept","content":{"username":"al","email":"not-an-email","port":70000,"remember":"yes","level":"Medium"}}"#,
    );
    Ok(())
}
