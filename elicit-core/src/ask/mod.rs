//! The ask engine (feature `ask`): a tool's typed questions to the user in straight-line code
//! that works on every protocol version, with no SDK in it.
//!
//! [`Ask`] owns everything but the wire: the questions (forms, run-time schemas, URL mode,
//! confirmations), the retry policy, the 2026-07-28 rounds and the 2025-era live requests, the
//! sealed `requestState` ([`StateKey`]), the fallback to the tool's arguments, keep-alive,
//! where each answer came from, and traces. An SDK adapter gives it the facts of one call
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

mod answer;
mod asked;
mod port;
// Its settings macros serve the confirmation too.
#[macro_use]
mod question;
mod confirm;
mod seal;
mod state;
mod trace;
mod unavailable;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

pub use asked::{Asked, Ending, Interrupt, Outcome};
pub use confirm::{ConfirmQuestion, Confirmation, Unconfirmed};
pub use port::{Call, Port, PortFuture, Request, SendError};
pub use question::{FormQuestion, Question, Questions, SchemaQuestion, UrlQuestion};
pub use state::Change;
pub use state::{DEFAULT_TTL, MemoryGuard, ReplayGuard, StateError, StateKey, StateKeyError};
pub use unavailable::{Unavailable, input_schema};

pub use crate::protocol::client::{ElicitMode, ElicitationCapability};

use state::{Binding, Carried, Identity};

use crate::protocol::input::{InputRequests, InputRequired};
use crate::protocol::jsonrpc::RpcError;
use crate::retry::{Attempt, RetryPolicy};
use crate::version::ProtocolVersion;

/// How many rounds a call may take by default, as rmcp's and the other SDKs' clients allow.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

/// How often a live request that waits for the person sends progress by default.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// How long a live request waits for the person by default: then the question ends as a
/// cancel that timed out.
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(10 * 60);

/// The shortest keep-alive interval: a shorter one is raised to it, so that a zero cannot
/// flood the client with progress.
pub const MIN_KEEP_ALIVE: Duration = Duration::from_secs(1);

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
///   client retries the call with the answer, and the body runs again from the top.
/// - **Before 2025-06-18** (2024-11-05, 2025-03-26): the client cannot show forms; questions
///   that opt into [`or_arguments`](FormQuestion::or_arguments) take their answers from the
///   arguments, as with any client without forms.
///
/// **So on 2026-07-28, code before the last question runs once per round.** Keep side effects
/// (a booking, a payment, a message sent) after the questions, or make them safe to repeat.
/// What a question shows must be the same in every round: compute a live value (a price, a
/// list of rooms fetched from elsewhere) with [`once`](Ask::once), which carries it in the
/// sealed state. Choices are compared as a set, so their order may change.
///
/// Each question has a key, yours to choose, that names it across rounds: keep keys stable,
/// and give each question its own. A key asked twice as the same question gets the first
/// answer; a key asked as two different questions stops the call with
/// [`Interrupt::KeyReused`], on every version. A question that changed since it was answered
/// (a deploy between two rounds, say) is asked again once, saying so; if it changes again,
/// the call stops with [`Interrupt::Changed`].
pub struct Ask {
    port: Box<dyn Port>,
    /// The version forms are written for, or the unknown version the request named.
    version: Result<ProtocolVersion, Option<String>>,
    /// What the client can show: `None` for no elicitation.
    elicitation: Option<ElicitationCapability>,
    /// The request's version predates elicitation (forms are written for 2025-06-18, for the
    /// fallback's words).
    predates: bool,
    key: StateKey,
    binding: Binding,
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
    inner: Mutex<Inner>,
}

