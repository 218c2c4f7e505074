//! What one scripted call shares between the client, the server's guard and the driver: the
//! script, what was asked, the progress received, and the first failure.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rmcp::model::ProgressNotificationParam;
use tokio::sync::Notify;

use crate::answer::Answer;
use crate::transcript::{AskedForm, TestError};

/// The answers not used yet, shared by every call of one client.
pub(super) type Script = Arc<Mutex<VecDeque<Answer>>>;

pub(super) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A test that panicked mid-push leaves the data usable.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Public only in name: its module is private, so no user can reach it; the sealed
/// [`TestServer`](super::TestServer) trait names it.
pub struct Log {
    script: Script,
    pub(super) asked: Mutex<Vec<AskedForm>>,
    pub(super) progress: Mutex<Vec<ProgressNotificationParam>>,
    failure: Mutex<Option<TestError>>,
    failed: Notify,
}

impl Log {
    pub(super) fn new(script: Script) -> Self {
        Log {
            script,
            asked: Mutex::default(),
            progress: Mutex::default(),
            failure: Mutex::default(),
            failed: Notify::new(),
        }
    }

    /// Records `asked` and answers it from the script, after the answer's delay: a question
    /// with a key (2026-07-28) takes the answer for its key, or else the next answer for no
    /// key in particular; a live request takes the next answer. Either way only an answer of
    /// the request's kind (a form's, a completion, roots) is taken, so that live requests
    /// sent at once each find theirs. With none left for it, the call fails with
    /// [`TestError::NoAnswer`]; a form that sends a default its own rules refuse fails it with
    /// [`TestError::BrokenDefault`].
    pub(super) async fn answer(&self, asked: AskedForm) -> Option<Answer> {
        let message = asked.message.clone();
        if let Some((property, why)) = asked.broken_default() {
            lock(&self.asked).push(asked);
            self.fail(TestError::BrokenDefault {
                message,
                property,
                why,
            });
            return None;
        }
        let next = {
            let mut script = lock(&self.script);
            let fits = |a: &&Answer| a.answers(&asked.method);
            let index = match asked.key.as_deref() {
                Some(key) => script
                    .iter()
                    .position(|a| a.key() == Some(key))
                    .or_else(|| script.iter().position(|a| a.key().is_none() && fits(&a))),
                None => script.iter().position(|a| fits(&a)),
            };
            index.and_then(|index| script.remove(index))
        };
        lock(&self.asked).push(asked);
        let Some(answer) = next else {
            self.fail(TestError::NoAnswer { message });
            return None;
        };
        if !answer.delay().is_zero() {
            tokio::time::sleep(answer.delay()).await;
        }
        Some(answer)
    }

    /// Ends the call with `error`, unless it failed already.
    pub(super) fn fail(&self, error: TestError) {
        lock(&self.failure).get_or_insert(error);
        self.failed.notify_one();
    }

    /// The first failure, if there was one.
    pub(super) fn failure(&self) -> Option<TestError> {
        lock(&self.failure).clone()
    }

    /// Waits for a failure.
    pub(super) async fn failed(&self) -> TestError {
        loop {
            if let Some(error) = self.failure() {
                return error;
            }
            self.failed.notified().await;
        }
    }
}
