//! The questions a tool asks through [`Ask`] that elicit: a form (of a derived type, or of a
//! schema built at run time), and a page in URL mode; a confirmation is a form in `confirm.rs`,
//! and a completion or the client's roots a question of `sample.rs`. Each is awaited on its
//! own, or several go in one round with [`Ask::all`].

use std::any::type_name;
use std::borrow::Cow;
use std::future::{Future, IntoFuture};
use std::pin::Pin;
use std::time::Duration;

use serde_json::Value;

use super::Ask;
use super::asked::Interrupt;
use super::port::SendError;
use super::state::{Identity, QuestionKind, digest};
use crate::elicit::Elicit;
use crate::error::{ElicitError, SchemaError};
use crate::form::Form;
use crate::limits::Limits;
use crate::protocol::client::Capability;
use crate::protocol::client::Request;
use crate::protocol::url_mode::{UrlElicitResult, UrlRequest};
use crate::reply;
use crate::reply::Content;
use crate::result::{ElicitAction, ElicitResult};
use crate::schema::RequestedSchema;
use crate::schema::request::FormRequest;
use crate::version::ProtocolVersion;
use retry::{Attempt, RetryPolicy};

impl Ask {
    /// Asks for a `T` under `key`, with `T`'s message and its schema for the request's
    /// version. Await it for the validated `ElicitResult<T>`; set a message, a retry policy or
    /// a deadline on it first.
    pub fn form<T: Elicit>(&self, key: impl Into<String>) -> FormQuestion<'_, T> {
        FormQuestion::new(self, key.into())
    }

    /// Asks for a `T` under `key` with the schema and message of `form`: run-time choices
    /// (see [`Form`]). The answer is checked against the choices sent.
    pub fn form_with<'a, T: Elicit>(
        &'a self,
        key: impl Into<String>,
        form: &'a crate::form::Form<T>,
    ) -> FormQuestion<'a, T> {
        FormQuestion::of(self, key.into(), form)
    }

    /// Asks for the form of a schema built or received at run time, under `key`. The answer is
    /// its [`Content`], validated against the schema. A schema with a rule
    /// the SDK's schema model cannot carry (rmcp's has no `pattern` and no exclusive bound)
    /// ends the call with an error on every version, before anything is sent.
    pub fn schema<'a>(
        &'a self,
        key: impl Into<String>,
        message: impl Into<String>,
        schema: &'a RequestedSchema,
    ) -> FormQuestion<'a, Content> {
        FormQuestion {
            ask: self,
            form: FormAsking {
                core: Core::new(self.retry, key.into(), Some(message.into())),
                schema,
                message: "",
                trace: "runtime",
            },
            read: |schema, reply| schema.parse_reply_value(reply),
        }
    }

    /// Sends the user to `url` (URL mode) under `key`. Await it for the `UrlElicitResult`.
    pub fn url(
        &self,
        key: impl Into<String>,
        message: impl Into<String>,
        url: impl Into<String>,
    ) -> UrlQuestion<'_> {
        UrlQuestion::new(self, key.into(), message.into(), url.into())
    }

    /// Asks independent questions together, of any kinds (forms, pages, sampling, roots): on
    /// 2026-07-28 in one round, one `inputRequests` entry each; before, as live requests sent
    /// at once, the first failure ending the others.
    ///
    /// ```
    /// # use elicit_core::prelude::*;
    /// # #[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
    /// # /// Where to?
    /// # struct Trip { city: String }
    /// # #[derive(serde::Deserialize, schemars::JsonSchema, Elicit)]
    /// # /// Anything you can't eat?
    /// # struct Diet { vegetarian: bool }
    /// # async fn body(ask: &Ask) -> Result<(), Interrupt> {
    /// let (trip, diet) = ask.all((ask.form::<Trip>("trip"), ask.form::<Diet>("diet"))).await?;
    /// # let _ = (trip, diet);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn all<Q: Questions>(&self, questions: Q) -> Result<Q::Output, Interrupt> {
        questions.answer_all(self).await
    }

    /// Asks `question`, and gives its answer with the [`Attempt`] that gave it: where the
    /// answer came from (the person, the arguments, or a deadline that passed) and how long it
    /// took, where the body decides.
    ///
    /// ```
    /// # use elicit_core::prelude::*;
    /// # use elicit_core::ask::AnswerSource;
    /// # async fn body(ask: &Ask) -> Result<bool, Interrupt> {
    /// let (pay, attempt) = ask.with_attempt(ask.confirm("pay", "Pay 120 EUR?")).await?;
    /// let read_by_someone = attempt.source == AnswerSource::Person
    ///     && attempt.took.is_some_and(|t| t.as_secs() >= 1);
    /// # Ok(pay.is_confirmed() && read_by_someone)
    /// # }
    /// ```
    pub async fn with_attempt<Q: Question>(
        &self,
        question: Q,
    ) -> Result<(Q::Output, Attempt), Interrupt> {
        let answer = self.answer(&question).await?;
        let key = question.asking().key();
        let attempt = self.lock().attempts(key).last().cloned();
        // An answer always has the attempt that gave it; a confirmation the client cannot show
        // has one that failed.
        let attempt = attempt.unwrap_or_else(|| {
            Attempt::new(
                question.asking().base_message(),
                crate::ask::AttemptOutcome::Failed("no person could be asked".into()),
            )
        });
        Ok((answer, attempt))
    }
}

