//! The ask engine (feature `ask`): a tool's typed questions to the user in straight-line code
//! that works on every protocol version, with no SDK in it.
//!
//! [`Ask`] owns everything but the wire: the questions (forms, derived or built at run time,
//! confirmations, URL mode, and with feature `sampling` completions and roots), the retry
//! policy, the 2026-07-28 rounds and the 2025-era live requests, the
//! sealed `requestState` ([`StateKey`]), exactly-once rounds ([`RoundStore`]), the fallback to
//! the tool's arguments, keep-alive, where each answer came from, and traces. An SDK adapter gives it the facts of one call
//! ([`Call`]) and a [`Port`] that sends a live request and progress; the adapter for rmcp is
//! [`elicit_core::rmcp`](crate::rmcp) (feature `rmcp`), which also makes `Ask` an argument
//! of `#[tool]` functions. A tool's body is the same text whatever the adapter.
//!
//! ```
//! use elicit_core::ElicitResult;
//! use elicit_core::ask::{Ask, Asked, Interrupt};
//!
//! /// Where would you like to go?
//! #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, elicit_core::Elicit)]
//! struct Trip {
//!     city: String,
//!     nights: u8,
//! }
//!
//! async fn plan_trip(ask: &Ask) -> Asked<String> {
//!     ask.run(async {
//!         Ok(match ask.form::<Trip>("trip").await? {
//!             ElicitResult::Accept(trip) => format!("{} nights in {}", trip.nights, trip.city),
//!             _ => "no trip".to_owned(),
//!         })
//!     })
//!     .await
//! }
//! # let _ = plan_trip;
//! ```
//!
//! # One question's path
//!
//! An await of a question runs one machine, whatever the version: the rules of the question
//! (what it is, the replies it has had read through its retry policy, whether the client can
//! show it or the arguments answer it, whether the SDK carries it, its deadline) decide what
//! to do next, with no I/O; a short driver does what they say. The live path and the rounds
//! path part at one place only: `Send` or `Pend`.
//!
//! ```text
//!   ask.form::<T>("key").await
//!        │  which await of the key; a decline before answers it at once
//!        ▼
//!   replies of earlier rounds (sealed in requestState, or kept by the store) ──┐
//!                                                                            ▼
//!        ┌────────────────────────────────────────────────────────────► the rules ──► Final ──► Ok(answer)
//!        │                                                                   │
//!        │  reply, or a cancel that timed out          Send(request) ◄───────┤ live (2025-06-18, 2025-11-25):
//!        └──────────────────────────────────────────── the driver sends it, │ keep-alive, the deadline's timer
//!                                                                            │
//!                     Pend(request) ◄────────────────────────────────────────┤ rounds (2026-07-28): the body
//!                     ─► this round's inputRequests; Err(InputRequired)      │ stops, `run` seals the round,
//!                                                                            │ the retry brings the reply
//!                     Stop(interrupt) ◄──────────────────────────────────────┘ a missing capability, a form the
//!                                                                              SDK cannot carry, what no person
//!                                                                              can answer
//! ```
//!
//! Around the body, [`Ask::run`] opens the state (and claims the round in the key's
//! [`RoundStore`]) before the body runs, and after it seals the questions the body waits for
//! into the round's result, or records the result. Every decision of the call's, from opening
//! its state to its record, is one machine's with no I/O, which `Ask` holds under its lock and
//! only drives; each question's own rules are the step above.

mod asked;
mod key;
mod port;
mod question;
mod round;
mod seal;
mod state;
mod store;
mod trace;

use std::collections::BTreeMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::Poll;
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use asked::{Asked, Ending, Interrupt, IntoInterrupt};
pub use key::{StateKey, StateKeyError};
pub use port::{Call, Method, Port, PortFuture, SendError};
pub use question::confirm::{ConfirmQuestion, Confirmation, Unconfirmed};
pub use question::retry::{AnswerSource, Attempt, AttemptOutcome, RetryPolicy};
#[cfg(feature = "sampling")]
#[cfg_attr(docsrs, doc(cfg(feature = "sampling")))]
pub use question::sample::ClientQuestion;
pub use question::unavailable::{Unavailable, input_schema};
pub use question::{FormQuestion, Question, Questions, UrlQuestion};
pub use state::{Change, StateError};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use store::RedisStore;
pub use store::{Claim, MemoryStore, Round, RoundStore, StoreError};

