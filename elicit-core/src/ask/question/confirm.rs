//! A confirmation: a yes/no question that fails closed, in one shape on every version.

use std::future::IntoFuture;
use std::time::Duration;

use serde_json::Value;

use super::{Answering, Asking, FormQuestion, sealed};
use crate::ask::Ask;
use crate::ask::asked::Interrupt;
use crate::ask::{AnswerSource, Attempt, RetryPolicy};
use crate::error::ElicitError;
use crate::form::Confirm;
use crate::result::{ElicitAction, ElicitResult};

impl Ask {
    /// Asks a yes/no question under `key`: the [`Confirm`] form with `message`. Await it for a
    /// [`Confirmation`], and go ahead only if it [`is_confirmed`](Confirmation::is_confirmed).
    ///
    /// A confirmation fails closed, in one shape on every version: anything but an accept
    /// with the box checked is [`Confirmation::NotConfirmed`], saying why, and so is a client
    /// that cannot show it ("no person could be asked"). It is never answered from the
    /// arguments.
    pub fn confirm(
        &self,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> ConfirmQuestion<'_> {
        let question = FormQuestion::new(self, key.into()).message(message);
        ConfirmQuestion::new(question.person_only())
    }
}

/// The answer to a confirmation ([`Ask::confirm`](Ask::confirm)): confirmed, or not,
/// and why not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirmation {
    /// The person accepted with the box checked.
    Confirmed,
    /// Anything else.
    NotConfirmed(Unconfirmed),
}

impl Confirmation {
    /// Whether the person confirmed: go ahead only then.
    #[must_use]
    pub fn is_confirmed(self) -> bool {
        self == Confirmation::Confirmed
    }

    /// Why it is not confirmed, if it is not.
    #[must_use]
    pub fn reason(self) -> Option<Unconfirmed> {
        match self {
            Confirmation::Confirmed => None,
            Confirmation::NotConfirmed(why) => Some(why),
        }
    }
}

/// Why a confirmation is not confirmed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unconfirmed {
    /// The person declined.
    Declined,
    /// The person dismissed it.
    Cancelled,
    /// No answer came before the question's deadline.
    TimedOut,
    /// An accept without the box checked: `confirmed` false, missing, or not a boolean.
    Unchecked,
    /// The client cannot show it: no person could be asked.
    NoPerson,
}

impl std::fmt::Display for Unconfirmed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unconfirmed::Declined => "the person declined",
            Unconfirmed::Cancelled => "the person dismissed it",
            Unconfirmed::TimedOut => "no answer came in time",
            Unconfirmed::Unchecked => "the box was not checked",
            Unconfirmed::NoPerson => "no person could be asked",
        })
    }
}

/// A confirmation: asks a yes/no question under a key. Await it for a [`Confirmation`]. Made
/// by [`Ask::confirm`](Ask::confirm).
///
/// Each await is its own question: awaiting the key again after a cancel asks the person
/// again; after a decline it is not confirmed, saying so, and asks nothing.
///
/// It has no `or_arguments`: a confirmation comes from a person, never from the model.
///
/// ```compile_fail
/// # async fn body(ask: &elicit_core::ask::Ask) {
/// let _ = ask.confirm("pay", "Pay 120 EUR?").or_arguments();
/// # }
/// ```
///
/// Nor `accepting_unasked`: a yes counts only through the sealed state of the round that asked
/// for it.
///
/// ```compile_fail
/// # async fn body(ask: &elicit_core::ask::Ask) {
/// let _ = ask.confirm("pay", "Pay 120 EUR?").accepting_unasked();
/// # }
/// ```
#[must_use = "a question is asked when it is awaited"]
pub struct ConfirmQuestion<'a> {
    form: FormQuestion<'a, Confirm>,
}

impl<'a> ConfirmQuestion<'a> {
    pub(crate) fn new(form: FormQuestion<'a, Confirm>) -> Self {
        ConfirmQuestion { form }
    }

    /// Asks again as `policy` allows: once more after a cancel, and after content that is
    /// not a confirmation. On 2026-07-28 each new attempt is another round.
    pub fn retrying(self, policy: RetryPolicy) -> Self {
        ConfirmQuestion {
            form: self.form.retrying(policy),
        }
    }

    live_settings!(form.form.core, "it is not confirmed");
}

impl sealed::Asks for ConfirmQuestion<'_> {
    type Output = Confirmation;

    fn action(answer: &Confirmation) -> ElicitAction {
        match answer {
            Confirmation::Confirmed | Confirmation::NotConfirmed(Unconfirmed::Unchecked) => {
                ElicitAction::Accept
            }
            Confirmation::NotConfirmed(Unconfirmed::Declined) => ElicitAction::Decline,
            Confirmation::NotConfirmed(_) => ElicitAction::Cancel,
        }
    }

    fn asking(&self) -> &dyn Asking {
        sealed::Asks::asking(&self.form)
    }

    fn read(&self, reply: &Value) -> Result<Confirmation, ElicitError> {
        Ok(match self.form.read(reply)? {
            ElicitResult::Accept(Confirm { confirmed: true }) => Confirmation::Confirmed,
            ElicitResult::Accept(_) => Confirmation::NotConfirmed(Unconfirmed::Unchecked),
            ElicitResult::Decline => Confirmation::NotConfirmed(Unconfirmed::Declined),
            ElicitResult::Cancel => Confirmation::NotConfirmed(Unconfirmed::Cancelled),
        })
    }

    fn settle(
        &self,
        answer: Result<Confirmation, Interrupt>,
        last: Option<&Attempt>,
    ) -> Result<Confirmation, Interrupt> {
        let timed_out = last.is_some_and(|a| a.source == AnswerSource::TimedOut);
        match answer {
            Ok(Confirmation::NotConfirmed(Unconfirmed::Cancelled)) if timed_out => {
                Ok(Confirmation::NotConfirmed(Unconfirmed::TimedOut))
            }
            // Content that is no confirmation (`{}` among it), after every retry the policy
            // allowed.
            Err(Interrupt::Invalid { .. } | Interrupt::Unavailable(_)) => {
                Ok(Confirmation::NotConfirmed(Unconfirmed::Unchecked))
            }
            Err(Interrupt::MissingCapability { .. }) => {
                Ok(Confirmation::NotConfirmed(Unconfirmed::NoPerson))
            }
            other => other,
        }
    }
}

impl<'a> IntoFuture for ConfirmQuestion<'a> {
    type Output = Result<Confirmation, Interrupt>;
    type IntoFuture = Answering<'a, Confirmation>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move { self.form.ask().answer(&self).await })
    }
}
