//! [`Ask`]: a tool's typed questions to the user, written once for every protocol version.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use ::rmcp::model::{self as m, CallToolRequestParams, ErrorData, InputRequiredResult, JsonObject};
use ::rmcp::service::{RequestContext, RoleServer};

use super::asked::{Asked, Interrupt};
use super::peer::negotiated_version;
use super::state::{Binding, Carried, StateError, StateKey, now_ms};
use crate::protocol::round_trip::{InputRequests, InputRequired};
use crate::retry::{Attempt, RetryPolicy};
use crate::version::ProtocolVersion;

/// How many rounds a call may take by default, as rmcp's and the other SDKs' clients allow.
pub const DEFAULT_MAX_ROUNDS: u32 = 10;

/// How often a live request that waits for the person sends progress by default.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(15);

/// A tool's questions to the user, answered typed and validated, in straight-line code that
/// works on every protocol version.
///
/// ```
/// use elicit_core::ElicitResult;
/// use elicit_core::prelude::*;
/// use rmcp::model::*;
///
/// /// Where would you like to go?
/// #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
/// struct Trip {
///     city: String,
///     nights: u8,
/// }
///
/// /// A week or more: a few extras
/// #[derive(Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema, Elicit)]
/// struct Extras {
///     rental_car: bool,
/// }
///
/// // The body of a tool: `ask` comes from `Ask::new` in `call_tool`, or is an argument of a
/// // `#[tool]` function.
/// async fn plan_trip(ask: &Ask) -> Asked<CallToolResult> {
///     ask.run(async {
///         let trip = ask.form::<Trip>("trip").await?;
///         let extras = match &trip {
///             ElicitResult::Accept(trip) if trip.nights >= 7 => {
///                 Some(ask.form::<Extras>("extras").await?)
///             }
///             _ => None,
///         };
///         let plan = serde_json::json!({ "trip": trip, "extras": extras });
///         Ok(CallToolResult::success(vec![ContentBlock::text(plan.to_string())]))
///     })
///     .await
/// }
/// ```
///
/// - **2025-06-18 and 2025-11-25**: each question is a live `elicitation/create`, sent when it
///   is awaited, with the schema written for the negotiated version and the client's
///   capabilities checked first.
/// - **2026-07-28**: a server cannot send requests mid-call. A question whose answer is known
///   (from this round's `inputResponses`, or from an earlier round, carried in the sealed
///   `requestState`) resolves at once. The first unanswered one stops the body through `?`, and
///   [`run`](Ask::run) turns the stop into an `InputRequiredResult` that asks for it. The
///   client retries the call with the answer, and the body runs again from the top.
///
/// **So on 2026-07-28, code before the last question runs once per round.** Keep side effects
/// (a booking, a payment, a message sent) after the questions, or make them safe to repeat.
/// The body must ask the same questions in the same order given the same answers: don't
/// branch on the time or on random numbers before a question.
///
/// Each question has a key, yours to choose, that names it across rounds: keep keys stable,
/// and give each question its own. A key asked twice for the same type is the same question
/// (the second ask gets the first answer); a key reused for another type stops the call with
/// [`Interrupt::KeyReused`].
///
/// `Ask` is an rmcp extractor: a `#[tool]` function takes it as an argument. `Ask` reads the
/// call's arguments, to bind the state to them and to answer questions from them: list it
/// before `Parameters`, which takes them, or serve the tools through
/// [`keep_arguments`](super::keep_arguments), which keeps them for `Ask` in any order. In a
/// hand-written `call_tool`, build one with [`Ask::new`].
pub struct Ask {
    pub(super) context: RequestContext<RoleServer>,
    version: Result<ProtocolVersion, Option<String>>,
    key: StateKey,
    binding: Binding,
    responses: m::InputResponses,
    request_state: Option<String>,
    pub(crate) max_rounds: u32,
    /// The retry policy of every question that sets none.
    pub(super) retry: RetryPolicy,
    /// The call's arguments, where questions that opt in find their answers.
    arguments: Option<JsonObject>,
    /// Whether the tool declares an `outputSchema` (then no `structuredContent` of this crate's).
    output_schema: bool,
    /// How often a waiting live request sends progress.
    pub(super) keep_alive: Duration,
    inner: Mutex<Inner>,
}