/// A question asked through [`Ask`]: [`FormQuestion`], [`UrlQuestion`],
/// [`ConfirmQuestion`](super::ConfirmQuestion) or [`ClientQuestion`](super::ClientQuestion). Await one on its own, or pass several to
/// [`Ask::all`] to ask them in one round. Its answer is `Q::Output`. It is sealed: what the
/// engine needs of a question is this crate's own.
pub trait Question: sealed::Asks {}

impl<Q: sealed::Asks> Question for Q {}

pub(super) mod sealed {
    use super::{Asking, Attempt, ElicitAction, ElicitError, Interrupt, Value};

    /// Marks the tuples of questions [`Ask::all`](super::Ask::all) takes.
    pub trait Sealed {}

    /// What the engine needs of a question, whatever its answer's type.
    pub trait Asks: Send + Sync {
        /// The typed answer.
        type Output: Send;

        fn asking(&self) -> &dyn Asking;

        fn read(&self, reply: &Value) -> Result<Self::Output, ElicitError>;

        /// What the user did, as the answer says it.
        fn action(answer: &Self::Output) -> ElicitAction;

        /// What the question ends as, from how its asking ended and its last attempt: a
        /// confirmation turns every way of not being confirmed into one answer.
        fn settle(
            &self,
            answer: Result<Self::Output, Interrupt>,
            _last: Option<&Attempt>,
        ) -> Result<Self::Output, Interrupt> {
            answer
        }
    }
}

/// The facts of the call that a question's rules read.
pub struct Facts<'a> {
    pub version: ProtocolVersion,
    /// Whether the client can show the question's mode.
    pub shows: bool,
    /// The value under the question's key in the call's arguments.
    pub argument: Option<&'a Value>,
    /// Whether the SDK's model carries a request whole.
    pub carries: &'a (dyn Fn(&Request) -> Result<(), SchemaError> + Sync),
    /// How long the person has to answer.
    pub deadline: Duration,
    /// Whether a result may carry this crate's `structuredContent`.
    pub structured: bool,
    /// The call's id, where a URL-mode question needs an `elicitationId`.
    pub call_id: Option<String>,
}

impl Facts<'_> {
    /// The `elicitationId` of the `index`-th await of `key` in this call: unique to the call
    /// and the question, and the same on every attempt.
    pub(crate) fn elicitation_id(&self, key: &str, index: usize) -> Result<String, Interrupt> {
        let call = self.call_id.as_deref().ok_or_else(|| {
            Interrupt::Error(crate::protocol::jsonrpc::RpcError::internal(
                "no id for an elicitationId",
            ))
        })?;
        let mut bytes = call.as_bytes().to_vec();
        bytes.extend_from_slice(&(index as u64).to_be_bytes());
        bytes.extend_from_slice(key.as_bytes());
        Ok(super::state::digest(&bytes))
    }
}

