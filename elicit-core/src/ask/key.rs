//! [`StateKey`]: the key that seals a call's `requestState` and its recorded endings, with the
//! settings that go with it (time to live, principal, store, lease, size).

use std::any::Any;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, SystemTime};

use super::seal::{Refused, Sealer, open};
use super::state::{Binding, Carried, StateError, digest};
use super::store::MemoryStore;
use super::store::RoundStore;
use super::trace;

/// Who the caller is, from an SDK's request context: `None` for nobody in particular, and
/// `Err` for a context of another type than the function reads.
type Principal = Arc<dyn Fn(&dyn Any) -> Result<Option<String>, StateError> + Send + Sync>;

/// The key that seals the `requestState` of tools that ask on 2026-07-28.
///
/// 2026-07-28 is stateless: the answers of earlier rounds travel with the client, and come back
/// with each retry. They are encrypted and authenticated with this key, so neither the client
/// nor anything between it and the server can read them, alter them, replay them against
/// another call or another user, or keep them past their time to live.
///
/// **Make it once**, at start-up, and give the same key (or clones of it) to every call: a
/// key holds no state of its own, but the [`RoundStore`] it names must be the one every call
/// shares.
///
/// - A single-process server needs nothing: [`StateKey::installed`] makes a random key the
///   first time it is needed.
/// - Servers that share a key and a store finish each other's calls (round 1 on one process,
///   round 2 on another): give every process the same secret, 32 random bytes (made once, with
///   `head -c 32 /dev/urandom | base64`, say, and kept as any other secret of the server's),
///   and [`install`](StateKey::install) it at start-up, with one shared, durable store
///   ([`with_store`](StateKey::with_store)). The cipher's key is derived from the secret with
///   HKDF-SHA256, so the secret serves every process as it is; its bytes are wiped once read.
/// - **Rotation**: seal with the new secret and still open states of the old one with
///   [`also_opening`](StateKey::also_opening); drop the old one after a time to live.
/// - **Users**: a state sealed for one caller opens for no other. Who the caller is comes from
///   the SDK by default: on rmcp, a digest of the `Authorization` header of the HTTP request
///   (streamable HTTP); on rust-mcp-sdk, the `client_id` and `user_id` of the caller's
///   `AuthInfo`, or its token's id where it names neither. A call without a credential (stdio,
///   or a server without auth) is nobody in particular: its state opens for any caller without
///   one, so there the state is a bearer token for its call. On rmcp the credential itself is
///   the caller, so a renewed token is another caller, whose retry is refused;
///   [`with_principal`](StateKey::with_principal) names the caller instead (an OAuth subject,
///   say), and so survives a renewal.
///
/// ```
/// use elicit_core::ask::StateKey;
///
/// // 32 random bytes, written as text where the server keeps its secrets.
/// let secret = "q6v4cX1bT1kq2p7HcQeP5y0XvU1N3jRf8sS2wZ9aL4E=";
/// # let last_month = "0x9cB3vRk2Jm8sQ1tN5wZ7yH4pL6dF2gA0eX3uV8iK1oM=";
/// let key = StateKey::new(secret)?.also_opening(last_month)?;
/// assert!(StateKey::new("too short").is_err());
/// # let _ = key;
/// # Ok::<(), elicit_core::ask::StateKeyError>(())
/// ```
///
/// **What is single-use, and what is not.**
///
/// - **An answer** counts only in the retry that carries the state of the round that asked for
///   it. A call without a state is a first call, whatever `inputResponses` it carries, so a
///   retry resent without its state asks its questions again: nobody can answer a question the
///   person was not shown.
/// - **A round** runs once. A retry's state and answers claim the round in the key's
///   [`RoundStore`] before the body runs: the same retry sent again, state and answers alike,
///   gets the ending the first recorded and runs nothing, and the same state with other
///   answers is refused as used. Once the body began, its ending is recorded, an error or a
///   panic included; only [`Interrupt::retryable`](super::Interrupt::retryable) releases the
///   round. Keys without a store of their own share one [`MemoryStore`] per process; a fleet
///   shares one store ([`with_store`](StateKey::with_store)).
/// - **The call** is not: the same tool called again with the same arguments is a new call,
///   which asks again. Within one call, [`Ask::call_id`](super::Ask::call_id) is the same in
///   every round, on every process: the idempotency key for an effect outside the server.
#[derive(Clone)]
pub struct StateKey {
    /// The first seals; every one opens.
    keys: Arc<Vec<Sealer>>,
    ttl: Duration,
    principal: Option<Principal>,
    /// The key's own store; `None` for the process's [`MemoryStore`].
    store: Option<Arc<dyn RoundStore>>,
    lease: Duration,
    max_state: usize,
    /// Made from a secret, which is meant to outlive the process or be shared.
    from_secret: bool,
    /// The wall clock states are stamped and checked by; the system's where `None`.
    clock: Option<Clock>,
}

