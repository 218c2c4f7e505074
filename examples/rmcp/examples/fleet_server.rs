//! One server of a fleet: any number of these processes, started with one secret and one
//! Redis, serve each other's calls on 2026-07-28, and run each round once, whichever process
//! each retry reaches.
//!
//! ```sh
//! FLEET_SECRET=$(head -c 32 /dev/urandom | base64) FLEET_REDIS_URL=redis://127.0.0.1:6379/ \
//!   cargo run -p elicit-rmcp-examples --example fleet_server -- 127.0.0.1:8000
//! ```
//!
//! It serves streamable HTTP at `http://ADDRESS/mcp` (port 0, the default, for any free port)
//! and prints that URL as the first line of stdout.
//!
//! - `FLEET_SECRET`: the secret every process shares, 32 bytes or more (32 random bytes,
//!   written as text). Required: a process with a key of its own could not open the others'
//!   states.
//! - `FLEET_REDIS_URL`: the Redis every process shares; its keys start with `fleet:`. Without
//!   it each process keeps its rounds in memory, and a retry runs once only on the process
//!   that ran it.
//! - `FLEET_LEDGER`: a file to which each payment appends one line, `paid INVOICE AMOUNT`;
//!   without it, the line goes to stderr.
//!
//! Tool `pay_invoice` asks which invoice to pay and how much (a form), then confirms the
//! amount, then pays: the payment is the effect that must happen once.

#[path = "support/http.rs"]
mod http;

use std::io::Write;

use elicit_core::ElicitResult;
use elicit_core::prelude::*;
use elicit_core::redis::RedisStore;
use rmcp::{tool, tool_handler, tool_router};

/// Which invoice should be paid?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
struct Invoice {
    /// The invoice's number
    #[schemars(length(min = 1, max = 20))]
    number: String,
    /// The amount to pay, in euros
    #[schemars(range(min = 1, max = 10000))]
    amount: u32,
}

#[derive(Clone)]
struct Fleet;

#[tool_router]
impl Fleet {
    /// Pays an invoice once the person confirms the amount.
    #[tool(description = "Pay an invoice; asks which, and confirms the amount.")]
    async fn pay_invoice(&self, ask: Ask) -> Asked<String> {
        ask.run(async {
            let ElicitResult::Accept(invoice) = ask.form::<Invoice>("invoice").await? else {
                return Ok("Nothing paid.".to_owned());
            };
            let message = format!("Pay {} EUR for invoice {}?", invoice.amount, invoice.number);
            if !ask.confirm("pay", message).await?.is_confirmed() {
                return Ok("Nothing paid.".to_owned());
            }
            // Every question is answered: the payment happens once per round that gets here,
            // and the store lets that round run once.
            pay(&invoice).map_err(|e| Interrupt::Error(elicit_core::RpcError::internal(e)))?;
            Ok(format!(
                "Paid {} EUR for invoice {}.",
                invoice.amount, invoice.number
            ))
        })
        .await
    }
}

#[tool_handler(
    name = "fleet-server",
    router = elicit_core::rmcp::keep_arguments(Self::tool_router())
)]
impl rmcp::ServerHandler for Fleet {}

/// Appends the payment to the ledger.
fn pay(invoice: &Invoice) -> Result<(), String> {
    let line = format!("paid {} {}\n", invoice.number, invoice.amount);
    match std::env::var_os("FLEET_LEDGER") {
        Some(path) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut ledger| ledger.write_all(line.as_bytes()))
            .map_err(|e| format!("the ledger cannot be written: {e}")),
        None => {
            eprint!("{line}");
            Ok(())
        }
    }
}

/// The fleet's key: the shared secret, with the shared Redis where there is one.
fn install_key() -> Result<(), Box<dyn std::error::Error>> {
    let secret = std::env::var_os("FLEET_SECRET").ok_or("FLEET_SECRET is not set")?;
    let key = StateKey::new(secret.into_encoded_bytes())?;
    let key = match std::env::var("FLEET_REDIS_URL") {
        Ok(url) => key.with_store(RedisStore::open(&url, "fleet:")?),
        Err(_) => key,
    };
    key.install()
        .map_err(|_| "a requestState key was installed already")?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    install_key()?;
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    http::serve(&address, "fleet_server", Fleet).await
}