/// What every question holds: its key and message, how it is retried, how long it waits, and
/// what else may answer it.
#[doc(hidden)]
pub struct Core {
    key: String,
    message: Option<String>,
    policy: RetryPolicy,
    pub(super) deadline: Option<Duration>,
    keep_alive: Option<Duration>,
    /// Opted into answers and pre-filling from the call's arguments.
    pub(super) arguments: bool,
    /// Opted into an answer the client sends without being asked.
    pub(super) unasked: bool,
    /// Answered by a person only (a confirmation): never from the arguments.
    pub(super) person_only: bool,
}

impl Core {
    pub(super) fn new(policy: RetryPolicy, key: String, message: Option<String>) -> Self {
        Core {
            key,
            message,
            policy,
            deadline: None,
            keep_alive: None,
            arguments: false,
            unasked: false,
            person_only: false,
        }
    }

    /// The object under the key in the call's arguments, to pre-fill the form with.
    fn prefill<'f>(&self, facts: &Facts<'f>) -> Option<&'f serde_json::Map<String, Value>> {
        if !self.arguments || self.person_only {
            return None;
        }
        facts.argument?.as_object()
    }
}

/// What the engine needs of a question, whatever its answer's type.
#[doc(hidden)]
pub trait Asking: Sync {
    fn core(&self) -> &Core;
    /// What is asked.
    fn kind(&self) -> QuestionKind;
    /// What the client must have declared for it: by its kind, but for a completion that gives
    /// tools, which needs `sampling.tools`.
    fn needs(&self) -> Capability {
        match self.kind() {
            QuestionKind::Form | QuestionKind::Confirm => Capability::Form,
            QuestionKind::Url => Capability::Url,
            QuestionKind::Sample => Capability::Sampling,
            QuestionKind::Roots => Capability::Roots,
        }
    }
    fn key(&self) -> &str {
        &self.core().key
    }
    fn base_message(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.core().message.as_deref().unwrap_or_default())
    }
    fn policy(&self) -> RetryPolicy {
        self.core().policy
    }
    fn deadline(&self) -> Option<Duration> {
        self.core().deadline
    }
    fn keep_alive(&self) -> Option<Duration> {
        self.core().keep_alive
    }
    /// What makes the question the same in every round: its kind, and digests of its base
    /// message (before pre-filling or retry wording), its choices as a set, and the rest of
    /// its form, its fields by name.
    fn identity(&self) -> Identity {
        let message = digest(self.base_message().as_bytes());
        let (choices, form) = match self.schema() {
            Some(schema) => schema_digests(schema),
            None => (String::new(), String::new()),
        };
        Identity {
            kind: self.kind(),
            message,
            choices,
            form,
        }
    }
    /// The form's name in traces: its type, `runtime` or `url`.
    fn trace_name(&self) -> Cow<'static, str>;
    /// The request for the call `facts` describe, shown with `message`, as the `index`-th
    /// await of its key. After a refused answer, `keep` holds its content and why it was
    /// refused, so a form can start from what was right.
    fn request(
        &self,
        facts: &Facts<'_>,
        message: &str,
        keep: Option<Kept<'_>>,
        index: usize,
    ) -> Result<Request, Interrupt>;
    /// The form asked, when it is one: its labels word violations for the user.
    fn schema(&self) -> Option<&RequestedSchema> {
        None
    }
}