/// A wall clock of the key's own.
type Clock = Arc<dyn Fn() -> SystemTime + Send + Sync>;

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StateKey")
            .field("keys", &self.keys.len())
            .field("ttl", &self.ttl)
            .field("principal", &self.principal.is_some())
            .field("lease", &self.lease)
            .field("max_state", &self.max_state)
            .finish_non_exhaustive()
    }
}

/// A sealing key that cannot be used.
#[non_exhaustive]
pub enum StateKeyError {
    /// The secret is shorter than [`StateKey::MIN_LEN`] bytes: its length.
    Short(usize),
    /// The operating system gave no random bytes for a key.
    Random(String),
}

impl fmt::Display for StateKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateKeyError::Short(len) => write!(
                f,
                "the requestState secret is too short: {len} bytes, where {} or more are needed \
                 (make one with `head -c 32 /dev/urandom | base64`)",
                StateKey::MIN_LEN
            ),
            StateKeyError::Random(e) => write!(f, "no random bytes for a requestState key: {e}"),
        }
    }
}

/// The sentence, as `Display` writes it: what `main` prints when it returns the error.
impl fmt::Debug for StateKeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for StateKeyError {}

static INSTALLED: OnceLock<StateKey> = OnceLock::new();

impl StateKey {
    /// The shortest secret accepted, in bytes.
    pub const MIN_LEN: usize = 32;

    /// How long a sealed state stays valid by default: an hour, six times the default deadline
    /// of a question ([`Ask::DEFAULT_DEADLINE`](super::Ask::DEFAULT_DEADLINE)), so that an
    /// answer that comes after its deadline is read as a cancel that timed out, not refused
    /// with its state. See [`Ask::with_deadline`](super::Ask::with_deadline) for how the waits
    /// fit together.
    pub const DEFAULT_TTL: Duration = Duration::from_secs(60 * 60);

    /// How long a claim holds a round by default, renewed every third of it while the body
    /// runs (every ten seconds): a round whose process died is taken over once it passes, and
    /// a body whose claim was not renewed for two thirds of it is stopped at its next await.
    /// Thirty seconds lets a store stall for twenty (a Redis failing over, say) without
    /// stopping a body.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);

    /// The shortest lease: a shorter one is raised to it.
    pub const MIN_LEASE: Duration = Duration::from_millis(100);

    /// How long a retry waits for the same retry, running elsewhere, to record its ending,
    /// with the default lease: beyond the lease, so that it outlasts the lease of a claimant
    /// that died and takes the round over. Then it ends with an "in progress" error, and the
    /// client may retry it. A longer lease waits a third longer than the lease
    /// ([`claim_wait`](Self::claim_wait)).
    pub const CLAIM_WAIT: Duration = Duration::from_secs(40);

    /// How far the clock of each of a fleet's processes may be from its store's: a store keeps
    /// a call's entry this long past its state's expiry, by its own clock, so that a process
    /// whose clock is behind still finds it while the state opens there. Leases and the fence are
    /// measured on one clock each, and need no such bound.
    pub const MAX_CLOCK_SKEW: Duration = Duration::from_secs(60);