pub(crate) use state::digest;

use crate::protocol::client::{Capability, ClientCapabilities};

use round::Claimed;
use round::call::{CallMachine, Opening, Restart};
use state::{Binding, Carried};

use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::jsonrpc::RpcError;
use crate::version::ProtocolVersion;

/// A tool's questions to the user, answered typed and validated, in straight-line code that
/// works on every protocol version.
///
/// - **2025-06-18 and 2025-11-25**: each question is a live `elicitation/create`, sent when it
///   is awaited, with the schema written for the negotiated version and the client's
///   capabilities checked first.
/// - **2026-07-28**: a server cannot send requests mid-call. A question whose answer is known
///   (from this round's `inputResponses`, or from an earlier round, carried in the sealed
///   `requestState`) resolves at once. The first unanswered one stops the body through `?`, and
///   [`run`](Ask::run) turns the stop into an `InputRequiredResult` that asks for it. The
///   client retries the call with the answer and the state, and the body runs again from the
///   top. An answer counts only through the state that asked for it: `inputResponses`
///   without a state, or for a question the state did not ask, are no answers, and a call
///   that carries them is asked as a first call is. Before 2026-07-28 neither is part of the
///   protocol, and both are ignored.
/// - **Before 2025-06-18** (2024-11-05, 2025-03-26): the client cannot show forms; questions
///   that opt into [`or_arguments`](FormQuestion::or_arguments) take their answers from the
///   arguments, as with any client without forms.
///
/// **So on 2026-07-28, code before the last question runs once per round.** Keep side effects
/// (a booking, a payment, a message sent) after the questions, or make them safe to repeat.
/// What a question shows must be the same in every round: compute a live value (a price, a
/// list of rooms fetched from elsewhere) with [`once`](Ask::once), which carries it in the
/// sealed state. Choices are compared as a set, and fields by name, so their order may change.
///
/// Each question has a key, yours to choose, that names it across rounds: keep keys stable,
/// and give each question its own. **Every await is its own question**, on every version:
///
/// - awaiting a key again asks the person again (after a cancel, say: `if let
///   ElicitResult::Cancel = answer { answer = ask.form::<T>("name").await? }` shows the form
///   once more), and the `n`-th await of a key is the `n`-th in every round;
/// - except after a decline, which is a hard stop: awaiting the key again returns the decline
///   and asks nothing;
/// - the awaits of one key may ask different questions (a re-ask with its own message, say),
///   but one [`all`](Ask::all) asks each key once, and a key given twice stops the call with
///   [`Interrupt::KeyReused`].
///
/// A question that changed since it was answered (a deploy between two rounds, say) is asked
/// again once, saying so; if it changes again, the call stops with [`Interrupt::Changed`].
pub struct Ask {
    port: Box<dyn Port>,
    /// The version the request named, as questions are served on it.
    version: Served,
    /// What the client declared it can do for the server.
    capabilities: ClientCapabilities,
    /// The key the adapter or the tool set; the installed one is made only where none is.
    key: Option<StateKey>,
    /// The request and its name, and the adapter's caller, which the state is bound to with
    /// the arguments.
    method: Method,
    name: String,
    principal: Option<String>,
    origin: Option<String>,
    responses: Map<String, Value>,
    request_state: Option<String>,
    pub(crate) max_rounds: u32,
    /// The retry policy of every question that sets none.
    pub(crate) retry: RetryPolicy,
    /// The call's arguments, where questions that opt in find their answers.
    arguments: Map<String, Value>,
    /// Whether the tool declares an `outputSchema` (then no `structuredContent` of this crate's).
    output_schema: bool,
    /// How often a waiting live request sends progress.
    pub(crate) keep_alive: Duration,
    /// How long a live request waits for the person.
    pub(crate) deadline: Duration,
    /// The call's machine, shared with the keeper of a round it claimed.
    call: Arc<Mutex<CallMachine>>,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("version", &self.version)
            .field("capabilities", &self.capabilities)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl Ask {
    /// How many rounds a call may take by default, as rmcp's and the other SDKs' clients allow.
    pub const DEFAULT_MAX_ROUNDS: u32 = 10;

    /// How often a live request that waits for the person sends progress by default.
    pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

    /// How long a question waits for the person by default: then it ends as a cancel that
    /// timed out, live or in a round (see [`Ask::with_deadline`]).
    pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(10 * 60);

    /// The shortest keep-alive interval: a shorter one is raised to it, so that a zero cannot
    /// flood the client with progress.
    pub const MIN_KEEP_ALIVE: Duration = Duration::from_secs(1);

    /// The largest reply `Ask` reads to any question, on every version, as JSON text in
    /// bytes, once cut to what its question reads (an elicitation's `action`, and an accept's
    /// `content`; a completion's or roots' result fields): each is carried in the sealed
    /// state of every later round. A larger one reads as content refused with
    /// [`Rule::ReplyTooLarge`](crate::Rule::ReplyTooLarge).
    pub const MAX_CARRIED_REPLY: usize = 64 * 1024;

    /// The questions of `call`, asked through `port`, sealed with the
    /// [installed](StateKey::installed) key (see [`with_key`](Ask::with_key)). An adapter
    /// builds one per call.
    #[must_use]
    pub fn with_port(call: Call, port: impl Port + 'static) -> Self {
        let version = Served::of(call.protocol_version.as_deref());
        let mut capabilities = call.capabilities;
        // A version before elicitation has none, whatever the client says.
        if !matches!(version, Served::Known(_)) {
            capabilities.elicitation = None;
        }
        // Answers travel with a state from 2026-07-28 on; before, neither is part of the
        // protocol, and a call that carries them asks its questions live.
        let rounds = version.written_for().is_ok_and(|v| v.has_input_requests());
        let (responses, request_state) = match rounds {
            true => (call.input_responses, call.request_state),
            false => (None, None),
        };
        Ask {
            port: Box::new(port),
            version,
            capabilities,
            key: None,
            method: call.method,
            name: call.name,
            principal: call.principal,
            origin: call.origin,
            responses: responses.unwrap_or_default(),
            request_state,
            max_rounds: Self::DEFAULT_MAX_ROUNDS,
            retry: RetryPolicy::NONE,
            arguments: call.arguments.unwrap_or_default(),
            output_schema: call.output_schema,
            keep_alive: Self::DEFAULT_KEEP_ALIVE,
            deadline: Self::DEFAULT_DEADLINE,
            call: Arc::default(),
        }
    }

    /// Seals and opens the call's state with `key` instead of the installed one: a key with a
    /// time to live, a caller, a store or a secret of its own. Set it before the body runs.
    ///
    /// **Make the key once**, at start-up (outside a streamable HTTP service's factory
    /// closure, too), and pass clones of it: every call of a tool must claim its rounds in the
    /// same store. Keys without a store of their own share the process's, so even a key made
    /// per call keeps exactly-once in one process; a key made from a secret needs a shared
    /// store ([`StateKey::with_store`]) across processes.
    ///
    /// The sealed state is bound to the tool, its arguments and the caller: the principal the
    /// key names from the SDK's request context, where the key names one
    /// ([`StateKey::with_principal`]), or else the adapter's own ([`Call::principal`]). A key
    /// whose principal function cannot read this SDK's context stops the call before the body
    /// runs, as a fault of the server's.
    #[must_use]
    pub fn with_key(mut self, key: StateKey) -> Self {
        self.key = Some(key);
        self
    }

    /// The call's key: its own, or the installed one.
    fn key(&self) -> &StateKey {
        self.key.as_ref().unwrap_or_else(|| StateKey::installed())
    }

    /// What the call's state is bound to (the tool, its arguments and the caller), and who the
    /// caller is for the store's room: a digest of its principal, or of where the call came
    /// from ([`Call::origin`]), empty for nobody in particular.
    fn binding(&self) -> Result<(Binding, String), StateError> {
        let key = self.key();
        let principal = match key.names_principals() {
            true => key.principal_of(self.port.context())?,
            false => self.principal.clone(),
        };
        let binding = Binding::of(
            &format!("{}\0{}", self.method.as_str(), self.name),
            Some(&self.arguments),
            principal.as_deref(),
        );
        // The store tells callers apart by the principal, or else by where the call came
        // from, which nothing is bound to.
        let room = match (principal, &self.origin) {
            (Some(p), _) => digest(p.as_bytes()),
            (None, Some(origin)) => digest(format!("origin\0{origin}").as_bytes()),
            (None, None) => String::new(),
        };
        Ok((binding, room))
    }

    /// Caps the rounds of one call ([`DEFAULT_MAX_ROUNDS`](Self::DEFAULT_MAX_ROUNDS) by default): past it, the call fails
    /// with [`Interrupt::TooManyRounds`] rather than ask again. On 2026-07-28 a round is one
    /// `InputRequiredResult`; before, each live request is one, but the questions of one
    /// [`all`](Ask::all) share one, so a tool meets the cap at the same point on every version.
    #[must_use]
    pub fn with_max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// Retries every question of the call as `policy` allows, unless the question sets its
    /// own with `retrying`. Without it a question is asked once: a cancel is final, and content
    /// that breaks the form's rules ends the call with [`Interrupt::Invalid`].
    #[must_use]
    pub fn with_retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// While a live request (before 2026-07-28) waits for the person, sends
    /// `notifications/progress` every `interval` ([`DEFAULT_KEEP_ALIVE`](Self::DEFAULT_KEEP_ALIVE) by default, and never
    /// less than [`MIN_KEEP_ALIVE`](Self::MIN_KEEP_ALIVE)), when the call carried a `progressToken`. A client that
    /// resets its timeout on progress (the TypeScript client with `resetTimeoutOnProgress`)
    /// then keeps the call open while the person types. A question's own `keep_alive`
    /// overrides it.
    #[must_use]
    pub fn with_keep_alive(mut self, interval: Duration) -> Self {
        self.keep_alive = interval.max(Self::MIN_KEEP_ALIVE);
        self
    }

    /// How long each question waits for the person ([`DEFAULT_DEADLINE`](Self::DEFAULT_DEADLINE), ten minutes, by
    /// default). When it passes, the question ends as a cancel whose [`Attempt`] says it
    /// [timed out](crate::ask::AnswerSource::TimedOut), and the cancel is not asked again: a
    /// client that dropped the request (some drop `elicitation/create` without a word) would
    /// drop the retry too. A question's own `deadline` overrides it. It means the same on every
    /// version:
    ///
    /// - **Live** (before 2026-07-28), the request is given up at the deadline, and keep-alive
    ///   stops.
    /// - **In rounds** (2026-07-28), the server holds nothing while the person answers: the
    ///   wait is measured from the round's result, whose time the sealed state carries, to the
    ///   retry that brings the answer. An answer that comes later is read as the timed-out
    ///   cancel.
    /// - **The state** ([`StateKey::with_ttl`], [`StateKey::DEFAULT_TTL`], an hour by default) bounds how
    ///   long a retry may come at all: past it, the state is refused and the call must start
    ///   again. Keep it longer than the longest deadline, so that a late answer reads as a
    ///   timed-out cancel rather than a refused call.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Says whether the tool declares an `outputSchema`. A tool that does gets no
    /// `structuredContent` from this crate (an [`Unavailable`] result carries its facts in its
    /// text only). An adapter's extractor reads it from the tool; built by hand, `Ask`
    /// assumes what [`Call::output_schema`] says.
    #[must_use]
    pub fn with_output_schema(mut self, declared: bool) -> Self {
        self.output_schema = declared;
        self
    }

    /// The request's protocol version, if it is one with elicitation.
    #[must_use]
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        match self.version {
            Served::Known(version) => Some(version),
            Served::Before | Served::Unknown(_) => None,
        }
    }