/// Digests of a form's choices, as a set per field, and of the rest of the form: the order of
/// the choices, or of the fields, is no change.
fn schema_digests(schema: &RequestedSchema) -> (String, String) {
    let mut choices = Vec::new();
    let mut rest = schema.clone();
    crate::sort::stable(&mut rest.properties, &|a, b| a.name.cmp(&b.name));
    for property in &mut rest.properties {
        if let Some(list) = property.kind.choices_mut() {
            let mut set: Vec<(String, Option<String>)> = list
                .drain(..)
                .map(|choice| (choice.value, choice.title))
                .collect();
            crate::sort::stable(&mut set, &Ord::cmp);
            choices.push((property.name.clone(), set));
        }
    }
    // Lists of strings and schemas always serialize. The schema goes through the one writer
    // of schemas, into a `Value`, as into every request.
    let rest = serde_json::to_value(&rest)
        .and_then(|rest| serde_json::to_vec(&rest))
        .unwrap_or_default();
    if choices.is_empty() {
        return (String::new(), digest(&rest));
    }
    let choices = serde_json::to_vec(&choices).unwrap_or_default();
    (digest(&choices), digest(&rest))
}

/// The content of a refused answer and why it was refused.
#[doc(hidden)]
pub type Kept<'a> = (&'a serde_json::Map<String, Value>, &'a ElicitError);

/// `schema`, with what was right in a refused answer kept as defaults where the version sends
/// defaults (2025-11-25 and later); or else, pre-filled from the call's arguments, each value
/// that passes its field's rules a default (the version's schema keeps those it allows).
fn keeping(
    schema: &RequestedSchema,
    version: ProtocolVersion,
    keep: Option<Kept<'_>>,
    prefill: Option<&serde_json::Map<String, Value>>,
) -> Option<RequestedSchema> {
    match (keep, prefill) {
        (Some((content, error)), _) if version >= ProtocolVersion::V2025_11_25 => {
            Some(schema.prefilled(content, error))
        }
        (Some(_), _) | (None, None) => None,
        (None, Some(content)) => Some(schema.prefilled(content, &ElicitError::new(Vec::new()))),
    }
}

/// The settings of a form question, written once for the form and the confirmation.
macro_rules! form_settings {
    ($($core:ident).+) => {
        /// Asks again as `policy` allows: once more after a cancel, and with the violations in the
        /// message after invalid content. On 2026-07-28 each new attempt is another round.
        pub fn retrying(mut self, policy: RetryPolicy) -> Self {
            self.$($core).+.policy = policy;
            self
        }

        /// Takes the answer from the call's arguments when the client cannot show the question.
        ///
        /// - **The client cannot show it** (no elicitation capability, or not form mode): an object
        ///   under the question's key in the arguments is the answer, checked by the form's rules
        ///   as accepted content is. Without one, the call ends with [`Interrupt::Unavailable`]: a
        ///   tool error, on every version, that lists the fields and names the argument, so the
        ///   model can ask the person in the conversation and call again.
        /// - **The client can show it**: that object pre-fills the form. Each value that passes its
        ///   field's rules becomes the field's `default`, where the version allows one
        ///   (2025-06-18: booleans only). The person's answer is what counts.
        ///
        /// The answer's [`Attempt`](crate::ask::Attempt) says it came from the arguments.
        ///
        /// The arguments are the call's own, as they arrived. List the question's key in the tool's
        /// `inputSchema` ([`input_schema`](super::input_schema)) rather than in a `Parameters`
        /// type, so that a malformed answer meets the form's rules instead of `Parameters`' own
        /// error.
        pub fn or_arguments(mut self) -> Self {
            self.$($core).+.arguments = true;
            self
        }

        /// Takes an answer the client sends under the question's key without being asked: on
        /// 2026-07-28, an `inputResponses` entry that no sealed round asked for, such as one
        /// sent up front on a first call. Such an answer is the client's, as an argument is:
        /// nothing shows that a person saw the question. It answers the first await of the
        /// key only, its [`Attempt`](crate::ask::Attempt) says
        /// [`Unasked`](crate::ask::AnswerSource::Unasked), and it is final: content that
        /// breaks the form ends the call as content from a person would.
        ///
        /// Off by default, and a confirmation has no such setting: an answer counts only
        /// through the sealed state of the round that asked for it, so that a call cannot
        /// carry a yes nobody was shown. Opt in only for a question whose answer the client may
        /// as well give as an argument.
        pub fn accepting_unasked(mut self) -> Self {
            self.$($core).+.unasked = true;
            self
        }
    };
}