    /// The largest state a key seals by default, as JSON before it is sealed, in bytes:
    /// 256 KiB, which is at most about 342 KiB once sealed and written as base64, well within
    /// the 1 MiB that clients take in one message. Four replies of
    /// [`MAX_CARRIED_REPLY`](super::Ask::MAX_CARRIED_REPLY) fill it.
    pub const DEFAULT_MAX_STATE: usize = 256 * 1024;

    /// A key from a secret of at least [`MIN_LEN`](Self::MIN_LEN) bytes: 32 random bytes, or
    /// text that holds as many (`head -c 32 /dev/urandom | base64`), with the default time to
    /// live ([`DEFAULT_TTL`](Self::DEFAULT_TTL)).
    ///
    /// A secret is meant to outlive the process, or to be shared by several: give the key a
    /// shared, durable store ([`with_store`](Self::with_store)). Kept on the process's memory
    /// store, it warns once (through `tracing` with that feature, else on stderr) that
    /// exactly-once then holds neither across processes nor across a restart.
    pub fn new(secret: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        let mut key = Self::of(sealer(secret.into())?);
        key.from_secret = true;
        Ok(key)
    }

    /// The process's random key: made from random bytes the first time, and the same key
    /// every time after in one process, so that a key made per request (in a streamable HTTP
    /// service's factory, which runs per request on 2026-07-28) still opens the states of the
    /// call's earlier rounds. Another process holds another: a fleet needs
    /// [`new`](Self::new) with a shared secret.
    pub fn random() -> Result<Self, StateKeyError> {
        static RANDOM: OnceLock<Result<Sealer, String>> = OnceLock::new();
        let sealer = RANDOM.get_or_init(|| {
            let mut secret = vec![0u8; 32];
            getrandom::fill(&mut secret).map_err(|e| e.to_string())?;
            sealer(secret).map_err(|e| e.to_string())
        });
        match sealer {
            Ok(sealer) => Ok(Self::of(sealer.clone())),
            Err(e) => Err(StateKeyError::Random(e.clone())),
        }
    }

    fn of(sealer: Sealer) -> Self {
        StateKey {
            keys: Arc::new(vec![sealer]),
            ttl: Self::DEFAULT_TTL,
            principal: None,
            store: None,
            lease: Self::DEFAULT_LEASE,
            max_state: Self::DEFAULT_MAX_STATE,
            from_secret: false,
            clock: None,
        }
    }

    /// Also opens states sealed with `previous`, an earlier secret, for rotation: this key
    /// still seals with its own.
    pub fn also_opening(mut self, previous: impl Into<Vec<u8>>) -> Result<Self, StateKeyError> {
        let previous = sealer(previous.into())?;
        Arc::make_mut(&mut self.keys).push(previous);
        Ok(self)
    }

