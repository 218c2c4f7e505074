//! [`RedisStore`]: exactly-once rounds across a fleet, in Redis (feature `redis`).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use ::redis::aio::{ConnectionManager, ConnectionManagerConfig};
use ::redis::{Client, FromRedisValue, Script, ScriptInvocation};

use super::{Claim, Round, RoundStore, StoreError};
use crate::ask::key::StateKey;
use crate::ask::port::PortFuture;
use crate::ask::state::{epoch_ms, millis};

/// How long one Redis command may take, and one connection attempt: past it the retry fails
/// closed rather than wait on a Redis that went away.
const TIMEOUT: Duration = Duration::from_secs(2);

/// Splits an entry into its parts, reads Redis's clock in milliseconds, and gives the time to
/// live of an entry whose state expires at `expires` (milliseconds since the epoch), plus the
/// clock skew allowed, by Redis's clock. An entry is `A number` while asked, `R number answers
/// claimant lease-end` while running, `D number answers ending` once recorded, and `X number
/// answers` once released.
const PARTS: &str = r"local function parts(held)
  local part = {}
  for p in string.gmatch(held, '%S+') do part[#part + 1] = p end
  return part
end
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function ttl(expires, skew)
  return string.format('%.0f', math.max(1, tonumber(expires) + tonumber(skew) - now()))
end
";

/// The generation, made where there is none. KEYS: generation. ARGV: a new one.
const GENERATION: &str = r"local g = redis.call('GET', KEYS[1])
if g then return g end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]";

/// KEYS: generation, call. ARGV: a new generation, number, expires, skew.
const BEGIN: &str = r"local g = redis.call('GET', KEYS[1])
if not g then
  redis.call('SET', KEYS[1], ARGV[1])
  g = ARGV[1]
end
local held = redis.call('GET', KEYS[2])
if not held or tonumber(parts(held)[2]) < tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], 'A ' .. ARGV[2], 'PX', ttl(ARGV[3], ARGV[4]))
end
return g";

/// KEYS: generation, call. ARGV: generation, number, answers, claimant, lease, expires, skew.
const CLAIM: &str = r"if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'forgotten'} end
local function run(answer)
  local entry = 'R ' .. ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4] .. ' '
    .. string.format('%.0f', now() + tonumber(ARGV[5]))
  redis.call('SET', KEYS[2], entry, 'PX', ttl(ARGV[6], ARGV[7]))
  return {answer}
end
local held = redis.call('GET', KEYS[2])
if not held then return {'forgotten'} end
local part = parts(held)
local number, wanted = tonumber(part[2]), tonumber(ARGV[2])
if number > wanted then return {'used'} end
if number < wanted or part[1] == 'A' or part[1] == 'X' then return run('first') end
if part[3] ~= ARGV[3] then return {'used'} end
if part[1] == 'D' then return {'recorded', part[4]} end
if part[4] == ARGV[4] then return {'first'} end
if tonumber(part[5]) > now() then return {'running'} end
return run('taken_over')";

/// Whether the call's entry is this round, running for this claimant, or (where the step ran
/// once already on a connection that dropped) what the step made of it. ARGV: number,
/// claimant.
const MINE: &str = r"local held = redis.call('GET', KEYS[1])
if not held then return 0 end
local part = parts(held)
if part[1] == 'D' and part[2] == ARGV[1] and part[4] == ARGV[3] then return 1 end
if part[1] ~= 'R' or part[2] ~= ARGV[1] or part[4] ~= ARGV[2] then return 0 end
";

/// ARGV: number, claimant, lease.
const RENEW: &str = r"local entry = 'R ' .. part[2] .. ' ' .. part[3] .. ' ' .. part[4] .. ' '
  .. string.format('%.0f', now() + tonumber(ARGV[3]))
redis.call('SET', KEYS[1], entry, 'KEEPTTL')
return 1";

/// ARGV: number, claimant, ending.
const RECORD: &str = r"redis.call('SET', KEYS[1], 'D ' .. part[2] .. ' ' .. part[3] .. ' ' .. ARGV[3], 'KEEPTTL')
return 1";

/// ARGV: number, claimant.
const RELEASE: &str = r"redis.call('SET', KEYS[1], 'X ' .. part[2] .. ' ' .. part[3], 'KEEPTTL')
return 1";