/// The settings of the wait for a person's answer, written once for every question put to a
/// person, with what a deadline that passes comes to.
macro_rules! live_settings {
    ($($core:ident).+, $timed_out:literal) => {
        /// Waits `deadline` for the answer, live or in a round (see
        /// [`Ask::with_deadline`](crate::ask::Ask::with_deadline));
        #[doc = concat!("then ", $timed_out, ".")]
        pub fn deadline(mut self, deadline: Duration) -> Self {
            self.$($core).+.deadline = Some(deadline);
            self
        }

        /// Sends progress every `interval` while a live request waits (see
        /// [`Ask::with_keep_alive`](crate::ask::Ask::with_keep_alive)).
        pub fn keep_alive(mut self, interval: Duration) -> Self {
            self.$($core).+.keep_alive = Some(interval);
            self
        }
    };
}

pub(super) type Answering<'a, O> = Pin<Box<dyn Future<Output = Result<O, Interrupt>> + Send + 'a>>;

/// A form: asks for a `T` under a key, or for the [`Content`] of a run-time schema. Await it
/// for an `ElicitResult<T>`, validated against the schema that was sent. Made by [`Ask::form`],
/// [`Ask::form_with`] and [`Ask::schema`].
///
/// Each await is its own question: awaiting the key again (after a cancel, say) asks the person
/// again, on every version, except after a decline, which is final: the key's next await
/// returns the decline and asks nothing.
#[must_use = "a question is asked when it is awaited"]
pub struct FormQuestion<'a, T> {
    ask: &'a Ask,
    /// What the engine asks, whatever `T` is.
    form: FormAsking<'a>,
    /// Reads a reply against the schema sent.
    read: fn(&RequestedSchema, &Value) -> Result<ElicitResult<T>, ElicitError>,
}

/// A form as the engine asks it, whatever its answer's type: one [`Asking`] for every form.
struct FormAsking<'a> {
    core: Core,
    /// The schema sent: `T`'s own, a [`Form`]'s with run-time choices, or a run-time schema.
    schema: &'a RequestedSchema,
    /// The message shown where none is set: `T`'s own.
    message: &'static str,
    /// The form's name in traces.
    trace: &'static str,
}

impl<'a, T: Elicit> FormQuestion<'a, T> {
    pub(crate) fn new(ask: &'a Ask, key: String) -> Self {
        FormQuestion {
            ask,
            form: FormAsking::new(
                ask,
                key,
                T::requested_schema(),
                T::message(),
                type_name::<T>(),
            ),
            // The schema sent for the newest version: a down-levelled one takes the same
            // values (titles and defaults differ, never what is valid).
            read: |schema, reply| reply::from_value(schema, reply, &Limits::DEFAULT)?.check(),
        }
    }

    /// A question that sends `form`'s schema and message, and reads the answer against it.
    pub(crate) fn of(ask: &'a Ask, key: String, form: &'a Form<T>) -> Self {
        let mut question = FormQuestion::new(ask, key).message(form.message_text());
        question.form.schema = form.schema();
        question
    }
}

impl<'a, T> FormQuestion<'a, T> {
    /// The question answered by a person only (a confirmation): never from the arguments.
    pub(super) fn person_only(mut self) -> Self {
        self.form.core.person_only = true;
        self
    }

    /// The `Ask` it goes through.
    pub(super) fn ask(&self) -> &'a Ask {
        self.ask
    }

    /// Shows `message` instead of the type's own.
    pub fn message(mut self, message: impl Into<String>) -> Self {
        self.form.core.message = Some(message.into());
        self
    }

    form_settings!(form.core);
    live_settings!(form.core, "the question ends as a cancel that timed out");
}

impl<'a> FormAsking<'a> {
    /// A form of `schema` under `key`, showing `message` where none is set; traced as
    /// `trace`.
    fn new(
        ask: &Ask,
        key: String,
        schema: &'a RequestedSchema,
        message: &'static str,
        trace: &'static str,
    ) -> Self {
        FormAsking {
            core: Core::new(ask.retry, key, None),
            schema,
            message,
            trace,
        }
    }
}

