//! The questions for the client itself rather than the person: a completion from its model
//! ([`Ask::sample`]) and its roots ([`Ask::roots`]), each a [`ClientQuestion`].

use std::borrow::Cow;
use std::future::IntoFuture;
use std::marker::PhantomData;
use std::time::Duration;

use serde_json::Value;

use super::carry::ListRootsResult;
use super::retry::RetryPolicy;
use super::{Answering, Asking, Core, Facts, Kept, sealed};
use crate::ask::Ask;
use crate::ask::asked::Interrupt;
use crate::ask::state::{Identity, QuestionKind, digest};
use crate::error::{ElicitError, Location, Rule, Violation};
use crate::protocol::client::{Capability, Request};
use crate::protocol::sampling::{CreateMessageResult, Root, SamplingRequest};
use crate::result::ElicitAction;

impl Ask {
    /// Asks the client's model for a completion (`sampling/createMessage`) under `key`. Await
    /// it for the [`CreateMessageResult`]: the message, the model and why it stopped.
    ///
    /// It is a question like a form, on every version: a live request before 2026-07-28, a
    /// round's `inputRequests` entry on it, gated by the client's `sampling` capability (and
    /// `sampling.tools` where the request gives tools). A client without it ends the call
    /// with [`Interrupt::MissingCapability`], nothing sent. The result is carried in the
    /// sealed state, so later rounds never ask for it again, and it is asked once: no retry.
    ///
    /// A result larger than [`MAX_CARRIED_REPLY`](Ask::MAX_CARRIED_REPLY), once cut to its
    /// fields, is refused on every version ([`Interrupt::Invalid`], a tool error), so that the
    /// state stays small: ask for fewer `maxTokens`. A client that refuses the request (a JSON-RPC error, live) ends the
    /// call with [`SendError::Refused`](crate::ask::SendError::Refused), a tool error; one that
    /// does not answer within the question's deadline, with
    /// [`SendError::Timeout`](crate::ask::SendError::Timeout).
    ///
    /// Sampling is deprecated in the specification (SEP-2577, on a twelve-month clock); it is
    /// still a legal input request on 2026-07-28, and clients still declare it, so it is here
    /// until the specification removes it.
    ///
    /// ```
    /// # use elicit_core::prelude::*;
    /// # use elicit_core::SamplingRequest;
    /// # async fn body(ask: &Ask) -> Result<String, Interrupt> {
    /// let request = SamplingRequest::new(100).user("What is the capital of France?");
    /// let reply = ask.sample("capital", request).await?;
    /// # Ok(reply.text())
    /// # }
    /// ```
    pub fn sample(
        &self,
        key: impl Into<String>,
        request: SamplingRequest,
    ) -> ClientQuestion<'_, CreateMessageResult> {
        let about = "a completion from the client's model";
        ClientQuestion::new(self, key.into(), about, Request::Sample(request))
    }

    /// Asks the client for its roots (`roots/list`) under `key`. Await it for the list, each
    /// with its `uri` and `name`. A question like [`sample`](Ask::sample), gated by the
    /// client's `roots` capability, carried in the sealed state, and deprecated in the
    /// specification in the same way.
    pub fn roots(&self, key: impl Into<String>) -> ClientQuestion<'_, Vec<Root>> {
        ClientQuestion::new(self, key.into(), "the client's roots", Request::Roots)
    }
}

/// A request for the client itself rather than the person: a completion from its model
/// ([`Ask::sample`], for a [`CreateMessageResult`]) or its roots ([`Ask::roots`], for a list of
/// [`Root`]). Await it for `O`.
#[must_use = "a question is asked when it is awaited"]
pub struct ClientQuestion<'a, O> {
    ask: &'a Ask,
    core: Core,
    request: Request,
    answer: PhantomData<fn() -> O>,
}

/// A completion from the client's model.
type SampleQuestion<'a> = ClientQuestion<'a, CreateMessageResult>;

/// The client's roots.
type RootsQuestion<'a> = ClientQuestion<'a, Vec<Root>>;

impl<'a, O> ClientQuestion<'a, O> {
    fn new(ask: &'a Ask, key: String, about: &str, request: Request) -> Self {
        ClientQuestion {
            ask,
            core: Core::new(RetryPolicy::NONE, key, Some(about.to_owned())),
            request,
            answer: PhantomData,
        }
    }

    /// Waits `deadline` for the answer, live or in a round; then the call ends with
    /// [`SendError::Timeout`](crate::ask::SendError::Timeout).
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.core.deadline = Some(deadline);
        self
    }
}

/// Reads a reply as `T`.
fn carried<T: serde::de::DeserializeOwned>(reply: &Value, what: &str) -> Result<T, ElicitError> {
    T::deserialize(reply).map_err(|e| {
        let rule = Rule::Json(format!("not a {what} result: {e}"));
        ElicitError::new(vec![Violation::new(Location::Envelope, rule, None)])
    })
}

impl<O> Asking for ClientQuestion<'_, O> {
    fn core(&self) -> &Core {
        &self.core
    }

    fn kind(&self) -> QuestionKind {
        match self.request {
            Request::Roots => QuestionKind::Roots,
            _ => QuestionKind::Sample,
        }
    }

    fn needs(&self) -> Capability {
        self.request.needs()
    }

    fn trace_name(&self) -> Cow<'static, str> {
        Cow::Borrowed(self.request.method())
    }

    fn identity(&self) -> Identity {
        let request = self
            .request
            .params(crate::version::ProtocolVersion::V2026_07_28);
        Identity {
            kind: self.kind(),
            message: digest(&serde_json::to_vec(&request).unwrap_or_default()),
            choices: String::new(),
            form: String::new(),
        }
    }

    fn request(
        &self,
        _facts: &Facts<'_>,
        _message: &str,
        _keep: Option<Kept<'_>>,
        _index: usize,
    ) -> Result<Request, Interrupt> {
        Ok(self.request.clone())
    }
}

impl sealed::Asks for SampleQuestion<'_> {
    type Output = CreateMessageResult;

    fn asking(&self) -> &dyn Asking {
        self
    }

    fn read(&self, reply: &Value) -> Result<CreateMessageResult, ElicitError> {
        carried(reply, "sampling/createMessage")
    }

    fn action(_: &CreateMessageResult) -> ElicitAction {
        ElicitAction::Accept
    }
}

impl sealed::Asks for RootsQuestion<'_> {
    type Output = Vec<Root>;

    fn asking(&self) -> &dyn Asking {
        self
    }

    fn read(&self, reply: &Value) -> Result<Vec<Root>, ElicitError> {
        carried::<ListRootsResult>(reply, "roots/list").map(|list| list.roots)
    }

    fn action(_: &Vec<Root>) -> ElicitAction {
        ElicitAction::Accept
    }
}

asked_on_await! {
    [] SampleQuestion<'a> => CreateMessageResult;
    [] RootsQuestion<'a> => Vec<Root>;
}
