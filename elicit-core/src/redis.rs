//! Exactly-once rounds across a fleet, in Redis (feature `redis`, the `redis` crate 1.x).
//!
//! [`RedisStore`] is a [`RoundStore`]: every process of a fleet that shares one secret and one
//! Redis runs each round of a call once, whichever process each retry reaches.
//!
//! ```no_run
//! use elicit_core::ask::StateKey;
//! use elicit_core::redis::RedisStore;
//!
//! # async fn start() -> Result<(), Box<dyn std::error::Error>> {
//! let secret = std::env::var("ELICIT_SECRET")?;
//! let store = RedisStore::open("redis://127.0.0.1:6379/", "trip-planner:")?;
//! StateKey::new(secret)?
//!     .with_store(store)
//!     .install()
//!     .map_err(|_| "a key was installed already")?;
//! # Ok(())
//! # }
//! ```
//!
//! Each round is one key, the prefix and the state's seal, which lives no longer than the
//! state: a claim is one `SET key value NX PX lease`, recording sets the response in its place
//! until the state expires, and releasing deletes it, both only for the claim's own claimant
//! (a compare-and-set script). A Redis that cannot be reached fails the retry closed: it ends
//! with -32603, "the state store is unavailable", and no body runs unguarded.

use std::time::{Duration, SystemTime};

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{AsyncCommands, Client, Script};
use serde_json::Value;

use crate::ask::{Claim, Round, RoundStore, StoreError};

/// How long one Redis command may take, and one connection attempt: past it the retry fails
/// closed rather than wait on a Redis that went away.
const TIMEOUT: Duration = Duration::from_secs(2);

/// Records a response in the place of the running claim it answers.
const RECORD: &str = r"if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return false";

/// Forgets a running claim.
const RELEASE: &str = r"if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0";

/// A [`RoundStore`] in Redis, for a fleet. Cheap to clone: clones share one connection, which
/// reconnects by itself after a failure.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// A store at the Redis of `url` (`redis://host:port/db`), its keys starting with
    /// `prefix`, so that one Redis can serve several servers. It connects on first use, so a
    /// server starts while its Redis is down; each command then waits at most two seconds.
    /// Call it within a tokio runtime, whose tasks keep the connection.
    ///
    /// # Errors
    ///
    /// A URL the `redis` crate does not read, or no tokio runtime to call it in.
    pub fn open(url: &str, prefix: impl Into<String>) -> Result<Self, StoreError> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(StoreError(
                "RedisStore::open was called outside a tokio runtime".into(),
            ));
        }
        let client = Client::open(url).map_err(failed)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(TIMEOUT))
            .set_response_timeout(Some(TIMEOUT))
            .set_number_of_retries(1);
        let connection = client.get_connection_manager_lazy(config).map_err(failed)?;
        Ok(RedisStore::new(connection, prefix))
    }

    /// A store over a connection of the caller's, its keys starting with `prefix`.
    #[must_use]
    pub fn new(connection: ConnectionManager, prefix: impl Into<String>) -> Self {
        RedisStore {
            connection,
            prefix: prefix.into(),
        }
    }

    fn key(&self, round: &Round) -> String {
        format!("{}{}", self.prefix, round.seal)
    }
}

/// A running claim's value: `R`, the answers and the claimant.
fn running(round: &Round) -> String {
    format!("R {} {}", round.answers, round.claimant)
}

/// Milliseconds until `at`, and at least one: Redis refuses a time to live of zero.
fn millis_until(at: SystemTime) -> u64 {
    let left = at.duration_since(SystemTime::now()).unwrap_or_default();
    u64::try_from(left.as_millis()).unwrap_or(u64::MAX).max(1)
}

fn failed(e: ::redis::RedisError) -> StoreError {
    StoreError(e.to_string())
}

impl RoundStore for RedisStore {
    async fn claim(&self, round: &Round, lease: Duration) -> Result<Claim, StoreError> {
        let key = self.key(round);
        let mut connection = self.connection.clone();
        let until = millis_until(round.expires)
            .min(u64::try_from(lease.as_millis()).unwrap_or(u64::MAX))
            .max(1);
        // The key may expire between the two commands: then claim again.
        for _ in 0..2 {
            let claimed: Option<String> = ::redis::cmd("SET")
                .arg(&key)
                .arg(running(round))
                .arg("NX")
                .arg("PX")
                .arg(until)
                .query_async(&mut connection)
                .await
                .map_err(failed)?;
            if claimed.is_some() {
                return Ok(Claim::First);
            }
            let held: Option<String> = connection.get(&key).await.map_err(failed)?;
            let Some(held) = held else { continue };
            let mut parts = held.splitn(3, ' ');
            let (kind, answers, rest) = (parts.next(), parts.next(), parts.next());
            if answers != Some(round.answers.as_str()) {
                return Ok(Claim::Used);
            }
            return match (kind, rest) {
                (Some("D"), Some(response)) => serde_json::from_str(response)
                    .map(Claim::Recorded)
                    .map_err(|e| StoreError(format!("a recorded response does not read: {e}"))),
                _ => Ok(Claim::Running),
            };
        }
        Ok(Claim::Running)
    }

    async fn record(&self, round: &Round, response: &Value) -> Result<(), StoreError> {
        let mut connection = self.connection.clone();
        let recorded = format!("D {} {response}", round.answers);
        Script::new(RECORD)
            .key(self.key(round))
            .arg(running(round))
            .arg(recorded)
            .arg(millis_until(round.expires))
            .invoke_async::<Option<String>>(&mut connection)
            .await
            .map(drop)
            .map_err(failed)
    }

    async fn release(&self, round: &Round) -> Result<(), StoreError> {
        let mut connection = self.connection.clone();
        Script::new(RELEASE)
            .key(self.key(round))
            .arg(running(round))
            .invoke_async::<i64>(&mut connection)
            .await
            .map(drop)
            .map_err(failed)
    }
}