impl Asking for FormAsking<'_> {
    fn core(&self) -> &Core {
        &self.core
    }

    fn kind(&self) -> QuestionKind {
        if self.core.person_only {
            QuestionKind::Confirm
        } else {
            QuestionKind::Form
        }
    }

    fn trace_name(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.trace)
    }

    fn base_message(&self) -> Cow<'_, str> {
        Cow::Borrowed(self.core.message.as_deref().unwrap_or(self.message))
    }

    fn schema(&self) -> Option<&RequestedSchema> {
        Some(self.schema)
    }

    /// The form for the call's version, by one road: the schema sent (with what was right in
    /// a refused answer kept, or pre-filled from the arguments), written for the version.
    fn request(
        &self,
        facts: &Facts<'_>,
        message: &str,
        keep: Option<Kept<'_>>,
        _index: usize,
    ) -> Result<Request, Interrupt> {
        let version = facts.version;
        let form = match keeping(self.schema, version, keep, self.core.prefill(facts)) {
            Some(kept) => FormRequest::owned(message, kept),
            None => FormRequest::new(message.to_owned(), self.schema),
        };
        form.with_version(version)
            .map(|form| Request::Form(form.into_owned()))
            .map_err(|e| Interrupt::Send(SendError::Schema(e)))
    }
}

impl<T: Send> sealed::Asks for FormQuestion<'_, T> {
    type Output = ElicitResult<T>;

    fn action(answer: &ElicitResult<T>) -> ElicitAction {
        answer.action()
    }

    fn asking(&self) -> &dyn Asking {
        &self.form
    }

    fn read(&self, reply: &Value) -> Result<ElicitResult<T>, ElicitError> {
        (self.read)(self.form.schema, reply)
    }
}

/// A page the user opens (URL mode, 2025-11-25 and later): for what a form must not carry, such
/// as passwords and payment details. Await it for the `UrlElicitResult`. Made by [`Ask::url`].
#[must_use = "a question is asked when it is awaited"]
pub struct UrlQuestion<'a> {
    ask: &'a Ask,
    core: Core,
    url: String,
    elicitation_id: Option<String>,
}

impl<'a> UrlQuestion<'a> {
    pub(crate) fn new(ask: &'a Ask, key: String, message: String, url: String) -> Self {
        UrlQuestion {
            ask,
            core: Core::new(ask.retry, key, Some(message)),
            url,
            elicitation_id: None,
        }
    }

    /// The `elicitationId` sent on 2025-11-25, which a later `ElicitationComplete` names: set
    /// it to name the request there, unique within the server (a session or order id, say).
    /// By default it is made for the call, unique to it and to the question, and the same on
    /// every attempt. 2026-07-28 sends none: the key names the request. (rmcp's model cannot
    /// leave the field out, so on rmcp a round's URL request carries `"elicitationId": ""`,
    /// which the 2026-07-28 schema allows.)
    pub fn elicitation_id(mut self, id: impl Into<String>) -> Self {
        self.elicitation_id = Some(id.into());
        self
    }

    live_settings!(core, "the question ends as a cancel that timed out");
}

impl Asking for UrlQuestion<'_> {
    fn core(&self) -> &Core {
        &self.core
    }

    fn kind(&self) -> QuestionKind {
        QuestionKind::Url
    }

    fn trace_name(&self) -> Cow<'static, str> {
        Cow::Borrowed("url")
    }

    fn identity(&self) -> Identity {
        Identity {
            kind: self.kind(),
            message: digest(self.base_message().as_bytes()),
            choices: String::new(),
            form: digest(self.url.as_bytes()),
        }
    }

    fn request(
        &self,
        facts: &Facts<'_>,
        message: &str,
        _keep: Option<Kept<'_>>,
        index: usize,
    ) -> Result<Request, Interrupt> {
        let version = facts.version;
        // 2026-07-28 sends no id: the `inputRequests` key names the request.
        let id = match (&self.elicitation_id, version.has_input_requests()) {
            (_, true) => String::new(),
            (Some(id), false) => id.clone(),
            (None, false) => facts.elicitation_id(&self.core.key, index)?,
        };
        UrlRequest::new(version, message.to_owned(), self.url.clone(), id)
            .map(Request::Url)
            .map_err(Interrupt::Url)
    }
}

