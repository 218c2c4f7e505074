//! One server of a fleet: any number of these processes, started with one secret and one
//! durable Redis, serve each other's calls on 2026-07-28, and run each round once, whichever
//! process each retry reaches.
//!
//! ```sh
//! redis-server --appendonly yes --appendfsync always &
//! FLEET_SECRET=$(head -c 32 /dev/urandom | base64) FLEET_REDIS_URL=redis://127.0.0.1:6379/ \
//!   cargo run -p elicit-rmcp-examples --example fleet_server -- 127.0.0.1:8000
//! ```
//!
//! It serves streamable HTTP at `http://ADDRESS/mcp` (port 0, the default, for any free port)
//! and prints that URL as the first line of stdout. It logs to stderr through `tracing`: a
//! store that fails, a round taken over or one whose record was lost, a Redis that keeps no
//! append-only file.
//!
//! - `FLEET_SECRET`: the secret every process shares, 32 bytes or more (32 random bytes,
//!   written as text). Required: a process with a key of its own could not open the others'
//!   states.
//! - `FLEET_REDIS_URL`: the Redis every process shares; its keys start with `fleet:`. Without
//!   it each process keeps its rounds in its own memory, and a round that reaches another
//!   process is asked again.
//! - `FLEET_LEDGER`: a directory that stands in for a payment service with idempotency keys:
//!   each payment is a file named by its key, made only where none is, holding
//!   `INVOICE AMOUNT`, and each body that reaches the payment appends `INVOICE KEY` to the
//!   file `attempts`, with ` taken-over` where it runs as a take-over. Without it, each
//!   payment is a line on stderr.
//! - `FLEET_PAY_MS`: how long a payment takes to confirm once made, in milliseconds (none by
//!   default): a process killed then has paid, but not answered.
//! - `FLEET_LEASE_MS`: the claim's lease, in milliseconds (`StateKey::DEFAULT_LEASE` by
//!   default): a shorter one takes a dead process's round over sooner.
//! - `FLEET_BLOCK_MS`: how long a payment of an invoice whose number ends in `-block` blocks
//!   its thread first (a blocking HTTP client, say), in milliseconds.
//! - `FLEET_TTL_MS`: how long a state opens, in milliseconds (`StateKey::DEFAULT_TTL` by
//!   default).
//! - `FLEET_CLOCK_AHEAD_MS`: how far this process's clock is ahead of the others', in
//!   milliseconds, as a host whose clock drifted would be (for tests of a fleet's clocks).
//!
//! Tool `pay_invoice` asks which invoice to pay and how much (a form), then confirms the
//! amount, then pays: the payment is the effect that must happen once. The store runs each
//! round once; the call's id, passed to the payment service as its idempotency key, covers
//! the one case the store cannot, a process killed mid-body whose round another takes over.
//! A failed payment is `Interrupt::retryable` only where the service refused before acting:
//! one that may have paid ends the call with its error, recorded, never run again, since a
//! new `tools/call` would pay under a new key.

#[path = "support/http.rs"]
mod http;

use std::io::Write;
use std::time::Duration;

use elicit_core::ask::RedisStore;
use elicit_core::ask::StateKey;
use elicit_core::prelude::*;
use elicit_core::{ElicitResult, RpcError};
use rmcp::{tool, tool_handler, tool_router};

/// Which invoice should be paid?
#[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
pub struct Invoice {
    /// The invoice's number
    #[schemars(length(min = 1, max = 20))]
    pub number: String,
    /// The amount to pay, in euros
    #[schemars(range(min = 1, max = 10000))]
    pub amount: u32,
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
            // Every question is answered: the payment goes last, under the call's id.
            let key = ask.call_id()?;
            if let Some(blocking) =
                millis("FLEET_BLOCK_MS").filter(|_| invoice.number.ends_with("-block"))
            {
                std::thread::sleep(blocking);
            }
            paid(pay(&key, &invoice, ask.taken_over()))?;
            if let Some(confirming) = millis("FLEET_PAY_MS") {
                tokio::time::sleep(confirming).await;
            }
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

/// What a payment's outcome means for the call.
pub fn paid(outcome: Result<(), Payment>) -> Result<(), Interrupt> {
    match outcome {
        Ok(()) => Ok(()),
        // The service refused before acting: nothing was paid, so the client's retry of this
        // round may try again.
        Err(Payment::Refused(e)) => Err(Interrupt::retryable(RpcError::internal(e))),
        // It may have paid: the ending is recorded and never run again, and a new call would
        // pay under a new key, so the client is told to check first.
        Err(Payment::Unknown(e)) => Err(RpcError::internal(e).into()),
    }
}

/// Why a payment failed, as a payment service says it: refused before it acted (nothing was
/// paid), or failed after it may have (the payment may stand).
pub enum Payment {
    Refused(String),
    Unknown(String),
}

/// Pays `invoice` under the idempotency key `key`, as a payment service would: a second
/// payment under one key is the first. `taken_over` marks the attempt of a body that runs as
/// a take-over.
pub fn pay(key: &str, invoice: &Invoice, taken_over: bool) -> Result<(), Payment> {
    let Some(ledger) = std::env::var_os("FLEET_LEDGER").map(std::path::PathBuf::from) else {
        eprintln!("paid {} {}", invoice.number, invoice.amount);
        return Ok(());
    };
    let refused =
        |e: std::io::Error| Payment::Refused(format!("the payment service refused it: {e}"));
    let mark = if taken_over { " taken-over" } else { "" };
    let attempt = format!("{} {key}{mark}\n", invoice.number);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(ledger.join("attempts"))
        .and_then(|mut attempts| attempts.write_all(attempt.as_bytes()))
        .map_err(refused)?;
    let payment = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(ledger.join(key));
    match payment {
        Ok(mut payment) => {
            let line = format!("{} {}", invoice.number, invoice.amount);
            payment.write_all(line.as_bytes()).map_err(|e| {
                Payment::Unknown(format!(
                    "the payment service failed after it took the payment, which may stand: \
                     {e}; check the invoice before paying it again"
                ))
            })
        }
        // Paid under this key already: the service gives back the first payment.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(refused(e)),
    }
}

/// The milliseconds in the variable `name`, where it is set.
fn millis(name: &str) -> Option<Duration> {
    let text = std::env::var(name).ok()?;
    text.parse().ok().map(Duration::from_millis)
}

/// The fleet's key: the shared secret, with the shared Redis where there is one. Made once,
/// here, and installed for every call of every session.
fn install_key() -> Result<(), Box<dyn std::error::Error>> {
    let secret = std::env::var_os("FLEET_SECRET").ok_or("FLEET_SECRET is not set")?;
    let mut key = StateKey::new(secret.into_encoded_bytes())?;
    if let Some(lease) = millis("FLEET_LEASE_MS") {
        key = key.with_lease(lease);
    }
    if let Some(ttl) = millis("FLEET_TTL_MS") {
        key = key.with_ttl(ttl);
    }
    if let Some(ahead) = millis("FLEET_CLOCK_AHEAD_MS") {
        key = key.with_clock(move || std::time::SystemTime::now() + ahead);
    }
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
    // Warnings and errors: a store outage, a round taken over, a record lost, a panic.
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .init();
    install_key()?;
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:0".to_owned());
    http::serve(&address, "fleet_server", Fleet).await
}