#[derive(Default)]
pub(super) struct Inner {
    /// The call's carried state, opened on first use.
    carried: Option<Result<Carried, StateError>>,
    /// This round's unanswered questions (2026-07-28).
    pub(super) pending: InputRequests,
    /// Every attempt at each key, as of its last ask.
    pub(super) attempts: BTreeMap<String, Vec<Attempt>>,
    /// Rounds of live requests so far (before 2026-07-28), for the round cap.
    pub(super) live_rounds: u32,
    /// Inside [`Ask::all`]: whether its round was counted yet.
    pub(super) batch: Option<bool>,
    /// Whether a body is running under [`Ask::run`] or [`Ask::rounds`].
    pub(super) running: bool,
    /// The last progress value sent: each notification's is higher.
    pub(super) progress: f64,
}

impl std::fmt::Debug for Ask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ask")
            .field("version", &self.version)
            .field("max_rounds", &self.max_rounds)
            .finish_non_exhaustive()
    }
}

impl Ask {
    /// The questions of one `tools/call`, sealed with the [installed](StateKey::installed) key.
    #[must_use]
    pub fn new(request: &CallToolRequestParams, context: &RequestContext<RoleServer>) -> Self {
        Self::with_key(request, context, StateKey::installed().clone())
    }

    /// [`new`](Ask::new), sealed with `key`.
    #[must_use]
    pub fn with_key(
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
        key: StateKey,
    ) -> Self {
        Self::from_parts(
            context.clone(),
            &request.name,
            request.arguments.as_ref(),
            request.input_responses.clone(),
            request.request_state.clone(),
            key,
        )
    }