    /// Names who the caller of a request is, from the SDK's request context `C`, in place of
    /// the SDK's default (see [`StateKey`]): on rmcp `C` is `RequestContext<RoleServer>` (an
    /// OAuth subject from the HTTP request parts it holds in its extensions, say), on
    /// rust-mcp-sdk `Option<AuthInfo>`. A state sealed for one principal opens for no other,
    /// and not for a request without one. The id is bound into the seal's associated data,
    /// never written into the state. An adapter whose context is not a `C` refuses the call
    /// with a fault of the server's.
    #[must_use]
    pub fn with_principal<C: 'static>(
        mut self,
        principal: impl Fn(&C) -> Option<String> + Send + Sync + 'static,
    ) -> Self {
        self.principal = Some(Arc::new(move |context: &dyn Any| {
            context.downcast_ref::<C>().map(&principal).ok_or_else(|| {
                StateError::Unsealed(format!(
                    "the key's principal reads a {}, not this SDK's request context",
                    std::any::type_name::<C>()
                ))
            })
        }));
        self
    }

    /// Whether the key names its callers itself ([`with_principal`](Self::with_principal)).
    #[must_use]
    pub fn names_principals(&self) -> bool {
        self.principal.is_some()
    }

    /// The caller's principal for an SDK's request `context`, if the key names one.
    pub(super) fn principal_of(&self, context: &dyn Any) -> Result<Option<String>, StateError> {
        match &self.principal {
            Some(principal) => principal(context),
            None => Ok(None),
        }
    }

    /// Claims each round of a call in `store` before its body runs, and records its ending
    /// there, so that each round runs once ([`RoundStore`]). Without it, the key shares the
    /// process's [`MemoryStore`]. Give every process of a fleet the same shared, durable store
    /// (the `redis` feature's `RedisStore`), so that a retry runs once on any of them.
    #[must_use]
    pub fn with_store(mut self, store: impl RoundStore) -> Self {
        self.store = Some(Arc::new(store));
        self
    }

    /// How long a claim holds a round ([`DEFAULT_LEASE`](Self::DEFAULT_LEASE), thirty
    /// seconds, by default, and never less than [`MIN_LEASE`](Self::MIN_LEASE)). While the
    /// body runs, the claim is renewed every third of it by a task of its own, however long
    /// the body takes and even while it blocks its thread on a multi-thread runtime; a body
    /// whose claim was not renewed for two thirds of it (a store out of reach) is stopped at
    /// its next await, and a round whose process died is taken over by a retry once the lease
    /// passes. A shorter lease takes a dead process's round over sooner; a longer one rides
    /// out a slower store.
    #[must_use]
    pub fn with_lease(mut self, lease: Duration) -> Self {
        self.lease = lease.max(Self::MIN_LEASE);
        self
    }

    /// The largest state the key seals, as JSON before it is sealed, in bytes
    /// ([`DEFAULT_MAX_STATE`](Self::DEFAULT_MAX_STATE) by default). A round whose state would
    /// be larger stops the call with [`StateError::TooLarge`], which names the limit; a state
    /// sent back larger than it could be is refused unread.
    #[must_use]
    pub fn with_max_state(mut self, bytes: usize) -> Self {
        self.max_state = bytes;
        self
    }

    /// The store of the key: its own, or the process's.
    pub(super) fn store(&self) -> Arc<dyn RoundStore> {
        static PROCESS: OnceLock<Arc<dyn RoundStore>> = OnceLock::new();
        if let Some(store) = &self.store {
            return Arc::clone(store);
        }
        if self.from_secret {
            static WARNED: AtomicBool = AtomicBool::new(false);
            if !WARNED.swap(true, Ordering::Relaxed) {
                trace::warn(
                    "a StateKey made from a secret keeps its rounds in this process's memory, \
                     so exactly-once holds neither across replicas nor across a restart: a \
                     round that reaches another replica, or this one after a restart, has no \
                     record here, and its call is asked again from the first question; give \
                     every replica one shared, durable store with `with_store` (the `redis` \
                     feature's RedisStore)",
                );
            }
        }
        let process = PROCESS.get_or_init(|| Arc::new(MemoryStore::process().clone()));
        Arc::clone(process)
    }

    pub(super) fn lease(&self) -> Duration {
        self.lease
    }

    /// How long a retry waits for the same retry running elsewhere:
    /// [`CLAIM_WAIT`](Self::CLAIM_WAIT), or a third more than the key's lease where that is
    /// longer.
    #[must_use]
    pub fn claim_wait(&self) -> Duration {
        Self::CLAIM_WAIT.max(self.lease + self.lease / 3)
    }

    /// How long a sealed state stays valid after it is sent: the longest a retry may take to
    /// come back. Past it, the call starts again. Keep it longer than the longest deadline of
    /// a question ([`Ask::with_deadline`](super::Ask::with_deadline)), which measures how long
    /// the person had.
    #[must_use]
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The time to live of each sealed state.
    #[must_use]
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Makes this the key of every [`Ask`](super::Ask) built without one of its own, which
    /// includes the one rmcp's `#[tool]` functions extract. Call it at start-up: it fails, giving
    /// the key back, once a key is installed or was already made for a state.
    pub fn install(self) -> Result<(), StateKey> {
        INSTALLED.set(self)
    }

    /// The installed key, or a random one made on first use for the life of the process.
    ///
    /// # Panics
    ///
    /// If the operating system has no source of random bytes and no key was installed.
    pub fn installed() -> &'static StateKey {
        INSTALLED.get_or_init(|| match StateKey::random() {
            Ok(key) => key,
            Err(e) => panic!("elicit: {e}; install a StateKey at start-up"),
        })
    }

    /// Seals `payload` for the call `binding` names.
    pub(crate) fn seal(&self, payload: &Carried, binding: &Binding) -> Result<String, StateError> {
        // A map of strings and JSON values always serializes.
        let bytes = serde_json::to_vec(payload).unwrap_or_default();
        if bytes.len() > self.max_state {
            return Err(StateError::TooLarge {
                size: bytes.len(),
                limit: self.max_state,
            });
        }
        self.seal_bytes(&bytes, binding.as_bytes())
    }

    /// Seals `bytes`, bound to `context`.
    pub(crate) fn seal_bytes(&self, bytes: &[u8], context: &[u8]) -> Result<String, StateError> {
        self.keys[0]
            .seal(bytes, context, self.now_ms())
            .map_err(StateError::Unsealed)
    }

    /// Reads the time from `clock` instead of the system's: the time states are stamped with
    /// when sealed, and checked against when opened. The system's clock by default; a test's
    /// own (a paused or skewed one, for a simulation of a fleet) otherwise. Leases and the
    /// fence never read it: they are measured on tokio's clock.
    #[must_use]
    pub fn with_clock(mut self, clock: impl Fn() -> SystemTime + Send + Sync + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// Now, by the key's clock.
    pub(crate) fn now(&self) -> SystemTime {
        match &self.clock {
            Some(clock) => clock(),
            None => SystemTime::now(),
        }
    }

    /// Now, by the key's clock, in milliseconds since the Unix epoch.
    pub(crate) fn now_ms(&self) -> u64 {
        super::state::epoch_ms(self.now())
    }

    /// Opens what [`seal_bytes`](Self::seal_bytes) sealed for `context`.
    pub(crate) fn open_bytes(&self, sealed: &str, context: &[u8]) -> Result<Vec<u8>, StateError> {
        open(&self.keys, sealed, context)
            .map(|opened| opened.payload)
            .map_err(refusal)
    }

    /// Opens a state sealed for the call `binding` names. Returns it with its issue time
    /// (milliseconds since the Unix epoch), which [`expired`](Self::expired) reads.
    pub(crate) fn open(
        &self,
        sealed: &str,
        binding: &Binding,
    ) -> Result<(Carried, u64), StateError> {
        // Base64 of the largest payload, with the envelope's header, nonce and tag.
        if sealed.len() > self.max_state.saturating_mul(4) / 3 + 128 {
            return Err(StateError::Unreadable(
                "longer than any state this key seals".into(),
            ));
        }
        let opened = open(&self.keys, sealed, binding.as_bytes()).map_err(refusal)?;
        let carried: Carried = serde_json::from_slice(&opened.payload)
            .map_err(|e| StateError::Outdated(e.to_string()))?;
        if carried.v != Carried::VERSION {
            return Err(StateError::Outdated(format!(
                "payload version {} (this build reads {})",
                carried.v,
                Carried::VERSION
            )));
        }
        Ok((carried, opened.issued))
    }
}

fn refusal(refused: Refused) -> StateError {
    match refused {
        Refused::Malformed => StateError::Unreadable("not a sealed requestState".into()),
        Refused::UnknownKey => StateError::UnknownKey,
        Refused::DoesNotOpen => StateError::DoesNotOpen,
    }
}

/// The cipher key of a secret long enough to be one. The secret's bytes are wiped once read.
fn sealer(secret: Vec<u8>) -> Result<Sealer, StateKeyError> {
    let secret = zeroize::Zeroizing::new(secret);
    if secret.len() < StateKey::MIN_LEN {
        return Err(StateKeyError::Short(secret.len()));
    }
    Ok(Sealer::derive(&secret))
}

/// A digest of a call's id, for the store: the id itself is the tool's, to pass to other
/// systems, and never needs to be a store's key.
pub(crate) fn call_digest(call: &str) -> String {
    digest(call.as_bytes())
}

#[cfg(test)]
#[path = "../../unit/ask/key.rs"]
mod tests;