/// A [`RoundStore`] in Redis (feature `redis`, the `redis` crate 1.x, Redis 6 or later):
/// every process of a fleet that shares one secret and one Redis runs each round of a call
/// once, whichever process each retry reaches. Cheap to clone: clones share one connection,
/// which reconnects by itself after a failure.
///
/// ```no_run
/// use elicit_core::ask::{RedisStore, StateKey};
///
/// # async fn start() -> Result<(), Box<dyn std::error::Error>> {
/// let secret = std::env::var("ELICIT_SECRET")?;
/// let store = RedisStore::open("redis://127.0.0.1:6379/", "trip-planner:")?;
/// StateKey::new(secret)?
///     .with_store(store)
///     .install()
///     .map_err(|_| "a key was installed already")?;
/// # Ok(())
/// # }
/// ```
///
/// Each call is one key, the prefix and `call:` and the call's digest, made when its first
/// round is asked, which lives until its state expires plus
/// [`StateKey::MAX_CLOCK_SKEW`](crate::ask::StateKey::MAX_CLOCK_SKEW), by Redis's clock; each step
/// is one script, so it is atomic against every other process, and leases are measured by
/// Redis's own clock. A step whose connection had dropped (a Redis that
/// restarted) runs once more on a new one: each is safe to run twice. The store's generation
/// is one more key, `generation` under the prefix: a Redis that restarts empty loses it, and
/// a state issued before is then asked again rather than run blindly. A Redis that cannot be
/// reached fails the retry closed: it ends with -32603, "the state store is unavailable", and
/// no body runs unguarded.
///
/// **Durability.** A record is only as safe as Redis keeps it. Run Redis with an append-only
/// file (`appendonly yes`); `appendfsync always` keeps every record through a crash, and
/// `everysec` may lose the last second of them while keeping the generation, so a retry of a
/// round recorded in that second could run again. A Redis brought back from a snapshot older
/// than its last write must not keep its generation: delete the `generation` key (or change
/// the prefix) when restoring one. On first use the store reads Redis's settings and warns
/// (through `tracing` with that feature, else on stderr) where Redis keeps no append-only file,
/// or may evict keys.
///
/// **Room.** Unlike [`MemoryStore`](crate::ask::MemoryStore), the store caps neither the calls it
/// holds nor one caller's share: Redis's memory is the bound. Run it with
/// `maxmemory-policy noeviction`, so that a full Redis refuses new calls (they fail closed).
/// A Redis that evicts keys (`volatile-lru`, `allkeys-lru`, ...) lets calls go: a retry of one
/// finds no entry and is asked again from the first question, saying so, never run again in
/// silence, but its person answers again.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    scripts: Arc<Scripts>,
    /// Whether Redis's settings were read.
    checked: Arc<AtomicBool>,
}

struct Scripts {
    generation: Script,
    begin: Script,
    claim: Script,
    renew: Script,
    record: Script,
    release: Script,
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
        let mine = |step: &str| Script::new(&format!("{PARTS}{MINE}{step}"));
        let scripts = Scripts {
            generation: Script::new(GENERATION),
            begin: Script::new(&format!("{PARTS}{BEGIN}")),
            claim: Script::new(&format!("{PARTS}{CLAIM}")),
            renew: mine(RENEW),
            record: mine(RECORD),
            release: mine(RELEASE),
        };
        RedisStore {
            connection,
            prefix: prefix.into(),
            scripts: Arc::new(scripts),
            checked: Arc::default(),
        }
    }

    /// Runs one step, and once more where its connection had dropped: the manager has a new
    /// one on the way.
    async fn run<T: FromRedisValue>(&self, step: &ScriptInvocation<'_>) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        match step.invoke_async(&mut connection).await {
            Err(e) if e.is_connection_dropped() || e.is_io_error() => {
                step.invoke_async(&mut connection).await.map_err(failed)
            }
            done => done.map_err(failed),
        }
    }

    fn call_key(&self, round: &Round) -> String {
        format!("{}call:{}", self.prefix, round.call)
    }

    fn generation_key(&self) -> String {
        format!("{}generation", self.prefix)
    }

    /// Reads Redis's persistence and eviction settings once, and warns where a restart would
    /// lose every record, or where Redis may evict a call's entry.
    async fn check_settings(&self) {
        if self.checked.load(Ordering::Relaxed) {
            return;
        }
        let mut connection = self.connection.clone();
        let read: Result<Vec<String>, _> = ::redis::cmd("CONFIG")
            .arg("GET")
            .arg("appendonly")
            .arg("maxmemory-policy")
            .query_async(&mut connection)
            .await;
        let mut warnings = Vec::new();
        match read {
            Ok(pairs) => {
                let setting = |name: &str| {
                    pairs
                        .chunks(2)
                        .find(|pair| pair[0] == name)
                        .and_then(|pair| pair.get(1))
                        .cloned()
                };
                if setting("appendonly").as_deref() != Some("yes") {
                    warnings.push(
                        "Redis keeps no append-only file (appendonly no): a restart loses the \
                         record of every round, so a retry of a finished round is asked again, \
                         or, where Redis comes back from a snapshot, may run again; run Redis \
                         with `appendonly yes`"
                            .to_owned(),
                    );
                }
                match setting("maxmemory-policy").as_deref() {
                    Some("noeviction") => {}
                    policy => warnings.push(format!(
                        "Redis may evict keys (maxmemory-policy {}): a call whose entry it \
                         evicts is asked again from its first question; run Redis with \
                         `maxmemory-policy noeviction`, so that a full Redis refuses new calls \
                         instead",
                        policy.unwrap_or("unknown")
                    )),
                }
            }
            // Unreachable: read again on the next use.
            Err(e) if e.is_io_error() || e.is_timeout() || e.is_connection_dropped() => return,
            Err(e) => warnings.push(format!(
                "Redis's settings could not be read ({e}): make sure it keeps an append-only \
                 file (`appendonly yes`) and evicts nothing (`maxmemory-policy noeviction`)"
            )),
        }
        if !self.checked.swap(true, Ordering::Relaxed) {
            for warning in warnings {
                crate::ask::trace::warn(&warning);
            }
        }
    }
}