    pub(super) fn from_parts(
        context: RequestContext<RoleServer>,
        tool: &str,
        arguments: Option<&JsonObject>,
        responses: Option<m::InputResponses>,
        request_state: Option<String>,
        key: StateKey,
    ) -> Self {
        let binding = Binding::of(tool, arguments, key.principal_of(&context).as_deref());
        let version = match context.protocol_version() {
            None => Err(None),
            Some(version) => {
                let text = version.to_string();
                negotiated_version(&text).ok_or(Some(text))
            }
        };
        Ask {
            context,
            version,
            key,
            binding,
            responses: responses.unwrap_or_default(),
            request_state,
            max_rounds: DEFAULT_MAX_ROUNDS,
            retry: RetryPolicy::NONE,
            arguments: arguments.cloned(),
            output_schema: false,
            keep_alive: DEFAULT_KEEP_ALIVE,
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
    /// `notifications/progress` every `interval` ([`DEFAULT_KEEP_ALIVE`] by default), when the
    /// call carried a `progressToken`. A client that resets its timeout on progress (the
    /// TypeScript client with `resetTimeoutOnProgress`) then keeps the call open while the
    /// person types. A question's own `keep_alive` overrides it.
    #[must_use]
    pub fn with_keep_alive(mut self, interval: Duration) -> Self {
        self.keep_alive = interval;
        self
    }

    /// Says whether the tool declares an `outputSchema`. A tool that does gets no
    /// `structuredContent` from this crate (an [`Unavailable`](super::Unavailable) result
    /// carries its facts in its text only). `Ask` as a `#[tool]` argument reads it from the
    /// tool; [`Ask::new`] assumes none.
    #[must_use]
    pub fn with_output_schema(mut self, declared: bool) -> Self {
        self.output_schema = declared;
        self
    }

    /// The request's protocol version, if it is one with elicitation.
    pub fn protocol_version(&self) -> Option<ProtocolVersion> {
        self.version.as_ref().ok().copied()
    }

    /// Whether questions travel in rounds (2026-07-28 and later) rather than as live requests.
    pub fn asks_in_rounds(&self) -> bool {
        self.protocol_version()
            .is_some_and(ProtocolVersion::has_input_requests)
    }

    /// The request's context.
    pub fn context(&self) -> &RequestContext<RoleServer> {
        &self.context
    }

    /// Every attempt at the question under `key` so far: with a retry policy, one per time it
    /// was asked. Empty for a key not asked yet.
    pub fn attempts(&self, key: &str) -> Vec<Attempt> {
        self.lock().attempts.get(key).cloned().unwrap_or_default()
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
        self.lock().running = true;
        let result = body.await;
        let pending = {
            let mut inner = self.lock();
            inner.running = false;
            std::mem::take(&mut inner.pending)
        };
        match result {
            Ok(_) | Err(Interrupt::InputRequired) if !pending.is_empty() => {
                match self.end_round(pending) {
                    Ok(required) => Asked::input_required(required),
                    Err(e) => Asked::stopped(e),
                }
            }
            Ok(result) => Asked::done(result),
            Err(interrupt) => Asked::stopped(interrupt),
        }
    }

    /// Seals what the call knows and asks for `pending`.
    fn end_round(&self, pending: InputRequests) -> Result<InputRequiredResult, Interrupt> {
        let sealed = self.carried(|carried| {
            if carried.round >= self.max_rounds {
                return Err(Interrupt::TooManyRounds(self.max_rounds));
            }
            carried.round += 1;
            carried.sealed_ms = now_ms();
            self.key
                .seal(carried, &self.binding)
                .map_err(Interrupt::State)
        })?;
        let required = InputRequired::new(pending).with_request_state(sealed);
        InputRequiredResult::try_from(&required)
            .map_err(|e| Interrupt::Error(ErrorData::internal_error(e.to_string(), None)))
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, Inner> {
        // No code panics while holding the lock; a poisoned one still holds consistent data.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on the call's carried state, opening it first if this is the first use.
    pub(super) fn carried<R>(
        &self,
        f: impl FnOnce(&mut Carried) -> Result<R, Interrupt>,
    ) -> Result<R, Interrupt> {
        let mut inner = self.lock();
        let carried = inner.carried.get_or_insert_with(|| self.open());
        match carried {
            Ok(carried) => f(carried),
            Err(e) => Err(Interrupt::State(e.clone())),
        }
    }

    /// The state the client echoed, with this round's answers added to it. An answer is read
    /// only for a question the call has asked; one after a question's final answer is never
    /// read (see [`resolve`](Ask::resolve)).
    fn open(&self) -> Result<Carried, StateError> {
        let Some(sealed) = &self.request_state else {
            if self.responses.is_empty() {
                return Ok(Carried::new());
            }
            return Err(StateError::Missing);
        };
        let mut carried = self.key.open(sealed, &self.binding)?;
        // This round's answers took from the round's result to this retry.
        let took = (carried.sealed_ms > 0)
            .then(|| Duration::from_millis(now_ms().saturating_sub(carried.sealed_ms)));
        for (key, answers) in &mut carried.keys {
            if let Some(reply) = self.responses.get(key) {
                answers.push(reply.clone(), took);
            }
        }
        Ok(carried)
    }

    pub(crate) fn version(&self) -> Result<ProtocolVersion, Interrupt> {
        self.version.clone().map_err(Interrupt::Version)
    }

    /// The value under `key` in the call's arguments.
    pub(crate) fn argument(&self, key: &str) -> Option<&serde_json::Value> {
        self.arguments
            .as_ref()
            .and_then(|a| a.get(key))
            .filter(|v| !v.is_null())
    }

    /// Whether results may carry this crate's `structuredContent`.
    pub(crate) fn structured(&self) -> bool {
        !self.output_schema
    }

    /// This round's `inputResponses`, as the client sent them.
    pub(crate) fn responses(&self) -> &m::InputResponses {
        &self.responses
    }

    /// The `requestState` the client echoed, as it sent it.
    pub(crate) fn request_state(&self) -> Option<&str> {
        self.request_state.as_deref()
    }
}