#[derive(Default)]
pub(crate) struct Inner {
    /// The call's carried state, opened on first use.
    carried: Option<Result<Carried, StateError>>,
    /// When the opened state was sealed, in milliseconds since the Unix epoch.
    pub(crate) issued_ms: Option<u64>,
    /// A retry's `inputResponses` that came without a `requestState`: read as answers to the
    /// questions the body asks first.
    pub(crate) unclaimed: Map<String, Value>,
    /// This round's unanswered questions (2026-07-28).
    pub(crate) pending: InputRequests,
    /// Every attempt at each key, as of its last ask.
    pub(crate) attempts: BTreeMap<String, Vec<Attempt>>,
    /// What each key was asked as in this run of the body.
    pub(crate) asked: BTreeMap<String, Identity>,
    /// Rounds of live requests so far (before 2026-07-28), for the round cap.
    pub(crate) live_rounds: u32,
    /// Inside [`Ask::all`]: whether its round was counted yet.
    pub(crate) batch: Option<bool>,
    /// Whether a body is running under [`Ask::run`].
    pub(crate) running: bool,
    /// The last progress value sent: each notification's is higher.
    pub(crate) progress: f64,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("version", &self.version)
            .field("elicitation", &self.elicitation)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl Ask {
    /// The questions of `call`, asked through `port` and sealed with `key`. An adapter builds
    /// one per `tools/call`.
    #[must_use]
    pub fn with_port(call: Call, port: impl Port + 'static, key: StateKey) -> Self {
        let binding = Binding::of(
            &call.tool,
            call.arguments.as_ref(),
            call.principal.as_deref(),
        );
        let text = call.protocol_version.as_deref();
        // A client before elicitation is served as one that declared none.
        let predates = text.is_some_and(crate::version::predates_elicitation);
        let version = match text {
            None => Err(None),
            Some(_) if predates => Ok(ProtocolVersion::V2025_06_18),
            Some(text) => text.parse().map_err(|_| Some(text.to_owned())),
        };
        let elicitation = call.elicitation.filter(|_| version.is_ok() && !predates);
        Ask {
            port: Box::new(port),
            version,
            elicitation,
            predates,
            key,
            binding,
            responses: call.input_responses.unwrap_or_default(),
            request_state: call.request_state,
            max_rounds: DEFAULT_MAX_ROUNDS,
            retry: RetryPolicy::NONE,
            arguments: call.arguments.unwrap_or_default(),
            output_schema: call.output_schema,
            keep_alive: DEFAULT_KEEP_ALIVE,
            deadline: DEFAULT_DEADLINE,
            inner: Mutex::new(Inner::default()),
        }
    }

    /// Caps the rounds of one call ([`DEFAULT_MAX_ROUNDS`] by default): past it, the call fails
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
    /// `notifications/progress` every `interval` ([`DEFAULT_KEEP_ALIVE`] by default, and never
    /// less than [`MIN_KEEP_ALIVE`]), when the call carried a `progressToken`. A client that
    /// resets its timeout on progress (the TypeScript client with `resetTimeoutOnProgress`)
    /// then keeps the call open while the person types. A question's own `keep_alive`
    /// overrides it.
    #[must_use]
    pub fn with_keep_alive(mut self, interval: Duration) -> Self {
        self.keep_alive = interval.max(MIN_KEEP_ALIVE);
        self
    }

    /// How long a live request (before 2026-07-28) waits for the person ([`DEFAULT_DEADLINE`],
    /// ten minutes, by default). When it passes, the question ends as a cancel whose
    /// [`Attempt`] says it [timed out](crate::retry::AnswerSource::TimedOut), keep-alive
    /// stops, and the cancel is not asked again: a client that dropped the request (some
    /// drop `elicitation/create` without a word) would drop the retry too. A question's own
    /// `deadline` overrides it.
    ///
    /// On 2026-07-28 the server holds nothing while the person answers, so no deadline
    /// applies: the sealed state's time to live ([`StateKey::with_ttl`]) bounds the wait.
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
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.version
            .as_ref()
            .ok()
            .copied()
            .filter(|_| !self.predates)
    }

    /// Whether questions travel in rounds (2026-07-28 and later) rather than as live requests.
    pub fn asks_in_rounds(&self) -> bool {
        self.version
            .as_ref()
            .is_ok_and(|version| version.has_input_requests())
    }

    /// Whether the client can show a question of `mode`: it declared the mode, on a version
    /// with elicitation. A body can choose another way before it asks; a question it cannot
    /// show ends as [`Interrupt::MissingCapability`], or is answered from the arguments where
    /// it opted in.
    #[must_use]
    pub fn supports(&self, mode: ElicitMode) -> bool {
        self.version.is_ok() && self.elicitation.is_some_and(|e| e.supports(mode))
    }