impl sealed::Asks for UrlQuestion<'_> {
    type Output = UrlElicitResult;

    fn action(answer: &UrlElicitResult) -> ElicitAction {
        answer.action()
    }

    fn asking(&self) -> &dyn Asking {
        self
    }

    fn read(&self, reply: &Value) -> Result<UrlElicitResult, ElicitError> {
        UrlElicitResult::from_value(reply)
    }
}

/// Awaiting a question asks it: `ask.form::<T>(key).await`.
macro_rules! asked_on_await {
    ($([$($generics:tt)*] $question:ty => $answer:ty;)*) => {$(
        impl<'a, $($generics)*> IntoFuture for $question {
            type Output = Result<$answer, Interrupt>;
            type IntoFuture = Answering<'a, $answer>;

            fn into_future(self) -> Self::IntoFuture {
                Box::pin(async move { self.ask.answer(&self).await })
            }
        }
    )*};
}

asked_on_await! {
    [T: Send + 'static] FormQuestion<'a, T> => ElicitResult<T>;
    [] UrlQuestion<'a> => UrlElicitResult;
}

/// Several questions asked together: a tuple of two to six [`Question`]s. See [`Ask::all`].
pub trait Questions: Send + sealed::Sealed {
    /// The tuple of their answers.
    type Output: Send;

    #[doc(hidden)]
    fn answer_all<'a>(self, ask: &'a Ask) -> Answering<'a, Self::Output>
    where
        Self: 'a;
}

macro_rules! questions {
    ($($q:ident $question:ident $answer:ident),+) => {
        impl<$($q: Question),+> sealed::Sealed for ($($q,)+) {}

        impl<$($q: Question),+> Questions for ($($q,)+) {
            type Output = ($($q::Output,)+);

            fn answer_all<'a>(self, ask: &'a Ask) -> Answering<'a, Self::Output>
            where
                Self: 'a,
            {
                Box::pin(async move {
                    let ($($question,)+) = self;
                    // Ends the batch however this future ends: dropped mid-way too.
                    let _batch = ask.batch();
                    // Live requests go out at once, and the first failure ends the others; a
                    // round goes on past unanswered questions, so that it asks for all of
                    // them together.
                    let answers = if ask.asks_in_rounds() {
                        let ($($answer,)+) = tokio::join!($(ask.answer(&$question)),+);
                        let mut stop: Option<Interrupt> = None;
                        $(
                            let $answer = match $answer {
                                Ok(answer) => Some(answer),
                                Err(e) => {
                                    stop = Some(super::asked::graver(stop, e));
                                    None
                                }
                            };
                        )+
                        match (stop, $($answer,)+) {
                            (None, $(Some($answer),)+) => Ok(($($answer,)+)),
                            (stop, ..) => Err(stop.unwrap_or(Interrupt::InputRequired)),
                        }
                    } else {
                        tokio::try_join!($(ask.answer(&$question)),+)
                    };
                    answers
                })
            }
        }
    };
}

questions!(A a_question a_answer, B b_question b_answer);
questions!(A a_question a_answer, B b_question b_answer, C c_question c_answer);
questions!(
    A a_question a_answer,
    B b_question b_answer,
    C c_question c_answer,
    D d_question d_answer
);
questions!(
    A a_question a_answer,
    B b_question b_answer,
    C c_question c_answer,
    D d_question d_answer,
    E e_question e_answer
);
questions!(
    A a_question a_answer,
    B b_question b_answer,
    C c_question c_answer,
    D d_question d_answer,
    E e_question e_answer,
    F f_question f_answer
);

// After the settings macros above, which the confirmation and the client's questions use.
pub(super) mod answer;
pub(super) mod carry;
pub(super) mod confirm;
pub(super) mod retry;
#[cfg(feature = "sampling")]
pub(super) mod sample;
pub(super) mod step;
pub(super) mod unavailable;