    /// Whether questions travel in rounds (2026-07-28 and later) rather than as live requests.
    #[must_use]
    pub fn asks_in_rounds(&self) -> bool {
        self.protocol_version()
            .is_some_and(|version| version.has_input_requests())
    }

    /// Whether the client can take a question that needs `capability` (`Capability::Form` for
    /// a form): it declared it, on a version with elicitation. A body can choose another way
    /// before it asks; a question it cannot take ends as [`Interrupt::MissingCapability`] on
    /// every version, or is answered from the arguments where it opted in.
    #[must_use]
    pub fn supports(&self, capability: Capability) -> bool {
        !matches!(self.version, Served::Unknown(_)) && self.capabilities.supports(capability)
    }

    /// Every attempt at the question under `key` so far: with a retry policy, one per time it
    /// was asked. Empty for a key not asked yet.
    #[must_use]
    pub fn attempts(&self, key: &str) -> Vec<Attempt> {
        self.lock().attempts(key).to_vec()
    }

    /// The value `value` computes, computed once per call: on 2026-07-28 it is carried in the
    /// sealed state, so the body sees the same value in every round (a live price shown in a
    /// confirmation, run-time choices fetched from elsewhere). Before 2026-07-28 the body runs
    /// once, and so does `value`.
    ///
    /// ```
    /// # use elicit_core::ask::{Ask, Interrupt};
    /// # async fn fetch_price() -> u32 { 120 }
    /// # async fn body(ask: &Ask) -> Result<bool, Interrupt> {
    /// let price = ask.once("price", fetch_price()).await?;
    /// let pay = ask.confirm("pay", format!("Pay {price} EUR?")).await?;
    /// # Ok(pay.is_confirmed())
    /// # }
    /// ```
    ///
    /// The value is serde-encoded into the state, which is encrypted; a value that no longer
    /// decodes as `T` (a deploy between two rounds changed `T`) is computed again.
    ///
    /// # Errors
    ///
    /// [`Interrupt::State`] where the call's state was refused, and [`Interrupt::Error`] for a
    /// value serde cannot encode.
    pub async fn once<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        value: impl Future<Output = T>,
    ) -> Result<T, Interrupt> {
        let carried = self.carried(|carried| Ok(carried.memo.get(key).cloned()))?;
        if let Some(known) = carried.and_then(|v| serde_json::from_value(v).ok()) {
            return Ok(known);
        }
        let value = value.await;
        let encoded = serde_json::to_value(&value).map_err(|e| {
            Interrupt::Error(RpcError::internal(format!(
                "the value of `once({key:?})` cannot be carried: {e}"
            )))
        })?;
        self.carried(|carried| {
            carried.memo.insert(key.to_owned(), encoded);
            Ok(())
        })?;
        Ok(value)
    }

    /// Runs a tool's body and turns how it ended into the tool's result: its own result, a
    /// request for the answers it is waiting for (2026-07-28), or the interrupt that stopped it.
    ///
    /// A `requestState` that does not verify stops the call before the body runs; one that no
    /// key of the server's opens, or that expired, starts the call over, as a first call whose
    /// questions say so. A retry's round is claimed in the key's [`RoundStore`] first, and
    /// held while the body runs; once the body began, its ending is recorded, whatever it is,
    /// so that the same retry sent again gets it and runs nothing. A body that panics ends
    /// the call with an internal error, recorded as any other. A question left unanswered is
    /// asked even where the body went on without its answer.
    pub async fn run<R>(&self, body: impl Future<Output = Result<R, Interrupt>>) -> Asked<R>
    where
        R: Serialize + DeserializeOwned,
    {
        // Only the body's own polls are made for each body: the claim, the end of the round
        // and its record are made once for each result type, or once.
        let held = match self.begin().await {
            Begun::Run(held) => held,
            Begun::Ran(recorded) => return round::replayed(recorded),
            Begun::Stopped(stop) => return Asked::Stopped(stop),
        };
        let fence = held.as_ref().map(|(held, _)| held.fenced());
        let ran = caught(fence, body).await;
        self.finish(ran, held).await
    }

    /// Everything after the body: the end of its run (`ran`, or the fence's stop), and the
    /// record of the round the call holds.
    async fn finish<R: Serialize>(
        &self,
        ran: Result<Result<R, Interrupt>, Interrupt>,
        held: Option<(round::Held, round::Unsettled)>,
    ) -> Asked<R> {
        let asked = match ran {
            Ok(result) => {
                let waits = matches!(result, Ok(_) | Err(Interrupt::InputRequired));
                match (self.end_run(waits).await, result) {
                    (Some(Ok(required)), _) => Asked::InputRequired(required),
                    (Some(Err(stop)), _) | (None, Err(stop)) => Asked::Stopped(stop),
                    (None, Ok(result)) => Asked::Done(result),
                }
            }
            Err(stop) => Asked::Stopped(stop),
        };
        if let Some((held, unsettled)) = held {
            held.settle(round::record_of(&asked)).await;
            unsettled.settled();
        }
        asked
    }

    /// Everything before the body: the state opened, the round claimed (or its recorded ending
    /// found, or the call started over), and the keeper started on a round the call holds.
    fn begin(&self) -> Boxed<'_, Begun> {
        Box::pin(self.begun())
    }

    async fn begun(&self) -> Begun {
        if let Err(refused) = self.carried(|_| Ok(())) {
            return Begun::Stopped(refused);
        }
        let held = match self.claim().await {
            Ok(Claimed::Unclaimed) => None,
            Ok(Claimed::Ours(held)) => Some(held),
            Ok(Claimed::Ran(recorded)) => return Begun::Ran(recorded),
            Ok(Claimed::Forgotten) => match self.start_over().await {
                Ok(()) => None,
                Err(stop) => return Begun::Stopped(stop),
            },
            Err(stop) => return Begun::Stopped(stop),
        };
        let held = match held {
            Some(held) => {
                held.keep().await;
                let unsettled = held.guard();
                Some((held, unsettled))
            }
            None => None,
        };
        self.lock().begin_run();
        Begun::Run(held)
    }

    /// Whether this run of the round is a take-over: an earlier run of the same retry held the
    /// round, and its claim lapsed (its process died, or it was cut off from the store and its
    /// body was stopped) before it recorded an ending. That run may have done some or all of
    /// what the body does: an effect outside the server keyed by [`call_id`](Ask::call_id)
    /// happens once either way; one that is not keyed can check here first. Each take-over is
    /// traced. `false` outside a claimed round.
    #[must_use]
    pub fn taken_over(&self) -> bool {
        self.lock().taken_over()
    }

    /// Ends the body's run: where it `waits` for answers (it returned, or stopped for them),
    /// the round that asks for the questions it is waiting for, if there are any.
    fn end_run(&self, waits: bool) -> Boxed<'_, Option<Result<InputRequired, Interrupt>>> {
        Box::pin(async move {
            let (pending, at) = self.lock().end_run();
            if !waits || pending.is_empty() {
                return None;
            }
            Some(self.end_round(pending, at).await)
        })
    }

    /// Seals what the call knows and asks for `pending`, each the await of its key `at` says.
    async fn end_round(
        &self,
        pending: InputRequests,
        at: BTreeMap<String, usize>,
    ) -> Result<InputRequired, Interrupt> {
        let (binding, room) = self.binding().map_err(Interrupt::State)?;
        // The call's first round (or the first after it started over) makes its entry in the
        // store. Its state is issued under the store's generation: a store that loses its
        // records changes it, and the next round is then asked again rather than run blindly.
        let expires = self.key().now() + self.key().ttl();
        let first = self.lock().first_round(room, expires);
        if let Some(round) = first {
            let generation = self.key().store().begin(&round).await.map_err(|e| {
                trace::store_failed(&e);
                Interrupt::State(StateError::Unkept(e.0))
            })?;
            self.lock().began(generation);
        }
        let mut call = self.lock();
        let carried = call.next_round(at, self.max_rounds)?;
        let sealed = self
            .key()
            .seal(carried, &binding)
            .map_err(Interrupt::State)?;
        Ok(InputRequired::new(pending).with_request_state(sealed))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, CallMachine> {
        round::lock(&self.call)
    }

    /// Runs `f` on the call's carried state, opening it first if this is the first use.
    pub(crate) fn carried<R>(
        &self,
        f: impl FnOnce(&mut Carried) -> Result<R, Interrupt>,
    ) -> Result<R, Interrupt> {
        let mut call = self.lock();
        if call.carried.is_none() {
            self.open(&mut call);
        }
        match call.carried.as_mut() {
            Some(Ok(carried)) => f(carried),
            Some(Err(e)) => Err(Interrupt::State(e.clone())),
            None => Err(Interrupt::InputRequired),
        }
    }

    /// Opens the state the client echoed into the call's machine, which decides what it comes
    /// to (see [`CallMachine::opened`]).
    fn open(&self, call: &mut CallMachine) {
        // Who the caller is, before anything: a key that cannot tell stops every call.
        let (binding, room) = match self.binding() {
            Ok(bound) => bound,
            Err(refused) => return call.refused(refused),
        };
        let opened = (self.request_state.as_ref()).map(|sealed| self.key().open(sealed, &binding));
        let opening = Opening {
            now_ms: self.key().now_ms(),
            ttl: self.key().ttl(),
            responses: &self.responses,
            room,
            binding,
        };
        if let Some(why) = call.opened(opened, opening) {
            trace::started_over(Restart::Unopened, &why);
        }
    }

    /// The store had no record of the call's round: the call runs as a first call whose
    /// questions say why, or stops where its servers do not share one store, or where it
    /// started over [`MAX_RESTARTS`](Self::MAX_RESTARTS) times already.
    async fn start_over(&self) -> Result<(), Interrupt> {
        let now = self.key().store().generation().await.map_err(|e| {
            trace::store_failed(&e);
            Interrupt::State(StateError::Store(e.0))
        })?;
        let lost = self.lock().forgotten(&now, Self::MAX_RESTARTS);
        let lost = lost.map_err(|stop| {
            trace::state_failed(&stop);
            Interrupt::State(stop)
        })?;
        trace::started_over(Restart::Forgotten, lost.words());
        Ok(())
    }

    /// How many times one call may start over for want of its store's record of its round:
    /// then it stops, saying so.
    pub const MAX_RESTARTS: u32 = 3;

    /// The round of this retry, for its claim, with a claimant of its own, and what its
    /// recorded ending is bound to; `None` for a call without a state.
    fn round(&self) -> Option<(Round, Vec<u8>)> {
        let mut claimant = [0u8; 16];
        // Without random bytes, the claim is told apart by the time it was made.
        if getrandom::fill(&mut claimant).is_err() {
            claimant[..8].copy_from_slice(&state::now_ms().to_be_bytes());
        }
        self.lock().claim(&claimant)
    }

    /// The call's id: random, drawn on its first call, and the same in every round of it, on
    /// every process, in every replay of a round; carried in the sealed state and never drawn
    /// again. Pass it as the idempotency key of an effect outside the server (a payment API's
    /// `Idempotency-Key`, say): the store runs each round once, but a process killed mid-body
    /// leaves its round to be taken over, and the effect it may have made is then the other
    /// system's to recognise.
    ///
    /// ```
    /// # use elicit_core::prelude::*;
    /// # async fn charge(amount: u32, idempotency_key: &str) {}
    /// # async fn body(ask: &Ask) -> Result<String, Interrupt> {
    /// if ask.confirm("pay", "Pay 120 EUR?").await?.is_confirmed() {
    ///     charge(120, &ask.call_id()?).await;
    /// }
    /// # Ok(String::new())
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Interrupt::State`] where the call's state was refused, which [`run`](Ask::run) says
    /// before the body runs.
    pub fn call_id(&self) -> Result<String, Interrupt> {
        self.carried(|carried| Ok(carried.call.clone()))
    }

    pub(crate) fn version(&self) -> Result<ProtocolVersion, Interrupt> {
        self.version.written_for().map_err(Interrupt::Version)
    }

    /// The value under `key` in the call's arguments.
    pub(crate) fn argument(&self, key: &str) -> Option<&Value> {
        self.arguments.get(key).filter(|v| !v.is_null())
    }

    /// Whether results may carry this crate's `structuredContent`.
    pub(crate) fn structured(&self) -> bool {
        !self.output_schema
    }

    /// Whether this round's `inputResponses` answered the `index`-th await of `key`.
    pub(crate) fn answered_now(&self, key: &str, index: usize) -> bool {
        self.lock().answered_now(key, index)
    }
}

/// The protocol version a request named, as its questions are served.
#[derive(Debug)]
enum Served {
    /// A version with elicitation.
    Known(ProtocolVersion),
    /// One before elicitation (2024-11-05, 2025-03-26): served as a client on 2025-06-18 that
    /// declared no elicitation, so the fallback's words are written for that version.
    Before,
    /// None, or one this crate does not know.
    Unknown(Option<String>),
}

impl Served {
    fn of(text: Option<&str>) -> Served {
        match text {
            None => Served::Unknown(None),
            Some(text) if crate::version::predates_elicitation(text) => Served::Before,
            Some(text) => text
                .parse()
                .map_or_else(|_| Served::Unknown(Some(text.to_owned())), Served::Known),
        }
    }

    /// The version questions are written for, or the unknown version the request named.
    fn written_for(&self) -> Result<ProtocolVersion, Option<String>> {
        match self {
            Served::Known(version) => Ok(*version),
            Served::Before => Ok(ProtocolVersion::V2025_06_18),
            Served::Unknown(text) => Err(text.clone()),
        }
    }
}

/// A step of a call, boxed: made once, whatever body or result type the call has.
type Boxed<'a, T> = std::pin::Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What the call comes to before its body runs.
enum Begun {
    /// The body runs, in the round the call holds, where it holds one.
    Run(Option<(round::Held, round::Unsettled)>),
    /// The round ran: its recorded ending, for the call to end with again, or why it cannot
    /// be read.
    Ran(Result<round::Recorded, String>),
    /// The call stops before its body.
    Stopped(Interrupt),
}

/// The output of `body`; or, as the stop it comes to, what it panicked with, or the fence's
/// stop, which is polled first: a body whose claim may lapse stops at its next await, even
/// where it is ready to end. The fence's stop is the outer error: the body's run did not end.
async fn caught<T>(
    fence: Option<Boxed<'_, Interrupt>>,
    body: impl Future<Output = Result<T, Interrupt>>,
) -> Result<Result<T, Interrupt>, Interrupt> {
    let mut body = std::pin::pin!(body);
    let mut fence = fence;
    std::future::poll_fn(move |context| {
        if let Some(Poll::Ready(stop)) = fence.as_mut().map(|f| f.as_mut().poll(context)) {
            return Poll::Ready(Err(stop));
        }
        match std::panic::catch_unwind(AssertUnwindSafe(|| body.as_mut().poll(context))) {
            Ok(Poll::Ready(output)) => Poll::Ready(Ok(output)),
            Ok(Poll::Pending) => Poll::Pending,
            Err(panic) => Poll::Ready(Ok(Err(panicked(&*panic)))),
        }
    })
    .await
}

/// The stop of a body that panicked with `panic`, traced.
fn panicked(panic: &(dyn std::any::Any + Send)) -> Interrupt {
    let text = (panic.downcast_ref::<&str>().map(|text| (*text).to_owned()))
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned());
    trace::panicked(&text);
    Interrupt::Error(RpcError::internal("the tool failed"))
}