    /// Every attempt at the question under `key` so far: with a retry policy, one per time it
    /// was asked. Empty for a key not asked yet.
    pub fn attempts(&self, key: &str) -> Vec<Attempt> {
        self.lock().attempts.get(key).cloned().unwrap_or_default()
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
    /// A `requestState` that does not verify stops the call before the body runs. A question
    /// left unanswered is asked even where the body went on without its answer.
    pub async fn run<R>(&self, body: impl Future<Output = Result<R, Interrupt>>) -> Asked<R> {
        if let Err(refused) = self.carried(|_| Ok(())) {
            return Asked::stopped(refused);
        }
        {
            let mut inner = self.lock();
            inner.running = true;
            inner.asked.clear();
        }
        let result = body.await;
        let pending = {
            let mut inner = self.lock();
            inner.running = false;
            std::mem::take(&mut inner.pending)
        };
        match result {
            Ok(_) | Err(Interrupt::InputRequired) if !pending.is_empty() => {
                match self.end_round(pending) {
                    Ok(required) => Asked::asking(required),
                    Err(e) => Asked::stopped(e),
                }
            }
            Ok(result) => Asked::done(result),
            Err(interrupt) => Asked::stopped(interrupt),
        }
    }

    /// Seals what the call knows and asks for `pending`.
    fn end_round(&self, pending: InputRequests) -> Result<InputRequired, Interrupt> {
        let keys: Vec<String> = pending.entries().keys().cloned().collect();
        let sealed = self.carried(|carried| {
            if carried.round >= self.max_rounds {
                return Err(Interrupt::TooManyRounds {
                    cap: self.max_rounds,
                    pending: keys.clone(),
                });
            }
            carried.round += 1;
            carried.pending = keys.clone();
            self.key
                .seal(carried, &self.binding)
                .map_err(Interrupt::State)
        })?;
        Ok(InputRequired::new(pending).with_request_state(sealed))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        // No code panics while holding the lock; a poisoned one still holds consistent data.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the call's carried state, opening it first if this is the first use.
    pub(crate) fn carried<R>(
        &self,
        f: impl FnOnce(&mut Carried) -> Result<R, Interrupt>,
    ) -> Result<R, Interrupt> {
        let mut inner = self.lock();
        if inner.carried.is_none() {
            let opened = self.open(&mut inner);
            inner.carried = Some(opened);
        }
        match inner.carried.as_mut() {
            Some(Ok(carried)) => f(carried),
            Some(Err(e)) => Err(Interrupt::State(e.clone())),
            None => Err(Interrupt::InputRequired),
        }
    }

    /// The state the client echoed, with this round's answers to the questions it asked added
    /// to it. Without a state, a retry's answers wait, unclaimed, for the questions the body
    /// asks (a client that answers without the state, as the conformance suite's does).
    fn open(&self, inner: &mut Inner) -> Result<Carried, StateError> {
        let Some(sealed) = &self.request_state else {
            inner.unclaimed = self.responses.clone();
            return Ok(Carried::new());
        };
        let (mut carried, issued) = self.key.open(sealed, &self.binding)?;
        inner.issued_ms = Some(issued);
        // This round's answers took from the round's result to this retry.
        let took = Duration::from_millis(state::now_ms().saturating_sub(issued));
        for key in std::mem::take(&mut carried.pending) {
            if let Some(reply) = self.responses.get(&key) {
                carried.push_reply(&key, reply.clone(), Some(took));
            }
        }
        Ok(carried)
    }

    pub(crate) fn version(&self) -> Result<ProtocolVersion, Interrupt> {
        self.version.clone().map_err(Interrupt::Version)
    }

    /// The value under `key` in the call's arguments.
    pub(crate) fn argument(&self, key: &str) -> Option<&Value> {
        self.arguments.get(key).filter(|v| !v.is_null())
    }

    /// Whether results may carry this crate's `structuredContent`.
    pub(crate) fn structured(&self) -> bool {
        !self.output_schema
    }

    /// Refuses the call's state before the body runs: an adapter that could not tell who the
    /// caller is.
    #[must_use]
    pub(crate) fn refusing(self, error: StateError) -> Self {
        self.lock().carried = Some(Err(error));
        self
    }

    /// Whether this round's `inputResponses` hold an answer under `key`.
    pub(crate) fn answered_now(&self, key: &str) -> bool {
        self.responses.contains_key(key)
    }
}
