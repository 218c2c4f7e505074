//! 2026-style handlers on every version: a handler that reads `inputResponses` and returns
//! [`InputRequired`] works on 2025-era connections too, where each request is sent live and the
//! handler is run again with the answers.

use std::future::Future;

use ::rmcp::model::{self as m, InputRequiredResult};
use serde_json::{Map, Value};

use super::ask::Ask;
use super::asked::{Asked, Interrupt};
use super::question::Params;
use crate::protocol::client::ElicitRequest;
use crate::protocol::round_trip::{InputRequired, InputResponses};
use crate::protocol::url_mode::UrlRequest;
use crate::version::ProtocolVersion;

/// What one run of a 2026-style handler came to.
#[derive(Debug)]
pub enum Round<R> {
    /// The tool finished.
    Done(R),
    /// The tool needs answers: the requests, and the state the retry should carry.
    Ask(InputRequired),
}

impl<R> From<InputRequired> for Round<R> {
    fn from(required: InputRequired) -> Self {
        Round::Ask(required)
    }
}

impl Ask {
    /// Runs a handler written for 2026-07-28 on any version.
    ///
    /// The handler reads the answers it has (`InputResponses`) and returns [`Round::Done`], or
    /// [`Round::Ask`] with the requests it needs and the `requestState` to carry.
    ///
    /// - On 2026-07-28 it runs once per call; an `Ask` goes back to the client as an
    ///   `InputRequiredResult`, and the client's retry runs it again.
    /// - On 2025-06-18 and 2025-11-25, each request is sent live, with its schema written for
    ///   the version (and an `elicitationId`, its key, for URL mode), and the handler runs
    ///   again at once with the answers and the state it gave, up to the round cap
    ///   ([`with_max_rounds`](Ask::with_max_rounds)). Each round's answers replace the last's.
    ///
    /// The state is the handler's own, passed through as it is: seal it if it matters (the
    /// client can change it), or use [`run`](Ask::run), which does. The client's capabilities
    /// are checked before any request is sent, on every version.
    pub async fn rounds<R, F, Fut>(&self, mut handler: F) -> Asked<R>
    where
        F: FnMut(InputResponses) -> Fut,
        Fut: Future<Output = Result<Round<R>, Interrupt>>,
    {
        let version = match self.version() {
            Ok(version) => version,
            Err(interrupt) => return Asked::stopped(interrupt),
        };
        let mut responses = InputResponses::from_rmcp(Some(self.responses()), self.request_state());
        let mut round = 0;
        loop {
            self.lock().running = true;
            let ran = handler(responses).await;
            self.lock().running = false;
            let required = match ran {
                Ok(Round::Done(result)) => return Asked::done(result),
                Ok(Round::Ask(required)) => required,
                Err(interrupt) => return Asked::stopped(interrupt),
            };
            let asked = match self.requests_for(&required, version) {
                Ok(asked) => asked,
                Err(interrupt) => return Asked::stopped(interrupt),
            };
            if version.has_input_requests() {
                return match InputRequiredResult::try_from(&required) {
                    Ok(result) => Asked::input_required(result),
                    Err(e) => Asked::stopped(Interrupt::Error(m::ErrorData::internal_error(
                        e.to_string(),
                        None,
                    ))),
                };
            }
            if round >= self.max_rounds {
                return Asked::stopped(Interrupt::TooManyRounds(self.max_rounds));
            }
            round += 1;
            let mut answers = Map::new();
            for (key, params) in asked {
                let awaited = params.message().to_owned();
                match self.send(&params, None, self.keep_alive, &awaited).await {
                    Ok(reply) => {
                        answers.insert(key, reply);
                    }
                    Err(interrupt) => return Asked::stopped(interrupt),
                }
            }
            responses = InputResponses::new(answers, required.request_state().map(str::to_owned));
        }
    }

    /// Each request of `required`, written for `version`, after checking the client declared
    /// its mode and rmcp can carry it: all of a round's requests are checked before any is
    /// sent, so no one answers a question whose round cannot finish.
    fn requests_for(
        &self,
        required: &InputRequired,
        version: ProtocolVersion,
    ) -> Result<Vec<(String, Params)>, Interrupt> {
        let mut out = Vec::with_capacity(required.requests().len());
        for (key, entry) in required.requests().entries() {
            let params = written_for(key, entry, version)?;
            self.check_capability(params.mode(), version)?;
            params.to_rmcp()?;
            out.push((key.clone(), params));
        }
        Ok(out)
    }
}

/// An `inputRequests` entry (written for 2026-07-28) as the request for `version`. A URL-mode
/// request gets its key as its `elicitationId` where the version sends one.
fn written_for(key: &str, entry: &Value, version: ProtocolVersion) -> Result<Params, Interrupt> {
    let malformed = |e: &dyn std::fmt::Display| {
        Interrupt::Error(m::ErrorData::internal_error(
            format!("input request `{key}` cannot be sent: {e}"),
            None,
        ))
    };
    match ElicitRequest::from_jsonrpc(entry, ProtocolVersion::V2026_07_28)
        .map_err(|e| malformed(&e))?
    {
        ElicitRequest::Url(url) => {
            let (message, url) = (url.message().to_owned(), url.url().to_owned());
            UrlRequest::new(version, message, url, key.to_owned())
                .map(Params::Url)
                .map_err(Interrupt::Url)
        }
        ElicitRequest::Form(form) => form
            .with_version(version)
            .map(Params::Form)
            .map_err(|e| Interrupt::Peer(super::peer::PeerElicitError::Schema(e))),
    }
}