/// A new generation, for a Redis that has none.
fn fresh_generation() -> Result<String, StoreError> {
    let mut fresh = [0u8; 16];
    getrandom::fill(&mut fresh).map_err(|e| StoreError(e.to_string()))?;
    Ok(crate::ask::state::digest(&fresh))
}

fn failed(e: ::redis::RedisError) -> StoreError {
    StoreError(e.to_string())
}

impl RoundStore for RedisStore {
    fn generation(&self) -> PortFuture<'_, Result<String, StoreError>> {
        Box::pin(async move {
            self.check_settings().await;
            let mut generation = self.scripts.generation.key(self.generation_key());
            generation.arg(fresh_generation()?);
            self.run(&generation).await
        })
    }

    fn begin<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<String, StoreError>> {
        Box::pin(async move {
            self.check_settings().await;
            let mut begin = self.scripts.begin.key(self.generation_key());
            begin
                .key(self.call_key(round))
                .arg(fresh_generation()?)
                .arg(round.number)
                .arg(epoch_ms(round.expires))
                .arg(millis(StateKey::MAX_CLOCK_SKEW));
            self.run(&begin).await
        })
    }

    fn claim<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<Claim, StoreError>> {
        Box::pin(async move {
            self.check_settings().await;
            let mut claim = self.scripts.claim.key(self.generation_key());
            claim
                .key(self.call_key(round))
                .arg(&round.generation)
                .arg(round.number)
                .arg(&round.answers)
                .arg(&round.claimant)
                .arg(millis(lease).max(1))
                .arg(epoch_ms(round.expires))
                .arg(millis(StateKey::MAX_CLOCK_SKEW));
            let found: Vec<String> = self.run(&claim).await?;
            match found.as_slice() {
                [first] if first == "first" => Ok(Claim::First),
                [taken] if taken == "taken_over" => Ok(Claim::TakenOver),
                [running] if running == "running" => Ok(Claim::Running),
                [used] if used == "used" => Ok(Claim::Used),
                [forgotten] if forgotten == "forgotten" => Ok(Claim::Forgotten),
                [recorded, ending] if recorded == "recorded" => Ok(Claim::Recorded(ending.clone())),
                other => Err(StoreError(format!("a claim came back as {other:?}"))),
            }
        })
    }

    fn renew<'a>(
        &'a self,
        round: &'a Round,
        lease: Duration,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut renew = self.scripts.renew.key(self.call_key(round));
            renew
                .arg(round.number)
                .arg(&round.claimant)
                .arg(millis(lease).max(1));
            Ok(self.run::<i64>(&renew).await? == 1)
        })
    }

    fn record<'a>(
        &'a self,
        round: &'a Round,
        ending: &'a str,
    ) -> PortFuture<'a, Result<bool, StoreError>> {
        Box::pin(async move {
            let mut record = self.scripts.record.key(self.call_key(round));
            record.arg(round.number).arg(&round.claimant).arg(ending);
            Ok(self.run::<i64>(&record).await? == 1)
        })
    }

    fn release<'a>(&'a self, round: &'a Round) -> PortFuture<'a, Result<(), StoreError>> {
        Box::pin(async move {
            let mut release = self.scripts.release.key(self.call_key(round));
            release.arg(round.number).arg(&round.claimant);
            self.run::<i64>(&release).await.map(drop)
        })
    }
}
